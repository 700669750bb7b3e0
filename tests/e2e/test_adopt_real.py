"""Issue 11 item 5 on the real agents: an operator's hand-written hooks, adopted into a bundle, keep
firing (Codex: still trusted, as the trust follows the marker); after ``hooks uninstall`` of the
adopted bundle they no longer fire, while the hooks left hand-written still do."""

from __future__ import annotations

import json
import os
from pathlib import Path

from realhosts import agent_binary, ids, write_operator_file

from hookweave.hosts.codex import trust_hash
from hookweave.hosts.codex.appserver import hooks_list


def test_claude_adopted_hook_keeps_firing_and_uninstall_stops_it(run, claude, probe, project) -> None:
    hooks = probe.operator_hooks(("SessionStart", "PreToolUse", "Stop"))
    hooks["PreToolUse"][0]["matcher"] = "Bash"
    settings, _ = write_operator_file(project / ".claude" / "settings.json", json.dumps({"hooks": hooks}, indent=2) + "\n")
    adopted = run("adopt", "--host", "claude", "--event", "PreToolUse", "--name", "mine")
    assert adopted.exit_code == 0, adopted.output
    assert "# hookweave:mine/pre-tool-use-1" in settings.read_text()
    assert run("verify", "--verbose", "--host", "claude").exit_code == 0
    claude()
    assert ids(probe.calls()) == ["op-PreToolUse", "op-SessionStart", "op-Stop"]  # the adopted one still fires
    assert run("uninstall", "mine", "--host", "claude").exit_code == 0
    claude()
    assert ids(probe.calls()) == ["op-SessionStart", "op-Stop"]  # gone; the hand-written ones still fire


def test_codex_adopted_trusted_hook_stays_trusted_and_fires(run, codex, codex_env, probe, project, monkeypatch) -> None:
    hooks = probe.operator_hooks(("SessionStart", "PreToolUse", "Stop"))
    path, _ = write_operator_file(project / ".codex" / "hooks.json", json.dumps({"hooks": hooks}, indent=2) + "\n")
    label = {"SessionStart": "session_start", "PreToolUse": "pre_tool_use", "Stop": "stop"}
    config = Path(codex_env["CODEX_HOME"]) / "config.toml"
    config.write_text(config.read_text() + "".join(
        f'\n[hooks.state."{path}:{label[e]}:0:0"]\ntrusted_hash = "{trust_hash(e, g[0], g[0]["hooks"][0])}"\n'
        for e, g in hooks.items()))
    assert run("adopt", "--host", "codex", "--name", "mine").exit_code == 0  # no --trust: it was trusted
    listed = hooks_list(str(agent_binary("codex")), project, env={**os.environ, **codex_env})
    assert sorted(h["trustStatus"] for h in listed["hooks"] if "# hookweave:mine/" in h["command"]) == ["trusted"] * 3
    monkeypatch.setenv("HOOKWEAVE_CODEX_BIN", str(agent_binary("codex")))
    assert run("verify", "--verbose", "--host", "codex").exit_code == 0
    codex()
    assert ids(probe.calls()) == ["op-PreToolUse", "op-SessionStart", "op-Stop"]
    assert run("uninstall", "mine", "--host", "codex").exit_code == 0
    codex()
    assert ids(probe.calls()) == []
