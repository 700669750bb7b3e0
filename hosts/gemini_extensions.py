"""Gemini CLI's extensions, read as 0.61.0 loads them (the rules: ``model/geminiextensions.py``):
the hooks of every enabled extension in ``${GEMINI_CLI_HOME:-~}/.gemini/extensions``. verify lists
them and never writes them."""

from __future__ import annotations

from pathlib import Path

from hookweave.core.files import pluginfiles
from hookweave.core.model import agentplugins, geminiextensions as model
from hookweave.core.model.agentplugins import PluginHook


def extension_hooks(extensions: Path, project: Path) -> list[PluginHook]:
    enablement = agentplugins.loads(pluginfiles.read_quietly(extensions / model.ENABLEMENT))
    out: list[PluginHook] = []
    for folder in pluginfiles.subfolders(extensions):
        record = agentplugins.loads(pluginfiles.read_quietly(folder / model.INSTALL_RECORD))
        root = Path(model.extension_folder(str(folder), record))
        name = model.extension_name(agentplugins.loads(pluginfiles.read_quietly(root / model.MANIFEST)))
        if name is None or not model.enabled(name, enablement, str(project)):
            continue
        file = root / agentplugins.HOOKS_FILE
        doc = agentplugins.loads(pluginfiles.read_quietly(file))
        out += agentplugins.hooks_of(name, str(file), doc, str(root), "extension",
                                     model.variables(str(root), str(project)))
    return out
