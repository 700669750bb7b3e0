"""What makes Antigravity CLI (``agy``) drop a whole hooks.json, silently: pure checks over the data.

Measured by a third party on agy 1.1.25 [3P skillsaw ``docs/rules/antigravity-hooks-valid.md``]:
every load-time rejection drops the whole file, logs one line to the debug log and exits 0. The
file is an object of *named hooks*; each is an object of events (and a boolean ``enabled``).
``PreToolUse``/``PostToolUse`` hold ``{matcher, hooks: [handler]}`` groups, the other events flat
handlers; a handler's ``type`` is ``command`` or ``prompt`` (case-sensitive), a command handler
carries no ``prompt``/``model`` and a prompt handler no ``command``; ``timeout`` is a 32-bit whole
number. Event names match case-insensitively, and an unknown one only never fires.
"""

from __future__ import annotations

import json
from typing import Any

GROUPED = frozenset({"pretooluse", "posttooluse"})
INT32 = (-(2**31), 2**31 - 1)


def _place(*tokens: str | int) -> str:
    return "/" + "/".join(json.dumps(t, ensure_ascii=False)[1:-1] if isinstance(t, str) else str(t) for t in tokens)


def _kind(value: Any) -> str:
    return "null" if value is None else {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "a number")


def problem(doc: Any) -> str | None:
    """``"<place>: <cause>"`` for the first thing that makes agy drop the file, or ``None``."""
    if not isinstance(doc, dict):
        return f"the top level is {_kind(doc)}, not an object of named hooks"
    if "enabled" in doc:
        return f"{_place('enabled')}: every top-level key is a hook's name, so there is no file-level switch"
    for name, hook in doc.items():
        if not isinstance(hook, dict):
            return f"{_place(name)}: a named hook must be an object, not {_kind(hook)}"
        for event, entries in hook.items():
            if event == "enabled":
                if not isinstance(entries, bool):
                    return f"{_place(name, 'enabled')}: must be true or false, not {_kind(entries)}"
                continue
            found = _event_problem(entries, event.lower() in GROUPED, (name, event))
            if found:
                return found
    return None


def _event_problem(entries: Any, grouped: bool, at: tuple) -> str | None:
    if not isinstance(entries, list):
        return f"{_place(*at)}: an event must be a list, not {_kind(entries)}"
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            return f"{_place(*at, i)}: must be an object, not {_kind(entry)}"
        if not grouped:
            found = _handler_problem(entry, (*at, i))
        elif "matcher" in entry and not isinstance(entry["matcher"], str):
            found = f"{_place(*at, i, 'matcher')}: must be a string, not {_kind(entry['matcher'])}"
        elif "hooks" in entry and not isinstance(entry["hooks"], list):
            found = f"{_place(*at, i, 'hooks')}: must be a list, not {_kind(entry['hooks'])}"
        else:
            found = next((p for j, h in enumerate(entry.get("hooks") or []) if (p := (
                _handler_problem(h, (*at, i, "hooks", j)) if isinstance(h, dict)
                else f"{_place(*at, i, 'hooks', j)}: must be an object, not {_kind(h)}"))), None)
        if found:
            return found
    return None


def _handler_problem(handler: dict, at: tuple) -> str | None:
    kind = handler.get("type", "command")
    if kind not in ("command", "prompt"):
        return f"{_place(*at, 'type')}: {json.dumps(kind, ensure_ascii=False)} is not \"command\" or \"prompt\""
    wrong = ("prompt", "model") if kind == "command" else ("command",)
    extra = next((k for k in wrong if k in handler), None)
    if extra:
        return f"{_place(*at, extra)}: a {kind} hook cannot carry {extra!r}"
    if "timeout" in handler:
        timeout = handler["timeout"]
        if isinstance(timeout, bool) or not isinstance(timeout, int) or not INT32[0] <= timeout <= INT32[1]:
            return f"{_place(*at, 'timeout')}: {json.dumps(timeout)} is not a whole number of seconds in 32 bits"
    return None


def shadowed(hook: Any) -> list[tuple[str, str]]:
    """Keys of one named hook that agy reads as one (it matches event names and ``enabled``
    case-insensitively, and the last one wins): ``(hidden, winner)`` pairs, in file order."""
    if not isinstance(hook, dict):
        return []
    last: dict[str, str] = {}
    for key in hook:
        last[key.lower()] = key
    return [(key, last[key.lower()]) for key in hook if last[key.lower()] != key]


def disabled(hook: Any) -> bool:
    """Whether the named hook is switched off: its last ``enabled`` (in any case) is ``false``."""
    if not isinstance(hook, dict):
        return False
    switches = [value for key, value in hook.items() if key.lower() == "enabled"]
    return bool(switches) and switches[-1] is False
