"""The Python API: install, uninstall and verify as calls that return data.

The ``hooks`` command and the Ansible collection (``ansible/``) both call these; neither parses
the other's text. Each call resolves host names through the registry, picks each host's project
folder, plans every file and (unless ``dry_run``) writes them all or none, exactly as the command
does. A refusal or bad input raises ``HooksError`` (``errors``) with the one line the command
prints, and nothing is written.

    from hookweave.core.usecases import api
    done = api.install("example-guard", ["claude", "gemini"], project="/srv/app", dry_run=True)
    done.changed, [f.diff for f in done.files]
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from hookweave.core.model.findings import Finding
from hookweave.core.files import paths
from hookweave.core.reading import projects
from hookweave.core.usecases import selection

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host
    from hookweave.core.contract.registry import HostRegistry
    from hookweave.core.model.bundle import Bundle
    from hookweave.core.plan.plan import FilePlan
    from hookweave.core.verify.reports import HostReport


def unified_diff(plan: FilePlan) -> str:
    """The file's change as a unified diff, named as the command shows the path."""
    return _diff(plan.old_text, plan.new_text, plan.target.shown)


def record_diff(plan: FilePlan) -> str:
    """The change of the file's record (a version bump changes only this), or ``""``."""
    record = plan.target.record_path
    if record is None or plan.old_record == plan.new_record:
        return ""
    return _diff(plan.old_record, plan.new_record, paths.display(record))


def _diff(old_text: str | None, new_text: str | None, shown: str) -> str:
    old = (old_text or "").splitlines(keepends=True)
    new = (new_text or "").splitlines(keepends=True)
    relative = not shown.startswith("/")  # git's a/ b/ prefixes only make sense before a relative path
    lines = difflib.unified_diff(old, new, ("a/" if relative else "") + shown if old_text is not None else "/dev/null",
                                 ("b/" if relative else "") + shown if new_text is not None else "/dev/null")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


class Outcome:
    """What an install or uninstall did (or, with ``dry_run``, would do), per file."""

    def __init__(self, command: str, plans: list[FilePlan], hosts: list[Host], notes: list[str], dry_run: bool) -> None:
        self.command, self.plans, self.hosts, self.notes, self.dry_run = command, plans, hosts, notes, dry_run

    @property
    def changed(self) -> bool:
        return any(p.changed for p in self.plans)

    def check_writable(self) -> None:
        """Raise what the real run refuses before it plans (a read-only file, a folder of root's
        for a user): a dry run does not look, so a caller that must predict the run (Ansible's
        check mode) asks here. The real run checks every file and record it targets, and a
        companion (Codex's config.toml) only when it changes."""
        from hookweave.core.files import fileio

        for p in self.plans:
            if p.target.record_path is not None:
                fileio.check_writable(p.target.path)
                fileio.check_writable(p.target.record_path)
            elif p.old_text != p.new_text:
                fileio.check_writable(p.target.path)

    @property
    def problems(self) -> list[Finding]:
        """Gates and duplicates that keep written hooks from running as asked (verify would fail)."""
        return [f for p in self.plans for f in p.findings if f.level == "problem"]

    @property
    def files(self) -> list[dict[str, Any]]:
        return [
            {"host": p.target.host.name, "scope": p.target.scope, "path": str(p.target.path),
             "record": str(p.target.record_path) if p.target.record_path else None, "changed": p.changed,
             "actions": list(p.actions), "diff": unified_diff(p) if p.old_text != p.new_text else "",
             "record_changed": p.old_record != p.new_record, "record_diff": record_diff(p),
             "problems": [f.as_json() for f in p.findings if f.level == "problem"],
             "notes": [f.as_json() for f in p.findings if f.level != "problem"]}
            for p in self.plans
        ]


def _hosts(registry: HostRegistry | None, names: Sequence[str], project: str | None) -> tuple[HostRegistry, list[Host]]:
    if registry is None:
        from hookweave.core.contract.registry import registry as make

        registry = make()
    return registry, selection.resolve(registry, list(names), project)


