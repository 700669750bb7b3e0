"""Attack on what runs in the agent's path on every tool call: the chain runner and Cline's dispatcher
(issue 22, class 1), with members that misbehave as processes.

Each case is a chain (Claude, Codex or Gemini, through the runner file install writes) or a Cline
dispatcher (as install renders it) of 1 to 3 hostile members and then a witness member, which
saves the payload it got and answers with a context. The hostile members: a background child that
writes a block to stdout after the member exits, one that reads or overwrites stdin later, a
``setsid`` child and a double-forked daemon holding stdout, a member that ignores SIGTERM past its
timeout, one that closes stdout and goes on, 17 MB of output, a 4 MB line without a newline,
invalid UTF-8, an exit by a signal, a member that leaves its process group, an emoji in the
command, timeouts of ``inf``, ``nan``, ``1e300``, ``-5`` and ``0`` (hand-edited registrations),
and a scratch folder that does not exist. Invariants, per case:
- no traceback, and the runner's exit code is the model's (0: every hostile member allows or fails
  without blocking; nothing a member's leftover child prints later counts);
- the witness runs and gets the payload byte for byte, and its context is in the answer;
- the chain ends within the members' timeouts plus 2 s (a child holding the output never holds it).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import time
from pathlib import Path

import pytest

from hookweave.core.plan import chain
from hookweave.hosts.cline import dispatcher as cline_dispatcher
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
CASES = attack_size(17, 340)  # fast: every hostile member first once
BLOCK = '{"decision":"block","reason":"late"}'
# name: (command, timeout word, seconds it may take at most)
HOSTILE = {
    "late-block": (f"(sleep 0.2; echo '{BLOCK}'; echo late >&2) & exit 0", "5", 0.3),
    "late-stdin": ("(sleep 0.2; printf XXXXXXXXXXXXXXXXXXXXXXXXXXXX >&0; cat >/dev/null) & exit 0", "5", 0.3),
    "setsid-holder": ("setsid sh -c 'sleep 30' & exit 0", "5", 0.3),
    "daemon-holder": ("( (sleep 30 & ) & ) ; exit 0", "5", 0.3),
    "ignores-term": ("trap '' TERM; sleep 30", "0.5", 0.5),
    "closes-stdout": ("exec 1>&- 2>&-; sleep 30", "0.5", 0.5),
    "floods": ("head -c 17000000 /dev/zero | tr '\\0' x", "20", 3),
    "long-line": ("head -c 4000000 /dev/zero | tr '\\0' '{'", "20", 2),
    "invalid-utf8": ("printf '\\377\\376\\200{\"x\":'; printf '\\355\\240\\200' >&2; exit 1", "5", 0.2),
    "by-signal": ("kill -SEGV $$", "5", 0.2),
    "leaves-group": ("exec setsid -w sleep 30", "0.5", 0.5),
    "emoji": ("printf '😀 \\360\\237\\230\\200' >&2; exit 0", "5", 0.2),
    "timeout-inf": ("exit 0", "inf", 0.2),
    "timeout-nan": ("exit 0", "nan", 0.2),
    "timeout-huge": ("exit 0", "1e300", 0.2),
    "timeout-negative": ("exit 0", "-5", 0.2),
    "timeout-zero": ("exit 0", "0", 0.2),
}
PAYLOADS = {
    "claude": {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls ☕ 😀"}},
    "codex": {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}},
    "gemini": {"session_id": "s", "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
               "tool_input": {"command": "ls 😀"}},
    "cline": {"hookName": "PreToolUse", "preToolUse": {"toolName": "execute_command", "parameters": {"command": "ls 😀"}}},
}
EVENT = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}


def _witness(host: str, seen: Path) -> str:
    if host == "cline":
        answer = '{"contextModification": "witness ran ☕"}'
    elif host == "gemini":
        answer = '{"hookSpecificOutput": {"additionalContext": "witness ran ☕"}}'
    else:
        answer = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "witness ran ☕"}})
    return f"cat > '{seen}'; sleep 0.3; printf '%s' '{answer}'"


def _cline_timeout(word: str) -> float:
    """A dispatcher's ``HOOKS`` are JSON lines in Python source: no ``Infinity`` nor ``NaN`` there."""
    return {"inf": 1e300, "nan": 1e308}.get(word, float(word))


