"""Pure proof that an edited JSON / JSONC text reads as the data the plan wanted, at the cost of
what changed rather than of the file.

A plan's edit must not be written unless its text reads back as the plan's data. Re-reading the
whole file proves it but costs a second parse and a second copy of the data (on a 100,000-entry
file, most of an install's memory). Here the proof is local, and independent of the editor:

1. The plan's operations name the values that change: the containers they add to or remove from,
   the values they replace (``regions``). Each is found in the old text by its pointer (the member
   a reader keeps, when a key is duplicated) and in the new text likewise.
2. The new text must be the old text with each such value's text swapped for a new one: every
   stretch between them is compared, byte for byte, at C speed.
3. Each new value's text must be one whole JSON value (no comment at either end that could swallow
   what follows) and decode, alone, to the plan's data at its pointer.
4. Everywhere else the plan's data must equal the old data (``patch.same``: what the plan shares
   with the old data costs nothing).

The old text read as the old data, so the new text reads as the old data with those values
replaced: by 3 and 4, the plan's data. What this cannot decide (a change at the top level, a value
the walk cannot find) goes to a full read of the new text.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hookweave.core.errors import ParseError
from hookweave.core.formats import jsonspans, jsontext
from hookweave.core.formats.patch import same

_FIRST = set('{["-0123456789tfn')  # how a JSON value can start, and end: never with a comment
_LAST = set('}]"0123456789el')
_DECODER = json.JSONDecoder(parse_constant=jsontext.refuse_constant)
_GAP = re.compile(r"[ \t\n\r]*")  # JSON's blanks; JSONC's (comments too) are ``jsonspans.GAP``


def reads_as(old_text: str | None, new_text: str, new: Any, path: str, *, comments: bool, ops: list[dict]) -> bool:
    """Whether ``new_text`` parses to ``new``, given that ``old_text`` parses (the plan read it)
    and ``ops`` turn its data into ``new``."""
    pointers = regions(ops)
    if old_text is None or pointers is None:
        return _whole(new_text, new, path, comments)
    old = jsontext.load(old_text, path, comments=comments)  # the plan's own read: kept, not re-parsed
    nodes = [jsonspans.node_at(old_text, path, comments, p) for p in pointers]
    if None in nodes:
        return _whole(new_text, new, path, comments)
    old_at = new_at = 0
    for a, b, node, tokens in sorted(((n.start, n.end, n, p) for n, p in zip(nodes, pointers)), key=lambda r: r[0]):
        # The stretch before this value is the old text's; the new value starts where it ends.
        c = new_at + a - old_at
        if a < old_at or old_text[old_at:a] != new_text[new_at:c]:
            return False
        target = _at(new, tokens)
        if target is _MISSING:
            return False
        d = _list_at(old_text, new_text, c, node, _at(old, tokens), target, comments)
        if d is None:  # not a list that kept members of the old one: decode the value whole
            try:
                value, d = _value_at(new_text, c, comments)
            except (ValueError, LookupError):
                return _whole(new_text, new, path, comments)  # e.g. a trailing comma the C decoder refuses
            if not same(value, target):
                return False
        old_at, new_at = b, d
    return old_text[old_at:] == new_text[new_at:] and _same_beside(old, new, pointers)


def regions(ops: list[dict]) -> list[list[str]] | None:
    """Pointer tokens of the values ``ops`` change, none inside another; ``None`` when an
    operation changes the top value itself."""
    found: list[list[str]] = []
    for op in ops:
        tokens = jsontext.split_pointer(op["path"])
        if op["op"] in ("add", "remove"):
            tokens = tokens[:-1]  # the container gains or loses a member
        if not tokens or "from" in op:
            return None
        found.append(tokens)
    found.sort(key=len)
    kept: list[list[str]] = []
    for tokens in found:
        if not any(tokens[: len(k)] == k for k in kept):
            kept.append(tokens)
    return kept


def _list_at(old_text: str, new_text: str, start: int, old_node: Any, old: Any, new: list, comments: bool) -> int | None:
    """Where the list ``new`` ends in ``new_text`` if its text there is proven member by member,
    else ``None``. A member the plan kept (the same object as in the old list) must be its old
    text, byte for byte, which reads as that member (members kept in a row: the old text from the
    first to the last, separators and all); any other is decoded alone. Between members
    only blanks (comments in JSONC) and one comma each. So a 10,000-group event gaining one hook
    decodes one group, not 10,000 again (memory as well as time)."""
    if not (isinstance(old, list) and isinstance(new, list) and old_node is not None and old_node.kind == "array"):
        return None
    where = {id(value): i for i, value in enumerate(old)}
    if not any(id(value) in where for value in new):
        return None
    spans = [(child.start, child.end) for child in old_node.children]
    gap = jsonspans.GAP if comments else _GAP
    if start >= len(new_text) or new_text[start] != "[":
        return None
    pos = gap.match(new_text, start + 1).end()
    j = 0
    while j < len(new):
        if j:
            if new_text[pos : pos + 1] != ",":
                return None
            pos = gap.match(new_text, pos + 1).end()
        value = new[j]
        i = where.get(id(value))
        if i is not None:
            # The members kept in a row, with the old text's own separators between them, are one
            # stretch of the old text: compared at once, not member by member (1,000 hook groups).
            run = 1
            while j + run < len(new) and i + run < len(old) and new[j + run] is old[i + run]:
                run += 1
            a, b = spans[i][0], spans[i + run - 1][1]
            if new_text[pos : pos + b - a] != old_text[a:b]:
                return None
            pos += b - a
            j += run - 1
        else:
            try:
                found, pos = _value_at(new_text, pos, comments)
            except (ValueError, LookupError):
                return None
            if not same(found, value):
                return None
        pos = gap.match(new_text, pos).end()
        j += 1
    return pos + 1 if new_text[pos : pos + 1] == "]" else None


def _value_at(text: str, start: int, comments: bool) -> tuple[Any, int]:
    """The one JSON value that starts at ``start`` and where it ends; never a comment at either
    end (one at the end could swallow what follows it)."""
    if start >= len(text) or text[start] not in _FIRST:
        raise ValueError("no value here")
    try:
        return _DECODER.raw_decode(text, start)  # C speed, value and end at once
    except ValueError:
        if not comments:
            raise
    end = jsonspans.container_end(text, start)  # a comment inside: find the end, then decode without it
    if text[end - 1] not in _LAST:
        raise ValueError("not a value")
    return _decode(text[start:end], comments), end


def _whole(new_text: str, new: Any, path: str, comments: bool) -> bool:
    try:
        return same(jsontext.load(new_text, path, comments=comments), new)
    except (ParseError, ValueError):  # our edit broke the text: a failed proof, not the user's input
        return False


def _decode(piece: str, comments: bool) -> Any:
    if comments and "/" in piece:
        piece = jsontext.blank_comments(piece)
    return json.loads(piece, parse_constant=jsontext.refuse_constant)


_MISSING = object()


def _at(value: Any, tokens: list[str]) -> Any:
    for token in tokens:
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return _MISSING
    return value


def _same_beside(old: Any, new: Any, pointers: list[list[str]]) -> bool:
    """``old`` and ``new`` are equal everywhere but at the values ``pointers`` name."""
    if [] in pointers:
        return True
    if isinstance(old, dict) and isinstance(new, dict):
        if old.keys() != new.keys():
            return False
        pairs = ((k, old[k], new[k]) for k in old)
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return False
        pairs = ((str(i), a, b) for i, (a, b) in enumerate(zip(old, new)))
    else:
        return False
    below: dict[str, list[list[str]]] = {}
    for tokens in pointers:
        below.setdefault(tokens[0], []).append(tokens[1:])
    return all(_same_beside(a, b, below[k]) if k in below else same(a, b) for k, a, b in pairs)
