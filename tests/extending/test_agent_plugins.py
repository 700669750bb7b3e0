"""Issue 34 item 1: the hooks Claude Code runs from its own plugins are part of what verify reads.
Each plugin layout here is the one the real ``claude plugin install`` wrote (2.1.332, offline):
``~/.claude/plugins/installed_plugins.json``, ``known_marketplaces.json`` and the ``cache/``
copy, and ``enabledPlugins`` in settings. What Claude does with them is measured in
tests/e2e/test_plugins_real.py; these tests hold verify's words to it."""

from __future__ import annotations

import json
from pathlib import Path

GUARD = ('[bundle]\nname = "guard"\nversion = "1.0.0"\n[[hooks]]\nid = "check"\nevent = "pre_tool_use"\n'
         'matcher = ["shell"]\ncommand = "echo guard"\n')


def _write(path: Path, doc: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2) + "\n")


def _hooks(command: str, matcher: str = "Bash") -> dict:
    return {"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}],
                      "SessionStart": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/start.sh"}]}]}}


def _cached_plugin(home: Path, hooks: dict) -> Path:
    """``lint@tools`` from a GitHub marketplace: Claude runs the copy installed_plugins.json names."""
    plugins = home / ".claude" / "plugins"
    copy = plugins / "cache" / "tools" / "lint" / "1.0.0"
    _write(copy / ".claude-plugin" / "plugin.json", {"name": "lint", "version": "1.0.0"})
    _write(copy / "hooks" / "hooks.json", hooks)
    _write(plugins / "known_marketplaces.json", {"tools": {
        "source": {"source": "github", "repo": "example/tools"},
        "installLocation": str(plugins / "marketplaces" / "tools"), "lastUpdated": "2026-11-27T23:56:01.459Z"}})
    _write(plugins / "installed_plugins.json", {"version": 2, "plugins": {"lint@tools": [
        {"scope": "user", "installPath": str(copy), "version": "1.0.0",
         "installedAt": "2026-11-27T23:56:01.459Z", "lastUpdated": "2026-11-27T23:56:01.459Z"}]}})
    return copy


def _enable(settings: Path, plugin: str, on: bool = True) -> None:
    doc = json.loads(settings.read_text()) if settings.exists() else {}
    doc.setdefault("enabledPlugins", {})[plugin] = on
    _write(settings, doc)


def _directory_plugin(tmp: Path, home: Path, hooks: dict) -> Path:
    """``fmt@local`` from a marketplace folder (``claude plugin marketplace add ./folder``): Claude
    reads it in place there, not the cache copy installed_plugins.json also names."""
    source = tmp / "marketplace" / "plugins" / "fmt"
    _write(tmp / "marketplace" / ".claude-plugin" / "marketplace.json",
           {"name": "local", "owner": {"name": "ops"}, "plugins": [{"name": "fmt", "source": "./plugins/fmt"}]})
    _write(source / ".claude-plugin" / "plugin.json", {"name": "fmt", "version": "1.0.0"})
    _write(source / "hooks" / "hooks.json", hooks)
    plugins = home / ".claude" / "plugins"
    copy = plugins / "cache" / "local" / "fmt" / "1.0.0"
    _write(copy / "hooks" / "hooks.json", _hooks("echo the stale copy"))
    _write(plugins / "known_marketplaces.json", {"local": {
        "source": {"source": "directory", "path": str(tmp / "marketplace")},
        "installLocation": str(tmp / "marketplace"), "lastUpdated": "2026-11-27T23:55:30.050Z"}})
    _write(plugins / "installed_plugins.json", {"version": 2, "plugins": {"fmt@local": [
        {"scope": "user", "installPath": str(copy), "version": "1.0.0",
         "installedAt": "2026-11-27T23:55:30.050Z", "lastUpdated": "2026-11-27T23:55:30.050Z"}]}})
    return source


def test_a_plugin_that_runs_our_command_too_fires_it_twice(run, write_bundle, home, project) -> None:
    assert run("install", str(write_bundle(GUARD)), "--host", "claude", "--scope", "user").exit_code == 0
    copy = _cached_plugin(home, _hooks("echo guard"))
    _enable(home / ".claude" / "settings.json", "lint@tools")
    hooks_file = copy / "hooks" / "hooks.json"

    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert result.stdout == (
        "claude (Claude Code)\n"
        f"  problem: guard/check: fires twice per PreToolUse: plugin lint@tools runs the same command from {hooks_file}, "
        "and Claude Code runs a plugin's hook and a settings hook both, even word for word the same; turn the plugin "
        "off (\"lint@tools\": false under enabledPlugins) or uninstall the bundle\n"
        "  note: Claude starts all of an event's matching hooks at once and does not wait for one before the next, "
        "so file order is not execution order\n"
        f"  note: plugin lint@tools adds hooks Claude Code runs too: PreToolUse (Bash), SessionStart, from {hooks_file}; "
        "hookweave reads them and never changes them\n"
        "  note: PreToolUse: Claude Code starts the hooks of lint@tools at once with the user, project and local "
        "settings' hooks, hookweave's included, in no fixed order (prependPlugins and appendPlugins do not change "
        "that)\n"
        f"claude  user  guard 1.0.0  1 hook in place, 1 problem above  {home}/.claude/settings.json\n"
        "verify: 1 problem, 3 notes; start with claude guard/check: turn the plugin off (\"lint@tools\": false under "
        "enabledPlugins) or uninstall the bundle\n")
    listed = json.loads(run("verify", "--host", "claude", "--json").stdout)["hosts"][0]["plugin_hooks"]
    assert listed == [
        {"source": "plugin", "name": "lint@tools", "file": str(hooks_file), "event": "PreToolUse", "matcher": "Bash",
         "command": "echo guard", "type": "command"},
        {"source": "plugin", "name": "lint@tools", "file": str(hooks_file), "event": "SessionStart", "matcher": None,
         "command": f"{copy}/start.sh", "type": "command"}]  # ${CLAUDE_PLUGIN_ROOT}: the plugin's folder

    # false in the project's local settings wins over the user's true (measured): the plugin is off
    _enable(project / ".claude" / "settings.local.json", "lint@tools", on=False)
    result = run("verify", "--host", "claude", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["hosts"][0]["plugin_hooks"] == []


def test_another_matcher_or_command_is_listed_but_runs_once(run, write_bundle, home, tmp_path) -> None:
    assert run("install", str(write_bundle(GUARD)), "--host", "claude", "--scope", "user").exit_code == 0
    source = _directory_plugin(tmp_path, home, _hooks("echo guard", matcher="Edit|Write"))
    _enable(home / ".claude" / "settings.json", "fmt@local")

    result = run("verify", "--host", "claude", "--json")
    assert result.exit_code == 0  # Bash and Edit|Write never meet in one call
    listed = json.loads(result.stdout)["hosts"][0]["plugin_hooks"]
    assert [(h["file"], h["event"], h["matcher"], h["command"]) for h in listed] == [
        (str(source / "hooks" / "hooks.json"), "PreToolUse", "Edit|Write", "echo guard"),  # in place, not the cache
        (str(source / "hooks" / "hooks.json"), "SessionStart", None, f"{source}/start.sh")]


def test_a_plugin_is_read_only_when_enabled_and_never_written(run, write_bundle, home) -> None:
    assert run("install", str(write_bundle(GUARD)), "--host", "claude", "--scope", "user").exit_code == 0
    copy = _cached_plugin(home, _hooks("echo guard"))
    before = {p: p.read_bytes() for p in (home / ".claude" / "plugins").rglob("*") if p.is_file()}
    result = run("verify", "--host", "claude", "--json")  # installed, never enabled: Claude loads nothing of it
    assert result.exit_code == 0 and json.loads(result.stdout)["hosts"][0]["plugin_hooks"] == []
    _enable(home / ".claude" / "settings.json", "lint@tools", on="1.0.0")  # only true turns one on
    assert json.loads(run("verify", "--host", "claude", "--json").stdout)["hosts"][0]["plugin_hooks"] == []
    _enable(home / ".claude" / "settings.json", "lint@tools")
    assert run("verify", "--host", "claude").exit_code == 1
    assert run("uninstall", "guard", "--host", "claude", "--scope", "user").exit_code == 0
    assert {p: p.read_bytes() for p in (home / ".claude" / "plugins").rglob("*") if p.is_file()} == before
    assert (copy / "hooks" / "hooks.json").exists()


def _extension(folder: Path, name: str, hooks: dict) -> Path:
    _write(folder / "gemini-extension.json", {"name": name, "version": "1.0.0"})
    _write(folder / "hooks" / "hooks.json", hooks)
    return folder


def test_gemini_extensions_linked_or_switched_off_per_folder(run, write_bundle, home, project, tmp_path,
                                                              monkeypatch) -> None:
    """Gemini 0.61.0 (tests/e2e/test_plugins_real.py): a linked extension is read from its source;
    extension-enablement.json's last matching rule decides; ``${extensionPath}`` is filled in."""
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    assert run("install", str(write_bundle(GUARD)), "--host", "gemini", "--scope", "user").exit_code == 0
    extensions = home / ".gemini" / "extensions"
    hooks = {"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
        {"type": "command", "command": "echo guard"}, {"type": "command", "command": "${extensionPath}${/}lint.sh"}]}]}}
    source = _extension(tmp_path / "checkout", "linted", hooks)
    _write(extensions / "linted" / ".gemini-extension-install.json", {"source": str(source), "type": "link"})
    _extension(extensions / "elsewhere", "elsewhere", {"hooks": {"AfterAgent": [{"hooks": [
        {"type": "command", "command": "echo other"}]}]}})
    _write(extensions / "extension-enablement.json", {"elsewhere": {"overrides": [f"!{project.parent}/*", f"{project}/"]},
                                                      "linted": {"overrides": ["!/nowhere/*"]}})

    result = run("verify", "--host", "gemini")
    assert result.exit_code == 1
    hooks_file = source / "hooks" / "hooks.json"
    other = extensions / "elsewhere" / "hooks" / "hooks.json"
    assert result.stdout == (
        "gemini (Gemini CLI)\n"
        f"  problem: guard/check: fires twice per BeforeTool: extension linted runs the same command from {hooks_file}, "
        "and Gemini CLI runs an extension's hook and a settings hook both, even word for word the same; turn the "
        "extension off (`gemini extensions disable linted`) or uninstall the bundle\n"
        "  note: Gemini runs an event's hooks in parallel unless any matching group sets \"sequential\": true; then "
        "all of them run one after another in file order, user scope before project scope\n"
        f"  note: extension elsewhere adds hooks Gemini CLI runs too: AfterAgent, from {other}; hookweave reads them "
        "and never changes them\n"
        "  note: extension linted adds hooks Gemini CLI runs too: BeforeTool (run_shell_command), from "
        f"{hooks_file}; hookweave reads them and never changes them\n"
        "  note: BeforeTool: Gemini CLI also runs the hooks of linted; their order against hookweave's is unmeasured\n"
        f"gemini  user  guard 1.0.0  1 hook in place, 1 problem above  {home}/.gemini/settings.json\n"
        "verify: 1 problem, 4 notes; start with gemini guard/check: turn the extension off (`gemini extensions "
        "disable linted`) or uninstall the bundle\n")
    listed = json.loads(run("verify", "--host", "gemini", "--json").stdout)["hosts"][0]["plugin_hooks"]
    assert [(h["name"], h["file"], h["command"]) for h in listed] == [
        ("elsewhere", str(other), "echo other"),  # off under the project's parent, back on for the project itself
        ("linted", str(hooks_file), "echo guard"), ("linted", str(hooks_file), f"{source}/lint.sh")]


