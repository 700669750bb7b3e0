"""Factory Droid: Claude's hook shape in a file of its own, ``.factory/hooks.json``.

Facts from Factory's documentation (docs.factory.ai/harness/hooks, /reference/hooks-reference;
shared/HOSTS-MORE.md section 1.2): user ``~/.factory/hooks.json``, project
``.factory/hooks.json``; when ``hooks.json`` is absent Droid reads the ``hooks`` key of
``settings.json`` instead, so creating ``hooks.json`` beside a ``settings.json`` that holds hooks
would silently switch the operator's hooks off: hookweave then writes into that ``settings.json``
(``settings_path``), and verify warns of hooks in a ``settings.json`` that Droid skips because a
``hooks.json`` sits beside it. Droid archives a legacy ``.factory/hooks/hooks.json`` to ``hooks.migrated.json`` on its next
save. Timeouts are seconds; the shell tool is ``Execute``, a new file ``Create``. Not measured on
the program: ``@factory/cli`` 0.225.1 installs a launcher whose platform binary did not install
here (``droid`` printed "Try running: npm install").
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Mapping

from hookweave.core import fileio, names, paths
from hookweave.core.findings import Finding
from hookweave.core.hookspecs import hookimpl
from hookweave.core.host import NestedGroupsHost


def _user_dir() -> Path:
    return paths.home() / ".factory"


def _folder(scope: str, project: Path) -> Path:
    if scope == "user":
        return _user_dir()
    if scope == "project":
        return project / ".factory"
    raise ValueError(scope)


def _has_hooks(text: str | None) -> bool:
    """Whether settings text holds a top-level ``hooks`` key (unreadable text: no, as for Droid)."""
    import json

    try:
        doc = json.loads(text) if text is not None else None
    except ValueError:
        return False
    return isinstance(doc, dict) and "hooks" in doc


class FactoryHost(NestedGroupsHost):
    name = "factory"
    title = "Factory Droid"
    scopes = ("user", "project")
    verify_scopes = ("user", "project")
    events = names.column("factory", names.EVENTS)
    tools = names.column("factory", names.TOOLS)
    native_events = frozenset(
        "PreToolUse PostToolUse Notification UserPromptSubmit Stop SubagentStop PreCompact "
        "SessionStart SessionEnd".split()
    )
    project_ref = '"$FACTORY_PROJECT_DIR"'
    dedup_known = False  # the documentation says nothing on identical commands in two files
    execution = (
        "Factory's documentation does not say whether an event's hooks run in file order or at once; "
        "hookweave checks file order only"
    )

    def settings_path(self, scope: str, project: Path) -> Path:
        """The file Droid reads this scope's hooks from: ``hooks.json``, or while there is none, a
        ``settings.json`` that holds hooks (or ours, recorded beside it)."""
        own = _folder(scope, project) / "hooks.json"
        fallback = own.with_name("settings.json")
        if own.exists() or not fallback.exists():
            return own
        if self.record_path(fallback).exists() or _has_hooks(fileio.read_text(fallback)):
            return fallback
        return own

    def context_paths(self, project: Path) -> dict[str, Path]:
        """The settings.json files Droid reads hooks from while no hooks.json sits beside them."""
        return {f"settings:{scope}": _folder(scope, project) / "settings.json" for scope in self.scopes}

    def detect(self) -> bool:
        return _user_dir().is_dir() or shutil.which("droid") is not None

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        found = []
        for scope in sorted(installed_scopes):
            if self.settings_path(scope, project).name != "hooks.json":
                continue  # we are in settings.json ourselves: Droid reads it
            legacy = docs.get(f"settings:{scope}")
            hooks = legacy.get("hooks") if isinstance(legacy, dict) else None
            if isinstance(hooks, dict) and any(hooks.values()):
                shown = paths.display(_folder(scope, project) / "settings.json")
                found.append(Finding(
                    "warning",
                    f"{shown} holds hooks, which Droid does not run while hooks.json exists beside it: move its "
                    "\"hooks\" object into hooks.json",
                ))
        return found


@hookimpl
def hookweave_register_hosts(register) -> None:
    register(FactoryHost)
