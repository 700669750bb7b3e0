"""The only module that touches the disk: reads, locks, and atomic compare-and-swap writes.

Only regular files are read or written: a FIFO, socket or device is refused before it is opened
(and checked again on the open descriptor), so nothing blocks forever. Writes go to a temp file
beside the real target (a symlink is followed, and stays a link), are fsynced, get the old file's
mode, owner, group and extended attributes (ACLs), and replace the target only if it still holds the bytes we planned from;
hosts write these files too and take no lock of ours. A hard-linked file is refused, or, with
``HOOKWEAVE_WRITE_IN_PLACE=1``, rewritten in place under the same compare step.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from hookweave.core.errors import BadInput
from hookweave.core.files import filecheck, readcontext
from hookweave.core.files.readcontext import confined, forget_reads, one_read_per_file, realpath
from hookweave.core.files.filelock import (
    STALE_TEMP_SECONDS,
    TEMP_SUFFIX,
    existing_ancestor,
    locked,
    real,
    remove_stale_temps,
)
from hookweave.core.files.paths import display, printable

__all__ = ["STALE_TEMP_SECONDS", "TEMP_SUFFIX", "locked", "remove_stale_temps", "read_text", "owner_and_mode",
           "give_owner_and_mode", "check_writable", "write_text", "missing_folders", "remove_empty_dir",
           "remove_empty_dirs", "confined", "one_read_per_file", "forget_reads", "realpath"]

_OPEN_FLAGS = os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC  # a FIFO swapped in after our look cannot block the open


def read_text(path: Path) -> str | None:
    """The file's text, or ``None`` when it does not exist. Refuses what we could not write back."""
    if not readcontext.may_read(path):
        return None
    info = _stat(path)
    if info is None:
        return None
    problem = filecheck.not_regular(path, info)
    if problem:
        raise problem
    kept = readcontext.kept_text(path, info)
    if kept is not None:
        return kept
    data, info = _read_bytes(path)
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{display(path)}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    readcontext.keep(path, info, text)
    return text


def _read_bytes(path: Path) -> tuple[bytes | None, os.stat_result | None]:
    """The bytes and the open file's own ``fstat`` (what was read, should the file be replaced meanwhile)."""
    try:
        fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        raise _unreadable(path, exc) from None
    try:
        info = os.fstat(fd)
        problem = filecheck.not_regular(path, info)
        if problem:
            raise problem
        return _read_all(fd), info
    except OSError as exc:
        raise _unreadable(path, exc) from None
    finally:
        os.close(fd)


def _stat(path: Path, shown: Path | None = None) -> os.stat_result | None:
    """``stat`` following links; ``None`` when nothing is there, one line (naming ``shown``, the
    path as the operator gave it) for every other failure."""
    shown = shown or path
    try:
        return os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise BadInput(f"{display(shown)}: a symlink to {printable(os.readlink(path))}, which does not exist; "
                           "fix or remove the link") from None
        return None
    except NotADirectoryError:
        raise _file_for_folder(shown) from None
    except OSError as exc:
        raise _unreadable(shown, exc) from None


def _unreadable(path: Path, exc: OSError) -> BadInput:
    if exc.errno == errno.ELOOP:
        return BadInput(f"{display(path)}: a symlink loop; fix the symlink")
    if exc.errno == errno.EISDIR:
        return BadInput(f"{display(path)}: is a folder, not a settings file; move it away")
    return BadInput(f"{display(path)}: cannot read it ({exc.strerror}); fix its permissions")


def _read_all(fd: int) -> bytes:
    # One read of the whole size (and a byte more, to see a file that grew) is one buffer; chunks
    # joined would hold the file twice, and a big file's read is an install's memory peak.
    first = os.read(fd, os.fstat(fd).st_size + 1)
    chunks = [first]
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return first if len(chunks) == 1 else b"".join(chunks)


