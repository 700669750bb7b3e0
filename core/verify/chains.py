"""Verify of chains: each member like a registration, the order a chain guarantees, and what the
chain needs at run time (``python3`` on PATH, the runner files as shipped: the Python runner, and
beside it the sh fast path on the hosts that run it)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookweave.core.files import fileio, paths
from hookweave.core.model.findings import Finding
from hookweave.core.model.runnable import EVERY_PROJECT
from hookweave.core.plan import chain
from hookweave.core.verify.reports import HookStatus

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host
    from hookweave.core.model.record import Record, RecordedHook

def member_rows(host: Host, h: RecordedHook, entry: Any, chain_status: str) -> list[HookStatus]:
    """One row per recorded member, as ``<chain id>/<member id>``: ok when the chain holds its words
    unchanged, modified when they differ, missing when the chain (or its member) is gone."""
    handler = host.handler_of(entry) if entry is not None else None
    command = _command_of(host, entry)
    read = chain.members_of(command) if handler else None
    now = {m.id: m for m in read[2]} if read else {}
    order = [m.id for m in read[2]] if read else []
    expected = [m for m, _ in h.members if m in now]
    actual = [m for m in order if m in dict(h.members)]
    rows = []
    for n, (member_id, digest) in enumerate(h.members):
        name = f"{h.id}/{member_id}"
        place = f"member {n + 1} of {len(h.members)} of {h.event}'s chain"
        if entry is None:
            rows.append(HookStatus(name, h.event, h.position, "missing", f"{place}: the chain is not there; reinstall"))
        elif read is None:
            rows.append(HookStatus(name, h.event, h.position, "modified",
                                   f"{place}: the chain's command no longer reads as a chain; reinstall with --force"))
        elif member_id not in now:
            rows.append(HookStatus(name, h.event, h.position, "missing", f"{place}: not in the chain any more; "
                                   "reinstall with --force"))
        elif now[member_id].digest() != digest:
            rows.append(HookStatus(name, h.event, h.position, "modified", f"{place}: edited since it was installed; "
                                   "reinstall with --force to restore it"))
        elif actual.index(member_id) != expected.index(member_id):
            rows.append(HookStatus(name, h.event, h.position, "out-of-order", f"{place}: the chain runs it in another "
                                   "place than declared; reinstall with --force"))
        else:
            rows.append(HookStatus(name, h.event, h.position, "ok", place))
    extra = [m for m in order if m not in dict(h.members)]
    for member_id in extra:
        rows.append(HookStatus(f"{h.id}/{member_id}", h.event, h.position, "modified",
                               f"added to {h.event}'s chain by hand; the chain runs it too"))
    return rows


def _command_of(host: Host, entry: Any) -> str | None:
    handler = host.handler_of(entry) if entry is not None else None
    keys = getattr(host, "command_keys", ("command",))  # Copilot's command is under "bash"
    return next((handler[k] for k in keys if isinstance(handler.get(k), str)), None) if handler else None


def runner_paths(host: Host, scope: str, doc: Any, rec: Record) -> list[Finding]:
    """A chain whose runner is not there from the folder the agent runs it in fails every matching
    call (a block on most hosts, before the guard): at user and managed scope, which every project
    reads, a runner named through the project folder (written so before issue 33) is missing in
    every other project; a runner named by a full path must exist."""
    hooks = doc.get(host.hooks_key) if isinstance(doc, dict) else None
    out = []
    for name, b in sorted(rec.bundles.items()):
        for h in b.hooks:
            entries = hooks.get(h.event) if h.members and isinstance(hooks, dict) else None
            entries = entries if isinstance(entries, list) else []
            entry = next((e for e in entries if host.owner(e) == (name, h.id)), None)
            word = chain.runner_named(_command_of(host, entry))
            if word is None:
                continue  # not there, or no longer a chain: the hook's row says so
            if scope in EVERY_PROJECT and not os.path.isabs(word):
                out.append(Finding("problem", f"{h.event}'s chain names its runner as {paths.printable(word)}, under "
                                   f"whichever project {host.title} runs in, where it is missing: in every other "
                                   "project each matching call fails; reinstall the bundle (it names the runner by "
                                   "its full path)", name, h.id))
            elif os.path.isabs(word) and not os.path.isfile(word):
                out.append(Finding("problem", f"{h.event}'s chain runs {paths.printable(word)}, which does not exist; "
                                   "reinstall the bundle", name, h.id))
    return out


def order_notes(host: Host, rec: Record) -> list[Finding]:
    """Per chained event: the order is guaranteed, whatever the host does with file order; and on a
    host that starts an event's hooks at once, what that order costs every call (issue 24)."""
    return [Finding("note", f"{h.event}: order guaranteed: the chain runs {', '.join(m for m, _ in h.members)} one "
                    "after another in that order, and the first that blocks ends it" + _cost(host, h), name, h.id)
            for name, b in sorted(rec.bundles.items()) for h in b.hooks if h.members]


def _cost(host: Host, h: RecordedHook) -> str:
    if host.order != "parallel" or len(h.members) < 2:
        return ""
    return (f"; {host.title} would start them at once, so every call of {h.event} now waits for the sum of their "
            "times instead of the slowest (hooks check shows each one's)")


def runtime_findings(host: Host, settings: Path, rec: Record) -> list[Finding]:
    """What a chain of this file needs when the host runs it: ``python3`` and the runner as shipped."""
    if not any(h.members for b in rec.bundles.values() for h in b.hooks):
        return []
    from hookweave.core.plan import chainsh

    out = []
    kinds = [(chain.runner_path(settings), chain.runner_text(host), chain.pristine)]
    if host.answer_protocol() in chainsh.SH_HOSTS:
        kinds.append((chainsh.runner_path(settings), chainsh.runner_text(host.answer_protocol()), chainsh.pristine))
    for runner, shipped, pristine in kinds:
        shown = paths.display(runner)
        text = fileio.read_text(runner)
        if text is None:
            out.append(Finding("problem", f"{shown}: the chain runner is missing, so every chain of this file "
                               "fails; reinstall the bundle"))
        elif text != shipped and pristine(text):
            out.append(Finding("problem", f"{shown}: the chain runner is another hookweave version's; reinstall "
                               "the bundle to update it"))
        elif text != shipped:
            out.append(Finding("problem", f"{shown}: the chain runner is modified; reinstall the bundle with "
                               "--force to restore it"))
    python = shutil.which("python3")
    if python is None:
        out.append(Finding("problem", "python3 is not on PATH here, and chains run with python3; install Python 3"))
    elif _is_script(python):
        out.append(Finding("warning", f"python3 on PATH is a script ({paths.printable(python)}, a pyenv shim or the "
                           "like): it adds tens of milliseconds to every chained event; put the interpreter's own "
                           "folder first on PATH"))
    return out


def _is_script(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return False
