"""Use cases: install and uninstall a bundle across hosts, all-or-nothing.

A command plans every file first, refuses before writing if any plan is refused, and writes in a
transaction (``transaction``) that puts back what it wrote should a later write fail. Reading
scopes for verify and status lives in ``scopes``; finding and loading a bundle in ``bundles``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from hookweave.core.errors import BadInput
from hookweave.core.files import fileio, paths
from hookweave.core.reading.scopes import installed, read_context, read_scope
from hookweave.core.usecases.transaction import run

if TYPE_CHECKING:  # the planner loads only for the commands that need it
    from hookweave.core.contract.host import Host
    from hookweave.core.model.bundle import Bundle
    from hookweave.core.plan.plan import FilePlan, Target


def target(host: Host, scope: str | None, project: Path) -> Target:
    """``scope`` ``None``: the project file, or the first scope of a host that has none (Kimi Code
    reads one user file), so ``--host all`` without ``--scope`` works for every host."""
    from hookweave.core.plan.plan import Target

    if scope is None:
        scope = "project" if "project" in host.scopes else host.scopes[0]
    if scope not in host.scopes:
        choices = ", ".join(host.scopes)
        if scope == "managed":  # the agent's managed layer is one file of the administrator's, or none
            why = host.no_managed or f"{host.title} has no managed layer that hookweave writes"
            raise BadInput(f"--scope managed: {why}; nothing written (writable scopes: {choices})")
        raise BadInput(f"--scope {scope}: {host.title} has no writable scope {scope!r}; use {choices}")
    path = host.settings_path(scope, project)
    missing = len(fileio.missing_folders([path]))  # folders install would create (uninstall removes them)
    return Target(host, scope, path, host.record_path(path), paths.display(path), missing == 0, missing)


Projects = Path | Mapping[str, Path]  # one folder for every host, or each host's own (by name)


def project_of(project: Projects, host: Host) -> Path:
    return project if isinstance(project, Path) else project[host.name]


def install(
    targets: list[Target], bundle: Bundle, project: Projects, *, force: bool, dry_run: bool, trust: bool = False,
    machine: bool = True,
) -> list[FilePlan]:
    """``machine=False`` (``hooks sync``): the files come out the same on every machine, so nothing
    of this one is read or written: no inherited env values, no companions (Codex's trust state in
    the home), no gate findings from the user's files."""
    from hookweave.core.plan import managedlayer
    from hookweave.core.plan.plan import plan_install
    from hookweave.core.plan.portable import for_target
    from hookweave.core.usecases import standins

    for t in targets:  # the agent's reason to need root, before the folder's own (root's, not writable)
        managedlayer.check_root(t.host, t.scope, t.shown)

    names = {var.name for var in bundle.env}
    inherited = {id(t): _inherited(t, project_of(project, t.host), names) for t in targets} if names and machine else {}
    # One copy where an agent runs another's file (Copilot runs Claude's project settings): each
    # target's share of the bundle, and which hooks the source's copy runs for the reader.
    split = standins.split(targets, bundle, lambda host: project_of(project, host))
    mine = {id(t): split.bundles.get(id(t), bundle) for t in targets}
    rendered = {id(t): for_target(mine[id(t)], t, project_of(project, t.host)) for t in targets if mine[id(t)].hooks
                or not split.bundles.get(id(t))}

    def planner(t: Target, text: str | None, rec: str | None) -> FilePlan:
        if id(t) not in rendered:  # every hook runs from another host's file: nothing of it here
            plan = _nothing_left(t, text, rec, bundle.name, force)
            if not plan.changed:
                plan.actions = [f"{bundle.name} {bundle.version}: {f.message}; nothing written"
                                for f in split.notes.get(id(t), [])]
                return plan
        else:
            portable, notes = rendered[id(t)]
            plan = plan_install(t, text, rec, portable, force=force, inherited=inherited.get(id(t)),
                                project=project_of(project, t.host), runs_for=split.runs_for.get(id(t)),
                                readers=frozenset(split.readers.get(id(t), ())))
            plan.findings += notes
        plan.findings += split.notes.get(id(t), [])
        return plan

    return run(
        targets,
        planner,
        dry_run=dry_run,
        force_hint="rerun with --force to replace it with the bundle's version",
        bundle=bundle.name,
        trust=trust,
        check=(lambda plans: _gate_findings(plans, project, bundle.name)) if machine else None,
        force=force,
        companions=machine,
    )


