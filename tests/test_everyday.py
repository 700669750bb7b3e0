"""Issue 13, cases 1-5 and 7-9: what a new user trips over, each through the CLI, whole output asserted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostnames import LISTED

CHECK = ('[bundle]\nname = "tiny"\nversion = "1.0.0"\n\n[[hooks]]\nid = "check"\nevent = "pre_tool_use"\n'
         'command = ["python3", "{bundle_dir}/check.py"]\n')
OPERATOR = '{\n  // the operator\'s own\n  "model": "x",\n  "hooks": {}\n}\n'


def _repo(project: Path, monkeypatch) -> Path:
    """``project`` made a git repository; the test then works in its ``src/pkg``."""
    (project / ".git").mkdir()
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    sub = project / "src" / "pkg"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)
    return sub


def _bundle(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "hookweave.toml").write_text(CHECK)
    (folder / "check.py").write_text("import sys\n")  # install refuses a script that is not there (issue 22)
    return folder


# -- case 1: a subfolder -----------------------------------------------------------------------

def test_case1_claude_in_a_subfolder_installs_at_the_project_and_names_who_does_not_read_it(run, project, tmp_path,
                                                                                             monkeypatch) -> None:
    """Issue 36 item 3: one project for every agent (the git root here, as for Codex), said once with
    the agents that, started in this subfolder, do not read it (was: Claude's file in src/pkg,
    Codex's at the root)."""
    sub = _repo(project, monkeypatch)
    bundle = _bundle(tmp_path / "b")
    result = run("install", str(bundle), "--host", "claude", "--scope", "user")
    assert result.exit_code == 0  # user scope: no project folder to name
    assert "note:" not in result.output
    result = run("uninstall", "tiny", "--host", "claude", "--scope", "user")
    result = run("install", str(bundle), "--host", "claude")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"claude project {project}/.claude/settings.json: installed tiny 1.0.0 (1 hook)\n"
        f"  warning: tiny: {{bundle_dir}} is {bundle}, a path on this machine only: {project}/.claude/settings.json "
        "works here but not in another clone; to commit it, move the bundle into the project and install it from "
        "there, or hooks add its git URL\n"
        "Restart running sessions of Claude Code: hooks load at session start.\n")
    assert result.stderr == (f"note: project: {project} (the git root); Claude Code reads project settings only from "
                             f"the folder it starts in: start it in {project}\n")
    assert (project / ".claude" / "settings.json").exists() and not (sub / ".claude").exists()
    # a subfolder that holds an agent's folder is a project of its own: every agent's file goes there
    (sub / ".gemini").mkdir()
    again = run("install", str(bundle), "--host", "claude", "--host", "codex", "--dry-run", "--json")
    assert [f["path"] for f in json.loads(again.stdout)["files"]] == [".claude/settings.json", ".codex/hooks.json"]
    assert again.stderr == ""  # both read it from here: Codex loads every .codex/ from the git root down


def test_case1_verify_in_a_subfolder_checks_the_projects_hooks(run, project, tmp_path, monkeypatch) -> None:
    """Was: "nothing installed: claude", "verify: ok" from src/pkg, with the bundle at the root."""
    _repo(project, monkeypatch)
    assert run("install", str(_bundle(tmp_path / "b")), "--host", "claude", "--project", str(project)).exit_code == 0
    result = run("verify", "--host", "claude")
    assert result.exit_code == 0
    assert result.stdout == (
        f"note: project: {project} (the git root); Claude Code reads project settings only from the folder it starts "
        f"in: start it in {project}\n"
        "claude (Claude Code)\n"
        "  note: Claude starts all of an event's matching hooks at once and does not wait for one before the next, so "
        "file order is not execution order\n"
        f"claude  project  tiny 1.0.0  1 hook ok  {project}/.claude/settings.json\n"
        "verify: ok (2 notes)\n")
    doc = json.loads(run("verify", "--host", "claude", "--json").stdout)
    assert doc["findings"] == [{"level": "note", "bundle": None, "hook": None, "machine": False, "message": (
        f"project: {project} (the git root); Claude Code reads project settings only from the folder it starts in: "
        f"start it in {project}")}]
    assert [f["bundles"][0]["name"] for f in doc["hosts"][0]["files"]] == ["tiny"]
    status = run("status", "--host", "claude")
    assert status.stdout.startswith("claude  project  tiny 1.0.0  (1 hook, 0 env)  ")


