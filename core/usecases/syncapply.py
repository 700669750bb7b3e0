"""The writing half of ``hooks sync``: vendored copies put in place or taken away, then every
install and uninstall, all planned before the first write and put back together on a failure."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.errors import BadInput, NotInstalled
from hookweave.core.files import fileio, paths, vendor
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.usecases import bundlesources, installer

if TYPE_CHECKING:
    from hookweave.core.contract.registry import HostRegistry
    from hookweave.core.model import projectfile, syncstate
    from hookweave.core.model.bundle import Bundle
    from hookweave.core.plan.plan import FilePlan


class Step(FieldTuple):
    """One install or uninstall of the run."""

    kind: str  # "install" or "uninstall"
    name: str
    hosts: tuple[str, ...]
    scope: str
    bundle: Bundle | None = None


class Vendoring:
    """New vendored copies in place (or, for a dry run, in a temp folder outside the repository)
    for the span of a sync; put back unless ``keep`` is called."""

    def __init__(self, root: Path, sources: list[bundlesources.Source], state: dict[str, syncstate.Synced],
                 pf: projectfile.ProjectFile, *, dry_run: bool) -> None:
        self.root, self.sources, self.dry_run = root, sources, dry_run
        vendored = {e.name for e in pf.entries if e.vendored}
        self.removed = [name for name, s in sorted(state.items()) if s.files and name not in vendored]
        self.swaps: list[vendor.Swap] = []
        self.staged: dict[str, Path] = {}
        self.done: list[tuple[str, str]] = []
        self.kept = False

    def __enter__(self) -> Vendoring:
        try:
            for source in self.sources:
                if source.files is None:
                    continue
                verb = "updated" if source.folder.exists() else "vendored"
                self.done.append((source.entry.name, f"{verb} {paths.display(source.folder)}"))
                if self.dry_run:
                    temp = Path(tempfile.mkdtemp(prefix="hookweave-sync-"))
                    self.staged[source.entry.name] = temp / source.entry.name
                    vendor.Swap(temp / source.entry.name, source.files).commit()
                else:
                    self.swaps.append(vendor.Swap(source.folder, source.files))
            for name in self.removed:
                folder = bundlesources.vendored_folder(self.root, name)
                if folder.exists():
                    self.done.append((name, f"removed {paths.display(folder)}"))
                    if not self.dry_run:
                        self.swaps.append(vendor.Swap(folder, None))
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def loadable(self, source: bundlesources.Source) -> bool:
        """Its manifest is there (``--check`` compares a copy edited by hand as it is)."""
        return (self.staged.get(source.entry.name, source.folder) / "hookweave.toml").is_file()

    def load(self, source: bundlesources.Source, registry: HostRegistry) -> Bundle:
        """The bundle as the project file asks for it, named by its place in the repository."""
        from hookweave.core.model import loading
        from hookweave.core.usecases import mistakes

        where = self.staged.get(source.entry.name, source.folder)
        bundle = loading.load_bundle(str(where / "hookweave.toml"), registry.names())
        mistakes.errors(bundle, [self.root])
        if where != source.folder:
            bundle = bundle._replace(directory=source.folder, manifest=source.folder / "hookweave.toml")
        return overridden(bundle, source.entry)

    def keep(self) -> None:
        self.kept = True

    def __exit__(self, *exc) -> None:
        from hookweave.core.files import interrupt

        with interrupt.held():  # a stop signal now would leave an old copy aside: it waits for the end
            for swap in reversed(self.swaps):
                swap.commit() if self.kept else swap.undo()
        for folder in self.staged.values():
            shutil.rmtree(folder.parent, ignore_errors=True)


def overridden(bundle: Bundle, entry: projectfile.Entry) -> Bundle:
    """The project file's env values and positions over the manifest's; an unknown name is a typo."""
    import difflib

    def unknown(kind: str, name: str, known: list[str]) -> BadInput:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"the manifest's {kind}s: {', '.join(known) or 'none'}"
        return BadInput(f".hookweave.toml: bundle {entry.name}: {kind} {name!r} is not in its manifest; {hint}")

    env = {v.name: v for v in bundle.env}
    for name, value in entry.env.items():
        if name not in env:
            raise unknown("env var", name, list(env))
        env[name] = env[name]._replace(value=value)
    hooks = {h.id: h for h in bundle.hooks}
    for hook, position in entry.position.items():
        if hook not in hooks:
            raise unknown("hook", hook, list(hooks))
        hooks[hook] = hooks[hook]._replace(position=position)
    return bundle._replace(env=tuple(env.values()), hooks=tuple(hooks.values()))


def apply(root: Path, registry: HostRegistry, steps: list[Step], texts: list[tuple[Path, str | None, str | None]],
          *, force: bool, dry_run: bool) -> list[FilePlan]:
    """Every step planned first (a refusal raises before any write); then, unless ``dry_run``,
    each written, and the project file and state last. A failure puts every file back."""
    preview = [p for step in steps for p in _run(step, root, registry, force=force, dry_run=True)]
    if dry_run:
        return preview
    originals: dict[Path, str | None] = {}
    for plan in preview:
        originals.setdefault(plan.target.path, plan.old_text)
        if plan.target.record_path is not None:
            originals.setdefault(plan.target.record_path, plan.old_record)
    for path, old, _ in texts:
        originals.setdefault(path, old)
    try:
        plans = [p for step in steps for p in _run(step, root, registry, force=force, dry_run=False)]
        for path, old, new in texts:
            if old != new:
                fileio.write_text(path, new, old)
        return plans
    except BaseException:
        _put_back(originals)
        raise


def _run(step: Step, root: Path, registry: HostRegistry, *, force: bool, dry_run: bool) -> list[FilePlan]:
    from hookweave.core.reading import projects

    if step.kind == "uninstall":
        return _uninstall_quietly(step, root, registry, force=force, dry_run=dry_run)
    hosts = registry.resolve(list(step.hosts))
    folder = projects.folders(hosts, str(root))
    targets = [installer.target(h, step.scope, folder[h.name]) for h in hosts]
    return installer.install(targets, step.bundle, folder, force=force, dry_run=dry_run, machine=False)


def _put_back(originals: dict[Path, str | None]) -> None:
    for path, text in originals.items():
        try:
            now = fileio.read_text(path)
            if now != text:
                fileio.write_text(path, text, now)
        except (OSError, BadInput):
            continue  # best effort: the next sync converges, and verify names what is off


def _uninstall_quietly(step: Step, root: Path, registry: HostRegistry, *, force: bool, dry_run: bool) -> list[FilePlan]:
    """A bundle the last sync installed and the file dropped; already gone (taken out by hand) is fine."""
    from hookweave.core.errors import Unrecorded
    from hookweave.core.reading import projects

    hosts = registry.resolve(list(step.hosts))
    folder = projects.folders(hosts, str(root))
    targets = [installer.target(h, step.scope, folder[h.name]) for h in hosts]
    try:
        return installer.uninstall(targets, step.name, folder, force=force, dry_run=dry_run, machine=False)
    except (NotInstalled, Unrecorded):
        return []
