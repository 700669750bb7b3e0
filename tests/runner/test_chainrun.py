"""The chain runner as hosts run it: the file install writes, started with ``python3 -S``, on real payloads.

Each test runs members that log what they saw, and asserts on the runner's whole stdout, its
exit code and the log: order, first block wins, combined answers, stdin, env and folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookweave.core.plan import chain
from hookweave.core.standalone import chainrun

PAYLOAD = {"session_id": "s", "cwd": "/x", "hook_event_name": "PreToolUse", "tool_name": "Bash",
           "tool_input": {"command": "ls"}}


@pytest.fixture(scope="module")
def runner(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("runner") / "settings.hookweave-chain.py"
    path.write_text(chain.runner_text(), encoding="utf-8")
    return path


def chain_run(runner: Path, host: str, event: str, members: list[tuple[str, str, str, str]], payload=PAYLOAD,
              cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    argv = ["python3", "-S", str(runner), host, event] + [w for m in members for w in m]
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return subprocess.run(argv, input=data, capture_output=True, cwd=cwd, env=env, timeout=60)


def say(text: str, log: Path, out: str = "") -> str:
    """A member command: appends ``text`` to ``log``, then prints ``out`` (JSON) on stdout."""
    printed = f"; printf '%s' {json.dumps(out)}" if out else ""
    return f"echo {text} >> {log}{printed}"


def context(text: str, event: str = "PreToolUse") -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}})


def test_members_run_in_declared_order_one_after_another(runner, tmp_path):
    log = tmp_path / "log"
    slow = f"echo start-a >> {log}; sleep 0.3; echo end-a >> {log}"
    done = chain_run(runner, "claude", "PreToolUse", [("a", "5", "", slow), ("b", "5", "", say("b", log)),
                                                         ("c", "5", "", say("c", log))])
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert log.read_text() == "start-a\nend-a\nb\nc\n"


def test_first_block_wins_its_output_and_code_reach_the_host_and_later_members_do_not_run(runner, tmp_path):
    log = tmp_path / "log"
    block = f"echo b >> {log}; echo 'no rm, please' >&2; printf partial; exit 2"
    done = chain_run(runner, "claude", "PreToolUse", [("a", "5", "", say("a", log, context("A"))),
                                                         ("b", "5", "", block), ("c", "5", "", say("c", log))])
    assert done.returncode == 2
    assert done.stdout == b"partial"
    assert done.stderr == b"no rm, please\n"  # the blocking member's own: the model reads it on Claude
    assert log.read_text() == "a\nb\n"


def test_a_json_deny_blocks_with_exit_zero_and_its_own_json(runner, tmp_path):
    log = tmp_path / "log"
    deny = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                              "permissionDecisionReason": "guarded"}})
    done = chain_run(runner, "codex", "PreToolUse", [("a", "5", "", say("a", log, deny)), ("b", "5", "", say("b", log))])
    assert (done.returncode, done.stdout.decode()) == (0, deny)
    assert log.read_text() == "a\n"


def test_allowing_answers_are_combined_in_order_with_the_strictest_permission(runner, tmp_path):
    log = tmp_path / "log"
    ask = json.dumps({"systemMessage": "m2", "hookSpecificOutput": {
        "hookEventName": "PreToolUse", "additionalContext": "B", "permissionDecision": "ask",
        "permissionDecisionReason": "check b"}})
    allow = json.dumps({"systemMessage": "m3", "hookSpecificOutput": {
        "hookEventName": "PreToolUse", "additionalContext": "C", "permissionDecision": "allow"}})
    done = chain_run(runner, "claude", "PreToolUse", [("a", "5", "", say("a", log, context("A"))),
                                                         ("b", "5", "", say("b", log, ask)), ("c", "5", "", say("c", log, allow))])
    assert done.returncode == 0 and done.stderr == b""
    assert json.loads(done.stdout) == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "additionalContext": "A\nB\nC", "permissionDecision": "ask",
        "permissionDecisionReason": "check b"}, "systemMessage": "m2\nm3"}


def test_every_member_reads_the_whole_payload_and_runs_in_the_hosts_folder_and_env(runner, tmp_path):
    big = dict(PAYLOAD, tool_input={"content": "x" * 300_000})  # more than any pipe holds
    seen = [tmp_path / f"in{i}" for i in range(3)]
    members = [(f"m{i}", "5", "", f"cat > {p}; pwd >> {p}.cwd; printf %s \"$HOOK_PROBE\" >> {p}.env")
               for i, p in enumerate(seen)]
    work = tmp_path / "work"
    work.mkdir()
    done = chain_run(runner, "claude", "PreToolUse", members, payload=big, cwd=work,
                     env={**os.environ, "HOOK_PROBE": "from-host"})
    assert done.returncode == 0, done.stderr
    for p in seen:
        assert json.loads(p.read_text()) == big
        assert Path(f"{p}.cwd").read_text() == f"{work}\n"
        assert Path(f"{p}.env").read_text() == "from-host"


def test_a_crash_a_timeout_and_invalid_json_go_on_as_the_host_would_and_name_the_member(runner, tmp_path):
    log = tmp_path / "log"
    members = [("crash", "5", "", f"echo crash >> {log}; echo boom >&2; exit 1"),
               ("slow", "1", "", f"echo slow >> {log}; sleep 30; echo never >> {log}"),
               ("junk", "5", "", f"echo junk >> {log}; printf '{{not json'"),
               ("last", "5", "", say("last", log, context("L")))]
    done = chain_run(runner, "claude", "PreToolUse", members)
    assert done.returncode == 0
    assert json.loads(done.stdout) == json.loads(context("L"))
    assert done.stderr.decode() == (
        "boom\nhookweave chain: crash: exit 1: Failed with non-blocking status code: boom; the chain went on, as "
        "claude does\nhookweave chain: slow timed out after 1 s; the chain went on, as claude does\n"
        "hookweave chain: junk: plain stdout: Claude Code shows it only in the transcript view\n")
    assert log.read_text() == "crash\nslow\njunk\nlast\n"


def test_a_timed_out_member_is_killed_with_its_children(runner, tmp_path):
    mark = tmp_path / "mark"
    done = chain_run(runner, "claude", "Stop", [("bg", "1", "", f"(sleep 2; touch {mark}) & sleep 30")])
    assert done.returncode == 0
    import time

    time.sleep(2.5)
    assert not mark.exists()


@pytest.mark.parametrize("host, event, matcher, tool, runs", [
    ("claude", "PreToolUse", "Bash", "Bash", True),
    ("claude", "PreToolUse", "Edit", "NotebookEdit", False),  # a plain name list is exact on Claude
    ("claude", "PreToolUse", "Edit|Write", "Write", True),
    ("claude", "PreToolUse", "Edit, Write", "Write", True),
    ("claude", "PreToolUse", "^Note.*", "NotebookEdit", True),
    ("claude", "PreToolUse", "[", "Bash", False),  # an invalid regex matches nothing
    ("claude", "PreToolUse", "*", "Anything", True),
    ("claude", "Stop", "Bash", "", True),  # an event without matchers runs every member
    ("codex", "PreToolUse", "Edit", "NotebookEdit", True),  # a regex, unanchored
    ("codex", "PreToolUse", "^Write$", "apply_patch", True),  # apply_patch answers to Write and Edit
    ("codex", "PreToolUse", "(", "Bash", False),
    ("gemini", "BeforeTool", "write_.*", "write_file", True),
    ("gemini", "BeforeTool", "(", "(", True),  # an invalid regex falls back to an exact compare
    ("gemini", "BeforeTool", "read", "write_file", False),
    ("cursor", "preToolUse", "Shell", "Shell", True),
    ("copilot", "preToolUse", "bash", "bash", True),
    ("copilot", "preToolUse", "bas", "bash", False),  # anchored: ^(?:bas)$
    ("copilot", "preToolUse", "edit|create", "create", True),
    ("copilot", "preToolUse", "(", "(", False),  # an invalid regex skips the entry
    ("qwen", "PreToolUse", "run_shell_command", "run_shell_command", True),
    ("qwen", "PreToolUse", " write_file | edit ", "edit", True),  # a list of names, trimmed
    ("qwen", "PreToolUse", "write", "write_file", True),  # else an unanchored regex
    ("qwen", "PreToolUse", ".*", "anything", True),
    ("qwen", "PreToolUse", "[", "[", True),  # an exact name before any regex
    ("factory", "PreToolUse", "Execute", "Execute", True),
    ("factory", "PreToolUse", "Edit", "MultiEdit", True),  # an unanchored regex
    ("factory", "PreToolUse", "(", "Execute", False),
    ("antigravity", "PreToolUse", "run_command", "run_command", True),
    ("antigravity", "PreToolUse", "view_file", "run_command", False),
    ("windsurf", "pre_run_command", "run_command", "", True),  # no matcher field: the event is the tool
])
def test_each_member_matcher_is_applied_as_the_host_applies_it(host, event, matcher, tool, runs):
    payload = {"tool_name": tool, "toolName": tool, "toolCall": {"name": tool, "args": {}}}
    assert chainrun.matches(host, event, matcher, payload) is runs


def test_members_with_different_matchers_share_one_chain(runner, tmp_path):
    log = tmp_path / "log"
    members = [("bash", "5", "Bash", say("bash", log)), ("write", "5", "Write|Edit", say("write", log)),
               ("all", "5", "", say("all", log))]
    chain_run(runner, "claude", "PreToolUse", members, payload=dict(PAYLOAD, tool_name="Write"))
    assert log.read_text() == "write\nall\n"


def test_bad_arguments_are_a_non_blocking_error_naming_the_fix(runner):
    done = chain_run(runner, "claude", "PreToolUse", [("a", "5", "")])  # three words, not four
    assert done.returncode == 1
    assert done.stderr.decode().startswith("hookweave chain: bad arguments (")
    assert done.stderr.decode().endswith("); reinstall the bundle\n")


@pytest.mark.parametrize("host", ["claude", "codex", "gemini", "cursor", "copilot", "qwen", "factory", "windsurf",
                                  "antigravity", "cline"])
def test_the_runners_silent_allow_is_what_the_shared_table_says(host):
    """The runner answers a silent exit 0 without loading the table: the table must agree, on every event."""
    from hookweave.core.model import names
    from hookweave.core.standalone import protocol

    events = {n for row in names.EVENTS.values() for n in row if n} | set(chainrun.QUERY.get(host, ()))
    for event in sorted(events):
        verdict = protocol.judge(host, event, 0, "", " \n")
        assert (verdict.action, verdict.reason, verdict.output) == tuple(chainrun.ALLOW)[:3], (host, event)


def test_the_runner_loads_no_heavy_module(runner, tmp_path):
    """``-S`` and no ``re``, ``json``, ``subprocess`` or ``signal``: the few ms it costs per event."""
    probe = tmp_path / "probe.py"
    probe.write_text(runner.read_text() .replace('if __name__ == "__main__":', "if False:")
                     + "\nimport sys\nprint(sorted(m for m in ('re', 'json', 'subprocess', 'signal', 'hookweave') "
                     "if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-S", str(probe)], capture_output=True, text=True, timeout=30)
    assert done.stdout == "[]\n", done.stderr


def test_a_chain_the_host_stops_stops_its_running_member_too(runner, tmp_path):
    """Members run in process groups of their own (so a timeout kills what they started): the
    host's SIGTERM to the chain must still end the member running then."""
    import signal
    import time

    mark = tmp_path / "mark"
    argv = ["python3", "-S", str(runner), "claude", "Stop", "slow", "30", "", f"sleep 1.5; touch {mark}"]
    chain_proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    chain_proc.stdin.write(b"{}")
    chain_proc.stdin.close()
    time.sleep(0.5)
    chain_proc.send_signal(signal.SIGTERM)
    assert chain_proc.wait(timeout=10) == 128 + signal.SIGTERM
    time.sleep(1.5)
    assert not mark.exists()


