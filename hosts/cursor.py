"""Cursor: flat hooks.json with camelCase events, the matcher on the handler, and "version": 1.

Facts: shared/HOSTS.md section 5 (documentation only: Cursor has no public source or CLI to
drive). Cursor ignores a hooks.json without "version", and with "Include third-party configs" on it
also runs the hooks in Claude's settings files (``also_reads``; verify's cross-agent findings,
core/verify/readers.py, say when a bundle installed for both may fire twice there).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.contract.reads import Reads
from hookweave.core.files import paths
from hookweave.core.model import names
from hookweave.core.model.findings import Finding

MANAGED_DIR_ENV = "HOOKWEAVE_CURSOR_MANAGED_DIR"  # where the enterprise hooks.json is looked for

CURSOR = Description(
    name="cursor",
    title="Cursor",
    files={  # Cursor's priority, lowest first
        "user": "~/.cursor/hooks.json",
        "project": "{project}/.cursor/hooks.json",
        "managed": {"linux": "${HOOKWEAVE_CURSOR_MANAGED_DIR:-/etc/cursor}/hooks.json",
                    "macos": "${HOOKWEAVE_CURSOR_MANAGED_DIR:-/Library/Application Support/Cursor}/hooks.json",
                    "windows": "${HOOKWEAVE_CURSOR_MANAGED_DIR:-C:/ProgramData/Cursor}/hooks.json"},
    },
    read_only=("managed",),
    shape="flat",
    events=names.column("cursor", names.EVENTS),
    tools=names.column("cursor", names.TOOLS),
    native_events=tuple(
        "sessionStart sessionEnd preToolUse postToolUse postToolUseFailure subagentStart subagentStop "
        "beforeShellExecution afterShellExecution beforeMCPExecution afterMCPExecution beforeReadFile "
        "afterFileEdit beforeSubmitPrompt preCompact stop afterAgentResponse afterAgentThought "
        "beforeTabFileRead afterTabFileEdit".split()
    ),
    project_variable="CURSOR_PROJECT_DIR",
    project_lookup="git",  # the workspace Cursor opens: the repository, in practice [not measured]
    # Cursor's third-party-hooks page: Claude's local, project and user files, only with the setting on [not measured]
    also_reads=(Reads("claude", ("user", "project", "local"), "honoured", 'if "Include third-party configs" is on'),),
    required={"version": 1},
    programs=("cursor-agent",),
    dedup="unknown",  # Cursor's documentation says nothing on running identical commands once
    order="unknown",
    execution="Cursor's documentation does not say whether an event's hooks run in file order or at once; "
              "hookweave checks file order only",
    source="shared/HOSTS.md section 5 (Cursor's documentation)",
)


class CursorHost(host_class(CURSOR)):  # type: ignore[misc]  # built like a plugin's host, plus a gate
    no_managed = ("Cursor's managed layer is one file, the administrator's /etc/cursor/hooks.json, with no drop-in folder: add the hooks there by hand, or install at user scope")
    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        found: list[Finding] = []
        for scope in installed_scopes:
            doc = docs.get(scope)
            if isinstance(doc, dict) and doc.get("version") != 1:
                found.append(Finding("problem", f'{scope} hooks.json has no "version": 1; Cursor ignores the file '
                                     'without it: add "version": 1',
                                     machine=not paths.within(self.settings_path(scope, project), project)))
        return found


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(CursorHost)