def test_copilot_plugins_enabled_in_its_commented_config(run, write_bundle, home, tmp_path) -> None:
    """Copilot CLI 1.0.102 (tests/e2e/test_plugins_real.py): config.json, which Copilot writes with a
    comment, lists the installed plugins; one with ``enabled`` false runs nothing."""
    assert run("install", str(write_bundle(GUARD)), "--host", "copilot", "--scope", "user").exit_code == 0
    plugins = home / ".copilot" / "installed-plugins" / "_direct"
    for name, command in (("guardplug", "echo guard"), ("offplug", "echo guard")):
        _write(plugins / name / "hooks" / "hooks.json",
               {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": command}]}})
    entries = [{"name": name, "marketplace": "", "version": "1.0.0", "cache_path": str(plugins / name),
                "enabled": name == "guardplug", "source": {"source": "local", "path": str(tmp_path / name)}}
               for name in ("guardplug", "offplug")]
    (home / ".copilot" / "config.json").write_text("// User settings belong in settings.json.\n"
                                                   + json.dumps({"installedPlugins": entries}, indent=2) + "\n")
    result = run("verify", "--host", "copilot", "--json")
    assert result.exit_code == 1
    host = json.loads(result.stdout)["hosts"][0]
    hooks_file = plugins / "guardplug" / "hooks" / "hooks.json"
    assert host["plugin_hooks"] == [{"source": "plugin", "name": "guardplug", "file": str(hooks_file),
                                     "event": "preToolUse", "matcher": None, "command": "echo guard",
                                     "type": "command"}]
    assert [f["message"] for f in host["findings"] if f["level"] == "problem"] == [
        f"fires twice per preToolUse: plugin guardplug runs the same command from {hooks_file}, and Copilot CLI runs "
        "a plugin's hook and a settings hook both, even word for word the same; turn the plugin off "
        "(`copilot plugin disable guardplug`) or uninstall the bundle"]


def test_the_copy_installed_for_this_project_and_none_under_repo(run, write_bundle, home, project) -> None:
    """installed_plugins.json keeps one entry per scope (``claude plugin install --scope project``
    adds one with ``projectPath``, measured): the one for this project is the copy read. ``verify
    --repo`` reads nothing of this machine's, plugins included."""
    assert run("install", str(write_bundle(GUARD)), "--host", "claude", "--scope", "project").exit_code == 0
    copy = _cached_plugin(home, _hooks("echo other"))
    mine = copy.with_name("2.0.0")
    _write(mine / "hooks" / "hooks.json", _hooks("echo mine"))
    installed = home / ".claude" / "plugins" / "installed_plugins.json"
    doc = json.loads(installed.read_text())
    doc["plugins"]["lint@tools"] += [{"scope": "project", "installPath": str(mine), "version": "2.0.0",
                                      "projectPath": str(project)},
                                     {"scope": "project", "installPath": str(copy), "projectPath": "/elsewhere"}]
    _write(installed, doc)
    _enable(project / ".claude" / "settings.json", "lint@tools")

    listed = json.loads(run("verify", "--host", "claude", "--json").stdout)["hosts"][0]["plugin_hooks"]
    assert [(h["file"], h["command"]) for h in listed] == [(str(mine / "hooks" / "hooks.json"), "echo mine"),
                                                           (str(mine / "hooks" / "hooks.json"), f"{mine}/start.sh")]
    result = run("verify", "--repo", "--host", "claude", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["hosts"][0]["plugin_hooks"] == []


def test_ours_at_managed_scope_runs_before_the_plugins_hooks(run, write_bundle, home) -> None:
    """Measured on 2.1.332 (tests/e2e/test_plugins_real.py): managed hooks run first; plugin hooks
    start when the last managed one has ended, with the user, project and local ones."""
    assert run("install", str(write_bundle(GUARD)), "--host", "claude", "--scope", "managed").exit_code == 0
    _cached_plugin(home, _hooks("echo other"))
    _enable(home / ".claude" / "settings.json", "lint@tools")
    notes = [f["message"] for f in json.loads(run("verify", "--host", "claude", "--json").stdout)["hosts"][0]["findings"]
             if f["message"].startswith("PreToolUse:")]
    assert notes == ["PreToolUse: Claude Code runs hookweave's managed hooks first, and starts the hooks of lint@tools "
                     "only when the last managed hook has ended, at once with the user, project and local settings' "
                     "hooks"]
