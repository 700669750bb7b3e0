"""Who else reads these files: the readers table, and verify/install naming every agent that runs a hook."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookweave.core import readers
from hookweave.core.readers import Place, Reads
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
    assert AGENTS[1].reads[1:] == (Reads("claude", ("project", "local"), "honoured", "", True),)
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
                        "copies in Claude Code's user settings and Claude Code's project settings; keep one of them", "b", "h"),
    ]

