"""Issue 13, cases 1-5 and 7-9: what a new user trips over, each through the CLI, whole output asserted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
    return folder


# -- case 1: a subfolder -----------------------------------------------------------------------

def test_case1_claude_in_a_subfolder_installs_where_it_starts_and_says_so(run, project, tmp_path, monkeypatch) -> None:
    sub = _repo(project, monkeypatch)
    bundle = _bundle(tmp_path / "b")
    result = run("install", str(bundle), "--host", "claude", "--scope", "user")
    assert result.exit_code == 0  # user scope: no project folder to name
    assert "note:" not in result.stdout
    result = run("uninstall", "tiny", "--host", "claude", "--scope", "user")
    result = run("install", str(bundle), "--host", "claude")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "claude project .claude/settings.json: installed tiny 1.0.0 (1 hook)\n"
        f"  note: Claude Code reads project settings from the folder it starts in, here ({sub}), not the git root "
        f"{project}; to use the root's, start it there or pass --project {project}\n"
        f"  warning: tiny: {{bundle_dir}} is {bundle}, a path on this machine only: .claude/settings.json works here "
        "but not in another clone; to commit it, move the bundle into the project and install it from there\n"
        "Restart running sessions of Claude Code: hooks load at session start.\n")
    assert (sub / ".claude" / "settings.json").exists() and not (project / ".claude").exists()


def test_case1_verify_in_a_subfolder_points_at_the_roots_hooks(run, project, tmp_path, monkeypatch) -> None:
    sub = _repo(project, monkeypatch)
    assert run("install", str(_bundle(tmp_path / "b")), "--host", "claude", "--project", str(project)).exit_code == 0
    result = run("verify", "--host", "claude")
    assert result.exit_code == 0
    assert result.stdout == (
        "claude (Claude Code)\n"
        f"  note: Claude Code reads project settings from the folder it starts in, here ({sub}), not the git root "
        f"{project}; to use the root's, start it there or pass --project {project}\n"
        f"  note: bundles are installed at the git root {project} (project scope), which Claude Code started here "
        f"does not read; check them with --project {project}\n"
        "verify: ok\n")
    status = run("status", "--host", "claude", "--project", str(project))
    assert status.stdout.startswith("claude   project  tiny 1.0.0  (1 hook, 0 env)  ")


def test_case1_codex_in_a_subfolder_installs_at_the_git_root(run, project, monkeypatch, codex_home) -> None:
    _repo(project, monkeypatch)
    bundle = _bundle(project / "tools" / "tiny")
    result = run("install", str(bundle), "--host", "codex", "--trust")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == [
        f"codex project {project}/.codex/hooks.json: installed tiny 1.0.0 (1 hook)",
        f"  note: project folder: {project}, the one Codex reads project settings from when started here"]
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
        event="BeforeTool", name='\n            "name": "tiny/check",', command="python3 $GEMINI_PROJECT_DIR/'tools/my tiny'/check.py")),
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
    from hookweave.core.bundles import template_dir

    where = template_dir() / "example-guard"
    result = run("install", "example-guard", "--host", "claude")
    assert result.exit_code == 0
    assert result.stdout == (
        "claude project .claude/settings.json: installed example-guard 1.0.0 (2 hooks)\n"
        "  note: example-guard: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: set to '20' (was unset; policy at-least)\n"
        f"  warning: example-guard: {{bundle_dir}} is {where}, a path on this machine only: .claude/settings.json works "
        "here but not in another clone; to commit it, run hooks init --from example-guard and install ./example-guard\n"
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
    result = run("install", str(write_bundle(CHECK)), "--host", "claude", "--scope", "user")
    assert result.stdout == (f"claude user {home}/.claude/settings.json: installed tiny 1.0.0 (1 hook)\n"
                             "Restart running sessions of Claude Code: hooks load at session start.\n")