def test_case1_codex_in_a_subfolder_installs_at_the_git_root(run, project, monkeypatch, codex_home) -> None:
    _repo(project, monkeypatch)
    bundle = _bundle(project / "tools" / "tiny")
    result = run("install", str(bundle), "--host", "codex", "--trust")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:1] == [f"codex project {project}/.codex/hooks.json: installed tiny 1.0.0 (1 hook)"]
    assert result.stderr == f"note: project: {project} (the git root)\n"  # Codex reads it from here
    assert (project / ".codex" / "hooks.json").read_text() == (
        '{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "hooks": [\n          {\n'
        '            "type": "command",\n'
        '            "command": "python3 \\"$(git rev-parse --show-toplevel)\\"/tools/tiny/check.py # hookweave:tiny/check"\n'
        '          }\n        ]\n      }\n    ]\n  }\n}\n')
    assert not (project / "src" / "pkg" / ".codex").exists()
    # a .codex folder nearer than the root is the one Codex reads first: install goes there
    (project / "src" / ".codex").mkdir()
    again = run("install", str(bundle), "--host", "codex", "--dry-run", "--json")
    assert json.loads(again.stdout)["files"][0]["path"] == f"{project}/src/.codex/hooks.json"


# -- case 2: committed settings that work on every machine ---------------------------------------

NESTED = """{{
  // the operator's own
  "model": "x",
  "hooks": {{
    "{event}": [
      {{
        "hooks": [
          {{
            "type": "command",{name}
            "command": "{command} # hookweave:tiny/check"
          }}
        ]
      }}
    ]
  }}
}}
"""
CASE2 = {
    "claude": (".claude/settings.json", '{\n  "model": "x"\n}\n', NESTED.replace("  // the operator's own\n", "").format(
        event="PreToolUse", name="", command='python3 \\"$CLAUDE_PROJECT_DIR\\"/\'tools/my tiny\'/check.py')),
    "gemini": (".gemini/settings.json", OPERATOR, NESTED.format(
        event="BeforeTool", name='\n            "name": "tiny/check",', command='python3 \\"${GEMINI_PROJECT_DIR}\\"/\'tools/my tiny\'/check.py')),
    "cursor": (".cursor/hooks.json", "{}\n", '{\n  "hooks": {\n    "preToolUse": [\n      {\n        "command": "python3 '
               '\\"$CURSOR_PROJECT_DIR\\"/\'tools/my tiny\'/check.py # hookweave:tiny/check"\n      }\n    ]\n  },\n  "version": 1\n}\n'),
}


@pytest.mark.parametrize("host", sorted(CASE2))
def test_case2_a_bundle_inside_the_project_renders_through_the_project_variable(run, project, host, tmp_path, monkeypatch) -> None:
    """The settings name the bundle through the host's project variable: a clone elsewhere runs it."""
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    path, before, after = CASE2[host]
    bundle = _bundle(project / "tools" / "my tiny")
    (bundle / "check.py").write_text("import os, sys\nprint(os.getcwd(), file=open(sys.argv[0] + '.ran', 'w'))\n")
    settings = project / path
    settings.parent.mkdir()
    settings.write_text(before)
    result = run("install", str(bundle), "--host", host)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stdout
    assert settings.read_text() == after
    # The committed file in another clone, on another machine: the hook runs from there.
    import shutil
    import subprocess

    clone = tmp_path / "elsewhere" / "clone"
    shutil.copytree(project, clone)
    command = json.loads("".join(line for line in settings.read_text().splitlines(keepends=True) if "//" not in line))
    entry = command["hooks"][next(iter(command["hooks"]))][0]
    line = entry["hooks"][0]["command"] if "hooks" in entry else entry["command"]
    variable = {"claude": "CLAUDE_PROJECT_DIR", "gemini": "GEMINI_PROJECT_DIR", "cursor": "CURSOR_PROJECT_DIR"}[host]
    subprocess.run(["sh", "-c", line], cwd=clone, env={"PATH": "/usr/bin:/bin:" + __import__("os").environ["PATH"], variable: str(clone)},
                   check=True, input="{}", text=True)
    assert (clone / "tools" / "my tiny" / "check.py.ran").exists()
    assert not (bundle / "check.py.ran").exists()
    assert run("uninstall", "tiny", "--host", host).exit_code == 0
    assert settings.read_text() == before


