"""Run-time facts on the real agents (issue 10): what blocks a tool call and what the model is
told, whether an event's hooks start at once, and env the operator exports. Each run checks
verify's verdict against what fired.

One agent run serves several facts: the mock model asks for one shell call per blocking mode
(``echo mode-<name>``) in one reply, and tests/e2e/blocker.py answers each the way its mode says.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from realhosts import HERE, agent_binary, overlap, run_agent, shared, tool_results, write_operator_file

from hookweave.hosts.codex import trust_hash

CAP = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"
SLOW = 1.2  # seconds each probe sleeps: more than a hook's start-up under load, so overlap is proof
OFFLINE_GEMINI = {"security": {"auth": {"selectedType": "gemini-api-key"}}, "privacy": {"usageStatisticsEnabled": False},
                  "telemetry": {"enabled": False},
                  "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False}}
# Gemini CLI starts itself again only for a larger heap (its hooks get this variable either way):
# without that second start of the whole CLI a run costs about 1 s less CPU (docs/speed.md, round 5).
GEMINI_IN_PROCESS = {"GEMINI_CLI_NO_RELAUNCH": "true"}


def _blocker(tmp_path: Path, host: str) -> str:
    return f"python3 {HERE / 'blocker.py'} {tmp_path / 'blocker.log'} {host}"


# -- Claude ------------------------------------------------------------------------------------------

def _claude_env(mock, home: Path, **more: str) -> dict[str, str]:
    return {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
            "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", **more}


@pytest.mark.parametrize("permissions", [["--allowedTools", "Bash"], ["--dangerously-skip-permissions"]])
def test_claude_what_blocks_and_what_the_model_sees(mock, home, project, tmp_path, permissions) -> None:
    binary = agent_binary("claude")
    command = _blocker(tmp_path, "claude")
    write_operator_file(project / ".claude" / "settings.json", json.dumps(
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}}))
    mock.commands = [f"echo mode-{m}" for m in ("exit2", "block", "deny", "exit1", "plain", "none")]
    # IS_SANDBOX: Claude refuses --dangerously-skip-permissions to root otherwise (CI may run as root)
    run_agent([str(binary), "-p", "run the echo", *permissions], project, _claude_env(mock, home, IS_SANDBOX="1"))
    told = tool_results(mock, "claude")
    assert told["exit2"] == f"PreToolUse:Bash hook error: [{command}]: reason-exit2 from the hook\n"
    # 2.1.332 prefixes the JSON blocks too (2.1.197 told the reason alone): what check's note says
    assert told["block"] == "PreToolUse:Bash hook error: reason-block from the hook"
    assert told["deny"] == "PreToolUse:Bash hook error: reason-deny from the hook"
    assert (told["exit1"], told["plain"], told["none"]) == ("mode-exit1", "mode-plain", "mode-none")  # they ran


def test_claude_starts_hooks_at_once_and_keeps_an_exported_value(run, mock, home, project, probe, monkeypatch) -> None:
    """Case 7: an operator hook moved above our ``first`` hook changes nothing (both start at
    once), and verify says so with a note. Case 8: the operator exports the variables; install
    leaves them to the export (if-absent, at-least), and the hooks see the exported values."""
    binary = agent_binary("claude")
    monkeypatch.setenv(CAP, "100")
    monkeypatch.setenv("PROBE_VAR", "exported")
    settings = project / ".claude" / "settings.json"
    operator = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": probe.command("op-pre", SLOW)}]}]}
    write_operator_file(settings, json.dumps({"hooks": operator}, indent=2) + "\n")
    install = run("install", probe.bundle(sleep=SLOW, pre_position="first"), "--host", "claude")
    assert install.exit_code == 0, install.output
    assert "PROBE_VAR: kept the value 'exported' exported in this shell (policy if-absent)" in install.stdout
    data = json.loads(settings.read_text())
    assert "env" not in data  # nothing written over the exported values
    pre = data["hooks"]["PreToolUse"]
    data["hooks"]["PreToolUse"] = pre[1:] + pre[:1]  # the operator's hook above our first one
    settings.write_text(json.dumps(data, indent=2) + "\n")
    verify = run("verify", "--verbose", "--host", "claude", "--json")
    assert verify.exit_code == 0, verify.stdout
    [file] = json.loads(verify.stdout)["hosts"][0]["files"]
    statuses = {h["id"]: (h["status"], h["level"]) for h in file["bundles"][0]["hooks"]}
    assert statuses["pre"] == ("out-of-order", "note")
    run_agent([str(binary), "-p", "run the echo", "--allowedTools", "Bash"], project,
              _claude_env(mock, home, **{CAP: "100", "PROBE_VAR": "exported"}))
    calls = {c["id"]: c for c in probe.calls()}
    assert overlap(calls["op-pre"], calls["probe-pre"])  # started together: file order is not run order
    assert {c["id"]: c["env"][CAP] for c in calls.values()} == dict.fromkeys(calls, "100")
    assert {c["env"]["PROBE_VAR"] for c in calls.values()} == {"exported"}


def test_claude_settings_env_replaces_an_exported_value(run, mock, home, project, probe, monkeypatch) -> None:
    """The issue's case 8 as measured: installed while nothing was exported, the settings env
    (25) replaces the exported 100 in every hook; verify, in the exporting shell, says so. Then
    case 6: a local value above the at-least is what Claude uses, and verify only notes it."""
    binary = agent_binary("claude")
    assert run("install", probe.bundle(), "--host", "claude").exit_code == 0
    monkeypatch.setenv(CAP, "100")
    verify = run("verify", "--verbose", "--host", "claude")
    assert verify.exit_code == 1
    assert f"{CAP}='25' installed at project scope replaces the value '100' exported in this shell" in verify.stdout
    run_agent([str(binary), "-p", "run the echo", "--allowedTools", "Bash"], project, _claude_env(mock, home, **{CAP: "100"}))
    assert {c["env"][CAP] for c in probe.calls()} == {"25"}
    # Case 6: a local 50 shadows the installed at-least 25; Claude uses 50, which the policy allows.
    write_operator_file(project / ".claude" / "settings.local.json", json.dumps({"env": {CAP: "50"}}))
    shadowed = run("verify", "--verbose", "--host", "claude")
    assert shadowed.exit_code == 0, shadowed.stdout
    assert (f"note: probe: {CAP}='25' installed at project scope: Claude Code uses '50' from local settings, which "
            "policy at-least '25' allows") in shadowed.stdout
    run_agent([str(binary), "-p", "run the echo", "--allowedTools", "Bash"], project, _claude_env(mock, home, **{CAP: "100"}))
    assert {c["env"][CAP] for c in probe.calls()} == {"50"}


# -- Codex -------------------------------------------------------------------------------------------

def _codex(mock, home: Path, project: Path) -> tuple[dict[str, str], Path]:
    codex_home = home / ".codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(
        f'model = "mock-model"\nmodel_provider = "mock"\ncheck_for_update_on_startup = false\n'
        f'chatgpt_base_url = "{mock.url}/backend-api/"\n\n[model_providers.mock]\nname = "Mock"\n'
        f'base_url = "{mock.url}/v1"\nwire_api = "responses"\nenv_key = "MOCK_API_KEY"\n\n[analytics]\nenabled = false\n\n'
        '[features]\nplugins = false\nremote_plugin = false\nplugin_sharing = false\napps = false\n'
        f'in_app_updates = false\n\n[projects."{project}"]\ntrust_level = "trusted"\n')
    return {"HOME": str(home), "CODEX_HOME": str(codex_home), "MOCK_API_KEY": "dummy"}, codex_home


def _run_codex(project: Path, env: dict[str, str]) -> None:
    run_agent([str(agent_binary("codex")), "exec", "--skip-git-repo-check", "-s", "danger-full-access", "run the echo"],
              project, env)


def test_codex_what_blocks_and_what_the_model_sees(mock, home, project, tmp_path) -> None:
    agent_binary("codex")
    env, codex_home = _codex(mock, home, project)
    group = {"matcher": "^Bash$", "hooks": [{"type": "command", "command": _blocker(tmp_path, "codex")}]}
    (codex_home / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    key = f"{os.path.realpath(codex_home)}/hooks.json:pre_tool_use:0:0"
    with (codex_home / "config.toml").open("a") as config:
        config.write(f'\n[hooks.state."{key}"]\ntrusted_hash = "{trust_hash("PreToolUse", group, group["hooks"][0])}"\n')
    mock.commands = [f"echo mode-{m}" for m in ("exit2", "block", "deny", "exit1", "plain", "none")]
    _run_codex(project, env)
    told = tool_results(mock, "codex")
    for mode in ("exit2", "block", "deny"):
        assert told[mode] == f"Command blocked by PreToolUse hook: reason-{mode} from the hook. Command: echo mode-{mode}"
    for mode in ("exit1", "plain", "none"):
        assert told[mode].endswith(f"Output:\nmode-{mode}\n")  # it ran


def test_codex_starts_hooks_at_once_whatever_their_file_order(run, mock, home, project, probe, monkeypatch) -> None:
    """Case 7 on Codex: our two PreToolUse hooks swapped (and trusted again where they now stand)
    are reported out of order as a note; Codex starts both at once."""
    env, codex_home = _codex(mock, home, project)
    monkeypatch.setenv("HOOKWEAVE_CODEX_BIN", str(agent_binary("codex")))
    bundle = probe.bundle(sequential=True, sleep=SLOW)
    assert run("install", bundle, "--host", "codex", "--scope", "user", "--trust").exit_code == 0
    hooks = codex_home / "hooks.json"
    data = json.loads(hooks.read_text())
    data["hooks"]["PreToolUse"].reverse()
    hooks.write_text(json.dumps(data, indent=2) + "\n")
    assert run("install", bundle, "--host", "codex", "--scope", "user", "--trust").exit_code == 0  # trust, no move
    assert json.loads(hooks.read_text()) == data
    verify = run("verify", "--verbose", "--host", "codex", "--json")
    assert verify.exit_code == 0, verify.stdout
    statuses = {h["id"]: (h["status"], h["level"]) for f in json.loads(verify.stdout)["hosts"][0]["files"]
                for b in f["bundles"] for h in b["hooks"]}
    assert statuses["pre"] == ("out-of-order", "note")  # declared before pre-2, now after it
    _run_codex(project, env)
    calls = {c["id"]: c for c in probe.calls()}
    assert overlap(calls["probe-pre"], calls["probe-pre-2"])


# -- Gemini ------------------------------------------------------------------------------------------

def _gemini(mock, home: Path, settings: dict, **more: str) -> dict[str, str]:
    (home / ".gemini").mkdir(exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({**OFFLINE_GEMINI, **settings}))
    return {"HOME": str(home), "GEMINI_CLI_HOME": str(home), "GEMINI_API_KEY": "dummy",
            "GOOGLE_GEMINI_BASE_URL": mock.url, "GEMINI_CLI_TRUST_WORKSPACE": "true", **GEMINI_IN_PROCESS,
            **more}


def _run_gemini(project: Path, env: dict[str, str]) -> None:
    run_agent([str(agent_binary("gemini")), "-m", "gemini-2.5-flash", "--yolo", "-p", "run the echo"], project, env)


GEMINI_MODES = ("exit2", "exit3", "block", "deny", "exit1", "plain", "none")


def _gemini_blocks_beside_an_exported_value(run, mock, home, project, probe, tmp_path, monkeypatch) -> dict:
    """One Gemini run for two scenarios side by side: the blocker at user scope (BeforeTool, a shell
    call per mode), and in the project the operator's slow hook with a literal PROBE_VAR above our
    slow bundle, installed while PROBE_VAR is exported. Our hooks and the operator's print nothing, so
    what the model is told of each call is the blocker's answer alone."""
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    monkeypatch.setenv("PROBE_VAR", "exported")
    hooks = {"BeforeTool": [{"matcher": "run_shell_command",
                             "hooks": [{"type": "command", "name": "blocker", "command": _blocker(tmp_path, "gemini")}]}]}
    env = _gemini(mock, home, {"hooks": hooks}, PROBE_VAR="exported")
    settings = project / ".gemini" / "settings.json"
    operator = {"BeforeTool": [{"hooks": [{"type": "command", "name": "op-pre", "command": probe.command("op-pre", SLOW),
                                           "env": {"PROBE_VAR": "literal"}}]}]}
    write_operator_file(settings, json.dumps({"hooks": operator}, indent=2) + "\n")
    found = {"install": run("install", probe.bundle(sleep=SLOW, pre_position="first"), "--host", "gemini").exit_code}
    data = json.loads(settings.read_text())
    found["written"] = json.loads(json.dumps(data))
    pre = data["hooks"]["BeforeTool"]
    data["hooks"]["BeforeTool"] = pre[1:] + pre[:1]
    settings.write_text(json.dumps(data, indent=2) + "\n")
    verify = run("verify", "--verbose", "--host", "gemini", "--json")
    found["verify"] = (verify.exit_code, verify.stdout)
    mock.commands = [f"echo mode-{m}" for m in GEMINI_MODES]
    _run_gemini(project, env)
    found["told"], found["calls"] = tool_results(mock, "gemini"), probe.calls()
    return found


