"""Antigravity CLI specifics (documented facts, file-level): named hooks, one of them hookweave's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
OPERATOR = (DATA / "antigravity" / "operator.settings.json").read_text(encoding="utf-8")
HEAD = '[bundle]\nname = "{name}"\nversion = "1"\n'


def _settings(project: Path) -> Path:
    return project / ".agents" / "hooks.json"


def _operator_file(project: Path, text: str) -> Path:
    path = _settings(project)
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_operator_file_round_trip_restores_every_byte(run, project: Path) -> None:
    path = _operator_file(project, OPERATOR)
    assert run("install", BUNDLE, "--host", "antigravity").exit_code == 0
    after = (DATA / "antigravity" / "operator.after-install.json").read_text(encoding="utf-8")
    assert path.read_text(encoding="utf-8") == after
    assert "guard 1.2.0 already installed; nothing written\n" in run("install", BUNDLE, "--host", "antigravity").stdout
    assert run("verify", "--host", "antigravity").exit_code == 0
    assert run("uninstall", "guard", "--host", "antigravity").exit_code == 0
    assert path.read_text(encoding="utf-8") == OPERATOR


def test_two_bundles_share_the_key_in_install_order_and_the_last_uninstall_removes_it(run, write_bundle, project) -> None:
    path = _operator_file(project, '{"mine": {"Stop": [{"command": "make lint"}]}}\n')
    one = write_bundle(HEAD.format(name="one") + '[[hooks]]\nid = "a"\nevent = "stop"\ncommand = "a"\n'
                       '[[hooks]]\nid = "b"\nevent = "stop"\ncommand = "b"\ntimeout = 7\n')
    two = write_bundle(HEAD.format(name="two") + '[[hooks]]\nid = "c"\nevent = "stop"\ncommand = "c"\n')
    assert run("install", str(one), "--host", "antigravity").exit_code == 0
    assert run("install", str(two), "--host", "antigravity").exit_code == 0
    assert path.read_text(encoding="utf-8") == (  # a one-line file stays on one line
        '{"mine": {"Stop": [{"command": "make lint"}]}, "hookweave": {"Stop": ['
        '{"type": "command", "command": "a # hookweave:one/a"}, '
        '{"type": "command", "command": "b # hookweave:one/b", "timeout": 7}, '
        '{"type": "command", "command": "c # hookweave:two/c"}]}}\n'
    )
    assert run("verify", "--host", "antigravity").exit_code == 0
    assert run("uninstall", "one", "--host", "antigravity").exit_code == 0
    assert run("uninstall", "two", "--host", "antigravity").exit_code == 0
    assert path.read_text(encoding="utf-8") == '{"mine": {"Stop": [{"command": "make lint"}]}}\n'


@pytest.mark.parametrize(("text", "why"), [
    ('{"a": {"Stop": [{"command": "x", "timeout": 1.5}]}}', "/a/Stop/0/timeout: 1.5 is not a whole number of seconds in 32 bits"),
    ('{"enabled": true, "a": {}}', "/enabled: every top-level key is a hook's name, so there is no file-level switch"),
    ('{"a": {"Stop": [{"type": "COMMAND", "command": "x"}]}}', '/a/Stop/0/type: "COMMAND" is not "command" or "prompt"'),
    ('{"a": {"PreToolUse": [{"matcher": 3, "hooks": []}]}}', "/a/PreToolUse/0/matcher: must be a string, not a number"),
    ('{"a": {"Stop": {"command": "x"}}}', "/a/Stop: an event must be a list, not an object"),
    ('{"a": {"PreInvocation": [{"type": "prompt", "prompt": "p", "command": "x"}]}}',
     "/a/PreInvocation/0/command: a prompt hook cannot carry 'command'"),
    ('{"a": {"enabled": "no"}}', "/a/enabled: must be true or false, not a string"),
])
def test_a_file_antigravity_drops_is_refused_and_verify_names_why(run, project: Path, text: str, why: str) -> None:
    path = _operator_file(project, text)
    result = run("install", BUNDLE, "--host", "antigravity")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"hooks: .agents/hooks.json: {why}: Antigravity drops this whole file and runs none of "
                             "its hooks; fix it by hand first\n")
    assert path.read_text(encoding="utf-8") == text
    verify = run("verify", "--host", "antigravity", "--scope", "project")
    assert f"  warning: .agents/hooks.json: {why}: Antigravity drops the whole file and runs none of its hooks; fix it\n" \
        in verify.stdout


def test_a_file_broken_after_install_is_a_problem_for_verify(run, project: Path) -> None:
    path = _operator_file(project, '{"a": {"Stop": [{"command": "x"}]}}')
    assert run("install", BUNDLE, "--host", "antigravity").exit_code == 0
    path.write_text(path.read_text().replace('"command": "x"', '"command": "x", "timeout": "5"'))
    verify = run("verify", "--host", "antigravity")
    assert verify.exit_code == 1
    assert ('  problem: .agents/hooks.json: /a/Stop/0/timeout: "5" is not a whole number of seconds in 32 bits: '
            "Antigravity drops the whole file and runs none of its hooks; fix it\n") in verify.stdout


def test_a_duplicate_hookweave_key_is_refused_as_go_reads_only_the_last(run, project: Path) -> None:
    assert run("install", BUNDLE, "--host", "antigravity").exit_code == 0
    path = _settings(project)
    text = path.read_text(encoding="utf-8")
    shadowed = text[:-2] + ',\n  "hookweave": {"Stop": [{"command": "theirs"}]}\n}\n'
    path.write_text(shadowed, encoding="utf-8")
    message = ("hooks: .agents/hooks.json: /hookweave is written twice, and Antigravity reads only the last one, which "
               "hides the other's hooks; merge them into one")
    result = run("uninstall", "guard", "--host", "antigravity")
    assert (result.exit_code, result.stderr) == (2, message + "\n")
    assert path.read_text(encoding="utf-8") == shadowed
    verify = run("verify", "--host", "antigravity")
    assert verify.exit_code == 1 and message[len("hooks: "):] in verify.stdout


def test_our_named_hook_switched_off_in_hooks_is_a_problem(run, project: Path) -> None:
    assert run("install", BUNDLE, "--host", "antigravity").exit_code == 0
    path = _settings(project)
    data = json.loads(path.read_text())
    data["hookweave"]["enabled"] = False
    path.write_text(json.dumps(data, indent=2))
    verify = run("verify", "--host", "antigravity")
    assert verify.exit_code == 1
    assert ('  problem: project hooks.json: the named hook "hookweave" is disabled ("enabled": false), so none of '
            "hookweave's hooks run; enable it in /hooks (e) or remove the key\n") in verify.stdout
    assert run("uninstall", "guard", "--host", "antigravity").exit_code == 0
    assert json.loads(path.read_text()) == {"hookweave": {"enabled": False}}  # the operator's switch stays


def test_a_timeout_past_32_bits_is_refused_before_anything_is_written(run, write_bundle, project: Path) -> None:
    bundle = write_bundle(HEAD.format(name="big") + '[[hooks]]\nid = "a"\nevent = "stop"\ncommand = "a"\n'
                          "timeout = 2147483648\n")
    result = run("install", str(bundle), "--host", "antigravity")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith("hookweave.toml: hooks (a).timeout: Antigravity reads a 32-bit number of seconds and "
                                  "drops the whole file over a larger one; use at most 2147483647\n")
    assert not _settings(project).parent.exists()


def test_a_comment_is_a_one_line_error_as_the_file_is_strict_json(run, project: Path) -> None:
    text = '{\n  // the team\'s hooks\n  "a": {}\n}\n'
    path = _operator_file(project, text)
    result = run("install", BUNDLE, "--host", "antigravity")
    assert (result.exit_code, result.stdout, result.stderr.count("\n")) == (2, "", 1)
    assert result.stderr.startswith("hooks: .agents/hooks.json:2:3: ")
    assert path.read_text(encoding="utf-8") == text


def test_our_named_hook_in_the_shared_file_too_is_a_double_fire_warning(run, home: Path, project: Path) -> None:
    assert run("install", BUNDLE, "--host", "antigravity").exit_code == 0
    shared = home / ".gemini" / "config" / "hooks.json"
    shared.parent.mkdir(parents=True)
    shared.write_text(_settings(project).read_text())
    verify = run("verify", "--host", "antigravity")
    assert verify.exit_code == 0
    assert (f'  warning: {shared} holds a "hookweave" named hook too; if Antigravity loads both '
            "files, those hooks run twice\n") in verify.stdout


def test_an_event_spelled_again_in_another_case_hides_ours(run, project: Path) -> None:
    """agy matches event names in any case and keeps the last: an operator's "stop" beside our
    "Stop" in the hookweave key replaces ours."""
    assert run("install", BUNDLE, "--host", "antigravity").exit_code == 0
    path = _settings(project)
    data = json.loads(path.read_text())
    data["hookweave"]["stop"] = [{"command": "theirs"}]
    path.write_text(json.dumps(data, indent=2))
    verify = run("verify", "--host", "antigravity")
    assert verify.exit_code == 1
    assert ("  problem: project hooks.json: /hookweave/Stop and /hookweave/stop are one key to Antigravity, which "
            "matches names in any case and keeps the last: the hooks under Stop never run; merge them into one\n"
            ) in verify.stdout


def test_verify_says_nothing_of_the_flat_handlers_install_writes_on_stop(run, project: Path) -> None:
    """Stop and SessionStart hold handlers as they are (only the tool events hold groups): the
    example's Stop hook, written flat by install, is no "hook outside a group" to verify."""
    assert run("install", "example-guard", "--host", "antigravity").exit_code == 0
    doc = json.loads((project / ".agents" / "hooks.json").read_text())
    assert "hooks" not in doc["hookweave"]["Stop"][0]  # flat, as agy reads Stop
    verify = run("verify", "--host", "antigravity")
    assert verify.exit_code == 0 and "outside a {matcher, hooks} group" not in verify.stdout, verify.stdout
    assert "warning" not in verify.stdout, verify.stdout
