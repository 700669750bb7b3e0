"""Text that can always be written: lone surrogates as ``\\uXXXX`` escapes.

A settings file may hold a ``"\\ud800"`` escape: JSON readers take it, and Python decodes it to a
lone surrogate, which UTF-8 cannot encode. Inside a JSON string its escape is the same value to
every reader; on a terminal it shows what the file holds. Used by the editor, the record and the
console, so nothing we write or print can fail on such a value.
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate: the one thing UTF-8 cannot encode (found without a copy)."""
    return _SURROGATE.search(text) is not None


def escape_surrogates(text: str) -> str:
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
