"""Pure, format-preserving application of RFC 6902 operations to JSON / JSONC text.

Each operation splices only the region it changes; indentation, key order, spacing, comments,
non-ASCII text, line ends, a BOM and the trailing newline elsewhere stay as they were.
Insertion and removal are written as exact inverses, so installing and then uninstalling with
nothing in between gives back the original bytes.

One parse serves many operations: the plan is cut into runs (adds at consecutive places of one
container, removals of consecutive entries), and the splices of every run that does not depend
on an earlier one of the same round are applied together, last offset first. A run that does
(it edits inside a container an earlier run changed) waits for the next round and its parse.
A plan of 1,000 hooks into one event is one or two parses, not 1,000. The text is what applying
the operations one at a time gives, save that new entries take their style from the file as the
operator wrote it (not from entries of ours, nor after a removal took away the only example).
"""

from __future__ import annotations

from hookweave.core.formats import jsonspans
from hookweave.core.formats.jsonremove import Splice
from hookweave.core.formats.jsonsplice import Editor
from hookweave.core.formats.jsontext import split_pointer

__all__ = ["apply_ops", "split_pointer"]


def apply_ops(text: str, ops: list[dict], path: str, *, comments: bool = False) -> str:
    """Return ``text`` with every operation applied in order (``add``, ``remove``, ``replace``)."""
    runs = _runs(ops)
    checked = False  # the text as given is checked once; later rounds read our own splices
    while runs:
        root = jsonspans.root(text, path, comments=comments, checked=checked)
        jsonspans.along(root, *(split_pointer(run[0]["path"])[:-1] for run in runs))  # what the runs edit
        editor = Editor(text, root)
        checked = True
        splices: list[Splice] = []
        touched: list[tuple[list[str], set[str] | None]] = []
        while runs and not (touched and _depends(runs[0], touched)):
            run = runs.pop(0)
            new, rest = editor.run(run)
            if touched and _overlaps(new, splices):
                runs.insert(0, run)
                break
            splices += new
            touched.append(_footprint(run))
            if rest:
                runs.insert(0, rest)
                break
        text = _splice_all(text, splices)
    return text


def _runs(ops: list[dict]) -> list[list[dict]]:
    """Cut ``ops`` into runs that one parse can serve: consecutive adds into one container (the
    indices counting up, or all ``-``, or new keys), consecutive removals (indices counting down,
    or keys); anything else alone. The editor takes what one parse allows and hands back the rest."""
    runs: list[list[dict]] = []
    for op in ops:
        if runs and _continues(runs[-1], op):
            runs[-1].append(op)
        else:
            runs.append([op])
    return runs


def _continues(run: list[dict], op: dict) -> bool:
    last = run[-1]
    if op["op"] != last["op"] or op["op"] not in ("add", "remove"):
        return False
    head, _, token = op["path"].rpartition("/")
    last_head, _, last_token = last["path"].rpartition("/")
    if head != last_head:
        return False
    if op["op"] == "add":
        if token == "-" or last_token == "-":
            return token == last_token
        if token.isdigit() and last_token.isdigit():
            return int(token) == int(last_token) + 1
        return not token.isdigit() and not last_token.isdigit()  # new keys of one object
    if token.isdigit() and last_token.isdigit():
        return int(token) == int(last_token) - 1
    return not token.isdigit() and not last_token.isdigit()  # keys of one object, in file order


def _footprint(run: list[dict]) -> tuple[list[str], set[str] | None]:
    """The container a run edits, and the keys it touches there (``None``: any index may shift)."""
    tokens = split_pointer(run[0]["path"])
    last = tokens[-1]
    keys = None if (last.isdigit() or last == "-") else {split_pointer(op["path"])[-1] for op in run}
    return tokens[:-1], keys


def _depends(run: list[dict], touched: list[tuple[list[str], set[str] | None]]) -> bool:
    """Whether ``run`` edits the container of an earlier run or passes through what that changed."""
    for op in run:
        tokens = split_pointer(op["path"])
        for parent, keys in touched:
            if tokens[: len(parent)] != parent or len(tokens) <= len(parent):
                continue
            if len(tokens) == len(parent) + 1 or keys is None or tokens[len(parent)] in keys:
                return True
    return False


def _overlaps(new: list[Splice], old: list[Splice]) -> bool:
    """Whether splices of two runs touch the same text (two inserts at one offset: which goes first?)."""
    return any(start < o_end and o_start < end or start == end == o_start == o_end
               for start, end, _ in new for o_start, o_end, _ in old)


def _splice_all(text: str, splices: list[Splice]) -> str:
    """Apply splices of one parse, last offset first, joining the pieces once."""
    parts: list[str] = []
    pos = len(text)
    for start, end, new in sorted(splices, key=lambda s: (s[0], s[1]), reverse=True):
        parts.append(text[end:pos])
        parts.append(new)
        pos = start
    parts.append(text[:pos])
    return "".join(reversed(parts))
