"""Issue 25 part 4 on the real Copilot CLI (1.0.102, offline): one install for Claude and Copilot
writes a hook Copilot runs from Claude's project settings there only, and Copilot runs it exactly
once per tool call, its matcher honoured, its answer heeded; Claude runs it once too. The facts the
plan rests on (``also_reads`` in hosts/copilot/__init__.py) are measured here as well: Claude's payload and
tool names, ~/.claude/settings.json not read, an untrusted folder skipping Claude's file too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from realhosts import HERE, ids, tool_results, write_operator_file
from test_copilot_real import copilot, trust  # noqa: F401 - the fixture, offline against the mock


def _bundle(folder: Path, probe) -> str:
    """A hook per event Copilot covers and one matched to each of two tools; a guard answering as
    the shell command asks (tests/e2e/blocker.py)."""
    (folder / "blocker.py").write_text((HERE / "blocker.py").read_text())

    def hook(hook_id: str, event: str, matcher: str = "") -> str:
        return (f'[[hooks]]\nid = "{hook_id}"\nevent = "{event}"\n{matcher}'
                f'command = ["python3", "{probe.folder}/probe.py", "once-{hook_id}", "{probe.log}"]\n')

    shell, write = 'matcher = ["shell"]\n', 'matcher = ["write"]\n'
    (folder / "hookweave.toml").write_text(
        '[bundle]\nname = "once"\nversion = "1.0.0"\n' + hook("start", "session_start")
        + hook("prompt", "user_prompt_submit") + hook("pre-shell", "pre_tool_use", shell)
        + hook("pre-write", "pre_tool_use", write) + hook("post-shell", "post_tool_use", shell)
        + hook("stop", "stop") + hook("end", "session_end")
        + '[[hooks]]\nid = "guard"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
        f'command = ["python3", "{{bundle_dir}}/blocker.py", "{folder}/blocks.jsonl", "claude"]\n')
    return str(folder)


@pytest.fixture
def once(run, probe, tmp_path: Path, project: Path, copilot) -> str:  # copilot first: it trusts the folder
    folder = tmp_path / "once"
    folder.mkdir()
    bundle = _bundle(folder, probe)
    result = run("install", bundle, "--host", "claude", "--host", "copilot")
    assert result.exit_code == 0, result.output
    assert "copilot project .github/hooks/hookweave.json: once 1.0.0: 8 hooks (start, prompt, pre-shell, pre-write, " \
           "post-shell, stop, end, guard) not written here" in result.stdout
    assert not (project / ".github").exists()
    verify = run("verify", "--verbose", "--host", "claude", "--host", "copilot")
    assert verify.exit_code == 0 and "twice" not in verify.stdout, verify.stdout
    assert "copilot  project  once 1.0.0  8 hooks ok  .claude/settings.json (Claude Code's, which Copilot CLI runs)" \
           in verify.stdout
    return bundle


def test_copilot_runs_each_hook_once_from_claudes_file_its_matcher_honoured(run, once, copilot, mock, probe,
                                                                           project, shell_run) -> None:
    shared = _shell_run(shell_run, copilot, mock, probe)
    calls = [c for c in shared["calls"] if c["command"] in (NONE, None)]  # the call the guard lets run, and no call's
    # once per event and per tool call: the write hook not at all (no file was created)
    assert ids(calls) == ["once-end", "once-post-shell", "once-pre-shell", "once-prompt", "once-start", "once-stop"]
    assert {c["tool"] for c in calls if c["id"] in ("once-pre-shell", "once-post-shell")} == {"Bash"}  # Claude's name
    assert {c["event"] for c in calls if c["id"] == "once-stop"} == {"Stop"}  # Claude's payload
    # A file created: the write hook runs once, the shell hooks do not.
    mock.chat_calls = [("create", {"path": str(project / "new.txt"), "file_text": "x\n"})]
    copilot()
    tools = ("once-pre-shell", "once-pre-write", "once-post-shell")
    assert [c["id"] for c in probe.calls() if c["id"] in tools] == ["once-pre-write"]
    assert (project / "new.txt").read_text() == "x\n"


GUARD_MODES = ("exit2", "deny")


@pytest.fixture(scope="module")
def shell_run() -> dict:
    """One Copilot run with three shell calls in the mock's one reply: one the guard lets run (the
    hooks-once test's) and one for each guard mode (exit 2, deny); what the hooks logged and what
    the model was told of each call. Built by whichever test runs first, inside that test's own HOME
    and project (its fixtures, so nothing_left_running covers the run); the others read it."""
    return {}


NONE = "echo mode-none hookweave-e2e"


def _shell_run(cache: dict, copilot, mock, probe) -> dict:
    if not cache:
        mock.commands = [NONE, *(f"echo mode-{m}" for m in GUARD_MODES)]
        copilot()
        cache.update(calls=probe.calls(), told=tool_results(mock, "copilot"))
    return cache


@pytest.mark.parametrize("mode", GUARD_MODES)
def test_claudes_guard_blocks_copilots_shell_as_its_own_would(run, once, copilot, mock, probe, mode,
                                                             shell_run) -> None:
    said = _shell_run(shell_run, copilot, mock, probe)["told"][mode]
    assert said.startswith("Denied by preToolUse hook"), said
    if mode == "deny":
        assert "reason-deny from the hook" in said


def test_claude_runs_each_hook_once_too(run, once, claude, probe) -> None:
    claude()  # the same six, once each: the one copy is Claude's own
    assert ids(probe.calls()) == ["once-end", "once-post-shell", "once-pre-shell", "once-prompt", "once-start",
                                  "once-stop"]


def test_copilot_reads_no_claude_user_file_and_skips_claudes_project_file_untrusted(copilot, probe, home,
                                                                                     project) -> None:
    """What the plan rests on: at user scope each agent needs its own copy; Copilot's trust gate
    holds for Claude's project settings too (so verify names it for the hooks it runs from there)."""
    def settings(hook_id: str) -> str:
        group = {"hooks": [{"type": "command", "command": probe.command(hook_id)}]}
        return json.dumps({"hooks": {"SessionStart": [group]}}, indent=2) + "\n"

    write_operator_file(home / ".claude" / "settings.json", settings("claude-user"))
    write_operator_file(project / ".claude" / "settings.json", settings("claude-project"))
    copilot()
    assert ids(probe.calls()) == ["claude-project"]
    trust(home, project, ["/somewhere/else"])
    copilot()
    assert probe.calls() == []
