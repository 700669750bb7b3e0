"""Codex's config layers as Codex 0.169 loads them, and the gates they hold: ``[features] hooks``
(and the deprecated ``codex_hooks``) and project trust.

Measured on codex 0.169.0 with ``codex features list`` (tests/e2e/test_codex_gates_real.py):

- Layers, lowest precedence first: system ``/etc/codex/config.toml``, user ``config.toml``, then one
  project layer per folder from the project root down to the working folder that has a ``.codex``
  folder, then the legacy ``/etc/codex/managed_config.toml``. Their tables merge key by key, the
  later layer winning, *before* features are read: a project ``hooks = false`` turns off user hooks.
- In the merged ``[features]`` table ``hooks`` decides when present, else ``codex_hooks``; neither
  means on. A value that is not a boolean, or ``features`` that is not a table, in a loaded layer
  stops Codex from starting ("failed to load bootstrap configuration").
- The project root is the nearest folder holding a root marker (``project_root_markers`` in the
  system or user config, default ``.git``; a ``.git`` folder counts only with a ``HEAD`` file in
  it, a ``.git`` file always); without one it is the working folder.
- A project layer loads only when its folder is trusted: ``[projects."<folder>"] trust_level`` for
  the folder itself, else for the project root, else for the repository root decides
  (``trusted`` loads, ``untrusted`` or nothing does not). An untrusted layer is ignored whole,
  even when it does not parse; a trusted one that does not parse stops Codex.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

from hookweave.core.files import paths
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.model.findings import Finding

SYSTEM_DIR_ENV = "HOOKWEAVE_CODEX_SYSTEM_DIR"  # where /etc/codex is looked for (tests point it elsewhere)
PROJECT_LABEL = "codex-project:"  # context label prefix of a project layer's config.toml, then its folder
FEATURE_KEYS = ("hooks", "codex_hooks")  # the current key first: it wins over the deprecated one


class Layer(FieldTuple):
    shown: str  # how findings name it
    path: Path
    doc: Any  # parsed data; None when missing or unreadable
    loaded: bool  # whether Codex loads it here
    machine: bool = True  # this machine's file, not the repository's (a project layer inside the project)


def system_dir() -> Path:
    return paths.from_env(SYSTEM_DIR_ENV, paths.by_platform("/etc/codex", "/etc/codex", "C:/ProgramData/OpenAI/Codex"))


def context_paths(project: Path, user_config: Path) -> dict[str, Path]:
    """Every config.toml Codex may load for a session in ``project``, by label."""
    out = {"codex-system": system_dir() / "config.toml", "user-config": user_config,
           "codex-managed": system_dir() / "managed_config.toml", "codex-requirements": system_dir() / "requirements.toml"}
    home = os.path.realpath(user_config.parent)
    for folder in [project, *project.parents]:
        dot = folder / ".codex"
        if os.path.isdir(dot) and os.path.realpath(dot) != home:  # os.path: an unreadable folder is just no layer  # Codex skips its own home as a project layer
            out[PROJECT_LABEL + str(folder)] = dot / "config.toml"
    return out


def layers(docs: Mapping[str, Any], project: Path, user_config: Path) -> list[Layer]:
    """The layers in Codex's precedence, lowest first, each marked loaded or not; one ``docs`` lacks
    (not read: ``verify --repo``) as not loaded, since there is nothing to judge of it."""
    system, user = docs.get("codex-system"), docs.get("user-config")
    base = [Layer("the system config.toml", system_dir() / "config.toml", system, "codex-system" in docs),
            Layer("the user config.toml", user_config, user, "user-config" in docs)]
    root = project_root(project, _markers([system, user]))
    trust = _projects([system, user])
    unread = "user-config" not in docs  # verify --repo: the trust store is this machine's; judge the layers as loaded
    folders = [project, *project.parents]
    chain = folders[: folders.index(root) + 1] if root in folders else [project]
    for folder in reversed(chain):
        label = PROJECT_LABEL + str(folder)
        if label in docs:
            path = folder / ".codex" / "config.toml"
            base.append(Layer(paths.display(path), path, docs[label], unread or decide(trust, folder, root) == "trusted",
                              not paths.within(path, project)))
    base.append(Layer("the managed_config.toml", system_dir() / "managed_config.toml", docs.get("codex-managed"),
                      "codex-managed" in docs))
    return base


def project_trust(docs: Mapping[str, Any], project: Path) -> str | None:
    """``trusted``, ``untrusted`` or ``None`` (no entry): what Codex decides for ``project``'s own layer."""
    system, user = docs.get("codex-system"), docs.get("user-config")
    return decide(_projects([system, user]), project, project_root(project, _markers([system, user])))


def decide(trust: Mapping[str, Any], folder: Path, root: Path) -> str | None:
    """Codex's ``decision_for_dir``: the folder's own entry, else the project root's, else the
    repository root's; each looked up by its canonical path first, then as written."""
    repo = repository_root(folder)
    for where in (folder, root, repo):
        if where is None:
            continue
        for key in dict.fromkeys((os.path.realpath(where), str(where))):
            level = trust.get(key)
            if isinstance(level, dict) and isinstance(level.get("trust_level"), str):
                return level["trust_level"]
    return None


def project_root(project: Path, markers: list[str]) -> Path:
    if not markers:
        return project
    for folder in [project, *project.parents]:
        if any(_is_marker(folder / marker, marker) for marker in markers):
            return folder
    return project


