"""Issue 32 item 7 and issue 33 item 8: ``--host all`` (and ``detected``) at project scope is safe for a
team's repository. Agents with no project file are left out with one note (no write into $HOME, no
refusal of the whole command); agents that could name the bundle only by this machine's absolute
path are left out with a note; a bundle outside the project is refused; ``--host detected`` takes
the agents found here; and ``uninstall --all --host all`` takes a bundle out of Claude and the
Copilot that runs Claude's copy together, as ``uninstall NAME --host all`` does."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

GUARD = """[bundle]
name = "guard"
version = "1.0.0"

[[hooks]]
id = "no-rm"
event = "pre_tool_use"
matcher = ["shell"]
command = "{bundle_dir}/guard.sh"
"""
SCRIPT = "#!/bin/sh\nexit 0\n"
NO_PROJECT = ("note: hermes, kimi, openharness: no project settings file, so --host all at project scope leaves them out "
              "(their only file is in your home folder); for their user settings: ")
NO_VARIABLE = ("note: antigravity, cline, windsurf: no variable for the project folder, so {bundle_dir} would be "
               "this machine's absolute path in a file the team shares; --host all leaves them out (to install there "
               "anyway, on this machine only: hooks install tools/guard --host antigravity --host cline --host "
               "windsurf)\n")
WRITTEN = [".claude/settings.hookweave.json", ".claude/settings.json", ".codex/hooks.hookweave.json",
           ".codex/hooks.json", ".cursor/hooks.hookweave.json", ".cursor/hooks.json", ".factory/hooks.hookweave.json",
           ".factory/hooks.json", ".gemini/settings.hookweave.json", ".gemini/settings.json",
           ".letta/settings.hookweave.json", ".letta/settings.json", ".openhands/hooks.hookweave.json",
           ".openhands/hooks.json", ".qoder/settings.hookweave.json", ".qoder/settings.json", ".qwen/settings.hookweave.json", ".qwen/settings.json"]


def tree(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its bytes (``None`` for a folder), links not followed."""
    out: dict[str, bytes | None] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            out[os.path.relpath(os.path.join(folder, name), root)] = None
        for name in files:
            path = os.path.join(folder, name)
            link = os.path.islink(path)
            out[os.path.relpath(path, root)] = os.readlink(path).encode() if link else Path(path).read_bytes()
    return out


@pytest.fixture
def repo(project: Path) -> Path:
    """A git repository with the bundle vendored in ``tools/guard`` and the operator's Claude settings."""
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    bundle = project / "tools" / "guard"
    bundle.mkdir(parents=True)
    (bundle / "hookweave.toml").write_text(GUARD)
    (bundle / "guard.sh").write_text(SCRIPT)
    (bundle / "guard.sh").chmod(0o755)
    return project


def ours(project: Path) -> list[str]:
    return sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file()
                  and ".git" not in p.parts and "tools" not in p.parts)


@pytest.mark.parametrize("scope", [[], ["--scope", "project"]])
def test_install_all_at_project_scope_writes_nothing_in_home_and_no_machine_path(run, repo, home, tmp_path,
                                                                                 scope) -> None:
    before = tree(home)
    result = run("install", "./tools/guard", "--host", "all", *scope)
    assert result.exit_code == 0, result.output
    assert result.stderr == NO_PROJECT + "hooks install tools/guard --host hermes --host kimi --host openharness --scope user\n" \
        + NO_VARIABLE
    assert tree(home) == before  # not one byte, not one folder in $HOME
    assert ours(repo) == WRITTEN  # no .agents, .cline, .clinerules, .windsurf, .github
    for name in WRITTEN:  # every file a clone can run: no path of this machine in it
        assert str(tmp_path) not in (repo / name).read_text(), name
    assert (repo / ".claude" / "settings.json").read_text() == (
        '{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n        "hooks": [\n'
        '          {\n            "type": "command",\n            "command": "\\"$CLAUDE_PROJECT_DIR\\"/tools/guard/'
        'guard.sh # hookweave:guard/no-rm"\n          }\n        ]\n      }\n    ]\n  }\n}\n')


