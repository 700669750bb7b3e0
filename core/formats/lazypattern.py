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
