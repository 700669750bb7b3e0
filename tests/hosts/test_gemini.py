"""Gemini CLI specifics: JSONC comments, milliseconds, names, per-hook env, sequential, gates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookweave.core.formats import jsontext

DATA = Path(__file__).parent.parent / "data"
OPERATOR = (DATA / "gemini" / "operator.settings.json").read_text(encoding="utf-8")
ORDERED = """[bundle]
name = "ordered"
version = "1.0.0"
sequential = true
[[hooks]]
id = "first-step"
event = "pre_tool_use"
matcher = ["shell", "write"]
command = ["step", "one"]
timeout = 3
[[hooks]]
id = "second-step"
event = "pre_tool_use"
command = ["step", "two"]
[env.STEP_LOG]
value = "/tmp/steps.log"
"""


@pytest.fixture
def settings(project: Path) -> Path:
    path = project / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(OPERATOR, encoding="utf-8")
    return path


@pytest.fixture
def trusted(monkeypatch) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")


def _data(path: Path) -> dict:
    return jsontext.parse(path.read_text(encoding="utf-8"), str(path), comments=True).value


def test_ordered_bundle_gets_sequential_ms_timeouts_names_and_env(run, settings, write_bundle, trusted) -> None:
    result = run("install", str(write_bundle(ORDERED)), "--host", "gemini")
    assert result.exit_code == 0, result.output
    groups = _data(settings)["hooks"]["BeforeTool"]
    assert groups[1:] == [
        {"matcher": "run_shell_command|write_file", "sequential": True, "hooks": [
            {"type": "command", "name": "ordered/first-step", "command": "step one # hookweave:ordered/first-step",
             "timeout": 3000, "env": {"STEP_LOG": "${STEP_LOG:-/tmp/steps.log}"}}]},
        {"sequential": True, "hooks": [
            {"type": "command", "name": "ordered/second-step", "command": "step two # hookweave:ordered/second-step",
             "env": {"STEP_LOG": "${STEP_LOG:-/tmp/steps.log}"}}]},
    ]
    assert "// Operator's Gemini settings: comments must survive every write." in settings.read_text()
    verify = run("verify", "--host", "gemini")
    assert verify.exit_code == 0, verify.output
    assert ('  note: BeforeTool: "sequential": true makes every BeforeTool hook, from every scope, '
            "run one after another\n") in verify.stdout


def test_disabled_names_fail_verify_and_uninstall_removes_them(run, settings, trusted) -> None:
    run("install", str(DATA / "claude" / "bundle"), "--host", "gemini")
    text = settings.read_text().replace('"disabled": ["noisy-logger"]', '"disabled": ["noisy-logger", "guard/keepalive"]')
    settings.write_text(text)
    verify = run("verify", "--host", "gemini")
    assert verify.exit_code == 1
    assert ("  problem: guard/keepalive: listed in hooksConfig.disabled, so Gemini skips it; enable it with "
            "/hooks enable or remove it from the list\n") in verify.stdout
    assert run("uninstall", "guard", "--host", "gemini").exit_code == 0
    assert settings.read_text() == OPERATOR


def test_hooks_disabled_in_a_higher_scope_fails_verify(run, settings, trusted, tmp_path) -> None:
    run("install", str(DATA / "claude" / "bundle"), "--host", "gemini")
    system = tmp_path / "gemini-system" / "settings.json"
    system.parent.mkdir()
    system.write_text('{"hooksConfig": {"enabled": false}}')
    verify = run("verify", "--host", "gemini")
    assert verify.exit_code == 1
    assert "  problem: hooksConfig.enabled is false: Gemini runs no hooks; set it to true\n" in verify.stdout


@pytest.mark.parametrize(
    ("rules", "trusted"),
    [
        (None, False),
        ({"{project}": "TRUST_FOLDER"}, True),
        ({"{project}/child": "TRUST_PARENT"}, True),
        ({"{parent}": "TRUST_FOLDER"}, True),
        ({"{parent}": "TRUST_FOLDER", "{project}": "DO_NOT_TRUST"}, False),
        ({"/somewhere/else": "TRUST_FOLDER"}, False),
    ],
)
def test_folder_trust(run, settings, project: Path, home: Path, rules, trusted) -> None:
    if rules is not None:
        trust = {k.format(project=project, parent=project.parent): v for k, v in rules.items()}
        (home / ".gemini").mkdir()
        (home / ".gemini" / "trustedFolders.json").write_text(json.dumps(trust))
    result = run("install", str(DATA / "claude" / "bundle"), "--host", "gemini")
    assert result.exit_code == 0
    assert ("the project folder is not trusted" in result.stdout) is not trusted
    assert run("verify", "--host", "gemini").exit_code == (0 if trusted else 1)


def test_folder_trust_can_be_switched_off(run, settings, home: Path) -> None:
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text('{"security": {"folderTrust": {"enabled": false}}}')
    run("install", str(DATA / "claude" / "bundle"), "--host", "gemini")
    assert run("verify", "--host", "gemini").exit_code == 0


def test_project_scope_in_the_home_folder_is_never_loaded(run, home: Path, trusted) -> None:
    result = run("install", str(DATA / "claude" / "bundle"), "--host", "gemini", "--project", str(home))
    assert "  problem: the project is the home folder, where Gemini does not load project settings\n" in result.stdout


def test_user_scope_honours_gemini_cli_home(run, tmp_path: Path, monkeypatch, trusted) -> None:
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "gh"))
    assert run("install", str(DATA / "claude" / "bundle"), "--host", "gemini", "--scope", "user").exit_code == 0
    assert (tmp_path / "gh" / ".gemini" / "settings.json").is_file()


def test_project_dir_is_the_variable_out_of_reach_of_geminis_substitution(run, settings, trusted) -> None:
    run("install", str(DATA / "claude" / "bundle"), "--host", "gemini")
    command = _data(settings)["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
    # Gemini replaces $GEMINI_PROJECT_DIR in the text with a path shell-quote mangles when it holds
    # ' and ! (test_attack_portable found it); braced, the shell reads the exported variable instead.
    assert command == 'guard-hook --project "${GEMINI_PROJECT_DIR}" # hookweave:guard/one-strike'


def test_unknown_native_event_in_an_override_is_a_manifest_error(run, write_bundle) -> None:
    bundle = write_bundle('[bundle]\nname = "b"\nversion = "1"\n[[hooks]]\nid = "h"\nevent = "stop"\ncommand = "x"\n'
                          '[hooks.host.gemini]\nevent = "Stop"\n')
    result = run("install", str(bundle), "--host", "gemini")
    assert result.exit_code == 2
    assert "hooks (h).host.gemini.event: Gemini CLI has no event 'Stop'; use one of AfterAgent, AfterModel" in result.stderr


def test_hook_without_a_gemini_event_is_skipped_and_reported(run, write_bundle, trusted) -> None:
    bundle = write_bundle('[bundle]\nname = "b"\nversion = "1"\n[[hooks]]\nid = "sub"\nevent = "subagent_stop"\n'
                          'command = "x"\n[[hooks]]\nid = "s"\nevent = "stop"\ncommand = "y"\n')
    result = run("install", str(bundle), "--host", "gemini")
    assert result.exit_code == 0
    assert "  note: b/sub: skipped: Gemini CLI has no subagent_stop event\n" in result.stdout
    explicit = write_bundle('[bundle]\nname = "c"\nversion = "1"\n[[hooks]]\nid = "sub"\nevent = "subagent_stop"\n'
                            'command = "x"\nhosts = ["gemini"]\n')
    result = run("install", str(explicit), "--host", "gemini")
    assert result.exit_code == 2 and "names gemini, which has no subagent_stop event" in result.stderr


def test_a_name_disabled_before_install_stays_disabled_after_uninstall(run, settings, trusted) -> None:
    """Issue 8 case 5: the operator's own "guard/keepalive" entry in hooksConfig.disabled was lost."""
    text = OPERATOR.replace('"disabled": ["noisy-logger"]', '"disabled": ["noisy-logger", "guard/keepalive"]')
    settings.write_text(text)
    assert run("install", str(DATA / "claude" / "bundle"), "--host", "gemini").exit_code == 0
    record = json.loads(settings.with_name("settings.hookweave.json").read_text())
    assert record["bundles"]["guard"]["traces_before"] == ["keepalive"]
    assert run("install", str(DATA / "claude" / "bundle"), "--host", "gemini").stdout.startswith(
        "gemini project .gemini/settings.json: guard 1.2.0 already installed; nothing written\n")
    assert run("uninstall", "guard", "--host", "gemini").exit_code == 0
    assert settings.read_text() == text


