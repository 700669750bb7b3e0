"""A team's repository, run by the real agents: a bundle added from a git remote (hooks add, pinned
and vendored), committed, cloned by a teammate with the remote and every cache gone, and run by
Claude Code and Gemini CLI from the clone with no hookweave involved (issue 32)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from realhosts import agent_binary, ids, run_agent
from test_gemini_real import OFFLINE
from test_runtime_real import GEMINI_IN_PROCESS

GIT = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
       "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_CONFIG_NOSYSTEM": "1"}


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env={**os.environ, **GIT}, check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture
def cloned(tmp_path: Path, project: Path, home: Path, run, probe) -> Path:
    """``project`` is a teammate's clone of a repository whose .hookweave.toml pins a remote bundle;
    the remote and the cache are gone. Returns the probe's log."""
    source = tmp_path / "bundle-src"
    source.mkdir()
    shutil.copy(probe.folder / "probe.py", source / "probe.py")
    log = tmp_path / "calls.jsonl"
    hooks = "".join(f'[[hooks]]\nid = "{i}"\nevent = "{e}"\n{m}command = ["python3", "{{bundle_dir}}/probe.py", '
                    f'"team-{i}", "{log}"]\n\n' for i, e, m in (("start", "session_start", ""),
                                                             ("pre", "pre_tool_use", 'matcher = ["shell"]\n'),
                                                             ("stop", "stop", "")))
    (source / "hookweave.toml").write_text(f'[bundle]\nname = "team-probe"\nversion = "1.0.0"\n\n{hooks}')
    git("init", "-q", "-b", "main", cwd=source)
    git("add", "-A", cwd=source)
    git("commit", "-qm", "v1", cwd=source)
    git("tag", "v1.0.0", cwd=source)
    remote = tmp_path / "bundle.git"
    git("clone", "-q", "--bare", str(source), str(remote), cwd=tmp_path)
    origin = tmp_path / "origin"
    origin.mkdir()
    git("init", "-q", "-b", "main", cwd=origin)
    os.chdir(origin)
    done = run("add", f"file://{remote}", "--rev", "v1.0.0", "--host", "claude", "--host", "gemini")
    assert done.exit_code == 0, done.output
    git("add", "-A", cwd=origin)
    git("commit", "-qm", "agent hooks", cwd=origin)
    shutil.rmtree(remote)
    shutil.rmtree(home / ".cache", ignore_errors=True)
    project.rmdir()
    git("clone", "-q", str(origin), str(project), cwd=tmp_path)
    os.chdir(project)
    return log


def calls(log: Path) -> list[dict]:
    lines = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return [json.loads(line) for line in lines]


def test_claude_runs_the_vendored_bundle_from_a_clone(cloned: Path, run, mock, home: Path, project: Path) -> None:
    assert run("sync", "--check").exit_code == 0
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    run_agent([str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"], project, env)
    assert ids(calls(cloned)) == ["team-pre", "team-start", "team-stop"]


def test_gemini_runs_the_vendored_bundle_from_a_clone(cloned: Path, run, mock, home: Path, project: Path) -> None:
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text(OFFLINE + "\n")
    env = {"HOME": str(home), "GEMINI_CLI_HOME": str(home), "GEMINI_API_KEY": "dummy",
           "GOOGLE_GEMINI_BASE_URL": mock.url, "GEMINI_CLI_TRUST_WORKSPACE": "true",
           **GEMINI_IN_PROCESS}
    run_agent([str(agent_binary("gemini")), "-m", "gemini-2.5-flash", "--yolo", "-p", "run the echo"], project, env)
    assert ids(calls(cloned)) == ["team-pre", "team-start", "team-stop"]
