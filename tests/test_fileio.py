"""Safe writes: compare-and-swap against hosts saving mid-run, all-or-nothing, locks, odd paths."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hookweave.core import fileio, installer
from hookweave.core.errors import BadInput, Conflict, WriteFailed

DATA = Path(__file__).parent / "data" / "claude"
BUNDLE = str(DATA / "bundle")
OPERATOR = (DATA / "operator.settings.json").read_text(encoding="utf-8")


@pytest.fixture
def settings(claude_settings: Path) -> Path:
    return claude_settings


def _host_saves(settings: Path, times: int, monkeypatch) -> list[int]:
    """After each of the first ``times`` plans, the host re-saves the file as Claude does."""
    real = installer._plan_all
    calls = []

    def plan_then_host_writes(*args, **kwargs):
        plans = real(*args, **kwargs)
        calls.append(1)
        if len(calls) <= times:
            data = json.loads(settings.read_text(encoding="utf-8"))
            data["permissions"]["allow"].append(f"Bash(make:{len(calls)})")
            settings.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return plans

    monkeypatch.setattr(installer, "_plan_all", plan_then_host_writes)
    return calls


def test_a_host_save_between_plan_and_write_is_kept_and_we_replan(run, settings: Path, monkeypatch) -> None:
    calls = _host_saves(settings, 1, monkeypatch)
    result = run("install", BUNDLE, "--host", "claude")
    assert result.exit_code == 0, result.output
    assert len(calls) == 2
    data = json.loads(settings.read_text(encoding="utf-8"))
    assert "Bash(make:1)" in data["permissions"]["allow"]  # the host's save survived
    assert data["hooks"]["PreToolUse"][0]["hooks"][0]["command"].endswith("# hookweave:guard/one-strike")


def test_a_host_saving_every_time_makes_us_give_up_without_writing(run, settings: Path, monkeypatch) -> None:
    _host_saves(settings, 3, monkeypatch)
    result = run("install", BUNDLE, "--host", "claude")
    assert result.exit_code == 1
    assert result.stderr == "hooks: .claude/settings.json: changed while hookweave was working; run the command again\n"
    data = json.loads(settings.read_text(encoding="utf-8"))
    assert "Bash(make:3)" in data["permissions"]["allow"] and "SessionStart" not in data["hooks"]
    assert not settings.with_name("settings.hookweave.json").exists()


def test_a_failed_write_puts_back_the_files_already_written(settings: Path, project: Path, monkeypatch) -> None:
    from hookweave.hosts.claude import ClaudeCodeHost

    host = ClaudeCodeHost()
    local = project / ".claude" / "settings.local.json"
    local.write_text('{"model": "haiku"}\n')
    targets = [installer.target(host, "project", project), installer.target(host, "local", project)]
    bundle = installer.load_bundle(BUNDLE)
    real_write = fileio.write_text

    def failing(path, text, expected, **kwargs):
        if path == local and text is not None and "hookweave" in text:
            raise OSError(28, "No space left on device")
        return real_write(path, text, expected, **kwargs)

    monkeypatch.setattr(fileio, "write_text", failing)
    with pytest.raises(WriteFailed, match="could not write it"):
        installer.install(targets, bundle, project, force=False, dry_run=False)
    assert settings.read_text(encoding="utf-8") == OPERATOR
    assert local.read_text() == '{"model": "haiku"}\n'
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json", "settings.local.json"]


def test_a_second_run_waits_for_the_lock(run, settings: Path) -> None:
    import fcntl

    fd = os.open(settings.parent, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    done = threading.Event()
    thread = threading.Thread(target=lambda: (run("install", BUNDLE, "--host", "claude"), done.set()))
    thread.start()
    try:
        assert not done.wait(0.5), "install went ahead while another process held the lock"
        assert settings.read_text(encoding="utf-8") == OPERATOR
    finally:
        os.close(fd)
    thread.join(10)
    assert done.is_set() and "hookweave:guard" in settings.read_text(encoding="utf-8")


def test_a_killed_lock_holder_does_not_block_the_next_run(run, settings: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDONLY); fcntl.flock(fd, fcntl.LOCK_EX); "
         "print('locked', flush=True); time.sleep(60)", str(settings.parent)],
        stdout=subprocess.PIPE, text=True,
    )
    assert holder.stdout.readline().strip() == "locked"
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    start = time.monotonic()
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    assert time.monotonic() - start < 5


def test_dangling_symlink_loop_and_folder_are_refused(project: Path, run) -> None:
    folder = project / ".claude"
    folder.mkdir()
    settings = folder / "settings.json"
    settings.symlink_to(project / "missing.json")
    result = run("install", BUNDLE, "--host", "claude")
    assert (result.exit_code, result.stderr) == (
        2, f"hooks: .claude/settings.json: a symlink to {project / 'missing.json'}, which does not exist; fix or remove the link\n")
    settings.unlink()
    settings.symlink_to(settings)
    assert run("install", BUNDLE, "--host", "claude").exit_code == 2
    settings.unlink()
    settings.mkdir()
    result = run("install", BUNDLE, "--host", "claude")
    assert (result.exit_code, result.stderr) == (2, "hooks: .claude/settings.json: is a folder, not a settings file; move it away\n")


def test_write_text_refuses_when_the_file_is_not_what_we_planned_from(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_text("{}")
    with pytest.raises(Conflict):
        fileio.write_text(path, '{"a": 1}', expected="{ }")
    assert path.read_text() == "{}"
    with pytest.raises(Conflict):
        fileio.write_text(tmp_path / "new.json", "{}", expected="{}")
    fileio.write_text(path, None, expected="{}")
    assert not path.exists()


def test_new_files_follow_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        fileio.write_text(tmp_path / "a" / "new.json", "{}\n", expected=None)
    finally:
        os.umask(old)
    assert (tmp_path / "a" / "new.json").stat().st_mode & 0o777 == 0o600


def test_read_only_folder_is_refused_before_planning(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(BadInput, match="the folder is read-only"):
            fileio.check_writable(folder / "settings.json")
    finally:
        folder.chmod(0o755)
