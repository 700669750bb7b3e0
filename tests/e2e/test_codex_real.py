"""Codex, the real binary: trusted hooks fire without any bypass flag; untrusted ones do not;
verify agrees with codex app-server hooks/list."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from realhosts import agent_binary, ids, write_operator_file

from hookweave.hosts.codex import trust_hash
from hookweave.hosts.codex.appserver import hooks_list


def _operator_hooks(project: Path, probe, codex_env) -> tuple[Path, str]:
    """Operator hooks in .codex/hooks.json, trusted by the operator as Codex's /hooks would."""
    hooks = probe.operator_hooks(("SessionStart", "PreToolUse", "Stop"))
    text = json.dumps({"description": "operator hooks", "hooks": hooks}, indent=2) + "\n"
    path, text = write_operator_file(project / ".codex" / "hooks.json", text)
    label = {"SessionStart": "session_start", "PreToolUse": "pre_tool_use", "Stop": "stop"}
    state = "".join(f'\n[hooks.state."{path}:{label[e]}:0:0"]\ntrusted_hash = "{trust_hash(e, g[0], g[0]["hooks"][0])}"\n'
                    for e, g in hooks.items())
    config = Path(codex_env["CODEX_HOME"]) / "config.toml"
    config.write_text(config.read_text() + state)
    return path, text


def test_trusted_install_fires_without_bypass_and_uninstall_restores(run, codex, codex_env, probe, project, monkeypatch) -> None:
    hooks_file, original = _operator_hooks(project, probe, codex_env)
    config = Path(codex_env["CODEX_HOME"]) / "config.toml"
    config_before = config.read_text()
    assert run("install", probe.bundle(), "--host", "codex", "--trust").exit_code == 0
    monkeypatch.setenv("HOOKWEAVE_CODEX_BIN", str(agent_binary("codex")))
    verify = run("verify", "--verbose", "--host", "codex")
    assert verify.exit_code == 0, verify.stdout
    listed = hooks_list(str(agent_binary("codex")), project, env={**os.environ, **codex_env})
    ours = [h for h in listed["hooks"] if "# hookweave:probe/" in h["command"]]
    assert sorted(h["trustStatus"] for h in ours) == ["trusted"] * 3
    codex()
    calls = probe.calls()
    assert ids(calls) == ["op-PreToolUse", "op-SessionStart", "op-Stop", "probe-pre", "probe-start", "probe-stop"]
    assert {c["id"]: c["event"] for c in calls}["probe-pre"] == "PreToolUse"
    assert run("uninstall", "probe", "--host", "codex").exit_code == 0
    assert hooks_file.read_text() == original and config.read_text() == config_before
    codex()
    assert ids(probe.calls()) == ["op-PreToolUse", "op-SessionStart", "op-Stop"]


def test_untrusted_install_is_reported_by_verify_and_codex_skips_it(run, codex, codex_env, probe, project, monkeypatch) -> None:
    _operator_hooks(project, probe, codex_env)
    install = run("install", probe.bundle(), "--host", "codex")
    assert install.exit_code == 0 and "not trusted: Codex skips it silently" in install.stdout
    monkeypatch.setenv("HOOKWEAVE_CODEX_BIN", str(agent_binary("codex")))
    verify = run("verify", "--verbose", "--host", "codex")
    assert verify.exit_code == 1
    assert "codex app-server reports it untrusted" in verify.stdout  # Codex itself agrees
    codex()
    assert ids(probe.calls()) == ["op-PreToolUse", "op-SessionStart", "op-Stop"]


@pytest.mark.parametrize("project_trust", [["--trust"], []])
def test_an_untrusted_project_with_the_bundle_at_user_scope_too_runs_it_once_and_verify_agrees(
        project_trust, run, codex, codex_env, probe, project) -> None:
    """Issue 23 case 5, issue 34 item 4: the project layer is ignored, and the user layer's copy runs,
    once, as the bundle asks: a warning about the project copy, not a problem, whether the project copy's
    hooks were trusted or not. The same without the user copy is a problem (Codex runs none)."""
    assert run("install", probe.bundle(), "--host", "codex", "--scope", "user", "--trust").exit_code == 0
    assert run("install", probe.bundle(), "--host", "codex", "--scope", "project", *project_trust).exit_code == 0
    config = Path(codex_env["CODEX_HOME"]) / "config.toml"
    config.write_text(config.read_text().replace(f'[projects."{project}"]\ntrust_level = "trusted"\n', ""))
    verify = run("verify", "--verbose", "--host", "codex")
    assert verify.exit_code == 0, verify.stdout
    assert ("  warning: this project is not trusted in the user config.toml, so Codex ignores .codex/ here: hookweave's "
            "project copies do not run, and the user layer's copies of them run instead\n") in verify.stdout
    codex()
    assert ids(probe.calls()) == ["probe-pre", "probe-start", "probe-stop"]
    assert run("uninstall", "probe", "--host", "codex", "--scope", "user").exit_code == 0
    verify = run("verify", "--verbose", "--host", "codex")
    assert verify.exit_code == 1 and "  problem: this project is not trusted" in verify.stdout, verify.stdout
    codex()
    assert probe.calls() == []  # none ran: the project layer is ignored
