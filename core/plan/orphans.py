"""A bundle's entries that no record lists: found by marker, removed only when the operator asks.

A record can be missing while our marked entries are in the file: it was deleted, never committed
(a teammate's clone), or the file was copied without it. Uninstall then has no hashes to tell our
unedited entries from edited ones, nor env values ours from the operator's, so it does not guess:
it lists the entries that carry ``# hookweave:<bundle>/<id>`` and removes them only under
``uninstall --by-marker``. Only that bundle's marker counts; another bundle's entries and every
unmarked handler stay (a handler the operator added to one of our groups stays in a group of its
own, as ``Host.strip_ours`` keeps it). Env values and host traces stay: without the record they
cannot be told from the operator's.
"""

from __future__ import annotations

from typing import Any

from hookweave.core.model.bundle import Finding

HINT = "rerun with --by-marker to remove them (with --dry-run first to see the diff)"


def marked(host: Any, doc: Any, name: str) -> list[tuple[str, str]]:
    """``(event, hook id)`` of every entry with ``name``'s marker, in file order."""
    hooks = doc.get(host.hooks_key) if isinstance(doc, dict) else None
    out: list[tuple[str, str]] = []
    for event, entries in hooks.items() if isinstance(hooks, dict) else ():
        for entry in entries if isinstance(entries, list) else ():
            found = host.owner(entry)
            if found and found[0] == name:
                out.append((event, found[1]))
    return out


def describe(found: list[tuple[str, str]]) -> str:
    by_event: dict[str, list[str]] = {}
    for event, hook_id in found:
        by_event.setdefault(event, []).append(hook_id)
    return "; ".join(f"{event}: {', '.join(ids)}" for event, ids in by_event.items())


def finding(name: str, found: list[tuple[str, str]], level: str) -> Finding:
    count = len(found)
    return Finding(level, f"no record here lists {name}, but {count} entr{'y' if count == 1 else 'ies'} carry its "
                          f"marker ({describe(found)}): the record was deleted or never committed; {HINT}", name)


def remove(host: Any, new: dict, name: str) -> list[tuple[str, str]]:
    """Take ``name``'s marked entries out of ``new`` (the plan's editable copy: event lists are
    replaced, never changed in place); an event list that held only ours goes with them."""
    hooks = new.get(host.hooks_key)
    removed: list[tuple[str, str]] = []
    if not isinstance(hooks, dict):
        return removed
    for event, entries in list(hooks.items()):
        if not isinstance(entries, list):
            continue
        kept: list[Any] = []
        for entry in entries:
            found = host.owner(entry)
            if not found or found[0] != name:
                kept.append(entry)
                continue
            removed.append((event, found[1]))
            rest = host.strip_ours(entry, name)
            if rest is not None:
                kept.append(rest)
        if len(kept) != len(entries) or any(a is not b for a, b in zip(kept, entries)):
            if kept:
                hooks[event] = kept
            else:
                del hooks[event]
    if not hooks and removed:
        del new[host.hooks_key]
    return removed


def notes(name: str, removed: list[tuple[str, str]], env: bool) -> list[Finding]:
    out = [Finding("note", f"removed by marker, without a record: {describe(removed)}", name)]
    if env:
        out.append(Finding("note", "env values it may have set stay: without the record they cannot be told from "
                                   "yours; remove them by hand if they are its", name))
    return out
