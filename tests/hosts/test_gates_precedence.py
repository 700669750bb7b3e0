"""Issue 10, gates: every setting that stops hooks is judged on the host's merged settings, with the
host's own precedence, and install says what verify says (cases 1 and 3, and the host facts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
OPERATOR = (DATA / "claude" / "operator.settings.json").read_text(encoding="utf-8")


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _with(settings: str, **keys: object) -> str:
    """The operator's settings text with top-level keys added first (the rest byte for byte)."""
    added = "".join(f"\n  {json.dumps(k)}: {json.dumps(v)}," for k, v in keys.items())
    return settings.replace("{", "{" + added, 1)


def _problems(result) -> list[str]:
    return [p["message"] for f in json.loads(result.stdout)["files"] for p in f["problems"]]


# -- Claude: user < project < local < managed ----------------------------------------------------

def test_claude_case_1_project_true_with_local_false_runs_every_hook(run, project) -> None:
    """Measured (claude 2.1.197): project disableAllHooks true, local false: every hook ran."""
    settings = _write(project / ".claude" / "settings.json", _with(OPERATOR, disableAllHooks=True))
    _write(project / ".claude" / "settings.local.json", '{"disableAllHooks": false}\n')
    install = run("install", BUNDLE, "--host", "claude", "--json")
    assert install.exit_code == 0 and _problems(install) == []
    verify = run("verify", "--host", "claude")
    assert verify.exit_code == 0, verify.stdout
    assert ("  note: project settings set disableAllHooks, but local settings set it to false, which Claude uses: "
            "hooks run\n") in verify.stdout
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    assert settings.read_text(encoding="utf-8") == _with(OPERATOR, disableAllHooks=True)


def test_claude_local_true_over_project_false_stops_every_non_managed_hook(run, project) -> None:
    _write(project / ".claude" / "settings.json", _with(OPERATOR, disableAllHooks=False))
    _write(project / ".claude" / "settings.local.json", '{"disableAllHooks": true}\n')
    install = run("install", BUNDLE, "--host", "claude", "--json")
    message = ("local settings set disableAllHooks: Claude runs only managed hooks, none of hookweave's; remove the "
               "key or set it to false (it overrides project)")
    assert _problems(install) == [message]
    verify = run("verify", "--host", "claude")
    assert verify.exit_code == 1 and f"  problem: {message}\n" in verify.stdout


def test_claude_managed_false_overrides_a_local_true(run, project, tmp_path) -> None:
    _write(project / ".claude" / "settings.json", OPERATOR)
    _write(project / ".claude" / "settings.local.json", '{"disableAllHooks": true}\n')
    _write(tmp_path / "managed" / "managed-settings.json", '{"disableAllHooks": false}\n')
    run("install", BUNDLE, "--host", "claude")
    verify = run("verify", "--host", "claude")
    assert verify.exit_code == 0, verify.stdout
    assert ("  note: local settings set disableAllHooks, but managed settings set it to false, which Claude uses: "
            "hooks run\n") in verify.stdout


@pytest.mark.parametrize("scope", ["user", "project", "local"])
def test_claude_allow_managed_hooks_only_outside_managed_settings_changes_nothing(run, project, home, scope) -> None:
    """Measured: a non-managed allowManagedHooksOnly has no effect (Claude reads it from policy only)."""
    path = {"user": home / ".claude" / "settings.json", "project": project / ".claude" / "settings.json",
            "local": project / ".claude" / "settings.local.json"}[scope]
    _write(path, '{"allowManagedHooksOnly": true}\n')
    run("install", BUNDLE, "--host", "claude")
    verify = run("verify", "--host", "claude")
    assert verify.exit_code == 0, verify.stdout
    assert (f"  note: {scope} settings set allowManagedHooksOnly, which Claude reads only in managed settings: it "
            "changes nothing here\n") in verify.stdout


@pytest.mark.parametrize("strict", [True, ["skills", "hooks"]])
def test_claude_strict_plugin_only_customization_for_hooks_is_a_gate(run, project, tmp_path, strict) -> None:
    _write(tmp_path / "managed" / "managed-settings.json", json.dumps({"strictPluginOnlyCustomization": strict}))
    install = run("install", BUNDLE, "--host", "claude", "--json")
    message = ("managed settings set strictPluginOnlyCustomization for hooks: Claude runs only managed hooks, none of "
               "hookweave's")
    assert _problems(install) == [message]
    assert run("verify", "--host", "claude").exit_code == 1


