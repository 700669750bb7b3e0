"""``json.loads`` and the one-line ``json.dumps`` without importing ``json``: its import compiles
six patterns and makes its default coders, 5 million instructions (about 2% of a ``verify``), while
a command that reads a record and a settings file needs only the C scanner and encoder.

These are the very C parts ``json`` calls for these calls (``c_make_scanner`` for ``loads``,
``c_make_encoder`` when ``indent`` is None), given the arguments ``json`` would give them, so a
value comes out the same. Whatever they refuse (a text that is not JSON, a value that cannot be
written, a byte-order mark, too deep a nesting), and an interpreter without ``_json``, goes to
``json`` itself, which raises what it always raised. ``tests/formats/test_jsonlite.py`` holds it
to ``json`` on the repository's JSON files and on mutations of them.
"""

from __future__ import annotations

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
          sort_keys: bool = False, default: Callable[[Any], Any] | None = None) -> str:
    """``json.dumps(value, ...)`` with these arguments (no ``indent``: that is ``json``'s Python encoder)."""
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
