"""Issue 25 part 4: one install for Claude and Copilot CLI, which runs Claude's project files, fires
every hook once per agent. The hooks Copilot would run from Claude's entry exactly as its own are
written into Claude's file only (its record's ``runs_for``); verify and status show them as
Copilot's; uninstall keeps the two together and gives every byte back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

MIXED = """[bundle]
name = "mixed"
version = "1.0.0"

[[hooks]]
id = "guard"
event = "pre_tool_use"
matcher = ["shell", "write"]
command = "guard-hook"

[[hooks]]
id = "bye"
event = "stop"
command = "bye-hook"

[[hooks]]
id = "sub"
event = "subagent_stop"
command = "sub-hook"

[[hooks]]
id = "start"
event = "session_start"
command = "start-hook"
[hooks.host.copilot]
command = "start-hook --copilot"
"""
TWO = MIXED.split("\n[[hooks]]\nid = \"sub\"")[0].replace('name = "mixed"', 'name = "simple"')  # guard, bye
SIMPLE = TWO + MIXED.split("\nid = \"sub\"")[1].split("\n[[hooks]]")[1].join(["\n[[hooks]]", ""])  # and start
CLAUDE_BEFORE = ('{\n  "permissions": {"allow": ["Bash(ls)"]},\n  "hooks": {\n    "PreToolUse": [{"matcher": "Edit", '
                 '"hooks": [{"type": "command", "command": "lint"}]}]\n  }\n}\n')
TEAM = '{"version": 1, "hooks": {"sessionEnd": [{"bash": "echo tschüss"}]}}\n'


def _group(command: str, matcher: str | None = None) -> str:
    head = f'\n        "matcher": "{matcher}",' if matcher else ""
    return (f'      {{{head}\n        "hooks": [\n          {{\n            "type": "command",\n'
            f'            "command": "{command}"\n          }}\n        ]\n      }}')


@pytest.fixture
def operator(home: Path, project: Path) -> dict[Path, str]:
    """The operator's Claude settings and a Copilot hooks file of theirs; Copilot trusts the project."""
    config = home / ".copilot" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"trustedFolders": [str(project)]}) + "\n")
    files = {project / ".claude" / "settings.json": CLAUDE_BEFORE, project / ".github" / "hooks" / "team.json": TEAM}
    for path, text in files.items():
        path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8")
    return files


def test_one_install_writes_what_copilot_runs_from_claudes_file_there_only(run, operator, project, write_bundle) -> None:
    result = run("install", str(write_bundle(MIXED)), "--host", "claude", "--host", "copilot")
    assert result.exit_code == 0, result.output
    assert ("  note: mixed: Copilot CLI runs 2 hooks (guard, bye) from this file as its own, so they are written here "
            "only: once in each agent\n") in result.stdout
    assert ("  note: mixed: 2 hooks (guard, bye) not written here: Copilot CLI runs them from .claude/settings.json "
            "(Claude Code's project settings), once\n") in result.stdout
    claude = (project / ".claude" / "settings.json").read_text(encoding="utf-8")
    assert claude == (
        '{\n  "permissions": {"allow": ["Bash(ls)"]},\n  "hooks": {\n    "PreToolUse": [{"matcher": "Edit", "hooks": '
        '[{"type": "command", "command": "lint"}]}, {"matcher": "Bash|Write", "hooks": [{"type": "command", "command": '
        '"guard-hook # hookweave:mixed/guard"}]}],\n'
        f'    "Stop": [\n{_group("bye-hook # hookweave:mixed/bye")}\n    ],\n'
        f'    "SubagentStop": [\n{_group("sub-hook # hookweave:mixed/sub")}\n    ],\n'
        f'    "SessionStart": [\n{_group("start-hook # hookweave:mixed/start")}\n    ]\n  }}\n}}\n')
    # Copilot's own file: the hook of an event it is not measured to run from Claude's file, and the
    # one with a command of its own; not the two it runs from Claude's.
    ours = json.loads((project / ".github" / "hooks" / "hookweave.json").read_text(encoding="utf-8"))
    assert ours == {"hooks": {
        "subagentStop": [{"type": "command", "bash": "sub-hook # hookweave:mixed/sub",
                          "powershell": "sub-hook # hookweave:mixed/sub"}],
        "sessionStart": [{"type": "command", "bash": "start-hook --copilot # hookweave:mixed/start",
                          "powershell": "start-hook --copilot # hookweave:mixed/start"}]}, "version": 1}
    recorded = json.loads((project / ".claude" / "settings.hookweave.json").read_text())["bundles"]["mixed"]
    assert recorded["runs_for"] == {"copilot": ["guard", "bye"]}
    assert (project / ".github" / "hooks" / "team.json").read_text(encoding="utf-8") == TEAM
    verify = run("verify", "--host", "claude", "--host", "copilot", "--verbose").stdout  # each file's line
    assert "mixed/guard: fires twice" not in verify and "mixed/bye: fires twice" not in verify
    assert "  warning: mixed/sub: may fire twice in Copilot CLI:" in verify  # SubagentStop: not measured
    assert "copilot  project  mixed 1.0.0  2 hooks ok  .claude/settings.json (Claude Code's, which Copilot CLI runs)" \
           in verify
    status = run("status").stdout
    assert "copilot  project  mixed 1.0.0  (2 hooks, run from claude's file)  .claude/settings.json\n" in status
    assert run("uninstall", "mixed", "--host", "claude", "--host", "copilot").exit_code == 0
    for path, text in operator.items():
        assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in (project / ".github" / "hooks").iterdir()) == ["team.json"]
    assert sorted(p.name for p in (project / ".claude").iterdir()) == ["settings.json"]


