"""Claude Code 2.1.332's variables that switch hooks off, and those that look like it and do not:
verify's verdict in the shell that starts Claude, against what fired (issue 23, case 1)."""

from __future__ import annotations

import json

import pytest
from realhosts import agent_binary, ids, run_agent, write_operator_file


def _claude(mock, home, project, **env: str) -> None:
    base = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
            "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    run_agent([str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"], project, {**base, **env})


@pytest.mark.parametrize(("variable", "mode"), [("CLAUDE_CODE_SIMPLE", "bare mode"),
                                                ("CLAUDE_CODE_SAFE_MODE", "safe mode"),
                                                ("CLAUDE_CODE_RESTRICTED", "restricted mode")])
def test_a_switch_in_the_shell_is_a_warning_and_no_hook_of_ours_runs(run, mock, home, project, probe, monkeypatch,
                                                                     variable, mode) -> None:
    """Without managed hooks nothing ran, with the variable at "true" (Claude's truthy test); at "0" all ran."""
    assert run("install", probe.bundle(), "--host", "claude").exit_code == 0
    monkeypatch.setenv(variable, "true")
    verify = run("verify", "--verbose", "--host", "claude")
    assert f"  warning: {variable} is set in this shell: a Claude started from it ({mode}) runs only managed hooks" \
        in verify.stdout, verify.stdout
    _claude(mock, home, project, **{variable: "true"})
    assert probe.calls() == []
    monkeypatch.setenv(variable, "0")
    assert variable not in run("verify", "--verbose", "--host", "claude").stdout
    _claude(mock, home, project, **{variable: "0"})
    assert ids(probe.calls()) == ["probe-pre", "probe-start", "probe-stop"]


def test_restrict_personal_config_keeps_user_hooks_under_a_project_disable_all_hooks(run, mock, home, project, probe,
                                                                                      monkeypatch) -> None:
    """Ours at user scope, the operator's at project scope with disableAllHooks: true. With
    CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG set, ours ran and the operator's did not, and verify
    passes with a note; CLAUDE_CODE_PERSONAL_HOOKS_OFF changed nothing. Without it nothing ran,
    and verify fails."""
    write_operator_file(project / ".claude" / "settings.json",
                        json.dumps({"disableAllHooks": True, "hooks": probe.operator_hooks(("SessionStart", "Stop"))}))
    assert run("install", probe.bundle(), "--host", "claude", "--scope", "user").exit_code == 0
    monkeypatch.setenv("CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG", "1")
    monkeypatch.setenv("CLAUDE_CODE_PERSONAL_HOOKS_OFF", "1")
    verify = run("verify", "--verbose", "--host", "claude")
    assert verify.exit_code == 0, verify.stdout
    assert ("  note: project settings set disableAllHooks, but CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG is set in this "
            "shell: a Claude started from it runs only the user and managed settings' hooks") in verify.stdout
    assert "  note: CLAUDE_CODE_PERSONAL_HOOKS_OFF is set in this shell: Claude only words a notice" in verify.stdout
    _claude(mock, home, project, CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG="1", CLAUDE_CODE_PERSONAL_HOOKS_OFF="1")
    assert ids(probe.calls()) == ["probe-pre", "probe-start", "probe-stop"]
    monkeypatch.delenv("CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG")
    monkeypatch.delenv("CLAUDE_CODE_PERSONAL_HOOKS_OFF")
    verify = run("verify", "--verbose", "--host", "claude")
    assert verify.exit_code == 1 and "  problem: project settings set disableAllHooks" in verify.stdout
    _claude(mock, home, project)
    assert probe.calls() == []
