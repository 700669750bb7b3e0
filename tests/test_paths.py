"""Every path comes from the hosts' own variables, and tests never see the real home."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookweave.core.errors import BadInput
from hookweave.core.files import paths
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
    assert host.settings_path("managed", project) == tmp_path / "managed" / "managed-settings.d" / "50-hookweave.json"  # hookweave's own drop-in
    assert host.record_path(project / ".claude" / "settings.local.json") == project / ".claude" / "settings.local.hookweave.json"


def test_missing_home_is_an_error_not_a_guess(monkeypatch) -> None:
    monkeypatch.delenv("HOME")
    with pytest.raises(BadInput, match="HOME is not set"):
        paths.home()


def test_display_is_one_line_whatever_the_path_holds(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert paths.display(tmp_path / "a\nb" / "settings.json") == "a\\nb/settings.json"
    assert paths.display(tmp_path / "esc\x1b[31m") == "esc\\x1b[31m"
    assert paths.display(Path("/x/line\u2028sep\rcr\ttab")) == "/x/line\\u2028sep\\rcr\\ttab"
    assert paths.display(Path(os.fsdecode(b"/x/caf\xe9/\xff.json"))) == "/x/caf\\xe9/\\xff.json"
    assert paths.display(Path("/x/grüß dich ☕.json")) == "/x/grüß dich ☕.json"  # printable text stays as it is


def test_display_and_project_dir_survive_a_deleted_current_folder(tmp_path: Path, monkeypatch) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    assert paths.display(tmp_path / "x.json") == str(tmp_path / "x.json")
    assert paths.project_dir(str(tmp_path)) == tmp_path
    with pytest.raises(BadInput, match="^the current folder no longer exists; cd to an existing folder or pass --project$"):
        paths.project_dir(None)
    with pytest.raises(BadInput, match="the current folder no longer exists"):
        paths.project_dir("relative")


def test_a_missing_project_is_named_on_one_line(tmp_path: Path) -> None:
    with pytest.raises(BadInput) as caught:
        paths.project_dir(str(tmp_path / "no\nsuch"))
    assert str(caught.value) == f"--project {tmp_path}/no\\nsuch: no such folder; create it or pass an existing one"
