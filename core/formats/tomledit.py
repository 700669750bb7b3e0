"""RFC 6902 operations applied to TOML text through tomlkit, which keeps comments and layout.

The same patch the planner computes for JSON hosts drives TOML hosts: tomlkit parses the
operator's file into a document that remembers every comment and blank line, we change only the
addressed items, and ``dumps`` gives back everything else as it was. tomlkit is imported here
only, so commands that never touch TOML do not pay for it.
"""

from __future__ import annotations

from typing import Any

from hookweave.core.errors import BadInput, ParseError
from hookweave.core.formats.jsonedit import split_pointer


def parse(text: str, path: str) -> dict[str, Any]:
    import tomlkit
    from tomlkit.exceptions import ParseError as TomlError

    if text.startswith("\ufeff"):  # tomlkit cannot parse it, so could not write it back either
        raise ParseError(path, 1, 1, "starts with a byte order mark", "save the file as UTF-8 without a BOM")
    try:
        return tomlkit.parse(text).unwrap()
    except TomlError as exc:  # tomlkit counts columns from 0, editors (and our JSON errors) from 1
        reason = str(exc).split(" at line ")[0]
        raise ParseError(path, exc.line, exc.col + 1, f"invalid TOML: {reason}") from None


def apply_ops(text: str, ops: list[dict], path: str, *, faithful: bool = False) -> str:
    """``text`` with ``ops`` applied: as appended or cut blocks where they are tables of plain
    values (``tomltables``, or elements of an array of tables: ``tomlarrays``; reversible byte for
    byte), else through tomlkit; either way read again and compared with the planned data, so a
    line tomlkit lost or moved into another table is an error (nothing written), never a write.
    ``faithful``: refuse, too, to edit through tomlkit a file that tomlkit cannot give back as it
    is (parsed, then written, it differs: an array of tables split by another table)."""
    from hookweave.core.formats import patch, tomlarrays, tomltables

    doc = parse(text, path) if text.strip() else {}
    expected = _pruned(patch.applied(doc, ops))
    for fast in (tomltables.apply(text, ops, doc), tomlarrays.apply(text, ops, doc)):
        if fast is not None and _reads_as(fast, expected):
            return fast
    if faithful and text.strip() and not _round_trips(text):
        raise BadInput(f"{path}: tomlkit cannot edit this file without moving its tables (a [[table]] array split "
                       "by another table); nothing written. Put the array's tables together and run the command again")
    try:
        out = _through_tomlkit(text, ops)
    except Exception:  # noqa: BLE001 - tomlkit failing to read its own output back: refused below
        out = ""
    if out and _reads_as(out, expected):
        return out
    wrong = _first_difference(_pruned(_read(out)), expected) if out else "the file"
    raise BadInput(f"{path}: tomlkit cannot make this edit without changing {wrong} (a layout it rewrites: "
                   "dotted keys, an inline table); nothing written. Write that part as a [table] section and "
                   "run the command again")


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


def _through_tomlkit(text: str, ops: list[dict]) -> str:
    import tomlkit

    crlf = "\r\n" in text and "\n" not in text.replace("\r\n", "")
    if crlf:  # edit as LF and give the file its own line ending back, our new lines included
        text = text.replace("\r\n", "\n")
    unended = bool(text) and not text.endswith("\n")
    if unended:  # tomlkit joins what it appends to a last line without its newline: edit with one, then drop it
        text += "\n"
    doc = tomlkit.parse(text)
    for op in ops:
        before = tomlkit.dumps(doc)
        _apply(doc, op)
        after = tomlkit.dumps(doc)
        # tomlkit keeps every other byte, so a prefix relation means the change was at the very
        # end. There, the one blank line between the operator's last table and ours is ours: no
        # trailing blank line after an append, and none left behind by the matching removal. A
        # file that already ends in a blank line gets one more before ours, so that the removal
        # takes ours and leaves the operator's.
        if after.startswith(before) and len(after) > len(before) and before.endswith("\n\n"):
            after = before + "\n" + after[len(before):]
            doc = tomlkit.parse(after)
        if after.endswith("\n\n") and (before.startswith(after) or after.startswith(before)):
            doc = tomlkit.parse(after[:-1])
    out = tomlkit.dumps(doc)
    if unended and out.endswith("\n"):
        out = out[:-1]
    return out.replace("\n", "\r\n") if crlf else out


