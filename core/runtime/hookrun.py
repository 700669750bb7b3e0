"""Run one hook command the way a host would: its shell, stdin payload, env, cwd and timeout.

The imperative part of ``hooks check``. Output is kept up to a cap (a hook that floods stdout must
not take the checker's memory with it), and a hook that outlives its time is killed with its whole
process group, as the hosts do.
"""

from __future__ import annotations

import fcntl
import os
import re
import shlex
import selectors
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import NamedTuple

PIPE_SIZE = 1 << 20  # bytes asked per read, and the pipe size asked for (see _widen)
KEEP = 1 << 20  # bytes of stdout and of stderr kept; the rest is read and dropped
GRACE = 1.0  # seconds check reads on after the hook exits, while a process it started holds its output
# seconds, per host: Copilot's and Kimi Code's documented 30, Qwen's and Droid's 60 (their code), Cline's 120 (its
# code); Windsurf and Antigravity document none, so check waits its own cap (``checking.CAP``).
DEFAULT_TIMEOUT = {"claude": 600.0, "codex": 600.0, "gemini": 60.0, "cursor": 30.0, "copilot": 30.0, "qwen": 60.0,
                   "factory": 60.0, "cline": 120.0, "windsurf": 60.0, "antigravity": 60.0,
                   "kimi": 30.0, "openharness": 30.0, "hermes": 60.0}


class Run(NamedTuple):
    exit_code: int | None  # negative: the signal that ended it
    stdout: bytes
    stderr: bytes
    timed_out: bool
    seconds: float
    dropped: int  # bytes of output beyond KEEP
    held: bool = False  # it exited, and something it started kept its output open past ``GRACE``


def shell_for(host: str) -> list[str]:
    """Codex runs ``$SHELL -lc`` (a login shell); Claude, Gemini, Qwen, Auggie and Letta run ``bash -c``, Copilot
    ``bash --norc --noprofile -c`` (measured, 1.0.102), Droid ``sh -c`` (measured, 0.225.2), Kimi Code ``sh -c``
    (Node's ``shell: true``, its source); Cline's
    dispatcher runs each member with ``/bin/sh -c``; Cursor, Windsurf and Antigravity document no
    shell, so ``sh``."""
    if host == "codex":
        return [os.environ.get("SHELL") or "/bin/sh", "-lc"]
    if host in ("claude", "gemini", "qwen", "auggie", "letta") and shutil.which("bash"):
        return ["bash", "-c"]
    if host == "openharness":  # resolve_shell_command: bash -lc, else sh -lc (a login shell)
        return ["bash" if shutil.which("bash") else "sh", "-lc"]
    if host == "copilot" and shutil.which("bash"):
        return ["bash", "--norc", "--noprofile", "-c"]
    return ["/bin/sh", "-c"]


def delivered(host: str, event: str, payload: bytes, env: dict[str, str]) -> tuple[bytes, dict[str, str]]:
    """The stdin and env a hook gets: OpenHarness gives it no stdin, the payload and the event in
    its env (``HookExecutor._run_command_hook``, measured 0.1.9); every other host, the payload on stdin."""
    from hookweave.core.standalone.protocol_data import DATA

    where = DATA[host]["payload"] if host in DATA else "stdin"
    if where.startswith("env:"):  # a plugin's protocol as data: the payload in a variable, no stdin
        return b"", {**env, where[4:]: payload.decode("utf-8", "surrogateescape")}
    if host != "openharness":
        return payload, env
    return b"", {**env, "OPENHARNESS_HOOK_EVENT": event,
                 "OPENHARNESS_HOOK_PAYLOAD": payload.decode("utf-8", "surrogateescape")}


