"""Claude Code: bad files refused untouched (exit 2), env policies and precedence, host gates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data" / "claude"
BUNDLE = str(DATA / "bundle")
OPERATOR = (DATA / "operator.settings.json").read_text(encoding="utf-8")


def _settings(project: Path, text: str, name: str = "settings.json") -> Path:
    path = project / ".claude" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{\n  // mine\n  "model": "opus"\n}\n',
         ".claude/settings.json:2:3: comments are not allowed in this file; "
         "Claude ignores the whole file when it has a comment: remove it"),
        ('{\n  "model": "opus",\n}\n', ".claude/settings.json:2:18: trailing comma; remove the comma"),
        ('{"model": opus}', ".claude/settings.json:1:11: unexpected character 'o'"),
        ("", ".claude/settings.json:1:1: the file holds no JSON value; write {} into it or delete it"),
        ('["hooks"]', ".claude/settings.json: the top level must be a JSON object; fix the file by hand"),
        ('{"hooks": []}', ".claude/settings.json: /hooks must be an object of events, not list; fix the file by hand"),
        ('{"hooks": {"Stop": {}}}',
         ".claude/settings.json: /hooks/Stop must be a list of hook groups, not dict; fix the file by hand"),
        ('{"hooks": {"Stop": [{"matcher": "x"}]}}',
         '.claude/settings.json: /hooks/Stop/0: a group without a "hooks" list: Claude Code refuses the whole file '
         'for it and runs none of its hooks; give it a "hooks" list or remove it'),
        ('{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}',
         '.claude/settings.json: /hooks/Stop/0/hooks/0 has no "command" string; fix the file by hand'),
        ('{"env": ["A=1"]}', ".claude/settings.json: /env must be an object; fix the file by hand"),
    ],
)
def test_bad_settings_are_refused_untouched(run, project: Path, text: str, message: str) -> None:
    path = _settings(project, text)
    result = run("install", BUNDLE, "--host", "claude")
    assert result.exit_code == 2
    assert result.stderr == f"hooks: {message}\n"
    assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_invalid_utf8_is_refused(run, project: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_bytes(b'{"model": "caf\xe9"}')
    result = run("install", BUNDLE, "--host", "claude")
    assert result.exit_code == 2
    assert result.stderr == "hooks: .claude/settings.json: not UTF-8 text (byte 14); save it as UTF-8\n"
    assert path.read_bytes() == b'{"model": "caf\xe9"}'


def test_read_only_file_is_refused(run, project: Path) -> None:
    path = _settings(project, OPERATOR)
    path.chmod(0o444)
    result = run("install", BUNDLE, "--host", "claude")
    assert result.exit_code == 2
    assert "the file is read-only; make it writable (chmod u+w) or choose another scope" in result.stderr
    assert path.read_text(encoding="utf-8") == OPERATOR


def test_bom_and_crlf_survive(run, project: Path) -> None:
    text = "\ufeff" + OPERATOR.replace("\n", "\r\n")
    path = _settings(project, text)
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    new = path.read_bytes().decode("utf-8")  # read_text would turn CRLF into LF
    assert new.startswith("\ufeff{\r\n") and "\n" not in new.replace("\r\n", "")
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    assert path.read_bytes().decode("utf-8") == text


def _cap_bundle(write_bundle, value: str, policy: str) -> str:
    return str(write_bundle(
        f'[bundle]\nname = "cap"\nversion = "1"\n[env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP]\n'
        f'value = "{value}"\npolicy = "{policy}"\n'
    ))


@pytest.mark.parametrize(
    ("operator", "value", "policy", "installed", "note"),
    [
        (None, "50", "if-absent", "50", "set to '50' (was unset; policy if-absent)"),
        ("12", "50", "if-absent", "12", "kept the operator's value '12' (policy if-absent)"),
        ("12", "50", "override", "50", "set to '50' (was '12'; policy override)"),
        ("12", "50", "at-least", "50", "set to '50' (was '12'; policy at-least)"),
        ("80", "50", "at-least", "80", "kept the operator's value '80', already at least 50 (policy at-least)"),
        ("0", "50", "at-least", "0", "kept the operator's value '0': 0 or less means no limit (policy at-least)"),
        ("lots", "50", "at-least", "lots", "kept the operator's value 'lots': not a whole number (policy at-least)"),
    ],
)
def test_env_policies_install_and_uninstall(run, project, write_bundle, operator, value, policy, installed, note) -> None:
    env = {"KEEP": "me"} | ({"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": operator} if operator else {})
    original = json.dumps({"env": env}, indent=4) + "\n"
    path = _settings(project, original)
    bundle = _cap_bundle(write_bundle, value, policy)
    result = run("install", bundle, "--host", "claude")
    assert result.exit_code == 0, result.output
    assert f"  note: cap: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: {note}\n" in result.stdout
    assert json.loads(path.read_text())["env"]["CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"] == installed
    assert run("install", bundle, "--host", "claude").stdout.endswith("already installed; nothing written\n")
    assert run("uninstall", "cap", "--host", "claude").exit_code == 0
    assert path.read_text(encoding="utf-8") == original


@pytest.mark.parametrize(
    ("policy", "exit_code", "line"),
    [  # judged on the value Claude uses against the policy (issue 10 case 6)
        ("if-absent", 0, "  note: cap: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP='50' installed at project scope: Claude Code uses "
         "'9' from project settings, which policy if-absent '50' allows\n"),
        ("at-least", 1, "  problem: cap: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP='50' installed at project scope: Claude Code "
         "uses '9' from project settings, which policy at-least '50' does not allow; reinstall the bundle to set it\n"),
    ],
)
def test_env_changed_by_operator_is_left_on_uninstall(run, project, write_bundle, policy, exit_code, line) -> None:
    path = _settings(project, '{"env": {}}')
    bundle = _cap_bundle(write_bundle, "50", policy)
    run("install", bundle, "--host", "claude")
    path.write_text('{"env": {"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "9"}}')
    verify = run("verify", "--host", "claude")
    assert verify.exit_code == exit_code
    assert line in verify.stdout
    result = run("uninstall", "cap", "--host", "claude")
    assert result.exit_code == 0
    assert "  note: cap: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: left as is: it holds '9', not the installed '50'\n" in result.stdout
    assert path.read_text() == '{"env": {"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "9"}}'


def test_local_value_shadowing_an_installed_env_var_fails_verify(run, project) -> None:
    _settings(project, OPERATOR)
    run("install", BUNDLE, "--host", "claude")
    assert run("verify", "--host", "claude").exit_code == 0
    _settings(project, '{"env": {"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "8"}}\n', "settings.local.json")
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert ("  problem: guard: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP='20' installed at project scope: Claude Code uses '8' "
            "from local settings, which policy at-least '20' does not allow; change it in local settings\n") in result.stdout


@pytest.mark.parametrize(
    ("where", "text", "message"),
    [
        ("settings.local.json", '{"disableAllHooks": true}',
         "  problem: local settings set disableAllHooks: Claude runs only managed hooks, none of hookweave's; "
         "remove the key or set it to false\n"),
        ("managed", '{"allowManagedHooksOnly": true}',
         "  problem: managed settings set allowManagedHooksOnly: Claude runs only managed hooks\n"),
        ("managed.d", '{"disableAllHooks": true}',
         "  problem: managed settings set disableAllHooks: Claude runs no hooks at all\n"),
    ],
)
def test_gates_that_silently_disable_hooks_fail_verify(run, project, tmp_path, where, text, message) -> None:
    _settings(project, OPERATOR)
    run("install", BUNDLE, "--host", "claude")
    if where == "managed":
        (tmp_path / "managed").mkdir()
        (tmp_path / "managed" / "managed-settings.json").write_text(text)
    elif where == "managed.d":
        (tmp_path / "managed" / "managed-settings.d").mkdir(parents=True)
        (tmp_path / "managed" / "managed-settings.d" / "10-policy.json").write_text(text)
    else:
        _settings(project, text, where)
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert message in result.stdout


def test_settings_broken_after_install_fail_verify(run, project) -> None:
    path = _settings(project, OPERATOR)
    run("install", BUNDLE, "--host", "claude")
    path.write_text(path.read_text().replace('"model": "opus",', '"model": "opus", // best'))
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert ("  problem: .claude/settings.json:3:22: comments are not allowed in this file; Claude ignores the "
            "whole file when it has a comment: remove it (Claude Code ignores a file it cannot read)\n") in result.stdout


def test_same_bundle_at_user_and_project_scope_is_noted_as_deduplicated(run, project) -> None:
    run("install", BUNDLE, "--host", "claude", "--scope", "user")
    run("install", BUNDLE, "--host", "claude")
    result = run("verify", "--host", "claude")
    assert result.exit_code == 0
    assert "  note: guard: installed at user and project scope; Claude Code runs identical commands once\n" in result.stdout


def test_managed_scope_without_a_drop_in_folder_is_refused_with_the_reason(run) -> None:
    """Codex's managed layer is one administrator's file (requirements.toml): no write, exit 2."""
    result = run("install", BUNDLE, "--host", "codex", "--scope", "managed")
    assert result.exit_code == 2
    assert result.stderr.startswith("hooks: --scope managed: Codex's managed layer is ")
    assert result.stderr.endswith("; nothing written (writable scopes: user, project)\n")


def test_install_into_a_setup_that_disables_hooks_says_so(run, project) -> None:
    _settings(project, '{"disableAllHooks": true}\n', "settings.local.json")
    result = run("install", BUNDLE, "--host", "claude", "--json")
    assert result.exit_code == 0
    (problem,) = json.loads(result.stdout)["files"][0]["problems"]
    assert problem["message"].startswith("local settings set disableAllHooks: Claude runs only managed hooks")


@pytest.mark.parametrize("event", ["PreModelSwitch", "PostModelSwitch", "DirectoryAdded", "PreSkillShellCommand"])
def test_the_events_new_in_2_1_332_install_as_host_overrides(run, project, write_bundle, event) -> None:
    """Claude Code 2.1.332's list of events has these four more; no other host has them, so no
    neutral name: a manifest names them in [hooks.host.claude]."""
    bundle = write_bundle('[bundle]\nname = "new"\nversion = "1"\n[[hooks]]\nid = "x"\nhosts = ["claude"]\n'
                          f'command = "true"\n[hooks.host.claude]\nevent = "{event}"\n')
    result = run("install", str(bundle), "--host", "claude")
    assert result.exit_code == 0, result.output
    data = json.loads((project / ".claude" / "settings.json").read_text())
    assert list(data["hooks"]) == [event]
    assert run("verify", "--host", "claude").exit_code == 0
