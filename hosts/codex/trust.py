"""Codex hook trust, pure: the keys and hashes Codex gives handlers, and how [hooks.state] follows them.

Codex keys trust by position (``<file>:<event label>:<group>:<handler>``, HOSTS.md 3.2), so any
edit that moves a handler moves its key. ``next_state`` follows every handler from the file before
the edit to the file after it and carries its entry along, whoever wrote it; only entries of the
bundle being changed are dropped (it left, or its hook changed) or written (``--trust``).
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Collection

from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.formats.patch import sha256_text

# What Codex decodes as a string in a known event: a lone surrogate there makes serde_json reject
# the whole hooks.json ("unexpected end of hex escape"), and the file's hooks vanish. In a group
# that is the matcher (other keys are skipped unread); a handler is read whole, unknown keys and
# all (codex 0.169 hooks/list, tests/hosts/test_codex_cases.py).
GROUP_STRINGS = ("matcher",)


class Handler(FieldTuple):
    key: str  # Codex's trust key
    identity: tuple  # what stays the same when the handler moves: our marker, or its rank among foreign ones
    owner: tuple[str, str] | None  # (bundle, hook id) when we wrote it
    digest: str  # Codex's hash of the handler
    bare: object = None  # its command without our marker: the same handler across ``hooks adopt``


def event_label(event: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def trust_hash(event: str, group: dict, handler: dict) -> str:
    """Codex's hash of a hook's identity (HOSTS.md 3.2; matches ``hooks/list`` currentHash)."""
    identity_handler = {
        "type": "command",
        "command": handler.get("command"),
        "timeout": handler.get("timeout") or 600,
        "async": bool(handler.get("async", False)),
    }
    if handler.get("statusMessage") is not None:
        identity_handler["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": event_label(event), "hooks": [identity_handler]}
    if group.get("matcher") is not None:
        identity["matcher"] = group["matcher"]
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # surrogatepass: never a traceback; a file holding a lone surrogate is refused (or reported)
    # by ``lone_surrogate`` anyway, because Codex cannot read it.
    return sha256_text(text)


def groups_of(doc: Any, events: Collection[str]) -> list[tuple[str, list]]:
    """``(event, groups)`` for every event Codex knows; others Codex ignores, and so do we."""
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        return []
    return [(e, g) for e, g in hooks.items() if e in events and isinstance(g, list)]


def handler_keys(doc: Any, source: str, owner: Callable, events: Collection[str]) -> list[Handler]:
    """Every handler of ``doc`` (a hooks.json or a config.toml whose path Codex knows as ``source``)."""
    out = []
    for event, groups in groups_of(doc, events):
        foreign = 0
        seen: dict[tuple, int] = {}
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if not isinstance(handler, dict):
                    continue
                mine = owner({"hooks": [handler]})
                if mine:
                    # a copy of our entry (the operator duplicated it) is told apart by its rank
                    rank = seen[mine] = seen.get(mine, -1) + 1
                    identity: tuple = ("ours", event, *mine, rank)
                else:
                    identity, foreign = ("foreign", event, foreign), foreign + 1
                out.append(Handler(f"{source}:{event_label(event)}:{g}:{h}", identity, mine,
                                   trust_hash(event, group, handler), _bare(handler.get("command"))))
    return out


def next_state(state: dict, old: list[Handler], new: list[Handler], bundle: str, trust: bool) -> dict:
    """The [hooks.state] table after an edit that turned ``old`` handlers into ``new`` ones."""
    where_now = {h.identity: h for h in new}
    at_key = {h.key: h for h in new}
    final = dict(state)
    moved: dict[str, Any] = {}
    by_command: dict[tuple, list[Handler]] = {}  # ``hooks adopt`` splits a group: its handlers move
    for h in new:
        by_command.setdefault((h.key.rsplit(":", 2)[0], h.bare), []).append(h)
    for h in old:
        if h.key not in state:
            continue
        final.pop(h.key)
        now = where_now.get(h.identity)
        if now is None:
            now = at_key.get(h.key)
            if now is None or not _changed_hands(h, now, bundle):
                now = next((n for n in by_command.get((h.key.rsplit(":", 2)[0], h.bare), [])
                            if n.key not in moved and _changed_hands(h, n, bundle)), None)
            if now is not None:
                # ``hooks adopt`` (or its undo) marked (unmarked) this very handler in place: its
                # state stays, and trust given to it follows the marker into the new hash.
                entry = state[h.key]
                if isinstance(entry, dict) and entry.get("trusted_hash") == h.digest:
                    entry = {**entry, "trusted_hash": now.digest}
                moved[now.key] = entry
            continue  # else the handler left; its trust goes with it
        if h.owner and h.owner[0] == bundle and now.digest != h.digest:
            continue  # our hook changed: the old trust is stale
        moved[now.key] = state[h.key]
    final.update(moved)  # after every pop, so a chain of moves (a->b, b->c) lands right
    if trust:
        for h in new:
            if h.owner and h.owner[0] == bundle:
                final[h.key] = {**(final.get(h.key) or {}), "trusted_hash": h.digest}
    return final


def _bare(command: Any) -> Any:
    from hookweave.core.model.render import MARKER_RE

    found = MARKER_RE.search(command) if isinstance(command, str) else None
    return command[: found.start()] if found else command


def _changed_hands(old: Handler, new: Handler, bundle: str) -> bool:
    """Whether ``bundle`` took a hand-written handler (or gave one back) at the same place: the
    same command but for the marker."""
    if (old.owner is None) == (new.owner is None) or old.bare != new.bare or not isinstance(old.bare, str):
        return False
    owner = old.owner or new.owner
    return owner is not None and owner[0] == bundle


def state_ops(config: dict, state: dict, final: dict) -> list[dict]:
    """RFC 6902 ops on the user config.toml. Tables stay unless empty and never written as a
    header (tomlkit drops those by itself): an operator's own ``[hooks.state]`` stays, comments and all."""
    from hookweave.core.formats.patch import diff

    hooks = config.get("hooks")
    if not isinstance(hooks, dict):
        return [{"op": "add", "path": "/hooks", "value": {"state": final}}] if final else []
    if "state" not in hooks:
        return [{"op": "add", "path": "/hooks/state", "value": final}] if final else []
    return diff(state, final, "/hooks/state")


