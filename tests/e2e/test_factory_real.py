"""Factory Droid, the real binary (0.225.2, linux x64) offline: a custom model on the mock's Chat
Completions and every Factory service URL pointed at the mock. Our hooks fire once each next to
the operator's, in hooks.json and in the settings.json Droid falls back to; none after uninstall."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from realhosts import HOSTS, ids, run_agent, write_operator_file

SERVICES = ("FACTORY_API_BASE_URL", "FACTORY_API_BASE_URL_EU", "FACTORY_APP_BASE_URL", "FACTORY_TELEMETRY_INGEST_BASE_URL",
            "FACTORY_WORKOS_BASE_URL", "FACTORY_PUBLIC_DOWNLOADS_BASE_URL", "FACTORY_RELAY_BASE_URL",
            "FACTORY_ORG_MANAGED_SETTINGS_URL", "OTEL_PRODUCT_ENDPOINT", "OTEL_CUSTOMER_ENDPOINT",
            "OTEL_EXPORTER_OTLP_ENDPOINT")


@pytest.fixture
def droid(mock, home: Path, project: Path):
    binary = HOSTS / "factory" / "node_modules" / ".bin" / "droid"
    if not binary.is_file():
        pytest.skip("droid is not installed: run scripts/install-hosts factory (needs node and npm)")
    (home / ".factory").mkdir()
    (home / ".factory" / "settings.json").write_text(json.dumps({"customModels": [{
        "model": "mock", "displayName": "Mock", "baseUrl": f"{mock.url}/v1", "apiKey": "dummy",
        "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}]}) + "\n")
    env = {"HOME": str(home), "FACTORY_API_KEY": "fk-dummy", "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false",
           "FACTORY_DISABLE_DYNAMIC_CONFIG": "1", "FACTORY_DISABLE_KEYRING": "1", "OTEL_SDK_DISABLED": "true",
           **{name: mock.url for name in SERVICES}}
    argv = [str(binary), "exec", "--auto", "high", "-m", "custom:mock", "run the echo"]
    return lambda: run_agent(argv, project, env)


def _operator_hooks(probe) -> dict:
    hooks = probe.operator_hooks(("SessionStart", "PreToolUse", "Stop"))
    hooks["PreToolUse"][0]["matcher"] = "Execute"
    return hooks


def test_hooks_json_fires_once_each_and_nothing_after_uninstall(run, droid, probe, project) -> None:
    # Droid's hooks.json holds the events at the top level: a {"hooks": ...} file is ignored whole.
    path, original = write_operator_file(project / ".factory" / "hooks.json",
                                         json.dumps(_operator_hooks(probe), indent=4) + "\n")
    assert run("install", probe.bundle(), "--host", "factory").exit_code == 0
    assert run("verify", "--verbose", "--host", "factory").exit_code == 0
    droid()
    calls = probe.calls()
    assert ids(calls) == ["op-PreToolUse", "op-SessionStart", "op-Stop", "probe-pre", "probe-start", "probe-stop"]
    ours = {c["id"]: c for c in calls if c["id"].startswith("probe-")}
    assert [ours[i]["event"] for i in ("probe-start", "probe-pre", "probe-stop")] == ["SessionStart", "PreToolUse", "Stop"]
    assert ours["probe-pre"]["tool"] == "Execute"
    assert run("uninstall", "probe", "--host", "factory").exit_code == 0
    assert path.read_text() == original
    droid()
    assert ids(probe.calls()) == ["op-PreToolUse", "op-SessionStart", "op-Stop"]


def test_without_hooks_json_droid_runs_the_hooks_of_settings_json_ours_too(run, droid, probe, project) -> None:
    settings = {"model": "custom:mock", "hooks": _operator_hooks(probe)}
    path, original = write_operator_file(project / ".factory" / "settings.json", json.dumps(settings, indent=2) + "\n")
    install = run("install", probe.bundle(), "--host", "factory")
    assert install.stdout.startswith("factory project .factory/settings.json: installed probe")
    droid()
    assert ids(probe.calls()) == ["op-PreToolUse", "op-SessionStart", "op-Stop", "probe-pre", "probe-start", "probe-stop"]
    assert run("uninstall", "probe", "--host", "factory").exit_code == 0
    assert path.read_text() == original


def test_the_same_bundle_at_user_and_project_scope_runs_twice_as_verify_says(run, droid, probe, project) -> None:
    assert run("install", probe.bundle(), "--host", "factory", "--scope", "user").exit_code == 0
    assert run("install", probe.bundle(), "--host", "factory", "--scope", "project").exit_code == 0
    verify = run("verify", "--verbose", "--host", "factory")
    assert verify.exit_code == 1
    assert ("  problem: probe/stop: installed at user and project scope; Factory Droid runs the copies in user and "
            "project each, so it fires 2 times per Stop: uninstall it from all but one scope\n") in verify.stdout
    droid()  # measured on 0.225.2: no de-duplication across its hooks files
    assert ids(probe.calls()) == ["probe-pre", "probe-pre", "probe-start", "probe-start", "probe-stop", "probe-stop"]


@pytest.mark.parametrize("later", ["{}", "pre-only", "pre-empty"])
def test_a_later_hooks_json_overrides_settings_json_event_by_event(run, droid, probe, project, later) -> None:
    """Measured on 0.225.2 (issue 23 case 3): with our hooks in settings.json, a hooks.json the operator
    writes later replaces settings.json's hooks event by event, not whole; verify and status say so,
    and uninstall still finds ours in settings.json."""
    settings = {"model": "custom:mock", "hooks": {}}
    path, original = write_operator_file(project / ".factory" / "settings.json", json.dumps(settings, indent=2) + "\n")
    assert run("install", probe.bundle(), "--host", "factory").exit_code == 0
    op = _operator_hooks(probe)
    body = {"{}": {}, "pre-only": {"PreToolUse": op["PreToolUse"]}, "pre-empty": {"PreToolUse": []}}[later]
    (project / ".factory" / "hooks.json").write_text(json.dumps(body) + "\n")
    droid()
    ran = ids(probe.calls())
    expected = {"{}": ["probe-pre", "probe-start", "probe-stop"], "pre-only": ["op-PreToolUse", "probe-start", "probe-stop"],
                "pre-empty": ["probe-start", "probe-stop"]}[later]
    assert ran == expected
    verify = run("verify", "--verbose", "--host", "factory")
    overridden = "probe-pre" not in ran
    assert (verify.exit_code == 1) is overridden, verify.stdout
    if overridden:
        assert ("hooks.json beside it has its own PreToolUse, which replaces settings.json's for that event: Droid "
                "does not run probe/pre") in verify.stdout, verify.stdout
    assert "probe" in run("status", "--host", "factory").stdout
    assert run("uninstall", "probe", "--host", "factory").exit_code == 0
    assert path.read_text() == original
