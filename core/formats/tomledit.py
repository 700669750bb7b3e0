"""RFC 6902 operations applied to TOML text, keeping comments and layout.

The same patch the planner computes for JSON hosts drives TOML hosts. Each edit is made the
surest way it can be: tables of plain values and one-line strings as text (``tomltables``:
reversible byte for byte), the rest through tomlkit (``tomlkitedit``), which keeps every comment
and blank line it is not asked to change. Every result is read again and compared with the
planned data before it is written. tomlkit is imported only on these paths, so commands that
never touch TOML do not pay for it.
"""

from __future__ import annotations

from typing import Any

from hookweave.core.errors import BadInput, ParseError
from hookweave.core.formats.jsonedit import split_pointer


def parse(text: str, path: str) -> dict[str, Any]:
    """The data as TOML defines it (tomllib where Python has it; tomlkit refuses some valid files,
    such as a ``[table]`` defined after its own sub-table, that Codex reads)."""
    from pathlib import Path

    from hookweave.core.formats import tomlload

    if text.startswith("\ufeff"):  # Codex's parser refuses it, and tomlkit could not write it back
        raise ParseError(path, 1, 1, "starts with a byte order mark", "save the file as UTF-8 without a BOM")
    try:
        return tomlload.load(text, Path(path))
    except ParseError as strict:
        import tomlkit
        from tomlkit.exceptions import ParseError as TomlError
        from tomlkit.exceptions import TOMLKitError

        try:  # tomlkit's words say more ("Key "model" already exists" where tomllib says "Cannot overwrite a value")
            tomlkit.parse(text)
        except TomlError as exc:  # tomlkit counts columns from 0, editors (and our JSON errors) from 1
            reason = str(exc).split(" at line ")[0].rstrip(".")
            raise ParseError(path, exc.line, exc.col + 1, f"invalid TOML: {reason}", _fix(reason)) from None
        except TOMLKitError as exc:  # KeyAlreadyPresent and its kin carry no place: tomllib's line, tomlkit's words
            lines = text.splitlines()
            key_at = lines[strict.line - 1] if 0 < strict.line <= len(lines) else ""
            col = len(key_at) - len(key_at.lstrip()) + 1
            raise ParseError(path, strict.line, col, f"invalid TOML: {str(exc).rstrip('.')}", _fix(str(exc))) from None
        if str(strict) != f"{strict.path}:{strict.line}:{strict.col}: {strict.reason}":
            raise strict from None  # it says its fix already
        raise ParseError(path, strict.line, strict.col, strict.reason, _fix(strict.reason)) from None


def _fix(reason: str) -> str:
    """What the operator does about a TOML error, for the one line that names it."""
    if any(word in reason for word in ("already exists", "Cannot overwrite", "Cannot declare", "twice")):
        return ("TOML allows a key, or a table, once: keep one (or rename the other) and run the command "
                "again")
    if "nested" in reason:
        return "nest it less deeply (the agent cannot read it either) and run the command again"
    return "correct that line (the agent cannot read the file either) and run the command again"


def apply_ops(text: str, ops: list[dict], path: str, *, faithful: bool = False) -> str:
    """``text`` with ``ops`` applied: as appended or cut blocks where they are tables of plain
    values (``tomltables``, or elements of an array of tables: ``tomlarrays``; reversible byte for
    byte), else through tomlkit; either way read again and compared with the planned data, so a
    line tomlkit lost or moved into another table is an error (nothing written), never a write.
    ``faithful``: refuse, too, to edit through tomlkit a file that tomlkit cannot give back as it
    is (parsed, then written, it differs: an array of tables split by another table)."""
    from hookweave.core.formats import patch, tomlarrays, tomlkitedit, tomltables

    doc = parse(text, path) if text.strip() else {}
    expected = _pruned(patch.applied(doc, ops))
    for fast in (tomltables.apply(text, ops, doc), tomlarrays.apply(text, ops, doc), _blocks_apart(text, ops, doc)):
        if fast is not None and _reads_as(fast, expected):
            return fast
    if faithful and text.strip() and not _round_trips(text):
        raise BadInput(f"{path}: tomlkit cannot edit this file without moving its tables (a [[table]] array split "
                       "by another table); nothing written. Put the array's tables together and run the command again")
    from tomlkit.exceptions import ParseError as TomlkitError

    try:
        out, failure = tomlkitedit.edit(text, ops), None
    except TomlkitError as exc:  # valid TOML (read above) in a layout tomlkit cannot read
        out, failure = "", (f"{path}:{exc.line}:{exc.col + 1}: tomlkit, which hookweave edits TOML with, cannot read "
                            f"this layout ({str(exc).split(' at line ')[0]}) although it is valid TOML; nothing written. "
                            "Move that table next to the others of its name and run the command again")
    except Exception:  # noqa: BLE001 - tomlkit failing to read its own output back: refused below
        out, failure = "", None
    moved = _moved_line(text, out) if out and _reads_as(out, expected) else None
    if out and _reads_as(out, expected) and moved is None:
        return out
    # Once more without the blocks appended at the end, which tomlkit moves or cannot read; else,
    # where tomlkit gathered a family's tables (a [hooks.state] among the [[hooks.X]]), the moved
    # text it made
    peeled = _past_tail_blocks(text, ops, doc)
    if peeled is not None and _reads_as(peeled, expected) and _moved_line(text, peeled) is None:
        return peeled
    if failure:
        raise BadInput(failure)
    if moved is not None:  # tables moved, every value kept (read back above): the data is what counts
        return out
    wrong = _first_difference(_pruned(_read(out)), expected) if out else "the file"
    raise BadInput(f"{path}: tomlkit cannot make this edit without changing {wrong} (a layout it rewrites: "
                   "dotted keys, an inline table); nothing written. Write that part as a [table] section and "
                   "run the command again")


