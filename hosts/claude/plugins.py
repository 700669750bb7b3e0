"""Claude Code's plugins, read as Claude 2.1.332 loads them (the rules: ``model/agentplugins.py``):
the hooks of every enabled plugin, from its folder in a ``directory`` marketplace or its installed
copy under ``${CLAUDE_CONFIG_DIR:-~/.claude}/plugins``. verify lists them and never writes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from hookweave.core.model import agentplugins as model
from hookweave.core.model.agentplugins import PluginHook

SETTINGS_ORDER = ("user", "project", "local", "managed")  # enabledPlugins merged lowest first


def plugin_hooks(plugins: Path, docs: Mapping[str, Any], project: Path) -> list[PluginHook]:
    """Every hook of every plugin the settings ``docs`` (by scope) turn on; ``plugins``: Claude's
    plugins folder (installed_plugins.json, known_marketplaces.json, cache/)."""
    ids = model.enabled_plugins(docs.get(scope) for scope in SETTINGS_ORDER)
    if not ids:
        return []  # most settings turn no plugin on: nothing to read, so the reader is not loaded
    from hookweave.core.files import pluginfiles

    known = model.loads(pluginfiles.read_quietly(plugins / "known_marketplaces.json"))
    installed = model.loads(pluginfiles.read_quietly(plugins / "installed_plugins.json"))
    out: list[PluginHook] = []
    for plugin_id in ids:
        folder = model.marketplace_folder(known, plugin_id.split("@", 1)[1])
        catalogue = model.loads(pluginfiles.read_quietly(Path(folder) / model.MARKETPLACE)) if folder else None
        root = model.plugin_folder(plugin_id, folder, catalogue, installed, str(project))
        if root is not None:
            out += _hooks_in(plugin_id, Path(root))
    return out


def _hooks_in(plugin_id: str, root: Path) -> list[PluginHook]:
    from hookweave.core.files import pluginfiles

    manifest = model.loads(pluginfiles.read_quietly(root / model.MANIFEST))
    out: list[PluginHook] = []
    for name in model.hook_files(manifest):
        file = root / name
        out += model.hooks_of(plugin_id, str(file), model.loads(pluginfiles.read_quietly(file)), str(root))
    inline = model.inline_hooks(manifest)
    if inline is not None:
        out += model.hooks_of(plugin_id, str(root / model.MANIFEST), inline, str(root))
    return out
