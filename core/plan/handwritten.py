"""An install meets a hook the operator already wrote by hand: the same command, without our marker,
under the same event and matcher. Pure: entries in, entries and findings out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookweave.core.formats.patch import escape
from hookweave.core.model.findings import Finding
from hookweave.core.model.render import without_marker

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host


def drop_hand_written(host: Host, scope: str, event: str, entries: list, regs: list, known: set[str],
                      force: bool) -> tuple[list, list[Finding]]:
    """An install must not add a hook the operator already wrote by hand (the same command, without
    our marker, under the same event and matcher): it would run twice. One finding per such copy,
    naming the fix; under ``force`` the hand-written copies go (the bundle's version replaces them)."""
    found: list[Finding] = []
    drop: set[int] = set()
    for reg in regs:
        handler = host.handler_of(reg.entry)
        if reg.id in known or handler is None or not isinstance(handler.get("command"), str):
            continue  # installed before (the record decides), or a dialect without `command` (Copilot's own file)
        command = without_marker(handler["command"], host.runs)  # as the operator would have written it
        matcher = reg.entry.get("matcher")
        for i, entry in enumerate(entries):
            # Not ours (no marker) is asked last: the other questions are cheaper, and they answer
            # for nearly every entry of a big event
            if entry is handler or not isinstance(entry, dict) or entry.get("matcher") != matcher:
                continue
            handlers = entry.get("hooks")
            for h in handlers if isinstance(handlers, list) else [entry]:
                if isinstance(h, dict) and h.get("command") == command:
                    break
            else:
                continue  # no handler runs this command
            if host.owner(entry) is not None:
                continue
            drop.add(i)
            where = f"/{escape(host.hooks_key)}/{escape(event)}/{i}"
            found.append(Finding("problem", (
                f"replaced the hand-written copy at {where}" if force else
                f"is already at {where} by hand (the same command and matcher), so it would run twice: remove that "
                f"one, or take it under hookweave first with `hooks adopt --host {host.name} --scope {scope} "
                f"--event {event}` (`hooks uninstall adopted` then takes it out, and the adopted manifest keeps it)"),
                reg.bundle, reg.id))
    if not force or not drop:
        return entries, found
    return [e for i, e in enumerate(entries) if i not in drop], [Finding("note", f.message, f.bundle, f.hook)
                                                                   for f in found]
