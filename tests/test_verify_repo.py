"""verify --repo (issue 32 item 6): what the repository holds is judged, this machine's gates are
warnings, and nothing under HOME is read. The pre-commit hook hooks-verify runs it, in CI and on
every teammate's clone, where Codex's and Gemini's trust and a user's own settings differ."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

HOSTS = ("--host", "claude", "--host", "codex", "--host", "gemini")

# Every open, listing and program start while ``_watch`` is on (an audit hook stays for the
# process's life, so it records only while the list is there).
_seen: list[tuple[str, str]] | None = None


def _audit(event: str, args: tuple) -> None:
    if _seen is None:
        return
    if event in ("open", "os.listdir", "os.scandir") and args and isinstance(args[0], (str, bytes, os.PathLike)):
        _seen.append((event, os.fsdecode(args[0])))
    elif event in ("subprocess.Popen", "os.exec", "os.posix_spawn"):
        _seen.append((event, repr(args[:2])))


sys.addaudithook(_audit)


def _watch(call):
    """``call()``'s result, and every file it opened or listed and program it started."""
    global _seen
    _seen = []
    try:
        result = call()
        return result, _seen
    finally:
        _seen = None


@pytest.fixture
def team_repo(run, project: Path, home: Path) -> Path:
    """A repository with example-guard for Claude, Codex and Gemini at project scope, amid the
    operator's own entries, with no trust anywhere, and a HOME whose Claude user settings switch
    every hook off (and hold a Codex config and Gemini trust list, which --repo must not read)."""
    (project / ".git").mkdir()
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    claude = project / ".claude" / "settings.json"
    claude.parent.mkdir()
    claude.write_text('{\n  "model": "opus",\n  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": '
                      '[{"type": "command", "command": "./mine.sh"}]}]}\n}\n')
    result = run("install", "example-guard", *HOSTS, "--yes")
    assert result.exit_code == 0, result.output
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text('{"disableAllHooks": true, "theme": "dark"}\n')
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text('model = "o3"\n')  # no trust: not for this project, not for a hook
    (home / ".gemini").mkdir()
    (home / ".gemini" / "trustedFolders.json").write_text('{"/elsewhere": "TRUST_FOLDER"}\n')
    return project


def test_plain_verify_fails_on_this_machines_gates(run, team_repo: Path) -> None:
    result = run("verify")
    assert result.exit_code == 1
    assert "user settings set disableAllHooks" in result.output
    assert "problem: example-guard/destructive-guard, clean-tree: not trusted: Codex skips it silently" in result.output
    assert "problem: the project folder is not trusted (no rule covers it)" in result.output


def test_repo_passes_with_the_gates_as_warnings(run, team_repo: Path) -> None:
    result = run("verify", "--repo")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == (f"verify --repo: only the files in {team_repo} are judged; what this machine decides (trust, "
                        "switches, user settings) is a warning")
    assert "  warning: example-guard/destructive-guard, clean-tree: Codex runs it only where the operator trusted it " \
           "([hooks.state] in the user config.toml, not read: verify --repo reads no file outside the repository); on " \
           "each machine run hooks install with --trust, or trust it in Codex's /hooks" in lines
    assert any(line.startswith("  warning: Codex loads .codex/ only in a project trusted in the user config.toml")
               for line in lines)
    assert any(line.startswith("  warning: Gemini runs settings hooks only in a folder trusted on each machine")
               for line in lines)
    assert "disableAllHooks" not in result.output  # the user's own settings: not the repository's, not read
    assert "problem" not in result.output
    assert lines[-1] == "verify: ok (4 warnings, 3 notes)"


def test_repo_json_carries_the_mode_and_which_findings_are_this_machines(run, team_repo: Path) -> None:
    data = json.loads(run("verify", "--repo", "--json").stdout)
    assert (data["mode"], data["ok"], data["problems"]) == ("repo", True, 0)
    found = [f for h in data["hosts"] for f in h["findings"]]
    machine = [(f["level"], f["message"].split(" ", 3)[:3]) for f in found if f["machine"]]
    assert machine == [("warning", ["Codex", "runs", "it"])] * 2 + [
        ("warning", ["Codex", "loads", ".codex/"]), ("warning", ["Gemini", "runs", "settings"])]
    assert json.loads(run("verify", "--json").stdout)["mode"] == "machine"


def test_repo_still_fails_on_an_edited_hook_in_the_project_file(run, team_repo: Path) -> None:
    settings = team_repo / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace("guard.py ", "guard.py --verbose ", 1))
    result = run("verify", "--repo")
    assert result.exit_code == 1
    assert "example-guard/destructive-guard: modified" in result.output or "modified" in result.output
    assert result.output.splitlines()[-1].startswith("verify: 1 problem, 4 warnings")


def test_repo_reads_nothing_under_home_and_runs_no_program(run, team_repo: Path, home: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "bin"  # a codex on PATH: plain verify would ask it (codex app-server)
    fake.mkdir()
    (fake / "codex").write_text("#!/bin/sh\nexit 1\n")
    (fake / "codex").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")  # undone after the test
    real_home = os.path.realpath(home)
    under_home = lambda seen: [(e, p) for e, p in seen  # noqa: E731
                               if not e.startswith(("subprocess", "os.exec", "os.posix"))
                               and os.path.realpath(p).startswith(real_home + os.sep)]

    plain, seen = _watch(lambda: run("verify"))
    assert plain.exit_code == 1
    assert under_home(seen), "the audit hook saw no read under HOME in plain verify: it watches nothing"

    repo, seen = _watch(lambda: run("verify", "--repo"))
    assert repo.exit_code == 0, repo.output
    assert under_home(seen) == []
    assert [e for e, _ in seen if e.startswith(("subprocess", "os.exec", "os.posix"))] == []
    assert any(p.startswith(str(team_repo)) for _, p in seen)  # it did read the repository


def test_repo_scope_user_is_this_machines_and_not_read(run, team_repo: Path) -> None:
    result = run("verify", "--repo", "--scope", "user", "--host", "claude")
    assert result.exit_code == 0, result.output
    assert "note: Claude Code's user scope is this machine's, not the repository's: verify --repo does not read it" \
        in result.output
    assert "disableAllHooks" not in result.output


def test_repo_demotes_a_switch_in_the_environment(run, team_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "false")
    result = run("verify", "--repo", "--host", "gemini")
    assert result.exit_code == 0, result.output
    assert ("  warning: on this machine: the project folder is not trusted (GEMINI_CLI_TRUST_WORKSPACE=false is set "
            "in this shell)") in result.output
    assert run("verify", "--host", "gemini").exit_code == 1


def test_repo_from_a_subfolder_judges_the_repository_root(run, team_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sub = team_repo / "src" / "deep"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)
    result = run("verify", "--repo", "--host", "claude")
    assert result.exit_code == 0, result.output
    assert f"{team_repo}/.claude/settings.json" in result.output  # the root's file, judged
    assert result.output.splitlines()[-1].startswith("verify: ok")
