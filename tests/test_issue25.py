"""Issue 25 parts 3 and 5: verify that shows the problem first, and each rough edge a new user hit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_everyday import _repo

SMALL = '[bundle]\nname = "tiny"\nversion = "0.1.0"\n[[hooks]]\nid = "stop-note"\nevent = "stop"\ncommand = "echo bye"\n'
HOOKS = str(Path(sys.executable).parent / "hooks")
DATA = Path(__file__).parent / "data"


def _example(run) -> None:
    """The example in all 15 agents: ``--host all`` at project scope leaves out the agents with no
    project file or no project variable (test_hostall), which are then named one by one."""
    assert run("init", "--from", "example-guard").exit_code == 0
    assert run("install", "./example-guard", "--host", "all").exit_code == 0
    left_out = ("antigravity", "cline", "codex", "windsurf", "kimi", "openharness")  # no git here: Codex too
    assert run("install", "./example-guard", *(f"--host={h}" for h in left_out)).exit_code == 0


# -- part 3: verify -------------------------------------------------------------------------------

def test_verify_puts_problems_first_says_cross_agent_facts_once_and_counts(run) -> None:
    _example(run)
    result = run("verify")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    levels = [line.split(":", 1)[0].strip() for line in lines if line.lstrip().startswith(("problem:", "warning:", "note:"))]
    assert levels == sorted(levels, key=["problem", "warning", "note"].index)  # problems, warnings, notes
    assert lines[:2] == ["codex (Codex)", "  problem: example-guard/destructive-guard, clean-tree: not trusted: Codex "
                         "skips it silently; run hooks install with --trust, or trust it in Codex's /hooks"]
    assert not [line for line in lines if "fires twice" in line]  # part 4: once per agent (was 2; 28 before)
    assert "example-guard (all 15 agents it is installed in)" in lines
    assert not any("outside a {matcher, hooks} group" in line for line in lines)  # Antigravity's flat Stop is ours
    assert lines[-1] == ("verify: 5 problems, 2 warnings, 24 notes; start with codex example-guard/destructive-guard: "
                         "run hooks install with --trust, or trust it in Codex's /hooks")
    # each agent's own notes on one line, the bundle's files too: one screen (179 lines with 14 hosts, then 61)
    assert "notes: 22 more, from 15 agents; hooks verify --verbose shows them one by one" in lines
    assert "example-guard 1.0.0: all hooks ok in 12 agents; hooks status lists their files" in lines  # not Codex, Copilot, Gemini: their problems stop it
    assert len(lines) <= 24


def test_verify_verbose_folds_nothing(run) -> None:
    _example(run)
    result = run("verify", "--verbose")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[1:3] == [f"  problem: example-guard/{hook}: not trusted: Codex skips it silently; run hooks install "
                          "with --trust, or trust it in Codex's /hooks" for hook in ("destructive-guard", "clean-tree")]
    assert sum(1 for line in lines if line.startswith("  note: ")) == 24  # every note, one by one
    assert "copilot      project  example-guard 1.0.0  2 hooks in place, 1 problem above   .claude/settings.json " \
           "(Claude Code's, which Copilot CLI runs)" in lines
    assert "claude       project  example-guard 1.0.0  2 hooks ok                          .claude/settings.json" in lines
    assert lines[-1] == run("verify").stdout.splitlines()[-1]
    assert len(lines) < 70  # was 179 with 14 hosts


def test_verify_quiet_prints_the_problems_and_the_last_line(run) -> None:
    _example(run)
    result = run("verify", "--quiet")
    assert result.exit_code == 1
    assert [line for line in result.stdout.splitlines() if line.startswith("  ")] == [
        line for line in run("verify").stdout.splitlines() if line.startswith("  problem:")]
    assert "warning:" not in result.stdout and "note:" not in result.stdout
    assert result.stdout.endswith("start with codex example-guard/destructive-guard: run hooks install with --trust, "
                                  "or trust it in Codex's /hooks\n")


def test_verify_json_gives_ok_hooks_the_level_ok(run) -> None:
    assert run("install", "example-guard", "--host", "claude").exit_code == 0
    doc = json.loads(run("verify", "--host", "claude", "--json").stdout)
    hooks = [h for f in doc["hosts"][0]["files"] for b in f["bundles"] for h in b["hooks"]]
    assert [(h["status"], h["level"]) for h in hooks] == [("ok", "ok"), ("ok", "ok")]


# -- part 5: uninstall --all ---------------------------------------------------------------------

def test_uninstall_all_removes_every_bundle_of_the_scope(run, project, write_bundle) -> None:
    run("install", "example-guard", "--host", "claude")
    run("install", str(write_bundle(SMALL)), "--host", "claude", "--host", "cursor")
    run("install", str(write_bundle(SMALL)), "--host", "claude", "--scope", "user")
    dry = run("uninstall", "--all", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert [line for line in dry.stdout.splitlines() if ": would remove" in line] == [
        "claude project .claude/settings.json: would remove example-guard 1.0.0",
        "claude project .claude/settings.json: would remove tiny 0.1.0",
        "cursor project .cursor/hooks.json: would remove tiny 0.1.0"]
    assert (project / ".claude" / "settings.json").exists()
    done = run("uninstall", "--all")
    assert done.exit_code == 0, done.output
    assert not (project / ".claude").exists() and not (project / ".cursor").exists()
    assert run("status").stdout.startswith("claude  user  tiny 0.1.0")  # another scope: kept
    again = run("uninstall", "--all", "--host", "claude")
    assert (again.exit_code, again.stderr) == (
        1, "hooks: nothing is installed at claude project; hooks status lists what is installed where\n")
    both = run("uninstall", "tiny", "--all")
    assert (both.exit_code, both.stderr) == (2, "hooks: uninstall: pass NAME or --all, not both\n")


def test_uninstall_all_gives_back_files_full_of_operator_entries_byte_for_byte(run, project, claude_settings,
                                                                              write_bundle, monkeypatch) -> None:
    """DESIGN section 5: uninstall removes exactly what the records say, so --all after two bundles
    gives back the operator's Claude settings and commented Gemini file to the byte."""
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    gemini = project / ".gemini" / "settings.json"
    gemini.parent.mkdir()
    gemini.write_text((DATA / "gemini" / "operator.settings.json").read_text(encoding="utf-8"), encoding="utf-8")
    before = {p: p.read_bytes() for p in (claude_settings, gemini)}
    assert run("install", "example-guard", "--host", "claude", "--host", "gemini").exit_code == 0
    assert run("install", str(write_bundle(SMALL)), "--host", "claude", "--host", "gemini").exit_code == 0
    assert all(p.read_bytes() != text for p, text in before.items())
    done = run("uninstall", "--all")
    assert done.exit_code == 0, done.output
    assert {p: p.read_bytes() for p in before} == before
    assert sorted(q.name for q in project.rglob("*.hookweave.json")) == []  # no record left behind


