"""Pure: edits of the project file's text that keep every comment, blank line and key order.

``hooks add`` appends a ``[[bundles]]`` table, ``hooks remove`` takes one out, and sync and
autoupdate set a bundle's pin (``rev``, ``commit``, ``hash``). tomlkit keeps what it does not
touch byte for byte; a new file gets a header that says what it is.
"""

from __future__ import annotations

from typing import Any

HEADER = (
    "# The agent hooks of this repository (hookweave). `hooks sync` makes the agents' files match it;\n"
    "# commit this file, .hookweave/ and the agents' files it writes. See `hooks sync --help`.\n"
)
PIN_KEYS = ("rev", "commit", "hash")


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def new_file(hosts: list[str]) -> str:
    import tomlkit

    doc = tomlkit.parse(HEADER)
    doc.add("hosts", _array(hosts))
    return tomlkit.dumps(doc)


def _array(values: list[str]) -> Any:
    import tomlkit

    array = tomlkit.array()
    array.extend(values)
    return array


def add_entry(text: str, fields: dict[str, Any]) -> str:
    """``text`` with a ``[[bundles]]`` table holding ``fields`` (in their order) at the end, after a
    blank line; everything before it stays as it was, byte for byte."""
    import tomlkit

    table = tomlkit.table()
    for key, value in fields.items():
        table.add(key, _array(value) if isinstance(value, list) else value)
    piece = tomlkit.document()
    aot = tomlkit.aot()
    aot.append(table)
    piece.append("bundles", aot)
    nl = _newline(text)
    body = text if not text or text.endswith("\n") else text + nl
    gap = "" if not body.strip() or body.endswith("\n\n") or body.endswith("\r\n\r\n") else nl
    return body + gap + tomlkit.dumps(piece).replace("\n", nl)


def remove_entry(text: str, name: str) -> str:
    import tomlkit

    doc = tomlkit.parse(text)
    bundles = doc.get("bundles")
    kept = [t for t in bundles if t.get("name") != name] if bundles is not None else []
    if bundles is None or len(kept) == len(bundles):
        return text
    index = next(i for i, t in enumerate(bundles) if t.get("name") == name)
    del bundles[index]
    if not len(bundles):
        del doc["bundles"]
    new = _line_ends(tomlkit.dumps(doc), text)
    return _trailing_like(new, text)


def _trailing_like(new: str, old: str) -> str:
    """The blank line ``add_entry`` put before a table stays behind when tomlkit removes the table
    after it: end the file with no more blank lines than it had, so add then remove gives it back."""
    def blank_tail(text: str) -> int:
        body = text.replace("\r\n", "\n")
        return len(body) - len(body.rstrip("\n"))

    extra = blank_tail(new) - max(blank_tail(old), 1 if new.strip() else 0)
    nl = _newline(old)
    return new[: len(new) - extra * len(nl)] if extra > 0 else new


def set_fields(text: str, name: str, fields: dict[str, Any]) -> str:
    """Set (or, with ``None``, remove) keys of the bundle ``name``. A new pin key goes right after
    ``source`` and the pin keys before it (tomlkit would add it at the table's end, after the
    operator's comments): a reviewer reads the pin beside what it pins."""
    import tomlkit

    doc = tomlkit.parse(text)
    table = next(t for t in doc["bundles"] if t.get("name") == name)
    for key, value in fields.items():
        if value is None:
            if key in table:
                del table[key]
        elif key in table:
            table[key] = value
        else:
            after = _insert_point(list(table.keys()), key)
            if after is None:
                table.add(key, value)
            else:
                table.value._insert_after(after, key, value)
    return _line_ends(tomlkit.dumps(doc), text)


def _insert_point(keys: list[str], key: str) -> str | None:
    order = ["name", "source", *PIN_KEYS]
    if key not in order:
        return None
    before = [k for k in order[: order.index(key)] if k in keys]
    return before[-1] if before else None


def _line_ends(new: str, old: str) -> str:
    """tomlkit writes ``\\n`` for what it adds: a CRLF file keeps CRLF on every line."""
    if _newline(old) == "\r\n":
        return new.replace("\r\n", "\n").replace("\n", "\r\n")
    return new
