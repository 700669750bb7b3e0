"""Copilot CLI's plugins, read as 1.0.102 loads them (``model/agentplugins.copilot_plugins``):
``installedPlugins`` in ``$COPILOT_HOME/config.json`` (comments allowed: Copilot writes one), each
enabled one's ``hooks/hooks.json`` in its installed copy. verify lists them and never writes them."""

from __future__ import annotations

from pathlib import Path

from hookweave.core.errors import BadInput
from hookweave.core.files import pluginfiles
from hookweave.core.formats import jsontext
from hookweave.core.model import agentplugins
from hookweave.core.model.agentplugins import PluginHook


def plugin_hooks(home: Path) -> list[PluginHook]:
    text = pluginfiles.read_quietly(home / "config.json")
    try:
        config = jsontext.parse(text, str(home / "config.json"), comments=True).value if text is not None else None
    except (BadInput, ValueError):
        return []  # Copilot reports a config.json it cannot read itself
    out: list[PluginHook] = []
    for name, folder in agentplugins.copilot_plugins(config):
        file = Path(folder) / agentplugins.HOOKS_FILE
        out += agentplugins.hooks_of(name, str(file), agentplugins.loads(pluginfiles.read_quietly(file)), folder,
                                     variables={})
    return out
