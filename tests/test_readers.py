"""Who else reads these files: the readers table, and verify/install naming every agent that runs a hook."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookweave.core.verify import readers
from hookweave.core.verify.readers import Place, Reads
from hookweave.hosts.claude import ClaudeCodeHost
from hookweave.hosts.copilot import CopilotHost
from hookweave.hosts.cursor import CursorHost

DATA = Path(__file__).parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
AGENTS = readers.table([ClaudeCodeHost, CopilotHost, CursorHost])
ALL = {a.title for a in AGENTS}


@pytest.fixture
def three_agents(home: Path, project: Path) -> Path:
    """A project with Claude, Copilot (trusted) and Cursor configured: each one's folder exists."""
    config = home / ".copilot" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"trustedFolders": [str(project)]}) + "\n")
    (project / ".cursor").mkdir()
    (project / ".claude").mkdir()
    return project


def test_the_table_has_a_row_per_host_and_vs_code_as_a_reader_only() -> None:
    assert [(a.title, a.host) for a in AGENTS] == [("Claude Code", "claude"), ("Copilot CLI", "copilot"),
                                                   ("Cursor", "cursor"), ("VS Code", None)]
    covers = ("SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")  # measured
    assert AGENTS[1].reads[1:] == (Reads("claude", ("project", "local"), "honoured", "", True, covers),)
    assert AGENTS[2].reads[1:] == (Reads("claude", ("user", "project", "local"), "honoured",
                                         'if "Include third-party configs" is on'),)
    assert AGENTS[3].reads == (Reads("claude", ("user", "project", "local"), "ignored"),
                               Reads("copilot", ("user", "project"), "ignored"))
    assert AGENTS[0].reads == (Reads("claude", tuple(ClaudeCodeHost.verify_scopes), "honoured", "", True),)


def test_claude_user_settings_are_read_by_cursor_and_vs_code_but_not_copilot() -> None:
    place = Place("claude", "user", None)
    assert [a.title for a in AGENTS if readers.runs(a, [place])] == ["Claude Code", "Cursor", "VS Code"]


def test_judge_names_agents_counts_copies_and_flags_an_ignored_matcher() -> None:
    copies = [Place("claude", "project", "Bash"), Place("copilot", "project", "bash")]
    assert readers.judge(AGENTS, copies, "b", "h", ALL) == [
        readers.Finding("note", 'runs in 4 agents: Claude Code, Copilot CLI, Cursor (if "Include third-party configs" '
                        "is on), VS Code", "b", "h"),
        readers.Finding("warning", "fires twice in Copilot CLI: it runs the copies in Claude Code's project settings "
                        "and its own project file; keep one of them", "b", "h"),
        readers.Finding("warning", "may fire twice in VS Code: it runs the copies in Claude Code's project settings "
                        "and Copilot CLI's project settings; keep one of them", "b", "h"),
        readers.Finding("warning", "VS Code ignores the matcher `Bash` in Claude Code's project settings: it runs on "
                        "every tool there", "b", "h"),
        readers.Finding("warning", "VS Code ignores the matcher `bash` in Copilot CLI's project settings: it runs on "
                        "every tool there", "b", "h"),
    ]


def test_judge_names_only_agents_in_use_and_leaves_own_scope_copies_to_duplicates() -> None:
    copies = [Place("claude", "user", None), Place("claude", "project", None)]
    assert readers.judge(AGENTS, copies, "b", "h", {"Claude Code"}) == []
    assert readers.judge(AGENTS, copies, "b", "h", {"Claude Code", "Cursor"}) == [
        readers.Finding("note", 'runs in 2 agents: Claude Code, Cursor (if "Include third-party configs" is on)',
                        "b", "h"),
        readers.Finding("warning", 'may fire twice in Cursor if "Include third-party configs" is on: it runs the '
                        "copies in Claude Code's user settings and Claude Code's project settings; turn that setting off, "
                        "or keep one of them", "b", "h"),
    ]



KEEPALIVE = ('  note: guard/keepalive: runs in 3 agents: Claude Code, Copilot CLI, Cursor (if "Include third-party '
             'configs" is on)\n'
             "  warning: guard/keepalive: fires twice in Copilot CLI: it runs the copies in Claude Code's project "
             "settings and its own project file; keep one of them\n")


