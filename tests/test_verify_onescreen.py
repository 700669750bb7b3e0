"""Issue 25, the newcomer's run through the real ``hooks`` command: a fresh git project, ``hooks init
--from example-guard``, ``hooks install ./example-guard --host all``, ``hooks verify``. The text fits
one screen (61 lines before the folding) and still says every problem and warning with its fix;
``--json`` keeps every finding, ``--verbose`` every note."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HOOKS = str(Path(sys.executable).parent / "hooks")


def hooks(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run([HOOKS, *args], capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def everywhere(project: Path) -> Path:
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    assert hooks("init", "--from", "example-guard").returncode == 0
    done = hooks("install", "./example-guard", "--host", "all")
    assert done.returncode == 0, done.stdout + done.stderr
    return project


def found(doc: dict, level: str) -> list[dict]:
    """The distinct findings of ``level`` (a cross-agent one is in each host's list, and said once)."""
    every = [f for h in doc["hosts"] for f in [*h["findings"], *(x for fl in h["files"] for x in fl["findings"])]]
    return [dict(t) for t in dict.fromkeys(tuple(f.items()) for f in every if f["level"] == level)]


def test_verify_after_install_for_all_agents_fits_one_screen_with_every_fix(everywhere) -> None:
    text = hooks("verify")
    assert (text.returncode, text.stderr) == (1, "")
    lines = text.stdout.splitlines()
    assert len(lines) <= 24, text.stdout
    doc = json.loads(hooks("verify", "--json").stdout)
    problems, warnings = found(doc, "problem"), found(doc, "warning")
    assert len(problems) == doc["problems"] == 5 and len(warnings) > 0
    for f in problems + warnings:  # each said, its fix (the words after the last "; ") with it, the hook named
        line = next(line for line in lines if f["message"] in line)
        assert line.lstrip().startswith(f"{f['level']}: ") and line.endswith(f["message"].rsplit("; ", 1)[-1])
        assert f["hook"] is None or f["hook"] in line.split(": ", 2)[1]
    notes = len(found(doc, "note"))
    assert lines[-1].startswith(f"verify: 5 problems, {len(warnings)} warnings, {notes} notes; start with codex ")
    assert any(line.startswith("notes: ") and "hooks verify --verbose" in line for line in lines)


def test_verify_verbose_and_json_keep_every_note(everywhere) -> None:
    doc = json.loads(hooks("verify", "--json").stdout)
    verbose = hooks("verify", "--verbose").stdout.splitlines()
    shown = [line for line in verbose if line.lstrip().startswith("note: ")]
    assert len(shown) == len(found(doc, "note")) == 16  # 10 agents: --host all leaves out 5 (test_hostall)
    assert verbose[-1] == hooks("verify").stdout.splitlines()[-1]


def test_verify_of_one_agent_and_of_nothing_installed(everywhere, tmp_path) -> None:
    claude = hooks("verify", "--host", "claude")
    assert claude.returncode == 0
    assert claude.stdout.splitlines()[-2:] == [
        "claude  project  example-guard 1.0.0  2 hooks ok  .claude/settings.json", "verify: ok (2 warnings, 3 notes)"]
    assert "notes: " not in claude.stdout  # one agent's notes are said one by one
    assert "nothing installed: antigravity, cline" in nothing_installed(tmp_path)[0]


def nothing_installed(tmp_path: Path) -> list[str]:
    empty = tmp_path / "empty"
    empty.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=empty, check=True)
    done = hooks("verify", "--project", str(empty), "--host", "antigravity", "--host", "cline")
    assert done.returncode == 0
    return done.stdout.splitlines()


def test_verify_with_nothing_installed_is_two_lines(project) -> None:
    done = hooks("verify")
    assert (done.returncode, done.stdout.splitlines()) == (0, [
        "nothing installed: antigravity, claude, cline, codex, copilot, cursor, factory, gemini, hermes, kimi, letta, "
        "openhands, openharness, qoder, qwen, windsurf", "verify: ok"])
