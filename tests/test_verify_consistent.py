"""Issue 36 item 3: verify never contradicts itself. A bundle's row says "ok" only when no problem
stops it, a heading says "all N agents it is installed in" only when verify read every agent, and
the last line, the exit code and ``--json`` count the same problems, from the root and from a
subfolder, for every agent alone and all together."""

from __future__ import annotations

import json
import re

import pytest

from tests.hostnames import TITLES
from tests.test_everyday import _repo
from tests.test_issue25 import _example

CODEX_PROBLEMS = [
    "codex (Codex)",
    "  problem: example-guard/destructive-guard, clean-tree: not trusted: Codex skips it silently; run hooks install "
    "with --trust, or trust it in Codex's /hooks",
    "  problem: this project is not trusted in the user config.toml, so Codex ignores .codex/ here; trust it when "
    "Codex asks, or run codex exec --trust once",
]
GEMINI_PROBLEM = [
    "gemini (Gemini CLI)",
    "  problem: the project folder is not trusted (no rule covers it): Gemini skips every settings hook, user ones "
    "too, and a headless run stops (exit 55); trust it in Gemini (or set GEMINI_CLI_TRUST_WORKSPACE=true)",
]
FIRES_TWICE = ("  warning: example-guard/clean-tree, destructive-guard: may fire twice in Cursor if \"Include "
               "third-party configs\" is on: it runs the copies in Claude Code's project settings and its own project "
               "file; turn that setting off, or keep one of them")
RUNS_IN = ("  note: example-guard/clean-tree, destructive-guard: runs in 15 agents: Antigravity CLI, Claude Code, "
           "Cline, Codex, Copilot CLI, Cursor (if \"Include third-party configs\" is on), Factory Droid, Gemini CLI, "
           "Kimi Code, Letta Code, OpenHands, OpenHarness, Qoder CLI, Qwen Code, Windsurf")


def test_a_bundle_is_not_all_ok_in_the_agents_whose_problems_stop_it(run) -> None:
    """Was: "example-guard 1.0.0: all hooks ok in 14 agents" right under Codex's, Copilot's and
    Gemini's problems about the same bundle."""
    _example(run)
    result = run("verify")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        *CODEX_PROBLEMS,
        "copilot (Copilot CLI)",
        "  problem: the project folder is not trusted by Copilot (trustedFolders in ~/.copilot/config.json): it skips "
        "the project's hooks, in .github/hooks and in Claude's project settings; trust the folder when Copilot asks, "
        "or add it to trustedFolders",
        *GEMINI_PROBLEM,
        "example-guard (all 15 agents it is installed in)",
        FIRES_TWICE,
        RUNS_IN,
        "notes: 22 more, from 15 agents; hooks verify --verbose shows them one by one",
        "codex    project  example-guard 1.0.0  2 hooks in place, 3 problems above  .codex/hooks.json",
        "copilot  project  example-guard 1.0.0  2 hooks in place, 1 problem above   .claude/settings.json (Claude "
        "Code's, which Copilot CLI runs)",
        "gemini   project  example-guard 1.0.0  2 hooks in place, 1 problem above   .gemini/settings.json",
        "example-guard 1.0.0: all hooks ok in 12 agents; hooks status lists their files",
        "nothing installed: hermes",  # user scope only: the example is installed at project scope
        "verify: 5 problems, 2 warnings, 24 notes; start with codex example-guard/destructive-guard: run hooks "
        "install with --trust, or trust it in Codex's /hooks",
    ]