def test_claude_strict_plugin_only_customization_for_other_things_is_no_gate(run, project, tmp_path) -> None:
    _write(tmp_path / "managed" / "managed-settings.json", '{"strictPluginOnlyCustomization": ["skills"]}')
    run("install", BUNDLE, "--host", "claude")
    assert run("verify", "--host", "claude").exit_code == 0


@pytest.mark.parametrize(("variable", "message"), [
    ("CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SIMPLE is set in this shell: a Claude started from it (bare mode) runs only "
                           "managed hooks, and none on SessionStart"),
    ("CLAUDE_CODE_SAFE_MODE", "CLAUDE_CODE_SAFE_MODE is set in this shell: a Claude started from it (safe mode) runs "
                              "only managed hooks"),
    ("CLAUDE_CODE_RESTRICTED", "CLAUDE_CODE_RESTRICTED is set in this shell: a Claude started from it (restricted mode) "
                               "runs only managed hooks"),
])
def test_claude_environment_switches_are_reported(run, project, monkeypatch, variable, message) -> None:
    run("install", BUNDLE, "--host", "claude")
    monkeypatch.setenv(variable, "Yes ")  # Claude's test: 1, true, yes, on, any case, trimmed
    assert f"  warning: {message}\n" in run("verify", "--host", "claude").stdout
    monkeypatch.setenv(variable, "0")
    assert variable not in run("verify", "--host", "claude").stdout


@pytest.mark.parametrize("value", ["1", "launch", "host", "Retry "])
def test_claude_personal_hooks_off_is_a_note_not_a_gate(run, project, monkeypatch, value) -> None:
    """Measured (claude 2.1.332): every hook ran with it set, alone or beside CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG."""
    run("install", BUNDLE, "--host", "claude")
    monkeypatch.setenv("CLAUDE_CODE_PERSONAL_HOOKS_OFF", value)
    result = run("verify", "--host", "claude")
    assert result.exit_code == 0
    assert "  note: CLAUDE_CODE_PERSONAL_HOOKS_OFF is set in this shell: Claude only words a notice" in result.stdout
    for off in ("0", "off", "none", ""):
        monkeypatch.setenv("CLAUDE_CODE_PERSONAL_HOOKS_OFF", off)
        assert "PERSONAL_HOOKS_OFF" not in run("verify", "--host", "claude").stdout


@pytest.mark.parametrize(("scope", "user", "exit_code", "level"), [
    ("user", {}, 0, "note"), ("user", {"disableAllHooks": False}, 0, "note"), ("project", {}, 1, "problem"),
])
def test_claude_restrict_personal_config_keeps_user_hooks(run, project, home, monkeypatch, scope, user, exit_code,
                                                          level) -> None:
    """Measured (claude 2.1.332): with CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG set, a project or local
    disableAllHooks: true left the user settings' hooks running (user false too), the others not."""
    _write(project / ".claude" / "settings.local.json", '{"disableAllHooks": true}')
    if user:
        _write(home / ".claude" / "settings.json", json.dumps(user))
    run("install", BUNDLE, "--host", "claude", "--scope", scope)
    monkeypatch.setenv("CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG", "true")
    result = run("verify", "--host", "claude")
    assert result.exit_code == exit_code, result.stdout
    assert (f"  {level}: local settings set disableAllHooks, but CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG is set in this "
            "shell: a Claude started from it runs only the user and managed settings' hooks") in result.stdout


def test_claude_restrict_personal_config_with_the_user_switch_runs_nothing(run, project, home, monkeypatch) -> None:
    """Measured (claude 2.1.332): user and project disableAllHooks: true, the variable set: nothing ran."""
    _write(project / ".claude" / "settings.json", '{"disableAllHooks": true}')
    run("install", BUNDLE, "--host", "claude", "--scope", "user")
    settings = home / ".claude" / "settings.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "disableAllHooks": True}))
    monkeypatch.setenv("CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG", "1")
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert "  problem: project settings set disableAllHooks: Claude runs only managed" in result.stdout


# -- Codex: system < user < project layers (root to cwd, trusted only) < managed_config ----------

def _codex_config(codex_home: Path, text: str = "", trusted: tuple[Path, ...] = ()) -> Path:
    trust = "".join(f'\n[projects."{p}"]\ntrust_level = "trusted"\n' for p in trusted)
    return _write(codex_home / "config.toml", text + trust)


