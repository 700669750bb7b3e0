"""Item 4 of issue 14: a host plugin states only what differs from the defaults.

A plugin sets ``name``, ``title``, ``events`` and ``settings_path`` and inherits a shape; the
rest (``verify_scopes``, ``native_events``, ``render`` of a flat entry, a file whose top level is
the events object) comes from the base classes, and works through the real CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookweave.core.contract import registry as plugins
from hookweave.core.contract.hookspecs import hookimpl
from hookweave.core.contract.shapes import FlatHost, NestedGroupsHost, TopLevelEvents
from hookweave.core.files import paths
from hookweave.hosts.claude import ClaudeCodeHost
from hookweave.hosts.codex import CodexHost

BUNDLE = Path(__file__).parent.parent / "data" / "claude" / "bundle"


class LeanHost(TopLevelEvents, FlatHost):
    """Everything a flat host with events at its file's top level has to say."""

    name = "lean"
    title = "Lean Agent"
    events = {"pre_tool_use": "beforeTool", "stop": "done", "session_start": "hello"}
    tools = {"shell": "shell"}

    def settings_path(self, scope: str, project: Path) -> Path:
        return (paths.home() if scope == "user" else project) / ".lean" / "hooks.json"


def test_derived_defaults_follow_the_class_that_states_them() -> None:
    assert LeanHost.verify_scopes == ("user", "project")
    assert LeanHost.native_events == frozenset({"beforeTool", "done", "hello"})

    class ProjectOnly(NestedGroupsHost):
        name, scopes, events = "p", ("project",), {"stop": "Stop", "notification": None}

        def settings_path(self, scope, project):
            return project / "x.json"

    assert ProjectOnly.verify_scopes == ("project",)
    assert ProjectOnly.native_events == frozenset({"Stop"})  # a neutral event the host lacks adds none

    class Renamed(ProjectOnly):  # a subclass that changes events derives them again
        events = {"stop": "Halt"}

    assert Renamed.native_events == frozenset({"Halt"}) and Renamed.verify_scopes == ("project",)

    class MyClaude(ClaudeCodeHost):  # stated by the parent: kept, not derived from events
        name = "my-claude"

    assert MyClaude.verify_scopes == ("user", "project", "local", "managed")
    assert MyClaude.native_events == ClaudeCodeHost.native_events
    assert CodexHost.native_events > frozenset(v for v in CodexHost.events.values() if v)


@pytest.fixture
def lean(monkeypatch):
    """Register ``LeanHost`` as an installed plugin would be, for every command of the CLI."""
    class Plugin:
        @hookimpl
        def hookweave_register_hosts(self, register):
            register(LeanHost)

    def with_lean():
        pm = plugins.get_plugin_manager(load_entrypoints=False)
        pm.register(Plugin(), name="lean")
        return plugins.HostRegistry(pm)

    monkeypatch.setattr(plugins, "registry", with_lean)


OPERATOR = """{
  "version": 3,
  "done": [ { "command": "say bye", "timeout": 5 } ],
  "beforeTool": [
      {"command": "audit", "matcher": "shell"}
  ],
  "unknownEvent": {"kept": [1, 2.50, "x"]}
}
"""


def test_a_lean_host_installs_verifies_and_uninstalls_byte_exact(lean, run, project: Path) -> None:
    settings = project / ".lean" / "hooks.json"
    settings.parent.mkdir()
    settings.write_text(OPERATOR)
    result = run("install", str(BUNDLE), "--host", "lean")
    assert result.exit_code == 0, result.output
    assert settings.read_text() == """{
  "version": 3,
  "done": [ { "command": "say bye", "timeout": 5 }, {"command": "nightly keepalive-hook # hookweave:guard/keepalive"} ],
  "beforeTool": [
      {
          "command": "guard-hook --project . # hookweave:guard/one-strike",
          "matcher": "shell",
          "timeout": 10
      },
      {"command": "audit", "matcher": "shell"}
  ],
  "unknownEvent": {"kept": [1, 2.50, "x"]},
  "hello": [
    {
      "command": "session-log start # hookweave:guard/session-log"
    }
  ]
}
"""
    assert run("verify", "--host", "lean").exit_code == 0
    again = run("install", str(BUNDLE), "--host", "lean")
    assert again.output.endswith("already installed; nothing written\n")
    assert run("uninstall", "guard", "--host", "lean").exit_code == 0
    assert settings.read_text() == OPERATOR


def test_a_lean_host_creates_and_removes_its_own_file(lean, run, project: Path) -> None:
    assert run("install", str(BUNDLE), "--host", "lean").exit_code == 0
    settings = project / ".lean" / "hooks.json"
    assert list(json.loads(settings.read_text())) == ["beforeTool", "done", "hello"]
    assert run("uninstall", "guard", "--host", "lean").exit_code == 0
    assert not (project / ".lean").exists()
