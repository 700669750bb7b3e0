"""``hooks add``, ``hooks remove`` and ``hooks autoupdate``: edit the project file, then sync.

Each writes the project file and syncs as one step: should the sync refuse or fail, the project
file is put back as it was, so the repository is never left with a file that says one thing and
agents' files that say another.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.errors import BadInput
from hookweave.core.files import fileio, paths
from hookweave.core.formats import projecttoml
from hookweave.core.model import bundlefiles, projectfile
from hookweave.core.usecases import sync

if TYPE_CHECKING:
    from hookweave.core.contract.registry import HostRegistry


def root_for_new(start: Path) -> Path:
    """Where ``hooks add`` keeps the project file: the existing one's folder, else the git root,
    else here."""
    return sync.find_root(start) or paths.git_root(start) or start


def add(start: Path, registry: HostRegistry, source: str, *, rev: str | None, hosts: list[str] | None,
        scope: str | None, dry_run: bool) -> tuple[sync.Outcome, str]:
    root = root_for_new(start)
    path = root / projectfile.FILE_NAME
    old = fileio.read_text(path)
    if old is None and not hosts:
        raise BadInput(f"hooks add: name the agents (--host claude --host codex ...); they go into "
                       f"{paths.display(path)} for every bundle")
    text = old if old is not None else projecttoml.new_file(hosts or [])
    pf = projectfile.parse(text, Path(paths.display(path)), registry.names())
    kind = projectfile.source_kind(source)
    if kind == "template" and (start / source / "hookweave.toml").is_file():
        kind = "folder"  # a folder named here without a slash: the file records it from the root, with one
    if rev is not None and kind != "git":
        raise BadInput(f"hooks add: --rev is for a git source; {source!r} is a {kind}")
    fields, name = _entry_fields(root, start, source, kind, rev)
    if pf.entry(name) is not None:
        raise BadInput(f"{paths.display(path)}: bundle {name} is there already; hooks remove {name} first, or edit "
                       "its entry and run hooks sync")
    if hosts and old is not None and tuple(hosts) != pf.hosts:
        fields["hosts"] = list(hosts)
    if scope is not None and scope != pf.scope:
        fields["scope"] = scope
    new = projecttoml.add_entry(text, {"name": name, **fields})
    return _write_and_sync(root, registry, path, old, new, dry_run=dry_run), name


def _entry_fields(root: Path, start: Path, source: str, kind: str, rev: str | None) -> tuple[dict, str]:
    """The entry's keys and the bundle's name (its manifest's), read from the source."""
    from hookweave.core.model import manifest

    if kind == "folder":
        folder = Path(os.path.normpath(start / source))
        from hookweave.core.plan.portable import inside

        relative = inside(folder, root)
        if relative is None:
            raise BadInput(f"hooks add: {source} is outside the repository ({paths.display(root)}), so every path to "
                           "it would hold on this machine only; move it inside, or add it by its git URL")
        text = fileio.read_text(folder / "hookweave.toml")
        if text is None:
            raise BadInput(f"hooks add: {source} has no hookweave.toml; write one (hooks init {source})")
        return {"source": relative}, manifest.parse_manifest(text, folder / "hookweave.toml").name
    if kind == "template":
        from hookweave.core.model import loading

        return {"source": source}, loading.load_bundle(source).name
    from hookweave.core.usecases import remotes

    chosen, commit, files = remotes.newest(projectfile.Entry("new", source, "git"), rev)
    if "hookweave.toml" not in files:
        raise BadInput(f"hooks add: {source} at {chosen} has no hookweave.toml at its top; a bundle repository "
                       "holds its manifest there")
    name = manifest.parse_manifest(files["hookweave.toml"][0].decode("utf-8", "replace"), Path(f"{source}/hookweave.toml")).name
    return {"source": source, "rev": chosen, "commit": commit, "hash": bundlefiles.content_hash(files)}, name


def remove(start: Path, registry: HostRegistry, name: str, *, dry_run: bool) -> sync.Outcome:
    root = sync.root_or_fail(start)
    path = root / projectfile.FILE_NAME
    old = fileio.read_text(path) or ""
    pf = projectfile.parse(old, Path(paths.display(path)), registry.names())
    if pf.entry(name) is None:
        import difflib

        names = [e.name for e in pf.entries]
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"did you mean {close[0]}?" if close else f"it lists: {', '.join(names) or 'no bundle'}"
        raise BadInput(f"{paths.display(path)}: no bundle {paths.printable(name)}; {hint}")
    return _write_and_sync(root, registry, path, old, projecttoml.remove_entry(old, name), dry_run=dry_run)


def autoupdate(start: Path, registry: HostRegistry, name: str | None, *, rev: str | None,
               dry_run: bool) -> tuple[sync.Outcome | None, list[tuple[str, str, str]]]:
    """Move each git bundle (or ``name``) to its newest tag (or ``rev``); returns the sync and, per
    bundle moved, ``(name, what moved, the diff of its files)``."""
    from hookweave.core.files import vendor
    from hookweave.core.usecases import bundlesources, remotes

    root = sync.root_or_fail(start)
    path = root / projectfile.FILE_NAME
    old = fileio.read_text(path) or ""
    pf = projectfile.parse(old, Path(paths.display(path)), registry.names())
    chosen = [e for e in pf.entries if (name is None and e.kind == "git") or e.name == name]
    if name is not None and not chosen:
        raise BadInput(f"{paths.display(path)}: no bundle {paths.printable(name)} (it lists: "
                       f"{', '.join(e.name for e in pf.entries) or 'no bundle'})")
    if name is not None and chosen[0].kind == "folder":
        raise BadInput(f"bundle {name} is a folder of the repository: it has no pin to move")
    new, moved = old, []
    for entry in chosen:
        if entry.kind == "template":
            files, pin = bundlesources.template_files(entry, force=True)
            label = f"template {entry.source} of this hookweave"
        else:
            new_rev, commit, files = remotes.newest(entry, rev)
            pin = {k: v for k, v in {"rev": new_rev, "commit": commit, "hash": bundlefiles.content_hash(files)}.items()
                   if getattr(entry, k) != v}
            label = f"{entry.rev or 'HEAD'} ({(entry.commit or '?')[:12]}) -> {new_rev} ({commit[:12]})"
        if not pin:
            continue
        have = vendor.read_tree(bundlesources.vendored_folder(root, entry.name)) or {}
        moved.append((entry.name, label, bundlefiles.diff(have, files, "a/" + entry.name, "b/" + entry.name)))
        new = projecttoml.set_fields(new, entry.name, pin)
    if new == old:
        return None, moved
    return _write_and_sync(root, registry, path, old, new, dry_run=dry_run), moved


def _write_and_sync(root: Path, registry: HostRegistry, path: Path, old: str | None, new: str, *,
                    dry_run: bool) -> sync.Outcome:
    if dry_run:
        return sync.sync(root, registry, dry_run=True, text=new)
    fileio.write_text(path, new, old)
    try:
        done = sync.sync(root, registry)
        done.texts[0] = (path, old, done.texts[0][2])  # the edit and the pins sync added: one change to report
        return done
    except BaseException:
        now = fileio.read_text(path)
        if now == new:
            fileio.write_text(path, old, now)
        raise
