"""Pure: the plain TOML most manifests are written in, read without loading ``tomllib``.

``tomllib`` costs a no-op ``install`` about 11 million instructions (3% of the command): its
import compiles its patterns and loads ``string``, before a manifest of twenty lines is read. A
manifest is mostly headers (``[bundle]``, ``[[hooks]]``, ``[env.NAME]``) and one-line ``key =
value`` pairs of plain strings, integers, booleans and one-line arrays of them: that is read here,
line by line. Anything else (a quoted or dotted key, an escape, a multi-line string or array, a
float, a date, an inline table, a key or table defined twice, a control character) returns
``None``, and ``tomlload`` reads the text with ``tomllib`` as before, with its errors.
"""

from __future__ import annotations

from typing import Any

# No patterns: compiling them cost as much as reading a manifest (a million instructions each).
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_CONTROL = frozenset(map(chr, [*range(0x00, 0x09), *range(0x0a, 0x20), 0x7f]))  # tomllib refuses them
_DIGITS = frozenset("0123456789")
_NOT_AFTER_NUMBER = frozenset("0123456789_.eExob:-+")  # a float, date, time or other base follows


def parse(text: str) -> dict[str, Any] | None:
    """The data of ``text`` exactly as ``tomllib.loads`` gives it, or None where this is not sure."""
    root: dict[str, Any] = {}
    table = root
    defined = {id(root)}  # tables given by a header (or the root): one header each
    arrays: set[int] = set()  # lists made by [[...]] headers, which a header may extend
    keep = []  # every table and list above, alive, so the ids stay theirs
    if _CONTROL.intersection(text.replace("\n", "")):
        return None
    for line in text.split("\n"):
        line = line.strip(" \t")
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            keys, array = _header(line)
            table = keys and _open(root, keys, array, defined, arrays, keep)
            if table is None:
                return None
            continue
        key, _, rest = line.partition("=")
        key = key.rstrip(" \t")
        if not bare_key(key) or key in table or not _:
            return None
        value = _value(rest.lstrip(" \t"))
        if value is None:
            return None
        table[key] = value[0]
    return root


def bare_key(key: str) -> bool:
    """Whether ``key`` is a TOML bare key (``[A-Za-z0-9_-]+``), without compiling that pattern."""
    return bool(key) and _KEY_CHARS.issuperset(key)


def _header(line: str) -> tuple[list[str] | None, bool]:
    """``[a.b]`` or ``[[a.b]]`` with an optional comment: its keys and whether it is an array's."""
    array = line.startswith("[[")
    end = line.find("]]" if array else "]")
    if end < 0:
        return None, array
    rest = line[end + (2 if array else 1):].lstrip(" \t")
    keys = line[2 if array else 1:end].split(".")
    if (rest and not rest.startswith("#")) or not all(map(bare_key, keys)):
        return None, array
    return keys, array


def _open(root: dict, keys: list[str], array: bool, defined: set, arrays: set, keep: list) -> dict | None:
    """The table a header names, made as TOML makes it; None where TOML could refuse it."""
    table = root
    for key in keys[:-1]:
        child = table.setdefault(key, {})
        if isinstance(child, list) and id(child) in arrays:
            child = child[-1]
        elif not isinstance(child, dict):
            return None
        keep.append(child)
        table = child
    last = keys[-1]
    new: dict[str, Any] = {}
    keep.append(new)
    if array:
        if last not in table:
            table[last] = []
            keep.append(table[last])
            arrays.add(id(table[last]))
        tables = table[last]
        if id(tables) not in arrays:  # a table or a value's array: TOML refuses the header
            return None
        tables.append(new)
        return new
    if last in table:
        new = table[last]
        if not isinstance(new, dict) or id(new) in defined:
            return None
    else:
        table[last] = new
    defined.add(id(new))
    return new


def _value(text: str) -> tuple[Any] | None:
    """``(value,)`` for one scalar or one-line array and an optional comment, else None."""
    if text.startswith("["):
        items, rest = [], text[1:]
        while True:
            stripped = rest.lstrip(" \t")
            if stripped.startswith("]"):
                rest = stripped[1:]
                break
            scalar = _scalar(stripped)
            if scalar is None:
                return None
            items.append(scalar[0])
            rest = scalar[1].lstrip(" \t")
            if rest.startswith(","):
                rest = rest[1:]
            elif not rest.startswith("]"):
                return None
        value: Any = items
    else:
        scalar = _scalar(text)
        if scalar is None:
            return None
        value, rest = scalar
    rest = rest.strip(" \t")
    return (value,) if not rest or rest.startswith("#") else None


def _scalar(text: str) -> tuple[Any, str] | None:
    """A plain string, decimal integer or boolean at the start of ``text``, and the text after it."""
    quote = text[:1]
    if quote in ("'", '"'):
        end = text.find(quote, 1)
        if end < 0 or (quote == '"' and "\\" in text[1:end]) or text.startswith(quote * 3):
            return None
        return text[1:end], text[end + 1:]
    for word, value in (("true", True), ("false", False)):
        if text.startswith(word) and not _KEY_CHARS.intersection(text[len(word):len(word) + 1]):
            return value, text[len(word):]
    sign = 1 if text[:1] in "+-" else 0
    end = sign
    while text[end:end + 1] in _DIGITS and end < len(text):
        end += 1
    digits = text[sign:end]
    if not digits or (digits[0] == "0" and len(digits) > 1) or _NOT_AFTER_NUMBER.intersection(text[end:end + 1]):
        return None
    if len(digits) > 18:  # past 64 bits, and past int()'s digit limit: tomllib's errors and range
        return None
    return int(text[:end]), text[end:]