def owner_and_mode(path: Path) -> tuple[int, int, int] | None:
    """The uid, gid and permission bits of what is at ``path`` (links followed), ``None`` if nothing is."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)


def give_owner_and_mode(path: Path, uid: int, gid: int, mode: int) -> None:
    """Put back what ``owner_and_mode`` said (a rolled-back write that had given a file to root)."""
    os.chown(path, uid, gid)
    os.chmod(path, mode)  # after chown, which clears set-id bits


def check_writable(path: Path) -> None:
    """Refuse before planning what a write would fail on or damage: not a regular file, read-only
    or immutable, a hard link the swap would split, an owner we could not give back."""
    target = real(path)
    if os.path.islink(target):
        raise BadInput(f"{display(path)}: a symlink loop; fix the symlink")
    info = _stat(target, path)
    if info is not None:
        problem = filecheck.not_regular(path, info) or filecheck.needs_root(target.parent)
        if problem:
            raise problem
        if not info.st_mode & stat.S_IWUSR:
            if str(target).startswith("/nix/store/"):  # home-manager's link: the agent deletes it, hooks and all
                raise BadInput(f"{display(path)}: a link into the read-only Nix store; replace it with a writable "
                               "copy at activation (docs/fleet.md, Nix) rather than a home.file link")
            raise BadInput(f"{display(path)}: the file is read-only; make it writable (chmod u+w) or choose another scope")
        problem = filecheck.immutable(target)
        if problem:
            raise problem
        problem = filecheck.replace_problem(path, info)
        if problem and not filecheck.in_place():
            raise problem
        folder = target.parent
    else:
        folder = existing_ancestor(target.parent)
        if not folder.is_dir():
            raise _file_for_folder(path)
        problem = filecheck.needs_root(folder)
        if problem:
            raise problem
    if not os.access(folder, os.W_OK) or not folder.stat().st_mode & stat.S_IWUSR:
        raise BadInput(f"{display(folder)}: the folder is read-only; make it writable or choose another scope")
    problem = filecheck.immutable(folder, folder=True)
    if problem:
        raise problem


def _file_for_folder(path: Path) -> BadInput:
    """The error for a path whose folder is, in fact, a file (``.claude`` written as a file)."""
    blocker = existing_ancestor(Path(os.path.realpath(path.parent)))
    return BadInput(f"{display(path)}: {display(blocker)} is {filecheck.kind(blocker)}, not a folder; move it away")


def write_text(path: Path, text: str | None, expected: str | None, *, like: Path | None = None,
               mode: int | None = None, data: bytes | None = None) -> None:
    """Replace ``path`` with ``text`` (``None`` deletes it) if it still holds ``expected``.

    A file that exists keeps its mode, owner and group; a new one gets the mode of ``like`` (the
    settings file a record sits beside: the record of a 0600 file is 0600 too) when that exists,
    else the umask's, and the owner and group of ``like``, else of its folder (root writing into
    someone's project makes files that someone owns, as they would have). ``mode``: the file, new or
    replaced, gets exactly that mode and the user this runs as, whatever the umask, folder and old
    file (an agent's managed layer: read by every user, and Copilot skips a file root does not own
    or others may write); folders made for it get that mode with search bits.

    Hosts save these files without our lock, so "compare, then rename" would lose a save that lands
    between the two. Where the system can (Linux ``renameat2``), the new file is exchanged with the
    old one atomically and what comes out is checked: not the text we planned from means a host
    saved in between, and its file is put back (``Conflict``: we plan again).

    An ``OSError`` names ``path``, never the temp file it came from. ``data``: ``text`` encoded as
    UTF-8 already (a caller that checked it can encode), so a big file is not encoded twice.
    """
    forget_reads()  # before and whatever comes of it: the file is ours to read again
    try:
        _write(path, real(path), text, expected, like, mode, data)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None


def missing_folders(paths: list[Path]) -> list[Path]:
    if all(real(path).parent.is_dir() for path in paths):
        return []  # the common case, without loading the write side
    from hookweave.core.files import fileowners  # the write side loads with the commands that write

    return fileowners.missing_folders(paths)


def remove_empty_dir(folder: Path, levels: int = 1) -> None:
    """``levels`` folders a write made, counted as ``missing_folders`` counts them: through a link
    (a managed folder that is a dangling symlink), the folders made are the link's target's."""
    from hookweave.core.files import fileowners

    fileowners.remove_empty_dir(real(folder), levels)


def remove_empty_dirs(folders: list[Path]) -> None:
    from hookweave.core.files import fileowners

    fileowners.remove_empty_dirs(folders)


def _write(shown: Path, target: Path, text: str | None, expected: str | None, like: Path | None,
           fixed: int | None = None, data: bytes | None = None) -> None:
    from hookweave.core.files import fileowners, fileswap

    # Bytes, compared a slice at a time with the file (``fileswap.holds``): a big file's text is
    # never decoded again nor held twice while it is written.
    old = expected.encode("utf-8") if expected is not None else None
    info = _stat(target, shown)
    problem = filecheck.not_regular(shown, info) if info is not None else None
    if problem:
        raise problem
    if not fileswap.holds(target, old):
        raise fileswap.conflict(shown)
    if text is None:
        if old is not None:
            fileswap.delete(target, old, shown)
        return
    if expected is not None:
        info = os.stat(target)
        if filecheck.in_place() and filecheck.replace_problem(shown, info) is not None:
            _write_in_place(target, text, expected, shown)
            return
        mode, owner = info.st_mode & 0o7777, (info.st_uid, info.st_gid)
        if fixed is not None:  # an agent's managed drop-in: as a new one is, whoever had taken it over
            mode, owner = fixed, (os.geteuid(), os.getegid()) if hasattr(os, "geteuid") else owner
    else:
        fileowners.make_folders(target.parent, None if fixed is None else fixed | (fixed & 0o444) >> 2)
        mode, owner = fileowners.new_file_mode(like), fileowners.owner_of(like, target.parent)
        if fixed is not None:
            mode, owner = fixed, (os.geteuid(), os.getegid()) if hasattr(os, "geteuid") else owner
        if text.startswith("#!"):  # a script we create (Cline's dispatcher) runs: execute wherever it reads
            mode |= (mode & 0o444) >> 2
    if data is None:
        data = text.encode("utf-8")
    fd, tmp = fileswap.new_temp(target)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        fileowners.give(tmp, owner, strict=expected is not None)
        os.chmod(tmp, mode)  # after chown, which clears set-id bits
        if expected is not None and fixed is None:
            fileowners.copy_xattrs(target, tmp)  # after chmod: an ACL carries the mode bits too
        _test_pause()
        fileswap.swap_in(tmp, target, old, data, shown)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)  # on success it holds the old file, or is gone (plain rename)
    fileswap.fsync_dir(target.parent)


def _write_in_place(target: Path, text: str, expected: str, shown: Path) -> None:
    """Rewrite the same inode, so every hard link, the owner, group, mode and ACLs stay. Not
    atomic: the compare is repeated just before the write, and the write is one call."""
    from hookweave.core.files import fileswap

    fd = os.open(target, os.O_RDWR | _OPEN_FLAGS)
    try:
        problem = filecheck.not_regular(shown, os.fstat(fd))
        if problem:
            raise problem
        old = expected.encode("utf-8")
        if _read_all(fd) != old:
            raise fileswap.conflict(shown)
        _test_pause()
        if os.pread(fd, len(old) + 1, 0) != old:
            raise fileswap.conflict(shown)
        data = text.encode("utf-8")
        written = os.pwrite(fd, data, 0)
        while written < len(data):
            written += os.pwrite(fd, data[written:], written)
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)


def _test_pause() -> None:
    """TEST-ONLY: ``HOOKWEAVE_TEST_SLOW_WRITE=<seconds>`` stalls every write inside its critical
    section (temp file written, not yet swapped in), so attack tests can land a host save or a
    signal there at will. Never set it otherwise."""
    delay = os.environ.get("HOOKWEAVE_TEST_SLOW_WRITE")
    if delay:
        import time

        time.sleep(float(delay))
