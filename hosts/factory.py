"""Factory Droid: Claude's hook groups in ``.factory/hooks.json``, events at the file's top level.

Measured on Droid 0.225.2 (tests/e2e/test_factory_real.py, its bundled code): user
``~/.factory/hooks.json``, project ``.factory/hooks.json``, whose top level *is* the events object
(no ``"hooks"`` wrapper: a file that fails Droid's schema is ignored whole, silently). While
``hooks.json`` is absent Droid runs the ``hooks`` of ``settings.json`` beside it, so creating
``hooks.json`` there would switch the operator's hooks off: hookweave then writes into that
``settings.json`` (``settings_path``), and verify warns of hooks in a ``settings.json`` that Droid
skips because a ``hooks.json`` sits beside it. When Droid saves hooks itself it writes them to
``hooks.json`` and archives a legacy ``.factory/hooks/hooks.json`` as ``hooks.migrated.json``.
Tools: ``Execute`` (the shell), ``Create``, ``Edit``, ``Read``; timeouts are seconds (its /hooks
editor says so). Identical hooks in the user and project files both run (measured); the order of
an event's hooks is not measured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.files import fileio, paths
from hookweave.core.model import names
from hookweave.core.model.findings import Finding


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


FACTORY = Description(
    name="factory",
    title="Factory Droid",
    files={"user": "~/.factory/hooks.json", "project": "{project}/.factory/hooks.json"},  # or settings.json: below
    shape="top-level-groups",
    events=names.column("factory", names.EVENTS),
    tools=names.column("factory", names.TOOLS),
    native_events=tuple("PreToolUse PostToolUse Notification UserPromptSubmit Stop SubagentStop PreCompact "
                        "SessionStart SessionEnd".split()),
    project_variable="FACTORY_PROJECT_DIR",  # also for a bundle inside the project (core/plan/portable.py)
    programs=("droid",),
    dedup="none",  # measured on 0.225.2 (tests/e2e): the same command in the user and the project hooks.json runs twice
    order="unknown",
    execution="Factory's documentation does not say whether an event's hooks run in file order or at once; "
              "hookweave checks file order only",
    loose_entries="refused",  # 0.225.2, measured: the whole hooks.json fails Droid's schema (tests/e2e)
    untyped_handlers="refused",  # tests/e2e/test_flat_entries_real.py, measured: the whole hooks.json fails
    # [DOC docs.factory.ai/reference/hooks-reference#org-managed-hooks]: enforced hooks in org-managed
    # settings, optionally ignoring all unmanaged ones; where those settings live on disk is not documented
    notes=("an organization's Hooks Policy (Factory's Enterprise Controls) can make Droid ignore every hook "
           "it does not manage, hookweave's included; hookweave cannot see that policy (documents only, unmeasured)",),
    source="Factory Droid 0.225.2, measured (tests/e2e/test_factory_real.py)",
)


class FactoryHost(host_class(FACTORY)):  # type: ignore[misc]  # built like a plugin's host, plus what data cannot say
    def settings_path(self, scope: str, project: Path) -> Path:
        """The file hookweave writes this scope's hooks into: where it wrote before (its record beside
        it), else ``hooks.json``, or while there is none, a ``settings.json`` that holds hooks."""
        own = _folder(scope, project) / "hooks.json"
        fallback = own.with_name("settings.json")
        if self.record_path(fallback).exists() and not self.record_path(own).exists():
            return fallback  # ours stay there, and run, after a hooks.json appears (event by event: gates)
        if own.exists() or not fallback.exists():
            return own
        if _has_hooks(fileio.read_text(fallback)):
            return fallback
        return own

    # hooks.json holds the events at its top level (Droid 0.225.2 writes ``JSON.stringify(hooks)``
    # there and ignores a file that fails its schema, a ``{"hooks": ...}`` wrapper included);
    # settings.json keeps them under "hooks".

    def events_at_top(self, path: str) -> bool:
        return path.endswith("hooks.json")

    def context_paths(self, project: Path) -> dict[str, Path]:
        """Both files of each scope: Droid takes an event's hooks from hooks.json, else settings.json."""
        return {f"{kind}:{scope}": _folder(scope, project) / f"{kind}.json"
                for scope in self.scopes for kind in ("settings", "hooks")}

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        found = []
        for scope in self.verify_scopes:  # measured: Droid runs the top-level events and skips this key
            root = docs.get(scope, {}).get("hooks") if isinstance(docs.get(scope), dict) else None
            if self.settings_path(scope, project).name == "hooks.json" and isinstance(root, dict) and root.get("hooks"):
                found.append(Finding("warning", f"{scope} hooks.json has a \"hooks\" key, but Droid reads the events at "
                                     "the file's top level: the hooks under it never run; move them up one level",
                                     machine=not paths.within(self.settings_path(scope, project), project)))
        for scope in sorted(installed_scopes):
            found += _replaced_events(self, scope, project, docs)
        return found


def _replaced_events(host: FactoryHost, scope: str, project: Path, docs: Mapping[str, Any]) -> list[Finding]:
    """Droid 0.225.2 takes an event's hooks from hooks.json when hooks.json has that event (an empty
    list included), else from settings.json beside it: it replaces event by event, not the whole
    file (measured, tests/e2e/test_factory_real.py)."""
    folder = _folder(scope, project)
    machine = not paths.within(folder, project)
    in_settings = host.settings_path(scope, project).name == "settings.json"
    top, legacy = docs.get(f"hooks:{scope}"), docs.get(f"settings:{scope}")
    events = top if isinstance(top, dict) else {}  # context files are read as written: events at the top
    old = legacy.get("hooks") if isinstance(legacy, dict) else None
    old = old if isinstance(old, dict) else {}
    if in_settings:  # ours are in settings.json: an event hooks.json also has never runs them
        return [Finding("problem", f"{paths.display(folder / 'hooks.json')} beside it has its own {event}, which "
                        f"replaces settings.json's for that event: Droid does not run {bundle}/{hook}; move the "
                        f"hooks.json {event} entries into settings.json, or uninstall and install again (into "
                        "hooks.json)", bundle, hook, machine=machine)
                for event in sorted(set(events) & set(old)) if isinstance(old[event], list)
                for bundle, hook in sorted({host.owner(e) for e in old[event]} - {None})]
    shadowed = sorted(event for event in set(events) & set(old) if old[event])
    if not shadowed:
        return []
    return [Finding("warning", f"{paths.display(folder / 'settings.json')} holds hooks for {', '.join(shadowed)}, which "
                    "Droid does not run while hooks.json beside it has those events: move them into hooks.json",
                    machine=machine)]


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(FactoryHost)
