"""The extensions of Gemini CLI and Qwen Code, as each loads them (read in their bundled code,
``ExtensionManager``; measured in tests/e2e/test_plugins_real.py). Both: every folder of the user's
``extensions`` folder with a manifest naming it; a linked one (its install record of type ``link``)
is read from its source folder; ``extension-enablement.json`` beside them turns one off or on per
project folder (the last matching rule wins; on by default). Their hooks:

- Gemini CLI 0.61.0: ``hooks/hooks.json`` (``{"hooks": {...}}``), with ``${extensionPath}``,
  ``${workspacePath}`` and ``${/}`` filled in;
- Qwen Code 0.24.4: ``hooks`` in ``qwen-extension.json`` itself, else the file it names, else
  ``hooks/hooks.json`` (with or without the ``hooks`` key around the events), with
  ``${CLAUDE_PLUGIN_ROOT}`` filled in. Pure."""

from __future__ import annotations

import posixpath
import re
from typing import Any, Callable

from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.model.agentplugins import HOOKS_FILE, PLUGIN_ROOT

ENABLEMENT = "extension-enablement.json"  # beside the extensions


class Dialect(FieldTuple):
    manifest: str
    install_record: str
    variables: Callable[[str, str], dict]  # (extension folder, project) -> {word: value}
    inline_and_named: bool  # the manifest's ``hooks`` may hold hooks or name their file (Qwen)


GEMINI = Dialect("gemini-extension.json", ".gemini-extension-install.json",
                 lambda root, project: {"${extensionPath}": root, "${workspacePath}": project, "${/}": "/",
                                        "${pathSeparator}": "/"}, False)
QWEN = Dialect("qwen-extension.json", ".qwen-extension-install.json", lambda root, project: {PLUGIN_ROOT: root}, True)


def extension_name(manifest: Any) -> str | None:
    """The name the agent knows the extension by (it skips a folder whose manifest has none)."""
    name = manifest.get("name") if isinstance(manifest, dict) else None
    return name if isinstance(name, str) and name else None


def extension_folder(folder: str, install_record: Any) -> str:
    """Where the agent reads the extension: its source folder when it was linked, else its own folder."""
    if isinstance(install_record, dict) and install_record.get("type") == "link":
        source = install_record.get("source")
        if isinstance(source, str) and source:
            return source
    return folder


def hooks_file(dialect: Dialect, manifest: Any, root: str) -> str:
    """The file of hooks the agent reads (when the manifest holds none itself)."""
    named = manifest.get("hooks") if dialect.inline_and_named and isinstance(manifest, dict) else None
    if isinstance(named, str):
        return named if posixpath.isabs(named) else posixpath.join(root, named)
    return posixpath.join(root, HOOKS_FILE)


def inline_hooks(dialect: Dialect, manifest: Any) -> Any:
    named = manifest.get("hooks") if dialect.inline_and_named and isinstance(manifest, dict) else None
    return {"hooks": named} if isinstance(named, dict) else None


def as_hooks_file(dialect: Dialect, doc: Any) -> Any:
    """A hooks file as ``{"hooks": {...}}``: Qwen also takes the events without the key around them."""
    if dialect.inline_and_named and isinstance(doc, dict) and not isinstance(doc.get("hooks"), dict):
        return {"hooks": doc}
    return doc


def enabled(name: str, enablement: Any, project: str) -> bool:
    """``isEnabled(name, cwd)``: each ``overrides`` rule of the extension that matches the folder
    (``!`` disables; a trailing ``*`` takes subfolders too) decides in turn; on by default."""
    entry = enablement.get(name) if isinstance(enablement, dict) else None
    rules = entry.get("overrides") if isinstance(entry, dict) else None
    on = True
    for rule in rules if isinstance(rules, list) else ():
        if not isinstance(rule, str):
            continue
        disable = rule.startswith("!")
        base = rule[1:] if disable else rule
        subfolders = base.endswith("*")
        base = base[:-1] if subfolders else base
        if _glob(base + ("*" if subfolders else "")).match(_slashed(project)):
            on = not disable
    return on


def _slashed(path: str) -> str:
    path = path.replace("\\", "/")
    return ("" if path.startswith("/") else "/") + path + ("" if path.endswith("/") else "/")


def _glob(glob: str) -> re.Pattern:
    """The agents' ``globToRegex``: regex characters escaped, ``/*`` and ``*`` match any rest."""
    escaped = re.sub(r"[.+?^${}()|\[\]\\]", lambda m: "\\" + m.group(0), glob)
    return re.compile("^" + re.sub(r"(/?)\*", lambda m: f"({m.group(1)}.*)?", escaped) + "$")