def test_the_runner_sources_share_one_namespace_without_a_clash():
    """The runner file runs chainanswer.py's, chainproc.py's and chainrun.py's code as one module:
    no name may be defined in two of them (the later would silently replace the earlier)."""
    import ast

    def defined(name: str) -> set[str]:
        tree = ast.parse((Path(chainrun.__file__).parent / name).read_text(encoding="utf-8"))
        out = set()
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                out.add(node.name)
            elif isinstance(node, ast.Assign):
                out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        return out

    names = ("jsonfast.py", "chainanswer.py", "chainproc.py", "chainrun.py")
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            assert defined(first) & defined(second) == set(), (first, second)


def test_the_protocol_parts_share_one_namespace_without_a_clash():
    """The runner file runs every file of ``protocol.PARTS`` as one module: no name but the guarded
    imports may be defined in two of them."""
    import ast

    from hookweave.core.standalone import protocol

    seen: dict[str, str] = {}
    clashes = []
    for name in protocol.PARTS:
        tree = ast.parse((Path(protocol.__file__).parent / name).read_text(encoding="utf-8"))
        for node in tree.body:
            names = ({node.name} if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else
                     {t.id for t in node.targets if isinstance(t, ast.Name)} if isinstance(node, ast.Assign) else set())
            for defined in names:
                if defined in seen:
                    clashes.append((defined, seen[defined], name))
                seen[defined] = name
    assert clashes == []