def _nothing_left(t: Target, text: str | None, rec: str | None, name: str, force: bool) -> FilePlan:
    """A reader whose every hook of the bundle runs from the source's file: an earlier copy of its
    own is taken out (it would fire twice), else the file is left as it is."""
    from hookweave.core.model import record
    from hookweave.core.plan.plan import FilePlan, plan_uninstall

    if name in record.from_text(rec, str(t.record_path)).bundles:
        return plan_uninstall(t, text, rec, name, force=force)
    return FilePlan(t, text, text, rec, rec)


def _inherited(t: Target, project: Path, names: set[str]) -> dict[str, tuple[str, str]]:
    """Per variable of ``names`` (the bundle's: all the plan asks of), the value ``t.host`` uses
    when ``t``'s file does not set it, and where from: the highest lower-precedence scope's settings
    env, else the environment. Install runs in the operator's shell, so what it exports is what the
    agent started from here would see."""
    import os

    from hookweave.core.plan.envmerge import EXPORTED

    out = {name: (os.environ[name], EXPORTED) for name in names if name in os.environ}
    host = t.host
    if not host.env_key or t.scope not in host.verify_scopes:
        return out
    order = list(host.verify_scopes)
    own = fileio.realpath(t.path)
    for lower in order[: order.index(t.scope)]:
        if fileio.realpath(host.settings_path(lower, project)) == own:
            continue  # a user folder variable pointing into the project: the same file
        doc = read_scope(host, lower, project)[0]
        env = doc.get(host.env_key) if isinstance(doc, dict) else None
        for name, value in env.items() if isinstance(env, dict) else ():
            if isinstance(value, str) and name in names:
                out[name] = (value, f"set in {lower} settings")
    return out


def _gate_findings(plans: list[FilePlan], projects: Projects, bundle: str) -> None:
    """Installed but inert, or firing twice, is worse than not installed: say so now, from the
    files as they will be after this install (planned texts and records over the disk), before
    anything is written. The same judgements as verify's: the gates, this bundle's copies at
    other scopes that the host will run as well (``duplicates``), and the other agents that will
    run them (``crossreads``: warnings and notes, which never stop the install)."""
    from hookweave.core.verify import duplicates

    planned = {p.target.path: p.new_text for p in plans}
    planned.update({p.target.record_path: p.new_record for p in plans if p.target.record_path is not None})
    parsed = {p.target.path: p.new_doc for p in plans if p.new_doc is not None and p.new_text is not None}
    said: set = set()  # a cross-agent finding once per install, on the first file it concerns
    for plan in plans:
        if plan.target.record_path is None:
            continue  # a companion file, checked with its main file
        host = plan.target.host
        project = project_of(projects, host)
        read = {scope: read_scope(host, scope, project, planned, parsed) for scope in host.verify_scopes}
        docs = {scope: doc for scope, (doc, _, _) in read.items()}
        docs.update({label: read_context(host, path, planned) for label, path in host.context_paths(project).items()})
        plan.findings += [f for f in host.gates(docs, {plan.target.scope}, project) if f.level == "problem"]
        records = {scope: rec for scope, (_, rec, _) in read.items()}
        plan.findings += [f for f in duplicates.cross_scope(host, docs, records, project)
                          if f.level == "problem" and f.bundle == bundle]
        from hookweave.core.verify import (
            crossreads,  # other agents that will run what this writes: said, never refused
        )

        across = crossreads.findings(host, project, bundle=bundle, planned=planned, parsed=parsed)
        plan.findings += [f for f in across if f not in said]
        said.update(across)