# -- part 5: rough edges ---------------------------------------------------------------------------

@pytest.mark.parametrize(("typed", "meant"), [("claud", "claude"), ("Claude", "claude"), ("claude-code", "claude"),
                                               ("Claude Code", "claude"), ("gemni", "gemini"), ("copilot-cli", "copilot")])
def test_a_mistyped_host_gets_did_you_mean(run, typed, meant) -> None:
    result = run("status", "--host", typed)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"hooks: unknown host {typed!r}; did you mean {meant}? registered hosts: ")


def test_a_comma_separated_host_list_is_read_as_repeated_hosts(run, project, write_bundle) -> None:
    result = run("install", str(write_bundle(SMALL)), "--host", "claude,cursor")
    assert result.exit_code == 0, result.output
    assert (project / ".claude" / "settings.json").exists() and (project / ".cursor" / "hooks.json").exists()


def test_a_reader_closing_the_pipe_early_leaves_the_exit_code_alone(project) -> None:
    """``hooks install ... --dry-run | head -5`` under ``set -o pipefail``: exit 0, quietly, every run."""
    subprocess.run([HOOKS, "init", "--from", "example-guard"], check=True, capture_output=True)
    for argv, code in ((["install", "./example-guard", "--host", "all", "--dry-run"], 0), (["hosts"], 0)):
        for _ in range(6):
            proc = subprocess.Popen([HOOKS, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            proc.stdout.readline()
            proc.stdout.close()  # the reader goes, as head does
            err = proc.stderr.read()
            assert (proc.wait(timeout=60), err.count(b"\n")) == (code, 2 if "all" in argv else 0), err  # 2 notes: test_hostall


def test_verify_keeps_its_exit_code_when_the_reader_goes(run, project) -> None:
    subprocess.run([HOOKS, "install", "example-guard", "--host", "gemini"], check=True, capture_output=True)
    for _ in range(4):
        done = subprocess.run(["bash", "-o", "pipefail", "-c", f"{HOOKS} verify | head -1 >/dev/null"],
                              capture_output=True, timeout=60)
        assert (done.returncode, done.stderr) == (1, b"")  # Gemini's folder trust: a problem, exit 1


@pytest.mark.parametrize(("env", "coloured"), [
    ({"NO_COLOR": ""}, True), ({"NO_COLOR": "1"}, False), ({"TERM": "dumb"}, False),
    ({"FORCE_COLOR": "1", "TERM": "dumb"}, True), ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False)])
def test_colour_follows_no_color_force_color_and_term(monkeypatch, env, coloured) -> None:
    from hookweave.core.cli import console
    from tests.fakes import Tty

    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert console._color(Tty()) is coloured


def test_force_color_colours_a_pipe(project) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    done = subprocess.run([HOOKS, "verify", "--host", "claude"], capture_output=True, text=True,
                          env={**env, "FORCE_COLOR": "1"})
    assert done.stdout == "nothing installed: claude\n\x1b[32m\x1b[22mverify: ok\x1b[0m\n"
    plain = subprocess.run([HOOKS, "verify", "--host", "claude"], capture_output=True, text=True, env=env)
    assert plain.stdout == "nothing installed: claude\nverify: ok\n"


def test_json_never_opens_the_picker_on_a_terminal(run, write_bundle, monkeypatch) -> None:
    import questionary

    from hookweave.core.cli import prompts

    monkeypatch.setattr(prompts, "interactive", lambda: True)
    monkeypatch.setattr(questionary, "checkbox", lambda *a, **k: (_ for _ in ()).throw(AssertionError("prompted")))
    result = run("install", str(write_bundle(SMALL)), "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {"error": "install: --json never asks; pass --host (e.g. --host claude, or "
                                                  "--host all)", "exit_code": 2}


def test_a_dry_run_names_clines_dispatcher_instead_of_printing_it(run) -> None:
    result = run("install", "example-guard", "--host", "cline", "--dry-run")
    assert result.exit_code == 0
    from hookweave.hosts.cline import dispatcher as cline_dispatcher

    lines = len(cline_dispatcher.render("PreToolUse", [{"command": "x"}], 2).splitlines())
    assert (f"the dispatcher program hookweave ships ({lines} lines) would be written: .clinerules/hooks/PreToolUse\n"
            in result.stdout)
    assert "#!/bin/sh" not in result.stdout and "hw_facts" not in result.stdout
    assert len(result.stdout.splitlines()) < 45


def test_a_host_whose_project_file_exists_is_detected(run, project) -> None:
    (project / ".cursor").mkdir()
    (project / ".cursor" / "hooks.json").write_text("{}\n")
    rows = {r["name"]: r["detected"] for r in json.loads(run("hosts", "--json").stdout)["hosts"]}
    assert rows["cursor"] is True and rows["claude"] is False
    shown = {line.split()[0]: line for line in run("hosts").stdout.splitlines()}
    assert shown["cursor"].endswith("  (detected)") and shown["claude"].endswith("  (not detected)")


def test_project_that_is_a_file_says_so(run, project) -> None:
    (project / "notes.txt").write_text("x")
    result = run("status", "--project", "notes.txt")
    assert (result.exit_code, result.stderr) == (
        2, f"hooks: --project notes.txt: a file, not a folder; pass the project folder (here {project})\n")


def test_install_in_a_subfolder_names_the_manifest_above(run, project, monkeypatch) -> None:
    (project / "hookweave.toml").write_text(SMALL)
    _repo(project, monkeypatch)
    result = run("install", "--host", "claude")
    assert (result.exit_code, result.stderr) == (
        2, f"hooks: no hookweave.toml here; the nearest is ../../hookweave.toml: pass it (hooks install ../.. --host "
           f"...), or run install in {project}\n")


def test_status_and_uninstall_in_a_subfolder_name_the_roots_bundles(run, project, monkeypatch) -> None:
    run("install", "example-guard", "--host", "claude", "--host", "gemini")
    sub = _repo(project, monkeypatch)
    # issue 36: src/pkg holds nothing of a project, so the project is the git root, for every agent
    status = run("status")
    assert status.stdout == (f"claude  project  example-guard 1.0.0  (2 hooks, 1 env)  {project}/.claude/settings.json\n"
                             f"gemini  project  example-guard 1.0.0  (2 hooks, 0 env)  {project}/.gemini/settings.json\n")
    assert status.stderr.startswith(f"note: project: {project} (the git root); Antigravity CLI, Claude Code, ")
    # a subfolder with an agent's folder is a project of its own: the root's bundles are named
    (sub / ".qwen").mkdir()
    tail = (f"the git root {project} has example-guard (claude project, gemini project), which Claude Code, Gemini CLI "
            f"started here does not run (it reads project settings from the folder it starts in): start it in {project}, ")
    assert run("status").stdout == (f"nothing installed here; {tail}or run hooks status --host claude --host gemini "
                                    f"--project {project}\n")
    gone = run("uninstall", "example-guard", "--host", "claude")
    assert (gone.exit_code, gone.stderr) == (1, "hooks: example-guard is not installed at claude project; installed: "
                                                f"nothing; {tail.replace(', gemini project', '').replace(', Gemini CLI', '')}"
                                                f"or run hooks uninstall example-guard --host claude --project {project}\n")
    (sub / ".qwen").rmdir()
    done = run("uninstall", "example-guard", "--host", "claude", "--yes")
    assert done.exit_code == 0 and not (project / ".claude").exists(), done.output


def test_completion_offers_scope_values(monkeypatch) -> None:
    from hookweave.core.cli.group import complete_scopes

    assert complete_scopes("") [:2] == ["project", "user"]
    assert complete_scopes("l") == ["local"] and "managed" in complete_scopes("")


def test_progress_goes_to_a_terminal_only(monkeypatch, capsys) -> None:
    from hookweave.core.cli import console

    console.progress("verify: claude (1 of 14)")  # stderr is no terminal here
    assert capsys.readouterr().err == ""

    from tests.fakes import Tty

    tty = Tty()
    monkeypatch.setattr("sys.stderr", tty)
    console.progress("verify: claude (1 of 14)")
    console.progress(None)
    assert tty.text == "\r\x1b[Kverify: claude (1 of 14)\r\x1b[K"
