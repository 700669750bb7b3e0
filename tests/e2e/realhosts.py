"""Helpers for the real-agent tests: where the agents are, the probe bundle, running an agent."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
REPO = HERE.parent.parent
# Where scripts/install-hosts put the agents: .cache/hosts, or another folder (scripts/drift: the newest releases).
HOSTS = REPO / os.environ.get("HOOKWEAVE_HOSTS_DIR", ".cache/hosts")
BINARIES = {name: HOSTS / name / "node_modules" / ".bin" / name for name in ("claude", "codex", "gemini")}
AGENT_TIMEOUT = 120
# For the agents Node runs: WebAssembly on V8's first tier only (liftoff.cjs says why; docs/speed.md,
# round 8, "The real agents, part D"): a Qwen start 3.7 s of CPU to 2.2, a Gemini start 1.9 to 1.3.
NODE_LIFTOFF = {"NODE_OPTIONS": f'--require "{HERE / "liftoff.cjs"}"'}


def agent_binary(name: str) -> Path:
    path = Path(os.environ.get(f"HOOKWEAVE_TEST_{name.upper()}") or BINARIES[name])
    if not path.is_file():
        pytest.skip(f"{name} is not installed: run scripts/install-hosts {name} (needs node and npm)")
    return path


class Probe:
    """A probe bundle in a temporary folder and the log its hooks write."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.log = folder / "log.jsonl"
        folder.mkdir()
        (folder / "probe.py").write_text((HERE / "probe.py").read_text())

    def command(self, hook_id: str, sleep: float = 0) -> str:
        return f"python3 {self.folder}/probe.py {hook_id} {self.log} {sleep}"

    def bundle(self, *, sequential: bool = False, sleep: float = 0, pre_position: str = "last",
               name: str = "probe") -> str:
        def hook(hook_id: str, event: str, matcher: str = "") -> str:
            position = f'position = "{pre_position}"\n' if hook_id == "pre" else ""
            return (f'[[hooks]]\nid = "{hook_id}"\nevent = "{event}"\n{matcher}{position}'
                    f'command = ["python3", "{{bundle_dir}}/probe.py", "probe-{hook_id}", "{self.log}", "{sleep}"]\n')

        manifest = (f'[bundle]\nname = "{name}"\nversion = "1.0.0"\nsequential = {str(sequential).lower()}\n'
                    + hook("start", "session_start") + hook("pre", "pre_tool_use", 'matcher = ["shell"]\n')
                    + (hook("pre-2", "pre_tool_use", 'matcher = ["shell"]\n') if sequential else "")
                    + hook("stop", "stop")
                    + '[env.PROBE_VAR]\nvalue = "from-bundle"\n'
                    + '[env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP]\nvalue = "25"\nhosts = ["claude"]\npolicy = "at-least"\n')
        (self.folder / "hookweave.toml").write_text(manifest)
        return str(self.folder)

    def operator_hooks(self, events: tuple[str, ...], *, named: bool = False) -> dict:
        """The operator's own hooks, one probe per event (id ``op-<event>``), in the nested shape."""
        def handler(event: str) -> dict:
            return {"type": "command", **({"name": f"op-{event}"} if named else {}), "command": self.command(f"op-{event}")}

        return {event: [{"hooks": [handler(event)]}] for event in events}

    def calls(self) -> list[dict]:
        if not self.log.exists():
            return []
        lines = self.log.read_text().splitlines()
        self.log.unlink()  # each run starts with an empty log
        return [json.loads(line) for line in lines]


def overlap(a: dict, b: dict) -> bool:
    """Whether two probe calls ran at the same time (each started before the other ended)."""
    return a["start"] < b["end"] and b["start"] < a["end"]


