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
from test_runtime_real import GEMINI_IN_PROCESS

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
    if host == "factory":  # measured: droid exec runs no UserPromptSubmit hook (interactive sessions do)
        assert not list(folder.glob("payload-UserPromptSubmit-*")) and not reached, table
    else:
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
           "GOOGLE_GEMINI_BASE_URL": mock.url, "GEMINI_CLI_TRUST_WORKSPACE": "true", **GEMINI_IN_PROCESS}
    mock.commands = [f"echo mode-{m}" for m in MODES]
    run_agent([str(binary), "-m", "gemini-2.5-flash", "--yolo", "-p", ASK], project, env)
    _compare("gemini", predicted, context, mock, folder, project)


@pytest.fixture(autouse=True)
def _project_exists(project: Path) -> None:
    project.mkdir(exist_ok=True)


# -- the newer hosts: Copilot, Qwen, Factory and Cline -----------------------------------------------

NEW_PRE = {"copilot": "preToolUse", "qwen": "PreToolUse", "factory": "PreToolUse", "cline": "PreToolUse"}
NEW_PROMPT = {"copilot": "userPromptSubmitted", "qwen": "UserPromptSubmit", "factory": "UserPromptSubmit",
              "cline": "UserPromptSubmit"}
NEW_STOP = {"copilot": "agentStop", "qwen": "Stop", "factory": "Stop", "cline": "TaskComplete"}
NEW_START = {"copilot": "sessionStart", "qwen": "SessionStart", "factory": "SessionStart", "cline": "TaskStart"}
NEW_POST = {"copilot": "postToolUse", "qwen": "PostToolUse", "factory": "PostToolUse", "cline": "PostToolUse"}
# The decisive modes per host, one shell call each in one run (a few seconds a call on Copilot).
NEW_MODES = {
    "copilot": ("none", "exit2", "exit1", "noreason", "plain", "block", "deny", "allowreason", "noise", "context", "ask",
                "exit1json"),
    "qwen": ("none", "exit2", "exit1", "noreason", "plain", "block", "deny", "crossdeny", "badjson", "allowreason",
             "noise", "context", "ask", "exit1json", "cont"),
    "factory": ("none", "exit2", "exit1", "noreason", "plain", "block", "deny", "crossdeny", "badjson", "allowreason",
                "noise", "context", "ask"),
    "cline": ("none", "exit2", "exit1", "plain", "block", "crossdeny", "badjson", "allowreason", "noise", "context"),
}
TO_MODEL = ("plain stdout is added to the model's context", "additionalContext is given to the model",
            "the text reaches the model")


def _to_model(notes: list[str]) -> bool:
    return any(n.startswith(TO_MODEL) or "the model reads it" in n for n in notes)


def _with_command(host: str, data: dict, command: str) -> dict:
    """The shipped shell payload of ``host`` with ``command`` in it (and the event's name for Copilot,
    whose own payloads carry none, as --payload needs one)."""
    if host == "copilot":
        return {**data, "toolArgs": {"command": command}, "hook_event_name": NEW_PRE[host]}
    if host == "cline":
        return {**data, "tool_call": {**data["tool_call"], "input": {"commands": [command]}},
                "preToolUse": {**data["preToolUse"], "parameters": {"commands": json.dumps([command])}}}
    return {**data, "tool_input": {**data["tool_input"], "command": command}}


def _check_says(run, tmp_path: Path, project: Path, host: str, modes: tuple[str, ...]) -> tuple[dict, dict, bool]:
    """check's verdict and notes for each mode's payload, and whether it says the prompt hook's plain
    stdout reaches the model."""
    shipped = payloads.for_event(host, NEW_PRE[host], str(project), str(tmp_path / "t.jsonl"))[0].data
    files = []
    for mode in modes:
        path = tmp_path / f"mode-{mode}.json"
        path.write_text(json.dumps(_with_command(host, shipped, f"echo mode-{mode}")))
        files += ["--payload", str(path)]
    command = _command(tmp_path / "check-payloads", host)
    pre = run("check", "--hand-written", command, "--event", "pre_tool_use", "--host", host, *files, "--json")
    runs = {r["payload"][len("your payload mode-"):-5]: r for r in json.loads(pre.stdout)["hooks"][0]["runs"]}
    prompt = payloads.for_event(host, NEW_PROMPT[host], str(project), str(tmp_path / "t.jsonl"))[0].data
    prompt = ({**prompt, "userPromptSubmit": {"prompt": ASK, "attachments": []}} if host == "cline" else
              {**prompt, "prompt": ASK, **({"hook_event_name": NEW_PROMPT[host]} if host == "copilot" else {})})
    (tmp_path / "prompt.json").write_text(json.dumps(prompt))
    ups = run("check", "--hand-written", command, "--event", "user_prompt_submit", "--host", host,
              "--payload", str(tmp_path / "prompt.json"), "--json")
    [prompt_run] = json.loads(ups.stdout)["hooks"][0]["runs"]
    return ({m: r["action"] for m, r in runs.items()}, {m: r["notes"] for m, r in runs.items()},
            _to_model(prompt_run["notes"]))


def _ran_new(host: str, told: str, mode: str) -> bool:
    """Whether the shell call ran (its output may be empty: Qwen sometimes reads none)."""
    if host == "copilot":
        return "completed with exit code 0>" in told
    if host == "qwen":
        return told.startswith(f"Command: echo mode-{mode}\n") and "Exit Code: 0" in told
    if host == "factory":
        return "[Process exited with code 0]" in told
    return f'"query":"echo mode-{mode}"' in told and '"success":true' in told


