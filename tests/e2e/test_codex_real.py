"""Codex, the real binary: trusted hooks fire without any bypass flag; untrusted ones do not;
verify agrees with codex app-server hooks/list."""

from __future__ import annotations

import json
import os
from pathlib import Path

from realhosts import agent_binary, ids, write_operator_file

from hookweave.hosts.codex import trust_hash
from hookweave.hosts.codex_appserver import hooks_list


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
    verify = run("verify", "--host", "codex")
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
    verify = run("verify", "--host", "codex")
    assert verify.exit_code == 1
    assert "codex app-server reports it untrusted" in verify.stdout  # Codex itself agrees
    codex()
    assert ids(probe.calls()) == ["op-PreToolUse", "op-SessionStart", "op-Stop"]
