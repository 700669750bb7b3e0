"""Cursor specifics: flat handlers, "version": 1, and hooks that also sit in Claude's files."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")


def test_new_file_gets_version_and_loses_it_with_the_last_bundle(run, project: Path) -> None:
    assert run("install", BUNDLE, "--host", "cursor").exit_code == 0
    path = project / ".cursor" / "hooks.json"
    data = json.loads(path.read_text())
    assert data["version"] == 1
    assert data["hooks"]["preToolUse"] == [
        {"command": 'guard-hook --project "$CURSOR_PROJECT_DIR" # hookweave:guard/one-strike', "matcher": "Shell",
         "timeout": 10}
    ]
    assert run("uninstall", "guard", "--host", "cursor").exit_code == 0
    assert not (project / ".cursor").exists()


def test_operator_file_without_version_gets_it_and_keeps_it_while_we_are_in(run, project: Path) -> None:
    path = project / ".cursor" / "hooks.json"
    path.parent.mkdir()
    original = '{\n  "hooks": {\n    "stop": [{"command": "say done"}]\n  }\n}\n'
    path.write_text(original)
    run("install", BUNDLE, "--host", "cursor")
    assert json.loads(path.read_text())["version"] == 1
    assert run("verify", "--host", "cursor").exit_code == 0
    path.write_text(path.read_text().replace('"version": 1', '"versión": 1'))
    verify = run("verify", "--host", "cursor")
    assert verify.exit_code == 1
    assert ('  problem: project hooks.json has no "version": 1; Cursor ignores the file without it: '
            'add "version": 1\n') in verify.stdout
    path.write_text(path.read_text().replace('"versión": 1', '"version": 1'))
    run("uninstall", "guard", "--host", "cursor")
    assert path.read_text() == original


def test_same_hook_in_claude_files_is_a_double_fire_warning(run) -> None:
    run("install", BUNDLE, "--host", "cursor", "--host", "claude")
    verify = run("verify", "--host", "cursor")
    assert verify.exit_code == 0  # a warning: it depends on a Cursor setting hookweave cannot see
    assert ('  warning: guard/keepalive, one-strike, session-log: may fire twice in Cursor if "Include third-party configs" is on: it runs the '
            "copies in Claude Code's project settings and its own project file; turn that setting off, or keep one of "
            "them\n") in verify.stdout
