"""Gemini CLI's extensions, as 0.61.0 loads them (read in its bundled code, chunk ``ExtensionManager``;
measured in tests/e2e/test_plugins_real.py): every folder of ``~/.gemini/extensions`` with a
``gemini-extension.json`` naming it; a linked one (``.gemini-extension-install.json`` of type
``link``) is read from its source folder; ``hooks/hooks.json`` there is in the settings' shape, with
``${extensionPath}``, ``${workspacePath}`` and ``${/}`` filled in; ``extension-enablement.json``
turns one off or on per folder (the last matching rule wins; on by default). Pure."""

from __future__ import annotations

import re
from typing import Any

MANIFEST = "gemini-extension.json"
INSTALL_RECORD = ".gemini-extension-install.json"
ENABLEMENT = "extension-enablement.json"  # beside the extensions, in ~/.gemini/extensions


def extension_name(manifest: Any) -> str | None:
    """The name Gemini knows the extension by (it skips a folder whose manifest has none)."""
    name = manifest.get("name") if isinstance(manifest, dict) else None
    return name if isinstance(name, str) and name else None


def extension_folder(folder: str, install_record: Any) -> str:
    """Where Gemini reads the extension: its source folder when it was linked, else its own folder."""
    if isinstance(install_record, dict) and install_record.get("type") == "link":
        source = install_record.get("source")
        if isinstance(source, str) and source:
            return source
    return folder


def enabled(name: str, enablement: Any, project: str) -> bool:
    """Gemini's ``isEnabled(name, cwd)``: each ``overrides`` rule of the extension that matches the
    folder (``!`` disables; a trailing ``*`` takes subfolders too) decides in turn; on by default."""
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


def variables(root: str, project: str) -> dict[str, str]:
    return {"${extensionPath}": root, "${workspacePath}": project, "${/}": "/", "${pathSeparator}": "/"}


def _slashed(path: str) -> str:
    path = path.replace("\\", "/")
    return ("" if path.startswith("/") else "/") + path + ("" if path.endswith("/") else "/")


def _glob(glob: str) -> re.Pattern:
    """Gemini's ``globToRegex``: regex characters escaped, ``/*`` and ``*`` match any rest."""
    escaped = re.sub(r"[.+?^${}()|\[\]\\]", lambda m: "\\" + m.group(0), glob)
    return re.compile("^" + re.sub(r"(/?)\*", lambda m: f"({m.group(1)}.*)?", escaped) + "$")
