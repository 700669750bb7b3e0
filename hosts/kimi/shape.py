"""Kimi Code's ``[[hooks]]`` list as the events view the shared core edits, and back; pure.

config.toml holds one array of tables, each naming its event: ``[[hooks]]`` with ``event``,
``matcher``, ``command`` and ``timeout``. hookweave's planner reads and edits ``/hooks/<event>/<i>``,
so ``view`` groups the list by event (each entry without its ``event`` key, in file order) and
``file_ops`` turns one operation on that view into operations on the list as the text holds it
now: the i-th entry of an event is the list index of that event's i-th table, and a new last entry
of an event goes to the end of the list (Kimi starts an event's hooks at once, and hookweave only
appends there: ``KimiHost.positional``).

``problem`` is Kimi's own check (a strict zod schema, ``HookDefSchema``): one table it fails makes
Kimi Code load none of the file's hooks.
"""

from __future__ import annotations

from typing import Any

from hookweave.core.errors import BadInput
from hookweave.core.formats.jsontext import split_pointer
from hookweave.core.formats.patch import escape

FIELDS = ("event", "matcher", "command", "timeout")
TIMEOUT = (1, 600)  # seconds, both included; 30 when unset


def listed(raw: Any, path: str) -> list[dict]:
    """The ``hooks`` list of a parsed config.toml, refused (``BadInput``) where its shape cannot be
    grouped by event; ``[]`` when there is none."""
    hooks = raw.get("hooks", []) if isinstance(raw, dict) else []
    if not isinstance(hooks, list):
        raise BadInput(f"{path}: hooks is {_kind(hooks)}, not an array of [[hooks]] tables: Kimi Code loads no hook "
                       "from this file; write each hook as a [[hooks]] table")
    for i, entry in enumerate(hooks):
        if not isinstance(entry, dict):
            raise BadInput(f"{path}: hooks[{i}] is {_kind(entry)}, not a table: Kimi Code loads no hook from this "
                           "file; write it as a [[hooks]] table")
        if not isinstance(entry.get("event"), str):
            raise BadInput(f"{path}: {place(i, entry)} has no event string: Kimi Code loads no hook from this file; "
                           'give it one (event = "PreToolUse") or remove it')
    return hooks


def view(raw: dict, path: str) -> dict:
    """``raw`` with ``hooks`` as ``{event: [entry without event]}`` (absent while the file has none)."""
    hooks = listed(raw, path)
    out = {key: value for key, value in raw.items() if key != "hooks"}
    if "hooks" in raw:
        grouped: dict[str, list] = {}
        for entry in hooks:
            grouped.setdefault(entry["event"], []).append({k: v for k, v in entry.items() if k != "event"})
        out["hooks"] = grouped
    return out


def without_empty(doc: Any) -> Any:
    """The events view without empty event lists, and without ``hooks`` when nothing is left in it."""
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        return doc
    kept = {event: entries for event, entries in hooks.items() if entries != []}
    return {**{k: v for k, v in doc.items() if k != "hooks"}, **({"hooks": kept} if kept else {})}


def table(event: str, entry: dict) -> dict:
    """A view entry as the file's table: ``event`` first, then Kimi's documented order."""
    ordered = {"event": event, **{k: entry[k] for k in FIELDS[1:] if k in entry}}
    return {**ordered, **{k: v for k, v in entry.items() if k not in ordered}}


