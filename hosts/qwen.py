"""Qwen Code: Claude-shaped hook groups in a Gemini-style commented settings.json.

Facts read in Qwen Code 0.24.4's bundled code (``packages/core/src/hooks``), the program
``scripts/install-hosts qwen`` pins:

- ``~/.qwen/settings.json`` (``$QWEN_HOME`` moves the folder) and ``.qwen/settings.json``; the
  text may hold comments (``strip-json-comments``); events are Claude's PascalCase names.
- Timeouts are **seconds** (``readCommandHookTimeout``: ``value * 1e3``); a value of 1000 or more
  keeps the old millisecond meaning, so a bundle's timeout of 1000 s or more is written in ms.
  Default 60 s.
- Hooks of one event run in parallel unless any matching group sets ``"sequential": true``
  (``createExecutionPlan``); project hooks come before user hooks (``getSourcePriority``).
- Identical hooks run once: the first by ``name + ":" + command`` (``getHookKey``), in the
  project-then-user order, so the project copy is the one that runs.
- Project hooks load only in a trusted folder when ``security.folderTrust.enabled`` is set (off
  by default); ``disableAllHooks: true`` (merged settings) switches every hook off.
- ``$QWEN_PROJECT_DIR`` (and Claude's and Gemini's names) are exported into the hook's shell.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.contract.shapes import group_with
from hookweave.core.files import paths
from hookweave.core.model import names
from hookweave.core.model.findings import Finding

if TYPE_CHECKING:
    from hookweave.core.model.agentplugins import PluginHook
    from hookweave.core.model.bundle import Bundle, HookForHost

LEGACY_MS = 1000  # Qwen reads a timeout of this many or more as milliseconds


QWEN = Description(
    name="qwen",
    title="Qwen Code",
    files={"user": "${QWEN_HOME:-~/.qwen}/settings.json", "project": "{project}/.qwen/settings.json"},
    format="jsonc",
    events=names.column("qwen", names.EVENTS),
    tools=names.column("qwen", names.TOOLS),
    native_events=tuple(
        "PreToolUse PostToolUse PostToolUseFailure PostToolBatch Notification UserPromptSubmit "
        "UserPromptExpansion SessionStart Stop MessageDisplay SubagentStart SubagentStop PreCompact "
        "PostCompact SessionEnd SessionDelete PermissionRequest PermissionDenied StopFailure "
        "TodoCreated TodoCompleted InstructionsLoaded".split()
    ),
    # Qwen Code 1.x documents 27 events; these 11 are not in 0.24.4's code (the registry here stops
    # there), so they are accepted by name only [DOC qwenlm.github.io/qwen-code-docs/1.x/en/users/hooks-reference]
    documented_events=tuple(
        "QueryEnd ConfigChange TeammateIdle CwdChanged FileChanged WorktreeCreate WorktreeRemove "
        "Elicitation ElicitationResult TaskCreated TaskCompleted".split()
    ),
    documented_in="Qwen Code 1.x",
    project_variable="QWEN_PROJECT_DIR",  # also for a bundle inside the project (core/plan/portable.py)
    programs=("qwen",),
    dedup="last",  # by name and command (run_key); project before user at run time, and the first copy is kept
    order="sequential-flag",
    execution="Qwen runs an event's hooks in parallel unless any matching group sets \"sequential\": true; "
              "then all of them run one after another, project hooks before user hooks",
    loose_entries="skipped",  # 0.24.4, measured (tests/e2e/test_flat_entries_real.py)
    untyped_handlers="skipped",  # tests/e2e/test_flat_entries_real.py, measured
    source="Qwen Code 0.24.4's bundled code (packages/core/src/hooks)",
)


class QwenHost(host_class(QWEN)):  # type: ignore[misc]  # built like a plugin's host, plus what data cannot say
    def run_key(self, event: str, entry: Any) -> tuple | None:
        handler = self.handler_of(entry)
        if handler is None:
            return None
        name = handler.get("name") if isinstance(handler.get("name"), str) else ""
        return (event, f"{name}:{handler.get('command')}" if name else handler.get("command"))

    def render(self, hook: HookForHost, native_event: str, bundle: Bundle) -> dict[str, Any]:
        handler: dict[str, Any] = {
            "type": "command",
            "name": f"{bundle.name}/{hook.id}",  # Gemini's naming, without loading its module
            "command": self.command(hook, bundle),
        }
        if hook.timeout is not None:  # seconds, except where Qwen would read the number as ms
            handler["timeout"] = hook.timeout if hook.timeout < LEGACY_MS else hook.timeout * 1000
        return group_with(self, hook, bundle, handler)

    def plugin_hooks(self, docs: Mapping[str, Any], project: Path) -> list[PluginHook]:
        """The hooks of the enabled extensions (0.24.4: tests/e2e/test_plugins_real.py)."""
        from hookweave.core.model.extensions import QWEN
        from hookweave.hosts import extension_folders  # read only by verify

        return extension_folders.extension_hooks(QWEN, self.settings_path("user", project).parent / "extensions",
                                                 project)

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        found = []
        merged = None
        for scope in self.verify_scopes:  # a later scope's scalar wins
            doc = docs.get(scope)
            if isinstance(doc, dict) and isinstance(doc.get("disableAllHooks"), bool):
                merged = (doc["disableAllHooks"], scope)
        if merged and merged[0]:
            found.append(Finding("problem", f"{merged[1]} settings set disableAllHooks: Qwen runs no hooks; remove "
                                 "the key or set it to false",
                                 machine=not paths.within(self.settings_path(merged[1], project), project)))
        if "project" in installed_scopes and _get(docs.get("user"), ("security", "folderTrust", "enabled")) is True:
            found += _folder_trust(docs.get("trustedFolders"), self.context_paths(project)["trustedFolders"], project)
        return found

    def context_paths(self, project: Path) -> dict[str, Path]:
        default = self.settings_path("user", project).with_name("trustedFolders.json")
        return {"trustedFolders": paths.from_env("QWEN_CODE_TRUSTED_FOLDERS_PATH", default)}


def _folder_trust(rules: Any, where: Path, project: Path) -> list[Finding]:
    """Folder trust on: Qwen loads the project's settings, hooks included, only where a rule of
    trustedFolders.json trusts the folder, and no rule means untrusted (measured on 0.24.4 with
    ``-p``: tests/e2e/test_qwen_real.py); the rules are Gemini's, longest path first."""
    from hookweave.hosts.gemini.trust import trust

    trusted, why = trust(rules, where.exists(), True, project, {})
    shown = paths.display(where)
    if trusted is None:
        return [Finding("problem", f"{shown} {why}: Qwen stops at start; fix the file", machine=True)]
    if trusted:
        return [Finding("note", f"folder trust is on in user settings, and {shown} trusts this project ({why})",
                        machine=True)]
    return [Finding("problem", f"folder trust is on in user settings, and this project is not trusted in {shown} "
                    f"({why}): Qwen ignores .qwen/settings.json here, hooks included; trust the folder when Qwen "
                    "asks (or /permissions), or add a TRUST_FOLDER rule for it", machine=True)]


def _get(doc: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        if not isinstance(doc, dict):
            return None
        doc = doc.get(key)
    return doc


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(QwenHost)