def test_host_all_leaves_nothing_for_copilot_and_verify_says_no_fires_twice(run, operator, project, write_bundle) -> None:
    bundle = str(write_bundle(SIMPLE))
    result = run("install", bundle, "--host", "all")
    assert result.exit_code == 0
    assert ("copilot project .github/hooks/hookweave.json: simple 1.0.0: 3 hooks (guard, bye, start) not written here"
            ": Copilot CLI runs them from .claude/settings.json (Claude Code's project settings), once; nothing "
            "written\n") not in result.stdout  # start has a command of its own for Copilot: written there
    twice = [line for line in run("verify").stdout.splitlines() if "fires twice" in line]
    # Copilot runs Claude's start hook and its own, another command: the bundle asked for both
    assert twice == ["  warning: simple/start: fires twice in Copilot CLI: it runs the copies in Claude Code's project "
                     "settings and its own project file; keep one of them"]
    again = run("install", bundle, "--host", "all")
    assert "copilot project .github/hooks/hookweave.json: simple 1.0.0 already installed; nothing written\n" in again.stdout


def test_every_hook_from_claudes_file_writes_no_copilot_file(run, operator, project, write_bundle) -> None:
    bundle = str(write_bundle(TWO))
    result = run("install", bundle, "--host", "claude", "--host", "copilot")
    assert ("copilot project .github/hooks/hookweave.json: simple 1.0.0: 2 hooks (guard, bye) not written here: "
            "Copilot CLI runs them from .claude/settings.json (Claude Code's project settings), once; nothing "
            "written\n") in result.stdout
    assert sorted(p.name for p in (project / ".github").rglob("*")) == ["hooks", "team.json"]
    verify = run("verify", "--host", "copilot")
    assert verify.exit_code == 0 and "fires twice" not in verify.stdout
    assert verify.stdout.endswith("copilot  project  simple 1.0.0  2 hooks ok  .claude/settings.json (Claude Code's, "
                                  "which Copilot CLI runs)\nverify: ok (3 notes)\n")
    # An upgrade for Claude alone keeps Copilot running them; uninstall for Copilot alone cannot take
    # them out of it, nor Claude alone without saying so: both refused, nothing written.
    assert run("install", bundle, "--host", "claude", "--force").exit_code == 0
    record = project / ".claude" / "settings.hookweave.json"
    assert json.loads(record.read_text())["bundles"]["simple"]["runs_for"] == {"copilot": ["guard", "bye"]}
    before = (project / ".claude" / "settings.json").read_text(), record.read_text()
    alone = run("uninstall", "simple", "--host", "copilot")
    assert (alone.exit_code, alone.stderr) == (1, "hooks: Copilot CLI runs 2 hooks of simple from .claude/settings.json "
                                               "(Claude Code's project settings), as installed for both, and goes on "
                                               "running them from there; nothing written. To take it out of Copilot "
                                               "CLI, uninstall it from claude too (--host claude --host copilot)\n")
    claude = run("uninstall", "simple", "--host", "claude")
    assert (claude.exit_code, claude.stderr) == (1, "hooks: .claude/settings.json: Copilot CLI runs 2 hooks of simple from "
                                                 "this file, as installed for both; nothing written. Uninstall it from "
                                                 "both (add --host copilot), then install it for copilot alone to keep "
                                                 "it there; or rerun with --force to take it from Copilot CLI too\n")
    assert ((project / ".claude" / "settings.json").read_text(), record.read_text()) == before
    assert run("uninstall", "simple", "--host", "claude", "--force").exit_code == 0
    for path, text in operator.items():
        assert path.read_text(encoding="utf-8") == text