# -- the newer hosts: each one's own way of reading an answer, through the runner file ------------

COPILOT = {"sessionId": "s", "timestamp": 1, "cwd": "/x", "toolName": "bash", "toolArgs": {"command": "ls"}}


def test_copilot_a_failing_member_denies_and_ends_the_chain_a_timeout_goes_on(runner, tmp_path):
    """Copilot denies a preToolUse call on any non-zero exit (fail-closed) but lets a timed-out hook
    through: the chain does the same, member by member."""
    log = tmp_path / "log"
    members = [("slow", "1", "bash", f"echo slow >> {log}; sleep 30"), ("crash", "5", "", f"echo crash >> {log}; exit 1"),
               ("never", "5", "", say("never", log))]
    done = chain_run(runner, "copilot", "preToolUse", members, payload=COPILOT)
    assert (done.returncode, done.stdout, done.stderr) == (1, b"", b"")
    assert log.read_text() == "slow\ncrash\n"


def test_copilot_top_level_answers_are_combined_and_its_matcher_is_anchored(runner, tmp_path):
    log = tmp_path / "log"
    one = json.dumps({"additionalContext": "A", "permissionDecision": "allow"})
    two = json.dumps({"additionalContext": "B", "permissionDecision": "ask", "permissionDecisionReason": "check"})
    members = [("one", "5", "bash", say("one", log, one)), ("two", "5", "ba", say("two", log, "{}")),
               ("three", "5", "", say("three", log, two))]
    done = chain_run(runner, "copilot", "preToolUse", members, payload=COPILOT)
    assert done.returncode == 0 and done.stderr == b""
    assert json.loads(done.stdout) == {"additionalContext": "A\nB", "permissionDecision": "ask",
                                       "permissionDecisionReason": "check"}
    assert log.read_text() == "one\nthree\n"


