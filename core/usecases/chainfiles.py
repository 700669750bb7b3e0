"""The chain runner file beside a settings file: there exactly while its record lists a chain.

Install writes it when a record gains its first chain, and the command that leaves the record
without one deletes it; in between it is hookweave's, and must be the runner this hookweave ships
(verify says "modified" otherwise). One another hookweave wrote, unedited (``chain.pristine``), is
replaced or removed like ours; any other file at that place is never overwritten nor deleted
without ``--force``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.files import fileio, paths
from hookweave.core.model import record
from hookweave.core.model.findings import Finding

if TYPE_CHECKING:
    from hookweave.core.plan.plan import FilePlan


def has_chain(rec: record.Record) -> bool:
    return any(h.members for b in rec.bundles.values() for h in b.hooks)


def _record(text: str | None, where: Path | None) -> record.Record:
    return record.from_text(text, str(where))


def runner_plans(plans: list[FilePlan], bundle: str, *, force: bool) -> list[FilePlan]:
    """A plan for the runner file of every settings file whose record gains or loses its chains
    (or still has them, and the runner is missing or not ours: install puts ours back)."""
    out: list[FilePlan] = []
    texts: dict[str, dict[str, str]] = {}  # per host: a runner holds its host's protocol row when that is data
    for plan in plans:
        t = plan.target
        if t.record_path is None:
            continue
        before = has_chain(_record(plan.old_record, t.record_path))
        after = has_chain(_record(plan.new_record, t.record_path))
        if not before and not after:
            continue
        from hookweave.core.plan import (  # only for a file with chains: every other install spares loading them
            chain,
            chainsh,
        )

        if t.host.name not in texts:
            texts[t.host.name] = {"py": chain.runner_text(t.host), "sh": chainsh.runner_text(t.host.answer_protocol())}
        shipped = texts[t.host.name]
        kinds = [("py", chain.runner_path(t.path), chain.pristine)]
        if t.host.answer_protocol() in chainsh.SH_HOSTS:  # its fast path in sh, which hands over to the first
            kinds.append(("sh", chainsh.runner_path(t.path), chainsh.pristine))
        for kind, path, pristine in kinds:
            runner = _runner_plan(plan, t, path, shipped[kind] if after else None, shipped[kind], pristine,
                                  before=before, bundle=bundle, force=force)
            if runner is not None:
                out.append(runner)
    return out


def _runner_plan(plan: FilePlan, t, path: Path, new: str | None, shipped: str, pristine, *, before: bool, bundle: str,
                 force: bool) -> FilePlan | None:
    from hookweave.core.plan.plan import FilePlan, Target

    old = fileio.read_text(path)
    runner = FilePlan(Target(t.host, t.scope, path, None, paths.display(path)), old, old, None, None)
    if old == new:
        return None
    if old is not None and old != shipped and not force and not pristine(old):
        whose = "hookweave's chain runner, edited since" if before else "a file hookweave did not write"
        if new is not None:
            plan.refused.append(Finding("problem", f"needs its chain runner at {runner.target.shown}, which is "
                                        f"{whose}", bundle, "chain"))
        else:
            plan.findings.append(Finding("note", f"{runner.target.shown} is {whose}; left in place"))
        return None
    if old is None and new is None:
        return None
    runner.new_text = new
    runner.actions = ["chain runner" + (" removed" if new is None else "")]
    return runner