def test_a_copy_copilot_had_of_its_own_goes_when_it_runs_claudes(run, operator, project, write_bundle) -> None:
    bundle = str(write_bundle(TWO))
    assert run("install", bundle, "--host", "copilot").exit_code == 0
    result = run("install", bundle, "--host", "claude", "--host", "copilot")
    assert "copilot project .github/hooks/hookweave.json: removed simple 1.0.0\n" in result.stdout
    assert sorted(p.name for p in (project / ".github" / "hooks").iterdir()) == ["team.json"]
    assert "fires twice" not in run("verify").stdout


def test_at_user_scope_both_keep_a_copy(run, operator, home, write_bundle) -> None:
    """Copilot reads no ~/.claude/settings.json (measured): each agent needs its own copy there."""
    bundle = str(write_bundle(SIMPLE))
    assert run("install", bundle, "--host", "claude", "--host", "copilot", "--scope", "user").exit_code == 0
    assert "runs_for" not in (home / ".claude" / "settings.hookweave.json").read_text()
    assert len(json.loads((home / ".copilot" / "hooks" / "hookweave.json").read_text())["hooks"]) == 3


def test_cursor_keeps_its_own_copy_as_it_reads_claudes_only_with_a_setting(run, operator, project, write_bundle) -> None:
    assert run("install", str(write_bundle(SIMPLE)), "--host", "claude", "--host", "cursor").exit_code == 0
    assert len(json.loads((project / ".cursor" / "hooks.json").read_text())["hooks"]) == 3
    assert "runs_for" not in (project / ".claude" / "settings.hookweave.json").read_text()


@pytest.mark.parametrize(("value", "why"), [
    ('{"copilot": ["nope"]}', "bundles.simple.runs_for.copilot: must list ids of this bundle's hooks"),
    ('{"Copilot!": ["guard"]}', 'bundles.simple.runs_for: "Copilot!" is not a host name'),
    ('["copilot"]', "bundles.simple.runs_for: must be an object, not a list"),
])
def test_a_bad_runs_for_in_the_record_is_refused_naming_its_place(run, operator, project, write_bundle, value, why) -> None:
    bundle = str(write_bundle(SIMPLE))
    assert run("install", bundle, "--host", "claude", "--host", "copilot").exit_code == 0
    record = project / ".claude" / "settings.hookweave.json"
    data = json.loads(record.read_text())
    data["bundles"]["simple"]["runs_for"] = json.loads(value)
    record.write_text(json.dumps(data))
    settings = (project / ".claude" / "settings.json").read_text()
    result = run("install", bundle, "--host", "claude")
    assert result.exit_code == 2 and why in result.stderr
    assert (project / ".claude" / "settings.json").read_text() == settings


def test_installed_for_copilot_alone_later_it_stays_in_claudes_file(run, operator, project, write_bundle) -> None:
    bundle = str(write_bundle(SIMPLE))
    assert run("install", bundle, "--host", "claude", "--host", "copilot").exit_code == 0
    ours = project / ".github" / "hooks" / "hookweave.json"
    before = ours.read_text()
    again = run("install", bundle, "--host", "copilot", "--force")
    assert ("copilot project .github/hooks/hookweave.json: simple 1.0.0 already installed; nothing written\n"
            "  note: simple: 2 hooks (guard, bye) not written here: Copilot CLI runs them from .claude/settings.json "
            "(Claude Code's project settings), as installed for both\n") in again.stdout
    assert ours.read_text() == before  # start only: its own command for Copilot
    assert [line for line in run("verify").stdout.splitlines() if "fires twice" in line and "guard" in line] == []
