"""verify for one host: every scope read as the host reads it, each file of ours judged against
its record, and the host-wide findings (gates, other agents, order, env, duplicates, the host's own)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.errors import BadInput
from hookweave.core.files import paths
from hookweave.core.model import record
from hookweave.core.model.findings import Finding
from hookweave.core.reading.scopes import has_markers, read_context, read_scope, same_file_scopes
from hookweave.core.verify import duplicates
from hookweave.core.verify import registrations as verify
from hookweave.core.verify.reports import HostReport

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host


def verify_host(host: Host, scopes: list[str], project: Path, *, repo: bool = False) -> HostReport:
    """``repo`` (``verify --repo``): judge only what the repository holds. No file outside
    ``project`` is read (user and managed settings, trust stores), no agent is run, and a problem
    that a check marks as this machine's (``Finding.machine``) is weighed as a warning."""
    report = HostReport(host)
    chained = False
    docs: dict[str, object] = {}
    records: dict[str, record.Record] = {}
    aliases = same_file_scopes(host, project)
    for scope in host.verify_scopes:
        if scope in aliases:
            if scope in scopes:
                shown = paths.display(host.settings_path(scope, project))
                report.findings.append(Finding("note", f"{scope} and {aliases[scope]} scope are the same file here "
                                               f"({shown}); checked once, as {aliases[scope]}"))
            continue
        if repo and not paths.within(host.settings_path(scope, project), project):
            continue  # this machine's file: not read, so the gates see it as missing
        doc, rec, error = read_scope(host, scope, project)
        docs[scope] = doc
        if error:
            level = "problem" if scope in scopes else "note"
            report.findings.append(Finding(level, error))
        refused = host.rejects(doc, str(host.settings_path(scope, project))) if doc is not None else None
        if refused:  # loads as JSON, but not as the host's settings: every hook in it is dead
            ours = scope in scopes and (not rec.empty or has_markers(host, doc))
            shown = paths.display(host.settings_path(scope, project))
            report.findings.append(Finding("problem" if ours else "warning", paths.printable(f"{shown}: {refused}")))
        for said in host.skipped_entries(doc, str(host.settings_path(scope, project))) if doc is not None else ():
            shown = paths.display(host.settings_path(scope, project))
            report.findings.append(Finding("warning", paths.printable(f"{shown}: {said}")))
        for event, said in host.dropped_lists(doc, str(host.settings_path(scope, project))) if doc is not None else ():
            ours = scope in scopes and has_markers(host, {host.hooks_key: {event: doc[host.hooks_key][event]}})
            shown = paths.display(host.settings_path(scope, project))
            report.findings.append(Finding("problem" if ours else "warning", paths.printable(f"{shown}: {said}")))
        if not rec.empty:
            records[scope] = rec
        if scope in scopes and (not rec.empty or has_markers(host, doc)):
            shown = paths.display(host.settings_path(scope, project))
            report.files.append(verify.verify_file(host, scope, shown, doc if doc is not None else {}, rec))
            if any(h.members for b in rec.bundles.values() for h in b.hooks):  # a chain: most files have none
                from hookweave.core.verify import chains as chainverify

                report.files[-1].findings += chainverify.runtime_findings(host, host.settings_path(scope, project), rec)
                report.files[-1].findings += chainverify.runner_paths(host, scope, doc, rec)
                report.files[-1].findings += chainverify.order_notes(host, rec)
                chained = chained or bool(chainverify.order_notes(host, rec))
    ran = _borrowed(host, scopes, project, report, repo)  # hooks it runs from another host's file, as installed for it
    if report.files:
        for label, path in host.context_paths(project).items():
            if not repo or paths.within(path, project):  # under --repo a file outside is not read: no label
                docs[label] = read_context(host, path)
        report.findings += host.gates(docs, set(records) | ran, project)
        from hookweave.core.verify import (
            crossreads,  # reads every other host's files: only with ours installed
        )

        if not repo:  # which other agents are in use here is this machine's fact (their programs, HOME)
            report.findings += crossreads.findings(host, project)  # other agents that run these hooks too
        verify.judge_order(host, report.files, docs)  # what order means at run time can hang on every scope
        report.findings += verify.env_shadowing(host, docs, records)
        report.findings += duplicates.cross_scope(host, docs, records, project)
        if not repo:  # it asks the agent installed here (codex app-server), or reads the user's files
            report.findings += host.verify_extra(project, scopes)
            from hookweave.core.verify import movedlayers  # a machine folder moved for hookweave alone

            report.findings += movedlayers.findings(host, set(records))
        if host.execution:
            tail = ", except in a chain, which runs its members in declared order" if chained else ""
            report.findings.append(Finding("note", host.execution + tail))
    if not repo:  # the agent's own plugins live in this machine's folders
        read = getattr(host, "plugin_hooks", None)  # optional (docs/host-reference.md): most agents have none
        report.plugin_hooks = read(docs, project) if read is not None else []
        if report.files and report.plugin_hooks:
            from hookweave.core.verify import plugins

            report.findings += plugins.findings(host, report.plugin_hooks, docs, records, project)
    if repo:
        report.findings = [for_repository(f) for f in report.findings]
        for file in report.files:
            file.findings = [for_repository(f) for f in file.findings]
    return report


