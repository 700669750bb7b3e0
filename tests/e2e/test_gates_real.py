"""Issue 10, gates on the real binaries: verify's verdict against what fired, for the gates judged
on merged settings (Claude case 1, Codex case 3) and the gate facts each host showed."""

from __future__ import annotations

import json
from pathlib import Path

from realhosts import ids, write_operator_file


def test_claude_case_1_merged_disable_all_hooks(run, claude, probe, project) -> None:
    """Project disableAllHooks true, local false (and a local allowManagedHooksOnly, read only from
    managed settings): Claude 2.1.197 ran every hook, the operator's and ours; verify passes. Then a
    local true: nothing ran, and verify fails naming local settings. Then a local "no" under a
    project true: nothing ran (the odd value counts as unset), and verify fails naming the project."""
    hooks = probe.operator_hooks(("SessionStart", "Stop"))
    write_operator_file(project / ".claude" / "settings.json",
                        json.dumps({"disableAllHooks": True, "hooks": hooks}, indent=2) + "\n")
    local = project / ".claude" / "settings.local.json"
    local.write_text('{"disableAllHooks": false, "allowManagedHooksOnly": true}\n')
    assert run("install", probe.bundle(), "--host", "claude").exit_code == 0
    verify = run("verify", "--verbose", "--host", "claude")
    assert verify.exit_code == 0, verify.stdout
    claude()
    assert ids(probe.calls()) == ["op-SessionStart", "op-Stop", "probe-pre", "probe-start", "probe-stop"]
    local.write_text('{"disableAllHooks": true}\n')
    project_settings = project / ".claude" / "settings.json"
    project_settings.write_text(project_settings.read_text().replace('"disableAllHooks": true', '"disableAllHooks": false'))
    verify = run("verify", "--verbose", "--host", "claude")
    assert verify.exit_code == 1 and "  problem: local settings set disableAllHooks" in verify.stdout
    claude()
    assert probe.calls() == []
    # A value that is not a boolean is dropped, as if unset: it does not override the project's true.
    local.write_text('{"disableAllHooks": "no"}\n')
    project_settings.write_text(project_settings.read_text().replace('"disableAllHooks": false', '"disableAllHooks": true'))
    verify = run("verify", "--verbose", "--host", "claude")
    assert verify.exit_code == 1 and "  problem: project settings set disableAllHooks" in verify.stdout
    assert "  warning: local settings: disableAllHooks should be true or false; hookweave reads it as unset" in verify.stdout
    claude()
    assert probe.calls() == []


# -- Codex -------------------------------------------------------------------------------------------


def test_codex_case_3_project_features_switch_off_user_hooks(run, codex, codex_env, probe, project) -> None:
    """codex 0.169.0: a trusted project's [features] hooks = false, or the deprecated
    codex_hooks = false, and no hook of the user layer ran; verify fails. The same file in an
    untrusted project is not loaded: the hooks ran, and verify passes."""
    assert run("install", probe.bundle(), "--host", "codex", "--scope", "user", "--trust").exit_code == 0
    assert run("verify", "--verbose", "--host", "codex").exit_code == 0
    layer = project / ".codex" / "config.toml"
    layer.parent.mkdir()
    for key in ("hooks", "codex_hooks"):
        layer.write_text(f"[features]\n{key} = false\n")
        verify = run("verify", "--verbose", "--host", "codex")
        assert verify.exit_code == 1
        assert f"  problem: [features] {key} = false in .codex/config.toml, the value Codex uses" in verify.stdout
        codex()
        assert probe.calls() == [], key
    config = Path(codex_env["CODEX_HOME"]) / "config.toml"
    config.write_text(config.read_text().replace('trust_level = "trusted"', 'trust_level = "untrusted"'))
    assert run("verify", "--verbose", "--host", "codex").exit_code == 0
    codex()
    assert ids(probe.calls()) == ["probe-pre", "probe-start", "probe-stop"]
