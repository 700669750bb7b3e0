"""Git sources: a rev resolved to its full commit, the files of a pinned commit, the newest tag.

Fetching is tried first; when the network or the remote is gone, a cache that already holds the
pinned commit is used as it is (a clone of a repository whose remote went away still syncs). A tag
that now names another commit than the pin is refused: tags are meant not to move, and a bundle is
code the agent runs on every tool call.
"""

from __future__ import annotations

from hookweave.core.errors import Refused
from hookweave.core.files import gitremote
from hookweave.core.model import bundlefiles
from hookweave.core.model.projectfile import Entry

Files = dict[str, tuple[bytes, bool]]


def cache_for(url: str, needed: str | None) -> tuple[object, bool]:
    """The cache of ``url``, fetched now when possible; ``(cache, fetched)``. Offline, a cache that
    holds ``needed`` serves; else git's failure is the error."""
    try:
        return gitremote.fetch(url), True
    except gitremote.GitFailed:
        cache = gitremote.cached(url)
        if cache is not None and needed and gitremote.has_commit(cache, needed):
            return cache, False
        raise


def pinned_files(entry: Entry, *, keep_commit: bool, force: bool) -> tuple[Files, dict[str, str]]:
    """The files the entry's pin names, and the pin keys to write (rev, commit, hash) when new."""
    rev = entry.rev or "HEAD"
    cache, fetched = cache_for(entry.source, entry.commit if keep_commit else None)
    commit = entry.commit if keep_commit else None
    if fetched or commit is None:
        now, kind = _resolve(cache, rev, entry.source)
        if commit is not None and now != commit and kind == "tag" and not force:
            raise Refused(f"bundle {entry.name}: tag {rev} of {entry.source} now names commit {now[:12]}, not the "
                          f"pinned {commit[:12]}: the tag moved; nothing written. Read the change with hooks autoupdate "
                          f"{entry.name} --rev {rev} --dry-run, then take it with hooks sync --force")
        if commit is None or (kind == "tag" and force):
            commit = now
    files = gitremote.files_at(cache, commit, entry.path, entry.source)
    new_hash = bundlefiles.content_hash(files)
    if entry.hash and entry.commit == commit and new_hash != entry.hash and not force:
        raise Refused(f"bundle {entry.name}: commit {commit[:12]} of {entry.source} holds other files than the pinned "
                      "hash says; nothing written. Check the source (path =?), then take them with hooks sync --force")
    pin = {"rev": entry.rev or rev, "commit": commit, "hash": new_hash}
    return files, {k: v for k, v in pin.items() if getattr(entry, k) != v}


def _resolve(cache, rev: str, url: str) -> tuple[str, str]:
    if rev == "HEAD":  # no rev given: the remote's default branch, as git clone takes it
        return gitremote.default_branch_commit(cache, url), "branch"
    return gitremote.resolve(cache, rev, url)


def newest(entry: Entry, rev: str | None) -> tuple[str, str, Files]:
    """``(rev, commit, files)`` of ``rev``, or else of the newest tag (else the branch the entry
    follows): what ``hooks autoupdate`` moves the pin to."""
    cache, _ = cache_for(entry.source, None)
    if rev is None:
        tags = gitremote.tags(cache)
        rev = tags[0] if tags else (entry.rev or "HEAD")
    commit, _ = _resolve(cache, rev, entry.source)
    return rev, commit, gitremote.files_at(cache, commit, entry.path, entry.source)