@pytest.mark.parametrize("key", ["hooks", "codex_hooks"])
def test_codex_case_3_a_trusted_project_layer_switches_off_user_hooks(run, codex_home, project, key) -> None:
    """Measured (codex 0.169.0): project [features] hooks = false (or the deprecated codex_hooks)
    in a trusted project: the user-layer hooks did not run either."""
    _codex_config(codex_home, "[features]\napps = false\n", trusted=(project,))
    layer = _write(project / ".codex" / "config.toml", f"# the team's\n[features]\n{key} = false\n")
    install = run("install", BUNDLE, "--host", "codex", "--scope", "user", "--trust", "--json")
    message = (f"[features] {key} = false in .codex/config.toml, the value Codex uses: Codex runs no hooks, user and "
               "project ones alike; remove it or set it to true")
    assert _problems(install) == [message]
    verify = run("verify", "--host", "codex")
    assert verify.exit_code == 1 and f"  problem: {message}\n" in verify.stdout
    assert layer.read_text() == f"# the team's\n[features]\n{key} = false\n"


def test_codex_an_untrusted_project_layer_is_not_read(run, codex_home, project) -> None:
    _codex_config(codex_home)
    _write(project / ".codex" / "config.toml", "[features]\nhooks = false\n")
    run("install", BUNDLE, "--host", "codex", "--scope", "user", "--trust")
    assert run("verify", "--host", "codex").exit_code == 0


@pytest.mark.parametrize(("user", "layer", "note"), [
    ("[features]\nhooks = false\n", "[features]\nhooks = true\n",
     "[features] hooks = false in the user config.toml is overridden by hooks = true in .codex/config.toml "
     "(a later layer): hooks run"),
    ("", "[features]\nhooks = true\ncodex_hooks = false\n",
     "[features] codex_hooks = false in .codex/config.toml is overridden by hooks = true in .codex/config.toml "
     "(hooks = true beside it): hooks run"),
    ("[features]\ncodex_hooks = false\n", "[features]\nhooks = true\n",
     "[features] codex_hooks = false in the user config.toml is overridden by hooks = true in .codex/config.toml "
     "(hooks = true beside it): hooks run"),
])
def test_codex_a_later_true_wins(run, codex_home, project, user, layer, note) -> None:
    _codex_config(codex_home, user, trusted=(project,))
    _write(project / ".codex" / "config.toml", layer)
    run("install", BUNDLE, "--host", "codex", "--scope", "user", "--trust")
    verify = run("verify", "--host", "codex")
    assert verify.exit_code == 0, verify.stdout
    assert f"  note: {note}\n" in verify.stdout


def test_codex_hooks_false_beats_codex_hooks_true_in_the_merged_table(run, codex_home, project) -> None:
    """Measured: user hooks = false, project codex_hooks = true: off (hooks wins in the merged table)."""
    _codex_config(codex_home, "[features]\nhooks = false\n", trusted=(project,))
    _write(project / ".codex" / "config.toml", "[features]\ncodex_hooks = true\n")
    run("install", BUNDLE, "--host", "codex", "--scope", "user", "--trust")
    verify = run("verify", "--host", "codex")
    assert verify.exit_code == 1
    assert "  problem: [features] hooks = false in the user config.toml, the value Codex uses" in verify.stdout


def test_codex_a_trusted_repository_root_covers_its_subfolders(run, codex_home, project, tmp_path) -> None:
    """Measured: with a git root trusted, a subfolder with no entry of its own loads its layers, and
    so does the root's own .codex/config.toml; a folder trusted alone does not load the root's."""
    root = tmp_path
    _write(root / ".git" / "HEAD", "ref: refs/heads/main\n")
    _codex_config(codex_home, trusted=(root,))
    run("install", BUNDLE, "--host", "codex", "--trust", "--project", str(project))  # the subfolder, not the root
    assert run("verify", "--host", "codex", "--project", str(project)).exit_code == 0  # the project layer loads: trusted through its root
    _write(root / ".codex" / "config.toml", "[features]\nhooks = false\n")
    verify = run("verify", "--host", "codex", "--project", str(project))
    assert verify.exit_code == 1
    assert f"  problem: [features] hooks = false in {root / '.codex' / 'config.toml'}, the value Codex uses" in verify.stdout
    _codex_config(codex_home, (codex_home / "config.toml").read_text().replace(f'"{root}"', f'"{project}"'))
    assert run("verify", "--host", "codex", "--project", str(project)).exit_code == 0  # the root is no longer trusted: its layer is not read


