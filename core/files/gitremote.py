"""Remote bundles through the system ``git``: a cache of fetched repositories, pinned commits and
their files (part of the disk IO, with the processes it starts).

Each URL has a bare repository under ``$XDG_CACHE_HOME/hookweave/git/`` holding every branch and
tag the remote had at the last fetch, so a pinned commit seen once is read again offline. git never
asks anything (``GIT_TERMINAL_PROMPT=0``, no askpass): a remote that needs credentials fails with
git's own words, on one line, and nothing is written.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tarfile
import tempfile
from pathlib import Path

from hookweave.core.errors import BadInput
from hookweave.core.files import paths

TAGS, HEADS = "refs/hookweave/tags/", "refs/hookweave/heads/"
_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": "", "GCM_INTERACTIVE": "never",
        "GIT_SSH_COMMAND": os.environ.get("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")}


class GitFailed(BadInput):
    """git could not do it: no such repository or rev, no network, no access."""


def cache_root() -> Path:
    return paths.from_env("XDG_CACHE_HOME", paths.home() / ".cache") / "hookweave" / "git"


def cache_of(url: str) -> Path:
    tail = re.sub(r"[^A-Za-z0-9._-]+", "-", url.rstrip("/").rsplit("/", 1)[-1])[:40]
    return cache_root() / f"{tail}-{hashlib.sha256(url.encode()).hexdigest()[:16]}.git"


def _git(args: list[str], *, what: str, cwd: Path | None = None, binary: bool = False) -> bytes | str:
    env = {**os.environ, **_ENV}
    try:
        done = subprocess.run(["git", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=600)
    except FileNotFoundError:
        raise GitFailed(f"{what}: git is not installed; install git (remote bundles are fetched with it)") from None
    except subprocess.TimeoutExpired:
        raise GitFailed(f"{what}: git took more than 10 minutes; check the network, then run it again") from None
    if done.returncode != 0:
        said = [line.strip() for line in done.stderr.decode(errors="replace").splitlines() if line.strip()]
        words = "; ".join(line.removeprefix("fatal: ").removeprefix("error: ") for line in said[-2:]) or "no message"
        raise GitFailed(f"{what}: git says: {paths.printable(words)}")
    return done.stdout if binary else done.stdout.decode(errors="replace")


def fetch(url: str) -> Path:
    """Bring every branch and tag of ``url`` into its cache; returns the cache's folder."""
    cache = cache_of(url)
    if not (cache / "HEAD").exists():
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=cache.name + ".", dir=cache.parent))
        _git(["init", "--quiet", "--bare", str(tmp)], what=f"cache for {url}")
        try:
            _fetch_into(tmp, url)
            os.replace(tmp, cache)
        except BaseException:
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return cache
    _fetch_into(cache, url)
    return cache


def _fetch_into(cache: Path, url: str) -> None:
    _git(["--git-dir", str(cache), "fetch", "--quiet", "--prune", "--force", "--no-write-fetch-head", "--",
          url, "+HEAD:refs/hookweave/HEAD", f"+refs/heads/*:{HEADS}*", f"+refs/tags/*:{TAGS}*"], what=f"fetching {url}")


def cached(url: str) -> Path | None:
    cache = cache_of(url)
    return cache if (cache / "HEAD").exists() else None


def resolve(cache: Path, rev: str, url: str) -> tuple[str, str]:
    """``rev`` (a tag, a branch, or a commit id) as a full commit id, and which kind it was."""
    for ref, kind in ((TAGS + rev, "tag"), (HEADS + rev, "branch")):
        commit = _peel(cache, ref)
        if commit:
            return commit, kind
    if re.fullmatch(r"[0-9a-f]{7,64}", rev):
        commit = _peel(cache, rev)
        if commit:
            return commit, "commit"
    raise GitFailed(f"{url}: no tag, branch or commit {paths.printable(rev)!r}; "
                    "git ls-remote URL lists what it has")


def _peel(cache: Path, ref: str) -> str | None:
    try:
        return str(_git(["--git-dir", str(cache), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
                        what="rev-parse")).strip() or None
    except GitFailed:
        return None


def default_branch_commit(cache: Path, url: str) -> str:
    commit = _peel(cache, "refs/hookweave/HEAD")
    if not commit:
        raise GitFailed(f"{url}: the remote has no default branch; name a tag or branch with --rev")
    return commit


def has_commit(cache: Path, commit: str) -> bool:
    return _peel(cache, commit) == commit


def tags(cache: Path) -> list[str]:
    """The tags, newest version first (git's own version sort: v1.10 after v1.9)."""
    out = str(_git(["--git-dir", str(cache), "for-each-ref", "--sort=-v:refname", "--format=%(refname)", TAGS],
                   what="listing tags"))
    return [line[len(TAGS):] for line in out.splitlines() if line.startswith(TAGS)]


def files_at(cache: Path, commit: str, inner: str | None, url: str) -> dict[str, tuple[bytes, bool]]:
    """The files of ``commit`` (under ``inner``), as ``{posix path: (bytes, executable)}``. A
    symlink or anything else that is not a plain file is refused: a vendored bundle is plain files."""
    spec = f"{commit}:{inner}" if inner else commit
    where = f"{url} at {commit[:12]}" + (f", {inner}" if inner else "")
    blob = _git(["--git-dir", str(cache), "archive", "--format=tar", spec], what=where, binary=True)
    import io

    out: dict[str, tuple[bytes, bool]] = {}
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        for member in tar.getmembers():
            if member.isdir() or member.name == "pax_global_header" or member.type == tarfile.XGLTYPE:
                continue
            if not member.isfile():
                raise GitFailed(f"{where}: {paths.printable(member.name)} is a symlink or special file; a bundle "
                                "holds plain files only (vendored into the repository)")
            name = Path(member.name)
            if name.is_absolute() or ".." in name.parts:  # git never writes these; a forged archive could
                raise GitFailed(f"{where}: {paths.printable(member.name)} points outside the bundle's folder")
            data = tar.extractfile(member)
            out[name.as_posix()] = (data.read() if data else b"", bool(member.mode & 0o111))
    if not out:
        raise GitFailed(f"{where}: no files there; check the bundle's path")
    return out
