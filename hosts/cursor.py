"""Cursor: flat hooks.json with camelCase events, the matcher on the handler, and "version": 1.

Facts: shared/HOSTS.md section 5 (documentation only: Cursor has no public source or CLI to
drive). Cursor ignores a hooks.json without "version", and with "Include third-party configs" on it
also runs the hooks in Claude's settings files (``also_reads``; verify's cross-agent findings,
core/verify/readers.py, say when a bundle installed for both may fire twice there).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Mapping

from hookweave.core.contract.reads import Reads
from hookweave.core.contract.shapes import FlatHost
from hookweave.core.files import paths
from hookweave.core.model import names
from hookweave.core.model.findings import Finding

MANAGED_DIR_ENV = "HOOKWEAVE_CURSOR_MANAGED_DIR"  # where the enterprise hooks.json is looked for


def _managed_dir() -> Path:
    default = paths.by_platform("/etc/cursor", "/Library/Application Support/Cursor", "C:/ProgramData/Cursor")
    return paths.from_env(MANAGED_DIR_ENV, default)


class CursorHost(FlatHost):
    name = "cursor"
    title = "Cursor"
    scopes = ("user", "project")
    verify_scopes = ("user", "project", "managed")  # Cursor's priority, lowest first
    events = names.column("cursor", names.EVENTS)
    tools = names.column("cursor", names.TOOLS)
    native_events = frozenset(
        "sessionStart sessionEnd preToolUse postToolUse postToolUseFailure subagentStart subagentStop "
        "beforeShellExecution afterShellExecution beforeMCPExecution afterMCPExecution beforeReadFile "
        "afterFileEdit beforeSubmitPrompt preCompact stop afterAgentResponse afterAgentThought "
        "beforeTabFileRead afterTabFileEdit".split()
    )
    project_ref = '"$CURSOR_PROJECT_DIR"'
    project_root_ref = '"$CURSOR_PROJECT_DIR"'
    # Cursor's third-party-hooks page: Claude's local, project and user files, only with the setting on [not measured]
    also_reads = (Reads("claude", ("user", "project", "local"), "honoured", 'if "Include third-party configs" is on'),)
    project_lookup = "git"  # the workspace Cursor opens: the repository, in practice [not measured]
    required = {"version": 1}
    dedup_known = False  # Cursor's documentation says nothing on running identical commands once
    execution = (
        "Cursor's documentation does not say whether an event's hooks run in file order or at once; "
        "hookweave checks file order only"
    )

    def settings_path(self, scope: str, project: Path) -> Path:
        if scope == "user":
            return paths.home() / ".cursor" / "hooks.json"
        if scope == "project":
            return project / ".cursor" / "hooks.json"
        if scope == "managed":
            return _managed_dir() / "hooks.json"
        raise ValueError(scope)

    def detect(self) -> bool:
        return (paths.home() / ".cursor").is_dir() or shutil.which("cursor-agent") is not None

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        found: list[Finding] = []
        for scope in installed_scopes:
            doc = docs.get(scope)
            if isinstance(doc, dict) and doc.get("version") != 1:
                found.append(Finding("problem", f'{scope} hooks.json has no "version": 1; Cursor ignores the file '
                                     'without it: add "version": 1'))
        return found


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(CursorHost)
