"""Where each bundle of the project file comes from, and what the repository must hold of it.

A folder source is the repository's own. A template or git source is vendored into
``.hookweave/bundles/NAME`` and pinned: a git source to the full commit its rev resolved to, both to
the hash of its files. The vendored copy, when it matches its pin, is the truth: sync then needs
neither git nor the network, and ``sync --check`` never uses them. A copy edited by hand, or a tag
that moved, is refused (exit 1) naming the files, unless ``--force`` takes the pinned or new
content.
"""

from __future__ import annotations

from pathlib import Path

from hookweave.core.errors import BadInput, Refused
from hookweave.core.files import paths, vendor
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.model import bundlefiles, syncstate
from hookweave.core.model.projectfile import VENDOR_DIR, Entry

Files = dict[str, tuple[bytes, bool]]


class Source(FieldTuple):
    entry: Entry
    folder: Path  # where the bundle is (or will be) in the repository
    files: Files | None  # a new vendored copy to put in place; None: the folder stays as it is
    pin: dict[str, str]  # project-file keys to set (rev, commit, hash)
    digests: dict[str, str]  # per file, for the state (vendored sources)
    problems: list[str]  # for sync --check: what differs from the pin


def vendored_folder(root: Path, name: str) -> Path:
    return root / VENDOR_DIR / name


def resolve(root: Path, entry: Entry, synced: syncstate.Synced | None, *, check: bool, force: bool) -> Source:
    if entry.kind == "folder":
        return Source(entry, _folder(root, entry), None, {}, {}, [])
    folder = vendored_folder(root, entry.name)
    have = vendor.read_tree(folder)
    recorded = synced.files if synced else {}
    digests = syncstate.file_digests(have) if have is not None else {}
    matches = have is not None and entry.hash is not None and bundlefiles.content_hash(have) == entry.hash
    if have is not None and not matches and entry.hash and digests != recorded:  # not what sync vendored
        edited = syncstate.edited(recorded, digests) if recorded else []
        named = (", ".join(edited[:5]) + (f" and {len(edited) - 5} more" if len(edited) > 5 else "")
                 + (" differs" if len(edited) == 1 else " differ")) if edited else "its files differ"
        shown = paths.display(folder)
        if check:
            return Source(entry, folder, None, {}, {}, [f"{shown}: {named} from the pin (edited by hand); "
                                                         f"put them back (git checkout -- {shown})"])
        if not force:
            raise Refused(f"{shown}: {named} from the pin in the project file (edited by hand); nothing "
                          f"written. Put them back (git checkout -- {shown}), or run hooks sync --force to restore "
                          "the pinned files (your edits are lost)")
    stale_rev = entry.kind == "git" and synced is not None and synced.rev is not None and synced.rev != entry.rev
    if matches and not stale_rev and (entry.kind != "git" or entry.commit):
        return Source(entry, folder, None, {}, digests, [])
    if check:
        why = ("is not vendored" if have is None else "is not pinned" if not entry.hash else
               f"has rev {entry.rev!r}, not the pinned one" if stale_rev else "has no commit" if not entry.commit
               else "differs from its new pin")
        return Source(entry, folder, None, {}, {}, [f"bundle {entry.name} {why}; run hooks sync and commit what it writes"])
    if entry.kind == "template":
        files, pin = template_files(entry, force)
    else:
        from hookweave.core.usecases import remotes

        files, pin = remotes.pinned_files(entry, keep_commit=not stale_rev, force=force)
    return Source(entry, folder, None if files == have else files, pin, syncstate.file_digests(files), [])


def _folder(root: Path, entry: Entry) -> Path:
    from hookweave.core.plan.portable import inside

    folder = (root / entry.source)
    if inside(folder, root) is None:
        raise BadInput(f"{paths.display(root / '.hookweave.toml')}: bundle {entry.name}: source {entry.source!r} is "
                       "outside the repository, so its paths would hold on this machine only; move it into the "
                       "repository, or give its git URL (hooks add URL) to vendor it")
    if not (folder / "hookweave.toml").is_file():
        raise BadInput(f"{paths.display(root / '.hookweave.toml')}: bundle {entry.name}: {paths.display(folder)} has "
                       "no hookweave.toml; fix source, or write the manifest (hooks init)")
    return folder


def template_files(entry: Entry, force: bool) -> tuple[Files, dict[str, str]]:
    from hookweave.core.model.loading import template_dir, template_names

    shipped = template_dir() / entry.source
    files = vendor.read_tree(shipped) if (shipped / "hookweave.toml").is_file() else None
    if files is None:
        raise BadInput(f"bundle {entry.name}: no template {entry.source!r} (templates: {', '.join(template_names())})")
    new_hash = bundlefiles.content_hash(files)
    if entry.hash and new_hash != entry.hash and not force:
        raise Refused(f"bundle {entry.name}: this hookweave's template {entry.source} differs from the pinned hash; "
                      f"nothing written. Run hooks autoupdate {entry.name} to read the change and take it")
    return files, {"hash": new_hash} if new_hash != entry.hash else {}
