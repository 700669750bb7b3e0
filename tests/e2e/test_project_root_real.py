"""Which folder each real host takes as the project when started in a subfolder of a git repo
(issue 13 case 1): whether the root's project hooks fire, and what the project variable holds."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from realhosts import agent_binary, run_agent

MANIFEST = """[bundle]
name = "where"
version = "1.0.0"

[[hooks]]
id = "start"
event = "session_start"
command = "python3 -c 'import json,os,sys; open(sys.argv[1],\\"a\\").write(json.dumps({{\\"cwd\\": os.getcwd(), \\"claude\\": os.environ.get(\\"CLAUDE_PROJECT_DIR\\"), \\"gemini\\": os.environ.get(\\"GEMINI_PROJECT_DIR\\")}})+chr(10))' {log}"
"""


@pytest.fixture
def repo(project: Path, tmp_path: Path):
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    sub = project / "src" / "pkg"
    sub.mkdir(parents=True)
    log = tmp_path / "where.jsonl"
    bundle = tmp_path / "where"
    bundle.mkdir()
    (bundle / "hookweave.toml").write_text(MANIFEST.format(log=log))
    return sub, bundle, log


def _calls(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_claude_from_a_subfolder(run, mock, home, project, repo) -> None:
    sub, bundle, log = repo
    assert run("install", str(bundle), "--host", "claude", "--project", str(project)).exit_code == 0
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    run_agent([str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"], sub, env)
    print("CLAUDE", _calls(log))
    run_agent([str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"], project, env)
    print("CLAUDE root", _calls(log))


def test_gemini_from_a_subfolder(run, mock, home, project, repo) -> None:
    sub, bundle, log = repo
    assert run("install", str(bundle), "--host", "gemini", "--project", str(project)).exit_code == 0
    (home / ".gemini").mkdir(exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False}}))
    env = {"HOME": str(home), "GEMINI_CLI_HOME": str(home), "GEMINI_API_KEY": "dummy",
           "GOOGLE_GEMINI_BASE_URL": mock.url, "GEMINI_CLI_TRUST_WORKSPACE": "true"}
    run_agent([str(agent_binary("gemini")), "-m", "gemini-2.5-flash", "--yolo", "-p", "run the echo"], sub, env)
    print("GEMINI", _calls(log))
    run_agent([str(agent_binary("gemini")), "-m", "gemini-2.5-flash", "--yolo", "-p", "run the echo"], project, env)
    print("GEMINI root", _calls(log))


def test_codex_from_a_subfolder(run, codex_env, project, repo, monkeypatch) -> None:
    sub, bundle, log = repo
    assert run("install", str(bundle), "--host", "codex", "--project", str(project), "--trust").exit_code == 0
    argv = [str(agent_binary("codex")), "exec", "-s", "danger-full-access", "run the echo"]
    run_agent(argv, sub, codex_env)
    print("CODEX", _calls(log))