def host_env(host: str, project: Path, extra: dict[str, str], variable: str | None = None) -> dict[str, str]:
    """The process env plus what the host adds for its hooks (HOSTS.md 2.4, 3.4, 4.4, 5); ``variable``:
    the project variable a description names (a plugin's own, whatever protocol it follows)."""
    env = dict(os.environ)
    where = str(project)
    if variable:
        env[variable] = where
    if host == "claude":
        env["CLAUDE_PROJECT_DIR"] = where
    elif host == "gemini":
        env.update(GEMINI_PROJECT_DIR=where, GEMINI_CWD=where, CLAUDE_PROJECT_DIR=where,
                   GEMINI_SESSION_ID="5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f")
    elif host == "cursor":
        env.update(CURSOR_PROJECT_DIR=where, CLAUDE_PROJECT_DIR=where)
    elif host == "copilot":  # measured, 1.0.102 (its own hook files)
        env.update(COPILOT_PROJECT_DIR=where, CLAUDE_PROJECT_DIR=where, COPILOT_CLI="1",
                   COPILOT_HOOK_DIR=str(project / ".github" / "hooks"))
    elif host == "qwen":  # measured, 0.24.4
        env.update(QWEN_PROJECT_DIR=where, CLAUDE_PROJECT_DIR=where, GEMINI_PROJECT_DIR=where,
                   QWEN_CODE_SESSION_ID="5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f")
    elif host == "auggie":  # measured, 0.36.0
        env.update(AUGMENT_PROJECT_DIR=where, AUGMENT_CONVERSATION_ID="5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f")
    elif host == "letta":  # measured, 0.32.18
        env.update(LETTA_WORKING_DIR=where, USER_CWD=where, LETTA_AGENT_ID="agent-local-5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f")
    elif host == "openhands":  # measured, 1.16.0
        env.update(OPENHANDS_PROJECT_DIR=where, OPENHANDS_SESSION_ID="5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f")
    elif host == "factory":  # measured, 0.225.2
        env.update(FACTORY_PROJECT_DIR=where, DROID_PROJECT_DIR=where, CLAUDE_PROJECT_DIR=where)
    if host == "gemini":  # Gemini expands $VAR, ${VAR} and ${VAR:-default} in settings strings
        extra = {name: _expand(value, env) for name, value in extra.items()}
    env.update(extra)
    return env


_VAR = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)")


def _expand(value: str, env: dict[str, str]) -> str:
    return _VAR.sub(lambda m: env.get(m.group(1) or m.group(3)) or (m.group(2) or ""), value)


def expand_gemini(command: str, project: Path) -> str:
    """Gemini replaces these names in the command text (shell-quoted) before its shell runs it."""
    quoted = shlex.quote(str(project))
    for name in ("$GEMINI_PROJECT_DIR", "$GEMINI_CWD", "$CLAUDE_PROJECT_DIR"):
        command = command.replace(name, quoted)
    return command


EXEC = frozenset({"hermes"})  # hosts that run a command's words with no shell: shlex.split(expanduser(command))


def invocation(host: str, command: str, cwd: Path) -> tuple[str, ...]:
    """What the host starts for ``command``: its shell and the command text as that shell gets it;
    on a host that uses no shell (Hermes's ``_spawn``), the command's own words."""
    if host in EXEC:
        return tuple(shlex.split(os.path.expanduser(command)))
    return (*shell_for(host), expand_gemini(command, cwd) if host == "gemini" else command)


def run(host: str, command: str, payload: bytes, env: dict[str, str], cwd: Path, timeout: float) -> Run:
    """Run ``command`` until its output closes, or ``timeout`` seconds; ``seconds`` is the time that
    took. A hook that exits while a process it started keeps its stdout or stderr open is read
    ``GRACE`` seconds more (``held``: an agent that reads the output to its end waits for that
    process); at the timeout, or at the end of that grace, its process group is killed and the
    reading stops, whoever still holds the pipe (a ``setsid`` child, a daemon)."""
    start = time.monotonic()
    try:
        child = subprocess.Popen(list(invocation(host, command, cwd)), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, cwd=cwd, env=env, start_new_session=True)
    except (OSError, ValueError) as exc:  # no shell, cwd gone, a NUL in the command: the host fails to start it too
        return Run(127, b"", str(exc).encode(), False, 0.0, 0)
    with selectors.DefaultSelector() as selector:
        streams = _Streams(child, payload, selector)
        timed_out, held = streams.pump(start + timeout)
    if timed_out or held:
        _kill(child)
    elif child.poll() is None:  # the output closed, the hook goes on: wait for its end, up to the timeout
        try:
            child.wait(max(0.0, start + timeout - time.monotonic()))
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill(child)
    seconds = time.monotonic() - start
    out, err = streams.kept
    return Run(child.returncode, bytes(out), bytes(err), timed_out, seconds, streams.dropped, held)


