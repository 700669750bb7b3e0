"""Which folder each real host takes as the project when started in a subfolder of a git repo
(issue 13 case 1): whether the root's project hooks fire, and what the project variable holds."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from realhosts import agent_binary, run_agent
from test_runtime_real import GEMINI_IN_PROCESS

MANIFEST = """[bundle]
name = "where"
version = "1.0.0"

[[hooks]]
id = "start"
event = "session_start"
command = ["python3", "{{bundle_dir}}/where.py", "{log}"]
"""
WHERE = """import json, os, sys
line = {"cwd": os.getcwd(), "claude": os.environ.get("CLAUDE_PROJECT_DIR"), "gemini": os.environ.get("GEMINI_PROJECT_DIR")}
open(sys.argv[1], "a").write(json.dumps(line) + chr(10))
"""


@pytest.fixture
def repo(project: Path, tmp_path: Path):
    """A git repository with the bundle inside it (tools/where: rendered through the host's project
    variable, or git for Codex), and a subfolder to start the agents in."""
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    sub = project / "src" / "pkg"
    sub.mkdir(parents=True)
    log = tmp_path / "where.jsonl"
    bundle = project / "tools" / "where"
    bundle.mkdir(parents=True)
    (bundle / "hookweave.toml").write_text(MANIFEST.format(log=log))
    (bundle / "where.py").write_text(WHERE)
    return sub, bundle, log


def _calls(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


@pytest.fixture(scope="module")
def shared_runs() -> dict:
    """Claude's two runs (in the subfolder, at the root), shared by the two Claude tests: built by
    whichever runs first, inside that test's own HOME and project (its fixtures, so
    nothing_left_running covers the runs); the other reads the same record."""
    return {}


def _claude_in_the_repo(run, mock, home, project, repo, monkeypatch) -> dict:
    """Install from the subfolder (no --project), and the file it writes; then the same bundle
    installed again with --project the root, where the file must come out the same: so both tests'
    installs are the one Claude runs with, once from the subfolder and once from the root."""
    sub, bundle, log = repo
    settings = project / ".claude" / "settings.json"
    with monkeypatch.context() as here:
        here.chdir(sub)
        from_sub = run("install", str(bundle), "--host", "claude")
    from_sub_text = settings.read_text() if settings.exists() else None
    assert run("uninstall", "where", "--host", "claude", "--project", str(project)).exit_code == 0
    with_project = run("install", str(bundle), "--host", "claude", "--project", str(project))
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    run_agent([str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"], sub, env)
    in_sub = _calls(log)
    run_agent([str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"], project, env)
    return {"project": project, "from_sub": (from_sub.exit_code, from_sub.stdout, from_sub.stderr),
            "from_sub_text": from_sub_text, "with_project": with_project.exit_code,
            "with_project_text": settings.read_text(), "in_sub": in_sub, "at_root": _calls(log)}


def _claude(cache: dict, *fixtures) -> dict:
    if "claude" not in cache:
        cache["claude"] = _claude_in_the_repo(*fixtures)
    return cache["claude"]


def test_claude_from_a_subfolder(run, mock, home, project, repo, monkeypatch, shared_runs) -> None:
    found = _claude(shared_runs, run, mock, home, project, repo, monkeypatch)
    assert found["with_project"] == 0  # installed with --project the root
    assert found["in_sub"] == []  # measured on 2.1.197: the root's project hooks do not load from a subfolder
    root = str(found["project"])
    assert found["at_root"] == [{"cwd": root, "claude": root, "gemini": None}]


def test_gemini_from_a_subfolder(run, mock, home, project, repo) -> None:
    sub, bundle, log = repo
    assert run("install", str(bundle), "--host", "gemini", "--project", str(project)).exit_code == 0
    (home / ".gemini").mkdir(exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False}}))
    env = {"HOME": str(home), "GEMINI_CLI_HOME": str(home), "GEMINI_API_KEY": "dummy",
           "GOOGLE_GEMINI_BASE_URL": mock.url, "GEMINI_CLI_TRUST_WORKSPACE": "true",
           **GEMINI_IN_PROCESS}
    run_agent([str(agent_binary("gemini")), "-m", "gemini-2.5-flash", "--yolo", "-p", "run the echo"], sub, env)
    assert _calls(log) == []  # measured on 0.61: project settings come from the folder it starts in only
    run_agent([str(agent_binary("gemini")), "-m", "gemini-2.5-flash", "--yolo", "-p", "run the echo"], project, env)
    assert _calls(log) == [{"cwd": str(project), "claude": str(project), "gemini": str(project)}]


def test_codex_from_a_subfolder(run, codex_env, project, repo, monkeypatch) -> None:
    sub, bundle, log = repo
    monkeypatch.chdir(sub)  # no --project: hookweave picks the folder Codex uses, the git root
    install = run("install", str(bundle), "--host", "codex", "--trust")
    assert install.exit_code == 0 and f"codex project {project}/.codex/hooks.json: installed where" in install.stdout
    argv = [str(agent_binary("codex")), "exec", "-s", "danger-full-access", "run the echo"]
    run_agent(argv, sub, codex_env)
    # measured on 0.169: the root's .codex/ loads from the subfolder, and the hook runs in the subfolder
    assert _calls(log) == [{"cwd": str(sub), "claude": None, "gemini": None}]


def test_claude_installed_from_a_subfolder_runs_where_the_note_says(run, mock, home, project, repo, monkeypatch,
                                                                    shared_runs) -> None:
    """Issue 36 item 3: install in src/pkg, no --project, writes the project's (the git root's) file,
    as for Codex, and says once that Claude Code reads it only when started there: true of the real agent."""
    found = _claude(shared_runs, run, mock, home, project, repo, monkeypatch)
    root = found["project"]
    code, stdout, stderr = found["from_sub"]
    assert code == 0, stdout + stderr
    assert stdout.startswith(f"claude project {root}/.claude/settings.json: installed where 1.0.0 (1 hook)\n")
    assert stderr == (f"note: project: {root} (the git root); Claude Code reads project settings only from "
                      f"the folder it starts in: start it in {root}\n")
    assert found["from_sub_text"] == found["with_project_text"]  # the runs below are with this install's file
    assert found["in_sub"] == []  # started in the subfolder: as the note says, not read
    assert found["at_root"] == [{"cwd": str(root), "claude": str(root), "gemini": None}]
