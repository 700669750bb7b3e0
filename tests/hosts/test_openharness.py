"""OpenHarness specifics (openharness-ai 0.1.9's code, and measured in tests/e2e/test_openharness_real.py):
the one user file, entries in the form oh writes back, globs, what stops oh from starting, and its
answer protocol, where a failed run blocks only where block_on_failure counts."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookweave.core.runtime import hookrun
from hookweave.core.standalone import chainanswer, protocol

BUNDLE = str(Path(__file__).parent.parent / "data" / "claude" / "bundle")
FIELDS = ["type", "command", "timeout_seconds", "matcher", "block_on_failure"]  # Settings.model_dump's order
TWO_TOOLS = """[bundle]
name = "two"
version = "1.0.0"
[[hooks]]
id = "fmt"
event = "post_tool_use"
matcher = ["edit", "write"]
command = "fmt-check"
"""


def _settings() -> Path:
    return Path(os.environ["OPENHARNESS_CONFIG_DIR"]) / "settings.json"


def test_entries_carry_every_field_oh_writes_back_and_block_where_it_counts(run) -> None:
    assert run("install", BUNDLE, "--host", "openharness", "--scope", "user").exit_code == 0
    hooks = json.loads(_settings().read_text())["hooks"]
    assert {event: [list(h) for h in handlers] for event, handlers in hooks.items()} == {
        "pre_tool_use": [FIELDS], "stop": [FIELDS], "session_start": [FIELDS]}
    assert [hooks[e][0]["block_on_failure"] for e in ("pre_tool_use", "stop", "session_start")] == [True, False, False]
    assert hooks["pre_tool_use"][0]["matcher"] == "bash" and hooks["stop"][0]["timeout_seconds"] == 30


def test_by_default_the_user_file_is_written_and_a_project_scope_is_refused(run) -> None:
    """No project file exists for oh: a default install takes the user's; ``--host all`` at project
    scope leaves it out with a note (test_hostall)."""
    assert run("install", BUNDLE, "--host", "openharness", "--scope", "project").exit_code == 2
    assert not _settings().exists()
    result = run("install", BUNDLE, "--host", "all")
    assert result.exit_code == 0 and "openharness user" not in result.stdout and not _settings().exists()
    assert "note: hermes, kimi, openharness: no project settings file" in result.stderr
    result = run("install", BUNDLE, "--host", "openharness")
    assert result.exit_code == 0 and "openharness user" in result.stdout and _settings().exists()
    assert run("uninstall", "guard", "--host", "openharness").exit_code == 0 and not _settings().exists()


def test_a_hook_for_two_tools_is_refused_as_no_glob_names_both(run, write_bundle) -> None:
    result = run("install", str(write_bundle(TWO_TOOLS)), "--host", "openharness", "--scope", "user")
    assert result.exit_code == 2 and "globs on one tool name" in result.output
    assert not _settings().exists()


def test_beside_other_hooks_a_hook_for_two_tools_is_skipped_with_a_warning(run, write_bundle) -> None:
    """As on Windsurf, a hook the host cannot place does not stop the bundle's others (``--host all``)."""
    bundle = write_bundle(TWO_TOOLS + '[[hooks]]\nid = "one"\nevent = "pre_tool_use"\nmatcher = ["shell"]\ncommand = "x"\n')
    result = run("install", str(bundle), "--host", "openharness")
    assert result.exit_code == 0, result.output
    assert "two/fmt" in result.output and "globs on one tool name" in result.output
    hooks = json.loads(_settings().read_text())["hooks"]
    assert list(hooks) == ["pre_tool_use"] and hooks["pre_tool_use"][0]["matcher"] == "bash"


@pytest.mark.parametrize(("handler", "cause"), [
    ({"command": "x", "timeout_seconds": 0}, "timeout_seconds 0"),
    ({"command": "x", "timeout_seconds": 601}, "timeout_seconds 601"),
    ({"type": "command"}, 'no "command" string'),
    ({"type": "script", "command": "x"}, "type 'script'"),
    ({"command": "x", "matcher": 5}, "matcher that is not a string"),
])
def test_verify_reports_an_entry_that_keeps_oh_from_starting(run, handler, cause) -> None:
    assert run("install", BUNDLE, "--host", "openharness", "--scope", "user").exit_code == 0
    data = json.loads(_settings().read_text())
    data["hooks"]["BogusEvent"] = [handler]  # an unknown event is skipped, but its entries are still validated
    _settings().write_text(json.dumps(data, indent=2) + "\n")
    verify = run("verify", "--host", "openharness")
    assert verify.exit_code == 1 and cause in verify.stdout and "OpenHarness does not start" in verify.stdout