def lone_surrogate(doc: Any, events: Collection[str]) -> str | None:
    """The JSON Pointer of a string Codex must read but cannot (a lone surrogate), if any."""
    if isinstance(doc, dict) and _bad(doc.get("description")):
        return "/description"
    for event, groups in groups_of(doc, events):
        for g, group in enumerate(groups):
            if not isinstance(group, dict):
                continue
            for name in GROUP_STRINGS:
                if _bad(group.get(name)):
                    return f"/hooks/{event}/{g}/{name}"
            handlers = group.get("hooks")
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                where = _first_bad(handler, f"/hooks/{event}/{g}/hooks/{h}")
                if where:
                    return where
    return None


def _first_bad(value: Any, where: str) -> str | None:
    """The pointer of the first string (key or value) in ``value`` holding a lone surrogate."""
    from hookweave.core.formats.patch import (
        escape,  # patch pulls in difflib: not on the start-up path
    )

    if _bad(value):
        return where
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        inner_where = f"{where}/{escape(key) if isinstance(key, str) else key}"
        if _bad(key):
            return inner_where
        found = _first_bad(inner, inner_where)
        if found:
            return found
    return None


def shown(pointer: str) -> str:
    """A pointer that may hold lone surrogates or control characters, printable on one line."""
    return "".join(f"\\u{ord(c):04x}" if _bad(c) or ord(c) < 32 or ord(c) == 127 else c for c in pointer)


def _bad(value: Any) -> bool:
    return isinstance(value, str) and any("\ud800" <= c <= "\udfff" for c in value)


def split_key(key: str) -> tuple[str, str] | None:
    """``(file, "<event>:<g>:<h>")`` of a trust key, or ``None`` when it is not shaped like one."""
    parts = key.rsplit(":", 3)
    if len(parts) != 4 or not all(p.isdigit() for p in parts[2:]):
        return None
    return parts[0], ":".join(parts[1:])
