"""Use cases: read files, call the pure planner or verifier, and write all-or-nothing.

A command that touches several files plans every one of them first, refuses before writing if
any plan is refused, and, should a later write fail, puts back the files it already wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from typing import TYPE_CHECKING

from hookweave.core import fileio, paths, record
from hookweave.core.errors import BadInput, Conflict, HooksError, Refused, WriteFailed
from hookweave.core.model import Finding

if TYPE_CHECKING:  # the planner and verifier load only for the commands that need them
    from hookweave.core import verify
    from hookweave.core.host import Host
    from hookweave.core.model import Bundle
    from hookweave.core.plan import FilePlan, Target

ATTEMPTS = 3  # a host saving its settings mid-run makes us plan again from its new text
Planner = Callable[["Target", "str | None", "str | None"], "FilePlan"]


def target(host: Host, scope: str, project: Path) -> Target:
    from hookweave.core.plan import Target

    if scope not in host.scopes:
        hint = "managed settings are read for verify only" if scope == "managed" else ""
        choices = ", ".join(host.scopes)
        raise BadInput(f"--scope {scope}: {host.title} has no writable scope {scope!r}; use {choices}. {hint}".rstrip(". ") )
    path = host.settings_path(scope, project)
    missing = len(fileio.missing_folders([path]))  # folders install would create (uninstall removes them)
    return Target(host, scope, path, host.record_path(path), paths.display(path), missing == 0, missing)


def load_bundle(spec: str | None, hosts: list[str] | None = None) -> Bundle:
    """A manifest path, a folder holding ``hookweave.toml``, or the name of a shipped template;
    ``hosts``: the registered host names, which every host the manifest names must be one of."""
    candidate = Path(spec) if spec else Path("hookweave.toml")
    if candidate.is_dir():
        candidate = candidate / "hookweave.toml"
    if not candidate.exists() and spec and "/" not in spec and not spec.endswith(".toml"):
        candidate = _template_dir() / spec / "hookweave.toml"
        if not candidate.exists():
            names = ", ".join(template_names()) or "none"
            raise BadInput(f"no bundle {spec!r}: not a path, and not a template (templates: {names})")
    if not candidate.exists():
        raise BadInput(f"{_one_line(candidate)}: no such manifest; pass a bundle path or a template name")
    path = candidate.absolute()
    if ".." in path.parts:  # the kernel's reading of "..", not a lexical one that a symlink could fool
        path = path.resolve()
    _check_bundle_dir(path)
    text = fileio.read_text(path) or ""
    from hookweave.core import manifest

    bundle = manifest.parse_manifest(text, path)
    if hosts is not None:
        manifest.check_hosts(bundle, hosts)
    return bundle


def _check_bundle_dir(manifest: Path) -> None:
    """Refuse a manifest path with a control character: ``{bundle_dir}`` would put it into commands
    (a newline there splits one when displayed), and every message naming the file would break."""
    import unicodedata

    bad = next((c for c in str(manifest) if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None and unicodedata.category(bad) == "Cs":  # a byte that is not UTF-8 in a folder name
        raise BadInput(
            f"{_one_line(manifest)}: the bundle's path is not UTF-8, and it would go into every {{bundle_dir}} "
            "command of a UTF-8 settings file; move the bundle to a folder whose name is UTF-8"
        )
    if bad is not None:
        raise BadInput(
            f"{_one_line(manifest)}: the bundle's path holds a control character ({bad!r}), which would go into "
            "every {bundle_dir} command; move the bundle to a folder whose path has none"
        )


def _one_line(path: Path) -> str:
    """``path`` with its control characters escaped (``\\n``, ``\\x1b``), so a message stays one line."""
    return paths.printable(str(path))


def _template_dir() -> Path:
    from importlib.resources import files

    return Path(str(files("hookweave.templates")))


def template_names() -> list[str]:
    return sorted(p.name for p in _template_dir().iterdir() if (p / "hookweave.toml").is_file())


def _read(t: Target) -> tuple[str | None, str | None]:
    return fileio.read_text(t.path), fileio.read_text(t.record_path)


def run(
    targets: list[Target], planner: Planner, *, dry_run: bool, force_hint: str, bundle: str, trust: bool = False,
    check: Callable[[list[FilePlan]], None] | None = None,
) -> list[FilePlan]:
    """Plan every target and its companions; unless ``dry_run``, write them all under locks.

    ``check`` runs on the finished plans before the first byte is written (it may add findings,
    or raise to write nothing)."""
    companions = [p for t in targets for p in t.host.companion_paths(t)]
    records = [t.record_path for t in targets if t.record_path is not None]
    for path in [t.path for t in targets] + records:
        if not dry_run:
            fileio.check_writable(path)
    for attempt in range(ATTEMPTS):
        try:
            if dry_run:
                plans = _plan_all(targets, planner, force_hint, bundle, trust)
                if check:
                    check(plans)
                return plans
            with fileio.locked([p for t in targets for p in (t.path, t.record_path)] + companions):
                plans = _plan_all(targets, planner, force_hint, bundle, trust)
                for plan in plans:  # a companion (Codex's user config.toml) must be writable only if it changes
                    if plan.target.record_path is None and plan.old_text != plan.new_text:
                        fileio.check_writable(plan.target.path)
                if check:
                    check(plans)
                _write_all(plans)
                return plans
        except Conflict:
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _plan_all(targets: list[Target], planner: Planner, force_hint: str, bundle: str, trust: bool) -> list[FilePlan]:
    plans = [planner(t, *_read(t)) for t in targets]
    plans += _companions(plans, bundle, trust)
    refused = [(p, f) for p in plans for f in p.refused]
    if refused:
        plan, first = refused[0]
        more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        raise Refused(
            f"{plan.target.shown}: {first.bundle}/{first.hook} {first.message}{more}; nothing written. "
            f"Keep the operator's version, or {force_hint}"
        )
    return plans


def _companions(plans: list[FilePlan], bundle: str, trust: bool) -> list[FilePlan]:
    """Plans for files that must change with the planned ones (Codex trust state), merged into
    a plan of the same file when there is one, so every file is written once."""
    from hookweave.core.plan import FilePlan, Target

    by_path = {p.target.path: p for p in plans}
    extra: list[FilePlan] = []

    def plan_of(path: Path, host: Host) -> FilePlan:
        if path not in by_path:
            text = fileio.read_text(path)
            shown = paths.display(path)
            by_path[path] = FilePlan(Target(host, "user", path, None, shown), text, text, None, None,
                                     actions=["hook trust state"])
            extra.append(by_path[path])
        return by_path[path]

    def current(path: Path, host: Host):
        plan = by_path.get(path)
        text = plan.new_text if plan else fileio.read_text(path)
        return {} if text is None else host.parse(text, paths.display(path))

    for plan in list(plans):
        host = plan.target.host
        old = {} if plan.old_text is None else host.parse(plan.old_text, plan.target.shown)
        new = {} if plan.new_text is None else host.parse(plan.new_text, plan.target.shown)
        edits = host.companion_ops(old, new, plan.target, bundle, lambda p: current(p, host), trust=trust)
        for path, ops in edits.items():
            if ops:
                other = plan_of(path, host)
                base = other.new_text if other.new_text is not None else ""
                text = host.apply(base, ops, other.target.shown)
                other.new_text, other.remove_folder = host.companion_text(path, other.old_text, text)
                other.ops = other.ops + ops
    return extra


def _write_all(plans: list[FilePlan]) -> None:
    """Write every changed file, or none: every check first, then the writes with ^C held back
    (``interrupt``); a failure or a stop signal puts back every file and folder already made."""
    from hookweave.core import interrupt

    steps = [step for step in _steps(plans) if step[1] != step[2]]
    made = fileio.missing_folders([path for path, *_ in steps])
    written: list[tuple[Path, str | None, str | None]] = []
    with interrupt.held() as arrived:
        try:
            _check_steps(steps)
            for path, old, new, like in steps:
                fileio.write_text(path, new, old, like=like)  # a new record: as open as its file
                written.append((path, old, new))
            signum = arrived()
            if signum is not None:
                raise interrupt.Interrupted(signum)
        except (HooksError, OSError) as exc:
            kept = _put_back(written, made)
            if kept:
                cause = exc.strerror if isinstance(exc, OSError) else str(exc)
                raise WriteFailed(f"{kept[0]}: saved by another program while hookweave was putting it back after "
                                  f"an error ({cause}), so it stays as that program saved it; run hooks verify") from None
            if isinstance(exc, OSError):
                where = paths.display(Path(exc.filename)) if exc.filename else "a settings file"
                raise WriteFailed(f"{where}: could not write it ({exc.strerror}); every file was put back as it was") from None
            raise
        for plan in plans:  # still held: a stop here would leave an empty folder no record knows
            if plan.remove_folder:
                fileio.remove_empty_dir(plan.target.path.parent, levels=int(plan.remove_folder))


def _put_back(written: list[tuple[Path, str | None, str | None]], made: list[Path]) -> list[str]:
    """Undo ``written`` (newest first) and remove the folders made; the files that a host saved
    meanwhile are left as the host saved them (never overwritten), and named."""
    kept = []
    for path, old, new in reversed(written):
        try:
            fileio.write_text(path, old, new)
        except (HooksError, OSError):
            kept.append(paths.display(path))
    fileio.remove_empty_dirs(made)
    return kept


def _check_steps(steps: list[tuple[Path, str | None, str | None, Path]]) -> None:
    """What would fail half-way, checked before the first byte is written (under the locks)."""
    for path, _, new, _ in steps:
        fileio.check_writable(path)
        if new is not None:
            try:
                new.encode("utf-8")
            except UnicodeEncodeError as exc:
                near = paths.printable(exc.object[max(exc.start - 20, 0):exc.end])
                raise BadInput(f"{paths.display(path)}: the new text would hold a name that is not UTF-8 "
                               f"(near \"{near}\"); rename that folder (the project's, likely) to UTF-8") from None


def _steps(plans: list[FilePlan]) -> list[tuple[Path, str | None, str | None, Path]]:
    """``(path, old, new, like)`` for every file, in the order that leaves a killed run recoverable.

    Install: a record that gains a bundle first, then the settings files, then companions (Codex
    trust state). Uninstall: the reverse, so a killed uninstall leaves what a killed install could
    have. Either way a killed run leaves records that list hooks the files lack (verify: missing;
    the next install adds them, the next uninstall drops the record), never entries or trust keys
    that no record knows, which an uninstall would leave behind for good (and an install would take
    the bundle's own env value for the operator's). A record that gains no bundle (an upgrade, an
    uninstall) goes last, so it holds the hashes of what its file holds, or of nothing.
    """
    first: list[tuple[Path, str | None, str | None, Path]] = []
    files: list[tuple[Path, str | None, str | None, Path]] = []
    last: list[tuple[Path, str | None, str | None, Path]] = []
    for plan in plans:
        t = plan.target
        files.append((t.path, plan.old_text, plan.new_text, t.path))
        if t.record_path is not None:
            where = str(t.record_path)
            gains = set(record.from_text(plan.new_record, where).bundles) - set(record.from_text(plan.old_record, where).bundles)
            (first if gains else last).append((t.record_path, plan.old_record, plan.new_record, t.path))
    return first + (files if first else files[::-1]) + last


def install(
    targets: list[Target], bundle: Bundle, project: Path, *, force: bool, dry_run: bool, trust: bool = False
) -> list[FilePlan]:
    from hookweave.core.plan import plan_install

    return run(
        targets,
        lambda t, text, rec: plan_install(t, text, rec, bundle, force=force),
        dry_run=dry_run,
        force_hint="rerun with --force to replace it with the bundle's version",
        bundle=bundle.name,
        trust=trust,
        check=lambda plans: _gate_findings(plans, project),
    )


def _gate_findings(plans: list[FilePlan], project: Path) -> None:
    """Installed but inert is worse than not installed: say so now, from the files as they will be
    after this install (planned texts over the disk), before anything is written."""
    planned = {p.target.path: p.new_text for p in plans}
    for plan in plans:
        if plan.target.record_path is None:
            continue  # a companion file, checked with its main file
        host = plan.target.host
        docs = {scope: _read_scope(host, scope, project, planned)[0] for scope in host.verify_scopes}
        docs.update({label: _read_context(host, path, planned) for label, path in host.context_paths(project).items()})
        plan.findings += [f for f in host.gates(docs, {plan.target.scope}, project) if f.level == "problem"]


def uninstall(targets: list[Target], name: str, project: Path, *, force: bool, dry_run: bool) -> list[FilePlan]:
    from hookweave.core.plan import plan_uninstall

    plans = run(
        targets,
        lambda t, text, rec: plan_uninstall(t, text, rec, name, force=force),
        dry_run=dry_run,
        force_hint="rerun with --force to remove it anyway",
        bundle=name,
    )
    for plan in plans:
        if plan.changed or plan.target.record_path is None:
            continue
        try:
            elsewhere = [scope for scope, _, rec in installed(plan.target.host, project) if name in rec.bundles]
        except BadInput:
            continue  # only a hint; verify and status name the record they cannot read
        if elsewhere:
            plan.actions.append(f"it is installed at {' and '.join(elsewhere)} scope: pass --scope {elsewhere[0]}")
    return plans


@dataclass
class HostReport:
    host: Host
    files: list[verify.FileReport] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def problems(self) -> int:
        return sum(f.problems for f in self.files) + sum(1 for f in self.findings if f.level == "problem")


def _text(path: Path, planned: dict[Path, str | None] | None) -> str | None:
    if planned and path in planned:
        return planned[path]
    return fileio.read_text(path)


def _read_scope(
    host: Host, scope: str, project: Path, planned: dict[Path, str | None] | None = None
) -> tuple[object, record.Record, str | None]:
    """One scope's data, record and error (data ``None`` when missing, unparseable or not an
    object at the top, which no host reads as settings)."""
    path = host.settings_path(scope, project)
    shown = paths.display(path)
    try:
        text = _text(path, planned)
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
    from hookweave.core import verify

    report = HostReport(host)
    docs: dict[str, object] = {}
    records: dict[str, record.Record] = {}
    for scope in host.verify_scopes:
        doc, rec, error = _read_scope(host, scope, project)
        docs[scope] = doc
        if error:
            level = "problem" if scope in scopes else "note"
            report.findings.append(Finding(level, error))
        if not rec.empty:
            records[scope] = rec
        if scope in scopes and (not rec.empty or _has_markers(host, doc)):
            shown = paths.display(host.settings_path(scope, project))
            report.files.append(verify.verify_file(host, scope, shown, doc if doc is not None else {}, rec))
    if report.files:
        for label, path in host.context_paths(project).items():
            docs[label] = _read_context(host, path)
        report.findings += host.gates(docs, set(records), project)
        report.findings += verify.env_shadowing(host, docs, records)
        report.findings += verify.cross_scope_duplicates(host, docs, records)
        report.findings += host.verify_extra(project, scopes)
        if host.execution:
            report.findings.append(Finding("note", host.execution))
    return report


def _read_context(host: Host, path: Path, planned: dict[Path, str | None] | None = None) -> object:
    """Another file a host's gates look at, parsed as that host parses files of its kind;
    ``None`` when missing or unreadable. Its shape is the gate's to judge, as the host would."""
    from hookweave.core import jsontext

    try:
        text = _text(path, planned)
        if text is None:
            return None
        if path.suffix == ".toml":
            return host.parse(text, str(path))
        return jsontext.parse(text, str(path), comments=True).value
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
    for scope in host.verify_scopes:
        path = host.settings_path(scope, project)
        rec = record.from_text(fileio.read_text(host.record_path(path)), str(host.record_path(path)))
        if not rec.empty:
            out.append((scope, paths.display(path), rec))
    return out
