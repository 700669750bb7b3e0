"""``hooks check`` against the real agents (issue 12): for one hook answering in thirteen ways
(tests/e2e/answers.py), check's prediction (block or not) on each payload equals what the agent
then did with a shell call carrying the same answer; on the prompt event, check's "context for
the model" equals whether the hook's plain stdout reached the model. One agent run per host
serves every mode; the payloads the agent sent are compared, key for key, with the ones check
ships."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from realhosts import HERE, agent_binary, run_agent, tool_results

from hookweave.core.runtime import payloads
from hookweave.hosts.codex import trust_hash

MODES = ("none", "exit2", "exit1", "exit3", "noreason", "plain", "block", "deny", "crossdeny", "stray", "badjson",
         "allowreason", "noise")
PRE = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}
PROMPT = {"claude": "UserPromptSubmit", "codex": "UserPromptSubmit", "gemini": "BeforeAgent"}
STOP = {"claude": "Stop", "codex": "Stop", "gemini": "AfterAgent"}
START = "SessionStart"
POST = {"claude": "PostToolUse", "codex": "PostToolUse", "gemini": "AfterTool"}
ASK = "run the echo mode-plain"
REPORT = os.environ.get("HOOKWEAVE_CHECK_REPORT")  # where to append the predictions table, if set


def _command(folder: Path, host: str) -> str:
    return f"python3 {HERE / 'answers.py'} {folder} {host}"


def _predict(run, tmp_path: Path, project: Path, host: str) -> tuple[dict[str, str], bool]:
    """check's verdict on each mode's PreToolUse payload, and whether it says the prompt hook's
    plain stdout reaches the model."""
    shipped = payloads.for_event(host, PRE[host], str(project), str(tmp_path / "t.jsonl"))[0].data
    files = []
    for mode in MODES:
        data = {**shipped, "tool_input": {**shipped["tool_input"], "command": f"echo mode-{mode}"}}
        path = tmp_path / f"mode-{mode}.json"
        path.write_text(json.dumps(data))
        files += ["--payload", str(path)]
    command = _command(tmp_path / "check-payloads", host)
    pre = run("check", "--hand-written", command, "--event", "pre_tool_use", "--host", host, *files, "--json")
    actions = {r["payload"][len("your payload mode-"):-5]: r["action"] for r in json.loads(pre.stdout)["hooks"][0]["runs"]}
    prompt_payload = payloads.for_event(host, PROMPT[host], str(project), str(tmp_path / "t.jsonl"))[0].data
    (tmp_path / "prompt.json").write_text(json.dumps({**prompt_payload, "prompt": ASK}))
    ups = run("check", "--hand-written", command, "--event", "user_prompt_submit", "--host", host,
              "--payload", str(tmp_path / "prompt.json"), "--json")
    [prompt_run] = json.loads(ups.stdout)["hooks"][0]["runs"]
    return actions, any("model's context" in n for n in prompt_run["notes"])


def _ran(host: str, told: str, mode: str) -> bool:
    if host == "claude":
        return told.strip() == f"mode-{mode}"
    if host == "codex":
        return told.endswith(f"Output:\nmode-{mode}\n")
    return f"Output: mode-{mode}" in json.loads(told).get("output", "")


def _compare(host: str, predicted: dict[str, str], context: bool, mock, agent_payloads: Path, project: Path) -> None:
    told = tool_results(mock, host)
    did = {mode: "block" if not _ran(host, told[mode], mode) else "ran" for mode in MODES}
    reached = ASK.replace("run the echo mode-", "reason-") + " from the hook" in json.dumps(mock.requests[0]["body"])
    table = [f"{host} {mode}: check says {predicted[mode]}, the agent {did[mode]}" for mode in MODES]
    table.append(f"{host} prompt stdout: check says {'context' if context else 'not context'}, "
                 f"the model {'saw' if reached else 'did not see'} it")
    if REPORT:
        with open(REPORT, "a", encoding="utf-8") as out:
            out.write("\n".join(table) + "\n")
    assert {m: predicted[m] == "block" for m in MODES} == {m: did[m] == "block" for m in MODES}, "\n".join(table)
    assert context == reached, table[-1]
    # The pitfalls as measured: a reason on an allow, and stderr on success, never reach the model.
    told_model = json.dumps([r["body"] for r in mock.requests])
    assert "reason-allowreason" not in told_model and "reason-noise" not in told_model
    _same_shapes(host, agent_payloads, project)


def _same_shapes(host: str, folder: Path, project: Path) -> None:
    """The payloads check ships have the keys the agent sent (Claude adds ``effort`` on some events)."""
    for event in (PRE[host], PROMPT[host], STOP[host], START, POST[host]):
        sent = folder / f"payload-{event}-0.json"
        if not sent.exists():
            continue
        real = json.loads(sent.read_text())
        ours = payloads.for_event(host, event, str(project), "t.jsonl")[0].data
        optional = {"effort", "description"}
        assert set(real) - optional == set(ours) - optional, (event, sorted(real), sorted(ours))
        if "tool_input" in real:
            assert set(real["tool_input"]) <= set(ours["tool_input"]), event


def test_claude_does_what_check_predicts(run, mock, home, project, tmp_path) -> None:
    binary = agent_binary("claude")
    predicted, context = _predict(run, tmp_path, project, "claude")
    folder = tmp_path / "agent-payloads"
    hook = [{"type": "command", "command": _command(folder, "claude")}]
    settings = {"hooks": {PRE["claude"]: [{"matcher": "Bash", "hooks": hook}], PROMPT["claude"]: [{"hooks": hook}],
                          "Stop": [{"hooks": hook}], START: [{"hooks": hook}], "PostToolUse": [{"matcher": "Bash", "hooks": hook}]}}
    (project / ".claude").mkdir(parents=True, exist_ok=True)
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    mock.commands = [f"echo mode-{m}" for m in MODES]
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    run_agent([str(binary), "-p", ASK, "--allowedTools", "Bash"], project, env)
    _compare("claude", predicted, context, mock, folder, project)


def test_codex_does_what_check_predicts(run, mock, project, tmp_path, codex_env) -> None:
    binary = agent_binary("codex")
    predicted, context = _predict(run, tmp_path, project, "codex")
    folder = tmp_path / "agent-payloads"
    codex_home = Path(codex_env["CODEX_HOME"])
    events = {PRE["codex"]: "^Bash$", PROMPT["codex"]: None, "Stop": None, START: None, "PostToolUse": "^Bash$"}
    hooks = {e: [{**({"matcher": m} if m else {}), "hooks": [{"type": "command", "command": _command(folder, "codex")}]}]
             for e, m in events.items()}
    (codex_home / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    snake = {"PreToolUse": "pre_tool_use", "UserPromptSubmit": "user_prompt_submit", "Stop": "stop",
             "SessionStart": "session_start", "PostToolUse": "post_tool_use"}
    with (codex_home / "config.toml").open("a") as config:
        for event, (group,) in hooks.items():
            key = f"{os.path.realpath(codex_home)}/hooks.json:{snake[event]}:0:0"
            config.write(f'\n[hooks.state."{key}"]\ntrusted_hash = "{trust_hash(event, group, group["hooks"][0])}"\n')
    mock.commands = [f"echo mode-{m}" for m in MODES]
    run_agent([str(binary), "exec", "--skip-git-repo-check", "-s", "danger-full-access", ASK], project, codex_env)
    _compare("codex", predicted, context, mock, folder, project)


def test_gemini_does_what_check_predicts(run, mock, home, project, tmp_path, monkeypatch) -> None:
    binary = agent_binary("gemini")
    predicted, context = _predict(run, tmp_path, project, "gemini")
    folder = tmp_path / "agent-payloads"
    hook = [{"type": "command", "name": "answers", "command": _command(folder, "gemini")}]
    hooks = {PRE["gemini"]: [{"matcher": "run_shell_command", "hooks": hook}], PROMPT["gemini"]: [{"hooks": hook}],
             "AfterAgent": [{"hooks": hook}], START: [{"hooks": hook}],
             "AfterTool": [{"matcher": "run_shell_command", "hooks": hook}]}
    (home / ".gemini").mkdir(exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({
        "security": {"auth": {"selectedType": "gemini-api-key"}}, "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False}, "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
        "hooks": hooks}))
    env = {"HOME": str(home), "GEMINI_CLI_HOME": str(home), "GEMINI_API_KEY": "dummy",
           "GOOGLE_GEMINI_BASE_URL": mock.url, "GEMINI_CLI_TRUST_WORKSPACE": "true"}
    mock.commands = [f"echo mode-{m}" for m in MODES]
    run_agent([str(binary), "-m", "gemini-2.5-flash", "--yolo", "-p", ASK], project, env)
    _compare("gemini", predicted, context, mock, folder, project)


@pytest.fixture(autouse=True)
def _project_exists(project: Path) -> None:
    project.mkdir(exist_ok=True)
