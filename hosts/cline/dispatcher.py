"""The one executable per event that Cline runs, as hookweave writes it, and reading it back.

Cline (CLI 3.0.65) runs every file in a hooks folder whose name, less a known extension, is an
event's; a file without a shebang and without an extension it runs with ``bash``, a file with a
shebang with that interpreter (``env`` dropped), so the executable bit does not matter to it.
Each event's file here is a ``python3 -S`` dispatcher that lists its members as data, one JSON
object a line between ``HOOKS = [`` and ``]``, each command ending in its
``# hookweave:<bundle>/<id>`` marker: what Cline runs is what verify reads. Its first part is sh
(``sh_part``), which Python reads as a raw string: the chain runner's sh fast path
(``core/model/shfacts.cline_text``), which runs members that answer nothing without starting Python
and hands the rest to the file's own Python part (``python3 -S``, which Cline would otherwise start
for every member; a ``-S`` in the shebang would reach a program that starts the file as the kernel
does as part of the interpreter's name).

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
# sh sets a variable and runs what follows, which ends in ``exec`` or ``exit``; Python reads a raw string.
SH_OPEN, SH_CLOSE = "_sh=r''':'\n", "exec python3 -S \"$0\" \"$@\"\n'''\n"
IMPORTS = "import sys\n\n"
# What earlier versions wrote before ``HOOKS`` (issue 24 dropped ``json`` and ``subprocess``, 30 ms a run).
EARLIER_HEADS = (("#!/usr/bin/env python3\n", "import json\nimport subprocess\nimport sys\n\n"),)
FOLDERS = "# hookweave-made-folders: "  # how many folders above this file hookweave made (uninstall removes them)
# The line after it: the SHA-256 of the rest of the file, 16 hex digits, as the sh runner file has one
# (core/plan/chainsh.py): a file that holds its own key is one hookweave wrote and nobody edited, of
# whichever version. Without it, every change to the runner's code made each dispatcher an earlier
# hookweave wrote read as edited by hand, which install refuses to overwrite.
KEY = "# key "
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
    return _keyed(_head(event, hooks, folders) + program())


def _keyed(text: str) -> str:
    """``text`` with its key line after the folders line (``_unkeyed`` takes it out again)."""
    end = text.index("\n", text.index("\n" + FOLDERS) + 1) + 1
    return text[:end] + KEY + _digest(text) + "\n" + text[end:]


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _unkeyed(text: str) -> tuple[str, str | None]:
    """``text`` without its key line (the one after the folders line), and the key, ``None`` without one."""
    at = text.find("\n" + FOLDERS)
    end = text.find("\n", at + 1) + 1 if at >= 0 else 0
    stop = text.find("\n", end) if end and text.startswith(KEY, end) else -1
    if stop < 0:
        return text, None
    return text[:end] + text[stop + 1:], text[end + len(KEY):stop]


def sh_part(event: str, hooks: list[dict[str, Any]]) -> str:
    from hookweave.core.model import shfacts

    return SH_OPEN + (shfacts.cline_text(event, hooks) or "") + SH_CLOSE


def _head(event: str, hooks: list[Any], folders: int, earlier: tuple[str, str] | None = None) -> str:
    """Everything before ``program()``; ``earlier``: an earlier version's (interpreter line, imports)."""
    lines = "".join("    " + json.dumps(h, ensure_ascii=True, sort_keys=False) + ",\n" for h in hooks)
    header = HEADER.format(event=event) if earlier is None else earlier[0] + HEADER.split("\n", 1)[1].format(event=event)
    imports = sh_part(event, hooks) + IMPORTS if earlier is None else earlier[1]
    return (header + ": it runs the hooks listed below, in order, and answers Cline once.\n"
            "# hookweave deletes this file with the last of them; `hooks verify` reports any edit.\n"
            f"{FOLDERS}{folders}\n{imports}{OPEN}{lines}{CLOSE}")


def read(event: str, text: str) -> dict[str, Any]:
    """What a file at ``event``'s place holds: ``{"foreign": True}`` when hookweave did not write it;
    else ``{"hooks": {event: [...]}, "folders": n, "exact": whether it is byte for byte what
    hookweave writes for those hooks, or what an earlier hookweave wrote, "earlier": "keyed" (a file
    holding its own key: any version since the key), "known" (the code of a version before it,
    ``EARLIER``) or False}``. A member line that does not parse is kept as its text."""
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
    rest, key = _unkeyed(text)
    earlier = clean and not exact and (
        "keyed" if key == _digest(rest) else "known" if _earlier(rest, event, hooks, folders) else False)
    return {"hooks": {event: hooks}, "folders": folders, "exact": exact or bool(earlier), "earlier": earlier}


def _earlier(text: str, event: str, hooks: list[Any], folders: int) -> bool:  # (text without a key line)
    """Whether ``text`` is the dispatcher of these hooks with the code an earlier hookweave wrote
    below ``HOOKS``, and its interpreter line and imports (``EARLIER_HEADS``) or today's head."""
    heads = [_head(event, hooks, folders)] + [_head(event, hooks, folders, old) for old in EARLIER_HEADS]
    for old in heads:
        tail = text[len(old):]
        if text.startswith(old) and _digest(tail) in EARLIER:
            return True
    return False
