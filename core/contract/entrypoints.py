"""Find the installed distributions' entry points of one group without ``importlib.metadata``.

``importlib.metadata.distributions()`` builds a metadata object for every installed distribution
and imports ``email`` to do it: about 10 ms on every command, although hardly any distribution
declares a hookweave plugin. Here each ``sys.path`` folder is listed once, and only the
``entry_points.txt`` files that exist are read (a few bytes each). A folder's distributions are kept
for the process while the folder's own mtime stays the same: installing or removing a distribution
adds or removes a folder in it, which changes that mtime, so a plugin installed or removed a moment
ago is still seen at once (an entry_points.txt edited by hand inside a distribution's folder is
seen when that folder changes). A long-lived process (the test suite, an API user) ran this scan, ~90
files read, on every command: ~3 ms each, a fifth of the contract kit's CPU.

The rules are importlib.metadata's: ``*.dist-info`` and ``*.egg-info`` folders on ``sys.path``, in
path order, and the first distribution of a (normalized) name wins.
"""

from __future__ import annotations

import os
import sys
import time

from hookweave.core.formats.fieldtuple import FieldTuple

PROJECT = "hookweave"  # the entry-point group and pluggy project name (``hookspecs.PROJECT``)
BLOCK_ENV = "HOOKWEAVE_DISABLE_PLUGINS"  # comma-separated entry-point names not to load


def blocked_names() -> list[str]:
    return [name.strip() for name in filter(None, os.environ.get(BLOCK_ENV, "").split(","))]


class EntryPoint(FieldTuple):
    name: str
    value: str  # "module" or "module:attribute"
    dist: str  # the distribution's name, from its metadata
    version: str

    def load(self) -> object:
        import importlib

        module_name, _, attribute = self.value.partition(":")
        target: object = importlib.import_module(module_name.strip())
        for part in filter(None, attribute.strip().split(".")):
            target = getattr(target, part)
        return target


def entry_points(group: str, path: list[str] | None = None) -> list[EntryPoint]:
    """Every entry point of ``group`` declared by the distributions on ``path`` (``sys.path``)."""
    found: list[EntryPoint] = []
    seen: set[str] = set()
    header = f"[{group}]".encode()
    for folder in path if path is not None else sys.path:
        for meta_dir, stem, data in _distributions(folder or "."):
            key = _normalize(stem.split("-")[0])
            if key in seen:
                continue
            seen.add(key)
            declared = _section(data.decode("utf-8", "replace"), group) if header in data else []
            if declared:
                dist, version = _name_and_version(meta_dir, stem)
                found += [EntryPoint(name, value, dist, version) for name, value in declared]
    return found


# A folder changed this recently is listed again: two changes within one tick of the file system's
# clock (a few ms) leave one mtime, and the second would go unseen.
SETTLED_NS = 2_000_000_000
_kept: dict[tuple[int, int], tuple[int, list[tuple[str, str, bytes]]]] = {}  # (device, inode): (mtime, found)


def _distributions(folder: str) -> list[tuple[str, str, bytes]]:
    """``(metadata folder, its stem, its entry_points.txt bytes)`` of every distribution in ``folder``,
    kept while the folder's mtime stays (keyed by the folder itself: ``""`` on sys.path is the
    working folder, whichever it is at the time)."""
    try:
        info = os.stat(folder)
    except OSError:  # a missing folder, or a path hook's name
        return []
    where = (info.st_dev, info.st_ino)
    kept = _kept.get(where)
    if kept is not None and kept[0] == info.st_mtime_ns:
        return kept[1]
    found = [(meta_dir, stem, _read_bytes(meta_dir + _ENTRY_POINTS)) for meta_dir, stem in _metadata_dirs(folder)]
    if time.time_ns() - info.st_mtime_ns > SETTLED_NS:
        _kept[where] = (info.st_mtime_ns, found)
    return found


def _metadata_dirs(folder: str) -> list[tuple[str, str]]:
    try:
        names = os.listdir(folder)
    except OSError:  # a zip file, a missing folder, a file
        return []
    # One search of all the names for a folder without distributions (the standard library's two
    # folders: 280 names, looked at one by one for 0.3 million instructions); a name holds no NUL.
    joined = "\0".join(names) + "\0"
    if ".dist-info\0" not in joined and ".egg-info\0" not in joined:
        return []
    prefix = os.path.join(folder, "")  # os.path.join(folder, name) for each, joined once (~90 names a command)
    # No isdir: importlib.metadata takes every such name too, and a file of that name has no
    # entry_points.txt to read. A stat per installed distribution was ~80 system calls on every
    # command in a development environment.
    return [(prefix + name, name.rpartition(".")[0]) for name in names if name.endswith(_METADATA)]


_METADATA = (".dist-info", ".egg-info")


_ENTRY_POINTS = os.sep + "entry_points.txt"  # os.path.join(meta_dir, ...): meta_dir never ends in a separator


def _read_bytes(path: str) -> bytes:
    """The file's bytes, ``b""`` when it cannot be read: a few system calls and no text layer. Every
    command reads each installed distribution's ``entry_points.txt`` (89 distributions in the
    development environment, 38 with the file), and a bytes search for our group rules out nearly
    all before any decoding: 5.4 million instructions with ``open(...).read()``, 3.8 this way."""
    if not os.access(path, os.R_OK):  # most distributions have none: no exception raised and caught for them
        return b""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return b""
    try:
        chunks = []
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _section(text: str, group: str) -> list[tuple[str, str]]:
    """``(name, value)`` pairs of the INI section ``[group]`` (entry_points.txt's format)."""
    pairs, inside = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
        elif inside and "=" in line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            pairs.append((name.strip(), value.strip()))
    return pairs


def _name_and_version(meta_dir: str, stem: str) -> tuple[str, str]:
    """The ``Name`` and ``Version`` headers of the distribution's metadata (the folder name's as fallback)."""
    headers = {}
    for file in ("METADATA", "PKG-INFO"):
        text = _read_bytes(os.path.join(meta_dir, file)).decode("utf-8", "replace")
        for line in text.splitlines():
            if not line.strip():
                break  # the headers end at the first blank line
            key, _, value = line.partition(":")
            headers.setdefault(key.strip().lower(), value.strip())
        if headers:
            break
    name, _, version = stem.partition("-")
    return headers.get("name", name), headers.get("version", version)


def _normalize(name: str) -> str:
    """PEP 503's ``re.sub(r"[-_.]+", "-", name).lower()``, without compiling the pattern."""
    name = name.translate(_SEPARATORS)
    while "--" in name:
        name = name.replace("--", "-")
    return name.lower()


_SEPARATORS = str.maketrans("_.", "--")