class _Streams:
    """The hook's three pipes, served from one thread: the payload written to stdin as the hook
    takes it, stdout and stderr read as they come, each kept up to ``KEEP``."""

    def __init__(self, child: subprocess.Popen, payload: bytes, selector) -> None:
        self.child, self.selector, self.payload = child, selector, memoryview(payload)
        self.kept, self.dropped = (bytearray(), bytearray()), 0
        for index, pipe in enumerate((child.stdout, child.stderr)):
            os.set_blocking(pipe.fileno(), False)
            _widen(pipe.fileno())
            selector.register(pipe, selectors.EVENT_READ, index)
        self.outputs = 2
        if payload:
            os.set_blocking(child.stdin.fileno(), False)
            selector.register(child.stdin, selectors.EVENT_WRITE, None)
        else:
            child.stdin.close()

    def pump(self, deadline: float) -> tuple[bool, bool]:
        """Serve the pipes until both outputs close: ``(timed out, held)``."""
        exited = None
        while self.outputs:
            now = time.monotonic()
            if exited is None and self.child.poll() is not None:
                exited = now
            limit = deadline if exited is None else min(deadline, exited + GRACE)
            if now >= limit:
                self._close_all()
                return exited is None, exited is not None
            for key, _ in self.selector.select(min(limit - now, 0.05)):
                self._serve(key)
        self._close_all()
        return False, False

    def _serve(self, key) -> None:
        pipe = key.fileobj
        if key.data is None:
            try:
                self.payload = self.payload[os.write(pipe.fileno(), self.payload[:65536]):]
            except (BrokenPipeError, OSError):  # a hook that never reads stdin, or exits first
                self.payload = self.payload[:0]
            if not self.payload:
                self._close(pipe)
            return
        try:
            chunk = os.read(pipe.fileno(), PIPE_SIZE)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.outputs -= 1
            self._close(pipe)
            return
        kept = self.kept[key.data]
        room = max(0, KEEP - len(kept))
        kept += chunk[:room]
        self.dropped += max(0, len(chunk) - room)

    def _close(self, pipe) -> None:
        self.selector.unregister(pipe)
        pipe.close()

    def _close_all(self) -> None:
        for key in list(self.selector.get_map().values()):
            self._close(key.fileobj)


def _widen(fd: int) -> None:
    """A 1 MiB pipe (Linux's default ceiling for anyone) instead of 64 KiB: a flooding hook
    fills it 16 times less often, so hook and reader switch 16 times less (300 MB: ~4,500 wake-ups
    became ~300), which is what ran a flood past its timeout on a loaded machine."""
    resize = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only
    if resize is None:
        return
    try:
        fcntl.fcntl(fd, resize, PIPE_SIZE)
    except OSError:  # a lower pipe-max-size: the default pipe reads the same, in more turns
        pass


def _kill(child: subprocess.Popen) -> None:
    """SIGTERM to the hook's process group, then SIGKILL to what is left of it after a moment (and
    to the hook itself, should it have left the group)."""
    for sig, wait in ((signal.SIGTERM, 0.5), (signal.SIGKILL, 2.0)):
        for kill in (os.killpg, os.kill) if child.returncode is None else (os.killpg,):
            try:
                kill(child.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            child.wait(wait)
            if sig == signal.SIGTERM:
                os.killpg(child.pid, signal.SIGKILL)  # children that outlive the hook
            return
        except subprocess.TimeoutExpired:
            continue
        except (ProcessLookupError, PermissionError):
            return
