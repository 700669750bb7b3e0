"""Qwen Code, the real binary (0.24.4) offline against the mock's Chat Completions: our hooks fire
once each next to the operator's, none after uninstall; a sequential bundle runs one hook at a
time with timeouts read as seconds; disableAllHooks is reported by verify and really stops them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from newhosts import QWEN_IN_PROCESS
from realhosts import HOSTS, Probe, ids, run_agent, shared, write_operator_file

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


def _uninstalled_then_sequential(run, qwen, probe, project, tmp_path) -> dict:
    """The probe bundle installed beside the operator's hooks, and beside them the bundle ``twice``
    (its own log) at user and project scope; one run; both uninstalled; then, in the
    same project, the sequential bundle ``sequential`` (its own log, 0.4 s probes under a timeout of
    30) installed, and one run serving both: the operator's hooks log to the first probe's log, which
    must hold nothing of ours after the uninstall, and the sequential bundle's order is read from both."""
    settings, original = _operator_settings(project, probe)
    found = {"install": run("install", probe.bundle(), "--host", "qwen").exit_code}
    twice = Probe(tmp_path / "twice")
    folder = twice.bundle(name="twice")
    found["twice install"] = [run("install", folder, "--host", "qwen", "--scope", scope).exit_code
                              for scope in ("user", "project")]
    verify = run("verify", "--verbose", "--host", "qwen")
    found["verify"], found["verify output"] = verify.exit_code, verify.stdout
    qwen()
    found["installed"], found["twice"] = probe.calls(), twice.calls()
    found["verify after"] = run("verify", "--verbose", "--host", "qwen").exit_code
    found["twice uninstall"] = [run("uninstall", "twice", "--host", "qwen", "--scope", scope).exit_code
                                for scope in ("user", "project")]
    found["uninstall"] = run("uninstall", "probe", "--host", "qwen").exit_code
    found["original"], found["after uninstall"] = original, settings.read_text()
    sequential = Probe(tmp_path / "sequential")
    folder = Path(sequential.bundle(sequential=True, sleep=0.4, name="sequential"))
    manifest = folder / "hookweave.toml"  # 30 as milliseconds would kill every 0.4 s probe
    manifest.write_text(manifest.read_text().replace("command = [", "timeout = 30\ncommand = ["))
    found["sequential install"] = run("install", str(folder), "--host", "qwen").exit_code
    qwen()
    found["uninstalled"], found["sequential"] = probe.calls(), sequential.calls()
    return found


def test_installed_hooks_fire_once_and_are_gone_after_uninstall(run, qwen, probe, project, tmp_path,
                                                                shared_runs) -> None:
    found = shared(shared_runs, "twice+uninstall+sequential",
                    lambda: _uninstalled_then_sequential(run, qwen, probe, project, tmp_path))
    assert (found["install"], found["verify"]) == (0, 0)
    calls = found["installed"]
    assert ids(calls) == ["op-PreToolUse", "op-SessionStart", "op-Stop", "probe-pre", "probe-start", "probe-stop"]
    ours = {c["id"]: c for c in calls if c["id"].startswith("probe-")}
    assert [ours[i]["event"] for i in ("probe-start", "probe-pre", "probe-stop")] == ["SessionStart", "PreToolUse", "Stop"]
    assert ours["probe-pre"]["tool"] == "run_shell_command"
    # Qwen migrates the settings file on start: it appends "$version": 4, keeping the comments and our entries.
    original = found["original"]
    migrated = original[: original.rindex("\n}")] + ',\n  "$version": 4\n}\n'
    assert (found["verify after"], found["uninstall"]) == (0, 0)
    assert found["after uninstall"] == migrated
    # the next run (the sequential bundle's, its own log): the operator's hooks only, none of ours
    assert ids(found["uninstalled"]) == ["op-PreToolUse", "op-SessionStart", "op-Stop"]


def test_sequential_bundle_runs_in_order_and_timeouts_are_seconds(run, qwen, probe, project, tmp_path,
                                                                  shared_runs) -> None:
    found = shared(shared_runs, "twice+uninstall+sequential",
                    lambda: _uninstalled_then_sequential(run, qwen, probe, project, tmp_path))
    assert found["sequential install"] == 0
    both = sorted(found["uninstalled"] + found["sequential"], key=lambda c: c["end"])  # as one log: end order
    pre = [c for c in both if c["event"] == "PreToolUse"]
    assert [c["id"] for c in pre] == ["op-PreToolUse", "probe-pre", "probe-pre-2"]
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


def test_the_same_bundle_at_user_and_project_scope_runs_once_as_verify_says(run, qwen, probe, project, tmp_path,
                                                                           shared_runs) -> None:
    found = shared(shared_runs, "twice+uninstall+sequential",
                    lambda: _uninstalled_then_sequential(run, qwen, probe, project, tmp_path))
    assert found["twice install"] == [0, 0]
    assert found["verify"] == 0
    assert "  note: twice: installed at user and project scope; Qwen Code runs identical commands once\n" in \
        found["verify output"]
    # name + command keys the copies (getHookKey): one run each
    assert ids(found["twice"]) == ["probe-pre", "probe-start", "probe-stop"]
    assert found["twice uninstall"] == [0, 0]


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