def test_case2_a_template_at_project_scope_warns_and_init_from_makes_it_portable(run, project) -> None:
    from hookweave.core.model.loading import template_dir

    where = template_dir() / "example-guard"
    result = run("install", "example-guard", "--host", "claude")
    assert result.exit_code == 0
    assert result.stdout == (
        "claude project .claude/settings.json: installed example-guard 1.0.0 (2 hooks)\n"
        "  note: example-guard: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: set to '20' (was unset; policy at-least)\n"
        f"  warning: example-guard: {{bundle_dir}} is {where}, a path on this machine only: .claude/settings.json works "
        "here but not in another clone; to commit it, hooks add example-guard vendors it into the repository (or hooks init "
        "--from example-guard and install ./example-guard)\n"
        "Restart running sessions of Claude Code: hooks load at session start.\n")
    as_json = json.loads(run("install", "example-guard", "--host", "claude", "--json").stdout)
    assert [n["level"] for n in as_json["files"][0]["notes"]] == ["warning"]  # carried in --json too
    assert run("uninstall", "example-guard", "--host", "claude").exit_code == 0
    init = run("init", "--from", "example-guard")
    assert init.exit_code == 0
    assert init.stdout == ("wrote example-guard/clean_tree.py\nwrote example-guard/guard.py\nwrote example-guard/hookweave.toml\n"
                           "next: hooks install ./example-guard --host claude  (or --host all); hooks verify\n")
    portable = run("install", "./example-guard", "--host", "claude")
    assert portable.stdout == (
        "claude project .claude/settings.json: installed example-guard 1.0.0 (2 hooks)\n"
        "  note: example-guard: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: set to '20' (was unset; policy at-least)\n"
        "Restart running sessions of Claude Code: hooks load at session start.\n")
    assert '"python3 \\"$CLAUDE_PROJECT_DIR\\"/example-guard/guard.py # hookweave:example-guard/destructive-guard"' in (
        project / ".claude" / "settings.json").read_text()


def test_case2_user_scope_names_the_absolute_path_without_a_warning(run, write_bundle, home) -> None:
    result = run("install", str(write_bundle(CHECK, **{"check.py": ""})), "--host", "claude", "--scope", "user")
    assert result.stdout == (f"claude user {home}/.claude/settings.json: installed tiny 1.0.0 (1 hook)\n"
                             "Restart running sessions of Claude Code: hooks load at session start.\n")


# -- case 3: install ok, verify no -------------------------------------------------------------

def test_case3_install_says_verify_would_fail_and_json_carries_active(run, write_bundle, project) -> None:
    bundle = str(write_bundle(CHECK.replace("{bundle_dir}/check.py", "/opt/check.py")))
    result = run("install", bundle, "--host", "claude", "--host", "gemini")
    assert result.exit_code == 0  # the files are right; the gate is the operator's to open
    assert result.stdout == (
        "claude project .claude/settings.json: installed tiny 1.0.0 (1 hook)\n"
        "gemini project .gemini/settings.json: installed tiny 1.0.0 (1 hook)\n"
        "  problem: the project folder is not trusted (no rule covers it): Gemini skips every settings hook, user ones "
        "too, and a headless run stops (exit 55); trust it in Gemini (or set GEMINI_CLI_TRUST_WORKSPACE=true)\n"
        "written, but verify would fail: 1 problem above; fix each as it says, then run hooks verify\n"
        "Restart running sessions of Claude Code, Gemini CLI: hooks load at session start.\n")
    assert run("verify").exit_code == 1
    again = json.loads(run("install", bundle, "--host", "gemini", "--json").stdout)
    assert (again["changed"], again["active"], len(again["files"][0]["problems"])) == (False, False, 1)
    clean = json.loads(run("install", bundle, "--host", "claude", "--json").stdout)
    assert clean["active"] is True


