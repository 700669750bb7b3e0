"""What verify's default text folds so that a bundle installed for every agent fits one screen (issue
25): the same finding for several hooks said once naming them, the notes of several agents counted
on one line, and the bundles whose hooks are all ok one line each. ``--verbose`` folds nothing, and
the counts of the last line (and ``--json``) keep every finding, folded or not."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookweave.core.cli import console

if TYPE_CHECKING:
    from collections.abc import Iterable

    from hookweave.core.model.findings import Finding
    from hookweave.core.verify.reports import FileReport, HookStatus, HostReport


def finding_line(f: Finding) -> str:
    who = "/".join(x for x in (f.bundle, f.hook) if x)
    return f"{f.level}: {who + ': ' if who else ''}{f.message}"


def said(findings: Iterable[Finding], level: str, merge: bool) -> list[str]:
    """The lines for the findings of ``level``, each said once; with ``merge``, one finding that
    several hooks of a bundle share word for word is one line naming them (``guard/a, b: ...``).
    A finding about no hook stays apart from the same words about hooks."""
    chosen = [f for f in dict.fromkeys(findings) if f.level == level]
    if not merge:
        return [finding_line(f) for f in chosen]
    hooks: dict[tuple, list[str]] = {}
    for f in chosen:
        hooks.setdefault((f.bundle, f.message, f.hook is None), []).append(f.hook or "")
    lines = []
    for (bundle, message, _), names in hooks.items():
        who = "/".join(x for x in (bundle, ", ".join(n for n in names if n)) if x)
        lines.append(f"{level}: {who + ': ' if who else ''}{message}")
    return lines


def notes_line(count: int, hosts: int) -> str:
    """The one line that stands for the notes of several agents (mostly how each runs an event's
    hooks: true, and nothing to fix), with the way to read them."""
    return f"notes: {count} more, from {hosts} agents; hooks verify --verbose shows them one by one"


def problems_touching(rep: HostReport, file: FileReport, bundle: str) -> int:
    """The problems besides its hooks' statuses that stop ``bundle`` in this host's ``file`` from
    running as asked: those about the bundle, and those about no bundle (a gate, an untrusted
    folder: every hook there is stopped), in the file and host-wide."""
    return sum(1 for f in dict.fromkeys([*file.findings, *rep.findings])
               if f.level == "problem" and f.bundle in (None, bundle))


def bundle_state(hooks: list[HookStatus], problems: int) -> str:
    """What a bundle's row says: "ok" only when verify found no problem about it, so the row never
    reads as fine under a problem that stops it."""
    good = sum(1 for h in hooks if h.status == "ok")
    count = f"{len(hooks)} hook{'' if len(hooks) == 1 else 's'}"
    more = f"{problems} problem{'' if problems == 1 else 's'} above"
    if good == len(hooks):
        return f"{count} ok" if not problems else f"{count} in place, {more}"
    return f"{good} of {count} ok" + (f", {problems} more problem{'' if problems == 1 else 's'} above" if problems else "")


def inventory(reports: list[HostReport], fold: bool) -> list[str]:
    """Per host, file and bundle one line: how many of its hooks verify found as recorded, and the
    problems that stop it. With ``fold``, a bundle whose hooks are all ok, with no problem, in two
    or more agents is one line instead (``hooks status`` lists their files); a row with a hook not
    ok or a problem is always shown."""
    rows: list[tuple[tuple[str, ...], str | None]] = []  # (columns, "bundle version" when it is ok)
    for rep in reports:
        for file in rep.files:
            for b in file.bundles or [None]:
                if b is None:
                    rows.append(((rep.host.name, file.scope, "(no bundle recorded)", "", file.shown), None))
                    continue
                problems = problems_touching(rep, file, b.name)
                state = bundle_state(b.hooks, problems)
                name = f"{b.name} {b.version}"
                fine = not problems and all(h.status == "ok" for h in b.hooks)
                rows.append(((rep.host.name, file.scope, name, state, file.shown), name if fine else None))
    fine_in: dict[str, set[str]] = {}
    for columns, name in rows:
        if name is not None:
            fine_in.setdefault(name, set()).add(columns[0])
    folded = {name: len(hosts) for name, hosts in fine_in.items() if fold and len(hosts) > 1}
    kept = [columns for columns, name in rows if name not in folded]
    return (console.columns(kept) if kept else []) + [
        f"{name}: all hooks ok in {n} agents; hooks status lists their files" for name, n in folded.items()]


def alike(reports: list[HostReport], level: str, skip) -> tuple[list[tuple[str, list[str], int]], set[Finding]]:
    """Host-wide findings that several agents word alike but for their own name (the project folder
    each reads, from a subfolder): one line under a heading naming the agents, the name said as
    "the agent". Returns (heading, lines, how many findings they say) blocks and the findings said."""
    groups: dict[str, list[tuple[str, Finding]]] = {}
    for rep in reports:
        for f in dict.fromkeys(rep.findings):
            if f.level == level and not f.bundle and f not in skip and rep.host.title in f.message:
                groups.setdefault(f.message.replace(rep.host.title, "\0"), []).append((rep.host.name, f))
    blocks, said_ = [], set()
    for template, found in groups.items():
        names = list(dict.fromkeys(name for name, _ in found))
        if len(names) > 1:
            blocks.append((f"{', '.join(names)} ({len(names)} agents)",
                           [f"  {level}: {template.replace(chr(0), 'the agent')}"], len(found)))
            said_.update(f for _, f in found)
    return blocks, said_