def file_ops(op: dict, hooks: list[dict] | None) -> list[dict]:
    """``op`` (on the view) as operations on the file whose list is ``hooks`` now (``None``: no list)."""
    tokens = split_pointer(op["path"])
    if not tokens or tokens[0] != "hooks":
        return [op]
    if len(tokens) == 1:
        if op["op"] == "remove":  # the last of ours went: no [[hooks]] table is left to take out
            return [op] if hooks is not None else []
        return [{**op, "value": [table(e, x) for e, xs in op["value"].items() for x in xs]}]
    if hooks is None and op["op"] != "remove" and len(tokens) in (2, 3):  # no [[hooks]] yet: the list comes whole
        values = op["value"] if len(tokens) == 2 else [op["value"]]
        return [{"op": "add", "path": "/hooks", "value": [table(tokens[1], x) for x in values]}]
    hooks = hooks or []
    at = [i for i, entry in enumerate(hooks) if entry.get("event") == tokens[1]]
    if len(tokens) == 2:
        if at and len(at) == len(hooks) and op["op"] in ("remove", "replace"):
            # every table goes: the key goes with them, else tomlkit leaves ``hooks = []``, an inline
            # array that the tables added next would join as one line (and no later edit could split)
            tables = [table(tokens[1], x) for x in op["value"]] if op["op"] == "replace" else []
            return [{"op": "replace", "path": "/hooks", "value": tables}] if tables else [{"op": "remove", "path": "/hooks"}]
        if op["op"] == "remove":
            return [{"op": "remove", "path": f"/hooks/{i}"} for i in reversed(at)]
        if op["op"] == "replace":
            return [{"op": "remove", "path": f"/hooks/{i}"} for i in reversed(at)] + _appended(
                tokens[1], op["value"], len(hooks) - len(at))
        return _appended(tokens[1], op["value"], len(hooks))
    index = int(tokens[2])
    where = at[index] if index < len(at) else len(hooks)
    rest = "".join("/" + escape(t) for t in tokens[3:])
    if len(tokens) == 3 and op["op"] == "remove" and len(hooks) == 1:
        return [{"op": "remove", "path": "/hooks"}]  # the last table: no key is left behind (an empty list)
    if len(tokens) == 3 and op["op"] != "remove":
        return [{**op, "path": f"/hooks/{where}", "value": table(tokens[1], op["value"])}]
    return [{**op, "path": f"/hooks/{where}{rest}"}]


def _appended(event: str, entries: list, start: int) -> list[dict]:
    return [{"op": "add", "path": f"/hooks/{start + n}", "value": table(event, x)} for n, x in enumerate(entries)]


def problem(entry: dict, events: frozenset[str]) -> str | None:
    """Why Kimi refuses this table (``HookDefSchema``: a strict object), or ``None``."""
    extra = [k for k in entry if k not in FIELDS]
    if extra:
        return f"field {extra[0]!r} is not one of {', '.join(FIELDS)}"
    if entry.get("event") not in events:
        return f"event {entry.get('event')!r} is not one Kimi Code knows ({', '.join(sorted(events))})"
    if "matcher" in entry and not isinstance(entry["matcher"], str):
        return f"matcher is {_kind(entry['matcher'])}, not a string"
    if not isinstance(entry.get("command"), str) or not entry["command"]:
        return "command is missing or empty" if not entry.get("command") else f"command is {_kind(entry['command'])}"
    timeout = entry.get("timeout", TIMEOUT[0])
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout != int(timeout) \
            or not TIMEOUT[0] <= timeout <= TIMEOUT[1]:
        return f"timeout {timeout!r} is not a whole number of seconds from {TIMEOUT[0]} to {TIMEOUT[1]}"
    return None


def first_problem(hooks: list[dict], events: frozenset[str]) -> str | None:
    for i, entry in enumerate(hooks):
        found = problem(entry, events)
        if found:
            return f"{place(i, entry)}: {found}"
    return None


def place(index: int | None, entry: dict) -> str:
    """The n-th ``[[hooks]]`` table (a ``[[hooks]]`` table when the number is not known), with what
    names it for a person: its event and command."""
    said = [f"{k} = {str(entry[k])[:40]!r}" for k in ("event", "command") if isinstance(entry.get(k), str)]
    name = "a [[hooks]] table" if index is None else f"[[hooks]] #{index + 1}"
    return name + (f" ({', '.join(said)})" if said else "")


def _kind(value: Any) -> str:
    return {dict: "a table", list: "an array", str: "a string", bool: "a boolean", float: "a float"}.get(
        type(value), "an integer")
