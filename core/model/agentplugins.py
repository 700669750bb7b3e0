"""Hooks an agent loads from its own plugins or extensions, as data: which plugins are on, where
each one's folder is, and the hooks its files hold. Pure: the texts come from the reader
(``hosts/claude/plugins.py``); nothing here opens a file. hookweave reads these hooks, never writes them.

Claude Code 2.1.332, measured (tests/e2e/test_plugins_real.py): a plugin runs when the merged
``enabledPlugins`` (user < project < local < managed, key by key) holds ``true`` for its
``name@marketplace`` id; a plugin of a ``directory`` marketplace is read in place, from the folder its
marketplace entry names, and any other from the copy ``installed_plugins.json`` names
(``installPath``, under ~/.claude/plugins/cache); ``${CLAUDE_PLUGIN_ROOT}`` in its commands is
that folder.
"""

import posixpath
from typing import Any, Iterable

from hookweave.core.formats import jsonlite
from hookweave.core.formats.fieldtuple import FieldTuple

PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}"
HOOKS_FILE = "hooks/hooks.json"  # in the plugin's folder: loaded whenever the plugin is on
MANIFEST = ".claude-plugin/plugin.json"  # its "hooks" may name more files, or hold hooks itself
MARKETPLACE = ".claude-plugin/marketplace.json"


class PluginHook(FieldTuple):
    """One handler an agent runs from a plugin or extension: ``source`` is ``plugin`` or
    ``extension``, ``name`` its id as the agent spells it, ``file`` where the hook is written."""

    source: str
    name: str
    file: str
    event: str
    matcher: Any
    handler: dict

    @property
    def command(self) -> str | None:
        """The shell command it runs (Copilot's is under ``bash``)."""
        return next((self.handler[k] for k in ("command", "bash") if isinstance(self.handler.get(k), str)), None)

    def as_json(self) -> dict[str, Any]:
        return {"source": self.source, "name": self.name, "file": self.file, "event": self.event,
                "matcher": self.matcher, "command": self.command, "type": self.handler.get("type")}


def loads(text: str | None) -> Any:
    """A plugin file's JSON, or ``None`` when it is missing or does not parse (the agent skips it too)."""
    try:
        return jsonlite.loads(text) if text is not None else None
    except ValueError:
        return None


def enabled_plugins(docs: Iterable[Any]) -> list[str]:
    """The ids ``enabledPlugins`` turns on, the settings given lowest first: a later file's value
    for an id wins, and only ``true`` turns one on; built-in plugins (``@builtin``) have no folder to read."""
    merged: dict[str, Any] = {}
    for doc in docs:
        found = doc.get("enabledPlugins") if isinstance(doc, dict) else None
        if isinstance(found, dict):
            merged.update(found)
    return [name for name, on in merged.items() if on is True and "@" in name and not name.endswith("@builtin")]


def marketplace_folder(known: Any, marketplace: str) -> str | None:
    """The folder of a ``directory`` marketplace (its plugins are read in place there), else ``None``."""
    entry = known.get(marketplace) if isinstance(known, dict) else None
    source = entry.get("source") if isinstance(entry, dict) else None
    if not isinstance(source, dict) or source.get("source") != "directory":
        return None
    folder = source.get("path") or entry.get("installLocation")
    return folder if isinstance(folder, str) else None


def plugin_folder(plugin_id: str, folder: str | None, catalogue: Any, installed: Any, project: str) -> str | None:
    """Where Claude reads ``plugin_id`` from: in place in a ``directory`` marketplace's ``folder``
    (its ``marketplace.json`` entry, ``catalogue``, names the plugin's path), else the installed
    copy: the entry for this project, then the user's, then any."""
    name = plugin_id.split("@", 1)[0]
    plugins = catalogue.get("plugins") if isinstance(catalogue, dict) else None
    entry = next((p for p in plugins if isinstance(p, dict) and p.get("name") == name), None) if isinstance(plugins, list) else None
    if folder is not None and entry is not None and isinstance(entry.get("source"), str):
        return posixpath.normpath(posixpath.join(folder, entry["source"]))
    copies = installed.get("plugins", {}).get(plugin_id) if isinstance(installed, dict) and isinstance(installed.get("plugins"), dict) else None
    copies = [c for c in copies if isinstance(c, dict) and isinstance(c.get("installPath"), str)] if isinstance(copies, list) else []
    ranked = sorted(copies, key=lambda c: (c.get("projectPath") != project, c.get("scope") != "user"))
    return ranked[0]["installPath"] if ranked else None


def hook_files(manifest: Any) -> list[str]:
    """The files of hooks a plugin holds, relative to its folder: ``hooks/hooks.json``, and those
    its ``plugin.json`` names under ``hooks`` (a path, measured, or a list of them)."""
    named = manifest.get("hooks") if isinstance(manifest, dict) else None
    named = [named] if isinstance(named, str) else named if isinstance(named, list) else []
    extra = [posixpath.normpath(p) for p in named if isinstance(p, str)]
    return [HOOKS_FILE, *(p for p in extra if p != HOOKS_FILE)]


def inline_hooks(manifest: Any) -> Any:
    """Hooks written into ``plugin.json`` itself (an object under ``hooks``), as a hooks file holds them."""
    named = manifest.get("hooks") if isinstance(manifest, dict) else None
    return {"hooks": named} if isinstance(named, dict) else None


def hooks_of(name: str, file: str, doc: Any, root: str, source: str = "plugin",
             variables: dict[str, str] | None = None) -> list[PluginHook]:
    """Each handler of a hooks file in the settings' shape (``{"hooks": {event: [{matcher, hooks:
    [...]}]}}``; Claude's plugins and Gemini's extensions alike), its ``variables`` filled in as the
    agent does before it runs one: by default Claude's ``${CLAUDE_PLUGIN_ROOT}``, the plugin's folder."""
    variables = {PLUGIN_ROOT: root} if variables is None else variables
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    out: list[PluginHook] = []
    for event, groups in hooks.items() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(group, dict) and not isinstance(handlers, list):
                handlers = [group]  # Copilot's flat entries: the entry is the handler
            for handler in handlers if isinstance(handlers, list) else ():
                if isinstance(handler, dict):
                    out.append(PluginHook(source, name, file, event, group.get("matcher"), _filled(handler, variables)))
    return out


def _filled(handler: dict, variables: dict[str, str]) -> dict:
    key = next((k for k in ("command", "bash") if isinstance(handler.get(k), str)), None)
    if key is None:
        return handler
    command = handler[key]
    for word, value in variables.items():
        command = command.replace(word, value)
    return {**handler, key: command}


def copilot_plugins(config: Any) -> list[tuple[str, str]]:
    """``(name, folder)`` of each plugin Copilot CLI 1.0.102 runs: ``installedPlugins`` in its
    config.json with ``enabled`` true (``copilot plugin disable`` sets it false), from ``cache_path``."""
    found = config.get("installedPlugins") if isinstance(config, dict) else None
    return [(p["name"] + (f"@{p['marketplace']}" if p.get("marketplace") else ""), p["cache_path"])
            for p in found if isinstance(p, dict) and p.get("enabled") is True and isinstance(p.get("name"), str)
            and isinstance(p.get("cache_path"), str)] if isinstance(found, list) else []
