"""Gemini CLI's gates as 0.61 applies them: which settings files it loads, the merged
``hooksConfig.enabled``, and folder trust (``checkPathTrust`` and ``isPathTrusted`` in its bundle).

- Settings merge: schema defaults < system-defaults < user < project < system. A value of any
  type replaces the one below it (an object merges key by key); the project file counts only in a
  trusted folder that is not the home folder.
- Hooks run when the merged ``hooksConfig.enabled`` is JavaScript-truthy, ``null`` or unset
  (``enabled ?? true``). The same goes for ``security.folderTrust.enabled``, which Gemini reads
  *before* the project file loads: a project cannot switch folder trust off.
- Trust: ``GEMINI_RESTRICTED_MODE=true`` or ``GEMINI_CLI_TRUST_WORKSPACE=false`` distrust;
  ``GEMINI_CLI_TRUST_WORKSPACE=true`` trusts (over any ``DO_NOT_TRUST``); folder trust off trusts;
  otherwise the ``trustedFolders.json`` rule with the *longest path* whose folder (its parent for
  ``TRUST_PARENT``) holds the project decides, and no rule means untrusted. A trust file that does
  not parse, is not an object or holds an unknown level stops Gemini at start.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Mapping

from hookweave.core.files import paths

LEVELS = ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST")
UNSET = object()


def loaded_scopes(scopes: tuple[str, ...], trusted: bool, project: Path) -> list[str]:
    """The settings scopes Gemini merges here, lowest first."""
    at_home = os.path.realpath(project) == os.path.realpath(paths.home())
    return [s for s in scopes if s != "project" or (trusted and not at_home)]


def merged(docs: list[Any], keys: tuple[str, ...]) -> Any:
    """The value Gemini's deep merge ends with at ``keys`` (``UNSET`` when none): a later file's
    value of any type replaces an earlier one, and a non-object on the way drops what was below."""
    result: Any = UNSET
    for doc in docs:
        node = doc
        for i, key in enumerate(keys):
            if not isinstance(node, dict) or key not in node:
                break
            node = node[key]
            if i == len(keys) - 1:
                result = node
            elif not isinstance(node, dict):
                result = UNSET
                break
    return result


def switched_on(value: Any) -> bool:
    """``value ?? true`` as a JavaScript condition."""
    if value is UNSET or value is None:
        return True
    return bool(value) and value == value  # NaN is falsy in JavaScript; JSON has none, but be exact


def trust(rules: Any, rules_exist: bool, folder_trust: bool, project: Path, environ: Mapping[str, str]) -> tuple[bool | None, str]:
    """``(trusted, why)``: ``None`` means Gemini stops at start over a broken trust file."""
    if environ.get("GEMINI_RESTRICTED_MODE") == "true" or environ.get("GEMINI_CLI_TRUST_WORKSPACE") == "false":
        name = "GEMINI_RESTRICTED_MODE=true" if environ.get("GEMINI_RESTRICTED_MODE") == "true" else \
            "GEMINI_CLI_TRUST_WORKSPACE=false"
        return False, f"{name} is set in this shell"
    if environ.get("GEMINI_CLI_TRUST_WORKSPACE") == "true":
        return True, "GEMINI_CLI_TRUST_WORKSPACE=true"
    if not folder_trust:
        return True, "folder trust is off"
    if rules is None:
        return (None, "cannot be read") if rules_exist else (False, "no rule covers it")
    if not isinstance(rules, dict):
        return None, "is not a JSON object"
    bad = next((level for level in rules.values() if level not in LEVELS), UNSET)
    if bad is not UNSET:
        return None, f"holds the trust level {json.dumps(bad)[:60]}, which is not one of {', '.join(LEVELS)}"
    return _longest_match(rules, project)


def _longest_match(rules: dict[str, str], project: Path) -> tuple[bool, str]:
    location = os.path.realpath(project)
    best, best_len, best_rule = None, -1, ""
    normalized = {}
    for raw, level in rules.items():
        normalized[_resolve(raw, project)] = level  # a later spelling of the same folder wins, as in Gemini
    for rule, level in normalized.items():
        folder = os.path.dirname(rule) if level == "TRUST_PARENT" else rule
        if _inside(location, _real(folder)) and _js_length(rule) > best_len:
            best, best_len, best_rule = level, _js_length(rule), rule
    if best is None:
        return False, "no rule covers it"
    return best != "DO_NOT_TRUST", f"{best} on {paths.printable(best_rule)}"


def _resolve(raw: str, cwd: Path) -> str:
    """Node's ``path.resolve`` from the project folder: absolute, ``.``/``..`` folded, no symlinks followed."""
    joined = os.path.join(str(cwd), raw)
    out = os.path.normpath(joined)
    return "/" + out.lstrip("/") if out.startswith("//") else out


def _real(folder: str) -> str:
    try:
        return os.path.realpath(folder) if os.path.exists(folder) else folder
    except (OSError, ValueError):
        return folder


def _inside(child: str, parent: str) -> bool:
    parent = parent.rstrip("/") or "/"
    return child == parent or child.startswith(parent if parent == "/" else parent + "/")


def _js_length(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2
