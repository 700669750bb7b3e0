"""What Codex really loads and runs, pure: which project layers, which hooks.json files it refuses
whole, and which hooks it loads but skips. Measured on codex 0.169 ``hooks/list`` (tests/e2e).

- A project's ``.codex`` loads only when that folder is trusted in the user config.toml: its own
  ``[projects."<folder>"]`` entry decides; without one, the entry of the git root it sits in does.
  Trusting a parent folder outside the repository does not count.
- ``hooks.json`` is read with serde (``deny_unknown_fields`` at the root): one value of the wrong
  type anywhere Codex reads makes it drop the whole file with only a warning, so none of its hooks run.
- A hook runs only with a ``[hooks.state]`` entry whose ``trusted_hash`` is its current hash, and
  not with ``enabled = false``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Collection

HANDLER_TYPES = ("command", "mcp_tool", "prompt", "agent")
U64_MAX = 2**64 - 1


def trust_level(config: Any, folder: str) -> Any:
    projects = config.get("projects") if isinstance(config, dict) else None
    entry = projects.get(folder) if isinstance(projects, dict) else None
    return entry.get("trust_level") if isinstance(entry, dict) else None


def project_loaded(config: Any, folder: str, git_root: str | None) -> bool:
    """Whether Codex loads ``<folder>/.codex`` (``folder`` physical, as Codex keys it)."""
    own = trust_level(config, folder)
    if own is not None:
        return own == "trusted"
    return git_root is not None and trust_level(config, git_root) == "trusted"


def git_root(folder: str) -> str | None:
    """The nearest folder holding ``.git`` (Codex's default project-root marker), or ``None``."""
    here = folder
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def hooks_json_problem(doc: Any, events: Collection[str]) -> str | None:
    """``"<JSON Pointer>: <cause>"`` when Codex refuses this hooks.json whole, else ``None``."""
    if not isinstance(doc, dict):
        return None  # not an object at the top: reported as unreadable before this is asked
    extra = [key for key in doc if key not in ("description", "hooks")]
    if extra:
        return f"/{_escape(extra[0])}: unknown root key (Codex accepts only description and hooks)"
    if doc.get("description") is not None and not isinstance(doc["description"], str):
        return f"/description: {_kind(doc['description'])}, not a string"
    hooks = doc.get("hooks", {})
    if not isinstance(hooks, dict):
        return f"/hooks: {_kind(hooks)}, not an object of events"
    for event, groups in hooks.items():
        if event not in events:
            continue  # Codex skips events it does not know, whatever they hold
        if not isinstance(groups, list):
            return f"/hooks/{_escape(event)}: {_kind(groups)}, not a list of groups"
        for g, group in enumerate(groups):
            found = _group_problem(group, f"/hooks/{_escape(event)}/{g}")
            if found:
                return found
    return None


def _group_problem(group: Any, where: str) -> str | None:
    if not isinstance(group, dict):
        return f"{where}: {_kind(group)}, not a group object"
    if group.get("matcher") is not None and not isinstance(group["matcher"], str):
        return f"{where}/matcher: {_kind(group['matcher'])}, not a string"
    handlers = group.get("hooks", [])
    if not isinstance(handlers, list):
        return f"{where}/hooks: {_kind(handlers)}, not a list of hooks"
    for h, handler in enumerate(handlers):
        found = _handler_problem(handler, f"{where}/hooks/{h}")
        if found:
            return found
    return None


def _handler_problem(handler: Any, where: str) -> str | None:
    if not isinstance(handler, dict):
        return f"{where}: {_kind(handler)}, not a hook object"
    kind = handler.get("type")
    if kind not in HANDLER_TYPES:
        return f"{where}/type: {'missing' if 'type' not in handler else repr(kind)}, not one of {', '.join(HANDLER_TYPES)}"
    if kind in ("prompt", "agent"):
        return None  # skipped unread ("not supported yet"), with a warning of its own
    required = ("command",) if kind == "command" else ("server", "tool")
    for name in required:
        if not isinstance(handler.get(name), str):
            return f"{where}/{name}: {'missing' if name not in handler else _kind(handler[name])}, not a string"
    if kind != "command":
        return None
    for name in ("commandWindows", "command_windows", "statusMessage"):
        if handler.get(name) is not None and not isinstance(handler[name], str):
            return f"{where}/{name}: {_kind(handler[name])}, not a string"
    timeout = handler.get("timeout")
    if timeout is not None and not (type(timeout) is int and 0 <= timeout <= U64_MAX):
        return f"{where}/timeout: {_kind(timeout) if type(timeout) is not int else timeout}, not a whole number of seconds"
    if "async" in handler and not isinstance(handler["async"], bool):
        return f"{where}/async: {_kind(handler['async'])}, not true or false"
    return None


def runnable(doc: Any, source: str, state: dict, events: Collection[str], digest: Callable) -> Any:
    """``doc`` without the handlers Codex loads but skips: no trust entry, a stale hash, or
    ``enabled = false``. ``source`` is the file as Codex spells it in trust keys."""
    from hookweave.hosts.codex_trust import event_label

    if not isinstance(doc, dict) or not isinstance(doc.get("hooks"), dict):
        return doc
    hooks: dict[str, Any] = {}
    for event, groups in doc["hooks"].items():
        if event not in events or not isinstance(groups, list):
            continue
        kept_groups = []
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            kept = [handler for h, handler in enumerate(handlers if isinstance(handlers, list) else [])
                    if isinstance(handler, dict)
                    and _runs(state.get(f"{source}:{event_label(event)}:{g}:{h}"), digest(event, group, handler))]
            if kept:
                kept_groups.append({**group, "hooks": kept})
        hooks[event] = kept_groups
    return {**doc, "hooks": hooks}


def _runs(entry: Any, digest: str) -> bool:
    return isinstance(entry, dict) and entry.get("trusted_hash") == digest and entry.get("enabled") is not False


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
            float: "a fraction"}.get(type(value), "a number")


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")