def test_only_names_disabled_since_install_go_with_uninstall(run, settings, trusted) -> None:
    text = OPERATOR.replace('"disabled": ["noisy-logger"]', '"disabled": ["guard/one-strike", "noisy-logger"]')
    settings.write_text(text)
    run("install", str(DATA / "claude" / "bundle"), "--host", "gemini")
    after = settings.read_text()
    settings.write_text(after.replace('"noisy-logger"]', '"noisy-logger", "guard/keepalive"]'))  # /hooks disable
    assert run("uninstall", "guard", "--host", "gemini").exit_code == 0
    assert settings.read_text() == text


def test_force_install_keeps_a_handler_the_operator_added_to_our_group(run, settings, trusted) -> None:
    """Issue 8 case 2 on Gemini: install --force replaced the group with the operator's handler in it."""
    bundle = str(DATA / "claude" / "bundle")
    run("install", bundle, "--host", "gemini")
    installed = settings.read_text()
    ours = '"command": "nightly keepalive-hook # hookweave:guard/keepalive"'
    assert installed.count(ours) == 1
    mine = '{"type": "command", "name": "mine", "command": "echo operator"}'
    settings.write_text(installed.replace(ours + "\n", ours + "\n          },\n          " + mine[:-1] + "\n", 1))
    assert run("install", bundle, "--host", "gemini").exit_code == 1
    assert run("install", bundle, "--host", "gemini", "--force").exit_code == 0, settings.read_text()
    groups = _data(settings)["hooks"]["AfterAgent"]
    assert {"hooks": [{"type": "command", "name": "mine", "command": "echo operator"}]} in groups
    assert run("verify", "--host", "gemini").exit_code == 0
    assert run("uninstall", "guard", "--host", "gemini").exit_code == 0
    assert _data(settings)["hooks"]["AfterAgent"][-1] == {"hooks": [{"type": "command", "name": "mine", "command": "echo operator"}]}
