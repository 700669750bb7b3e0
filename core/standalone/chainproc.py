"""The chain runner's members as processes: each in a process group of its own, with files of its
own for stdin, stdout and stderr, read when it ends or when its timeout kills the group. Standard
library only, no hookweave import: install puts this source between ``chainanswer.py``'s and
``chainrun.py``'s in the runner file (``chain.runner_text``), one namespace.

What a member can do wrong, and what the runner does (tests/attack/test_attack_runners.py): a child it
leaves behind writes to its stdout or stdin later (into its own files, which nobody reads then);
a child holds stdout open, in its group or out of it (never waited for: the runner waits for the
member's own process); it ignores SIGTERM (SIGKILL); it leaves its process group (killed by pid
too); it floods its output (``KEEP`` bytes read); its timeout word is no usable number (``inf``,
``nan``, ``1e300``, ``-5``, ``0``, in a hand-edited registration: no timeout of ours).
"""

import _signal  # what ``signal`` wraps, built into the interpreter
import _thread
import posix
import time

# How each host runs a command (hookrun.shell_for says why): Copilot runs `bash --norc --noprofile
# -c`, which reads no rc file, as `bash -c` does; Droid `sh -c`; Kimi Code
# `sh -c` (Node's shell: true); Windsurf and Antigravity document none.
SHELLS = {"auggie": "bash", "letta": "bash", "openhands": "sh", "openharness": "bash", "claude": "bash", "gemini": "bash", "cursor": "sh", "copilot": "bash", "qwen": "bash", "factory": "sh",
          "windsurf": "sh", "antigravity": "sh", "kimi": "sh"}


# -- running one member

KEEP = 16 << 20  # bytes of a member's stdout, and of its stderr, the runner reads; the rest is dropped
TIMEOUT_MAX = min(_thread.TIMEOUT_MAX, 1e9)  # seconds: a lock's longest wait (more raises OverflowError)


def _seconds(word):
    """A member's timeout word as seconds: one that is not a number in (0, TIMEOUT_MAX] (install
    never writes one; a hand edit can) waits without a timeout of ours, the host's own still counts."""
    seconds = float(word)
    return seconds if 0 < seconds <= TIMEOUT_MAX else TIMEOUT_MAX


def _scratch(data=None):
    """An unnamed file for a member's stdin, stdout or stderr: a file, unlike a pipe, never fills
    up and stalls a member that writes much while we wait for it. Each member gets files of its
    own: a child it leaves behind may still write to them, or read or write its stdin, and that
    must not reach the next member's payload or answer. ``data`` is written first (the payload; else
    a byte, then cut off): a folder on a full disk takes the file but not a byte, and is passed over."""
    folders = [posix.environ.get(b"TMPDIR") or b"/tmp", b"/tmp", b"/var/tmp", b"/dev/shm"]
    for n in range(100):
        folder = folders[0].decode("utf-8", "surrogateescape")
        path = f"{folder}/.hookweave-chain-{posix.getpid()}-{time.monotonic_ns()}-{n}"
        try:
            fd = posix.open(path, posix.O_RDWR | posix.O_CREAT | posix.O_EXCL, 0o600)
        except FileExistsError:
            continue
        except OSError:  # no such folder, not writable: the next one
            if len(folders) == 1:
                raise
            del folders[0]
            continue
        posix.unlink(path)
        try:
            _write(fd, b"x" if data is None else data)
            if data is None:
                posix.ftruncate(fd, 0)
            posix.lseek(fd, 0, 0)
        except OSError:  # a full disk
            posix.close(fd)
            if len(folders) == 1:
                raise
            del folders[0]
            continue
        return fd
    raise OSError("no scratch file in " + folder)


def _read_all(fd):
    """What the member wrote, up to ``KEEP`` bytes, and whether there was more. The file's size
    is taken once: what a child left behind writes later is never read."""
    size = posix.fstat(fd).st_size
    chunks, left = [], min(size, KEEP)
    while left > 0:
        chunk = posix.pread(fd, min(left, 1 << 20), min(size, KEEP) - left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks), size > KEEP


def _shell(host):
    if host == "codex":  # Codex runs `$SHELL -lc`; the chain itself ran in that login shell already
        return (posix.environ.get(b"SHELL") or b"/bin/sh").decode("utf-8", "surrogateescape")
    return SHELLS.get(host, "sh")


RUNNING = []  # the member running now: a stop signal to the chain stops it too
# Python starts with SIGPIPE and SIGXFSZ ignored, which a spawned process inherits: a member would
# then get EPIPE ("Broken pipe" on stderr) where the host's shell, and the sh runner, give it the
# signal (`seq 1 2000000 | head -1`). A member starts with both at their default, as they were.
DEFAULT_SIGNALS = (_signal.SIGPIPE, _signal.SIGXFSZ)


def _end(pid):
    """SIGKILL (9 on every POSIX system) to the member's process group, and to the member itself
    in case it left that group."""
    for kill in (posix.killpg, posix.kill):
        try:
            kill(pid, 9)
        except OSError:
            pass