# -- case 4: a typo in uninstall NAME ------------------------------------------------------------

def test_case4_a_typo_exits_1_and_names_what_is_installed(run, write_bundle, project) -> None:
    run("install", str(write_bundle(CHECK.replace("{bundle_dir}/check.py", "/opt/check.py"))), "--host", "claude")
    settings = (project / ".claude" / "settings.json").read_text()
    result = run("uninstall", "tyni", "--host", "claude")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == "hooks: tyni is not installed at claude project; did you mean tiny? installed: tiny (claude project)\n"
    as_json = run("uninstall", "tyni", "--host", "claude", "--json")
    assert json.loads(as_json.stdout) == {"error": "tyni is not installed at claude project; did you mean tiny? "
                                                   "installed: tiny (claude project)", "exit_code": 1}
    assert (project / ".claude" / "settings.json").read_text() == settings


# -- case 5: verify --scope ----------------------------------------------------------------------

def test_case5_verify_scope_local_checks_claude_and_says_the_others_have_none(run, write_bundle) -> None:
    run("install", str(write_bundle(CHECK.replace("{bundle_dir}/check.py", "/opt/check.py"))), "--host", "claude", "--scope", "local")
    result = run("verify", "--scope", "local")
    assert result.exit_code == 0, result.output
    assert result.stdout == (  # issue 25: notes after problems and warnings, what is fine one line each,
        "claude (Claude Code)\n"  # a note several agents word alike but for their name said once
        "  note: Claude starts all of an event's matching hooks at once and does not wait for one before the next, "
        "so file order is not execution order\n"
        "gemini (Gemini CLI)\n"
        "  note: Gemini CLI has no local scope (it has system-defaults, user, project, system); nothing to check\n"
        "antigravity, cline, codex, factory, openhands, qwen, windsurf (7 agents)\n"
        "  note: the agent has no local scope (it has user, project); nothing to check\n"
        "copilot, cursor (2 agents)\n"
        "  note: the agent has no local scope (it has user, project, managed); nothing to check\n"
        "hermes, kimi, openharness (3 agents)\n"
        "  note: the agent has no local scope (it has user); nothing to check\n"
        "claude  local  tiny 1.0.0  1 hook ok  .claude/settings.local.json\n"
        "nothing installed: antigravity, cline, codex, copilot, cursor, factory, gemini, hermes, kimi, letta, openhands, "
        "openharness, qoder, qwen, windsurf\n"
        "verify: ok (14 notes)\n")
    assert result.stdout.count("\n") < run("verify", "--scope", "local", "--verbose").stdout.count("\n")
    bogus = run("verify", "--scope", "bogus")
    assert bogus.exit_code == 2
    assert bogus.stderr == ("root verify: invalid value for --scope: no agent has a scope 'bogus'; scopes: local, "  # root: CliRunner's
                            "managed, project, system, system-defaults, user (root verify --help)\n")  # issue 36: said first


# -- case 7: dry run ------------------------------------------------------------------------------

def test_case7_dry_run_speaks_of_what_it_would_do_with_the_patch_only_on_request(run, write_bundle, home) -> None:
    bundle = str(write_bundle(CHECK.replace("{bundle_dir}/check.py", "/opt/check.py")))
    result = run("install", bundle, "--host", "claude", "--scope", "user", "--dry-run")
    assert result.exit_code == 0
    path = f"{home}/.claude/settings.json"
    assert result.stdout == (
        f"claude user {path}: would install tiny 1.0.0 (1 hook)\n"
        "--- /dev/null\n"
        f"+++ {path}\n"
        "@@ -0,0 +1,14 @@\n"
        "+{\n" '+  "hooks": {\n' '+    "PreToolUse": [\n' "+      {\n" '+        "hooks": [\n' "+          {\n"
        '+            "type": "command",\n' '+            "command": "python3 /opt/check.py # hookweave:tiny/check"\n'
        "+          }\n" "+        ]\n" "+      }\n" "+    ]\n" "+  }\n" "+}\n"
        "record settings.hookweave.json would be written\n"
        "dry run: nothing written\n")
    assert not (home / ".claude").exists()
    patched = run("install", bundle, "--host", "claude", "--scope", "user", "--dry-run", "--patch")
    assert f"JSON Patch (RFC 6902) for {path}:\n[\n  {{\n    \"op\": \"add\",\n" in patched.stdout
    run("install", bundle, "--host", "claude", "--scope", "user")
    again = run("install", bundle, "--host", "claude", "--scope", "user", "--dry-run")
    assert again.stdout == f"claude user {path}: tiny 1.0.0 already installed\ndry run: nothing written\n"
    gone = run("uninstall", "tiny", "--host", "claude", "--scope", "user", "--dry-run")
    assert gone.stdout.splitlines()[0] == f"claude user {path}: would remove tiny 1.0.0"


