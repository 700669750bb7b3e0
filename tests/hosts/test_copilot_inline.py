"""Copilot's inline hooks (.github/copilot/settings*.json, ~/.copilot/settings.json): verify reads them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookweave.hosts.copilot.inline import rejected

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")


@pytest.fixture
def installed(run, home: Path, project: Path) -> Path:
    config = home / ".copilot" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"trustedFolders": [str(project)]}) + "\n")
    assert run("install", BUNDLE, "--host", "copilot").exit_code == 0
    return project / ".github" / "copilot"


def _warnings(run) -> list[str]:
    verify = run("verify", "--host", "copilot")
    assert verify.exit_code == 0  # the operator's inline hooks: warnings, never a failed verify
    return [line for line in verify.stdout.splitlines() if line.startswith("  warning:")]


def test_an_inline_copy_of_our_command_fires_twice(run, installed: Path) -> None:
    installed.mkdir()
    ours = json.loads((installed.parent / "hooks" / "hookweave.json").read_text())["hooks"]["agentStop"][0]["bash"]
    text = ('{\n  "model": "x",\n  "hooks": {"agentStop": [\n    {"type": "command", "bash": "echo mine"},\n'
            '    {"type": "command", "bash": "nightly keepalive-hook"}\n  ]}\n}\n')
    (installed / "settings.json").write_text(text)
    assert ours == "nightly keepalive-hook # hookweave:guard/keepalive"
    assert _warnings(run) == [
        "  warning: guard/keepalive: an inline hook in .github/copilot/settings.json at /hooks/agentStop/1 runs the "
        "same command: it fires twice in Copilot CLI; remove the inline copy"]
    assert (installed / "settings.json").read_text() == text  # read only


def test_a_comment_in_a_project_settings_file_silences_its_inline_hooks(run, installed: Path, home: Path) -> None:
    installed.mkdir()
    hooks = json.dumps({"hooks": {"sessionStart": [{"type": "command", "bash": "echo hi"}]}})
    (installed / "settings.local.json").write_text("// mine\n" + hooks)
    (home / ".copilot" / "settings.json").write_text("// This file is managed automatically.\n" + hooks)
    assert _warnings(run) == [
        "  warning: .github/copilot/settings.local.json: inline hooks: it holds a comment, and Copilot CLI (measured "
        "on 1.0.102) then runs none of its inline hooks; remove the comments"]


def test_an_inline_block_copilot_rejects_is_named_with_its_place(run, installed: Path) -> None:
    installed.mkdir()
    (installed / "settings.json").write_text(json.dumps({"hooks": {"sessionStart": [{"type": "command"}]}}))
    assert _warnings(run) == [
        '  warning: .github/copilot/settings.json: /hooks/sessionStart/0 has no "bash", "powershell" or "command" '
        "string, so Copilot CLI runs none of the inline hooks in this file; fix the block by hand"]


def test_a_broken_settings_file_and_a_control_character_event_stay_one_line(run, installed: Path) -> None:
    installed.mkdir()
    (installed / "settings.json").write_text('{"hooks": ')
    (installed / "settings.local.json").write_text(json.dumps({"hooks": {"a\nb": {}}}))
    assert _warnings(run) == [
        "  warning: .github/copilot/settings.json: inline hooks: it is not valid JSON, so Copilot CLI reads no hooks "
        "from it",
        "  warning: .github/copilot/settings.local.json: /hooks/a\\nb is not a list, so Copilot CLI runs none of the "
        "inline hooks in this file; fix the block by hand"]


@pytest.mark.parametrize("hooks, why", [
    ([], "/hooks is not an object"),
    ({"x": 1}, "/hooks/x is not a list"),
    ({"x": [1]}, "/hooks/x/0 is not an object"),
    ({"x": [{"type": "prompt", "prompt": "p"}], "y": [{"command": "c"}]}, None),
])
def test_rejected(hooks, why) -> None:
    assert rejected(hooks) == why