def test_qwen_exit_2_without_a_reason_goes_on_and_a_json_block_on_exit_1_ends_it(runner, tmp_path):
    """Qwen reads stderr on exit 2 (empty: no decision) and JSON whatever the exit code."""
    log = tmp_path / "log"
    block = json.dumps({"decision": "block", "reason": "not this"})
    members = [("quiet", "5", "", f"echo quiet >> {log}; exit 2"),
               ("json", "5", "", f"echo json >> {log}; printf '%s' '{block}'; exit 1"), ("never", "5", "", say("n", log))]
    done = chain_run(runner, "qwen", "PreToolUse", members, payload=dict(PAYLOAD, tool_name="run_shell_command"))
    assert (done.returncode, done.stdout.decode()) == (1, block)
    assert log.read_text() == "quiet\njson\n"


def test_factory_exit_3_aborts_through_the_chain(runner, tmp_path):
    """Droid aborts the agent on exit 3: the chain ends there with that code and the member's stderr."""
    log = tmp_path / "log"
    members = [("warn", "5", "", f"echo warn >> {log}; echo careful >&2; exit 1"),
               ("abort", "5", "Execute", f"echo abort >> {log}; echo stop here >&2; exit 3"),
               ("never", "5", "", say("never", log))]
    done = chain_run(runner, "factory", "PreToolUse", members, payload=dict(PAYLOAD, tool_name="Execute"))
    assert (done.returncode, done.stdout, done.stderr) == (3, b"", b"stop here\n")
    assert log.read_text() == "warn\nabort\n"


def test_antigravity_matches_on_the_tool_call_s_name(runner, tmp_path):
    log = tmp_path / "log"
    payload = {"conversationId": "c", "toolCall": {"name": "view_file", "args": {"AbsolutePath": "/x"}}}
    members = [("shell", "5", "run_command", say("shell", log)), ("view", "5", "view_file", say("view", log))]
    done = chain_run(runner, "antigravity", "PreToolUse", members, payload=payload)
    assert (done.returncode, log.read_text()) == (0, "view\n")