def repository_root(folder: Path) -> Path | None:
    """The git repository a folder is in (the main checkout for a linked worktree)."""
    for above in [folder, *folder.parents]:
        dot_git = above / ".git"
        if os.path.isfile(dot_git):
            try:
                target = dot_git.read_text(encoding="utf-8", errors="replace").strip().removeprefix("gitdir:").strip()
            except OSError:
                return above
            parts = Path(target).parts
            if "worktrees" in parts and parts.index("worktrees") > 0:  # <repo>/.git/worktrees/<name>
                return Path(*parts[: parts.index("worktrees") - 1])
            return above
        if _is_marker(dot_git, ".git"):
            return above
    return None


def _is_marker(path: Path, marker: str) -> bool:
    try:
        if marker == ".git" and os.path.isdir(path):
            return os.path.exists(path / "HEAD")  # measured: an empty .git folder does not make a root
        return os.path.lexists(path)
    except OSError:
        return False


def _markers(docs: list[Any]) -> list[str]:
    markers: Any = [".git"]
    for doc in docs:
        if isinstance(doc, dict) and "project_root_markers" in doc:
            markers = doc["project_root_markers"]
    return [m for m in markers if isinstance(m, str)] if isinstance(markers, list) else [".git"]


def _projects(docs: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for doc in docs:
        table = doc.get("projects") if isinstance(doc, dict) else None
        if isinstance(table, dict):
            for key, entry in table.items():
                out[key] = {**out.get(key, {}), **entry} if isinstance(entry, dict) else entry
    return out


def feature_findings(stack: list[Layer]) -> list[Finding]:
    """Whether the merged ``[features]`` lets hooks run, naming the layer whose value Codex uses."""
    found: list[Finding] = []
    merged: dict[str, tuple[bool, Layer]] = {}
    setters: list[tuple[str, bool, Layer]] = []
    for layer in stack:
        if not layer.loaded:
            continue
        if layer.doc is None:
            if os.path.exists(layer.path):
                found.append(Finding("problem", f"{layer.shown} cannot be read as TOML: Codex refuses to start and "
                                     "runs no hooks; fix the file", machine=layer.machine))
            continue
        features = layer.doc.get("features") if isinstance(layer.doc, dict) else None
        if features is None:
            continue
        if not isinstance(features, dict):
            found.append(Finding("problem", f"{layer.shown}: features must be a table ([features]); Codex refuses to "
                                 "start and runs no hooks", machine=layer.machine))
            continue
        for key in FEATURE_KEYS:
            if key not in features:
                continue
            if not isinstance(features[key], bool):
                found.append(Finding("problem", f"{layer.shown}: [features] {key} must be true or false; Codex refuses "
                                     "to start and runs no hooks", machine=layer.machine))
                continue
            merged[key] = (features[key], layer)
            setters.append((key, features[key], layer))
    key = next((k for k in FEATURE_KEYS if k in merged), None)
    if key is None:
        return found
    value, winner = merged[key]
    if value is False:
        found.append(Finding("problem", f"[features] {key} = false in {winner.shown}, the value Codex uses: Codex runs "
                             "no hooks, user and project ones alike; remove it or set it to true", machine=winner.machine))
        return found
    for other, off, layer in setters:
        if off is False and not (other == key and layer is winner):
            why = "a later layer" if other == key else f"{key} = true beside it"
            found.append(Finding("note", f"[features] {other} = false in {layer.shown} is overridden by {key} = true in "
                                 f"{winner.shown} ({why}): hooks run", machine=layer.machine))
    return found


def requirement_findings(requirements: Any) -> list[Finding]:
    """The admin's ``requirements.toml`` (read in source, not measured: it lives in /etc): a
    top-level ``allow_managed_hooks_only = true`` keeps only managed hooks, and its ``[features]``
    pin a feature for every layer."""
    if not isinstance(requirements, dict):
        return []
    found = []
    if requirements.get("allow_managed_hooks_only") is True:
        found.append(Finding("problem", "requirements.toml sets allow_managed_hooks_only = true: Codex runs only the "
                             "admin's managed hooks, none of hookweave's", machine=True))
    features = requirements.get("features")
    pinned = next((k for k in FEATURE_KEYS if isinstance(features, dict) and features.get(k) is False), None)
    if pinned:
        found.append(Finding("problem", f"requirements.toml pins [features] {pinned} = false: Codex runs no hooks, "
                             "whatever the other layers say", machine=True))
    return found


def startup_findings(user: Any) -> list[Finding]:
    """User-config settings that stop codex 0.169 from starting at all (measured): a legacy
    top-level ``profile = "<name>"`` ("no longer supported; use --profile")."""
    if isinstance(user, dict) and "profile" in user:
        return [Finding("problem", "the user config.toml selects a profile with a top-level profile key, which Codex "
                        "no longer supports: it refuses to start and runs no hooks; remove the key and pass --profile",
                        machine=True)]
    return []


def trust_source(path: Path, scope: str) -> str:
    """``path`` as Codex spells it in trust _trust(). Codex canonicalizes ``CODEX_HOME`` and runs in
    the physical working folder (``getcwd``), then appends ``.codex/<file>`` without resolving
    further (checked against codex 0.169 ``hooks/list`` and ``codex exec`` from a symlinked folder)."""
    base, tail = (path.parent, [path.name]) if scope == "user" else (path.parent.parent, [path.parent.name, path.name])
    return os.path.join(os.path.realpath(base), *tail)
