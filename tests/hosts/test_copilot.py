"""Copilot CLI specifics: a hooks file of our own among the operator's, both shells, the double
fire through Claude's project files, and the file Copilot would refuse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
GOLDEN = (DATA / "copilot" / "operator.after-install.json").read_text(encoding="utf-8")
OPERATOR_FILES = {  # what an operator keeps in .github/hooks: odd spacing, non-ASCII, a CRLF file
    "policy.json": '{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./audit.sh","powershell":".\\\\audit.ps1",'
                   '"matcher":"bash|edit","timeoutSec":5}]}}',
    "team.json": '{\r\n  "version": 1,\r\n  "hooks": {\r\n    "sessionEnd": [ { "bash": "echo tschüss" } ]\r\n  }\r\n}\r\n',
    "notes.txt": "not a hooks file\n",
}
ORDERED = """[bundle]
name = "quoted"
version = "1.0.0"
[[hooks]]
id = "it-s"
event = "pre_tool_use"
matcher = ["shell", "write", "edit"]
command = ["say", "it's $HOME", "{project_dir}/a`b"]
"""


@pytest.fixture
def trusted(home: Path, project: Path) -> Path:
    """Copilot's own config.json as it writes it (a comment header), trusting the project."""
    config = home / ".copilot" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_text('// User settings belong in settings.json.\n// This file is managed automatically.\n'
                      + json.dumps({"trustedFolders": [str(project)]}, indent=2) + "\n")
    return config


def _operator_folder(project: Path) -> Path:
    folder = project / ".github" / "hooks"
    folder.mkdir(parents=True)
    for name, text in OPERATOR_FILES.items():
        (folder / name).write_bytes(text.encode("utf-8"))
    return folder


def test_our_own_file_beside_the_operators_then_gone_with_the_last_bundle(run, project: Path, trusted) -> None:
    folder = _operator_folder(project)
    result = run("install", BUNDLE, "--host", "copilot")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("copilot project .github/hooks/hookweave.json: installed guard 1.2.0 (3 hooks)\n")
    assert (folder / "hookweave.json").read_text(encoding="utf-8") == GOLDEN
    assert sorted(p.name for p in folder.iterdir()) == ["hookweave.json", "notes.txt", "policy.json", "team.json"]
    assert (project / ".github" / "hooks.hookweave.json").is_file()  # the record: outside the folder Copilot reads
    for name, text in OPERATOR_FILES.items():
        assert (folder / name).read_bytes() == text.encode("utf-8")
    assert run("verify", "--host", "copilot").exit_code == 0
    assert run("uninstall", "guard", "--host", "copilot").exit_code == 0
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt", "policy.json", "team.json"]
    assert not (project / ".github" / "hooks.hookweave.json").exists()
    for name, text in OPERATOR_FILES.items():
        assert (folder / name).read_bytes() == text.encode("utf-8")


def test_a_fresh_project_gets_its_folders_back_empty(run, project: Path, home: Path) -> None:
    assert run("install", BUNDLE, "--host", "copilot", "--scope", "user").exit_code == 0
    assert (home / ".copilot" / "hooks" / "hookweave.json").read_text(encoding="utf-8") == GOLDEN
    assert run("uninstall", "guard", "--host", "copilot", "--scope", "user").exit_code == 0
    assert not (home / ".copilot").exists()


def test_both_shells_quote_their_own_way(run, project: Path, write_bundle) -> None:
    assert run("install", str(write_bundle(ORDERED)), "--host", "copilot").exit_code == 0
    data = json.loads((project / ".github" / "hooks" / "hookweave.json").read_text(encoding="utf-8"))
    assert data == {"hooks": {"preToolUse": [{
        "type": "command",
        "bash": "say 'it'\"'\"'s '\\$'HOME' \"${COPILOT_PROJECT_DIR}\"'/a`b' # hookweave:quoted/it-s",
        "powershell": "& 'say' 'it''s $HOME' \"${env:COPILOT_PROJECT_DIR}/a``b\" # hookweave:quoted/it-s",
        "matcher": "bash|create|edit",
    }]}, "version": 1}


def test_hooks_in_claudes_project_files_fire_twice_in_copilot(run, trusted) -> None:
    run("install", BUNDLE, "--host", "copilot", "--scope", "project")  # two installs: each writes its copy
    run("install", BUNDLE, "--host", "claude", "--scope", "project")
    verify = run("verify", "--host", "copilot")
    assert verify.exit_code == 0  # a warning: the operator may want both
    assert ("  warning: guard/keepalive, one-strike, session-log: fires twice in Copilot CLI: it runs the copies in "
            "Claude Code's project settings and its own project file; keep one of them\n") in verify.stdout


def test_a_version_copilot_refuses_is_bad_input_and_nothing_is_written(run, project: Path) -> None:
    path = project / ".github" / "hooks" / "hookweave.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"version": 2, "hooks": {}}\n')
    result = run("install", BUNDLE, "--host", "copilot")
    assert (result.exit_code, result.stderr) == (2, "hooks: .github/hooks/hookweave.json: /version is 2, and Copilot "
                                                 "reads only version 1; fix the file by hand\n")
    assert path.read_text() == '{"version": 2, "hooks": {}}\n'
    assert sorted(p.name for p in path.parent.parent.iterdir()) == ["hooks"]


def test_an_entry_without_any_command_is_bad_input(run, project: Path) -> None:
    path = project / ".github" / "hooks" / "hookweave.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"version": 1, "hooks": {"agentStop": [{"type": "command", "cwd": "."}]}}')
    result = run("install", BUNDLE, "--host", "copilot")
    assert result.exit_code == 2
    assert result.stderr == ('hooks: .github/hooks/hookweave.json: /hooks/agentStop/0 has no "bash", "powershell" or '
                             '"command" string; fix the file by hand\n')


def test_an_untrusted_project_is_a_problem_copilot_skips_its_hooks(run, project: Path, trusted: Path) -> None:
    trusted.write_text('// managed\n{"trustedFolders": ["/somewhere/else"]}\n')
    problem = ("  problem: the project folder is not trusted by Copilot (trustedFolders in ~/.copilot/config.json): it "
               "skips the project's hooks, in .github/hooks and in Claude's project settings; trust the folder when "
               "Copilot asks, or add it to trustedFolders\n")
    assert problem in run("install", BUNDLE, "--host", "copilot").stdout
    verify = run("verify", "--host", "copilot")
    assert verify.exit_code == 1 and problem in verify.stdout
    trusted.unlink()
    assert problem in run("verify", "--host", "copilot").stdout


@pytest.mark.parametrize("listed, trusted_here", [
    ("{project}", True), ("{project}/", True), ("{parent}", True), ("/", True),
    ("{project}2", False), ("{project}/sub", False), ("", False), ("{parent}/other", False)])
def test_a_trusted_parent_folder_trusts_the_project_a_sibling_does_not(run, project: Path, trusted: Path,
                                                                       listed: str, trusted_here: bool) -> None:
    """Measured on Copilot CLI 1.0.102 (tests/e2e/test_copilot_real.py): a parent in trustedFolders
    lets the project's hooks run; a sibling whose name starts the same, or a subfolder, does not."""
    folder = listed.format(project=project, parent=project.parent)
    trusted.write_text(json.dumps({"trustedFolders": [folder]}) + "\n")
    run("install", BUNDLE, "--host", "copilot")
    verify = run("verify", "--host", "copilot")
    assert ("the project folder is not trusted by Copilot" not in verify.stdout) is trusted_here, verify.stdout
