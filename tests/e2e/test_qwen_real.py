"""Qwen Code, the real binary (0.24.4) offline against the mock's Chat Completions: our hooks fire
once each next to the operator's, none after uninstall; a sequential bundle runs one hook at a
time with timeouts read as seconds; disableAllHooks is reported by verify and really stops them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from newhosts import QWEN_IN_PROCESS
from realhosts import HOSTS, ids, run_agent, write_operator_file

# Offline: no usage statistics, telemetry or update check (each looks a host name up otherwise).
OFFLINE = {"privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
           "general": {"disableAutoUpdate": True, "enableAutoUpdate": False, "disableUpdateNag": True}}


@pytest.fixture
def qwen(mock, home: Path, project: Path):
    binary = HOSTS / "qwen" / "node_modules" / ".bin" / "qwen"
    if not binary.is_file():
        pytest.skip("qwen is not installed: run scripts/install-hosts qwen (needs node and npm)")
    (home / ".qwen").mkdir()
    (home / ".qwen" / "settings.json").write_text(json.dumps(OFFLINE) + "\n")
    env = {"HOME": str(home), "OPENAI_API_KEY": "dummy", "OPENAI_BASE_URL": f"{mock.url}/v1", "OPENAI_MODEL": "mock",
           "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1", **QWEN_IN_PROCESS}
    argv = [str(binary), "--auth-type", "openai", "--yolo", "-p", "run the echo"]
    return lambda: run_agent(argv, project, env)


def _operator_settings(project: Path, probe) -> tuple[Path, str]:
    hooks = probe.operator_hooks(("SessionStart", "PreToolUse", "Stop"), named=True)
    text = "{\n  // the operator's Qwen project settings\n" + json.dumps({"hooks": hooks}, indent=2)[1:] + "\n"
    return write_operator_file(project / ".qwen" / "settings.json", text)


def test_installed_hooks_fire_once_and_are_gone_after_uninstall(run, qwen, probe, project) -> None:
    settings, original = _operator_settings(project, probe)
    assert run("install", probe.bundle(), "--host", "qwen").exit_code == 0
    assert run("verify", "--verbose", "--host", "qwen").exit_code == 0
    qwen()
    calls = probe.calls()
    assert ids(calls) == ["op-PreToolUse", "op-SessionStart", "op-Stop", "probe-pre", "probe-start", "probe-stop"]
    ours = {c["id"]: c for c in calls if c["id"].startswith("probe-")}
    assert [ours[i]["event"] for i in ("probe-start", "probe-pre", "probe-stop")] == ["SessionStart", "PreToolUse", "Stop"]
    assert ours["probe-pre"]["tool"] == "run_shell_command"
    # Qwen migrates the settings file on start: it appends "$version": 4, keeping the comments and our entries.
    migrated = original[: original.rindex("\n}")] + ',\n  "$version": 4\n}\n'
    assert run("verify", "--verbose", "--host", "qwen").exit_code == 0
    assert run("uninstall", "probe", "--host", "qwen").exit_code == 0
    assert settings.read_text() == migrated
    qwen()
    assert ids(probe.calls()) == ["op-PreToolUse", "op-SessionStart", "op-Stop"]


def test_sequential_bundle_runs_in_order_and_timeouts_are_seconds(run, qwen, probe, project) -> None:
    _operator_settings(project, probe)
    folder = Path(probe.bundle(sequential=True, sleep=0.4))
    manifest = folder / "hookweave.toml"  # 30 as milliseconds would kill every 0.4 s probe
    manifest.write_text(manifest.read_text().replace("command = [", "timeout = 30\ncommand = ["))
    assert run("install", str(folder), "--host", "qwen").exit_code == 0
    qwen()
    pre = [c for c in probe.calls() if c["event"] == "PreToolUse"]
    assert [c["id"] for c in pre] == ["op-PreToolUse", "probe-pre", "probe-pre-2"]  # log order = end order
    by_id = {c["id"]: c for c in pre}
    assert by_id["probe-pre"]["start"] >= by_id["op-PreToolUse"]["end"]
    assert by_id["probe-pre-2"]["start"] >= by_id["probe-pre"]["end"]


def test_disable_all_hooks_is_reported_and_real(run, qwen, probe, project, home) -> None:
    _operator_settings(project, probe)
    run("install", probe.bundle(), "--host", "qwen")
    (home / ".qwen" / "settings.json").write_text(json.dumps({**OFFLINE, "disableAllHooks": True}) + "\n")
    verify = run("verify", "--verbose", "--host", "qwen")
    assert verify.exit_code == 1 and "user settings set disableAllHooks: Qwen runs no hooks" in verify.stdout
    qwen()
    assert probe.calls() == []


def test_the_same_bundle_at_user_and_project_scope_runs_once_as_verify_says(run, qwen, probe, project) -> None:
    assert run("install", probe.bundle(), "--host", "qwen", "--scope", "user").exit_code == 0
    assert run("install", probe.bundle(), "--host", "qwen", "--scope", "project").exit_code == 0
    verify = run("verify", "--verbose", "--host", "qwen")
    assert verify.exit_code == 0
    assert "  note: probe: installed at user and project scope; Qwen Code runs identical commands once\n" in verify.stdout
    qwen()  # name + command keys the copies (getHookKey): one run each
    assert ids(probe.calls()) == ["probe-pre", "probe-start", "probe-stop"]


@pytest.mark.parametrize("rule", ["none", "DO_NOT_TRUST", "TRUST_FOLDER", "TRUST_PARENT"])
def test_folder_trust_decides_whether_project_hooks_run_as_verify_says(run, qwen, probe, project, home, rule) -> None:
    """With security.folderTrust.enabled in user settings, Qwen loads the project's settings (and its
    hooks) only in a trusted folder (~/.qwen/trustedFolders.json): verify says a problem exactly when
    the agent will not run them (issue 23 case 5)."""
    user = home / ".qwen" / "settings.json"
    user.write_text(json.dumps({**OFFLINE, "security": {"folderTrust": {"enabled": True}}}) + "\n")
    if rule != "none":
        folder = project.parent if rule == "TRUST_PARENT" else project
        (home / ".qwen" / "trustedFolders.json").write_text(json.dumps({str(folder): rule}) + "\n")
    assert run("install", probe.bundle(), "--host", "qwen").exit_code == 0
    verify = run("verify", "--verbose", "--host", "qwen")
    qwen()
    ran = probe.calls() != []
    assert ran is (rule in ("TRUST_FOLDER", "TRUST_PARENT")), rule
    assert (verify.exit_code == 0) is ran, verify.stdout
