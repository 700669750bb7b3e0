"""Qoder CLI (``qoder``): a description and no code, tested on its files and its documents only
(docs.qoder.com/en/cli/hooks; Qoder runs only after a login, so nothing here is measured): a commented
operator's file at every scope and back byte for byte, ``sequential`` groups, both switches, answers
by Claude's protocol."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
OPERATOR = (DATA / "qoder" / "operator.settings.json").read_text(encoding="utf-8")
INSTALLED = OPERATOR.replace('''    "PreToolUse": [
      {
        "matcher": "Bash",
        "sequential": true,''', '''    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "guard-hook --project \\"$QODER_PROJECT_DIR\\" # hookweave:guard/one-strike",
            "timeout": 10
          }
        ]
      },
      {
        "matcher": "Bash",
        "sequential": true,''').replace('''    ]
  }
}''', '''    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "nightly keepalive-hook # hookweave:guard/keepalive"
          }
        ]
      }
    ],
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "session-log start # hookweave:guard/session-log"
          }
        ]
      }
    ]
  }
}''')
NOTES = ("  note: Qoder CLI facts come from its documentation, never from a run (it needs a Qoder login): unmeasured\n"
         "  note: Qoder CLI loads project and local hooks in an interactive session only in a trusted folder "
         "(permissions.trustDirectories, or security.folderTrust.enabled: false); -p runs are trusted\n"
         "  note: Qoder CLI runs an event's hooks in parallel unless a group of the event sets \"sequential\": true "
         "(its documentation; not measured)\n")


def _files(home: Path, project: Path) -> dict[str, Path]:
    return {"user": home / ".qoder" / "settings.json", "project": project / ".qoder" / "settings.json",
            "local": project / ".qoder" / "settings.local.json"}


def test_hosts_lists_qoder_with_its_three_scopes(run) -> None:
    result = run("hosts")
    assert result.exit_code == 0
    assert [line.split() for line in result.stdout.splitlines() if line.startswith("qoder ")] == [
        ["qoder", "Qoder", "CLI", "built-in", "scopes:", "user,", "project,", "local", "(not", "detected)"]]


@pytest.mark.parametrize("scope", ["user", "project", "local"])
def test_a_commented_operator_file_takes_ours_and_gives_every_byte_back(run, home: Path, project: Path,
                                                                        scope: str) -> None:
    path = _files(home, project)[scope]
    path.parent.mkdir(parents=True)
    path.write_text(OPERATOR, encoding="utf-8")
    install = run("install", BUNDLE, "--host", "qoder", "--scope", scope)
    assert install.exit_code == 0
    assert path.read_text(encoding="utf-8") == INSTALLED
    verify = run("verify", "--host", "qoder", "--scope", scope)
    assert verify.exit_code == 0
    assert NOTES in verify.stdout
    assert run("uninstall", "guard", "--host", "qoder", "--scope", scope).exit_code == 0
    assert path.read_text(encoding="utf-8") == OPERATOR


def test_a_sequential_bundle_writes_qoders_sequential_groups(run, project: Path, write_bundle) -> None:
    bundle = write_bundle('[bundle]\nname = "steps"\nversion = "1.0.0"\nsequential = true\n'
                          '[[hooks]]\nid = "lint"\nevent = "post_tool_use"\nmatcher = ["edit", "write"]\n'
                          'command = "lint"\ntimeout = 700\n')
    assert run("install", str(bundle), "--host", "qoder").exit_code == 0
    assert json.loads((project / ".qoder" / "settings.json").read_text(encoding="utf-8")) == {"hooks": {
        "PostToolUse": [{"matcher": "Edit|Write", "sequential": True, "hooks": [
            {"type": "command", "command": "lint # hookweave:steps/lint", "timeout": 700}]}]}}


@pytest.mark.parametrize(("switch", "said"), [
    ({"disableAllHooks": True}, "disableAllHooks is True"),
    ({"hooksConfig": {"enabled": False, "headlessFastMode": True}}, "hooksConfig.enabled is False")])
def test_either_switch_in_any_file_is_a_problem(run, home: Path, switch: dict, said: str) -> None:
    user = home / ".qoder" / "settings.json"
    user.parent.mkdir()
    user.write_text(json.dumps(switch), encoding="utf-8")
    assert run("install", BUNDLE, "--host", "qoder", "--scope", "project").exit_code == 0
    verify = run("verify", "--host", "qoder")
    assert verify.exit_code == 1
    assert (f"  problem: {user}: {said}, so Qoder CLI runs no hooks; remove it or set it otherwise\n"
            in verify.stdout)


def test_switches_left_on_are_no_problem(run, home: Path) -> None:
    user = home / ".qoder" / "settings.json"
    user.parent.mkdir()
    user.write_text(json.dumps({"disableAllHooks": False, "hooksConfig": {"enabled": True}}), encoding="utf-8")
    assert run("install", BUNDLE, "--host", "qoder", "--scope", "project").exit_code == 0
    assert run("verify", "--host", "qoder").exit_code == 0


def test_check_answers_as_claude_does_exit_2_blocks(run, write_bundle) -> None:
    """Qoder's documents give Claude's protocol (exit 2 blocks with stderr, stdout JSON on exit 0),
    so check judges a Qoder hook with Claude's judge."""
    bundle = write_bundle('[bundle]\nname = "deny"\nversion = "1.0.0"\n[[hooks]]\nid = "no"\n'
                          'event = "pre_tool_use"\nmatcher = ["shell"]\ncommand = "echo nope >&2; exit 2"\n')
    result = run("check", str(bundle), "--host", "qoder", "--json")
    [hook] = json.loads(result.stdout)["hooks"]
    assert {(r["action"], r["reason"]) for r in hook["runs"]} == {("block", "nope\n")}


def test_the_same_hook_at_two_scopes_runs_once_in_qoder(run) -> None:
    """Qoder's documents: identical hooks of one event run once (the project copy, then local, then user)."""
    run("install", BUNDLE, "--host", "qoder", "--scope", "user")
    run("install", BUNDLE, "--host", "qoder", "--scope", "local")
    verify = run("verify", "--host", "qoder")
    assert verify.exit_code == 0
    assert "  note: guard: installed at user and local scope; Qoder CLI runs identical commands once\n" in verify.stdout
    assert "may fire" not in verify.stdout
