"""A regular expression compiled on its first use, not when its module loads.

Compiling is most of what a module of ours costs at import: the twenty patterns ``hooks status``
met were 7.9 million instructions, 3% of the command, most of them in modules loaded for one
function a command may never call (a JavaScript regex's translation, a Windows path's check, a
usage error's wording). ``LAZY.fullmatch(text)`` reads as a compiled pattern's; the first use of
each method compiles the pattern (the ``re`` module's cache shares it) and keeps the bound method,
so later calls cost what a compiled pattern's do.
"""

from __future__ import annotations

import re


class LazyPattern:
    def __init__(self, source: str, flags: int = 0) -> None:
        self.pattern, self.flags = source, flags

    def __getattr__(self, name: str):  # only for what the instance lacks: each method's first use
        if name.startswith("__"):
            raise AttributeError(name)
        found = getattr(re.compile(self.pattern, self.flags), name)
        setattr(self, name, found)
        return found


# Patterns every record read checks, each a few string calls instead of a pattern: compiling the
# four (and the describe templates' one) was about 2 million instructions of every ``verify`` and
# ``install``. Each ``fullmatch`` answers as the pattern's (truthy or not) for every ``str``;
# tests/formats/test_lazypattern.py holds them to the patterns.
_LOWER_DIGITS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_HEX = frozenset("0123456789abcdef")


class _Name:
    """``[a-z0-9][a-z0-9-]{0,63}``: bundle, hook and host names."""

    pattern = r"[a-z0-9][a-z0-9-]{0,63}"

    def fullmatch(self, text: str) -> bool:
        return 0 < len(text) <= 64 and text[0] in _LOWER_DIGITS and _LOWER_DIGITS.issuperset(text.replace("-", ""))


class _EnvName:
    """``[A-Za-z_][A-Za-z0-9_]*``: an ASCII identifier, as ``str.isidentifier`` judges one."""

    pattern = r"[A-Za-z_][A-Za-z0-9_]*"

    def fullmatch(self, text: str) -> bool:
        return text.isascii() and text.isidentifier()


class _Sha256:
    """``sha256:[0-9a-f]{64}``."""

    pattern = r"sha256:[0-9a-f]{64}"

    def fullmatch(self, text: str) -> bool:
        return len(text) == 71 and text.startswith("sha256:") and _HEX.issuperset(text[7:])


class _Pointer:
    """``(/([^/~]|~[01])*)+``: a JSON Pointer, each ``~`` followed by 0 or 1."""

    pattern = r"(/([^/~]|~[01])*)+"

    def fullmatch(self, text: str) -> bool:
        if not text.startswith("/"):
            return False
        at = text.find("~")
        while at != -1:
            if text[at + 1:at + 2] not in ("0", "1"):
                return False
            at = text.find("~", at + 2)
        return True


NAME = _Name()
ENV_NAME = _EnvName()
SHA256 = _Sha256()
POINTER = _Pointer()
