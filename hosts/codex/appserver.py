"""Ask a real ``codex`` binary which hooks it sees: ``codex app-server`` JSON-RPC ``hooks/list``.

No login is needed (HOSTS.md 3.6). Used by verify when a codex binary is available, and by the
tests to check our trust hashes against Codex's own.

Whatever comes back is another program's output, so it is untrusted input: the whole exchange has
one deadline that a silent or half-written line cannot stretch (we wait with ``select``, never in
``readline``), lines have a size limit, bytes need not be UTF-8, anything not shaped like the
answer is an ``AppServerError``, and the process group is killed however the exchange ends.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

TIMEOUT = 5.0  # seconds for the whole exchange; codex 0.169 answers in about 0.2 s
TIMEOUT_ENV = "HOOKWEAVE_CODEX_TIMEOUT"
MAX_LINE = 8 * 1024 * 1024  # one JSON-RPC message; a hooks/list answer is a few kB per hook


class AppServerError(OSError):
    """The codex binary did not give a usable answer (message: one line, for a finding)."""


def hooks_list(binary: str, cwd: Path, env: dict[str, str] | None = None,
               timeout: float | None = None) -> dict[str, Any]:
    """``{"hooks": [...], "warnings": [...], "errors": [...]}`` for ``cwd``, as Codex reports them."""
    deadline = time.monotonic() + (timeout if timeout is not None else _timeout())
    process = subprocess.Popen(
        [binary, "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        cwd=cwd, env=env, start_new_session=True,  # its own process group, so we can end all of it
    )
    try:
        lines = _Lines(process, deadline)
        _send(process, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                        "params": {"clientInfo": {"name": "hookweave", "version": "1"}}})
        lines.reply(1)
        _send(process, {"jsonrpc": "2.0", "method": "initialized"})
        _send(process, {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}})
        return _shape(lines.reply(2))
    finally:
        _end(process)


def findings(host: Any, binary: str, project: Path) -> list:
    """verify's findings from ``hooks/list``: its errors, its warnings (a file Codex refused is only a
    warning there), our hooks it does not trust, and every recorded hook of ours it does not list."""
    from hookweave.core.model.findings import Finding

    try:  # from the folder Codex itself would run in: the physical one, as its keys have it
        listed = hooks_list(binary, Path(os.path.realpath(project)))
    except OSError as exc:  # AppServerError, or the binary would not start
        return [Finding("warning", f"could not ask codex app-server: {one_line(str(exc))}")]
    out = [Finding("problem", f"codex app-server: {one_line(str(e))}") for e in listed["errors"]]
    out += [Finding("warning", f"codex app-server warns: {one_line(str(w))}") for w in listed["warnings"]]
    seen: set[tuple[str, str, str]] = set()
    for hook in listed["hooks"]:
        mine = host.owner({"hooks": [{"command": hook.get("command")}]})
        status = hook.get("trustStatus")
        if mine:
            seen.add((str(hook.get("source")), *mine))
        if mine and status not in ("trusted", "managed"):
            where = one_line(f"{status} ({hook.get('key')})")
            out.append(Finding("problem", f"codex app-server reports it {where}", *mine))
    return out + _unlisted(host, project, seen)


def _unlisted(host: Any, project: Path, listed: set[tuple[str, str, str]]) -> list:
    """Every recorded hook of ours that ``hooks/list`` does not show in its layer: Codex does not run
    it (a layer it does not load, a file it refused: its warnings say which)."""
    from hookweave.core.errors import BadInput
    from hookweave.core.model.findings import Finding
    from hookweave.core.reading.scopes import installed

    try:
        records = installed(host, project)
    except BadInput:
        return []  # verify names the record it cannot read
    return [Finding("problem", f"codex app-server does not list it in the {scope} layer, so Codex does not run it",
                    name, h.id)
            for scope, _, rec in records for name, bundle in sorted(rec.bundles.items()) for h in bundle.hooks
            if (scope, name, h.id) not in listed]


def _timeout() -> float:
    try:
        return max(0.1, float(os.environ.get(TIMEOUT_ENV) or TIMEOUT))
    except ValueError:
        return TIMEOUT


def _send(process: subprocess.Popen, message: dict) -> None:
    """Write one message. A program that stopped reading may still have answered: what it wrote
    is read next, and a missing answer ends there ("stopped before it answered")."""
    assert process.stdin is not None
    try:
        process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
    except BrokenPipeError:
        pass


class _Lines:
    """JSON-RPC messages from the process's stdout, each line waited for until one deadline."""

    def __init__(self, process: subprocess.Popen, deadline: float) -> None:
        assert process.stdout is not None
        self.fd = process.stdout.fileno()
        self.deadline = deadline
        self.buffer = b""

    def reply(self, wanted: int) -> Any:
        """The ``result`` of the answer to request ``wanted``; lines that are not JSON-RPC
        messages (a banner, a log line) and messages for other ids are passed over."""
        while True:
            message = _decode(self._line())
            if isinstance(message, dict) and message.get("id") == wanted:
                if "error" in message:
                    raise AppServerError(f"codex app-server refused the request: {_brief(message['error'])}")
                return message.get("result")

    def _line(self) -> bytes:
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_LINE:
                raise AppServerError(f"codex app-server sent a line longer than {MAX_LINE} bytes")
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                raise AppServerError("codex app-server did not answer in time")
            chunk = os.read(self.fd, 65536)
            if not chunk:
                raise AppServerError("codex app-server stopped before it answered")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line


def _decode(line: bytes) -> Any:
    try:
        return json.loads(line.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return None


def _shape(result: Any) -> dict[str, Any]:
    """The answer as verify reads it, or ``AppServerError`` when it is not shaped like one."""
    data = result.get("data") if isinstance(result, dict) else None
    if not isinstance(data, list):
        raise AppServerError(f"codex app-server answered hooks/list with something else: {_brief(result)}")
    entry = data[0] if data else {}
    if not isinstance(entry, dict):
        raise AppServerError(f"codex app-server answered hooks/list with something else: {_brief(entry)}")
    out: dict[str, Any] = {}
    for name in ("hooks", "warnings", "errors"):
        value = entry.get(name, [])
        if not isinstance(value, list):
            raise AppServerError(f"codex app-server answered hooks/list with {name} that is not a list: "
                                 f"{_brief(value)}")
        out[name] = value
    out["hooks"] = [h for h in out["hooks"] if isinstance(h, dict)]
    return out


def _brief(value: Any) -> str:
    """Another program's value as one short line."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=True, default=str)
    return one_line(text)


def one_line(text: str, limit: int = 300) -> str:
    """``text`` with its control characters escaped and cut to ``limit`` characters, for a finding."""
    from hookweave.core.files.paths import printable

    clean = printable(text[: limit * 2])
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


def _end(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for stream in (process.stdin, process.stdout):
        try:
            stream.close()  # type: ignore[union-attr]
        except OSError:
            pass
    process.wait()