def test_a_heading_names_the_agents_read_when_verify_read_only_some(run) -> None:
    """Was: "example-guard (all 3 agents it is installed in)" for a bundle installed in 14."""
    _example(run)
    result = run("verify", "--host", "claude", "--host", "cursor", "--host", "gemini")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        *GEMINI_PROBLEM,
        "example-guard (claude, cursor, gemini)",
        FIRES_TWICE,
        "claude (Claude Code)",
        "  note: Claude starts all of an event's matching hooks at once and does not wait for one before the next, "
        "so file order is not execution order",
        "cursor (Cursor)",
        "  note: Cursor's documentation does not say whether an event's hooks run in file order or at once; "
        "hookweave checks file order only",
        "gemini (Gemini CLI)",
        "  note: Gemini runs an event's hooks in parallel unless any matching group sets \"sequential\": true; then "
        "all of them run one after another in file order, user scope before project scope",
        "example-guard (claude, cursor, gemini)",
        RUNS_IN,
        "gemini  project  example-guard 1.0.0  2 hooks in place, 1 problem above  .gemini/settings.json",
        "example-guard 1.0.0: all hooks ok in 2 agents; hooks status lists their files",
        "verify: 1 problem, 2 warnings, 5 notes; start with gemini: trust it in Gemini (or set "
        "GEMINI_CLI_TRUST_WORKSPACE=true)",
    ]


def test_one_agent_with_a_problem_has_no_ok_row(run) -> None:
    _example(run)
    result = run("verify", "--host", "codex", "--quiet")
    assert (result.exit_code, result.stdout.splitlines()) == (1, [
        *CODEX_PROBLEMS,
        "verify: 3 problems, 2 warnings, 3 notes; start with codex example-guard/destructive-guard: run hooks install "
        "with --trust, or trust it in Codex's /hooks"])
    rows = [line for line in run("verify", "--host", "codex").stdout.splitlines() if line.startswith("codex  ")]
    assert rows == ["codex  project  example-guard 1.0.0  2 hooks in place, 3 problems above  .codex/hooks.json"]


def test_the_project_markers_are_the_built_in_agents_folders() -> None:
    from pathlib import Path

    from hookweave.core.contract.registry import registry
    from hookweave.core.reading.projects import MARKERS

    known = registry()
    folders = set()
    for name in known.names():
        host = known.get(name)
        if "project" in host.scopes:
            folders.add(str(host.settings_path("project", Path("/p")).parent.relative_to("/p")))
    assert folders <= set(MARKERS) and set(MARKERS) - folders == {".clinerules"}  # Cline's hook folder


def _said(run, *argv: str) -> tuple[int, list[str], dict]:
    text = run("verify", *argv)
    doc = run("verify", *argv, "--json")
    assert text.exit_code == doc.exit_code
    return text.exit_code, text.stdout.splitlines(), json.loads(doc.stdout)


def _check_agrees(code: int, lines: list[str], doc: dict, every_host: bool) -> int:
    """Every summary line against the findings it sums up; returns the lines checked."""
    hosts = {h["host"]: h for h in doc["hosts"]}

    def stopped(host: dict, bundle: str) -> bool:
        findings = [*host["findings"], *(x for f in host["files"] for x in f["findings"])]
        bad = [h for f in host["files"] for b in f["bundles"] if b["name"] == bundle for h in b["hooks"]
               if h["level"] == "problem"]
        return bool(bad) or any(f["level"] == "problem" and f["bundle"] in (None, bundle) for f in findings)

    checked = 0
    last = re.match(r"verify: (ok|(\d+) problems?)", lines[-1])
    assert last and (code == 1) == (last.group(1) != "ok") == (not doc["ok"]) == (doc["problems"] > 0), lines[-1]
    if last.group(2):
        assert int(last.group(2)) == doc["problems"], (lines[-1], doc["problems"])
    for line in lines:
        row = re.match(r"(\S+)\s+(\S+)\s+(\S+) (\S+)\s+(\d+ hooks? ok|\d+ hooks? in place, .*? above|\d+ of .*? above|"
                       r"\d+ of \d+ hooks? ok)\s", line)
        if row and row.group(1) in hosts:
            assert stopped(hosts[row.group(1)], row.group(3)) == (" ok" not in row.group(5)), line
            checked += 1
        fold = re.match(r"(\S+) \S+: all hooks ok in (\d+) agents", line)
        if fold:
            fine = [h for h in hosts.values() for f in h["files"] for b in f["bundles"]
                    if b["name"] == fold.group(1) and not stopped(h, fold.group(1))]
            assert len(fine) >= int(fold.group(2)), line
            checked += 1
        heading = re.match(r"(\S+) \(all (\d+) agents it is installed in\)", line)
        if heading:
            having = {h["host"] for h in hosts.values() for f in h["files"] for b in f["bundles"] if b["name"] == heading.group(1)}
            assert every_host and len(having) == int(heading.group(2)), line
            checked += 1
        if line.startswith("nothing installed: "):
            assert all(not hosts[n]["files"] for n in line.split(": ", 1)[1].split(", ")), line
            checked += 1
    return checked