def _case(rng: random.Random, index: int) -> tuple[str, list[str], bool]:
    names = list(HOSTILE)
    picked = [names[index % len(names)]] + rng.sample(names, rng.randint(0, 2))
    host = ["claude", "codex", "gemini", "cline"][index % 4] if index < 2 * len(names) else rng.choice(list(PAYLOADS))
    return host, picked, rng.random() < 0.2 and host != "cline"


def _run(host: str, picked: list[str], seen: Path, runner: Path, bad_tmp: bool) -> subprocess.CompletedProcess:
    env = {**os.environ, "SHELL": "/bin/sh"}
    if bad_tmp:
        env["TMPDIR"] = "/nonexistent/tmp"
    payload = json.dumps(PAYLOADS[host], ensure_ascii=False).encode()
    if host == "cline":
        hooks = [{"command": HOSTILE[n][0], "timeout": _cline_timeout(HOSTILE[n][1])} for n in picked] + [{"command": _witness(host, seen), "matcher": "execute_command", "timeout": 5}]
        runner.write_text(cline_dispatcher.render("PreToolUse", hooks, 0), encoding="utf-8")
        argv = ["sh", str(runner)]  # as Cline starts it (its #!/bin/sh)
    else:
        argv = ["python3", "-S", str(runner), host, EVENT[host]]
        for i, name in enumerate(picked):
            command, timeout, _ = HOSTILE[name]
            argv += [f"m{i}", timeout, "", command]
        argv += ["witness", "5", "Bash" if host != "gemini" else "run_shell_command", _witness(host, seen)]
    return subprocess.run(argv, input=payload, capture_output=True, env=env, timeout=120)


def test_hostile_members_never_reach_the_next_member_nor_hold_the_agent(tmp_path: Path, attack_report) -> None:
    rng = random.Random(22)
    chain_runner = tmp_path / "settings.hookweave-chain.py"
    chain_runner.write_text(chain.runner_text(), encoding="utf-8")
    failures: list[str] = []
    for index in range(CASES):
        host, picked, bad_tmp = _case(rng, index)
        seen = tmp_path / f"seen-{index}.json"
        runner = tmp_path / f"PreToolUse-{index}" if host == "cline" else chain_runner
        start = time.monotonic()
        done = _run(host, picked, seen, runner, bad_tmp)
        took = time.monotonic() - start
        where = f"case {index} {host} {picked}{' TMPDIR missing' if bad_tmp else ''}"
        limit = sum(HOSTILE[n][2] for n in picked) + 3.0
        err = done.stderr.decode("utf-8", "replace")
        if "Traceback" in err or done.returncode != 0:
            failures.append(f"{where}: exit {done.returncode}: {err[-300:]}")
        elif b"late" in done.stdout or "witness ran" not in done.stdout.decode("utf-8", "replace"):
            failures.append(f"{where}: answer {done.stdout[:200]!r}")
        elif not seen.exists() or json.loads(seen.read_bytes()) != PAYLOADS[host]:
            failures.append(f"{where}: the witness got {seen.read_bytes()[:80] if seen.exists() else None!r}")
        if took > limit:
            failures.append(f"{where}: took {took:.1f} s, more than {limit:.1f} s")
        time.sleep(0.1)  # the leftover children of this case write late, into nothing of the next one
    attack_report("runners in the agent's path", cases=CASES, failures=len(failures))
    assert not failures, "\n".join(failures[:10]) + f"\n({len(failures)} of {CASES} cases)"


def test_a_dispatcher_an_earlier_hookweave_wrote_is_ours_and_install_updates_it(run, project: Path) -> None:
    """The dispatcher's code changed (issue 22): a file holding the code hookweave shipped before,
    its hooks untouched, is hookweave's own: verify says to update it, install writes today's."""
    bundle = str(Path(__file__).parent.parent / "data" / "claude" / "bundle")
    assert run("install", bundle, "--host", "cline").exit_code == 0
    path = project / ".clinerules" / "hooks" / "PreToolUse"
    today = path.read_text(encoding="utf-8")
    earlier = (Path(__file__).parent.parent / "data" / "cline" / "earlier-code.py.txt").read_text(encoding="utf-8")
    path.write_text(today[: len(today) - len(cline_dispatcher.program())] + earlier, encoding="utf-8")
    result = run("verify", "--host", "cline")
    assert result.exit_code == 0, result.output
    assert "earlier hookweave's dispatcher" in result.stdout
    result = run("install", bundle, "--host", "cline")
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == today
    assert run("uninstall", "guard", "--host", "cline").exit_code == 0
    assert not path.exists()


