"""Gemini CLI: commented settings.json (JSONC), timeouts in milliseconds, a name on every hook.

Facts: shared/HOSTS.md section 4. Gemini has no settings-level env, so a bundle's env vars go into
each hook's own ``env``. A bundle that asks for ordered execution gets ``"sequential": true``,
which makes the *whole* event sequential across every scope. Gemini substitutes
``$GEMINI_PROJECT_DIR`` in the text with a path quoted by shell-quote, which writes ``\\!`` inside
double quotes (kept by sh): a project path holding ``'`` and ``!`` breaks. So the project folder is
written ``"${GEMINI_PROJECT_DIR}"``, which the substitution's pattern does not match, and the shell
reads the variable Gemini exports to every hook (gemini-cli 0.61 ``expandCommand``; tests/e2e).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.contract.shapes import group_with
from hookweave.core.files import paths
from hookweave.core.model import hookenv, names
from hookweave.core.model.findings import UNREAD, Finding

if TYPE_CHECKING:
    from hookweave.core.model.agentplugins import PluginHook
    from hookweave.core.model.bundle import Bundle, HookForHost


def _system(file: str) -> dict[str, str]:
    return {"linux": f"/etc/gemini-cli/{file}", "macos": f"/Library/Application Support/GeminiCli/{file}",
            "windows": f"C:/ProgramData/gemini-cli/{file}"}


def hook_name(bundle: str, hook_id: str) -> str:
    return f"{bundle}/{hook_id}"


GEMINI = Description(
    name="gemini",
    title="Gemini CLI",
    files={  # Gemini's precedence, lowest first
        "system-defaults": {system: f"${{GEMINI_CLI_SYSTEM_DEFAULTS_PATH:-{path}}}"
                            for system, path in _system("system-defaults.json").items()},
        "user": "${GEMINI_CLI_HOME:-~}/.gemini/settings.json",
        "project": "{project}/.gemini/settings.json",
        "system": {system: f"${{GEMINI_CLI_SYSTEM_SETTINGS_PATH:-{path}}}" for system, path in _system("settings.json").items()},
    },
    read_only=("system-defaults", "system"),
    format="jsonc",
    events=names.column("gemini", names.EVENTS),
    tools=names.column("gemini", names.TOOLS),
    native_events=tuple("BeforeTool AfterTool BeforeAgent AfterAgent BeforeModel AfterModel BeforeToolSelection "
                        "SessionStart SessionEnd PreCompress Notification".split()),
    timeout_unit="ms",
    project_variable="${GEMINI_PROJECT_DIR}",  # braced: out of reach of Gemini's textual substitution (above)
    programs=("gemini",),
    dedup="first",  # by name and command (run_key); tests/e2e: the user copy's timeout applied
    order="sequential-flag",  # only where Gemini merges answers field by field (order_holds)
    execution="Gemini runs an event's hooks in parallel unless any matching group sets \"sequential\": true; "
              "then all of them run one after another in file order, user scope before project scope",
    loose_entries="skipped",  # 0.61.0: processHookDefinition discards it (a debug line); tests/e2e measures it
    untyped_handlers="skipped",  # tests/e2e/test_flat_entries_real.py, validateHookConfig drops it; measured
    source="shared/HOSTS.md section 4; gemini-cli 0.61.0, measured (tests/e2e)",
)


class GeminiHost(host_class(GEMINI)):  # type: ignore[misc]  # built like a plugin's host, plus what data cannot say
    no_managed = ("Gemini CLI's managed layer is one file, the administrator's system settings.json (GEMINI_CLI_SYSTEM_SETTINGS_PATH), with no drop-in folder: add the hooks there by hand, or install at user scope")
    hook_env = True  # no settings-level env: the bundle's env goes into each hook's own

    def run_key(self, event: str, entry: Any) -> tuple | None:
        """Gemini 0.61 keeps the first of an event's matching hooks per ``getHookKey``:
        ``name + ":" + command`` (the command only for type command), from every scope."""
        handler = self.handler_of(entry)
        if handler is None:
            return None
        command = handler.get("command") if handler.get("type") == "command" else ""
        name = handler.get("name")
        return (event, name if isinstance(name, str) else repr(name) if name else "", command)

    def context_paths(self, project: Path) -> dict[str, Path]:
        trusted = paths.from_env("GEMINI_CLI_TRUSTED_FOLDERS_PATH",
                                 self.settings_path("user", project).with_name("trustedFolders.json"))
        return {"trustedFolders": trusted}

    def render(self, hook: HookForHost, native_event: str, bundle: Bundle) -> dict[str, Any]:
        handler: dict[str, Any] = {
            "type": "command",
            "name": hook_name(bundle.name, hook.id),
            "command": self.command(hook, bundle),
        }
        if hook.timeout is not None:
            handler["timeout"] = self.native_timeout(hook.timeout)  # Gemini counts milliseconds
        env = {v.name: hookenv.hook_env_value(v) for v in bundle.env if v.hosts is None or self.name in v.hosts}
        if env:
            handler["env"] = env
        return group_with(self, hook, bundle, handler)

    def order_holds(self, event: str, docs: Mapping[str, Any]) -> bool:
        """Under ``"sequential": true`` on any group of the event, in any scope, the whole event runs
        one hook after another in file order. In parallel Gemini still merges the answers in file
        order, and for the events it merges field by field (BeforeModel, AfterModel and the simple
        merge of SessionEnd, PreCompress, Notification) the later hook's answer wins a field."""
        if event not in OR_MERGED:
            return True
        return any(isinstance(g, dict) and g.get("sequential") is True
                   for s in self.verify_scopes for g in _list(_get(docs.get(s), ("hooks", event))))

    def forget(self, doc: dict[str, Any], bundle: str, hook_ids: list[str]) -> None:
        """Drop our names from hooksConfig.disabled, which Gemini's /hooks disable writes."""
        config = doc.get("hooksConfig")
        if not isinstance(config, dict) or not isinstance(config.get("disabled"), list):
            return
        gone = {hook_name(bundle, h) for h in hook_ids}
        doc["hooksConfig"] = {**config, "disabled": [n for n in config["disabled"] if n not in gone]}

    def traces(self, doc: Any, bundle: str) -> set[str]:
        """Our hooks' names already in hooksConfig.disabled: the operator's entries, kept on uninstall."""
        config = doc.get("hooksConfig") if isinstance(doc, dict) else None
        disabled = config.get("disabled") if isinstance(config, dict) else None
        if not isinstance(disabled, list):
            return set()
        prefix = hook_name(bundle, "")
        return {n[len(prefix):] for n in disabled if isinstance(n, str) and n.startswith(prefix)}

    def plugin_hooks(self, docs: Mapping[str, Any], project: Path) -> list[PluginHook]:
        """The hooks of the enabled extensions (0.61.0: tests/e2e/test_plugins_real.py)."""
        from hookweave.core.model.extensions import GEMINI
        from hookweave.hosts import extension_folders  # read only by verify

        return extension_folders.extension_hooks(GEMINI, self.settings_path("user", project).parent / "extensions",
                                                 project)

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        from hookweave.hosts.gemini import trust as gt

        found = _odd_types(self, docs, project)
        before_project = [docs.get(s) for s in self.verify_scopes if s != "project"]  # what trust is read from
        folder_trust = gt.switched_on(gt.merged(before_project, ("security", "folderTrust", "enabled")))
        rules_path = self.context_paths(project)["trustedFolders"]
        read = "trustedFolders" in docs  # not under verify --repo: this machine's trust is then unknown
        trusted, why = gt.trust(docs.get("trustedFolders"), read and rules_path.exists(), folder_trust, project, os.environ)
        if trusted is None:
            found.append(Finding("problem", f"{paths.display(rules_path)} {why}: Gemini stops at start and runs "
                                 "nothing; fix the file", machine=True))
        elif not read and why == "no rule covers it":
            found.append(Finding("warning", f"Gemini runs settings hooks only in a folder trusted on each machine "
                                 f"({paths.display(rules_path)}, not read: {UNREAD}); on each machine trust it in "
                                 "Gemini (or set GEMINI_CLI_TRUST_WORKSPACE=true)", machine=True))
        elif not trusted:
            found.append(Finding("problem", f"the project folder is not trusted ({why}): Gemini skips every settings "
                                 "hook, user ones too, and a headless run stops (exit 55); trust it in Gemini (or "
                                 "set GEMINI_CLI_TRUST_WORKSPACE=true)", machine=True))
        scopes = gt.loaded_scopes(self.verify_scopes, bool(trusted) or not read, project)  # --repo: as if trusted
        loaded = [docs.get(s) for s in scopes]
        if not gt.switched_on(gt.merged(loaded, ("hooksConfig", "enabled"))):
            setter = [s for s in scopes if gt.merged([docs.get(s)], ("hooksConfig", "enabled")) is not gt.UNSET][-1:]
            found.append(Finding("problem", "hooksConfig.enabled is false: Gemini runs no hooks; set it to true",
                                 machine=any(not paths.within(self.settings_path(s, project), project) for s in setter)))
        disabled = {n for d in loaded for n in _list(_get(d, ("hooksConfig", "disabled"))) if isinstance(n, str)}
        ours = _our_names(self, [docs.get(s) for s in installed_scopes])
        shared = {n for s in scopes if paths.within(self.settings_path(s, project), project)
                  for n in _list(_get(docs.get(s), ("hooksConfig", "disabled"))) if isinstance(n, str)}  # the repository's
        for name in sorted(disabled & ours):
            bundle, _, hook_id = name.partition("/")
            found.append(Finding("problem", "listed in hooksConfig.disabled, so Gemini skips it; enable it with "
                                 "/hooks enable or remove it from the list", bundle, hook_id, machine=name not in shared))
        if "project" in installed_scopes and os.path.realpath(project) == os.path.realpath(paths.home()):
            found.append(Finding("problem", "the project is the home folder, where Gemini does not load project settings",
                                 machine=True))
        for event in sorted(_sequential_events(self, docs, installed_scopes)):
            found.append(Finding("note", f"{event}: \"sequential\": true makes every {event} hook, from every scope, "
                                 "run one after another"))
        return found


