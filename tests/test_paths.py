"""Every path comes from the hosts' own variables, and tests never see the real home."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookweave.core import paths
from hookweave.core.errors import BadInput
from hookweave.hosts.claude import ClaudeCodeHost


def test_isolation_points_every_home_variable_at_tmp(tmp_path: Path) -> None:
    for variable in ("HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "HOOKWEAVE_CLAUDE_MANAGED_DIR"):
        assert os.environ[variable].startswith(str(tmp_path)), variable


def test_claude_paths_per_scope(tmp_path: Path, monkeypatch) -> None:
    host, project = ClaudeCodeHost(), tmp_path / "p"
    assert host.settings_path("user", project) == tmp_path / "home" / ".claude" / "settings.json"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    assert host.settings_path("user", project) == tmp_path / "home" / ".claude" / "settings.json"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "~/cfg")
    assert host.settings_path("user", project) == tmp_path / "home" / "cfg" / "settings.json"
    assert host.settings_path("project", project) == project / ".claude" / "settings.json"
    assert host.settings_path("local", project) == project / ".claude" / "settings.local.json"
    assert host.settings_path("managed", project) == tmp_path / "managed" / "managed-settings.json"
    assert host.record_path(project / ".claude" / "settings.local.json") == project / ".claude" / "settings.local.hookweave.json"


def test_missing_home_is_an_error_not_a_guess(monkeypatch) -> None:
    monkeypatch.delenv("HOME")
    with pytest.raises(BadInput, match="HOME is not set"):
        paths.home()
