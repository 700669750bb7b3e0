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

from hookweave.core.errors import BadInput, Conflict, WriteFailed
from hookweave.core.files import fileio
from hookweave.core.model import loading as bundles
from hookweave.core.usecases import installer, transaction

DATA = Path(__file__).parent / "data" / "claude"
BUNDLE = str(DATA / "bundle")
OPERATOR = (DATA / "operator.settings.json").read_text(encoding="utf-8")


@pytest.fixture
def settings(claude_settings: Path) -> Path:
    return claude_settings


def _host_saves(settings: Path, times: int, monkeypatch) -> list[int]:
    """After each of the first ``times`` plans, the host re-saves the file as Claude does."""
    real = transaction._plan_all
    calls = []

    def plan_then_host_writes(*args, **kwargs):
        plans = real(*args, **kwargs)
        calls.append(1)
        if len(calls) <= times:
            data = json.loads(settings.read_text(encoding="utf-8"))
            data["permissions"]["allow"].append(f"Bash(make:{len(calls)})")
            settings.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return plans

    monkeypatch.setattr(transaction, "_plan_all", plan_then_host_writes)
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
    bundle = bundles.load_bundle(BUNDLE)
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


# -- issue 8: files that are not plain (owners, links, FIFOs, signals, leftovers, odd paths) ----------

HOOKS = str(Path(sys.executable).parent / "hooks")
AFTER = (DATA / "operator.after-install.json").read_text(encoding="utf-8")
RECORD = (DATA / "operator.record.json").read_text(encoding="utf-8")


def _hooks(*args: str, env: dict | None = None, timeout: float = 20) -> subprocess.CompletedProcess:
    """The real command in its own process: a hang is a failed test, not a stuck suite."""
    return subprocess.run([HOOKS, *args], env={**os.environ, **(env or {})}, capture_output=True, text=True,
                          timeout=timeout)


def test_root_keeps_the_owner_group_and_mode_of_what_it_replaces_and_creates(run, settings: Path, home: Path) -> None:
    os.chown(settings, 4321, 4322)
    settings.chmod(0o600)
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    record = settings.with_name("settings.hookweave.json")
    assert (settings.read_text(encoding="utf-8"), record.read_text(encoding="utf-8")) == (AFTER, RECORD)
    for path in (settings, record):  # the new record takes the owner of the settings file beside it
        info = path.stat()
        assert (info.st_uid, info.st_gid, info.st_mode & 0o7777) == (4321, 4322, 0o600), path
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    info = settings.stat()
    assert (settings.read_text(encoding="utf-8"), info.st_uid, info.st_gid, info.st_mode & 0o777) == (OPERATOR, 4321, 4322, 0o600)


def test_folders_and_files_root_creates_in_someones_folder_are_that_someones(run, project: Path) -> None:
    os.chown(project, 4321, 4322)
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    for path in (project / ".claude", project / ".claude" / "settings.json", project / ".claude" / "settings.hookweave.json"):
        assert (path.stat().st_uid, path.stat().st_gid) == (4321, 4322), path


@pytest.mark.parametrize("where", ["settings", "record", "codex config.toml", "codex hooks.json", "managed"])
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_a_fifo_or_device_is_refused_not_read_forever(project: Path, home: Path, where: str, kind: str) -> None:
    path = {"settings": project / ".claude" / "settings.json", "record": project / ".claude" / "settings.hookweave.json",
            "codex config.toml": home / ".codex" / "config.toml", "codex hooks.json": project / ".codex" / "hooks.json",
            "managed": Path(os.environ["HOOKWEAVE_CLAUDE_MANAGED_DIR"]) / "managed-settings.json"}[where]
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path) if kind == "fifo" else path.symlink_to("/dev/zero")
    host = "codex" if where.startswith("codex") else "claude"
    shown = paths_shown(path)
    what = "a FIFO (named pipe)" if kind == "fifo" else "a character device"
    message = f"hooks: {shown}: is {what}, not a regular file; hookweave reads and writes only regular files: replace it with one\n"
    before = sorted(p.name for p in path.parent.iterdir())
    if where != "managed":
        result = _hooks("install", BUNDLE, "--host", host, "--trust")
        assert (result.returncode, result.stderr) == (2, message)
        assert sorted(p.name for p in path.parent.iterdir()) == before
    verify = _hooks("verify", "--host", host)
    assert verify.returncode in (0, 1) and "Traceback" not in verify.stderr
    status = _hooks("status", "--host", host)
    if where == "record":
        assert (status.returncode, status.stderr) == (2, message)
    else:
        assert status.returncode == 0, status.stderr


