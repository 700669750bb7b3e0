"""Rendering plans and verify reports as text, unified diffs, JSON Patch and ``--json`` documents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hookweave.core.cli import console
from hookweave.core.usecases.api import unified_diff

if TYPE_CHECKING:
    from hookweave.core.model.findings import Finding
    from hookweave.core.plan.plan import FilePlan
    from hookweave.core.verify.reports import HostReport


_WOULD = {"installed ": "would install ", "upgraded ": "would upgrade ", "updated ": "would update ",
          "removed ": "would remove ", "hook trust state": "would record the hook trust state"}


def _tense(action: str, dry_run: bool) -> str:
    """A dry run speaks of what it would do, not of what it did."""
    for done, would in _WOULD.items() if dry_run else ():
        if action.startswith(done):
            return would + action[len(done):]
    return action.replace("; nothing written", "") if dry_run else action


def _diff_style(line: str) -> str | None:
    if line.startswith(("+++", "---")):
        return "head"
    return {"+": "ok", "-": "problem", "@": "note"}.get(line[:1])


def _inactive(plans: list[FilePlan]) -> int:
    return sum(1 for p in plans for f in p.findings if f.level == "problem")


def _finding_line(f: Finding) -> str:
    who = "/".join(x for x in (f.bundle, f.hook) if x)
    return f"{f.level}: {who + ': ' if who else ''}{f.message}"


def _shipped_program(plan: FilePlan) -> str | None:
    """What a program file of hookweave's own is (the chain runner, Cline's per-event dispatcher):
    its diff is our code, not the operator's settings, so a dry run names it instead."""
    if plan.target.record_path is not None:
        return None
    if plan.target.path.name.endswith((".hookweave-chain.py", ".hookweave-chain.sh")):
        return "chain runner"
    text = plan.new_text if plan.new_text is not None else plan.old_text or ""
    return "dispatcher program" if text.startswith("#!") and "hookweave" in text[:2000] else None


def print_plans(plans: list[FilePlan], *, dry_run: bool, patch: bool = False, footer: bool = True) -> None:
    """Per file a summary line and its findings; with ``dry_run`` the diff (coloured on a terminal),
    and with ``patch`` the JSON Patch too. ``footer=False``: a preview before a question."""
    for plan in plans:
        t = plan.target
        console.out(f"{t.host.name} {t.scope} {t.shown}: " + "; ".join(_tense(a, dry_run) for a in plan.actions), "head")
        for f in plan.findings:
            console.out("  " + _finding_line(f), f.level)
        program = _shipped_program(plan)
        if dry_run and plan.changed and program:  # not 500 lines of diff (issue 25: nor a 161-line dispatcher)
            verb = "removed" if plan.new_text is None else "written"
            console.out(f"the {program} hookweave ships ({len((plan.new_text or plan.old_text or '').splitlines())} "
                        f"lines) would be {verb}: {t.shown}")
        elif dry_run and plan.changed:
            for line in unified_diff(plan).splitlines():
                console.out(line, _diff_style(line))
            if patch and plan.ops:
                console.out(f"JSON Patch (RFC 6902) for {t.shown}:")
                import json  # --patch alone: its indented encoder (a plan's ops may hold any value)

                console.out(json.dumps(plan.ops, indent=2, ensure_ascii=False))
            verb = "removed" if plan.new_record is None else "written"
            if plan.old_record != plan.new_record and t.record_path is not None:
                console.out(f"record {t.record_path.name} would be {verb}")
    problems = _inactive(plans)
    if problems:  # issue 13 case 3: exit 0 (the files are right), but say plainly that verify would not pass
        console.out(f"{'would be ' if dry_run else ''}written, but verify would fail: {problems} problem{'s' if problems != 1 else ''} "
                    "above; fix each as it says, then run hooks verify", "warning")
    if not footer:
        return
    if dry_run:
        console.out("dry run: nothing written")
    elif any(p.changed for p in plans):
        reasons: dict[str, set[str]] = {}
        for p in plans:
            if p.changed and p.target.host.restart:
                reasons.setdefault(p.target.host.restart, set()).add(p.target.host.title)
        for reason, titles in sorted(reasons.items()):
            console.out(f"Restart running sessions of {', '.join(sorted(titles))}: {reason}.")


def plans_json(command: str, plans: list[FilePlan], *, dry_run: bool, notes=()) -> dict[str, Any]:
    files = [
        {
            "host": p.target.host.name,
            "scope": p.target.scope,
            "path": p.target.shown,
            "record": str(p.target.record_path) if p.target.record_path else None,
            "changed": p.changed,
            "actions": p.actions,
            "operations": p.ops,
            "problems": [f.as_json() for f in p.findings if f.level == "problem"],
            "notes": [f.as_json() for f in p.findings if f.level != "problem"],
        }
        for p in plans
    ]
    return {"command": command, "dry_run": dry_run, "changed": any(p.changed for p in plans),
            "active": not _inactive(plans), "notes": list(notes), "files": files}


def _hook_json(h) -> dict[str, Any]:
    """A hook as verify found it; ``level`` is ``ok`` for a hook whose status is ok (issue 25: it
    read ``problem``, the unused default of a status that was never a problem)."""
    return {**h.as_json(), "level": "ok"} if h.status == "ok" else h.as_json()


def verify_json(reports: list[HostReport], mode: str = "machine", where: Finding | None = None) -> dict[str, Any]:
    """``mode``: ``machine`` (plain verify: every scope, this machine's gates as problems) or ``repo``
    (``verify --repo``: the repository's files only; a finding with ``machine`` true is at most a warning).
    ``where``: the project and the agents that do not read it from here, said once (``findings``)."""
    return {
        "mode": mode,
        "findings": [where.as_json()] if where else [],
        "ok": not any(r.problems for r in reports),
        "problems": sum(r.problems for r in reports),
        "hosts": [
            {
                "host": r.host.name,
                "problems": r.problems,
                "files": [
                    {
                        "scope": f.scope,
                        "path": f.shown,
                        "bundles": [
                            {"name": b.name, "version": b.version,
                             "hooks": [_hook_json(h) for h in b.hooks]}
                            for b in f.bundles
                        ],
                        "findings": [x.as_json() for x in f.findings],
                    }
                    for f in r.files
                ],
                "findings": [x.as_json() for x in r.findings],
                "plugin_hooks": [h.as_json() for h in r.plugin_hooks],
            }
            for r in reports
        ],
    }
