"""Text that can always be written: lone surrogates as ``\\uXXXX`` escapes.

A settings file may hold a ``"\\ud800"`` escape: JSON readers take it, and Python decodes it to a
lone surrogate, which UTF-8 cannot encode. Inside a JSON string its escape is the same value to
every reader; on a terminal it shows what the file holds. Used by the editor, the record and the
console, so nothing we write or print can fail on such a value.
"""

from __future__ import annotations

from hookweave.core.formats.lazypattern import LazyPattern

# Compiled on the first text that is not ASCII: a class spanning the surrogates compiles into a
# table of the whole Basic Multilingual Plane (3.7 million instructions, about 1 ms: 1.5% of a
# command's start-up), and nearly every text a command prints or checks is ASCII, which holds none.
_SURROGATE = LazyPattern("[\ud800-\udfff]")


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate: the one thing UTF-8 cannot encode (found without a copy)."""
    return not text.isascii() and _SURROGATE.search(text) is not None


def escape_surrogates(text: str) -> str:
    if text.isascii():
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class PrintableLine:
    """One printable line of valid UTF-8 (``fullmatch`` as a pattern's): no control character and
    no lone surrogate. Not one pattern: a class excluding the surrogates' range compiles into a
    table of the whole Basic Multilingual Plane (about 2 ms), on every command that reads a record."""

    pattern = "[^\x00-\x1f\x7f]+"  # what it checks besides the surrogates, as a pattern would

    def fullmatch(self, text: str) -> bool:
        # The control characters deleted leave the text as long as it was: no pattern to compile
        # (0.2 million instructions on every command that reads a record).
        return bool(text) and len(text.translate(_CONTROLS)) == len(text) and not has_surrogate(text)


_CONTROLS = dict.fromkeys([*range(0x20), 0x7F])


PRINTABLE = PrintableLine()