def test_case7_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch, capsys) -> None:
    from hookweave.core.cli import console

    from tests.fakes import Tty

    tty = Tty()
    monkeypatch.setattr("sys.stdout", tty)
    monkeypatch.delenv("NO_COLOR", raising=False)
    console.out("+added", "ok")
    assert tty.text == "\x1b[32m\x1b[22m+added\x1b[0m\n"
    monkeypatch.setenv("NO_COLOR", "1")
    console.out("+added", "ok")
    assert tty.text.endswith("\n+added\n")


# -- case 8: every error under --json is JSON ------------------------------------------------------

@pytest.mark.parametrize(("argv", "error"), [
    (["uninstall", "--json"], "uninstall: name the bundle to remove (hooks status lists them), or pass --all for every "
                              "bundle of the scope"),
    (["verify", "--json", "--bogus"], "hooks verify: no such option --bogus; did you mean --verbose?"),  # issue 36: one style
    (["install", "--json", "--host"], "hooks install: option --host needs a value"),
    (["status", "--json", "--host", "nope"], f"unknown host 'nope'; registered hosts: {LISTED} (or all)"),
])
def test_case8_usage_errors_under_json_are_json_on_stdout(argv, error) -> None:
    import os
    import subprocess
    import sys

    hooks = str(Path(sys.executable).parent / "hooks")  # the installed command, through main()
    done = subprocess.run([hooks, *argv], capture_output=True, text=True, env=os.environ)
    assert done.returncode == 2
    assert json.loads(done.stdout) == {"error": error, "exit_code": 2}
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


# -- case 9: -h, and a folder without a manifest ----------------------------------------------------

def test_case9_dash_h_is_help(run) -> None:
    assert run("-h").stdout == run("--help").stdout
    assert run("install", "-h").stdout.startswith("Usage: root install [OPTIONS] [BUNDLE]\n")  # root: CliRunner's name


def test_case9_a_folder_without_a_manifest_says_so(run, tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    for spec, shown in ((str(tmp_path / "empty"), str(tmp_path / "empty")), (".", ".")):
        result = run("install", spec, "--host", "claude")
        assert result.exit_code == 2
        assert result.stderr == (f"hooks: {shown}: a folder without hookweave.toml; write one (hooks init scaffolds it) "
                                 "or pass a manifest path or template name\n")


# -- a local-scope install: keep it out of git ------------------------------------------------------

def test_local_scope_install_says_whether_git_ignores_it(run, project, write_bundle) -> None:
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    bundle = str(write_bundle(CHECK.replace("{bundle_dir}/check.py", "/opt/check.py")))
    result = run("install", bundle, "--host", "claude", "--scope", "local")
    assert result.stdout == (
        "claude local .claude/settings.local.json: installed tiny 1.0.0 (1 hook)\n"
        "  note: local settings are personal, but git does not ignore .claude/settings.local.json "
        ".claude/settings.local.hookweave.json; keep them out of commits: add them to .gitignore\n"
        "Restart running sessions of Claude Code: hooks load at session start.\n")
    (project / ".gitignore").write_text(".claude/settings.local.json\n.claude/*.hookweave.json\n")
    run("uninstall", "tiny", "--host", "claude", "--scope", "local")
    again = run("install", bundle, "--host", "claude", "--scope", "local")
    assert again.stdout.splitlines()[1] == "  note: local settings and their record are ignored by git: they stay on this machine"
    assert "git" not in run("install", bundle, "--host", "claude").stdout  # project scope: meant to be committed
