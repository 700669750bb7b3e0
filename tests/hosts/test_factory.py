"""Factory Droid specifics: hooks.json of Claude's shape, and the settings.json it stops reading."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
OPERATOR = (DATA / "factory" / "operator.settings.json").read_text(encoding="utf-8")
SETTINGS = '{\n  "model": "claude-sonnet",\n  "hooks": {\n    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]\n  }\n}\n'


def test_operator_file_round_trip_restores_every_byte(run, project: Path) -> None:
    path = project / ".factory" / "hooks.json"
    path.parent.mkdir()
    path.write_text(OPERATOR, encoding="utf-8")
    assert run("install", BUNDLE, "--host", "factory").exit_code == 0
    after = (DATA / "factory" / "operator.after-install.json").read_text(encoding="utf-8")
    assert path.read_text(encoding="utf-8") == after
    assert run("verify", "--host", "factory").exit_code == 0
    assert run("uninstall", "guard", "--host", "factory").exit_code == 0
    assert path.read_text(encoding="utf-8") == OPERATOR


def test_without_hooks_json_we_write_into_the_settings_json_droid_reads(run, project: Path) -> None:
    settings = project / ".factory" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(SETTINGS)
    install = run("install", BUNDLE, "--host", "factory")
    assert install.stdout.startswith("factory project .factory/settings.json: installed guard 1.2.0 (3 hooks)\n")
    assert not (project / ".factory" / "hooks.json").exists()
    assert run("verify", "--host", "factory").exit_code == 0
    assert run("uninstall", "guard", "--host", "factory").exit_code == 0
    assert settings.read_text() == SETTINGS
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


def test_hooks_in_settings_json_for_an_event_hooks_json_has_are_a_warning(run, project: Path) -> None:
    """Droid 0.225.2 replaces settings.json's hooks event by event with hooks.json's (tests/e2e): the
    operator's Stop hook in settings.json stops running once our Stop is in hooks.json; its other
    events would still run."""
    settings = project / ".factory" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(SETTINGS.replace('"Stop"', '"SubagentStop"'))
    (project / ".factory" / "hooks.json").write_text('{}\n')
    assert run("install", BUNDLE, "--host", "factory").stdout.startswith("factory project .factory/hooks.json: ")
    verify = run("verify", "--host", "factory")
    assert verify.exit_code == 0 and "settings.json holds hooks" not in verify.stdout, verify.stdout
    settings.write_text(SETTINGS)
    verify = run("verify", "--host", "factory")
    assert verify.exit_code == 0
    assert ("  warning: .factory/settings.json holds hooks for Stop, which Droid does not run while hooks.json "
            "beside it has those events: move them into hooks.json\n") in verify.stdout
    assert settings.read_text() == SETTINGS


def test_ours_in_settings_json_stay_found_after_a_hooks_json_appears(run, project: Path) -> None:
    """Installed into settings.json (no hooks.json then), ours stay there when the operator adds a
    hooks.json: status and uninstall find them, and verify names each hook an event of hooks.json
    replaces (measured on 0.225.2: tests/e2e/test_factory_real.py)."""
    settings = project / ".factory" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(SETTINGS)
    assert run("install", BUNDLE, "--host", "factory").stdout.startswith("factory project .factory/settings.json: ")
    hooks_json = project / ".factory" / "hooks.json"
    hooks_json.write_text('{"PreToolUse": []}\n')
    assert "guard" in run("status", "--host", "factory").stdout
    verify = run("verify", "--host", "factory")
    assert verify.exit_code == 1
    assert ("  problem: guard/one-strike: .factory/hooks.json beside it has its own PreToolUse, which replaces "
            "settings.json's for that event: Droid does not run guard/one-strike; move the hooks.json PreToolUse "
            "entries into settings.json, or uninstall and install again (into hooks.json)\n") in verify.stdout, verify.stdout
    assert run("uninstall", "guard", "--host", "factory").exit_code == 0
    assert settings.read_text() == SETTINGS and hooks_json.read_text() == '{"PreToolUse": []}\n'


def test_a_hooks_wrapper_in_hooks_json_is_a_warning(run, project: Path) -> None:
    """Measured on Droid 0.225.2: it runs a hooks.json's top-level events and skips a "hooks" key."""
    path = project / ".factory" / "hooks.json"
    path.parent.mkdir()
    original = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}\n'
    path.write_text(original)
    assert run("install", BUNDLE, "--host", "factory").exit_code == 0
    verify = run("verify", "--host", "factory")
    assert verify.exit_code == 0
    assert ('  warning: project hooks.json has a "hooks" key, but Droid reads the events at the file\'s top level: '
            'the hooks under it never run; move them up one level\n') in verify.stdout
    assert run("uninstall", "guard", "--host", "factory").exit_code == 0
    assert path.read_text() == original


def test_verify_says_an_organization_may_make_droid_ignore_our_hooks(run) -> None:
    """Factory documents organization-managed hooks (Enterprise Controls, Hooks Policy) that can make
    Droid ignore every unmanaged hook; hookweave cannot see that policy, so verify says so (documents only)."""
    assert run("install", BUNDLE, "--host", "factory").exit_code == 0
    verify = run("verify", "--verbose", "--host", "factory")
    assert verify.exit_code == 0
    assert ("an organization's Hooks Policy (Factory's Enterprise Controls) can make Droid ignore every hook "
            "it does not manage, hookweave's included; hookweave cannot see that policy (documents only, "
            "unmeasured)") in " ".join(verify.stdout.split())
