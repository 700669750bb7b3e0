"""``hooks status`` for every built-in host loads only those with a record of ours, or reading a file
of a host that has one (``builtin_records.holding``), when no note of the project needs the others
(issue 38): the output is the one of a status that loads all sixteen, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookweave.core.reading import projects
from tests.test_crossreads_lazy import MOVED, hosts_loaded
from tests.shipping.test_startup_imports import installed  # noqa: F401 - the fixture

ARGS = (("status",), ("status", "--json"), ("status", "--host", "all"), ("status", "--host", "claude,all"))


def same_as_loading_every_host(run, monkeypatch, *args: str) -> None:
    """``status`` as it is, and with every host loaded (the notes said to need them all)."""
    for argv in args and [args] or ARGS:
        lazy = run(*argv)
        with monkeypatch.context() as patch:
            patch.setattr(projects, "notes_need_no_host", lambda *a: False)
            every = run(*argv)
        assert (lazy.exit_code, lazy.stdout, lazy.stderr) == (every.exit_code, every.stdout, every.stderr), argv


def test_a_claude_project_loads_the_hosts_that_run_its_files(installed, tmp_path):  # noqa: F811
    assert hosts_loaded(installed, tmp_path, "status") == {"claude", "cursor", "copilot", *MOVED}


def test_from_a_subfolder_of_a_repository_every_host_is_loaded_for_the_notes(installed, tmp_path):  # noqa: F811
    (installed / ".git").mkdir()
    (installed / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (installed / "src" / ".cursor").mkdir(parents=True)  # a project of its own below the root
    assert len(hosts_loaded(installed / "src", tmp_path, "status")) == 16


@pytest.mark.parametrize("hosts", [(), ("claude",), ("claude", "copilot"), ("codex", "qwen", "factory", "kimi"),
                                   ("cursor", "gemini", "cline", "openhands")])
def test_the_rows_are_those_of_every_host(run, monkeypatch, hosts: tuple[str, ...]) -> None:
    for host in hosts:
        assert run("install", "example-guard", "--host", host).exit_code == 0
    same_as_loading_every_host(run, monkeypatch)


def test_with_project_given_and_from_a_subfolder(run, monkeypatch, project: Path) -> None:
    assert run("install", "example-guard", "--host", "claude", "--host", "copilot").exit_code == 0
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")
    same_as_loading_every_host(run, monkeypatch)
    same_as_loading_every_host(run, monkeypatch, "status", "--project", str(project))
    (project / ".git").mkdir()
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    same_as_loading_every_host(run, monkeypatch)


def test_a_user_folder_in_the_project_is_one_file(run, monkeypatch, project: Path) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(project / ".claude"))
    assert run("install", "example-guard", "--host", "claude", "--scope", "user").exit_code == 0
    same_as_loading_every_host(run, monkeypatch)


def test_files_that_stop_status_stop_it_as_before(run, monkeypatch, home: Path, project: Path) -> None:
    """What made status fail fails it the same way: Factory's settings.json, read to choose its file,
    not UTF-8; a folder of a host's records that is a file; a record that is not JSON; no HOME."""
    (home / ".factory").mkdir()
    (home / ".factory" / "settings.json").write_bytes(b"\xff\xfe{}")
    same_as_loading_every_host(run, monkeypatch, "status")
    assert "not UTF-8" in run("status").stderr
    (home / ".factory" / "settings.json").unlink()
    (home / ".cursor").write_text("not a folder")
    same_as_loading_every_host(run, monkeypatch, "status")
    (home / ".cursor").unlink()
    (project / ".qwen").mkdir()
    (project / ".qwen" / "settings.hookweave.json").write_text("{not json")
    same_as_loading_every_host(run, monkeypatch, "status")
    assert run("status").exit_code != 0
    (project / ".qwen" / "settings.hookweave.json").unlink()
    (project / ".windsurf").mkdir()
    (project / ".windsurf" / "hooks.hookweave.json").symlink_to(project / "nowhere.json")
    same_as_loading_every_host(run, monkeypatch, "status")
    (project / ".windsurf" / "hooks.hookweave.json").unlink()
    monkeypatch.delenv("HOME")
    same_as_loading_every_host(run, monkeypatch, "status")
    assert run("status").exit_code != 0
