"""Cline, the real CLI (3.0.65, a Bun binary) offline: an OpenAI-compatible provider on the mock's
Chat Completions (``cline auth -p openai -b <mock>/v1``). Our dispatchers fire once per event
next to the operator's global script, two bundles' PreToolUse hooks in declared order; none after
uninstall, and the operator's script untouched."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from realhosts import HOSTS, ids, run_agent

SECOND = """[bundle]
name = "second"
version = "1.0.0"
[[hooks]]
id = "pre"
event = "pre_tool_use"
matcher = ["shell"]
command = ["python3", "{probe}/probe.py", "second-pre", "{log}"]
"""


@pytest.fixture
def cline(mock, home: Path, project: Path):
    binary = HOSTS / "cline" / "node_modules" / ".bin" / "cline"
    if not binary.is_file():
        pytest.skip("cline is not installed: run scripts/install-hosts cline (needs node and npm)")
    # What `cline auth -p openai -k dummy -m mock -b <url>/v1` writes (3.0.65), written here because
    # that command also looks a host name up, where a run of the agent reaches only the mock.
    settings = home / ".cline" / "data" / "settings" / "providers.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"version": 1, "lastUsedProvider": "openai-compatible", "modes": {}, "providers": {
        "openai-compatible": {"settings": {"provider": "openai-compatible", "apiKey": "dummy", "model": "mock",
                                           "baseUrl": f"{mock.url}/v1"}, "updatedAt": "2026-11-23T00:00:00.000Z",
        "tokenSource": "manual"}}}, indent=2))  # without updatedAt Cline drops the entry and asks its own service
    # Telemetry to otel.cline.bot is on in the build unless this file opts out (3.0.65).
    (settings.parent / "global-settings.json").write_text('{"telemetryOptOut": true, "autoUpdateEnabled": false}\n')
    # Feature flags come from PostHog (data.cline.bot) unless a fresh cache (30 days) holds them.
    flags = home / ".cline" / "data" / "cache" / "feature-flags.json"
    flags.parent.mkdir(parents=True)
    flags.write_text(json.dumps({"version": 2, "updatedAt": int(time.time() * 1000), "userId": None,
                                 "flagsPayload": {"featureFlags": {}, "featureFlagPayloads": {}}}))
    # By default (backend mode "auto", 3.0.65) a run also starts a hub daemon on 127.0.0.1:25463 that
    # outlives it, keeps the first test's HOME, and is traced by strace -f, which then never returns.
    # The session itself runs in the CLI's own process either way (its model traffic comes from there).
    env = {"HOME": str(home), "CLINE_DIR": str(home / ".cline"), "CLINE_SESSION_BACKEND_MODE": "local"}
    return lambda: run_agent([str(binary), "--json", "run the echo"], project, env)


def _calls(probe, count: int) -> list[dict]:
    """The probe's log once ``count`` calls are in: Cline runs TaskStart and TaskComplete hooks
    detached, so they may still be writing when it exits."""
    deadline = time.time() + 20
    while time.time() < deadline:
        lines = probe.log.read_text().splitlines() if probe.log.exists() else []
        if len(lines) >= count:
            break
        time.sleep(0.1)
    time.sleep(0.5)  # and nothing more arrives
    return probe.calls()


def test_dispatchers_fire_once_in_declared_order_beside_the_operators_script(run, cline, probe, home, project,
                                                                             tmp_path) -> None:
    theirs = home / ".cline" / "hooks" / "PreToolUse"
    theirs.parent.mkdir(parents=True)
    theirs.write_text(f"# the operator's global hook: no shebang, not executable; Cline runs it with bash\n"
                      f"{probe.command('op-PreToolUse')}\n")
    theirs.chmod(0o644)
    original = theirs.read_bytes()
    second = tmp_path / "second"
    second.mkdir()
    (second / "hookweave.toml").write_text(SECOND.format(probe=probe.folder, log=probe.log))
    assert run("install", probe.bundle(), "--host", "cline").exit_code == 0
    assert run("install", str(second), "--host", "cline").exit_code == 0
    assert run("verify", "--verbose", "--host", "cline").exit_code == 0
    cline()
    calls = _calls(probe, 5)
    assert ids(calls) == ["op-PreToolUse", "probe-pre", "probe-start", "probe-stop", "second-pre"]
    by_id = {c["id"]: c for c in calls}
    assert [by_id[i]["event"] for i in ("probe-start", "probe-pre", "probe-stop")] == ["agent_start", "tool_call",
                                                                                         "agent_end"]
    assert by_id["probe-pre"]["tool"] == "run_commands"
    # Cline runs the files sorted by path (here the home's before the project's); ours in declared order
    assert by_id["op-PreToolUse"]["end"] <= by_id["probe-pre"]["start"] < by_id["probe-pre"]["end"] <= by_id["second-pre"]["start"]
    assert run("uninstall", "probe", "--host", "cline").exit_code == 0
    assert run("uninstall", "second", "--host", "cline").exit_code == 0
    assert not (project / ".clinerules").exists() and not (project / ".cline").exists()
    assert theirs.read_bytes() == original and theirs.stat().st_mode & 0o777 == 0o644
    cline()
    assert ids(_calls(probe, 1)) == ["op-PreToolUse"]


def test_a_cancel_from_our_dispatcher_stops_the_tool_and_the_run(run, cline, mock, project, write_bundle) -> None:
    refuse = write_bundle('[bundle]\nname = "no"\nversion = "1.0.0"\n[[hooks]]\nid = "deny"\nevent = "pre_tool_use"\n'
                          "command = \"echo '{\\\"cancel\\\": true, \\\"errorMessage\\\": \\\"denied by hookweave-e2e\\\"}'\"\n")
    assert run("install", str(refuse), "--host", "cline").exit_code == 0
    result = cline()
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    ran = [e for e in events if e.get("type") == "agent_event" and e["event"].get("type") == "content_update"
           and e["event"].get("toolName") == "run_commands"]
    assert ran == []  # the command never ran
    # Measured on 3.0.65: a PreToolUse cancel ends the whole run (exit 0), the model is not asked again
    assert len(mock.requests) == 1
    assert [e["finishReason"] for e in events if e.get("type") == "run_result"] == ["aborted"]


@pytest.mark.parametrize("link", ["file", "folder"])
def test_a_symlinked_dispatcher_is_skipped_a_symlinked_folder_is_not_as_verify_says(run, cline, probe, project,
                                                                                    tmp_path, link) -> None:
    """Issue 23 case 4, measured on 3.0.65: Cline skips a hook file that is a symlink (even to an
    identical copy), while a hooks folder that is a symlink works; verify says the same."""
    assert run("install", probe.bundle(), "--host", "cline").exit_code == 0
    hooks = project / ".clinerules" / "hooks"
    elsewhere = tmp_path / "elsewhere"
    if link == "file":
        elsewhere.mkdir()
        copy = elsewhere / "PreToolUse"
        copy.write_bytes((hooks / "PreToolUse").read_bytes())
        copy.chmod(0o755)
        (hooks / "PreToolUse").unlink()
        (hooks / "PreToolUse").symlink_to(copy)
    else:
        hooks.rename(elsewhere)
        hooks.symlink_to(elsewhere)
    verify = run("verify", "--verbose", "--host", "cline")
    cline()
    ran = "probe-pre" in ids(_calls(probe, 2))
    assert ran is (link == "folder")
    assert (verify.exit_code == 0) is ran, verify.stdout
