"""``hooks sync``: make the repository's agent files exactly what ``.hookweave.toml`` yields.

One run, under a lock on ``.hookweave/``: resolve every bundle's source (``bundlesources``), put new
vendored copies in place, take out the bundles the last sync installed that the file no longer
lists (``.hookweave/synced.json`` says which: one installed by hand is never touched), install or
upgrade the rest at project scope, then write the state and the pins. Every install and uninstall
is planned before the first byte is written, so a refusal writes nothing; a failure half-way puts
back every file and vendored folder already changed. Nothing of this machine goes into the files
(``machine=False``), so every clone computes the same bytes and ``--check`` can compare them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.errors import BadInput, Refused
from hookweave.core.files import fileio, paths
from hookweave.core.model import projectfile, syncstate
from hookweave.core.usecases import bundlesources
from hookweave.core.usecases.syncapply import Step

if TYPE_CHECKING:
    from hookweave.core.contract.registry import HostRegistry
    from hookweave.core.model.bundle import Bundle
    from hookweave.core.plan.plan import FilePlan


class Outcome:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.plans: list[FilePlan] = []
        self.notes: list[str] = []
        self.problems: list[str] = []  # --check: what differs
        self.texts: list[tuple[Path, str | None, str | None]] = []  # (path, old, new): project file, state
        self.vendored: list[tuple[str, str]] = []  # (name, what happened)

    @property
    def changed(self) -> bool:
        return bool(self.vendored) or any(p.changed for p in self.plans) or any(o != n for _, o, n in self.texts)


def find_root(start: Path) -> Path | None:
    """The folder holding ``.hookweave.toml``, from ``start`` upwards, not above the git root."""
    return paths.nearest_up(start, lambda folder: (folder / projectfile.FILE_NAME).is_file())


def root_or_fail(start: Path) -> Path:
    root = find_root(start)
    if root is None:
        raise BadInput(f"no {projectfile.FILE_NAME} in {paths.display(start)} or above it (up to the git root); "
                       "hooks add SOURCE --host HOST writes one")
    return root


def read(root: Path, registry: HostRegistry, text: str | None = None) -> tuple[projectfile.ProjectFile, str]:
    """The project file, or ``text`` standing for it (a preview of an edit not yet written)."""
    path = root / projectfile.FILE_NAME
    text = (fileio.read_text(path) or "") if text is None else text
    return projectfile.parse(text, Path(paths.display(path)), registry.names()), text


def sync(root: Path, registry: HostRegistry, *, check: bool = False, dry_run: bool = False,
         force: bool = False, text: str | None = None) -> Outcome:
    """``text``: the project file as an edit would make it (with ``dry_run``: its preview)."""
    if check:  # the repository alone: not a byte of this machine's files may change the answer
        with fileio.confined(root):
            return _run(root, registry, check=True, dry_run=True, force=force, text=text)
    if dry_run:
        return _run(root, registry, check=False, dry_run=True, force=force, text=text)
    import signal

    from hookweave.core.files import filelock, interrupt, vendor

    with interrupt.raised(), filelock.hold(root / ".hookweave"):
        try:
            return _run(root, registry, check=False, dry_run=False, force=force)
        except KeyboardInterrupt as stop:  # every file and vendored folder was put back on the way here
            raise interrupt.Interrupted(getattr(stop, "signum", signal.SIGINT)) from None
        finally:
            vendor.remove_empty(root / ".hookweave")


def _run(root: Path, registry: HostRegistry, *, check: bool, dry_run: bool, force: bool,
         text: str | None = None) -> Outcome:
    from hookweave.core.usecases import syncapply

    pf, pf_text = read(root, registry, text)
    state_path = root / syncstate.STATE_PATH
    state_text = fileio.read_text(state_path)
    state = syncstate.parse(state_text, paths.display(state_path))
    out = Outcome(root)
    sources = [bundlesources.resolve(root, e, state.get(e.name), check=check, force=force) for e in pf.entries]
    out.problems += [p for s in sources for p in s.problems]
    with syncapply.Vendoring(root, sources, state, pf, dry_run=dry_run) as vendoring:
        out.vendored = vendoring.done
        bundles = {s.entry.name: vendoring.load(s, registry) for s in sources if vendoring.loadable(s)}
        steps, installed = _steps(root, pf, state, bundles, registry, out.notes)
        if check:  # a user's own files are this machine's: --check reads none of them
            mine = sorted({s.name for s in steps if s.scope == "user"})
            out.notes += [f"{name}: at user scope, not checked (sync --check reads nothing outside the repository)"
                          for name in mine]
            steps = [s for s in steps if s.scope != "user"]
        new_pf = pf_text
        for s in sources:
            if s.pin:
                from hookweave.core.formats import projecttoml

                new_pf = projecttoml.set_fields(new_pf, s.entry.name, s.pin)
        new_state = {name: syncstate.Synced(hosts, pf.scope_of(pf.entry(name)), _rev(pf.entry(name), sources),
                                            _digests(name, sources, state))
                     for name, hosts in installed.items()}
        on_disk = pf_text if text is None else fileio.read_text(root / projectfile.FILE_NAME)
        attributes = root / syncstate.ATTRIBUTES_PATH
        vendors = any(e.vendored for e in pf.entries)
        out.texts = [(root / projectfile.FILE_NAME, on_disk, new_pf), (state_path, state_text, syncstate.dumps(new_state)),
                     (attributes, fileio.read_text(attributes), syncstate.ATTRIBUTES if vendors else None)]
        try:
            out.plans = syncapply.apply(root, registry, steps, out.texts, force=force, dry_run=dry_run)
        except Refused as exc:
            if not check:
                raise
            out.problems.append(str(exc).replace("rerun with --force", "run hooks sync --force"))
        vendoring.keep()
    if check:
        out.problems += _differences(out)
    return out


def _rev(entry: projectfile.Entry | None, sources: list[bundlesources.Source]) -> str | None:
    source = next((s for s in sources if entry is not None and s.entry.name == entry.name), None)
    if source is None or source.entry.kind != "git":
        return None
    return source.pin.get("rev", source.entry.rev)


def _digests(name: str, sources: list[bundlesources.Source], state: dict[str, syncstate.Synced]) -> dict[str, str]:
    source = next(s for s in sources if s.entry.name == name)
    if source.digests:
        return source.digests
    old = state.get(name)
    return old.files if old is not None and source.problems else {}  # --check: compare the state as it was


def _steps(root: Path, pf: projectfile.ProjectFile, state: dict[str, syncstate.Synced], bundles: dict[str, Bundle],
           registry: HostRegistry, notes: list[str]) -> tuple[list[Step], dict[str, tuple[str, ...]]]:
    """Uninstalls first (what the last sync put where the file no longer asks for it), then the
    installs; and per bundle the hosts it is installed on afterwards."""
    from hookweave.core.usecases import mistakes

    wanted: dict[str, tuple[tuple[str, ...], str]] = {}
    for entry in pf.entries:
        if entry.name not in bundles:
            continue  # --check found it not vendored: its difference is said already
        names = pf.hosts_of(entry)
        scope = pf.scope_of(entry)
        hosts = registry.resolve(list(names))
        lacking = [h for h in hosts if scope not in h.scopes]
        if lacking and "all" not in names:
            raise BadInput(f"{projectfile.FILE_NAME}: bundle {entry.name}: {lacking[0].title} has no {scope} scope "
                           f"(it has {', '.join(lacking[0].scopes)}); drop {lacking[0].name} from its hosts, or give "
                           f"this bundle scope = \"{lacking[0].scopes[0]}\"")
        if lacking:
            notes.append(f"{entry.name}: skipped {', '.join(h.name for h in lacking)}: no {scope} scope "
                         f"(give the bundle scope = \"user\" for them)")
        hosts = [h for h in hosts if scope in h.scopes]
        machine_only = _machine_only(hosts, bundles[entry.name], scope, root)
        if machine_only and "all" not in names:
            host, why = machine_only[0]
            raise BadInput(f"{projectfile.FILE_NAME}: bundle {entry.name}: {host.title}'s {scope} file would name "
                           f"a path on this machine only ({why}); drop {host.name} from its hosts, or give this "
                           'bundle scope = "user"')
        if machine_only:
            notes.append(f"{entry.name}: skipped {', '.join(h.name for h, _ in machine_only)}: no way to name the "
                         "bundle's folder in a committed file (give the bundle scope = \"user\" for them)")
        hosts = [h for h in hosts if h not in {h for h, _ in machine_only}]
        kept, left_out = mistakes.hosts_with_something(hosts, bundles[entry.name], everyone="all" in names)
        notes += left_out
        wanted[entry.name] = (tuple(h.name for h in kept), scope)
    steps = []
    for name, synced in sorted(state.items()):
        hosts, scope = wanted.get(name, ((), synced.scope))
        gone = tuple(h for h in synced.hosts if h not in hosts or scope != synced.scope)
        if gone:
            steps.append(Step("uninstall", name, gone, synced.scope))
    steps += [Step("install", name, hosts, scope, bundles[name]) for name, (hosts, scope) in wanted.items() if hosts]
    return steps, {name: hosts for name, (hosts, _) in wanted.items() if hosts}


def _machine_only(hosts: list, bundle: Bundle, scope: str, root: Path) -> list[tuple]:
    """The hosts whose committed file could name the bundle's folder only by this machine's path
    (an agent with no project variable), with why; none at user scope, which is this machine's."""
    from hookweave.core.plan.portable import machine_only
    from hookweave.core.usecases import installer

    return [(host, f"{host.title} has no variable for the project folder") for host in hosts
            if machine_only(bundle, installer.target(host, scope, root), root)]


def _differences(out: Outcome) -> list[str]:
    from hookweave.core.usecases.api import unified_diff

    found = []
    for plan in out.plans:
        if plan.old_text != plan.new_text:
            found.append(f"{plan.target.shown} differs from what the project file yields:\n{unified_diff(plan)}")
        elif plan.old_record != plan.new_record and plan.target.record_path is not None:
            found.append(f"{paths.display(plan.target.record_path)} differs from what the project file yields")
    for path, old, new in out.texts:
        if old != new:
            found.append(f"{paths.display(path)} is not what hooks sync writes (run hooks sync and commit it)")
    return found
