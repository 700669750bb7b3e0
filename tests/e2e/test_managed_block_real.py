"""Issue 34 item 5, measured on Claude Code 2.1.332: a managed PreToolUse hook that blocks a call
(exit 2, a JSON ``permissionDecision: "deny"`` or ``decision: "block"``) stops the user and project
hooks of that call; one that asks, allows or says nothing does not. The same on UserPromptSubmit for
a blocked prompt. The managed layer is /etc in an overlay, as in test_managed_real.py (needs root)."""

from __future__ import annotations

import json

import pytest
from realhosts import HERE, agent_binary, run_agent, tool_results
from test_managed_real import etc, in_overlay  # noqa: F401  (etc: the fixture this module's test takes)

MODES = ("exit2", "deny", "block", "ask", "allowreason", "none")  # tests/e2e/answers.py answers each this way
NOTE = ("  note: Claude runs an event's managed hooks first, all at once, and starts the user, project and local ones "
        "only after the last managed one has ended; on PreToolUse, not at all for a tool call a managed hook blocks "
        '(exit 2, permissionDecision "deny" or decision "block"; "ask" does not stop them)\n')


def _bundles(tmp_path, probe, event: str) -> tuple[str, str]:
    """Ours at managed scope answering as the call or prompt asks (answers.py), ours at project scope logging."""
    fleet, team = tmp_path / "fleet", tmp_path / "team"
    matcher = 'matcher = ["shell"]\n' if event == "pre_tool_use" else ""
    for folder, hook in ((fleet, f'"python3", "{HERE / "answers.py"}", "{tmp_path / "payloads"}", "claude"'),
                         (team, f'"python3", "{probe.folder}/probe.py", "project-pre", "{probe.log}"')):
        folder.mkdir()
        (folder / "hookweave.toml").write_text(
            f'[bundle]\nname = "{folder.name}"\nversion = "1.0.0"\n[[hooks]]\nid = "pre"\nevent = "{event}"\n'
            f'{matcher}command = [{hook}]\n')
    return str(fleet), str(team)


def test_a_managed_block_stops_the_user_and_project_hooks_of_that_call(run, mock, probe, home, project, etc,  # noqa: F811
                                                                       monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("HOOKWEAVE_CLAUDE_MANAGED_DIR", str(etc / "claude-code"))
    fleet, team = _bundles(tmp_path, probe, "pre_tool_use")
    assert run("install", fleet, "--host", "claude", "--scope", "managed").exit_code == 0
    assert run("install", team, "--host", "claude", "--scope", "project").exit_code == 0
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": probe.command("user-pre")}]}]}}))
    verify = run("verify", "--verbose", "--host", "claude")
    assert verify.exit_code == 0 and NOTE in verify.stdout, verify.stdout

    mock.commands = [f"echo mode-{mode}" for mode in MODES]
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    run_agent(in_overlay([str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"], etc), project,
              env)
    ran = sorted((c["id"], c["command"]) for c in probe.calls())
    assert ran == sorted((hook, f"echo mode-{mode}") for hook in ("project-pre", "user-pre")
                         for mode in ("ask", "allowreason", "none"))
    told = tool_results(mock, "claude")
    assert sorted(told) == sorted(MODES)  # every call was answered (answers.py's payload files may race: not counted)
    for mode in ("exit2", "deny", "block"):  # blocked: the managed hook's reason, the command never ran
        assert "PreToolUse:Bash hook error" in told[mode] and f"reason-{mode} from the hook" in told[mode], told
    assert told["ask"] == "reason-ask from the hook"  # print mode: the ask refused the call, the others still ran
    assert (told["allowreason"], told["none"]) == ("mode-allowreason", "mode-none")


@pytest.mark.parametrize(("mode", "ran"), [("block", False), ("exit2", False), ("none", True)])
def test_a_managed_prompt_block_stops_the_project_prompt_hook(mode, ran, run, mock, probe, home, project, etc,  # noqa: F811
                                                              monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("HOOKWEAVE_CLAUDE_MANAGED_DIR", str(etc / "claude-code"))
    fleet, team = _bundles(tmp_path, probe, "user_prompt_submit")
    assert run("install", fleet, "--host", "claude", "--scope", "managed").exit_code == 0
    assert run("install", team, "--host", "claude", "--scope", "project").exit_code == 0
    verify = run("verify", "--host", "claude")
    assert verify.exit_code == 0 and NOTE.replace("PreToolUse", "UserPromptSubmit").replace("tool call", "prompt") \
        in verify.stdout, verify.stdout
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    said = run_agent(in_overlay([str(agent_binary("claude")), "-p", f"say mode-{mode}"], etc), project, env).stdout
    assert [c["id"] for c in probe.calls()] == (["project-pre"] if ran else [])
    assert ("UserPromptSubmit operation blocked by hook" in said) is not ran, said
