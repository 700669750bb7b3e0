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


def test_a_plugin_that_runs_our_command_too_fires_it_twice(run, write_bundle, home, project) -> None:
    assert run("install", str(write_bundle(GUARD)), "--host", "claude", "--scope", "user").exit_code == 0
    copy = _cached_plugin(home, _hooks("echo guard"))
    _enable(home / ".claude" / "settings.json", "lint@tools")

    result = run("verify", "--host", "claude")
    assert result.exit_code == 1, result.stdout
    print(result.stdout)
    doc = json.loads(run("verify", "--host", "claude", "--json").stdout)
    print(json.dumps(doc["hosts"][0]["plugin_hooks"], indent=1))
    print(json.dumps(doc["hosts"][0]["findings"], indent=1))