def test_gemini_what_blocks_and_what_the_model_sees(run, mock, home, project, probe, tmp_path, monkeypatch,
                                                    shared_runs) -> None:
    agent_binary("gemini")
    found = shared(shared_runs, "gemini", lambda: _gemini_blocks_beside_an_exported_value(
        run, mock, home, project, probe, tmp_path, monkeypatch))
    told = found["told"]
    for mode in ("exit2", "exit3", "block"):  # exit 3 blocks too, and its text is the reason
        assert json.loads(told[mode]) == {"error": f"Tool execution blocked: reason-{mode} from the hook"}
    for mode in ("deny", "exit1", "plain", "none"):  # Claude's permissionDecision means nothing to Gemini
        assert f"Output: mode-{mode}" in json.loads(told[mode])["output"]


def test_gemini_exported_value_and_parallel_order(run, mock, home, project, probe, tmp_path, monkeypatch,
                                                  shared_runs) -> None:
    """Case 8 on Gemini: a per-hook env value replaces the exported one (the operator's hook
    sets it literally), while our if-absent value, written ${VAR:-value}, lets the exported value
    through. Case 7: without sequential, an operator hook above our first BeforeTool hook is a
    note, and both start at once."""
    agent_binary("gemini")
    found = shared(shared_runs, "gemini", lambda: _gemini_blocks_beside_an_exported_value(
        run, mock, home, project, probe, tmp_path, monkeypatch))
    assert found["install"] == 0
    assert found["written"]["hooks"]["SessionStart"][0]["hooks"][0]["env"] == {"PROBE_VAR": "${PROBE_VAR:-from-bundle}"}
    code, stdout = found["verify"]
    assert code == 0, stdout
    statuses = {h["id"]: (h["status"], h["level"]) for f in json.loads(stdout)["hosts"][0]["files"]
                for b in f["bundles"] for h in b["hooks"]}
    assert statuses["pre"] == ("out-of-order", "note")
    calls = found["calls"]
    by_call: dict[str, dict[str, dict]] = {}
    for c in calls:
        if c["event"] == "BeforeTool":
            by_call.setdefault(c["command"], {})[c["id"]] = c
    assert sorted(by_call) == sorted(f"echo mode-{m}" for m in GEMINI_MODES)
    # Run one hook at a time, Gemini would overlap them in no call; under load a hook may start more
    # than SLOW late in one call of seven, so one call where both ran at once is the proof (as the
    # one call of the run this test had alone was).
    assert any(overlap(pair["op-pre"], pair["probe-pre"]) for pair in by_call.values()), {
        command: [(i, round(c["start"] % 100, 2), round(c["end"] % 100, 2)) for i, c in pair.items()]
        for command, pair in by_call.items()}
    assert {c["env"]["PROBE_VAR"] for c in calls if c["id"].startswith("probe-")} == {"exported"}
    assert {c["env"]["PROBE_VAR"] for c in calls if c["id"] == "op-pre"} == {"literal"}  # replaces the export