def tool_results(mock, host: str) -> dict[str, str]:
    """What the model was told about each shell call of the mock's first reply, by ``mode-<name>``."""
    last = mock.requests[-1]["body"]
    if host in CHAT:  # Chat Completions: the request holding the most tool results (Droid also posts logs)
        calls = {f"call_e2e{i}": c for i, c in enumerate(mock.commands)}
        bodies = [r["body"] for r in mock.requests if isinstance(r["body"].get("messages"), list)]
        best = max(bodies, key=lambda b: sum(m.get("role") == "tool" for m in b["messages"]), default={"messages": []})
        return {calls[m["tool_call_id"]].split("mode-")[1]: m["content"] if isinstance(m["content"], str)
                else " ".join(x.get("text", "") for x in m["content"]) for m in best["messages"]
                if m.get("role") == "tool" and m.get("tool_call_id") in calls}
    if host == "claude":
        calls = {f"toolu_e2e{i}": c for i, c in enumerate(mock.commands)}
        results = [b for m in last.get("messages", []) if isinstance(m.get("content"), list) for b in m["content"]
                   if b.get("type") == "tool_result"]
        return {calls[r["tool_use_id"]].split("mode-")[1]: r["content"] if isinstance(r["content"], str)
                else " ".join(x.get("text", "") for x in r["content"]) for r in results}
    if host == "codex":
        calls = {f"call_e2e{i}": c for i, c in enumerate(mock.commands)}
        return {calls[i["call_id"]].split("mode-")[1]: i["output"] for i in last.get("input", [])
                if isinstance(i, dict) and i.get("type") == "function_call_output"}
    parts = [p["functionResponse"] for c in last.get("contents", []) for p in c.get("parts") or [] if "functionResponse" in p]
    return {mock.commands[int(p["id"].rsplit("_", 1)[1])].split("mode-")[1]: json.dumps(p["response"]) for p in parts}


CHAT = ("copilot", "qwen", "factory", "cline")  # the hosts run on the mock's Chat Completions


def model_text(mock) -> str:
    """Everything the agent sent the model (Droid also posts its logs to the mock: those are left out)."""
    return json.dumps([r["body"] for r in mock.requests
                       if any(k in r["body"] for k in ("messages", "input", "contents", "system"))])


def run_agent(argv: list[str], cwd: Path, env: dict[str, str], returncode: int = 0,
              timeout: float = AGENT_TIMEOUT) -> subprocess.CompletedProcess:
    """Run an agent to completion (it must exit with ``returncode``); where strace exists, prove it
    connected to nothing but loopback."""
    base = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "NO_COLOR": "1",
            **(NODE_LIFTOFF if _node_script(argv[0]) else {})}
    trace = cwd.parent / f"connect-{len(list(cwd.parent.glob('connect-*')))}.strace"
    # --seccomp-bpf stops the agent only at connect(), not at every system call: the same trace for
    # about 1.3 s less CPU per Qwen run (8.5 s, not 9.8; no strace at all: 8.7, load 5-6).
    traced = (["strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=connect", "-o", str(trace), *argv]
              if shutil.which("strace") else argv)
    result = subprocess.run(traced, cwd=cwd, env={**base, **env}, capture_output=True, text=True,
                            timeout=timeout, stdin=subprocess.DEVNULL)
    assert result.returncode == returncode, f"{argv[0]} exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
    if trace.exists():
        outside = off_loopback(trace.read_text())
        assert not outside, f"{Path(argv[0]).name} tried to reach {outside}: only 127.0.0.1 is allowed"
    return result


def _node_script(program: str) -> bool:
    """Whether ``program`` is a script Node runs (``#!/usr/bin/env node``), not a compiled binary."""
    try:
        with open(os.path.realpath(program), "rb") as file:
            first = file.readline(100)
    except OSError:
        return False
    return first.startswith(b"#!") and b"node" in first


def off_loopback(strace_output: str) -> list[str]:
    """Addresses in traced connect() calls that are not loopback (unix sockets are fine)."""
    found = re.findall(r'inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)"', strace_output)
    addresses = {a or b for a, b in found}
    return sorted(a for a in addresses if not (a.startswith("127.") or a == "::1" or a.startswith("::ffff:127.")))


def shared(cache: dict, name: str, build):
    """The record ``name`` in a module's ``shared_runs``, built by ``build()`` the first time."""
    if name not in cache:
        cache[name] = build()
    return cache[name]


def write_operator_file(path: Path, text: str) -> tuple[Path, str]:
    """Put the operator's settings file in place; returns it and its text, to compare later."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path, text


def ids(calls: list[dict]) -> list[str]:
    return sorted(call["id"] for call in calls)