HOSTS = ["claude", "codex", "gemini", "cursor", "copilot", "qwen", "factory", "cline", "windsurf", "antigravity"]


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("host", HOSTS)
def test_a_timeout_the_host_cannot_keep_is_refused_at_install(run, project: Path, write_bundle, host: str) -> None:
    """A timeout past Node's timer (2^31 - 1 ms) fires at once in the JavaScript agents, and became an
    OverflowError in the chain runner and Cline's dispatcher (Antigravity: past 32 bits of seconds):
    install refuses it, exit 2, one line naming the manifest place and the fix, nothing written;
    the longest the host keeps installs."""
    from hookweave.core.contract.registry import registry

    limit = registry().get(host).timeout_max
    for timeout, chained in ((limit + 1, False), (10**30, False), (limit // 2 + 1, True)):
        hooks = "".join(f'[[hooks]]\nid = "h{i}"\nevent = "pre_tool_use"\ncommand = "true"\ntimeout = {timeout}\n'
                        for i in range(2 if chained else 1))
        order = 'order = "chain"\n' if chained else ""
        bundle = write_bundle(f'[bundle]\nname = "slow"\nversion = "1"\n{order}' + hooks)
        before = _snapshot(project)
        result = run("install", str(bundle), "--host", host)
        if chained and host == "cline":  # Cline: each member keeps its own timeout
            assert result.exit_code == 0, result.output
            assert run("uninstall", "slow", "--host", host).exit_code == 0
            continue
        if chained and host == "windsurf":  # no catch-all tool event: nothing to install, refused as such
            assert result.exit_code == 2 and "has nothing to install on windsurf" in result.stderr, result.output
            assert _snapshot(project) == before
            continue
        assert result.exit_code == 2, (timeout, result.output)
        assert result.stderr.count("\n") == 1 and "timeout" in result.stderr and str(limit) in result.stderr
        assert _snapshot(project) == before
    bundle = write_bundle(f'[bundle]\nname = "slow"\nversion = "1"\n[[hooks]]\nid = "h"\nevent = "pre_tool_use"\n'
                          f'matcher = ["shell"]\ncommand = "true"\ntimeout = {limit}\n')  # a tool: Windsurf needs one
    result = run("install", str(bundle), "--host", host)
    assert result.exit_code == 0, result.output


def test_a_dispatcher_of_the_python_with_site_format_is_ours_and_install_updates_it(run, project: Path) -> None:
    """Before issue 24 the file started ``#!/usr/bin/env python3`` and imported ``json`` and
    ``subprocess`` (43 ms a run): a file in that format, hooks untouched, is hookweave's own."""
    bundle = str(Path(__file__).parent.parent / "data" / "claude" / "bundle")
    assert run("install", bundle, "--host", "cline").exit_code == 0
    path = project / ".clinerules" / "hooks" / "PreToolUse"
    today = path.read_text(encoding="utf-8")
    earlier = (Path(__file__).parent.parent / "data" / "cline" / "earlier-code-2.py.txt").read_text(encoding="utf-8")
    seen = cline_dispatcher.read("PreToolUse", today)
    head = cline_dispatcher._head("PreToolUse", seen["hooks"]["PreToolUse"], seen["folders"],
                                  ("#!/usr/bin/env python3\n", "import json\nimport subprocess\nimport sys\n\n"))
    path.write_text(head + earlier, encoding="utf-8")
    result = run("verify", "--host", "cline")
    assert result.exit_code == 0, result.output
    assert "earlier hookweave's dispatcher" in result.stdout
    assert run("install", bundle, "--host", "cline").exit_code == 0
    assert path.read_text(encoding="utf-8") == today
    assert run("uninstall", "guard", "--host", "cline").exit_code == 0
    assert not path.exists()
