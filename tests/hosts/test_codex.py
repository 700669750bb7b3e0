"""Codex specifics: hooks.json or inline TOML, positional trust written only on consent, re-keying,
and agreement with the real ``codex app-server hooks/list`` where the binary is installed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import tomlkit

from hookweave.hosts.codex import trust_hash

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
HOOKS_JSON = (DATA / "codex" / "operator.settings.json").read_text(encoding="utf-8")
CONFIG_TOML = (DATA / "codex" / "operator.config.toml").read_text(encoding="utf-8")
REPO = Path(__file__).parent.parent.parent
CODEX = os.environ.get("HOOKWEAVE_TEST_CODEX") or str(REPO / ".cache" / "hosts" / "codex" / "node_modules" / ".bin" / "codex")


@pytest.fixture
def trusted_project(codex_home: Path, project: Path) -> Path:
    (codex_home / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    hooks = project / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(HOOKS_JSON, encoding="utf-8")
    return hooks


def _state(codex_home: Path) -> dict:
    return tomlkit.parse((codex_home / "config.toml").read_text()).unwrap().get("hooks", {}).get("state", {})


def test_trust_is_written_only_with_consent_and_removed_on_uninstall(run, trusted_project, codex_home, project) -> None:
    config_before = (codex_home / "config.toml").read_text()
    plain = run("install", BUNDLE, "--host", "codex")
    assert plain.exit_code == 0
    assert ("  problem: guard/keepalive: not trusted: Codex skips it silently; run hooks install with --trust, "
            "or trust it in Codex's /hooks\n") in plain.stdout
    assert (codex_home / "config.toml").read_text() == config_before
    assert run("verify", "--host", "codex").exit_code == 1
    trusted = run("install", BUNDLE, "--host", "codex", "--trust")
    assert trusted.exit_code == 0 and "not trusted" not in trusted.stdout
    source = project / ".codex" / "hooks.json"
    assert sorted(_state(codex_home)) == [f"{source}:pre_tool_use:1:0", f"{source}:session_start:0:0",
                                          f"{source}:stop:1:0"]
    assert run("verify", "--host", "codex").exit_code == 0
    assert run("uninstall", "guard", "--host", "codex").exit_code == 0
    assert trusted_project.read_text(encoding="utf-8") == HOOKS_JSON
    assert (codex_home / "config.toml").read_text() == config_before


def test_hashes_are_codex_hashes() -> None:
    group = {"matcher": "^Bash$", "hooks": [{"type": "command", "command": "/opt/op.sh", "timeout": 30}]}
    assert trust_hash("PreToolUse", group, group["hooks"][0]) == (
        "sha256:5b9e0f15f48eb92a90949609dbd88a3e780c258241efaaac237da4d2ed084ef7")  # from codex 0.169 hooks/list
    stop = {"type": "command", "command": "say done", "statusMessage": "bye"}
    assert trust_hash("Stop", {"hooks": [stop]}, stop) == (
        "sha256:ca1d0b0ca0e8f19b45fb89759ff8be68ebd28554d101e55ac321db6ac7562ae4")


def test_uninstall_rekeys_the_operators_trust_it_shifted(run, trusted_project, codex_home, project) -> None:
    run("install", BUNDLE, "--host", "codex", "--trust")
    source = project / ".codex" / "hooks.json"
    # The operator then adds a hook of their own after ours and trusts it, as Codex's /hooks would.
    text = trusted_project.read_text().replace(
        '"command": "nightly keepalive-hook # hookweave:guard/keepalive"\n          }\n        ]\n      }',
        '"command": "nightly keepalive-hook # hookweave:guard/keepalive"\n          }\n        ]\n      },\n'
        '      {"hooks": [{"type": "command", "command": "later-hook"}]}')
    trusted_project.write_text(text)
    later = trust_hash("Stop", {}, {"type": "command", "command": "later-hook"})
    config = codex_home / "config.toml"
    config.write_text(config.read_text() + f'\n[hooks.state."{source}:stop:2:0"]\ntrusted_hash = "{later}"\nenabled = true\n')
    assert run("uninstall", "guard", "--host", "codex").exit_code == 0
    assert _state(codex_home) == {f"{source}:stop:1:0": {"trusted_hash": later, "enabled": True}}


def test_inline_toml_hooks_stay_in_config_toml(run, codex_home: Path) -> None:
    config = codex_home / "config.toml"
    config.write_text(CONFIG_TOML)
    result = run("install", BUNDLE, "--host", "codex", "--scope", "user", "--trust")
    assert result.exit_code == 0, result.output
    assert not (codex_home / "hooks.json").exists()  # never a second representation
    text = config.read_text()
    assert text.startswith(CONFIG_TOML.split("[hooks.state.")[0])  # operator text and comments untouched
    assert '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "nightly keepalive-hook # hookweave:guard/keepalive"' in text
    state = _state(codex_home)
    assert state[f"{config}:stop:1:0"]["trusted_hash"].startswith("sha256:")
    assert state["/somewhere/else/hooks.json:stop:0:0"] == {"trusted_hash": "sha256:1111"}
    assert run("verify", "--host", "codex", "--scope", "user").exit_code == 0
    assert run("uninstall", "guard", "--host", "codex", "--scope", "user").exit_code == 0
    assert config.read_text() == CONFIG_TOML


def test_upgrade_without_trust_drops_stale_trust(run, trusted_project, codex_home, write_bundle) -> None:
    run("install", BUNDLE, "--host", "codex", "--trust")
    v2 = (DATA / "claude" / "bundle" / "hookweave.toml").read_text().replace('"1.2.0"', '"1.3.0"')
    v2 = v2.replace("nightly keepalive-hook", "nightly keepalive-hook --v2")
    assert run("install", str(write_bundle(v2)), "--host", "codex").exit_code == 0
    verify = run("verify", "--host", "codex")
    assert verify.exit_code == 1 and "guard/keepalive: not trusted" in verify.stdout
    assert run("install", str(write_bundle(v2)), "--host", "codex", "--trust").exit_code == 0
    assert run("verify", "--host", "codex").exit_code == 0


def test_schema_key_in_hooks_json_is_refused(run, codex_home, project) -> None:
    hooks = project / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text('{"$schema": "https://x", "hooks": {}}')
    result = run("install", BUNDLE, "--host", "codex")
    assert result.exit_code == 2
    assert result.stderr == ("hooks: .codex/hooks.json: root key '$schema': Codex rejects the whole hooks.json "
                             "when it has a key other than description and hooks; remove it\n")


def test_untrusted_project_and_disabled_feature_fail_verify(run, codex_home) -> None:
    (codex_home / "config.toml").write_text("[features]\nhooks = false\n")
    result = run("install", BUNDLE, "--host", "codex", "--trust")
    assert result.exit_code == 0
    verify = run("verify", "--host", "codex")
    assert verify.exit_code == 1
    assert "  problem: [features] hooks = false in the user config.toml, the value Codex uses: Codex runs no hooks, user and project ones alike; remove it or set it to true\n" in verify.stdout
    assert "  problem: this project is not trusted in the user config.toml, so Codex ignores .codex/ here" in verify.stdout


def test_matchers_are_anchored_regexes(run, trusted_project) -> None:
    run("install", BUNDLE, "--host", "codex")
    assert '"matcher": "^Bash$"' in trusted_project.read_text()


@pytest.mark.skipif(not Path(CODEX).is_file(), reason="no codex binary: run scripts/install-hosts codex")
def test_trust_hashes_equal_what_codex_app_server_reports(run, trusted_project, codex_home, project, monkeypatch) -> None:
    from hookweave.hosts.codex.appserver import hooks_list

    assert run("install", BUNDLE, "--host", "codex", "--trust").exit_code == 0
    env = {**os.environ, "HOME": str(codex_home.parent), "CODEX_HOME": str(codex_home)}
    listed = hooks_list(CODEX, project, env=env)
    assert listed["errors"] == [] and listed["warnings"] == []
    state = _state(codex_home)
    ours = [h for h in listed["hooks"] if "# hookweave:guard/" in h["command"]]
    assert len(ours) == 3
    for hook in ours:
        assert hook["trustStatus"] == "trusted", hook
        assert state[hook["key"]]["trusted_hash"] == hook["currentHash"]
    foreign = [h for h in listed["hooks"] if "# hookweave:" not in h["command"]]
    assert {h["trustStatus"] for h in foreign} == {"untrusted"}  # never trusted on the operator's behalf
    monkeypatch.setenv("HOOKWEAVE_CODEX_BIN", CODEX)  # verify asks the binary too
    assert run("verify", "--host", "codex").exit_code == 0


def test_an_untrusted_project_is_a_note_when_the_user_layer_runs_the_same_hooks(run, codex_home) -> None:
    """A finding is a problem exactly when the agent does otherwise than the bundle asks: with the
    bundle at user scope too, its hooks still run once (measured: tests/e2e/test_codex_real.py)."""
    assert run("install", BUNDLE, "--host", "codex", "--scope", "user", "--trust").exit_code == 0
    assert run("install", BUNDLE, "--host", "codex", "--scope", "project", "--trust").exit_code == 0
    verify = run("verify", "--host", "codex")
    assert verify.exit_code == 0, verify.stdout
    assert ("  warning: this project is not trusted in the user config.toml, so Codex ignores .codex/ here: hookweave's "
            "project copies do not run, and the user layer's copies of them run instead\n") in verify.stdout
