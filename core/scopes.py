"""Reading every scope of a host as the host reads it: for verify, status and install's gates.

A file that cannot be read is a finding, not a crash: the host ignores it too.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core import fileio, paths, record
from hookweave.core.errors import BadInput
from hookweave.core.findings import Finding

if TYPE_CHECKING:
    from hookweave.core import verify
    from hookweave.core.host import Host


class HostReport:
    """What verify found for one host: a report per scope file, and the host-wide findings."""

    __slots__ = ("host", "files", "findings")

    def __init__(self, host: Host) -> None:
        self.host = host
        self.files: list[verify.FileReport] = []
        self.findings: list[Finding] = []

    @property
    def problems(self) -> int:
        return sum(f.problems for f in self.files) + sum(1 for f in self.findings if f.level == "problem")


def _text(path: Path, planned: dict[Path, str | None] | None) -> str | None:
    if planned and path in planned:
        return planned[path]
    return fileio.read_text(path)


def read_scope(
    host: Host, scope: str, project: Path, planned: dict[Path, str | None] | None = None,
    parsed: dict[Path, object] | None = None,
) -> tuple[object, record.Record, str | None]:
    """One scope's data, record and error (data ``None`` when missing, unparseable or not an
    object at the top, which no host reads as settings). ``planned`` texts stand in for files a
    command is about to write, and ``parsed`` holds what some of them read as, already proven."""
    path = host.settings_path(scope, project)
    shown = paths.display(path)
    try:
        text = _text(path, planned)
        if text is not None and parsed and path in parsed:
            doc = _settings_object(parsed[path], shown)
        else:
            doc = None if text is None else _settings_object(host.parse(text, shown), shown)
        for extra in host.extra_paths(scope):
            extra_text = _text(extra, planned)
            if extra_text is not None:
                drop_in = _settings_object(host.parse(extra_text, paths.display(extra)), paths.display(extra))
                doc = {**(doc or {}), **drop_in}
    except BadInput as exc:
        return None, record.Record(), f"{exc} ({host.title} ignores a file it cannot read)"
    try:
        rec_path = host.record_path(path)
        return doc, record.from_text(_text(rec_path, planned), str(rec_path)), None
    except BadInput as exc:
        return doc, record.Record(), f"{exc} (so this scope's hooks cannot be checked)"


def _settings_object(doc: object, shown: str) -> dict:
    if not isinstance(doc, dict):
        raise BadInput(f"{shown}: the top level must be a JSON object, not {_json_kind(doc)}")
    return doc


def _json_kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def verify_host(host: Host, scopes: list[str], project: Path) -> HostReport:
    from hookweave.core import duplicates, verify

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
        doc, rec, error = read_scope(host, scope, project)
        docs[scope] = doc
        if error:
            level = "problem" if scope in scopes else "note"
            report.findings.append(Finding(level, error))
        refused = host.rejects(doc, str(host.settings_path(scope, project))) if doc is not None else None
        if refused:  # loads as JSON, but not as the host's settings: every hook in it is dead
            ours = scope in scopes and (not rec.empty or _has_markers(host, doc))
            shown = paths.display(host.settings_path(scope, project))
            report.findings.append(Finding("problem" if ours else "warning", paths.printable(f"{shown}: {refused}")))
        if not rec.empty:
            records[scope] = rec
        if scope in scopes and (not rec.empty or _has_markers(host, doc)):
            shown = paths.display(host.settings_path(scope, project))
            report.files.append(verify.verify_file(host, scope, shown, doc if doc is not None else {}, rec))
            if not rec.empty:
                from hookweave.core import chainverify

                report.files[-1].findings += chainverify.runtime_findings(host, host.settings_path(scope, project), rec)
                report.files[-1].findings += chainverify.order_notes(host, rec)
                chained = chained or bool(chainverify.order_notes(host, rec))
    if report.files:
        for label, path in host.context_paths(project).items():
            docs[label] = read_context(host, path)
        report.findings += host.gates(docs, set(records), project)
        from hookweave.core import crossreads

        report.findings += crossreads.findings(host, project)  # other agents that run these hooks too
        verify.judge_order(host, report.files, docs)  # what order means at run time can hang on every scope
        report.findings += verify.env_shadowing(host, docs, records)
        report.findings += duplicates.cross_scope(host, docs, records, project)
        report.findings += host.verify_extra(project, scopes)
        if host.execution:
            tail = ", except in a chain, which runs its members in declared order" if chained else ""
            report.findings.append(Finding("note", host.execution + tail))
    return report


def read_context(host: Host, path: Path, planned: dict[Path, str | None] | None = None) -> object:
    """Another file a host's gates look at, parsed as that host parses files of its kind;
    ``None`` when missing or unreadable. Its shape is the gate's to judge, as the host would."""
    from hookweave.core import jsontext

    try:
        text = _text(path, planned)
        if text is None:
            return None
        if path.suffix in (".toml", ""):  # TOML, or an executable a host reads (Cline's dispatchers)
            return host.parse(text, str(path))
        return jsontext.load(text, str(path), comments=True)
    except BadInput:
        return None


def _has_markers(host: Host, doc: object) -> bool:
    hooks = doc.get(host.hooks_key) if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        return False
    return any(host.owner(e) for es in hooks.values() if isinstance(es, list) for e in es)


def installed(host: Host, project: Path) -> list[tuple[str, str, record.Record]]:
    """``(scope, shown path, record)`` for every scope of ``host`` with something installed."""
    out = []
    aliases = same_file_scopes(host, project)
    for scope in host.verify_scopes:
        if scope in aliases:
            continue  # the same file as an earlier scope (CLAUDE_CONFIG_DIR pointing into the project)
        path = host.settings_path(scope, project)
        rec = record.from_text(fileio.read_text(host.record_path(path)), str(host.record_path(path)))
        if not rec.empty:
            out.append((scope, paths.display(path), rec))
    return out


def same_file_scopes(host: Host, project: Path) -> dict[str, str]:
    """``{scope: earlier scope}`` for scopes whose settings file is an earlier scope's file (a user
    folder variable pointing into the project): one file, read and reported once."""
    import os

    seen: dict[str, str] = {}
    aliases: dict[str, str] = {}
    for scope in host.verify_scopes:
        try:
            where = os.path.realpath(host.settings_path(scope, project))
        except (OSError, ValueError):
            continue
        if where in seen:
            aliases[scope] = seen[where]
        else:
            seen[where] = scope
    return aliases


def chosen_scopes(hosts: list[Host], scope: str | None) -> dict[str, list[str]]:
    """Per host, the scopes ``verify --scope`` checks: all by default; with ``--scope``, that scope
    where the host has it and none where it does not (a note says so); a scope no host has is bad input."""
    if scope is None:
        return {h.name: list(h.verify_scopes) for h in hosts}
    if not any(scope in h.verify_scopes for h in hosts):
        known = "; ".join(f"{h.title}: {', '.join(h.verify_scopes)}" for h in hosts)
        raise BadInput(f"--scope {paths.printable(scope)}: no host here has that scope ({known})")
    return {h.name: [scope] if scope in h.verify_scopes else [] for h in hosts}


def scope_notes(host: Host, scope: str | None) -> list[Finding]:
    if scope is None or scope in host.verify_scopes:
        return []
    return [Finding("note", f"{host.title} has no {scope} scope (it has {', '.join(host.verify_scopes)}); nothing to check")]
