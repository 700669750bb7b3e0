"""Letta Code: Claude's hook groups in ``.letta/settings.json``, ``settings.local.json`` and the user's.

Facts read in @letta-ai/letta-code 0.32.18's bundled ``letta.js`` (``src/hooks``) and run offline
against the mock model (tests/e2e/test_letta_real.py); docs/HOST-FACTS.md has each with its source:

- ``~/.letta/settings.json``, ``<cwd>/.letta/settings.json`` and ``<cwd>/.letta/settings.local.json``
  (``loadHooks``), strict JSON (``JSON.parse``); the folder Letta starts in is the project.
- An event's groups run local first, then project, then user (``mergeHooksConfigs``); nothing is
  run once: identical commands in two files run twice.
- Matchers are anchored regexes (``^(?:m)$``) on Letta's tool names (``Bash`` in the default
  toolset); ``*`` or none matches every tool.
- Timeouts are milliseconds (``hook.timeout ?? 60000``).
- PreToolUse, PermissionRequest, UserPromptSubmit, Stop, SubagentStop and SessionStart run their
  hooks one after another and stop at the first exit 2 (``executeHooks``); PostToolUse,
  PostToolUseFailure, Notification, PreCompact and SessionEnd start them at once.
- ``hooks.disabled: true`` (inside the hooks object) in any file switches every hook off (measured
  with a user ``false`` beside a local ``true``, which the code reads as on: none ran).
- A hook gets ``LETTA_WORKING_DIR`` and ``USER_CWD`` (the folder Letta runs in), ``LETTA_HOOK_EVENT``
  and ``LETTA_AGENT_ID``; only exit 2 blocks (``[command]: stderr`` reaches the model), JSON
  ``decision``/``permissionDecision`` is not read (core/standalone/protocol_letta.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.files import paths
from hookweave.core.model import names
from hookweave.core.model.findings import Finding

# The events whose hooks Letta starts at once (executeHooksParallel); the others run in file order.
PARALLEL = frozenset({"PostToolUse", "PostToolUseFailure", "Notification", "PreCompact", "SessionEnd"})

LETTA = Description(
    name="letta",
    title="Letta Code",
    files={  # precedence, lowest first; Letta runs local, then project, then user hooks
        "user": "~/.letta/settings.json",
        "project": "{project}/.letta/settings.json",
        "local": "{project}/.letta/settings.local.json",
    },
    events=names.column("claude", names.EVENTS),  # Claude's names, every neutral event
    tools={"shell": "Bash|shell_command|exec_command|shell|ShellCommand|Shell", "read": "Read|ReadFile",
           "write": "Write", "edit": "Edit|MultiEdit|ApplyPatch|apply_patch"},
    native_events=("PostToolUseFailure", "PermissionRequest"),
    timeout_unit="ms",
    project_variable="LETTA_WORKING_DIR",
    programs=("letta",),
    order="file",
    dedup="none",
    execution="Letta Code runs PreToolUse, PermissionRequest, UserPromptSubmit, Stop, SubagentStop and SessionStart "
              "hooks one after another (local, then project, then user settings) and stops at the first exit 2; "
              "it starts PostToolUse, PostToolUseFailure, Notification, PreCompact and SessionEnd hooks at once",
    protocol="letta",
    notes=("Letta Code runs SessionStart, UserPromptSubmit, Stop and SessionEnd hooks in its interactive "
           "session only; a headless run (letta -p) runs the tool hooks alone",),
    source="@letta-ai/letta-code 0.32.18's bundled letta.js (src/hooks), run offline; docs.letta.com/letta-code/hooks",
)


class LettaHost(host_class(LETTA)):  # type: ignore[misc]  # built like a plugin's host, plus what data cannot say
    def order_holds(self, event: str, docs: Mapping[str, Any]) -> bool:
        return event not in PARALLEL

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        """``hooks.disabled: true`` in any of the three files switches every hook off. ``areHooksDisabled``
        lets a user ``false`` win, but on 0.32.18 a project's ``true`` still kept every hook off
        with it (tests/e2e/test_letta_real.py), so hookweave reports every ``true``."""
        found = super().gates(docs, installed_scopes, project)
        if not installed_scopes:
            return found
        found += self._unmergeable(docs, project)
        flags = {scope: _disabled(docs.get(scope)) for scope in self.verify_scopes}
        for scope in ("user", "project", "local"):
            if flags[scope] is True:
                shown = paths.display(self.settings_path(scope, project))
                found.append(Finding("problem", f"{shown} sets hooks.disabled: true, so Letta Code runs no hooks; "
                                     "remove it or set it to false",
                                     machine=not paths.within(self.settings_path(scope, project), project)))
        return found

    def _unmergeable(self, docs: Mapping[str, Any], project: Path) -> list[Finding]:
        """An object, a number or ``true`` where an event's list belongs, in any of the three files:
        ``mergeHooksConfigs`` spreads every key's value (``...(value || [])``), which throws on a value
        that is not iterable, and the caller swallows the error, so Letta runs no hook at all
        (0.32.18, measured: tests/e2e/test_letta_real.py). ``false``, ``0`` and ``null`` read as none."""
        found = []
        for scope in ("local", "project", "user"):
            hooks = docs.get(scope, {}).get("hooks") if isinstance(docs.get(scope), dict) else None
            path = self.settings_path(scope, project)
            for event, value in (hooks.items() if isinstance(hooks, dict) else ()):
                if event == "disabled" and isinstance(value, bool) or not _breaks_merge(value):
                    continue  # hooks.disabled is a switch, reported below
                what = "an object" if isinstance(value, dict) else json.dumps(value)
                found.append(Finding("problem", f"{paths.display(path)}: /hooks/{event} is {what}, not a list: Letta "
                                     "Code fails to merge its settings on it and runs no hook at all, in every file; "
                                     "make it a list of hook groups or remove it",
                                     machine=not paths.within(path, project)))
        return found


def _breaks_merge(value: Any) -> bool:
    """Whether JavaScript's spread of ``value || []`` throws: a truthy value that is not iterable."""
    return isinstance(value, dict) or value is True or isinstance(value, (int, float)) and not isinstance(value, bool) \
        and value != 0


def _disabled(doc: Any) -> bool | None:
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    value = hooks.get("disabled") if isinstance(hooks, dict) else None
    return value if isinstance(value, bool) else None


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(LettaHost)
