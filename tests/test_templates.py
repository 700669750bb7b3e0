"""The shipped example bundle: installed, then its commands run exactly as the settings file says."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest


def _installed_command(project: Path, event: str) -> str:
    data = json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8"))
    return data["hooks"][event][0]["hooks"][0]["command"]


def _run(command: str, payload: dict, project: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", "-c", command], input=json.dumps(payload), capture_output=True, text=True,
                          cwd=project, env={"PATH": "/usr/bin:/bin:/usr/local/bin", "CLAUDE_PROJECT_DIR": str(project)})


@pytest.mark.parametrize(
    ("shell", "blocked"),
    [
        ("rm -rf /", True),
        ("sudo rm -fr ~", True),
        ("rm -rf $HOME/", True),
        ("git push --force origin main", True),
        ("git push -f", True),
        ("git push --force-with-lease origin main", False),
        ("git reset --hard HEAD~3", True),
        ("git clean -fdx", True),
        ("mkfs.ext4 /dev/sdb1", True),
        ("dd if=/dev/zero of=/dev/sda bs=1M", True),
        ("rm -rf build/", False),
        ("ls -la", False),
        ("git reset --soft HEAD~1", False),
    ],
)
def test_guard_blocks_destructive_commands(run, project: Path, shell: str, blocked: bool) -> None:
    assert run("install", "example-guard", "--host", "claude").exit_code == 0
    result = _run(_installed_command(project, "PreToolUse"),
                  {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": shell}}, project)
    assert result.returncode == (2 if blocked else 0), result.stderr
    assert result.stderr.startswith("Blocked by example-guard: ") == blocked


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_clean_tree_asks_once_to_commit(run, project: Path) -> None:
    assert run("install", "example-guard", "--host", "claude").exit_code == 0
    command = _installed_command(project, "Stop")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    stop = {"hook_event_name": "Stop", "cwd": str(project), "stop_hook_active": False}
    result = _run(command, stop, project)  # .claude/ itself is untracked: a dirty tree
    assert result.returncode == 0
    decision = json.loads(result.stdout)
    assert decision["decision"] == "block" and decision["reason"].startswith("Uncommitted changes (.claude/)")
    assert _run(command, {**stop, "stop_hook_active": True}, project).stdout == ""  # never loops
    (project / ".gitignore").write_text(".claude/\n.gitignore\n")
    assert _run(command, stop, project).stdout == ""  # clean tree: lets the agent stop
