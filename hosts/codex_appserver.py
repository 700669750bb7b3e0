"""Ask a real ``codex`` binary which hooks it sees: ``codex app-server`` JSON-RPC ``hooks/list``.

No login is needed (HOSTS.md 3.6). Used by verify when a codex binary is available, and by the
tests to check our trust hashes against Codex's own.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

TIMEOUT = 30.0


def hooks_list(binary: str, cwd: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    """``{"hooks": [...], "warnings": [...], "errors": [...]}`` for ``cwd``, as Codex reports them."""
    process = subprocess.Popen(
        [binary, "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, cwd=cwd, env=env,
    )
    try:
        _send(process, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                        "params": {"clientInfo": {"name": "hookweave", "version": "1"}}})
        _reply(process, 1)
        _send(process, {"jsonrpc": "2.0", "method": "initialized"})
        _send(process, {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}})
        result = _reply(process, 2)
    finally:
        process.kill()
        process.wait()
    entries = result.get("data") or [{}]
    entry = entries[0]
    return {"hooks": entry.get("hooks", []), "warnings": entry.get("warnings", []), "errors": entry.get("errors", [])}


def _send(process: subprocess.Popen, message: dict) -> None:
    assert process.stdin is not None
    process.stdin.write(json.dumps(message) + "\n")
    process.stdin.flush()


def _reply(process: subprocess.Popen, wanted: int) -> dict:
    assert process.stdout is not None
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise OSError("codex app-server closed its output")
        message = json.loads(line)
        if message.get("id") == wanted:
            if "error" in message:
                raise OSError(f"codex app-server: {message['error']}")
            return message.get("result", {})
    raise OSError("codex app-server did not answer in time")