def _hooks(host: str, folder: Path) -> dict[str, tuple[str, str | None]]:
    shell = {"copilot": None, "qwen": "run_shell_command", "factory": "Execute", "cline": None}[host]
    events = (NEW_PRE[host], NEW_PROMPT[host], NEW_STOP[host], NEW_START[host], NEW_POST[host])
    return {e: (f"{_command(folder, host)} {e}", shell if e in (NEW_PRE[host], NEW_POST[host]) else None)
            for e in events}


@pytest.mark.parametrize("host", sorted(NEW_MODES))
def test_the_newer_agents_do_what_check_predicts(run, mock, home, project, tmp_path, host) -> None:
    """One agent run per host, every decisive mode one shell call of the mock's reply: check's
    prediction (the call does not run: block, or an ask a -p run cannot put) equals what the agent
    did; for each call that ran, check's "reaches the model" equals whether the hook's text did;
    the prompt hook's plain stdout reaches the model where check says so; the shipped payloads have
    the keys the agent sent."""
    from newhosts import agent
    from realhosts import model_text

    modes = NEW_MODES[host]
    predicted, notes, context = _check_says(run, tmp_path, project, host, modes)
    folder = tmp_path / "agent-payloads"
    mock.commands = [f"echo mode-{m}" for m in modes]
    agent(host, mock, home, project, _hooks(host, folder))(ASK)
    told = tool_results(mock, host)
    did = {m: "ran" if m in told and _ran_new(host, told[m], m) else "block" for m in modes}
    table = [f"{host} {m}: check says {predicted[m]}, the agent {did[m]} ({told.get(m, 'nothing')[:80]!r})" for m in modes]
    bodies = [r["body"] for r in mock.requests if isinstance(r["body"].get("messages"), list)]
    first = json.dumps(bodies[0])
    reached = "reason-plain from the hook" in first
    table.append(f"{host} prompt stdout: check says {'context' if context else 'not context'}, the model "
                 f"{'saw' if reached else 'did not see'} it")
    seen = model_text(mock)
    heard = {m: f"reason-{m} from the hook" in seen for m in modes if did[m] == "ran" and m != "plain"}
    table += [f"{host} {m} text: check says {'model' if _to_model(notes[m]) else 'not the model'}, the model "
              f"{'saw' if heard[m] else 'did not see'} it" for m in heard]
    if REPORT:
        with open(REPORT, "a", encoding="utf-8") as out:
            out.write("\n".join(table) + "\n")
    assert {m: predicted[m] in ("block", "ask", "stop") for m in modes} == {m: did[m] == "block" for m in modes}, \
        "\n".join(table)
    if host == "factory":  # measured: droid exec runs no UserPromptSubmit hook (interactive sessions do)
        assert not list(folder.glob("payload-UserPromptSubmit-*")) and not reached, table
    else:
        assert context == reached, table
    assert {m: _to_model(notes[m]) for m in heard} == heard, "\n".join(table)
    assert "reason-allowreason" not in seen and "reason-noise" not in seen
    _same_new_shapes(host, folder, project)


def _same_new_shapes(host: str, folder: Path, project: Path) -> None:
    """The payloads check ships have the keys the agent sent, event by event (Cline names its events
    by ``hookName``; Copilot's carry none, so the hook's command names them)."""
    from hookweave.core.runtime.payloads import CLINE_HOOK_NAMES

    compared = 0
    for event in (NEW_PRE[host], NEW_PROMPT[host], NEW_STOP[host], NEW_START[host], NEW_POST[host]):
        sent = folder / f"payload-{CLINE_HOOK_NAMES[event] if host == 'cline' else event}-0.json"
        if not sent.exists():
            continue
        real = json.loads(sent.read_text())
        ours = payloads.for_event(host, event, str(project), "t.jsonl")[0].data
        assert set(real) == set(ours), (event, sorted(real), sorted(ours))
        for key in ("tool_input", "toolArgs"):
            if key in real:
                assert set(real[key]) <= set(ours[key]), event
        compared += 1
    assert compared >= 3, sorted(p.name for p in folder.iterdir())


def test_factory_exit_3_stops_the_agent_as_check_predicts(run, mock, home, project, tmp_path) -> None:
    """Droid aborts the whole agent on a PreToolUse hook's exit 3: check says "stop", and after the
    call the model is never asked again."""
    from newhosts import agent

    predicted, _, _ = _check_says(run, tmp_path, project, "factory", ("exit3",))
    assert predicted == {"exit3": "stop"}
    mock.commands = ["echo mode-exit3"]
    agent("factory", mock, home, project, {"PreToolUse": (_command(tmp_path / "p", "factory"), "Execute")})(ASK)
    assert [r for r in mock.requests if isinstance(r["body"].get("messages"), list)][1:] == []
    assert tool_results(mock, "factory") == {}


def test_cline_cancel_ends_the_run_as_check_predicts(run, mock, home, project, tmp_path) -> None:
    """Cline's cancel: check says "stop"; the command never runs and the run ends aborted."""
    from newhosts import agent

    predicted, _, _ = _check_says(run, tmp_path, project, "cline", ("deny",))
    assert predicted == {"deny": "stop"}
    mock.commands = ["echo mode-deny"]
    result = agent("cline", mock, home, project, {"PreToolUse": (_command(tmp_path / "p", "cline"), None)})(ASK)
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [e["finishReason"] for e in events if e.get("type") == "run_result"] == ["aborted"]
    assert len(mock.requests) == 1 and tool_results(mock, "cline") == {}