def test_lax_values_pydantic_takes_are_no_problem(run) -> None:
    assert run("install", BUNDLE, "--host", "openharness", "--scope", "user").exit_code == 0
    data = json.loads(_settings().read_text())
    data["hooks"]["notification"] = [{"command": "a", "timeout_seconds": "7"},
                                      {"command": "b", "timeout_seconds": 7.0, "extra": 1}]
    _settings().write_text(json.dumps(data, indent=2) + "\n")
    assert run("verify", "--host", "openharness").exit_code == 0


@pytest.mark.parametrize(("event", "code", "action"), [
    ("pre_tool_use", 0, "allow"), ("pre_tool_use", 1, "block"), ("pre_tool_use", 2, "block"),
    ("pre_compact", 3, "block"), ("stop", 2, "error"), ("user_prompt_submit", 1, "error"),
    ("post_tool_use", 2, "error"),
])
def test_a_failed_run_blocks_only_where_block_on_failure_counts(event, code, action) -> None:
    verdict = protocol.judge("openharness", event, code, "out\n", "err\n")
    assert verdict.action == action
    if action == "block":
        assert verdict.reason == "out\nerr" and any("still run" in n for n in verdict.notes)


def test_json_means_nothing_and_a_timeout_blocks_a_tool() -> None:
    deny = json.dumps({"decision": "block", "hookSpecificOutput": {"permissionDecision": "deny"}})
    assert protocol.judge("openharness", "pre_tool_use", 0, deny, "").action == "allow"
    assert protocol.judge("openharness", "pre_tool_use", None, "", "", timed_out=True).action == "block"
    assert protocol.judge("openharness", "stop", None, "", "", timed_out=True).action == "error"


@pytest.mark.parametrize(("matcher", "payload", "fires"), [
    ("bash", {"tool_name": "bash", "event": "pre_tool_use"}, True),
    ("Bash", {"tool_name": "bash", "event": "pre_tool_use"}, False),  # case counts (fnmatch on POSIX)
    ("*_file", {"tool_name": "write_file", "event": "pre_tool_use"}, True),
    ("bash|edit_file", {"tool_name": "bash", "event": "pre_tool_use"}, False),  # no alternation in a glob
    ("*deploy*", {"prompt": "please deploy it", "event": "user_prompt_submit"}, True),  # the prompt, then
    ("session_*", {"cwd": "/p", "event": "session_start"}, True),  # the event's own name
])
def test_the_chain_runner_applies_matchers_as_oh_does(matcher, payload, fires) -> None:
    assert chainanswer.matches("openharness", payload["event"], matcher, payload) is fires


def test_check_gives_the_payload_in_the_env_and_no_stdin(tmp_path: Path) -> None:
    stdin, env = hookrun.delivered("openharness", "pre_tool_use", b'{"event": "pre_tool_use"}', {"A": "1"})
    assert stdin == b"" and env == {"A": "1", "OPENHARNESS_HOOK_EVENT": "pre_tool_use",
                                    "OPENHARNESS_HOOK_PAYLOAD": '{"event": "pre_tool_use"}'}
    done = hookrun.run("openharness", 'printf %s "$OPENHARNESS_HOOK_EVENT"; cat', stdin, env, tmp_path, 10)
    assert done.stdout == b"pre_tool_use" and hookrun.shell_for("openharness")[-1] == "-lc"


def test_a_timeout_past_600_seconds_is_refused_as_oh_would_not_start(run, write_bundle) -> None:
    manifest = TWO_TOOLS.replace('matcher = ["edit", "write"]', 'matcher = ["edit"]\ntimeout = 601')
    result = run("install", str(write_bundle(manifest)), "--host", "openharness", "--scope", "user")
    assert result.exit_code == 2 and "600" in result.output and not _settings().exists()