@pytest.mark.parametrize("scope", [[], ["--scope", "project"]])
def test_uninstall_and_verify_all_at_project_scope_skip_the_user_only_agents(run, repo, home, scope) -> None:
    assert run("install", "./tools/guard", "--host", "all").exit_code == 0
    quiet = run("uninstall", "guard", "--host", "all", "--dry-run", *scope)
    assert (quiet.exit_code, quiet.stderr) == (0, "")  # nothing in Kimi's or OpenHarness's files: no note
    assert run("install", "./tools/guard", "--host", "kimi").exit_code == 0  # its user file, asked for by name
    before = tree(home)
    verify = run("verify", "--host", "all", "--scope", "project")
    assert verify.stderr == NO_PROJECT + "hooks verify --host hermes --host kimi --host openharness --scope user\n"
    assert "kimi" not in verify.stdout and "openharness" not in verify.stdout
    assert run("status", "--host", "all").exit_code == 0
    kimi = ("note: kimi: no project settings file, so --host all at project scope leaves it out (its only file is "
            "in your home folder); for its user settings: ")
    dry = run("uninstall", "guard", "--host", "all", "--dry-run", *scope)
    assert (dry.exit_code, dry.stderr) == (0, kimi + "hooks uninstall guard --host kimi --scope user\n")
    done = run("uninstall", "--all", *scope)  # --all: every host by default
    assert (done.exit_code, done.stderr) == (0, kimi + "hooks uninstall --all --host kimi --scope user\n")
    assert ours(repo) == [] and tree(home) == before  # Kimi's copy stays: the note names the command for it


def test_user_scope_still_reaches_the_user_only_agents(run, repo, home) -> None:
    result = run("install", "./tools/guard", "--host", "all", "--scope", "user", "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    hosts = {f["host"] for f in json.loads(result.stdout)["files"]}
    assert {"kimi", "openharness", "antigravity", "cline", "windsurf"} <= hosts


def test_a_bundle_outside_the_project_is_refused_under_host_all(run, repo, home, write_bundle) -> None:
    outside = write_bundle(GUARD, **{"guard.sh": SCRIPT})
    (outside / "guard.sh").chmod(0o755)
    before, files = tree(home), tree(repo)
    for scope in ([], ["--scope", "project"]):
        result = run("install", str(outside), "--host", "all", *scope)
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == (
            f"hooks: {outside}/hookweave.toml: the bundle is outside the project ({repo}), so --host all at project "
            f"scope would write {outside}, a path on this machine only, into files the team shares; nothing "
            "written: move the bundle into the repository, or hooks add GIT-URL (the bundle's repository) to vendor "
            "it\n")
        assert (tree(home), tree(repo)) == (before, files)
    template = run("install", "example-guard", "--host", "all")
    assert template.exit_code == 2 and template.stderr.endswith(
        "nothing written: hooks init --from example-guard copies it into the repository (then install "
        "./example-guard), or hooks add example-guard vendors it\n")
    assert (tree(home), tree(repo)) == (before, files)
    # one agent named: the operator asked for exactly that, on this machine; a warning, as before
    single = run("install", str(outside), "--host", "claude")
    assert single.exit_code == 0 and f"warning: guard: {{bundle_dir}} is {outside}, a path on this machine " \
        "only" in single.stdout
    # --host all at user scope: the user's own files, where this machine's path is right
    assert run("install", str(outside), "--host", "all", "--scope", "user", "--dry-run").exit_code == 0


def test_host_detected_takes_only_the_agents_found_here(run, repo, home) -> None:
    for name in (".cursor/hooks.json", ".qwen/settings.json"):  # a project file of an agent: detected
        (repo / name).parent.mkdir()
        (repo / name).write_text("{}\n")
    found = {h["name"] for h in json.loads(run("hosts", "--json").stdout)["hosts"] if h["detected"]}
    assert {"cursor", "qwen"} <= found and "claude" not in found
    result = run("install", "./tools/guard", "--host", "detected", "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    chosen = {f["host"] for f in json.loads(result.stdout)["files"] if f["record"]}
    assert chosen == found - {"kimi", "openharness", "antigravity", "cline", "windsurf"}
    status = run("status", "--host", "detected")
    assert (status.exit_code, status.stdout) == (0, "nothing installed\n")


def test_host_detected_with_nothing_found_is_one_line(run, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    result = run("install", "example-guard", "--host", "detected")
    assert (result.exit_code, result.stderr) == (2, "hooks: --host detected: no agent is detected here (hooks hosts "
                                                    "lists them all); name one with --host, e.g. --host claude\n")


def test_uninstall_all_host_all_takes_out_claudes_copy_and_the_copilot_that_runs_it(run, repo, claude_settings,
                                                                                   home) -> None:
    before = claude_settings.read_bytes()
    assert run("install", "./tools/guard", "--host", "all").exit_code == 0
    assert claude_settings.read_bytes() != before
    done = run("uninstall", "--all", "--host", "all")
    assert done.exit_code == 0, done.output
    assert claude_settings.read_bytes() == before  # the operator's settings, byte for byte
    assert ours(repo) == [".claude/settings.json"]
    assert run("status").stdout == "nothing installed\n"
