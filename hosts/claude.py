"""Claude Code: strict-JSON settings.json at user, project and local scope, with an env key.

Facts: shared/HOSTS.md section 2. A comment makes Claude ignore the whole file, so we never write
one and refuse to edit a file that has one.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Mapping

from hookweave.core import names, paths
from hookweave.core.hookspecs import hookimpl
from hookweave.core.host import NestedGroupsHost
from hookweave.core.findings import Finding

MANAGED_DIR_ENV = "HOOKWEAVE_CLAUDE_MANAGED_DIR"  # where managed-settings.json is looked for


def _managed_dir() -> Path:
    default = paths.by_platform("/etc/claude-code", "/Library/Application Support/ClaudeCode", "C:/Program Files/ClaudeCode")
    return paths.from_env(MANAGED_DIR_ENV, default)


class ClaudeCodeHost(NestedGroupsHost):
    name = "claude"
    title = "Claude Code"
    scopes = ("user", "project", "local")
    verify_scopes = ("user", "project", "local", "managed")  # Claude's precedence, lowest first
    events = names.column("claude", names.EVENTS)
    tools = names.column("claude", names.TOOLS)
    native_events = frozenset(
        "PreToolUse PostToolUse PostToolUseFailure PostToolBatch Notification UserPromptSubmit "
        "UserPromptExpansion SessionStart SessionEnd Stop StopFailure SubagentStart SubagentStop "
        "PreCompact PostCompact PermissionRequest PermissionDenied Setup TeammateIdle TaskCreated "
        "TaskCompleted Elicitation ElicitationResult ConfigChange WorktreeCreate WorktreeRemove "
        "InstructionsLoaded CwdChanged FileChanged MessageDisplay".split()
    )
    env_key = "env"
    comments = False
    comment_fix = "Claude ignores the whole file when it has a comment: remove it"
    project_ref = '"$CLAUDE_PROJECT_DIR"'
    dedup_across_scopes = True  # keyed by shell + command + args + if (HOSTS.md 2.3)
    order = "parallel"  # measured on 2.1.197: the hooks of one event overlap, whatever the file order
    execution = (
        "Claude starts all of an event's matching hooks at once and does not wait for one before "
        "the next, so file order is not execution order"
    )

    def settings_path(self, scope: str, project: Path) -> Path:
        if scope == "user":
            return paths.from_env("CLAUDE_CONFIG_DIR", paths.home() / ".claude") / "settings.json"
        if scope == "project":
            return project / ".claude" / "settings.json"
        if scope == "local":
            return project / ".claude" / "settings.local.json"
        if scope == "managed":
            return _managed_dir() / "managed-settings.json"
        raise ValueError(scope)

    def extra_paths(self, scope: str) -> list[Path]:
        folder = _managed_dir() / "managed-settings.d"
        if scope != "managed" or not folder.is_dir():
            return []
        return sorted(p for p in folder.glob("*.json") if not p.name.startswith("."))

    def detect(self) -> bool:
        user_dir = self.settings_path("user", Path.cwd()).parent
        return user_dir.is_dir() or shutil.which("claude") is not None

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        found: list[Finding] = []
        managed = docs.get("managed") if isinstance(docs.get("managed"), dict) else {}
        for scope in ("managed", "user", "project", "local"):
            doc = docs.get(scope)
            for key in ("disableAllHooks", "allowManagedHooksOnly"):
                value = doc.get(key) if isinstance(doc, dict) else None
                if value is not None and not isinstance(value, bool):
                    found.append(Finding("warning", f"{scope} settings: {key} should be true or false; hookweave "
                                         "reads it as false, and Claude may reject the file: fix it"))
        if managed.get("disableAllHooks") is True:
            found.append(Finding("problem", "managed settings set disableAllHooks: Claude runs no hooks at all"))
        elif managed.get("allowManagedHooksOnly") is True:
            found.append(Finding("problem", "managed settings set allowManagedHooksOnly: Claude runs only managed hooks"))
        for scope in ("user", "project", "local"):
            doc = docs.get(scope)
            if isinstance(doc, dict) and doc.get("disableAllHooks") is True:
                found.append(
                    Finding(
                        "problem",
                        f"{scope} settings set disableAllHooks: Claude runs only managed hooks, none of "
                        "hookweave's; remove the key or set it to false",
                    )
                )
        return found


@hookimpl
def hookweave_register_hosts(register) -> None:
    register(ClaudeCodeHost)
