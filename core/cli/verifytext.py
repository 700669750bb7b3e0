"""verify as text (issue 25): the problems first, then warnings, then notes; a finding every agent
repeats (the cross-agent facts) once per bundle; what is installed and fine one line per bundle;
the hosts with nothing installed on one line; a last line that counts per level and names the fix
to start with. By default what repeats is folded (``verifyfold``) so that a bundle installed for all
agents fits one screen; ``verbose`` folds nothing. Only the rendering: the reports are verify's,
unchanged (``--json`` renders them whole).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookweave.core.cli import console, verifyfold
from hookweave.core.cli.verifyfold import finding_line

if TYPE_CHECKING:
    from hookweave.core.model.findings import Finding
    from hookweave.core.verify.reports import BundleReport, HostReport, HookStatus

LEVELS = ("problem", "warning", "note")
NOTES_SHOWN = 8  # lines of agents' own notes shown as they are; more are one line (--verbose shows them)


def shared_findings(reports: list[HostReport]) -> dict[Finding, list[str]]:
    """Host-wide findings about a bundle that two or more hosts report word for word (which agents
    run a hook, where it fires twice): ``{finding: [host names]}``, said once, not once per host."""
    seen: dict[Finding, list[str]] = {}
    for rep in reports:
        for f in dict.fromkeys(rep.findings):
            if f.bundle:
                seen.setdefault(f, []).append(rep.host.name)
    return {f: names for f, names in seen.items() if len(names) > 1}


def _hook_line(h: HookStatus, width: int) -> str:
    tail = f"  {h.detail}" if h.detail else ""
    return f"      {h.status:<12} {h.id:<{width}}  {h.event} ({h.position}){tail}"


def _bad(bundle: BundleReport, level: str) -> list[HookStatus]:
    return [h for h in bundle.hooks if h.status != "ok" and h.level == level]


def host_lines(rep: HostReport, level: str, shared: dict, merge: bool = False) -> list[str]:
    """One host's hooks and findings of ``level``, under its files as before (``merge``: see
    ``verifyfold.said``)."""
    lines: list[str] = []
    for file in rep.files:
        inner: list[str] = []
        for bundle in file.bundles:
            bad = _bad(bundle, level)
            if bad:
                width = max(len(h.id) for h in bundle.hooks)
                inner += [f"    {bundle.name} {bundle.version}", *(_hook_line(h, width) for h in bad)]
        inner += ["    " + line for line in verifyfold.said(file.findings, level, merge)]
        if inner:
            lines += [f"  {file.scope}  {file.shown}", *inner]
    lines += ["  " + line for line in verifyfold.said([f for f in rep.findings if f not in shared], level, merge)]
    return lines


def host_count(rep: HostReport, level: str, shared: dict) -> int:
    hooks = sum(len(_bad(b, level)) for file in rep.files for b in file.bundles)
    found = sum(1 for file in rep.files for f in file.findings if f.level == level)
    return hooks + found + sum(1 for f in dict.fromkeys(rep.findings) if f.level == level and f not in shared)


def shared_blocks(reports: list[HostReport], level: str, shared: dict, merge: bool = False,
                  complete: bool = True) -> list[tuple[str, list[str], int]]:
    """The shared findings of ``level``, grouped by bundle and by the hosts that report them:
    (heading, lines, how many findings the lines say). The heading says "all N agents it is
    installed in" only when verify read every host and scope (``complete``); a narrower run knows
    only the agents it read, so it names them."""
    installed: dict[str, set[str]] = {}
    for rep in reports:
        for file in rep.files:
            for bundle in file.bundles:
                installed.setdefault(bundle.name, set()).add(rep.host.name)
    groups: dict[tuple[str, tuple[str, ...]], list[Finding]] = {}
    for f, names in shared.items():
        if f.level == level:
            groups.setdefault((f.bundle, tuple(names)), []).append(f)
    out = []
    for (bundle, names), found in groups.items():
        every = complete and set(names) >= installed.get(bundle, set())
        who = f"all {len(names)} agents it is installed in" if every else ", ".join(names)
        out.append((f"{bundle} ({who})", ["  " + line for line in verifyfold.said(found, level, merge)], len(found)))
    return out


def render(reports: list[HostReport], *, quiet: bool = False, verbose: bool = False, complete: bool = True,
           where: Finding | None = None) -> None:
    """``where``: the project and the agents that do not read it from here, said once, first."""
    shared = shared_findings(reports)
    fold = not verbose
    counts = dict.fromkeys(LEVELS, 0)
    if where is not None:
        counts[where.level] += 1
        if not quiet:
            console.out(finding_line(where), where.level)
    first: str | None = None
    last_head = None  # a heading right under the same heading is not said again (one host: one heading)

    def say(head: str, lines: list[str], level: str) -> None:
        nonlocal last_head
        if head != last_head:
            console.out(head, "head")
        last_head = head
        for line in lines:
            console.out(line, level)

    for level in LEVELS:
        groups, grouped = verifyfold.alike(reports, level, shared) if fold else ([], set())
        skip = {**shared, **dict.fromkeys(grouped)}  # said once below, not under each host
        blocks = [(rep, host_lines(rep, level, skip, fold)) for rep in reports]
        # The notes of several agents, each agent's own facts (not the bundle's), are one line, said
        # last, when shown they would take more than a third of a screen.
        noted = [lines for _, lines in blocks if lines]
        folded = fold and level == "note" and len(noted) > 1 and sum(len(lines) + 1 for lines in noted) > NOTES_SHOWN
        for rep, lines in blocks:
            counts[level] += host_count(rep, level, skip)
            if level == "problem" and lines and first is None:
                first = first_fix(rep)
            if lines and not folded and not (quiet and level != "problem"):
                say(f"{rep.host.name} ({rep.host.title})", lines, level)
        for head, lines, n in groups + shared_blocks(reports, level, shared, fold, complete):
            counts[level] += n
            if not (quiet and level != "problem"):
                say(head, lines, level)
        if folded and not quiet:
            hidden = sum(host_count(rep, level, skip) for rep, lines in blocks if lines)
            console.out(verifyfold.notes_line(hidden, sum(1 for _, lines in blocks if lines)), "note")
    if counts["problem"] and first is None:  # every problem said once for several hosts: the first host's
        first = next(first_fix(rep) for rep in reports if rep.problems)
    if not quiet:
        for line in verifyfold.inventory(reports, fold):
            console.out(line)
        empty = [r.host.name for r in reports if not r.files]
        if empty:
            console.out(f"nothing installed: {', '.join(empty)}")
    console.out(summary(counts, first), "problem" if counts["problem"] else "ok")


def first_fix(rep: HostReport) -> str:
    """The host and the fix of its first problem: the words after the message's last ``; ``
    (every message ends in its fix), or the message itself."""
    for file in rep.files:
        for bundle in file.bundles:
            for h in _bad(bundle, "problem"):
                return f"{rep.host.name} {bundle.name}/{h.id}: {h.detail.rsplit('; ', 1)[-1] or h.status}"
    for f in [f for file in rep.files for f in file.findings] + rep.findings:
        if f.level == "problem":
            who = "/".join(x for x in (f.bundle, f.hook) if x)
            return f"{rep.host.name}{' ' + who if who else ''}: {f.message.rsplit('; ', 1)[-1]}"
    return rep.host.name


def summary(counts: dict[str, int], first: str | None) -> str:
    said = [f"{n} {level}{'' if n == 1 else 's'}" for level, n in counts.items() if n]
    if not counts["problem"]:
        return "verify: ok" + (f" ({', '.join(said)})" if said else "")
    return f"verify: {', '.join(said)}; start with {first}"
