"""Gemini CLI's and Qwen Code's extensions, read as each loads them (the rules:
``model/extensions.py``): the hooks of every enabled extension in the user's ``extensions``
folder. verify lists them and never writes them."""

from __future__ import annotations

from pathlib import Path

from hookweave.core.files import pluginfiles
from hookweave.core.model import agentplugins, extensions as model
from hookweave.core.model.agentplugins import PluginHook


def extension_hooks(dialect: model.Dialect, extensions: Path, project: Path) -> list[PluginHook]:
    enablement = agentplugins.loads(pluginfiles.read_quietly(extensions / model.ENABLEMENT))
    out: list[PluginHook] = []
    for folder in pluginfiles.subfolders(extensions):
        record = agentplugins.loads(pluginfiles.read_quietly(folder / dialect.install_record))
        root = model.extension_folder(str(folder), record)
        manifest = agentplugins.loads(pluginfiles.read_quietly(Path(root) / dialect.manifest))
        name = model.extension_name(manifest)
        if name is None or not model.enabled(name, enablement, str(project)):
            continue
        variables = dialect.variables(root, str(project))
        inline = model.inline_hooks(dialect, manifest)
        if inline is not None:
            out += agentplugins.hooks_of(name, str(Path(root) / dialect.manifest), inline, root, "extension", variables)
            continue
        file = model.hooks_file(dialect, manifest, root)
        doc = model.as_hooks_file(dialect, agentplugins.loads(pluginfiles.read_quietly(Path(file))))
        out += agentplugins.hooks_of(name, file, doc, root, "extension", variables)
    return out
