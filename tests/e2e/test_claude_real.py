"""Claude Code, the real binary: installed hooks fire, env reaches them, uninstall and gates are true."""

from __future__ import annotations

import json
from pathlib import Path

from realhosts import ids, write_operator_file


def _operator_settings(project: Path, probe) -> tuple[Path, str]:
    hooks = probe.operator_hooks(("SessionStart", "PreToolUse", "Stop"))
    text = json.dumps({"permissions": {"allow": ["Bash(ls:*)"]}, "env": {"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "10"},
                       "hooks": hooks}, indent=4) + "\n"
    return write_operator_file(project / ".claude" / "settings.json", text)


def test_installed_hooks_fire_once_with_env_and_are_gone_after_uninstall(run, claude, probe, project) -> None:
    settings, original = _operator_settings(project, probe)
    assert run("install", probe.bundle(), "--host", "claude").exit_code == 0
    assert run("verify", "--verbose", "--host", "claude").exit_code == 0
    claude()
    calls = probe.calls()
    assert ids(calls) == ["op-PreToolUse", "op-SessionStart", "op-Stop", "probe-pre", "probe-start", "probe-stop"]
    events = {c["id"]: c["event"] for c in calls}
    assert (events["probe-start"], events["probe-pre"], events["probe-stop"]) == ("SessionStart", "PreToolUse", "Stop")
    for call in calls:  # settings env reaches every hook; the block cap was raised from 10 to 25
        assert {k: call["env"][k] for k in ("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "PROBE_VAR")} == {
            "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "25", "PROBE_VAR": "from-bundle"}  # (the probe logs other agents' too)
    assert run("uninstall", "probe", "--host", "claude").exit_code == 0
    assert settings.read_text() == original
    claude()
    after = probe.calls()
    assert ids(after) == ["op-PreToolUse", "op-SessionStart", "op-Stop"]
    assert {c["env"]["CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"] for c in after} == {"10"}  # the operator's value is back


def test_disable_all_hooks_is_caught_by_verify_and_really_stops_them(run, claude, probe, project) -> None:
    _operator_settings(project, probe)
    run("install", probe.bundle(), "--host", "claude")
    (project / ".claude" / "settings.local.json").write_text('{"disableAllHooks": true}\n')
    verify = run("verify", "--verbose", "--host", "claude")
    assert verify.exit_code == 1 and "disableAllHooks" in verify.stdout
    claude()
    assert probe.calls() == []