def install(bundle: str | Bundle | None, hosts: Sequence[str], *, scope: str | None = None,
            project: str | None = None, force: bool = False, trust: bool = False, dry_run: bool = False,
            registry: HostRegistry | None = None) -> Outcome:
    """Install ``bundle`` (a manifest path, bundle folder, template name, or a loaded bundle) on
    ``hosts`` (names, or ``all``); ``project`` ``None``: the folder each host uses from here."""
    from hookweave.core.model import loading
    from hookweave.core.usecases import installer, mistakes

    registry, chosen = _hosts(registry, hosts, project)
    loaded = bundle if bundle is not None and not isinstance(bundle, str) else loading.load_bundle(bundle, registry.names())
    source = bundle if isinstance(bundle, str) else paths.display(loaded.directory)
    source = source if "/" in source or source.startswith((".", "~")) else f"./{source}"  # not a template's name
    chosen, no_project = selection.project_hosts(chosen, hosts, scope, f"hooks install {source} {{hosts}}")
    chosen, left_out = mistakes.hosts_with_something(chosen, loaded, everyone=selection.broad(hosts))
    folder = projects.folders(chosen, project)
    mistakes.errors(loaded, sorted(set(folder.values())))
    targets = [installer.target(h, scope, folder[h.name]) for h in chosen]
    targets, machine_only = selection.portable_targets(targets, loaded, folder, source, hosts)
    chosen = [t.host for t in targets]
    plans = installer.install(targets, loaded, folder, force=force, dry_run=dry_run, trust=trust)
    projects.annotate(plans, folder, explicit=bool(project))
    where = projects.project_notes(plans, folder, explicit=bool(project))
    return Outcome("install", plans, chosen, where + no_project + left_out + machine_only, dry_run)


def uninstall(name: str, hosts: Sequence[str], *, scope: str | None = None, project: str | None = None,
              force: bool = False, dry_run: bool = False, by_marker: bool = False,
              registry: HostRegistry | None = None) -> Outcome:
    """Remove what the records say bundle ``name`` wrote on ``hosts``; ``NotInstalled`` when none did."""
    from hookweave.core.usecases import installer

    registry, chosen = _hosts(registry, hosts, project)
    chosen, no_project = selection.project_hosts(chosen, hosts, scope, f"hooks uninstall {name} {{hosts}}",
                                                installed_only=True)
    folder = projects.folders(chosen, project)
    targets = [installer.target(h, scope, folder[h.name]) for h in chosen]
    plans = installer.uninstall(targets, name, folder, force=force, dry_run=dry_run, by_marker=by_marker)
    projects.annotate(plans, folder, explicit=bool(project))
    where = projects.project_notes(plans, folder, explicit=bool(project))
    return Outcome("uninstall", plans, chosen, where + no_project, dry_run)


class Verified:
    """verify's reports, and every finding flattened to one dict each, for a caller to assert on."""

    def __init__(self, reports: list[HostReport], where: Finding | None = None) -> None:
        self.reports = reports
        self.where = where  # the project and the agents that do not read it from here, said once
        self.findings = [item for rep in reports for item in _flat(rep)]
        if where is not None:
            self.findings.insert(0, {"host": None, "scope": None, "path": None, **where.as_json(), "status": None})

    def level(self, level: str) -> list[dict[str, Any]]:
        return [f for f in self.findings if f["level"] == level]

    @property
    def ok(self) -> bool:
        return not any(r.problems for r in self.reports)


def _flat(rep: HostReport) -> list[dict[str, Any]]:
    host = rep.host.name
    out = []
    for file in rep.files:
        where = {"host": host, "scope": file.scope, "path": file.shown}
        for bundle in file.bundles:
            out += [{**where, "level": h.level, "bundle": bundle.name, "hook": h.id, "status": h.status,
                     "message": f"{h.status} {h.event} ({h.position}){': ' + h.detail if h.detail else ''}"}
                    for h in bundle.hooks if h.status != "ok"]
        out += [{**where, **f.as_json(), "status": None} for f in file.findings]
    return out + [{"host": host, "scope": None, "path": None, **f.as_json(), "status": None} for f in rep.findings]


def verify(hosts: Sequence[str] = ("all",), *, scope: str | None = None, project: str | None = None,
           registry: HostRegistry | None = None) -> Verified:
    """What is installed on ``hosts`` against the records, as each agent runs it; writes nothing."""
    from hookweave.core.verify import hostreport

    registry, chosen = _hosts(registry, hosts, project)
    if scope == "project":  # verify's default is every scope, Kimi's user file too
        chosen, _ = selection.project_hosts(chosen, hosts, scope, "hooks verify {hosts}")
    folder = projects.folders(chosen, project)
    scopes = hostreport.chosen_scopes(chosen, scope)
    reports = []
    for h in chosen:
        rep = hostreport.verify_host(h, scopes[h.name], folder[h.name])
        rep.findings[:0] = hostreport.scope_notes(h, scope)
        if not rep.files:
            rep.findings += projects.elsewhere_note(h, Path(folder[h.name]), bool(project))
        reports.append(rep)
    return Verified(reports, projects.location_note(chosen, folder, bool(project)))