def _stop(signum, frame):
    """The host stops the chain (SIGTERM on its own timeout, ^C): the running member is in a process
    group of its own, which the host's signal does not reach, so end it, then the chain."""
    for pid in RUNNING:
        _end(pid)
    posix._exit(128 + signum)


def _kill_after(pid, seconds, done, fired):
    """The timeout: ``done`` is released when the member ends; until then, after ``seconds``, kill
    its process group (the member and what it started)."""
    if not done.acquire(True, seconds):
        fired.append(True)
        _end(pid)


def run_member(host, member, payload_bytes):
    """``(exit code, stdout bytes, stderr bytes, timed out, dropped)``: the member's answer, read
    when it ends (or its timeout kills it), from files of its own. The member runs in a process
    group of its own, which a timeout kills whole. Its exit code is 128 + N when signal N ended it, as
    the host's shell and the sh runner say it;
    ``dropped`` says its stdout or stderr went past ``KEEP``."""
    scratch = (_scratch(payload_bytes), _scratch(), _scratch())
    try:
        stdin_fd, out_fd, err_fd = scratch
        dup2 = posix.POSIX_SPAWN_DUP2
        actions = [(dup2, stdin_fd, 0), (dup2, out_fd, 1), (dup2, err_fd, 2)]
        shell = _shell(host)
        try:
            pid = posix.posix_spawnp(shell, [shell, "-c", member.command], posix.environ, file_actions=actions,
                                     setpgroup=0, setsigdef=DEFAULT_SIGNALS)
        except OSError:
            pid = posix.posix_spawn("/bin/sh", ["sh", "-c", member.command], posix.environ, file_actions=actions,
                                    setpgroup=0, setsigdef=DEFAULT_SIGNALS)
        RUNNING.append(pid)
        done, fired = _thread.allocate_lock(), []
        done.acquire()
        _thread.start_new_thread(_kill_after, (pid, member.timeout, done, fired))
        _, status = posix.waitpid(pid, 0)
        RUNNING.remove(pid)
        done.release()
        (out, more), (err, more_err) = _read_all(out_fd), _read_all(err_fd)
        code = posix.waitstatus_to_exitcode(status)  # -N when signal N ended it: 128 + N, as a shell says
        return (code if code >= 0 else 128 - code), out, err, bool(fired), more or more_err
    finally:
        _close(scratch)


def _close(fds):
    for fd in fds:
        posix.close(fd)


def _write(fd, data):
    while data:
        data = data[posix.write(fd, data):]


def resume(words, count):
    """What the sh runner (``chainrun.sh``) hands over after ``--from-sh``, to the chain runner or
    Cline's dispatcher: ``<done> <exit code or -> <timed out> <scratch base>``. Reads its scratch files (``<base>.e<n>``: the stderr of the members
    it ran, ``<base>.o<n>``: member ``done``'s stdout) and removes them all, dd's count (``.n``) too.
    The stdout of a member before ``done`` is an answer sh read and kept (it exited 0, stderr empty:
    ``hw_answer``), returned last, in member order. ``s`` after the timed-out word: sh ran member
    ``done`` in the foreground, and its shell wrote the signal that ended it after its stderr."""
    done, code, timed, base = int(words[0]), words[1], words[2][:1] == "1", words[3]
    names = [f"{base}.{kind}{n}" for n in range(count) for kind in "oe"] + [f"{base}.{x}" for x in ("in", "n", "s", "t")]
    read = {}
    for name in names:
        try:
            fd = posix.open(name, posix.O_RDONLY)
        except OSError:
            read[name] = (b"", False)
            continue
        try:
            read[name] = _read_all(fd)
        finally:
            posix.close(fd)
            posix.unlink(name)
    before = [read[f"{base}.e{n}"][0] for n in range(done)]
    first = None
    if code != "-":
        (out, more), (err, more_err) = read[f"{base}.o{done}"], read[f"{base}.e{done}"]
        if words[2][1:] == "s":
            err = _unsaid(err, int(code))
        first = (int(code), out, err, timed, more or more_err)
    kept = [read[f"{base}.o{n}"][0] for n in range(done) if read[f"{base}.o{n}"][0]]
    return done, first, before, kept


def _unsaid(err, code):
    """``err`` without the line dash and busybox's ash write after a command they waited for when a
    signal ended it (``strsignal``'s words, " (core dumped)", a newline; none for SIGINT and SIGPIPE):
    the host's own shell hands its process over to the hook and says nothing. Exactly that line, last:
    a member that exits 128 + n itself after printing those very words loses them too (the shell's
    exit code cannot tell the two apart; chainrun.sh, hw_fg)."""
    signum = code - 128
    if signum <= 0 or signum in (_signal.SIGINT, _signal.SIGPIPE):
        return err
    try:
        name = _signal.strsignal(signum)
    except ValueError:
        return err
    for said in ((f"{name} (core dumped)\n", f"{name}\n") if name else ()):
        said = said.encode("utf-8", "replace")
        if err.endswith(said):
            return err[:-len(said)]
    return err
