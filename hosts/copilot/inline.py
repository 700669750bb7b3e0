"""Copilot CLI's inline hooks: the ``hooks`` object of its settings files, which it runs as well.

Measured on 1.0.102 (tests/e2e/test_copilot_real.py), one sessionStart, in this order:
``~/.copilot/hooks/*.json``, the inline hooks of ``~/.copilot/settings.json``, the project's
``.github/hooks/*.json``, ``.claude/settings.json``, ``.claude/settings.local.json``, then the
inline hooks of ``.github/copilot/settings.json`` and ``settings.local.json``. A comment in a
project settings file (the JSONC header Copilot writes into the user one) makes Copilot skip that
file's hooks, silently; the user file's header does no harm. The block is all-or-nothing on a bad
shape [3P: HOSTS-MORE 1.2]. hookweave only *reads* these: it owns a file in ``.github/hooks``
instead, which Copilot loads whole and uninstall can delete.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from hookweave.core.files import paths
from hookweave.core.model.findings import Finding
from hookweave.core.model.render import MARKER_RE

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host

SHELLS = ("bash", "powershell", "command")


def inline_paths(project: Path, user_dir: Path) -> dict[str, Path]:
    """The settings files whose inline ``hooks`` Copilot runs, by label (project files strict JSON)."""
    folder = project / ".github" / "copilot"
    return {"inline:project": folder / "settings.json", "inline:local": folder / "settings.local.json",
            "inline:user": user_dir / "settings.json"}


def read_inline(files: Mapping[str, Path]) -> dict[str, tuple[str, Any, str | None]]:
    """``{label: (shown path, data, why Copilot reads no hooks from it)}`` for each file that exists."""
    from hookweave.core.errors import BadInput
    from hookweave.core.files import fileio
    from hookweave.core.formats import jsontext

    out: dict[str, tuple[str, Any, str | None]] = {}
    for label, path in files.items():
        shown = paths.display(path)
        try:
            text = fileio.read_text(path)
        except (BadInput, OSError):
            continue
        if text is None:
            continue
        try:
            out[label] = (shown, jsontext.load(text, shown), None)
        except BadInput:
            try:
                doc = jsontext.load(text, shown, comments=True)
            except BadInput:
                out[label] = (shown, None, "it is not valid JSON, so Copilot CLI reads no hooks from it")
                continue
            why = None if label == "inline:user" else (
                "it holds a comment, and Copilot CLI (measured on 1.0.102) then runs none of its inline hooks; "
                "remove the comments")
            out[label] = (shown, doc, why)
    return out


def rejected(hooks: Any) -> str | None:
    """Where and why Copilot drops a whole inline ``hooks`` block, or ``None`` when it loads it."""
    if not isinstance(hooks, dict):
        return "/hooks is not an object"
    for event, entries in hooks.items():
        where = "/hooks/" + json.dumps(event, ensure_ascii=False)[1:-1]
        if not isinstance(entries, list):
            return f"{where} is not a list"
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                return f"{where}/{i} is not an object"
            if entry.get("type", "command") == "command" and not any(isinstance(entry.get(k), str) for k in SHELLS):
                return f'{where}/{i} has no "bash", "powershell" or "command" string'
    return None


def _bare(command: Any) -> str | None:
    """A command without our marker, whitespace-trimmed, to compare an operator's copy with ours."""
    return MARKER_RE.sub("", command).strip() if isinstance(command, str) else None


def inline_findings(host: Host, docs: Mapping[str, tuple[str, Any, str | None]],
                    ours: Mapping[str, Any]) -> list[Finding]:
    """Per inline file: why Copilot skips it, a block it would reject, and an inline hook that runs
    one of our commands again (our marker copied in, or the same bash command)."""
    from hookweave.core.contract.shapes import every_entry

    mine: dict[str, tuple[str, str]] = {}
    for doc in ours.values():
        for entry in every_entry(doc):
            owner = host.owner(entry)
            bare = _bare(entry.get("bash")) if owner and isinstance(entry, dict) else None
            if owner and bare:
                mine.setdefault(bare, owner)
    found: list[Finding] = []
    for label in docs:  # project, local, user: as inline_paths lists them
        shown, doc, why = docs[label]
        hooks = doc.get("hooks") if isinstance(doc, dict) else None
        if why and (doc is None or hooks is not None):  # a broken file may hold hooks; a comment matters only then
            found.append(Finding("warning", paths.printable(f"{shown}: inline hooks: {why}")))
            continue
        if hooks is None or why:
            continue
        refused = rejected(hooks)
        if refused:
            found.append(Finding("warning", paths.printable(
                f"{shown}: {refused}, so Copilot CLI runs none of the inline hooks in this file; fix the block by hand")))
            continue
        for event, entries in hooks.items():
            for i, entry in enumerate(entries):
                marked = host.owner(entry)
                same = next((mine[b] for k in SHELLS if (b := _bare(entry.get(k))) in mine), None)
                copy = marked if marked in mine.values() else same
                if copy:
                    place = "/hooks/" + json.dumps(event, ensure_ascii=False)[1:-1] + f"/{i}"
                    found.append(Finding("warning", paths.printable(
                        f"an inline hook in {shown} at {place} runs the same command: it fires twice in Copilot CLI; "
                        "remove the inline copy"), *copy))
    return found
