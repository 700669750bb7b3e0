"""Whether Codex refuses a hooks.json whole, pure. Measured on codex 0.169 ``hooks/list`` (tests/e2e).

``hooks.json`` is read with serde (``deny_unknown_fields`` at the root): one value of the wrong
type anywhere Codex reads makes it drop the whole file with only a warning, so none of its hooks run.
"""

from __future__ import annotations

from typing import Any, Callable, Collection

HANDLER_TYPES = ("command", "mcp_tool", "prompt", "agent")
U64_MAX = 2**64 - 1


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


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
            float: "a fraction"}.get(type(value), "a number")


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")
