"""The one executable per event that Cline runs, as hookweave writes it, and reading it back.

Cline (CLI 3.0.65) runs every file in a hooks folder whose name, less a known extension, is an
event's; a file without a shebang and without an extension it runs with ``bash``, a file with a
shebang with that interpreter (``env`` dropped), so the executable bit does not matter to it.
Each event's file here is a ``python3 -S`` dispatcher that lists its members as data, one JSON
object a line between ``HOOKS = [`` and ``]``, each command ending in its
``# hookweave:<bundle>/<id>`` marker: what Cline runs is what verify reads. Its first lines are sh,
which starts Python with ``-S`` (``TRAMPOLINE``): Cline splits a shebang's words itself, but a
program that starts the file as the kernel does would take ``python3 -S`` for one name.

The dispatcher answers Cline once for all its members, in the list's order, the way Cline
combines several files' answers (measured in its code): the last ``HOOK_CONTROL<TAB>`` line of
stdout, else the whole stdout, read as JSON; a member whose output does not parse, or that times
out, is ignored; contexts are joined with a newline. It differs on purpose in one point: the first
member that cancels ends the run, so a later member never sees a call already refused.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

HEADER = "#!/bin/sh\n# Cline {event} hook, written by hookweave"
# sh runs ``:`` then ``exec``; Python reads a string. Python's own start: 40 ms with ``site``, 7 ms without.
TRAMPOLINE = "''':'\nexec python3 -S \"$0\" \"$@\"\n'''\n"
IMPORTS = TRAMPOLINE + "import sys\n\n"
# What earlier versions wrote before ``HOOKS`` (issue 24 dropped ``json`` and ``subprocess``, 30 ms a run).
EARLIER_HEADS = (("#!/usr/bin/env python3\n", "import json\nimport subprocess\nimport sys\n\n"),)
FOLDERS = "# hookweave-made-folders: "  # how many folders above this file hookweave made (uninstall removes them)
OPEN, CLOSE = "HOOKS = [\n", "]\n"

MARK = "# -- the dispatcher's code: install copies every line below this one "  # in core/standalone/cline_dispatch.py
# The code earlier hookweave versions wrote below ``HOOKS`` (SHA-256 of it, 16 hex digits): a dispatcher
# holding one, otherwise as hookweave writes it, is ours and unedited; install puts today's code in.
EARLIER = frozenset({"1300c8be3bd73df2",  # before issue 22 (children holding stdout, non-BMP commands)
                     "66b984a8634d24de"})  # before issue 24 (json, subprocess and site on every run)


@functools.lru_cache(maxsize=1)
def program() -> str:
    """The dispatcher's code as install writes it below the ``HOOKS`` list: ``jsonfast.py``'s and
    ``chainproc.py``'s code (JSON and members run without ``json`` or ``subprocess``), then the part
    of ``core/standalone/cline_dispatch.py`` after its marker line (files of the standalone layer,
    which import nothing of hookweave)."""
    from hookweave.core import standalone

    here = Path(standalone.__file__).parent
    text = (here / "cline_dispatch.py").read_text(encoding="utf-8")
    parts = [(here / name).read_text(encoding="utf-8") for name in ("jsonfast.py", "chainproc.py")]
    return "\n\n".join(parts + [text.split(MARK, 1)[1].split("\n", 1)[1]])


def render(event: str, hooks: list[dict[str, Any]], folders: int) -> str:
    """The dispatcher for ``event`` running ``hooks`` (``{command, matcher?, timeout?}``) in order."""
    lines = "".join("    " + json.dumps(h, ensure_ascii=True, sort_keys=False) + ",\n" for h in hooks)
    return (
        HEADER.format(event=event) + ": it runs the hooks listed below, in order, and answers Cline once.\n"
        "# hookweave deletes this file with the last of them; `hooks verify` reports any edit.\n"
        f"{FOLDERS}{folders}\n"
        f"{IMPORTS}{OPEN}{lines}{CLOSE}{program()}"
    )


def read(event: str, text: str) -> dict[str, Any]:
    """What a file at ``event``'s place holds: ``{"foreign": True}`` when hookweave did not write it;
    else ``{"hooks": {event: [...]}, "folders": n, "exact": whether it is byte for byte what
    hookweave writes for those hooks}``. A member line that does not parse is kept as its text."""
    if not any(text.startswith(shebang + HEADER.split("\n", 1)[1].format(event=event))
               for shebang in (HEADER.split("\n", 1)[0] + "\n", *(s for s, _ in EARLIER_HEADS))):
        return {"foreign": True}
    folders = 0
    at = text.find("\n" + FOLDERS)
    if at >= 0:
        value = text[at + 1 + len(FOLDERS):].split("\n", 1)[0]
        folders = int(value) if value.isdigit() and len(value) < 3 else 0
    start = text.find("\n" + OPEN)
    end = text.find("\n" + CLOSE, start + 1) if start >= 0 else -1
    hooks: list[Any] = []
    if start >= 0 and end >= 0:
        for line in text[start + 1 + len(OPEN):end + 1].splitlines():
            body = line.strip().removesuffix(",")
            try:
                hooks.append(json.loads(body))
            except ValueError:
                hooks.append(line)
    clean = all(isinstance(h, dict) for h in hooks)
    exact = clean and text == render(event, hooks, folders)
    earlier = clean and not exact and _earlier(text, render(event, hooks, folders))
    return {"hooks": {event: hooks}, "folders": folders, "exact": exact or earlier, "earlier": earlier}


def _earlier(text: str, today: str) -> bool:
    """Whether ``text`` is ``today``'s dispatcher with the code an earlier hookweave wrote below
    ``HOOKS``, and its interpreter line and imports (``EARLIER_HEADS``) or today's."""
    import hashlib

    head = today[: len(today) - len(program())]
    shebang = HEADER.split("\n", 1)[0] + "\n"
    heads = [head] + [head.replace(shebang, old_shebang, 1).replace(IMPORTS + OPEN, old_imports + OPEN, 1)
                      for old_shebang, old_imports in EARLIER_HEADS]
    for old in heads:
        tail = text[len(old):]
        if text.startswith(old) and hashlib.sha256(tail.encode("utf-8", "surrogatepass")).hexdigest()[:16] in EARLIER:
            return True
    return False
