"""What a command's reads see (``fileio.read_text``): the folder they are confined to, and the texts
already read, so a file read again in the same command gives the same text object.

So the parse kept by identity (``jsontext.load``) is reused too: a no-op install met the same few
files 3 times each (the plan, the gates, the cross-agent check). ``fileio.read_text`` still stats
every file and checks it is a regular file on every read; only a file whose signature (device,
inode, size, mtime, ctime) is the one read before gives the kept text, and any write of ours
forgets every text kept. Nothing is kept outside ``one_read_per_file`` (the next command, tests).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from hookweave.core.files.paths import within

_kept: dict[Path, tuple[tuple, str]] | None = None  # within ``one_read_per_file``: path -> (signature, text)
_real: dict[str, str] = {}  # within ``one_read_per_file``: path -> its ``realpath``
_confined: list[Path] = []  # the folders ``confined`` holds reads to, innermost last


@contextlib.contextmanager
def confined(folder: Path):
    """While open, ``read_text`` finds no file outside ``folder`` (``None``, as for a missing one).
    ``verify --repo`` judges the repository alone: no code path of it, a host's ``settings_path``
    that looks into the user's config.toml included, may read (or depend on) this machine's files."""
    _confined.append(folder)
    try:
        yield
    finally:
        _confined.pop()


def may_read(path: Path) -> bool:
    """Whether ``confined`` lets a read see ``path`` (outside it, a file reads as missing)."""
    return not _confined or within(path, _confined[-1])


@contextlib.contextmanager
def one_read_per_file():
    """While open (one command), texts read are kept for the reads after (nested: the outer keeps)."""
    global _kept
    outer = _kept
    _kept = {} if outer is None else outer
    try:
        yield
    finally:
        _kept = outer
        if outer is None:
            _real.clear()


def forget_reads() -> None:
    """Read every file afresh from now on (a write of ours, or a host's save that made us plan again)."""
    if _kept:
        _kept.clear()
    _real.clear()


def realpath(path: Path | str) -> str:
    """``os.path.realpath(path)``, once per path in a command (``one_read_per_file``; outside one,
    every time): verify and install ask which scopes share a file up to four times for each host, a
    ``realpath`` costing a system call per folder of the path and more in Python."""
    key = os.fspath(path)
    if _kept is None:
        return os.path.realpath(key)
    found = _real.get(key)
    if found is None:
        found = _real[key] = os.path.realpath(key)
    return found


def kept_text(path: Path, info: os.stat_result) -> str | None:
    """The text read before from ``path``, if the file is still the one read (same signature)."""
    kept = _kept.get(path) if _kept is not None else None
    return kept[1] if kept is not None and kept[0] == _signature(info) else None


def keep(path: Path, info: os.stat_result, text: str) -> None:
    """Keep ``text``, read from the file ``info`` describes, for the rest of the command."""
    if _kept is not None:
        _kept[path] = (_signature(info), text)


def _signature(info: os.stat_result) -> tuple:
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns
