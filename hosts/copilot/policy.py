"""Copilot CLI's policy layer: ``/etc/github-copilot/policy.d``, where hookweave keeps a drop-in of its own.

Measured on 1.0.102 (tests/e2e/test_managed_real.py; docs/HOST-FACTS.md, "The managed layer"):
Copilot loads every ``*.json`` of the folder, dot-files included, in name order (JavaScript's
sort: code points), before the user's hooks and the project's; the folder trust that gates a
project's hooks does not apply. It skips a file that is group- or world-writable or not owned by
root, and a file that is not exactly ``{"version": 1, "hooks": {...}}`` in strict JSON: another key
(``disableAllHooks``, ``$comment``), another version, a comment, a malformed entry, or text that does
not parse. A skipped file does not stop Copilot; the other files still run. No variable of
Copilot's moves the folder: ``HOOKWEAVE_COPILOT_POLICY_DIR`` is hookweave's, for tests.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from hookweave.core.files import layerfiles, paths
from hookweave.core.formats import jsonlite
from hookweave.core.model.findings import Finding

POLICY_DIR_ENV = "HOOKWEAVE_COPILOT_POLICY_DIR"
# hookweave's own drop-in, one for all its bundles, named as Claude's: 50 leaves room on both sides.
DROP_IN = "50-hookweave.json"
FOLDERS = {"linux": "${HOOKWEAVE_COPILOT_POLICY_DIR:-/etc/github-copilot/policy.d}",
           "macos": "${HOOKWEAVE_COPILOT_POLICY_DIR:-/etc/github-copilot/policy.d}",  # as Linux [inferred]
           "windows": "${HOOKWEAVE_COPILOT_POLICY_DIR:-C:/ProgramData/GitHub/Copilot/policy.d}"}
ROOT = 0  # the owner Copilot requires of a policy file (tests make it theirs)
NEEDS_ROOT = ("Copilot CLI skips a policy file that root does not own (1.0.102, measured), and hookweave "
              "runs as another user; nothing written. Run the install as root (sudo), or through your fleet tool")
FIX = "chmod 644 and chown root it, or uninstall and install again as root"


def skipped_because(path: Path) -> str | None:
    """Why Copilot 1.0.102 would skip this policy file, or ``None`` if it loads it (owner and mode
    only: its text is ``shape_problem``'s)."""
    try:
        info = os.stat(path)
    except OSError:
        return None  # gone, or not ours to judge
    if not stat.S_ISREG(info.st_mode):
        return "it is not a regular file"
    if info.st_uid != ROOT:
        return "it is not owned by root"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"it is writable by {'others' if info.st_mode & stat.S_IWOTH else 'its group'} (mode {info.st_mode & 0o777:o})"
    return None


def shape_problem(text: str) -> str | None:
    """Why Copilot would refuse a policy file's text (read strictly, as it does), or ``None``."""
    try:
        doc = jsonlite.loads(text)
    except ValueError:
        return "it is not strict JSON"
    if not isinstance(doc, dict) or doc.get("version") != 1 or doc["version"] is True:
        return 'it is not {"version": 1, "hooks": ...}'
    extra = sorted(set(doc) - {"version", "hooks"})
    if extra:
        return f"it holds {', '.join(extra)}, and a policy file holds only version and hooks"
    hooks = doc.get("hooks", {})
    if not isinstance(hooks, dict) or not all(isinstance(v, list) for v in hooks.values()):
        return "its hooks are not an object of lists"
    return None


def layer(ours: Path) -> list[Path]:
    """The policy files Copilot loads, in its order, and ours wherever it stands (whether Copilot
    skips ours is ``findings``'s to say)."""
    loaded = [path for path, why in _others(ours) if why is None]
    return sorted([*loaded, ours], key=lambda p: p.name)


def _others(ours: Path) -> list[tuple[Path, str | None]]:
    """The administrator's ``*.json`` files beside ours, by name, each with why Copilot skips it."""
    found = layerfiles.listed(ours.parent, lambda name: name.endswith(".json") and name != ours.name)
    return [(path, skipped_because(path) or shape_problem(text or ""))  # a FIFO is never opened
            for path, text, _ in layerfiles.read_each(found)]


def findings(ours: Path, shown: str) -> list[Finding]:
    """The policy layer as Copilot loads it, for verify: our drop-in if Copilot would skip it (a
    problem), each administrator's file it skips, and which policy files run before and after ours.
    Verify judges a hook's position within our drop-in, as in Copilot's other folders."""
    found = []
    why = skipped_because(ours)
    if why:
        found.append(Finding("problem", f"{shown}: Copilot CLI skips this policy file, as {why}, and runs none of "
                             f"its hooks; {FIX}"))
    unread = layerfiles.user_cannot_read(ours, 1, "Copilot CLI")
    if unread:
        found.append(Finding("problem", unread))
    for path, skipped in _others(ours):
        if skipped:
            found.append(Finding("note", f"{paths.display(path)}: Copilot CLI skips this policy file, as {skipped}"))
    names = [p.name for p in layer(ours)]
    here = names.index(ours.name)
    before, after = ", ".join(names[:here]) or "none", ", ".join(names[here + 1:]) or "none"
    found.append(Finding("note", f"Copilot CLI runs the policy files by name, before user and project hooks: "
                         f"{before} before {ours.name}, {after} after it"))
    return found
