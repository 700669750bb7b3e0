"""Gemini CLI, the real binary: hooks fire with per-hook env, sequential bundles run in declared
order, uninstall is clean, and hooksConfig.enabled = false is both reported and real."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from realhosts import Probe, agent_binary, ids, run_agent, shared, write_operator_file
from test_runtime_real import GEMINI_IN_PROCESS

# Offline: API-key auth against the mock, and no usage statistics (play.googleapis.com) or updates.
OFFLINE = json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}},
                      "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
                      "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False}})


@pytest.fixture
def gemini(mock, home: Path, project: Path, monkeypatch):
    binary = agent_binary("gemini")
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")  # what verify should see, as the agent does
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text(OFFLINE + "\n")
    env = {"HOME": str(home), "GEMINI_CLI_HOME": str(home), "GEMINI_API_KEY": "dummy",
           "GOOGLE_GEMINI_BASE_URL": mock.url, "GEMINI_CLI_TRUST_WORKSPACE": "true", **GEMINI_IN_PROCESS}
    argv = [str(binary), "-m", "gemini-2.5-flash", "--yolo", "-p", "run the echo"]
    return lambda: run_agent(argv, project, env)


def _operator_settings(project: Path, probe) -> tuple[Path, str]:
    hooks = probe.operator_hooks(("SessionStart", "BeforeTool", "AfterAgent"), named=True)
    text = "{\n  // the operator's project settings\n" + json.dumps({"hooks": hooks}, indent=2)[1:] + "\n"
    return write_operator_file(project / ".gemini" / "settings.json", text)


def _uninstalled_then_sequential(run, gemini, probe, project, tmp_path) -> dict:
    """The probe bundle installed beside the operator's hooks, one run, uninstalled; then, in the
    same project, the sequential bundle ``sequential`` (its own log, 0.4 s probes) installed, and one
    run serving both: the operator's hooks log to the first probe's log, which must hold nothing of
    ours after the uninstall, and the sequential bundle's order is read from both logs."""
    settings, original = _operator_settings(project, probe)
    found = {"install": run("install", probe.bundle(), "--host", "gemini").exit_code,
             "verify": run("verify", "--verbose", "--host", "gemini").exit_code}
    gemini()
    found["installed"] = probe.calls()
    found["uninstall"] = run("uninstall", "probe", "--host", "gemini").exit_code
    found["original"], found["after uninstall"] = original, settings.read_text()
    sequential = Probe(tmp_path / "sequential")
    folder = sequential.bundle(sequential=True, sleep=0.4, name="sequential")
    found["sequential install"] = run("install", folder, "--host", "gemini").exit_code
    gemini()
    found["uninstalled"], found["sequential"] = probe.calls(), sequential.calls()
    return found


def test_installed_hooks_fire_once_with_env_and_are_gone_after_uninstall(run, gemini, probe, project, tmp_path,
                                                                         shared_runs) -> None:
    found = shared(shared_runs, "uninstall+sequential",
                    lambda: _uninstalled_then_sequential(run, gemini, probe, project, tmp_path))
    assert (found["install"], found["verify"]) == (0, 0)
    calls = found["installed"]
    assert ids(calls) == ["op-AfterAgent", "op-BeforeTool", "op-SessionStart", "probe-pre", "probe-start", "probe-stop"]
    ours = {c["id"]: c for c in calls if c["id"].startswith("probe-")}
    assert [ours[i]["event"] for i in ("probe-start", "probe-pre", "probe-stop")] == ["SessionStart", "BeforeTool", "AfterAgent"]
    assert {c["env"]["PROBE_VAR"] for c in ours.values()} == {"from-bundle"}  # the per-hook env
    assert found["uninstall"] == 0
    assert found["after uninstall"] == found["original"]
    # the next run (the sequential bundle's, its own log): the operator's hooks only, none of ours
    assert ids(found["uninstalled"]) == ["op-AfterAgent", "op-BeforeTool", "op-SessionStart"]


def test_sequential_bundle_runs_in_declared_order(run, gemini, probe, project, tmp_path, shared_runs) -> None:
    found = shared(shared_runs, "uninstall+sequential",
                    lambda: _uninstalled_then_sequential(run, gemini, probe, project, tmp_path))
    assert found["sequential install"] == 0
    both = sorted(found["uninstalled"] + found["sequential"], key=lambda c: c["end"])  # as one log: end order
    before_tool = [c for c in both if c["event"] == "BeforeTool"]
    assert [c["id"] for c in before_tool] == ["op-BeforeTool", "probe-pre", "probe-pre-2"]
    starts = {c["id"]: c for c in before_tool}
    # Each starts after the one before it ended: the whole event ran one hook at a time.
    assert starts["probe-pre"]["start"] >= starts["op-BeforeTool"]["end"]
    assert starts["probe-pre-2"]["start"] >= starts["probe-pre"]["end"]


def test_hooks_disabled_is_caught_by_verify_and_really_stops_them(run, gemini, probe, project, home) -> None:
    _operator_settings(project, probe)
    run("install", probe.bundle(), "--host", "gemini")
    (home / ".gemini" / "settings.json").write_text(OFFLINE[:-1] + ', "hooksConfig": {"enabled": false}}\n')
    verify = run("verify", "--verbose", "--host", "gemini")
    assert verify.exit_code == 1 and "hooksConfig.enabled is false" in verify.stdout
    gemini()
    assert probe.calls() == []