def test_codex_an_empty_git_folder_is_no_project_root(run, codex_home, project, tmp_path) -> None:
    (tmp_path / ".git").mkdir()
    _codex_config(codex_home, trusted=(tmp_path,))
    run("install", BUNDLE, "--host", "codex", "--trust")
    assert "this project is not trusted" in run("verify", "--host", "codex").stdout


@pytest.mark.parametrize(("text", "message"), [
    ("[features]\nhooks = 0\n", ".codex/config.toml: [features] hooks must be true or false; Codex refuses to start "
                                "and runs no hooks"),
    ("features = 1\n", ".codex/config.toml: features must be a table ([features]); Codex refuses to start and runs "
                       "no hooks"),
])
def test_codex_a_feature_of_the_wrong_type_stops_codex(run, codex_home, project, text, message) -> None:
    _codex_config(codex_home, trusted=(project,))
    _write(project / ".codex" / "config.toml", text)
    run("install", BUNDLE, "--host", "codex", "--scope", "user", "--trust")
    verify = run("verify", "--host", "codex")
    assert verify.exit_code == 1 and f"  problem: {message}\n" in verify.stdout


def test_codex_system_and_managed_layers_take_part(run, codex_home, project, tmp_path) -> None:
    system = _write(tmp_path / "codex-system" / "config.toml", "[features]\nhooks = false\n")
    _codex_config(codex_home)
    run("install", BUNDLE, "--host", "codex", "--scope", "user", "--trust")
    assert "hooks = false in the system config.toml, the value Codex uses" in run("verify", "--host", "codex").stdout
    _codex_config(codex_home, "[features]\nhooks = true\n" + (codex_home / "config.toml").read_text())
    assert run("verify", "--host", "codex").exit_code == 0
    _write(system.with_name("managed_config.toml"), "[features]\ncodex_hooks = false\n")
    assert run("verify", "--host", "codex").exit_code == 0  # hooks = true (user) beats codex_hooks beside it
    _write(system.with_name("managed_config.toml"), "[features]\nhooks = false\n")
    assert "hooks = false in the managed_config.toml" in run("verify", "--host", "codex").stdout


@pytest.mark.parametrize(("text", "message"), [
    ("allow_managed_hooks_only = true\n", "requirements.toml sets allow_managed_hooks_only = true: Codex runs only "
                                         "the admin's managed hooks, none of hookweave's"),
    ("[features]\ncodex_hooks = false\n", "requirements.toml pins [features] codex_hooks = false: Codex runs no "
                                           "hooks, whatever the other layers say"),
])
def test_codex_admin_requirements_are_gates(run, codex_home, project, tmp_path, text, message) -> None:
    _write(tmp_path / "codex-system" / "requirements.toml", text)
    _codex_config(codex_home, "[features]\nhooks = true\n")
    install = run("install", BUNDLE, "--host", "codex", "--scope", "user", "--trust", "--json")
    assert _problems(install) == [message]
    assert f"  problem: {message}\n" in run("verify", "--host", "codex").stdout


def test_codex_a_legacy_profile_key_stops_codex(run, codex_home, project) -> None:
    """Measured (0.169.0): profile = "p" in the user config.toml: "legacy `profile = \"p\"` config is
    no longer supported", exit 1 before anything runs. A [profiles.p] table alone is fine."""
    _codex_config(codex_home, '[profiles.p]\nmodel = "x"\n')
    run("install", BUNDLE, "--host", "codex", "--scope", "user", "--trust")
    assert run("verify", "--host", "codex").exit_code == 0
    _codex_config(codex_home, 'profile = "p"\n' + (codex_home / "config.toml").read_text())
    verify = run("verify", "--host", "codex")
    assert verify.exit_code == 1
    assert ("  problem: the user config.toml selects a profile with a top-level profile key, which Codex no longer "
            "supports: it refuses to start and runs no hooks; remove the key and pass --profile\n") in verify.stdout


# -- Gemini: trust and hooksConfig.enabled --------------------------------------------------------

OFF = '{"hooksConfig": {"enabled": false}}\n'


def _trust(home: Path, rules: dict) -> None:
    _write(home / ".gemini" / "trustedFolders.json", json.dumps(rules))