def paths_shown(path: Path) -> str:
    from hookweave.core.files.paths import display

    return display(path)


def test_a_hard_linked_settings_file_is_refused_or_rewritten_in_place(project: Path, settings: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles-settings.json"
    os.link(settings, dotfiles)
    result = _hooks("install", BUNDLE, "--host", "claude")
    assert (result.returncode, result.stderr) == (2, (
        "hooks: .claude/settings.json: has 2 hard links (another name for the same file, e.g. in a dotfiles repo), "
        "which replacing it would split; set HOOKWEAVE_WRITE_IN_PLACE=1 to rewrite it in place, "
        "or make the other name a symlink\n"))
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]
    in_place = {"HOOKWEAVE_WRITE_IN_PLACE": "1"}
    assert _hooks("install", BUNDLE, "--host", "claude", env=in_place).returncode == 0
    assert dotfiles.read_text(encoding="utf-8") == AFTER  # one file, two names: both see the hooks
    assert settings.stat().st_ino == dotfiles.stat().st_ino and settings.stat().st_nlink == 2
    assert _hooks("uninstall", "guard", "--host", "claude", env=in_place).returncode == 0
    assert (dotfiles.read_text(encoding="utf-8"), settings.stat().st_ino) == (OPERATOR, dotfiles.stat().st_ino)
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stop_signal_mid_write_puts_every_file_back(settings: Path, signum: int, code: int) -> None:
    """The record is written first; the signal lands while the settings file is being written."""
    record = settings.with_name("settings.hookweave.json")
    child = subprocess.Popen([HOOKS, "install", BUNDLE, "--host", "claude"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env={**os.environ, "HOOKWEAVE_TEST_SLOW_WRITE": "0.6"})
    deadline = time.monotonic() + 15
    while not record.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert record.exists(), "the record was never written"
    child.send_signal(signum)
    out, err = child.communicate(timeout=20)
    name = signal.Signals(signum).name
    assert (child.returncode, err) == (code, f"hooks: stopped by {name} while writing; every file was put back as it was\n")
    assert settings.read_text(encoding="utf-8") == OPERATOR
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


def test_the_last_uninstall_removes_every_folder_install_created(run, home: Path, monkeypatch) -> None:
    config = home / "a" / "b" / ".claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    assert run("install", BUNDLE, "--host", "claude", "--scope", "user").exit_code == 0
    assert json.loads((config / "settings.hookweave.json").read_text())["created_folder"] == 3
    assert run("uninstall", "guard", "--host", "claude", "--scope", "user").exit_code == 0
    assert sorted(p.name for p in home.iterdir()) == []


def test_a_failed_multi_host_write_removes_the_folders_it_created(run, project: Path, monkeypatch) -> None:
    real_write = fileio.write_text

    def gemini_disk_full(path, text, expected, **kwargs):
        if ".gemini" in str(path) and text is not None:
            raise OSError(28, "No space left on device", str(path))
        return real_write(path, text, expected, **kwargs)

    monkeypatch.setattr(fileio, "write_text", gemini_disk_full)
    result = run("install", BUNDLE, "--host", "claude", "--host", "gemini")
    assert (result.exit_code, result.stderr) == (
        1, "hooks: .gemini/settings.hookweave.json: could not write it (No space left on device); every file was put back as it was\n")
    assert sorted(p.name for p in project.iterdir()) == []
    monkeypatch.setattr(fileio, "write_text", real_write)
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    assert json.loads((project / ".claude" / "settings.hookweave.json").read_text())["created_folder"] is True
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    assert sorted(p.name for p in project.iterdir()) == []


def test_a_check_that_fails_under_the_lock_writes_nothing(run, project: Path, monkeypatch) -> None:
    """Every check runs before the first byte: a file that turns read-only after the first look."""
    real_check, calls = fileio.check_writable, []

    def read_only_on_second_look(path):
        calls.append(path)
        if len(calls) > 3 and path.name == "settings.json" and ".gemini" in str(path):
            raise BadInput(".gemini/settings.json: the file is read-only; make it writable (chmod u+w) or choose another scope")
        return real_check(path)

    monkeypatch.setattr(fileio, "check_writable", read_only_on_second_look)
    result = run("install", BUNDLE, "--host", "claude", "--host", "gemini")
    assert result.exit_code == 2, result.output
    assert sorted(p.name for p in project.iterdir()) == []


def test_an_immutable_settings_file_is_named_in_one_line(run, settings: Path, monkeypatch) -> None:
    if subprocess.run(["chattr", "+i", str(settings)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i does not work here")
    try:
        result = run("install", BUNDLE, "--host", "claude")
        assert (result.exit_code, result.stderr) == (2, (
            "hooks: .claude/settings.json: the file is immutable or append-only (chattr +i or +a); "
            "remove the flag (chattr -i -a) or choose another scope\n"))
        from hookweave.core.files import filecheck

        monkeypatch.setattr(filecheck, "immutable", lambda *a, **k: None)  # a system where we cannot tell
        result = run("install", BUNDLE, "--host", "claude")
        assert (result.exit_code, result.stderr) == (
            1, "hooks: .claude/settings.json: could not write it (Operation not permitted); every file was put back as it was\n")
    finally:
        subprocess.run(["chattr", "-i", str(settings)], check=True)
    assert settings.read_text(encoding="utf-8") == OPERATOR
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


def test_a_deleted_current_folder_is_one_line(run, tmp_path: Path, monkeypatch) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    for args in (["status"], ["verify", "--host", "claude"], ["install", BUNDLE, "--host", "claude"]):
        result = run(*args)
        assert (result.exit_code, result.stderr) == (
            2, "hooks: the current folder no longer exists; cd to an existing folder or pass --project\n"), args


def test_a_project_path_with_a_newline_stays_one_line(run, tmp_path: Path) -> None:
    project = tmp_path / "two\nlines"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text('{"model": }\n')
    result = run("install", BUNDLE, "--host", "claude", "--project", str(project))
    shown = str(project).replace("\n", "\\n")
    assert (result.exit_code, result.stderr.count("\n")) == (2, 1)
    assert result.stderr.startswith(f"hooks: {shown}/.claude/settings.json:1:11: ")


def test_folders_whose_names_are_not_utf8_are_one_line_errors(run, tmp_path: Path, write_bundle) -> None:
    project = Path(os.fsdecode(str(tmp_path).encode() + b"/proj\xff"))
    project.mkdir()
    assert run("install", BUNDLE, "--host", "claude", "--project", str(project)).exit_code == 0
    status = run("status", "--project", str(project))
    assert status.exit_code == 0 and f"{tmp_path}/proj\\xff/.claude/settings.json" in status.stdout
    result = run("install", BUNDLE, "--host", "codex", "--trust", "--project", str(project))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "not UTF-8" in result.stderr, result.stderr
    assert not (Path(os.environ["CODEX_HOME"])).exists() and not (project / ".codex").exists()
    bundle = Path(os.fsdecode(str(tmp_path).encode() + b"/bundle\xfe"))
    bundle.mkdir()
    (bundle / "hookweave.toml").write_text((DATA / "bundle" / "hookweave.toml").read_text())
    result = run("install", str(bundle), "--host", "claude")
    assert (result.exit_code, result.stderr) == (2, (
        f"hooks: {tmp_path}/bundle\\xfe/hookweave.toml: the bundle's path is not UTF-8, and it would go into every "
        "{bundle_dir} command of a UTF-8 settings file; move the bundle to a folder whose name is UTF-8\n"))


def test_an_ignored_hangup_is_still_ignored_while_writing(settings: Path) -> None:
    """``nohup hooks install``: SIGHUP is ignored, and holding it back must not turn it into a stop."""
    record = settings.with_name("settings.hookweave.json")
    child = subprocess.Popen([HOOKS, "install", BUNDLE, "--host", "claude"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env={**os.environ, "HOOKWEAVE_TEST_SLOW_WRITE": "0.6"},
                             preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    deadline = time.monotonic() + 15
    while not record.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    child.send_signal(signal.SIGHUP)
    out, err = child.communicate(timeout=20)
    assert (child.returncode, err) == (0, "")
    assert (settings.read_text(encoding="utf-8"), record.read_text(encoding="utf-8")) == (AFTER, RECORD)


def test_a_file_a_host_saves_while_we_put_it_back_is_left_as_the_host_saved_it(settings: Path, monkeypatch) -> None:
    """The second write fails; while the first is undone, the host saves it: its save wins, and we say so."""
    local = settings.with_name("settings.local.json")
    local.write_text('{"model": "haiku"}\n')
    real_write, host_save = fileio.write_text, '{"model": "sonnet"}\n'

    def fail_then_host_saves(path, text, expected, **kwargs):
        if path == local and text is not None and "hookweave" in text:
            settings.write_text(host_save)  # the host saves the file we already wrote
            raise OSError(28, "No space left on device", str(path))
        return real_write(path, text, expected, **kwargs)

    monkeypatch.setattr(fileio, "write_text", fail_then_host_saves)
    from hookweave.hosts.claude import ClaudeCodeHost

    host = ClaudeCodeHost()
    targets = [installer.target(host, "project", settings.parent.parent), installer.target(host, "local", settings.parent.parent)]
    with pytest.raises(WriteFailed) as caught:
        installer.install(targets, bundles.load_bundle(BUNDLE), settings.parent.parent, force=False, dry_run=False)
    assert str(caught.value) == (".claude/settings.json: saved by another program while hookweave was putting it back after an "
                                 "error (No space left on device), so it stays as that program saved it; run hooks verify")
    assert settings.read_text() == host_save and local.read_text() == '{"model": "haiku"}\n'
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json", "settings.local.json"]


def _acl(uid: int) -> bytes:
    """A POSIX access ACL (the kernel's xattr form) that also lets ``uid`` read and write."""
    import struct

    anyone = 0xFFFFFFFF
    entries = [(0x01, 6, anyone), (0x02, 6, uid), (0x04, 4, anyone), (0x10, 6, anyone), (0x20, 0, anyone)]
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *entry) for entry in entries)


def test_acls_and_extended_attributes_survive_install_and_uninstall(run, settings: Path) -> None:
    try:
        os.setxattr(settings, "system.posix_acl_access", _acl(4321))
        os.setxattr(settings, "user.backup-tag", b"keep me")
    except OSError:
        pytest.skip("this filesystem has no ACLs or user xattrs")
    before = {name: os.getxattr(settings, name) for name in os.listxattr(settings)}
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    assert settings.read_text(encoding="utf-8") == AFTER
    assert {name: os.getxattr(settings, name) for name in os.listxattr(settings)} == before
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    assert settings.read_text(encoding="utf-8") == OPERATOR
    assert {name: os.getxattr(settings, name) for name in os.listxattr(settings)} == before


def test_a_stop_while_waiting_for_the_lock_is_prompt_and_writes_nothing(settings: Path) -> None:
    """Signals are held only while writing: ^C still stops a run that waits for another's lock."""
    import fcntl

    fd = os.open(settings.parent, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        child = subprocess.Popen([HOOKS, "install", BUNDLE, "--host", "claude"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)  # well past start-up: it waits for the lock
        child.send_signal(signal.SIGINT)
        child.communicate(timeout=5)
    finally:
        os.close(fd)
    assert child.returncode == 130
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]
    assert settings.read_text(encoding="utf-8") == OPERATOR


def test_a_user_is_told_when_replacing_a_file_would_change_its_owner_or_group(run, settings: Path, monkeypatch) -> None:
    """As a user (not root) the swap cannot give an owner back: refuse, or rewrite in place."""
    os.chown(settings, 4321, 4321)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(os, "getegid", lambda: 1000)
    monkeypatch.setattr(os, "getgroups", lambda: [1000])
    result = run("install", BUNDLE, "--host", "claude")
    assert (result.exit_code, result.stderr) == (2, (
        "hooks: .claude/settings.json: owned by uid 4321, and replacing it as uid 1000 would change its owner; "
        "run as its owner, or set HOOKWEAVE_WRITE_IN_PLACE=1 to rewrite it in place\n"))
    os.chown(settings, 1000, 4321)
    result = run("install", BUNDLE, "--host", "claude")
    assert (result.exit_code, result.stderr) == (2, (
        "hooks: .claude/settings.json: its group 4321 is not one of yours, so replacing it would change its group; "
        "run as a member of that group, or set HOOKWEAVE_WRITE_IN_PLACE=1 to rewrite it in place\n"))
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]
    monkeypatch.setenv("HOOKWEAVE_WRITE_IN_PLACE", "1")
    inode = settings.stat().st_ino
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    info = settings.stat()
    assert (settings.read_text(encoding="utf-8"), info.st_ino, info.st_uid, info.st_gid) == (AFTER, inode, 1000, 4321)


def test_temp_files_are_named_and_made_as_tempfile_makes_them(tmp_path: Path) -> None:
    """``fileswap.new_temp`` stands in for ``tempfile.mkstemp``: its names are the ones the sweep of a
    killed run's temp files knows (``filelock._temp_of``), the file is new (never one already
    there) and only its owner may read it, whatever the umask."""
    import stat

    from hookweave.core.files import filelock, fileswap

    target = tmp_path / "settings.json"
    made = set()
    for _ in range(50):
        fd, name = fileswap.new_temp(target)
        os.close(fd)
        assert Path(name).parent == tmp_path and Path(name).is_absolute()
        assert filelock._temp_of(Path(name).name, ".settings.json.")
        assert stat.S_IMODE(os.stat(name).st_mode) == 0o600
        made.add(name)
    assert len(made) == 50
    taken = sorted(made)[0]
    with pytest.raises(FileExistsError):
        os.open(taken, fileswap._TEMP_FLAGS, 0o600)  # O_EXCL: a name drawn twice is drawn again
    os.symlink(tmp_path / "elsewhere", tmp_path / "link")
    with pytest.raises(FileExistsError):  # a symlink planted under a name is not followed
        os.open(tmp_path / "link", fileswap._TEMP_FLAGS, 0o600)
    assert not (tmp_path / "elsewhere").exists()


def test_a_temp_name_already_taken_is_drawn_again(tmp_path: Path, monkeypatch) -> None:
    from hookweave.core.files import fileswap

    draws = iter([b"\x00" * 8, b"\x00" * 8, b"\x01" * 8])
    monkeypatch.setattr(os, "urandom", lambda n: next(draws))
    first, second = fileswap.new_temp(tmp_path / "settings.json"), fileswap.new_temp(tmp_path / "settings.json")
    for fd, _ in (first, second):
        os.close(fd)
    assert Path(first[1]).name == ".settings.json.aaaaaaaa.hookweave-tmp"
    assert Path(second[1]).name == ".settings.json.bbbbbbbb.hookweave-tmp"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
@pytest.mark.parametrize("parts", ["_ctypes", "changed"])
def test_renameat2_from_ctypes_parts_exchanges_and_keeps_errno(tmp_path, monkeypatch, parts):
    """``fileswap._renameat2`` made from ``_ctypes``' parts behaves as ``ctypes.CDLL`` gives it: the
    two files exchanged, and a failure's errno kept; where those parts changed shape, ``ctypes``'."""
    from hookweave.core.files import fileswap

    fileswap._renameat2.cache_clear()
    monkeypatch.setattr(fileswap, "_renameat2", fileswap._renameat2.__wrapped__)
    if parts == "changed":
        monkeypatch.setattr(fileswap, "_from_ctypes_parts", lambda: (_ for _ in ()).throw(TypeError("changed")))
    if fileswap._renameat2() is None:
        pytest.skip("this libc has no renameat2")
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("A")
    b.write_text("B")
    assert fileswap._rename2(str(a), b, fileswap._RENAME_EXCHANGE) in (True, False)
    if a.read_text() == "B":  # the file system can exchange
        assert b.read_text() == "A"
    with pytest.raises(FileNotFoundError):
        fileswap._rename2(str(tmp_path / "missing"), b, fileswap._RENAME_NOREPLACE)
    with pytest.raises(FileExistsError):
        fileswap._rename2(str(a), b, fileswap._RENAME_NOREPLACE)