# Events whose answers Gemini combines without regard to order (a block from any hook blocks;
# BeforeToolSelection takes the union of the tools): their file order matters only when sequential.
OR_MERGED = frozenset({"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "SessionStart", "BeforeToolSelection"})

GATE_TYPES = {  # where a gate reads a setting, and what Gemini's settings schema has there
    ("hooksConfig",): (dict, "an object"),
    ("hooksConfig", "enabled"): (bool, "true or false"),
    ("hooksConfig", "disabled"): (list, "a list of hook names"),
    ("security",): (dict, "an object"),
    ("security", "folderTrust"): (dict, "an object"),
    ("security", "folderTrust", "enabled"): (bool, "true or false"),
}


def _odd_types(host: GeminiHost, docs: Mapping[str, Any], project: Path) -> list[Finding]:
    """A gate setting of another type is read as unset; say so, since Gemini may read it otherwise."""
    out = []
    for scope in host.verify_scopes:
        machine = not paths.within(host.settings_path(scope, project), project)
        for keys, (kind, what) in GATE_TYPES.items():
            value = _get(docs.get(scope), keys)
            bad = value is not None and (not isinstance(value, kind) or (
                kind is list and not all(isinstance(n, str) for n in value)))
            if bad and kind is bool and value is not None and not value:  # 0 or "": Gemini reads it as false
                out.append(Finding("warning", f"{scope} settings: {'.'.join(keys)} should be {what}; Gemini reads "
                                   f"{json.dumps(value)} as false, and may reject the file: fix it", machine=machine))
            elif bad:
                out.append(Finding("warning", f"{scope} settings: {'.'.join(keys)} should be {what}; hookweave reads "
                                   "it as unset, and Gemini may reject the file: fix it", machine=machine))
    return out


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _get(doc: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        if not isinstance(doc, dict) or key not in doc:
            return None
        doc = doc[key]
    return doc


def _our_names(host: GeminiHost, docs: list[Any]) -> set[str]:
    out = set()
    for doc in docs:
        hooks = _get(doc, ("hooks",))
        for groups in hooks.values() if isinstance(hooks, dict) else ():
            for group in groups if isinstance(groups, list) else []:
                owner = host.owner(group)
                if owner:
                    out.add(hook_name(*owner))
    return out


def _sequential_events(host: GeminiHost, docs: Mapping[str, Any], scopes: set[str]) -> set[str]:
    events = set()
    for scope in scopes:
        hooks = _get(docs.get(scope), ("hooks",))
        for event, groups in hooks.items() if isinstance(hooks, dict) else ():
            if isinstance(groups, list) and any(isinstance(g, dict) and g.get("sequential") is True for g in groups):
                events.add(event)
    return events


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(GeminiHost)