def _apply(doc: Any, op: dict) -> None:
    from tomlkit.container import OutOfOrderTableProxy
    from tomlkit.items import Array

    tokens = split_pointer(op["path"])
    parent, holder = doc, None
    for token in tokens[:-1]:
        holder = parent
        parent = parent[int(token)] if isinstance(parent, list) else parent[token]
    last = tokens[-1]
    if _is_aot(parent) and isinstance(holder, OutOfOrderTableProxy):
        _apply_split(holder, tokens[-2], op, last)
    elif op["op"] == "remove":
        if isinstance(parent, Array):
            _remove_from_array(parent, int(last))
        else:
            del parent[int(last) if isinstance(parent, list) else last]
    elif isinstance(parent, list):
        index = len(parent) if last == "-" else int(last)
        like = _sibling(parent, index) if _is_aot(parent) else None
        value = _top_item(op["value"], inline=not _is_aot(parent), like=like)
        if op["op"] == "replace":
            parent[index] = value
        else:
            parent.insert(index, value)
    elif isinstance(parent, OutOfOrderTableProxy) and last not in parent:
        _add_table(doc, parent._tables[-1], last, op["value"])  # new keys go last, as appended
    elif isinstance(op["value"], dict) and not _is_inline(parent) and last not in parent:
        _add_table(doc, parent, last, op["value"])
    else:
        old = parent.get(last) if op["op"] == "replace" and hasattr(parent, "get") else None
        kept = _same_kind(old, op["value"])
        parent[last] = kept if kept is not None else _top_item(op["value"], inline=_is_inline(parent))


def _same_kind(old: Any, value: Any) -> Any:
    """A new string written the way the operator wrote the one it replaces (a 'literal' string, a
    multi-line one) when it can be, so that an edit and its reversal (``hooks adopt --undo``) give the
    original bytes back; ``None`` when the old value is no string or the new one would need escapes."""
    import tomlkit
    from tomlkit.items import String, StringType

    if not isinstance(old, String) or not isinstance(value, str) or old.type == StringType.SLB:
        return None
    multiline = old.type in (StringType.MLL, StringType.MLB)
    literal = old.type in (StringType.SLL, StringType.MLL)
    control = any((c < " " and c not in ("\t\n" if multiline else "\t")) or c == "\x7f" for c in value)
    if control or (literal and ("'" * 3 in value if multiline else "'" in value)):
        return None
    if multiline and (value.startswith("\n") or value.endswith(('"', "'", "\\")) or '"' * 3 in value):
        return None  # a leading newline is trimmed; a quote or backslash at the end would end it early
    if multiline and not literal and "\\" in value:
        return None
    return tomlkit.string(value, literal=literal, multiline=multiline)


def _apply_split(holder: Any, key: str, op: dict, last: str) -> None:
    """An op on an array of tables that another table splits in two (``[[hooks.Stop]]``,
    ``[other]``, ``[[hooks.Stop]]``): tomlkit shows the parts as one merged copy, whose changes
    reach no part, so the op goes to the part that holds the addressed element (or the last part)."""
    tables = [t for t in holder._tables if key in t and _is_aot(t[key])]
    parts = [t[key] for t in tables]
    index = sum(len(p) for p in parts) if last == "-" else int(last)
    for n, part in enumerate(parts):
        if index < len(part) or (n == len(parts) - 1 and op["op"] == "add"):
            break
        index -= len(part)
    like = _sibling(part, index)
    if op["op"] == "remove":
        del part[index]
        if not len(part):  # an empty part would come out as ``key = []``, a second definition
            del tables[n][key]
    elif op["op"] == "replace":
        part[index] = _top_item(op["value"], inline=False, like=like)
    else:
        part.insert(index, _top_item(op["value"], inline=False, like=like))