def for_repository(finding: Finding) -> Finding:
    """A problem of this machine, as ``verify --repo`` weighs it: a warning, still with its fix."""
    if finding.machine and finding.level == "problem":
        return finding._replace(level="warning", message=f"on this machine: {finding.message}")
    return finding


def _borrowed(host: Host, scopes: list[str], project: Path, report: HostReport, repo: bool) -> set[str]:
    """A file report per bundle whose hooks ``host`` runs from another host's file instead of a copy
    of its own (``runs_for`` in that file's record), each hook as verify finds it there; the
    project-level scopes of ``host`` that makes in use (its gates, e.g. Copilot's folder trust,
    hold for those files too: measured). ``repo``: only files inside ``project``."""
    from hookweave.core.reading.standins import borrowed
    from hookweave.core.verify.reports import FileReport

    if not any(scope != "user" for scope in scopes):
        return set()
    ran: set[str] = set()
    for b in borrowed(host, project, repo=repo):
        doc, rec, _ = read_scope(b.source, b.scope, project)
        there = verify.verify_file(b.source, b.scope, b.shown, doc if doc is not None else {}, rec)
        file = FileReport(b.scope, f"{b.shown} ({b.source.title}'s, which {host.title} runs)")
        for bundle in there.bundles:
            if bundle.name == b.bundle:
                bundle.hooks = [h for h in bundle.hooks if h.id in b.ids]
                for h in bundle.hooks:
                    h.detail = f"{b.source.title}'s copy, which {host.title} runs: {h.detail}" if h.detail else ""
                file.bundles.append(bundle)
        report.files.append(file)
        ran.add("project")
    return ran


def chosen_scopes(hosts: list[Host], scope: str | None) -> dict[str, list[str]]:
    """Per host, the scopes ``verify --scope`` checks: all by default; with ``--scope``, that scope
    where the host has it and none where it does not (a note says so); a scope no host has is bad input."""
    if scope is None:
        return {h.name: list(h.verify_scopes) for h in hosts}
    if not any(scope in h.verify_scopes for h in hosts):
        known = "; ".join(f"{h.title}: {', '.join(h.verify_scopes)}" for h in hosts)
        raise BadInput(f"--scope {paths.printable(scope)}: no host here has that scope ({known})")
    return {h.name: [scope] if scope in h.verify_scopes else [] for h in hosts}


def machine_scope_notes(host: Host, scopes: list[str], project: Path) -> list[Finding]:
    """``verify --repo --scope user``: say that the scope asked for is this machine's, not read."""
    return [Finding("note", f"{host.title}'s {scope} scope is this machine's, not the repository's: verify --repo does "
                    "not read it") for scope in scopes if not paths.within(host.settings_path(scope, project), project)]


def scope_notes(host: Host, scope: str | None) -> list[Finding]:
    if scope is None or scope in host.verify_scopes:
        return []
    return [Finding("note", f"{host.title} has no {scope} scope (it has {', '.join(host.verify_scopes)}); nothing to check")]