@pytest.mark.parametrize("where", ["root", "subfolder", "marked subfolder"])
def test_every_summary_line_agrees_with_the_findings_for_every_host(run, project, monkeypatch, where) -> None:
    """The class: from the root and from subfolders, all agents and each alone, text and --json."""
    _example(run)
    if where != "root":
        sub = _repo(project, monkeypatch)
        if where == "marked subfolder":
            (sub / ".claude").mkdir()
    checked = 0
    for argv in [(), *((f"--host={name}",) for name in sorted(TITLES))]:
        code, lines, doc = _said(run, *argv)
        checked += _check_agrees(code, lines, doc, every_host=not argv)
    assert checked >= 15


def test_every_command_says_the_same_project_once_from_a_subfolder(run, project, monkeypatch) -> None:
    """install, status, verify and uninstall from src/pkg: one project (the git root) for Claude Code
    and Codex alike (was: Claude's file in src/pkg, Codex's at the root), one note, the same in
    text and --json."""
    _repo(project, monkeypatch)
    note = (f"project: {project} (the git root); Claude Code reads project settings only from the folder it starts "
            f"in: start it in {project}")
    both = ("--host", "claude", "--host", "codex")
    done = run("install", "example-guard", *both, "--json")
    doc = json.loads(done.stdout)
    assert (doc["notes"], done.stderr) == ([note], f"note: {note}\n")
    assert [f["path"] for f in doc["files"]] == [f"{project}/.claude/settings.json", f"{project}/.codex/hooks.json"]
    status = run("status", *both)
    assert status.stderr == f"note: {note}\n"
    assert status.stdout == (f"claude  project  example-guard 1.0.0  (2 hooks, 1 env)  {project}/.claude/settings.json\n"
                             f"codex   project  example-guard 1.0.0  (2 hooks, 0 env)  {project}/.codex/hooks.json\n")
    assert json.loads(run("status", *both, "--json").stdout)["findings"] == [
        {"level": "note", "bundle": None, "hook": None, "message": note, "machine": False}]
    verify = run("verify", *both)
    assert verify.stdout.splitlines()[0] == f"note: {note}"
    assert sum(line.count("project: ") for line in verify.stdout.splitlines()) == 1
    gone = run("uninstall", "example-guard", *both, "--json")
    assert (gone.exit_code, json.loads(gone.stdout)["notes"], gone.stderr) == (0, [note], f"note: {note}\n")
    assert not (project / ".claude").exists() and not (project / ".codex" / "hooks.json").exists()


def test_a_home_folder_under_git_is_never_the_project(run, home, monkeypatch) -> None:
    """A dotfiles repository at HOME: its ~/.claude and ~/.codex are the user's files, so from
    ~/work the project is ~/work for every agent (Codex took the git root, HOME, before)."""
    (home / ".git").mkdir()
    (home / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (home / ".claude").mkdir()
    work = home / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    done = run("install", "example-guard", "--host", "claude", "--host", "codex", "--dry-run", "--json")
    assert done.exit_code == 0, done.output
    assert [f["path"] for f in json.loads(done.stdout)["files"]] == [".claude/settings.json", ".codex/hooks.json"]
    assert json.loads(done.stdout)["notes"] == []
