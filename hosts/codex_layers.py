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


# serde reads a struct from an object by name or from a list by position, in declaration order.
EVENT_ORDER = ("PreModelRequest PostModelRequest PreToolUse PermissionRequest PostToolUse PreCompact PostCompact "
               "SessionStart SessionEnd UserPromptSubmit SubagentStart SubagentStop Stop Interrupt").split()
COMMAND_FIELDS = ("command", "commandWindows", "timeout", "async", "statusMessage", "additionalContextLimit")


def hooks_json_problem(doc: Any, events: Collection[str]) -> str | None:
    """``"<JSON Pointer>: <cause>"`` when Codex refuses this hooks.json whole, else ``None``."""
    if not isinstance(doc, dict):
        return None  # not an object at the top: reported as unreadable before this is asked
    extra = [key for key in doc if key not in ("description", "hooks")]
    if extra:
        return f"/{_escape(extra[0])}: unknown root key (Codex accepts only description and hooks)"
    if doc.get("description") is not None and not isinstance(doc["description"], str):
        return f"/description: {_kind(doc['description'])}, not a string"
    if "hooks" not in doc:
        return None
    fields = _fields(doc["hooks"], EVENT_ORDER, "/hooks", "an object of events")
    if isinstance(fields, str):
        return fields
    for where, (event, groups) in fields.items():
        if event not in events:
            continue  # Codex skips events it does not know, whatever they hold
        found = _list_of(groups, where, "groups", _group_problem)
        if found:
            return found
    return None


def _fields(value: Any, names: tuple[str, ...] | list[str], where: str, what: str) -> dict[str, tuple[str, Any]] | str:
    """``{pointer: (field, value)}`` of a struct given as an object or as a list (by position), or the problem."""
    if isinstance(value, dict):
        return {f"{where}/{_escape(k)}": (k, v) for k, v in value.items()}
    if isinstance(value, list):
        if len(value) > len(names):
            return f"{where}: a list of {len(value)} values, where {what} has {len(names)} fields"
        return {f"{where}/{i}": (names[i], v) for i, v in enumerate(value)}
    return f"{where}: {_kind(value)}, not {what}"


def _list_of(value: Any, where: str, what: str, each: Callable[[Any, str], str | None]) -> str | None:
    if not isinstance(value, list):
        return f"{where}: {_kind(value)}, not a list of {what}"
    for i, item in enumerate(value):
        found = each(item, f"{where}/{i}")
        if found:
            return found
    return None


def _group_problem(group: Any, where: str) -> str | None:
    fields = _fields(group, ("matcher", "hooks"), where, "a group object")
    if isinstance(fields, str):
        return fields
    for at, (name, value) in fields.items():
        if name == "matcher" and value is not None and not isinstance(value, str):
            return f"{at}: {_kind(value)}, not a string"
        if name == "hooks":
            found = _list_of(value, at, "hooks", _handler_problem)
            if found:
                return found
    return None


def _handler_problem(handler: Any, where: str) -> str | None:
    if isinstance(handler, list):  # an internally tagged enum from a list: the tag, then the fields
        if not handler:
            return f"{where}/type: missing, not one of {', '.join(HANDLER_TYPES)}"
        kind, rest = handler[0], handler[1:]
        names = {"command": COMMAND_FIELDS, "prompt": (), "agent": ()}.get(kind) if isinstance(kind, str) else None
        if kind == "mcp_tool":
            return None  # its fields' order was not measured; Codex's own warning says more
        if names is None:
            return f"{where}/0: {kind!r}, not one of {', '.join(HANDLER_TYPES)}"
        if len(rest) > len(names) or (kind == "command" and not rest):
            return f"{where}: a list of {len(handler)} values, not a {kind} hook"
        return _command_fields({names[i]: v for i, v in enumerate(rest)}, where) if kind == "command" else None
    if not isinstance(handler, dict):
        return f"{where}: {_kind(handler)}, not a hook object"
    kind = handler.get("type")
    if kind not in HANDLER_TYPES:
        shown = "missing" if "type" not in handler else repr(kind)
        return f"{where}/type: {shown}, not one of {', '.join(HANDLER_TYPES)}"
    if kind in ("prompt", "agent"):
        return None  # skipped unread ("not supported yet"), with a warning of its own
    if kind == "mcp_tool":
        for name in ("server", "tool"):
            if not isinstance(handler.get(name), str):
                return f"{where}/{name}: {'missing' if name not in handler else _kind(handler[name])}, not a string"
        return None
    fields = dict(handler)
    if "command_windows" in fields and "commandWindows" not in fields:
        fields["commandWindows"] = fields.pop("command_windows")
    return _command_fields(fields, where)


def _command_fields(fields: dict, where: str) -> str | None:
    if not isinstance(fields.get("command"), str):
        return f"{where}/command: {'missing' if 'command' not in fields else _kind(fields['command'])}, not a string"
    for name in ("commandWindows", "statusMessage"):
        if fields.get(name) is not None and not isinstance(fields[name], str):
            return f"{where}/{name}: {_kind(fields[name])}, not a string"
    for name in ("timeout", "additionalContextLimit"):
        value = fields.get(name)
        if value is not None and not (type(value) is int and 0 <= value <= U64_MAX):
            return f"{where}/{name}: {_kind(value) if type(value) is not int else value}, not a whole number"
    if "async" in fields and not isinstance(fields["async"], bool):
        return f"{where}/async: {_kind(fields['async'])}, not true or false"
    return None


def running_docs(host: Any, docs: Any, project: Path) -> dict[str, Any]:
    """``CodexHost.running_docs``: every layer's data as Codex runs it here."""
    from hookweave.hosts.codex import trust_source
    from hookweave.hosts.codex_trust import trust_hash

    config = docs.get("user-config") if isinstance(docs.get("user-config"), dict) else {}
    hooks = config.get("hooks") if isinstance(config.get("hooks"), dict) else {}
    state = hooks.get("state") if isinstance(hooks.get("state"), dict) else {}
    folder = os.path.realpath(project)
    out: dict[str, Any] = {}
    for scope in host.verify_scopes:
        if scope == "project" and not project_loaded(config, folder, git_root(folder)):
            continue
        path = host.settings_path(scope, project)
        if host.rejects(docs.get(scope), str(path)):
            continue
        out[scope] = runnable(docs.get(scope), trust_source(path, scope), state, host.native_events, trust_hash)
    return out


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