def test_verify_reports_cross_agent_double_firing_on_a_claude_copilot_cursor_project(run, three_agents) -> None:
    for host in ("claude", "copilot", "cursor"):  # one at a time: each install writes its own copy
        assert run("install", BUNDLE, "--host", host).exit_code == 0
    verify = run("verify", "--host", "claude")
    assert verify.exit_code == 0  # warnings: the operator may mean both
    lines = []
    for hook in ("keepalive", "one-strike", "session-log"):
        lines += [
            f'  note: guard/{hook}: runs in 3 agents: Claude Code, Copilot CLI, Cursor (if "Include third-party configs" '
            'is on)',
            f"  warning: guard/{hook}: fires twice in Copilot CLI: it runs the copies in Claude Code's project settings "
            "and its own project file; keep one of them",
            f'  warning: guard/{hook}: may fire twice in Cursor if "Include third-party configs" is on: it runs the '
            "copies in Claude Code's project settings and its own project file; turn that setting off, or keep one "
            "of them",
        ]
    assert verify.stdout == "\n".join([  # issue 25: warnings before notes, what is fine on one line, and
        "claude (Claude Code)",            # the same finding for the three hooks said once, naming them
        *(line.replace("guard/keepalive:", "guard/keepalive, one-strike, session-log:") for line in lines[:3]
          if line.startswith("  warning:")),
        *(line.replace("guard/keepalive:", "guard/keepalive, one-strike, session-log:") for line in lines[:3]
          if line.startswith("  note:")),
        "  note: Claude starts all of an event's matching hooks at once and does not wait for one before the next, "
        "so file order is not execution order",
        "claude  project  guard 1.2.0  3 hooks ok  .claude/settings.json",
        "verify: ok (6 warnings, 4 notes)",
    ]) + "\n"
    findings = json.loads(run("verify", "--host", "claude", "--json").stdout)["hosts"][0]["findings"]
    assert [f"  {f['level']}: {f['bundle']}/{f['hook']}: {f['message']}" for f in findings[:-1]] == lines


def test_install_says_so_before_writing_and_writes_anyway(run, three_agents) -> None:
    assert run("install", BUNDLE, "--host", "copilot").exit_code == 0
    settings = three_agents / ".claude" / "settings.json"
    dry = run("install", BUNDLE, "--host", "claude", "--dry-run")
    assert dry.exit_code == 0 and not settings.exists()
    head = dry.stdout.split("--- /dev/null")[0]
    assert head == ("claude project .claude/settings.json: would install guard 1.2.0 (3 hooks)\n"
                    "  note: guard: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: set to '20' (was unset; policy at-least)\n"
                    + KEEPALIVE
                    + KEEPALIVE.replace("keepalive", "one-strike") + KEEPALIVE.replace("keepalive", "session-log"))
    done = run("install", BUNDLE, "--host", "claude", "--json")
    assert done.exit_code == 0 and settings.exists()
    notes = json.loads(done.stdout)["files"][0]["notes"]
    assert [(n["level"], n["hook"]) for n in notes[1:3]] == [("note", "keepalive"), ("warning", "keepalive")]
    assert notes[2]["message"] == ("fires twice in Copilot CLI: it runs the copies in Claude Code's project settings "
                                   "and its own project file; keep one of them")


def test_one_install_for_several_hosts_says_each_finding_once(run, three_agents) -> None:
    for host in ("claude", "cursor"):
        assert run("install", BUNDLE, "--host", host).exit_code == 0
    result = run("install", BUNDLE, "--host", "claude", "--host", "copilot", "--host", "cursor", "--force")
    assert result.stdout.count("may fire twice in Cursor") == 3  # one per hook, on the first file only


def test_vs_code_ignores_a_claude_matcher(run, project) -> None:
    (project / ".vscode").mkdir()
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    lines = [line for line in run("verify", "--host", "claude").stdout.splitlines() if "VS Code" in line]
    assert lines == [  # issue 25: the warning first
        "  warning: guard/one-strike: VS Code ignores the matcher `Bash` in Claude Code's project settings: it runs "
        "on every tool there",
        "  note: guard/keepalive, one-strike, session-log: runs in 2 agents: Claude Code, VS Code",
    ]


def test_a_claude_only_project_hears_of_no_other_agent(run, project) -> None:
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    verify = run("verify", "--host", "claude")
    assert "agents" not in verify.stdout and "Copilot" not in verify.stdout and "Cursor" not in verify.stdout


def test_a_matcher_with_control_characters_stays_on_one_line(run, project) -> None:
    (project / ".vscode").mkdir()
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    settings = project / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace('"matcher": "Bash"', '"matcher": "Bash\\nEdit\\u001b"'))
    verify = run("verify", "--host", "claude")
    assert ("  warning: guard/one-strike: VS Code ignores the matcher `Bash\\nEdit\\x1b` in Claude Code's project "
            "settings: it runs on every tool there\n") in verify.stdout


def test_a_hook_each_agent_runs_from_its_own_file_is_no_news() -> None:
    copies = [Place("claude", "user", None), Place("copilot", "project", None)]  # Copilot reads no Claude user file
    assert readers.judge(AGENTS[:2], copies, "b", "h", ALL) == []