def uninstall(targets: list[Target], name: str, project: Projects, *, force: bool, dry_run: bool,
              by_marker: bool = False, machine: bool = True) -> list[FilePlan]:
    from hookweave.core.plan.plan import plan_uninstall
    from hookweave.core.usecases import standins

    standins.check_sources(targets, name, force=force)  # an agent that runs this bundle from these files
    kept = standins.check_readers(targets, name, lambda host: project_of(project, host), force=force)
    plans = run(
        targets,
        lambda t, text, rec: plan_uninstall(t, text, rec, name, force=force, by_marker=by_marker),
        dry_run=dry_run,
        force_hint="rerun with --force to remove it anyway",
        bundle=name,
        force=force,
        companions=machine,
    )
    for plan in plans:
        plan.findings += kept.get(id(plan.target), [])
    if not any(p.changed for p in plans):
        _not_found(plans, name, project)
    return plans


def uninstall_all(targets: list[Target], project: Projects, *, force: bool, dry_run: bool) -> list[FilePlan]:
    """``uninstall --all``: every bundle recorded at each target's scope, one bundle after another
    (each its own all-or-nothing run). Every removal is planned first, so a refusal (an entry the
    operator edited) stops the command before any file is written."""
    from hookweave.core.errors import NotInstalled

    names: dict[str, list[Target]] = {}
    readers: dict[str, set[str]] = {}  # per bundle, the agents that run it from a source's file here
    for t in targets:
        for scope, _, rec in installed(t.host, project_of(project, t.host)):
            if scope == t.scope:
                for name, entry in rec.bundles.items():
                    names.setdefault(name, []).append(t)
                    readers.setdefault(name, set()).update(entry.runs_for)
    for name, where in names.items():  # a reader in this command goes with its source (standins)
        where += [t for t in targets if t.host.name in readers[name] and t not in where]
    if not names:
        where = ", ".join(f"{t.host.name} {t.scope}" for t in targets)
        raise NotInstalled(f"nothing is installed at {where}; hooks status lists what is installed where")
    if not dry_run:
        for name, where in sorted(names.items()):
            uninstall(where, name, project, force=force, dry_run=True)
    return [p for name, where in sorted(names.items())
            for p in uninstall(where, name, project, force=force, dry_run=dry_run)]


def _not_found(plans: list[FilePlan], name: str, project: Projects) -> None:
    """Nothing to remove: a typo or the wrong scope. Exit 1 naming what is installed (did you mean)."""
    import difflib

    from hookweave.core.errors import NotInstalled, Unrecorded

    here: dict[str, list[str]] = {}  # bundle -> "host scope" where it is installed
    for host in dict.fromkeys(p.target.host for p in plans if p.target.record_path is not None):
        try:
            for scope, _, rec in installed(host, project_of(project, host)):
                for bundle in rec.bundles:
                    here.setdefault(bundle, []).append(f"{host.name} {scope}")
        except BadInput:
            continue  # only a hint; verify and status name the record they cannot read
    scopes = sorted({f"{p.target.host.name} {p.target.scope}" for p in plans if p.target.record_path is not None})
    marked = [f"{p.target.shown}: {f.message}" for p in plans for f in p.findings if "--by-marker" in f.message]
    if marked:  # our entries, with no record to say so: named, and removed only when asked
        more = f" (and {len(marked) - 1} more files)" if len(marked) > 1 else ""
        raise Unrecorded(f"{marked[0]}{more}; nothing written")
    message = f"{paths.printable(name)} is not installed at {', '.join(scopes)}"
    if name in here:
        scope = here[name][0].split()[1]
        raise NotInstalled(f"{message}; it is installed at {', '.join(here[name])}: pass --scope {scope}")
    close = difflib.get_close_matches(name, list(here), n=1, cutoff=0.5)  # tyni -> tiny is 0.5
    listed = "; ".join(f"{b} ({', '.join(w)})" for b, w in sorted(here.items())) or "nothing"
    hint = f"did you mean {close[0]}? " if close else ""
    raise NotInstalled(f"{message}; {hint}installed: {listed}")