def _remove_from_array(array: Any, index: int) -> None:
    """``del array[index]`` of an inline array, leaving the text as if the element had never been
    there: the element before a removed last one takes over its comma (tomlkit's own ``del``
    leaves ``[ a, ]`` behind when ``[ a, b ]`` loses ``b``)."""
    groups = [g for g in array._value if g.value is not None and not g.is_whitespace()]
    if len(groups) != len(array):  # not the layout we know: let tomlkit do it
        del array[index]
        return
    removed = groups[index]
    if index == len(groups) - 1 and index > 0:
        groups[index - 1].comma = removed.comma
    elif index == 0 and len(groups) > 1:
        groups[1].indent = removed.indent
    array._value.remove(removed)
    list.__delitem__(array, index)
    array._reindex()


def _top_item(value: Any, *, inline: bool, like: Any = None, blank: bool = True) -> Any:
    """``to_item`` plus one blank line after the last table it opens, as a person would leave
    (``blank``; not where the operator's tables sit without blank lines between them)."""
    import tomlkit

    item = to_item(value, inline=inline, like=like)
    leaf = _leaf(item)
    if blank and leaf is not None:
        leaf.add(tomlkit.nl())
    return item


def _leaf(item: Any) -> Any:
    """The last table ``item`` opens (itself, or the last table inside it), or ``None``."""
    from tomlkit.items import AoT, Table

    leaf = item
    while True:
        if isinstance(leaf, AoT) and len(leaf):
            leaf = leaf[-1]
        elif isinstance(leaf, Table) and leaf.value.body and isinstance(leaf.value.body[-1][1], (AoT, Table)):
            leaf = leaf.value.body[-1][1]
        else:
            return leaf if isinstance(leaf, Table) else None


def _add_table(doc: Any, parent: Any, key: str, value: Any) -> None:
    """``parent[key] = value`` as a new table, spaced like its neighbours. In the middle of the
    file, after a table with no blank line below it, tomlkit would put a blank line there that the
    file keeps when our table goes again; so there ours comes without blank lines around it."""
    import tomlkit
    from tomlkit.items import Table, Whitespace

    body = parent.value.body if isinstance(parent, Table) else getattr(parent, "body", [])
    before = _leaf(body[-1][1]) if body else None
    tight = (before is not None and not (before.value.body and isinstance(before.value.body[-1][1], Whitespace))
             and not tomlkit.dumps(doc).rstrip("\n").endswith(before.as_string().rstrip("\n")))
    item = _top_item(value, inline=False, blank=not tight)
    parent[key] = item
    if tight and isinstance(item, Table):
        item.trivia.indent = ""


def _is_aot(container: Any) -> bool:
    from tomlkit.items import AoT

    return isinstance(container, AoT)


def _is_inline(container: Any) -> bool:
    from tomlkit.items import InlineTable

    return isinstance(container, InlineTable)


def _sibling(array: Any, index: int) -> Any:
    """The element a new one at ``index`` is written like: the one before it, else the first."""
    return array[index - 1] if 0 < index <= len(array) else (array[0] if len(array) else None)


def to_item(value: Any, *, inline: bool = False, like: Any = None) -> Any:
    """A tomlkit item for plain data: tables and arrays of tables, or inline forms where needed.

    ``like`` is a sibling the operator wrote: a key it holds inline (``hooks = [{...}]`` inside an
    ``[[hooks.Stop]]`` table) is written inline here too, so a new entry looks like its neighbours."""
    import tomlkit
    from tomlkit.items import AoT, Array, InlineTable

    if isinstance(value, dict):
        table = tomlkit.inline_table() if inline else tomlkit.table()
        for key, inner in value.items():
            model = like.get(key) if hasattr(like, "get") and not isinstance(like, InlineTable) else None
            child_inline = inline or isinstance(model, (Array, InlineTable))
            child_like = model[0] if isinstance(model, AoT) and len(model) else None
            table[key] = to_item(inner, inline=child_inline, like=child_like)
        return table
    if isinstance(value, list):
        if value and not inline and all(isinstance(v, dict) for v in value):
            aot = tomlkit.aot()
            for inner in value:
                aot.append(to_item(inner))
            return aot
        array = tomlkit.array()
        for inner in value:
            array.append(to_item(inner, inline=True))
        return array
    return tomlkit.item(value)
