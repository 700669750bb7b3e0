"""Issue 10, cases 2, 4 and 5: a duplicate is judged with each host's own de-duplication key, only
between the copies the host really loads and runs; Codex's hooks.json shape is checked on every
verify. Each fixture is built the way the issue's scenario says: install, then change things."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def _bundle(write_bundle, timeout: int, *, matcher: str = "shell") -> Path:
    return write_bundle(f'[bundle]\nname = "guard"\nversion = "1.0.0"\n[[hooks]]\nid = "check"\nevent = "pre_tool_use"\n'
                        f'matcher = ["{matcher}"]\ncommand = "echo guard"\ntimeout = {timeout}\n')


def _user_and_project(run, write_bundle, host: str, *extra: str) -> Path:
    """The same bundle at user scope (timeout 30), then at project scope after its timeout became 31."""
    folder = _bundle(write_bundle, 30)
    assert run("install", str(folder), "--host", host, "--scope", "user", *extra).exit_code == 0
    (folder / "hookweave.toml").write_text((folder / "hookweave.toml").read_text().replace("30", "31"))
    assert run("install", str(folder), "--host", host, "--scope", "project", *extra).exit_code == 0
    return folder


# -- case 2: Claude and Gemini run an identical command once, whatever the timeouts --------------------

@pytest.mark.parametrize("host, title, keeps", [("claude", "Claude Code", "project"), ("gemini", "Gemini CLI", "user")])
def test_same_command_at_user_and_project_with_other_timeouts_runs_once(run, write_bundle, host, title, keeps,
                                                                        monkeypatch) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    _user_and_project(run, write_bundle, host)
    result = run("verify", "--host", host)
    assert result.exit_code == 0, result.stdout
    assert (f"  note: guard: installed at user and project scope; {title} runs identical commands once, with the "
            f"timeout of the {keeps} copy where the timeouts differ\n") in result.stdout
    assert "fires 2 times" not in result.stdout


def test_claude_copy_with_its_own_if_runs_twice(run, write_bundle, project) -> None:
    _user_and_project(run, write_bundle, "claude")
    settings = project / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace('"timeout": 31', '"timeout": 31,\n            "if": "Bash(git *)"'))
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert ("  problem: guard/check: installed at user and project scope; Claude Code runs the copies in user and "
            "project each, so it fires 2 times per PreToolUse: uninstall it from all but one scope\n") in result.stdout


def test_gemini_copy_renamed_by_hand_runs_twice(run, write_bundle, project, monkeypatch) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    _user_and_project(run, write_bundle, "gemini")
    settings = project / ".gemini" / "settings.json"
    settings.write_text(settings.read_text().replace('"name": "guard/check"', '"name": "my guard"'))
    result = run("verify", "--host", "gemini")
    assert result.exit_code == 1
    assert "guard/check: installed at user and project scope; Gemini CLI runs the copies in user and project each, " \
           "so it fires 2 times per BeforeTool" in result.stdout


def test_claude_copies_with_other_matchers_still_run_once(run, write_bundle, project) -> None:
    folder = _bundle(write_bundle, 30)
    run("install", str(folder), "--host", "claude", "--scope", "user")
    (folder / "hookweave.toml").write_text((folder / "hookweave.toml").read_text().replace('"shell"', '"edit"'))
    run("install", str(folder), "--host", "claude", "--scope", "local")
    result = run("verify", "--host", "claude")
    assert result.exit_code == 0, result.stdout
    assert "  note: guard: installed at user and local scope; Claude Code runs identical commands once\n" in result.stdout


def test_cursor_says_it_may_fire_twice(run, write_bundle) -> None:
    _user_and_project(run, write_bundle, "cursor")
    result = run("verify", "--host", "cursor")
    assert result.exit_code == 0
    assert ("  warning: guard/check: installed at user and project scope; Cursor's documentation does not say whether "
            "it runs identical commands once, so it may fire 2 times per preToolUse: uninstall it from all but one "
            "scope\n") in result.stdout


# -- Codex: no de-duplication, but only the layers and hooks it loads count (case 5) -------------------

@pytest.fixture
def codex_config(codex_home: Path, project: Path) -> Path:
    config = codex_home / "config.toml"
    config.write_text(f'# the operator\'s config\n[projects."{project}"]\ntrust_level = "trusted"\n')
    return config


def test_codex_trusted_project_runs_both_copies(run, write_bundle, codex_config) -> None:
    _user_and_project(run, write_bundle, "codex", "--trust")
    result = run("verify", "--host", "codex")
    assert result.exit_code == 1
    assert ("  problem: guard/check: installed at user and project scope; Codex runs the copies in user and project "
            "each, so it fires 2 times per PreToolUse: uninstall it from all but one scope\n") in result.stdout


def test_codex_untrusted_project_runs_only_the_user_copy(run, write_bundle, codex_config, project) -> None:
    _user_and_project(run, write_bundle, "codex", "--trust")
    codex_config.write_text(codex_config.read_text().replace('trust_level = "trusted"', 'trust_level = "untrusted"'))
    result = run("verify", "--host", "codex")
    assert result.exit_code == 0, result.stdout  # the user copy runs once, as asked (issue 23 case 5)
    assert ("  warning: this project is marked untrusted in the user config.toml, so Codex ignores .codex/ here: "
            "hookweave's project copies do not run, and the user layer's copies of them run instead\n") in result.stdout
    assert "fires 2 times" not in result.stdout and "more than once" not in result.stdout
    assert ("  note: guard: installed at user and project scope; Codex does not run the project copy here (see above), "
            "so each hook fires once\n") in result.stdout


def test_codex_disabled_project_copy_runs_once(run, write_bundle, codex_config, project) -> None:
    _user_and_project(run, write_bundle, "codex", "--trust")
    text = codex_config.read_text()
    key = f'[hooks.state."{project}/.codex/hooks.json:pre_tool_use:0:0"]\n'
    assert key in text
    codex_config.write_text(text.replace(key, key + "enabled = false\n"))
    result = run("verify", "--host", "codex")
    assert "disabled in [hooks.state] (enabled = false); Codex skips it" in result.stdout
    assert ("  note: guard: installed at user and project scope; Codex does not run the project copy here (see above), "
            "so each hook fires once\n") in result.stdout


def test_codex_project_trusted_through_its_git_root(run, write_bundle, codex_config, project, tmp_path) -> None:
    (tmp_path / ".git").mkdir()  # the project sits in a repository whose root is trusted
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")  # measured: an empty .git is no root
    codex_config.write_text(codex_config.read_text().replace(f'"{project}"', f'"{tmp_path}"'))
    _user_and_project(run, write_bundle, "codex", "--trust")
    result = run("verify", "--host", "codex")
    assert "fires 2 times per PreToolUse" in result.stdout


# -- case 4: an operator's "$schema" in hooks.json, added after install ---------------------------------

def test_codex_schema_key_added_after_install_fails_verify(run, write_bundle, codex_config, codex_home) -> None:
    folder = _bundle(write_bundle, 30)
    assert run("install", str(folder), "--host", "codex", "--scope", "user", "--trust").exit_code == 0
    assert run("verify", "--host", "codex").exit_code == 0
    hooks = codex_home / "hooks.json"
    hooks.write_text('{\n  "$schema": "https://example.com/codex-hooks.json",' + hooks.read_text()[1:])
    result = run("verify", "--host", "codex")
    assert result.exit_code == 1
    assert (f"  problem: {hooks}: /$schema: unknown root key (Codex accepts only description and hooks): Codex "
            "refuses the whole file and runs none of its hooks; fix it\n") in result.stdout


@pytest.mark.parametrize("handler, where", [
    ({"command": "x"}, "/hooks/Stop/0/hooks/0/type: missing, not one of command, mcp_tool, prompt, agent"),
    ({"type": "command", "command": "x", "timeout": "5"}, "/hooks/Stop/0/hooks/0/timeout: a string, not a whole number"),
    ({"type": "command", "command": "x", "timeout": -1}, "/hooks/Stop/0/hooks/0/timeout: -1, not a whole number"),
    ({"type": "command", "command": "x", "async": None}, "/hooks/Stop/0/hooks/0/async: null, not true or false"),
    ({"type": "mcp_tool", "server": 5, "tool": "t"}, "/hooks/Stop/0/hooks/0/server: a number, not a string"),
])
def test_codex_operator_handler_of_a_shape_codex_refuses_fails_verify(run, write_bundle, codex_config, codex_home,
                                                                      handler, where) -> None:
    folder = _bundle(write_bundle, 30)
    run("install", str(folder), "--host", "codex", "--scope", "user", "--trust")
    hooks = codex_home / "hooks.json"
    doc = json.loads(hooks.read_text())
    doc["hooks"]["Stop"] = [{"hooks": [handler]}]
    hooks.write_text(json.dumps(doc))
    result = run("verify", "--host", "codex")
    assert result.exit_code == 1
    assert f"  problem: {hooks}: {where}" in result.stdout


def test_codex_operator_file_codex_refuses_without_hooks_of_ours_is_a_warning(run, write_bundle, codex_config,
                                                                             codex_home, project) -> None:
    run("install", str(_bundle(write_bundle, 30)), "--host", "codex", "--scope", "user", "--trust")
    theirs = project / ".codex" / "hooks.json"
    theirs.parent.mkdir()
    theirs.write_text('{"$schema": "x", "hooks": {}}\n')
    result = run("verify", "--host", "codex")
    assert "  warning: .codex/hooks.json: /$schema: unknown root key" in result.stdout
    assert result.exit_code == 0



def test_codex_copies_for_different_tools_never_fire_together(run, write_bundle, codex_config) -> None:
    folder = _bundle(write_bundle, 30)
    run("install", str(folder), "--host", "codex", "--scope", "user", "--trust")
    (folder / "hookweave.toml").write_text((folder / "hookweave.toml").read_text().replace('"shell"', '"edit"'))
    run("install", str(folder), "--host", "codex", "--scope", "project", "--trust")
    result = run("verify", "--host", "codex")
    assert result.exit_code == 0, result.stdout
    assert ("  note: guard: installed at user and project scope; the copies' matchers name different tools, so each "
            "hook fires once per tool call\n") in result.stdout


def test_codex_copy_within_one_file_says_it_runs_twice(run, write_bundle, codex_config, codex_home) -> None:
    run("install", str(_bundle(write_bundle, 30)), "--host", "codex", "--scope", "user", "--trust")
    hooks = codex_home / "hooks.json"
    doc = json.loads(hooks.read_text())
    doc["hooks"]["PreToolUse"].append(doc["hooks"]["PreToolUse"][0])
    hooks.write_text(json.dumps(doc))
    result = run("verify", "--host", "codex")
    assert ("      duplicated   check  PreToolUse (last)  appears 2 times under PreToolUse (Codex runs each copy it "
            "trusts); "
            "remove the copies\n") in result.stdout


# -- install says so at once ----------------------------------------------------------------------------

def test_install_at_a_second_scope_says_the_hooks_will_fire_twice(run, write_bundle, codex_config) -> None:
    """Install judges the files as they will be, like verify: a second Codex layer's copy in a
    trusted project fires as well, and the install that makes it so says it before writing."""
    folder = _bundle(write_bundle, 30)
    first = run("install", str(folder), "--host", "codex", "--scope", "user", "--trust")
    assert first.exit_code == 0 and "fires" not in first.stdout
    second = run("install", str(folder), "--host", "codex", "--scope", "project", "--trust")
    assert second.exit_code == 0
    assert ("problem: guard/check: installed at user and project scope; Codex runs the copies in user and project "
            "each, so it fires 2 times per PreToolUse: uninstall it from all but one scope") in second.stdout


def test_install_at_a_second_scope_of_a_host_that_runs_it_once_says_nothing(run, write_bundle) -> None:
    _user_and_project(run, write_bundle, "claude")
    again = run("install", str(_bundle(write_bundle, 31)), "--host", "claude", "--scope", "project")
    assert "fires" not in again.stdout and "problem" not in again.stdout
