"""``json.loads`` and the one-line ``json.dumps`` without importing ``json``: its import compiles
six patterns and makes its default coders, 5 million instructions (about 2% of a ``verify``), while
a command that reads a record and a settings file needs only the C scanner and encoder.

These are the very C parts ``json`` calls for these calls (``c_make_scanner`` for ``loads``,
``c_make_encoder`` when ``indent`` is None), given the arguments ``json`` would give them, so a
value comes out the same. Whatever they refuse (a text that is not JSON, a value that cannot be
written, a byte-order mark, too deep a nesting), and an interpreter without ``_json``, goes to
``json`` itself, which raises what it always raised. ``tests/formats/test_jsonlite.py`` holds it
to ``json`` on the repository's JSON files and on mutations of them.

An indented ``dumps`` (a record's text) is ``json``'s Python encoder written again for the values a
record holds, with the same C string quoting; any other value goes to ``json``.

``depth`` says how deeply a value ``loads`` gave is nested, which the C decoder does not limit as the
hosts' parsers (and ``jsontext``'s) do.
"""

from __future__ import annotations

from gc import get_referents
from typing import Any, Callable

try:
    import _json
except ImportError:  # pragma: no cover - an interpreter without the accelerator: json does it all
    _json = None

_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}  # json.decoder's
_SPACE = " \t\n\r"  # json.decoder's WHITESPACE


class _Decoder:
    """What the C scanner reads from a ``json.JSONDecoder()``: its hooks and number parsers."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int

    def __init__(self, parse_constant: Callable[[str], Any]) -> None:
        self.parse_constant = parse_constant


_scanners: dict = {}  # by parse_constant, as json keeps its default decoder's


def loads(text: str, parse_constant: Callable[[str], Any] | None = None) -> Any:
    """``json.loads(text, parse_constant=parse_constant)``."""
    if _json is not None and type(text) is str and not text.startswith("\ufeff"):
        scan = _scanners.get(parse_constant)
        if scan is None:
            scan = _scanners[parse_constant] = _json.make_scanner(_Decoder(parse_constant or _CONSTANTS.__getitem__))
        start = 0
        while start < len(text) and text[start] in _SPACE:
            start += 1
        try:
            value, end = scan(text, start)
        except Exception:  # noqa: BLE001 - json says what is wrong, in its own words
            pass
        else:
            if not text[end:].strip(_SPACE):
                return value
    import json

    return json.loads(text, parse_constant=parse_constant)


def dumps(value: Any, *, ensure_ascii: bool = True, separators: tuple[str, str] = (", ", ": "),
          sort_keys: bool = False, default: Callable[[Any], Any] | None = None, indent: int | None = None) -> str:
    """``json.dumps(value, ...)`` with these arguments; ``indent`` only with the others' defaults
    but ``ensure_ascii`` (a record's text)."""
    if indent is not None:
        return _indented_dumps(value, indent, ensure_ascii)
    if _json is not None:
        quote = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
        if type(value) is str:
            return quote(value)
        # A fresh one each call, as json makes: its ``markers`` (the containers being written, for
        # json's circular-reference check) belong to one call.
        encode = _json.make_encoder({}, default or _unwritable, quote, None, separators[1], separators[0],
                                    sort_keys, False, True)
        try:
            return "".join(encode(value, 0))
        except Exception:  # noqa: BLE001 - json raises its own error for it
            pass
    import json

    return json.dumps(value, ensure_ascii=ensure_ascii, separators=separators, sort_keys=sort_keys, default=default)


def _unwritable(value: Any) -> Any:
    raise TypeError(type(value).__name__)  # json.dumps, called next, says it in its words


class _Refused(Exception):
    """A value the indented writer leaves to ``json`` (a float, a subclass, a key not a string, a cycle)."""


def _indented_dumps(value: Any, indent: int, ensure_ascii: bool) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)``: ``json`` writes an indented
    text with its Python encoder (``_make_iterencode``) and the C string quoting; this is that
    encoder for the values a record holds (strings, whole numbers, true, false, null, lists and
    objects with string keys), so writing a record loads no ``json`` (5 million instructions of an
    install). Anything else, and every error, goes to ``json``."""
    if _json is not None:
        quote = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
        out: list[str] = []
        try:
            _write(value, quote, " " * indent, "\n", out, set())
        except Exception:  # noqa: BLE001 - json writes it, or raises its own error
            pass
        else:
            return "".join(out)
    import json

    return json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)


def _write(value: Any, quote: Callable[[str], str], step: str, newline: str, out: list[str], open_ids: set) -> None:
    kind = type(value)
    if kind is str:
        out.append(quote(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is list or kind is tuple or kind is dict:
        if not value:
            out.append("{}" if kind is dict else "[]")
            return
        if id(value) in open_ids:
            raise _Refused  # json's "Circular reference detected"
        open_ids.add(id(value))
        inner = newline + step
        out.append("{" if kind is dict else "[")
        first = True
        for item in value:
            out.append(inner if first else "," + inner)
            first = False
            if kind is dict:
                if type(item) is not str:
                    raise _Refused  # json's own key conversions (numbers, true, null) or its error
                out.append(quote(item) + ": ")
                _write(value[item], quote, step, inner, out, open_ids)
            else:
                _write(item, quote, step, inner, out, open_ids)
        out.append(newline + ("}" if kind is dict else "]"))
        open_ids.discard(id(value))
    else:
        raise _Refused


def depth(value: Any) -> int:
    """How deep the deepest value of ``loads`` sits (the top one at 0), as ``jsontext``'s span
    parser counts it (it refuses more than 256 levels; the C decoder takes more).

    One level at a time, each in one C call: ``gc.get_referents`` gives the members of every list
    and dict of a level (strings and numbers, which hold nothing, give none). Only lists and dicts
    come out of ``loads``, with no object shared or cyclic, so the levels are the value's levels.
    A 10,000-entry file has thousands of containers: a Python step for each cost 4 ms, C iterators
    filtering each level by type 8.3 million instructions, this 1.5 million."""
    deepest, level = 0, [value]
    while True:
        level = get_referents(*level)
        if not level:
            return deepest
        deepest += 1
