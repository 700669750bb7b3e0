"""hooks doctor, init, templates and completion (issue 13), through the CLI, whole output asserted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostnames import NAMES


def _fake(folder: Path, name: str, output: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(f"#!/bin/sh\necho '{output}'\n")
    (folder / name).chmod(0o755)


@pytest.fixture
def fakebin(tmp_path: Path, monkeypatch) -> Path:
    """A PATH with only the binaries a test puts there (each prints a version)."""
    folder = tmp_path / "bin"
    _fake(folder, "python3", "Python 3.99.1")
    monkeypatch.setenv("PATH", str(folder))
    return folder


# -- doctor -------------------------------------------------------------------------------------

def test_doctor_lists_hosts_files_gates_and_the_chain_runner(run, fakebin, home, project, tmp_path) -> None:
    _fake(fakebin, "claude", "2.1.197 (Claude Code)")
    _fake(fakebin, "gemini", "0.61.0")
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text('{"disableAllHooks": true}\n')
    found = (  # the agents found here come first, in full
        f"claude (Claude Code, built-in): {fakebin}/claude (2.1.197 (Claude Code))\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.claude/settings.json  (none)\n"
        "  project  .claude/settings.json  (none)\n"
        "  local    .claude/settings.local.json\n"
        f"  managed  {tmp_path}/managed/managed-settings.d/50-hookweave.json  (none)\n"
        "  problem: local settings set disableAllHooks: Claude runs only managed hooks, none of hookweave's; remove the key "
        "or set it to false\n"
        f"gemini (Gemini CLI, built-in): {fakebin}/gemini (0.61.0)\n"
        f"  project folder: {project}\n"
        f"  system-defaults  {tmp_path}/gemini-system/system-defaults.json  (none)\n"
        f"  user             {home}/.gemini/settings.json  (none)\n"
        "  project          .gemini/settings.json  (none)\n"
        f"  system           {tmp_path}/gemini-system/settings.json  (none)\n"
        "  problem: the project folder is not trusted (no rule covers it): Gemini skips every settings hook, user ones "
        "too, and a headless run stops (exit 55); trust it in Gemini (or set GEMINI_CLI_TRUST_WORKSPACE=true)\n"
    )
    result = run("doctor")
    assert result.exit_code == 1  # two gates would stop hooks
    assert result.stdout == found + (
        "not found: 14 agents (not on PATH, no settings file): antigravity, cline, codex, copilot, cursor, factory, hermes, kimi, "
        "letta, openhands, openharness, qoder, qwen, windsurf; hooks doctor --verbose shows each\n"
        "plugins: none (built-in hosts only)\n"
        f"chain runner: {fakebin}/python3 (Python 3.99.1)\n"
        "doctor: 2 problems\n")
    assert run("doctor", "--verbose").stdout == found + (  # every agent
        "antigravity (Antigravity CLI, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.gemini/antigravity-cli/hooks.json  (none)\n"
        "  project  .agents/hooks.json  (none)\n"
        "  note: agy is not on PATH: install Antigravity CLI, or ignore this if you do not use it\n"
        "cline (Cline, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.cline/hookweave-hooks.json  (none)\n"
        "  project  .cline/hookweave-hooks.json  (none)\n"
        "  note: cline is not on PATH: install Cline, or ignore this if you do not use it\n"
        "codex (Codex, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.codex/hooks.json  (none)\n"
        "  project  .codex/hooks.json  (none)\n"
        "  note: codex is not on PATH: install Codex, or ignore this if you do not use it\n"
        "copilot (Copilot CLI, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.copilot/hooks/hookweave.json  (none)\n"
        "  project  .github/hooks/hookweave.json  (none)\n"
        f"  managed  {tmp_path}/copilot-policy.d/50-hookweave.json  (none)\n"
        "  note: copilot is not on PATH: install Copilot CLI, or ignore this if you do not use it\n"
        "cursor (Cursor, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.cursor/hooks.json  (none)\n"
        "  project  .cursor/hooks.json  (none)\n"
        f"  managed  {tmp_path}/cursor-managed/hooks.json  (none)\n"
        "  note: cursor-agent is not on PATH: install Cursor, or ignore this if you do not use it\n"
        "factory (Factory Droid, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.factory/hooks.json  (none)\n"
        "  project  .factory/hooks.json  (none)\n"
        "  note: droid is not on PATH: install Factory Droid, or ignore this if you do not use it\n"
        "hermes (Hermes Agent, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user  {home}/.hermes/config.yaml  (none)\n"
        "  note: hermes is not on PATH: install Hermes Agent, or ignore this if you do not use it\n"
        "kimi (Kimi Code, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user  {home}/.kimi-code/config.toml  (none)\n"
        "  note: kimi is not on PATH: install Kimi Code, or ignore this if you do not use it\n"
        "letta (Letta Code, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.letta/settings.json  (none)\n"
        "  project  .letta/settings.json  (none)\n"
        "  local    .letta/settings.local.json  (none)\n"
        "  note: letta is not on PATH: install Letta Code, or ignore this if you do not use it\n"
        "openhands (OpenHands, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.openhands/hooks.json  (none)\n"
        "  project  .openhands/hooks.json  (none)\n"
        "  note: openhands is not on PATH: install OpenHands, or ignore this if you do not use it\n"
        "openharness (OpenHarness, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user  {home}/.openharness/settings.json  (none)\n"
        "  note: openharness is not on PATH: install OpenHarness, or ignore this if you do not use it\n"
        "qoder (Qoder CLI, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.qoder/settings.json  (none)\n"
        "  project  .qoder/settings.json  (none)\n"
        "  local    .qoder/settings.local.json  (none)\n"
        "  note: qoder is not on PATH: install Qoder CLI, or ignore this if you do not use it\n"
        "qwen (Qwen Code, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.qwen/settings.json  (none)\n"
        "  project  .qwen/settings.json  (none)\n"
        "  note: qwen is not on PATH: install Qwen Code, or ignore this if you do not use it\n"
        "windsurf (Windsurf, built-in): not found\n"
        f"  project folder: {project}\n"
        f"  user     {home}/.codeium/windsurf/hooks.json  (none)\n"
        "  project  .windsurf/hooks.json  (none)\n"
        "  note: windsurf is not on PATH: install Windsurf, or ignore this if you do not use it\n"
        "plugins: none (built-in hosts only)\n"
        f"chain runner: {fakebin}/python3 (Python 3.99.1)\n"
        "doctor: 2 problems\n")
    as_json = json.loads(run("doctor", "--json").stdout)
    assert (as_json["ok"], as_json["problems"], [h["version"] for h in as_json["hosts"]]) == (
        False, 2, [{"claude": "2.1.197 (Claude Code)", "gemini": "0.61.0"}.get(name) for name in NAMES])


def test_doctor_without_python3_is_a_problem_and_ok_otherwise(run, fakebin, monkeypatch) -> None:
    (fakebin / "python3").unlink()
    result = run("doctor")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-2:] == [
        "chain runner: problem: python3 is not on PATH: chained hooks and the shipped templates need it; install Python 3",
        "doctor: 1 problem"]
    _fake(fakebin, "python3", "Python 3.99.1")
    assert run("doctor").stdout.endswith("doctor: ok\n")


def test_doctor_names_the_one_project_folder_from_a_subfolder(run, fakebin, project, monkeypatch) -> None:
    """Issue 36 item 3: one project for every host (was: src for Claude, the root for Codex)."""
    (project / ".git").mkdir()
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (project / "src").mkdir()
    monkeypatch.chdir(project / "src")
    rows = {h["host"]: h["project"] for h in json.loads(run("doctor", "--json").stdout)["hosts"]}
    assert set(rows.values()) == {str(project)} and len(rows) == 16
    (project / "src" / ".claude").mkdir()  # an agent's folder makes src a project of its own
    rows = {h["host"]: h["project"] for h in json.loads(run("doctor", "--json").stdout)["hosts"]}
    assert set(rows.values()) == {str(project / "src")}


# -- init and templates ---------------------------------------------------------------------------

def test_init_writes_a_bundle_that_installs_and_whose_hook_keeps_the_rules(run, project, monkeypatch) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    result = run("init", "hooks/guard")
    assert result.exit_code == 0
    assert result.stdout == ("wrote hooks/guard/hookweave.toml\nwrote hooks/guard/hook.py\n"
                             "next: hooks install hooks/guard --host claude  (or --host all); hooks verify\n")
    manifest = (project / "hooks" / "guard" / "hookweave.toml").read_text()
    assert 'name = "guard"\n' in manifest and "#   hooks install hooks/guard --host claude" in manifest
    hook = project / "hooks" / "guard" / "hook.py"
    for payload, code, err in (('{"tool_input": {"command": "git commit --no-verify"}}', 2,
                                "Blocked by guard: do not skip the git hooks (--no-verify).\n"),
                               ('{"tool_input": {"command": "ls"}}', 0, ""), ("not json", 0, "")):
        done = subprocess.run([sys.executable, str(hook)], input=payload, capture_output=True, text=True)
        assert (done.returncode, done.stdout, done.stderr) == (code, "", err)  # stdout stays the protocol's
    install = run("install", "hooks/guard", "--host", "all", "--trust")
    assert install.exit_code == 0, install.output
    warnings = [line for line in install.stdout.splitlines() if "warning:" in line and "fire" not in line]
    # --host all: Copilot runs the hook from Claude's project settings, so nothing is written for it
    assert "fires twice" not in install.stdout
    assert ("copilot project .github/hooks/hookweave.json: guard 0.1.0: 1 hook (check-shell) not written here: Copilot "
            "CLI runs it from .claude/settings.json (Claude Code's project settings), once; nothing written"
            ) in install.stdout.splitlines()
    assert warnings == [] and install.stderr.startswith(  # --host all leaves out what no clone could run (test_hostall)
        "note: hermes, kimi, openharness: no project settings file, so --host all at project scope leaves them out (their only "
        "file is in your home folder); for their user settings: hooks install hooks/guard --host hermes --host kimi --host "
        "openharness --scope user\n"
        "note: antigravity, cline, codex, windsurf: no variable for the project folder, so {bundle_dir} would be this "
        "machine's absolute path in a file the team shares; --host all leaves them out (to install there anyway, on "
        "this machine only: hooks install hooks/guard --host antigravity --host cline --host codex --host windsurf)\n")
    install = run("install", "hooks/guard", "--host", "antigravity", "--host", "cline", "--host", "codex",
                  "--host", "windsurf", "--trust")  # named one by one: installed, with a warning each
    warnings = [line for line in install.stdout.splitlines() if "warning:" in line and "fire" not in line]
    assert len(warnings) == 4 and "Antigravity CLI has no variable for the project folder" in warnings[0]
    assert ".cline/hookweave-hooks.json works here but not in another clone; Cline has no variable" in warnings[1]
    assert "Codex has no project variable; at the top of a git repository" in warnings[2]
    assert "Windsurf has no variable for the project folder" in warnings[3]  # its powershell form is not written through one


def test_init_never_overwrites(run, project) -> None:
    (project / "hook.py").write_text("mine\n")
    result = run("init")
    assert result.exit_code == 2
    assert result.stderr == "hooks: hook.py: already exists; init never overwrites: remove it or choose another folder\n"
    assert sorted(p.name for p in project.iterdir()) == ["hook.py"]
    assert (project / "hook.py").read_text() == "mine\n"
    assert run("init", "--from", "nope").stderr == (
        "hooks: --from nope: no such template; choose one of example-guard (hooks templates lists them)\n")
    assert run("init", "x", "--name", "Bad_Name").stderr == (
        "hooks: --name Bad_Name: a bundle name is lowercase letters, digits and dashes; e.g. my-hooks\n")


def test_templates_lists_each_with_its_description(run) -> None:
    assert run("templates").stdout == (
        "example-guard 1.0.0: Blocks destructive shell commands; asks for a clean git tree before stopping\n"
        "  hooks: destructive-guard (pre_tool_use), clean-tree (stop)\n"
        "  try it: hooks install example-guard --host claude; keep it: hooks init --from example-guard\n")
    assert json.loads(run("templates", "--json").stdout)["templates"][0]["name"] == "example-guard"


# -- completion ------------------------------------------------------------------------------------

def _complete(words: str, cword: int, cwd: Path) -> list[str]:
    env = {**os.environ, "_HOOKS_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    done = subprocess.run([str(Path(sys.executable).parent / "hooks")], env=env, cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_completion_offers_hosts_commands_and_installed_bundles(run, project, write_bundle) -> None:
    assert _complete("hooks install --host c", 3, project) == ["claude", "cline", "codex", "copilot", "cursor"]
    assert _complete("hooks d", 1, project) == ["doctor"]
    run("install", str(write_bundle('[bundle]\nname = "tiny"\nversion = "1.0.0"\n[[hooks]]\nid = "a"\nevent = "stop"\n'
                                    'command = "echo a"\n')), "--host", "gemini")
    assert _complete("hooks uninstall t", 2, project) == ["tiny"]
    script = run("completion", "bash")
    assert script.exit_code == 0 and "_HOOKS_COMPLETE=complete_bash" in script.stdout
    assert run("completion", "tcsh").stderr == (
        "hooks: completion tcsh: not a shell typer completes; use one of bash, zsh, fish, powershell\n")


def test_normal_commands_do_not_load_the_setup_commands() -> None:
    """Start-up cost (issues 9, 13): the commands in their own modules (init, templates, doctor,
    completion, adopt, check) are defined only when asked."""
    probe = ("import sys; sys.argv = ['hooks', 'status']\nfrom hookweave.core.cli.app import main\n"
             "try: main()\nexcept SystemExit: pass\n"
             "print(sorted(m for m in sys.modules if m == 'questionary' or m.startswith('hookweave.core.cli.') and "
             "m.split('.')[-1] in ('setup', 'doctor', 'scaffold', 'completion', 'interactive', 'adopt', 'check')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "[]"
    for command, module in (("adopt", "cli.adopt"), ("check", "cli.check")):
        named = subprocess.run([sys.executable, "-c", probe.replace("'status'", repr(command))], capture_output=True, text=True)
        loaded = named.stdout.splitlines()[-1]
        commands = [m for m in ("setup", "adopt", "check") if f"'hookweave.core.cli.{m}'" in loaded]
        assert f"'hookweave.core.{module}'" in loaded and commands == [module.split(".")[1]]