def _blocks_apart(text: str, ops: list[dict], doc: Any) -> str | None:
    """The ops tomlkit must make (an entry in an array of tables) made first, through tomlkit, and
    then the block ops (a trust table changed along with its hook) as blocks: through tomlkit they
    would move, and come back without the file's own spacing. ``None`` when the ops are not of
    both kinds."""
    from tomlkit.exceptions import TOMLKitError as TomlkitError  # KeyAlreadyPresent too

    from hookweave.core.formats import tomlkitedit, tomltables

    blocks = [op for op in ops if tomltables.apply(text, [op], doc) is not None]
    others = [op for op in ops if op not in blocks]
    if not blocks or not others:
        return None
    try:
        between = tomlkitedit.edit(text, others)
    except TomlkitError:
        return None
    after = _read(between)
    return tomltables.apply(between, blocks, after) if after is not None else None


def _past_tail_blocks(text: str, ops: list[dict], doc: Any) -> str | None:
    """The ops made through tomlkit on the file less the blocks ``tomltables`` appended at its end
    (trust tables the ops do not touch), which then go back as they were: tomlkit would move them
    up to the other tables of their family, or fail to read them at all after a ``[table]`` that
    the operator defined after its own sub-tables. ``None`` when there are none, or tomlkit fails."""
    from tomlkit.exceptions import TOMLKitError as TomlkitError  # KeyAlreadyPresent too

    from hookweave.core.formats import tomlkitedit, tomltables

    nl = "\r\n" if "\r\n" in text else "\n"
    touched = [tuple(split_pointer(op["path"])) for op in ops]
    leaves = {path: value for path, value in tomltables.leaves(doc).items()
              if not any(path[:len(t)] == t or t[:len(path)] == path for t in touched)}
    head, found = text, True
    while found:
        found = False
        for path, value in leaves.items():
            block = tomltables.render(path, value, nl)
            if head.endswith((nl + nl + block, nl + nl + block[:-len(nl)])):
                head = head[:len(head) - len(block) - len(nl)]  # the block and the blank line before it
                found = True
    if head == text:
        return None
    try:
        return tomlkitedit.edit(head, ops) + text[len(head):]
    except TomlkitError:
        return None


def _moved_line(old: str, new: str) -> str | None:
    """A line of ``old`` that ``new`` has somewhere else (taken out in one place, put in at
    another), or ``None``: an edit should only add lines or only take them out."""
    from collections import Counter
    from difflib import SequenceMatcher

    a, b = old.splitlines(), new.splitlines()
    if _within(a, b) or _within(b, a):  # only added, or only taken out, whatever the diff would pair up
        return None
    taken, put = Counter(), Counter()
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("delete", "replace"):
            taken.update(line for line in a[i1:i2] if line.strip())
        if tag in ("insert", "replace"):
            put.update(line for line in b[j1:j2] if line.strip())
    both = taken & put
    return next(iter(both)) if both else None


def _within(short: list[str], long: list[str]) -> bool:
    """Whether ``short`` is ``long`` less some lines, in the same order."""
    rest = iter(long)
    return all(line in rest for line in short)


def _round_trips(text: str) -> bool:
    import tomlkit

    try:
        return tomlkit.dumps(tomlkit.parse(text.replace("\r\n", "\n"))) == text.replace("\r\n", "\n")
    except Exception:  # noqa: BLE001 - what tomlkit cannot read back, it cannot edit either
        return False


def _read(text: str) -> Any:
    from pathlib import Path

    from hookweave.core.formats import tomlload

    try:
        return tomlload.load(text, Path("config.toml"))
    except ParseError:
        return None


def _reads_as(text: str, expected: Any) -> bool:
    from hookweave.core.formats.patch import same

    return same(_pruned(_read(text)), expected)


def _pruned(value: Any) -> Any:
    """``value`` without empty tables: a table is in a TOML text only while something names it."""
    if not isinstance(value, dict):
        return value
    out = {k: _pruned(v) for k, v in value.items()}
    return {k: v for k, v in out.items() if v != {}}


def _first_difference(got: Any, want: Any, where: str = "") -> str:
    if isinstance(got, dict) and isinstance(want, dict):
        for key in list(want) + [k for k in got if k not in want]:
            if key not in got or key not in want or got[key] != want[key]:
                return _first_difference(got.get(key), want.get(key), f"{where}.{key}" if where else key)
    return where or "the file"
