"""Run one hook command the way a host would: its shell, stdin payload, env, cwd and timeout.

The imperative part of ``hooks check``. Output is kept up to a cap (a hook that floods stdout must
not take the checker's memory with it), and a hook that outlives its time is killed with its whole
process group, as the hosts do.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import NamedTuple

KEEP = 1 << 20  # bytes of stdout and of stderr kept; the rest is read and dropped
# seconds, per host: Copilot's documented 30, Qwen's and Droid's 60 (their code), Cline's 120 (its
# code); Windsurf and Antigravity document none, so check waits its own cap (``checking.CAP``).
DEFAULT_TIMEOUT = {"claude": 600.0, "codex": 600.0, "gemini": 60.0, "cursor": 30.0, "copilot": 30.0, "qwen": 60.0,
                   "factory": 60.0, "cline": 120.0, "windsurf": 60.0, "antigravity": 60.0}


class Run(NamedTuple):
    exit_code: int | None  # negative: the signal that ended it
    stdout: bytes
    stderr: bytes
    timed_out: bool
    seconds: float
    dropped: int  # bytes of output beyond KEEP


def shell_for(host: str) -> list[str]:
    """Codex runs ``$SHELL -lc`` (a login shell); Claude, Gemini, Qwen, Auggie and Letta run ``bash -c``, Copilot
    ``bash --norc --noprofile -c`` (measured, 1.0.102), Droid ``sh -c`` (measured, 0.225.2); Cline's
    dispatcher runs each member with ``/bin/sh -c``; Cursor, Windsurf and Antigravity document no
    shell, so ``sh``."""
    if host == "codex":
        return [os.environ.get("SHELL") or "/bin/sh", "-lc"]
    if host in ("claude", "gemini", "qwen", "auggie", "letta") and shutil.which("bash"):
        return ["bash", "-c"]
    if host == "copilot" and shutil.which("bash"):
        return ["bash", "--norc", "--noprofile", "-c"]
    return ["/bin/sh", "-c"]


def host_env(host: str, project: Path, extra: dict[str, str]) -> dict[str, str]:
    """The process env plus what the host adds for its hooks (HOSTS.md 2.4, 3.4, 4.4, 5)."""
    env = dict(os.environ)
    where = str(project)
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


def run(host: str, command: str, payload: bytes, env: dict[str, str], cwd: Path, timeout: float) -> Run:
    if host == "gemini":
        command = expand_gemini(command, cwd)
    start = time.monotonic()
    try:
        child = subprocess.Popen([*shell_for(host), command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, cwd=cwd, env=env, start_new_session=True)
    except OSError as exc:  # no shell, or cwd gone: the host would fail to start it too
        return Run(127, b"", str(exc).encode(), False, 0.0, 0)
    out, err = _Drain(child.stdout), _Drain(child.stderr)
    feeder = threading.Thread(target=_feed, args=(child, payload), daemon=True)
    feeder.start()
    timed_out = False
    try:
        child.wait(timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill(child)
    seconds = time.monotonic() - start
    for thread in (feeder, out.thread, err.thread):
        thread.join(5)
    return Run(child.returncode, bytes(out.kept), bytes(err.kept), timed_out, seconds, out.dropped + err.dropped)


def _feed(child: subprocess.Popen, payload: bytes) -> None:
    try:
        child.stdin.write(payload)
        child.stdin.close()
    except (BrokenPipeError, OSError):  # a hook that never reads stdin
        pass


def _kill(child: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(child.pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        try:
            child.wait(2)
            return
        except subprocess.TimeoutExpired:
            continue


class _Drain:
    """Reads a pipe to its end in a thread, keeping the first ``KEEP`` bytes."""

    __slots__ = ("kept", "dropped", "thread")

    def __init__(self, pipe) -> None:
        self.kept = bytearray()
        self.dropped = 0
        self.thread = threading.Thread(target=self._read, args=(pipe,), daemon=True)
        self.thread.start()

    def _read(self, pipe) -> None:
        with pipe:
            while chunk := pipe.read(65536):
                room = KEEP - len(self.kept)
                self.kept += chunk[:room]
                self.dropped += max(0, len(chunk) - room)