def test_gemini_project_enabled_true_overrides_a_user_false(run, home, project) -> None:
    """Measured (gemini 0.61.0): a project hooksConfig.enabled = true overrides a user false."""
    _write(home / ".gemini" / "settings.json", OFF)
    _write(project / ".gemini" / "settings.json", '{"hooksConfig": {"enabled": true}}\n')
    _trust(home, {str(project): "TRUST_FOLDER"})
    run("install", BUNDLE, "--host", "gemini", "--scope", "user")
    assert run("verify", "--host", "gemini").exit_code == 0


def test_gemini_a_project_cannot_switch_folder_trust_off(run, home, project) -> None:
    _write(project / ".gemini" / "settings.json", '{"security": {"folderTrust": {"enabled": false}}}\n')
    run("install", BUNDLE, "--host", "gemini")
    verify = run("verify", "--host", "gemini")
    assert verify.exit_code == 1
    assert ("  problem: the project folder is not trusted (no rule covers it): Gemini skips every settings hook, user "
            "ones too, and a headless run stops (exit 55)") in verify.stdout


@pytest.mark.parametrize(("rules", "env", "trusted"), [
    ({"{root}": "TRUST_FOLDER", "{parent}": "DO_NOT_TRUST"}, {}, False),  # the longest rule decides
    ({"{parent}": "DO_NOT_TRUST", "{project}": "TRUST_FOLDER"}, {}, True),
    ({"{project}/": "DO_NOT_TRUST", "{project}": "TRUST_FOLDER"}, {}, True),  # one folder: the later entry
    ({"{parent}/x/../project": "TRUST_FOLDER", "{project}": "DO_NOT_TRUST"}, {}, False),
    ({"{project}": "TRUST_PARENT"}, {}, True),
    ({"{project}": "TRUST_FOLDER"}, {"GEMINI_CLI_TRUST_WORKSPACE": "false"}, False),
    ({"{project}": "TRUST_FOLDER"}, {"GEMINI_RESTRICTED_MODE": "true"}, False),
    ({"{project}": "DO_NOT_TRUST"}, {"GEMINI_CLI_TRUST_WORKSPACE": "true"}, True),
    ({"{project}": "TRUST_FOLDER"}, {"GEMINI_CLI_TRUST_WORKSPACE": "1"}, True),  # only "true"/"false" count
])
def test_gemini_folder_trust_rules(run, home, project, monkeypatch, rules, env, trusted) -> None:
    _trust(home, {k.format(project=project, parent=project.parent, root=project.parent.parent): v
                  for k, v in rules.items()})
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    run("install", BUNDLE, "--host", "gemini")
    verify = run("verify", "--host", "gemini")
    assert verify.exit_code == (0 if trusted else 1), verify.stdout
    assert ("the project folder is not trusted" in verify.stdout) is not trusted


@pytest.mark.parametrize(("text", "why"), [
    ('{"/x": "BOGUS"}', 'holds the trust level "BOGUS", which is not one of TRUST_FOLDER, TRUST_PARENT, DO_NOT_TRUST'),
    ('{"/x": "TRUST_FOLDER",}', "cannot be read"),
])
def test_gemini_a_broken_trust_file_stops_gemini(run, home, project, text, why) -> None:
    """Measured: Gemini exits 52 at start over such a file."""
    path = _write(home / ".gemini" / "trustedFolders.json", text)
    run("install", BUNDLE, "--host", "gemini")
    verify = run("verify", "--host", "gemini")
    assert verify.exit_code == 1
    assert f"  problem: {path} {why}: Gemini stops at start and runs nothing; fix the file\n" in verify.stdout
    assert path.read_text() == text


def test_gemini_folder_trust_enabled_zero_reads_as_off(run, home, project) -> None:
    """Measured: security.folderTrust.enabled = 0 (a validation warning only) switches folder trust off."""
    _write(home / ".gemini" / "settings.json", '{"security": {"folderTrust": {"enabled": 0}}}\n')
    run("install", BUNDLE, "--host", "gemini")
    verify = run("verify", "--host", "gemini")
    assert verify.exit_code == 0, verify.stdout
    assert "security.folderTrust.enabled should be true or false; Gemini reads 0 as false" in verify.stdout


def test_gemini_install_and_verify_agree_on_trust(run, home, project) -> None:
    _trust(home, {str(project.parent): "DO_NOT_TRUST", str(project.parent.parent): "TRUST_FOLDER"})
    install = run("install", BUNDLE, "--host", "gemini", "--json")
    (message,) = _problems(install)
    assert message.startswith(f"the project folder is not trusted (DO_NOT_TRUST on {project.parent})")
    assert f"  problem: {message}\n" in run("verify", "--host", "gemini").stdout
