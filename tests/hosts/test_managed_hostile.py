"""Managed layers under a hostile administrator's folder (issue 33 item 5): a FIFO among the
drop-ins, a drop-in root does not own, a broken administrator's drop-in, a folder that is a
dangling symlink, root's umask 077, and an install by a user who is not root."""

from __future__ import annotations

import contextlib
import os
import signal
import stat
from pathlib import Path

import pytest

from hookweave.hosts.copilot import policy as copilot_policy

BUNDLE = """[bundle]
name = "guard"
version = "{version}"

[[hooks]]
id = "one-strike"
event = "pre_tool_use"
matcher = ["shell"]
command = "guard check"
timeout = 5
"""

CLAUDE_OURS = """{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "guard check # hookweave:guard/one-strike",
            "timeout": 5
          }
        ]
      }
    ]
  }
}
"""

COPILOT_OURS = """{
  "hooks": {
    "preToolUse": [
      {
        "type": "command",
        "bash": "guard check # hookweave:guard/one-strike",
        "powershell": "guard check # hookweave:guard/one-strike",
        "matcher": "bash",
        "timeoutSec": 5
      }
    ]
  },
  "version": 1
}
"""

# The administrator's drop-ins: odd spacing, non-ASCII, no trailing newline in one.
CLAUDE_FLEET = ('{"env": {"ÉQUIPE": "sécurité"},\n "hooks":{"Stop":[{"hooks":[{"type":"command",'
                '"command":"/opt/a"}]}]}}')
COPILOT_FLEET = '{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"/opt/fleet/audit — équipe"}]}}'


@pytest.fixture
def bundle(write_bundle):
    return lambda version="1.0.0": str(write_bundle(BUNDLE.replace("{version}", version)))


@pytest.fixture
def layer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Per host, its managed drop-in folder (tests/conftest.py's variables), the drop-in and its record."""
    if os.geteuid() != 0:  # hookweave taken for root whoever runs the tests, as test_copilot_policy does
        monkeypatch.setattr(copilot_policy, "ROOT", os.geteuid())
        monkeypatch.setattr(os, "geteuid", lambda: 0)
    folders = {"claude": tmp_path / "managed" / "managed-settings.d", "copilot": tmp_path / "copilot-policy.d"}

    def of(host: str) -> tuple[Path, Path, Path]:
        folder = folders[host]
        return folder, folder / "50-hookweave.json", folder.with_name(folder.name + ".hookweave.json")

    return of


class Hang(Exception):
    pass


@contextlib.contextmanager
def deadline(seconds: float):
    """A command that blocks on a FIFO is a failure here, not a stuck suite."""
    def expire(signum, frame):
        raise Hang()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _tree(root: Path) -> dict[str, tuple]:
    """Every name under ``root``: kind, owner, mode, and the bytes of regular files (FIFOs unread)."""
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            body = Path(path).read_bytes() if stat.S_ISREG(info.st_mode) else (
                os.readlink(path) if stat.S_ISLNK(info.st_mode) else None)
            out[os.path.relpath(path, root)] = (stat.S_IFMT(info.st_mode), info.st_uid, info.st_gid,
                                                stat.S_IMODE(info.st_mode), body)
    return out


@pytest.mark.parametrize("host", ["claude", "copilot"])
def test_a_fifo_among_the_drop_ins_hangs_no_command_and_is_named(run, bundle, layer, host) -> None:
    folder, drop_in, _ = layer(host)
    folder.mkdir(parents=True)
    fleet = folder / "10-fleet.json"
    fleet.write_text(CLAUDE_FLEET if host == "claude" else COPILOT_FLEET)
    fleet.chmod(0o644)
    assert run("install", bundle(), "--host", host, "--scope", "managed").exit_code == 0
    os.mkfifo(folder / "20-pipe.json")
    with deadline(10):
        verify = run("verify", "--host", host, "--scope", "managed")
        status = run("status", "--host", host)
        upgrade = run("install", bundle("1.1.0"), "--host", host, "--scope", "managed")
        uninstall = run("uninstall", "guard", "--host", host, "--scope", "managed")
    pipe = folder / "20-pipe.json"
    if host == "claude":  # Claude stops on a managed file it cannot read as settings: a problem
        assert verify.exit_code == 1, verify.output
        assert (f"  problem: {pipe}: is a FIFO (named pipe), not a regular file; hookweave reads and writes only "
                "regular files: replace it with one (Claude Code refuses to start while a managed settings file does "
                "not parse, and runs no hooks)\n") in verify.stdout
    else:  # Copilot skips it and runs the rest
        assert verify.exit_code == 0, verify.output
        assert f"  note: {pipe}: Copilot CLI skips this policy file, as it is not a regular file\n" in verify.stdout
    state = "1 hook in place, 1 problem above" if host == "claude" else "1 hook ok"  # Claude does not start
    assert f"{host}  managed  guard 1.0.0  {state}  {drop_in}\n" in verify.stdout
    assert f"{host}  managed  guard 1.0.0  (1 hook, 0 env)  {drop_in}\n" in status.stdout
    assert (upgrade.exit_code, uninstall.exit_code) == (0, 0), upgrade.output + uninstall.output
    assert not drop_in.exists() and stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert fleet.read_text() == (CLAUDE_FLEET if host == "claude" else COPILOT_FLEET)


def test_a_root_upgrade_of_a_copilot_drop_in_root_does_not_own_says_so_and_makes_it_roots_0644(run, bundle,
                                                                                                layer) -> None:
    _, drop_in, record = layer("copilot")
    assert run("install", bundle(), "--host", "copilot", "--scope", "managed").exit_code == 0
    os.chown(drop_in, 4321, 4321)  # someone took it over; Copilot now skips it
    drop_in.chmod(0o664)
    upgrade = run("install", bundle("1.1.0"), "--host", "copilot", "--scope", "managed")
    assert upgrade.exit_code == 0, upgrade.output
    assert upgrade.stdout.startswith(
        f"copilot managed {drop_in}: upgraded guard 1.0.0 -> 1.1.0\n"
        f"  warning: {drop_in}: owned by uid 4321 with mode 664, which Copilot CLI may skip or a user may not read; "
        "hookweave gives it to root, mode 644, as a new drop-in is\n"), upgrade.stdout
    info = drop_in.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (copilot_policy.ROOT, os.getegid(), 0o644)
    assert drop_in.read_text() == COPILOT_OURS
    assert run("verify", "--host", "copilot", "--scope", "managed").exit_code == 0
    again = run("install", bundle("1.1.0"), "--host", "copilot", "--scope", "managed")
    assert "warning" not in again.stdout  # root's 0644 already: nothing to say
    assert record.exists()


def test_an_administrators_claude_drop_in_that_does_not_parse_is_named_and_ours_still_reported(run, bundle,
                                                                                                 layer) -> None:
    folder, drop_in, _ = layer("claude")
    folder.mkdir(parents=True)
    assert run("install", bundle(), "--host", "claude", "--scope", "managed").exit_code == 0
    broken = folder / "90-late.json"
    broken.write_text('{"env": {"LATE": "1"},}\n')
    verify = run("verify", "--host", "claude", "--scope", "managed")
    assert verify.exit_code == 1
    assert verify.stdout.startswith(
        "claude (Claude Code)\n"
        f"  problem: {broken}:1:22: trailing comma; remove the comma (Claude Code refuses to "
        "start while a managed settings file does not parse, and runs no hooks)\n"), verify.stdout
    assert f"claude  managed  guard 1.0.0  1 hook in place, 1 problem above  {drop_in}\n" in verify.stdout
    assert "nothing installed" not in verify.stdout
    assert drop_in.read_text() == CLAUDE_OURS


@pytest.mark.parametrize("host", ["claude", "copilot"])
def test_a_managed_folder_that_is_a_dangling_symlink_leaves_nothing_after_uninstall(run, bundle, layer, host,
                                                                                      tmp_path: Path) -> None:
    folder, drop_in, record = layer(host)
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.symlink_to(tmp_path / "fleet" / "layer")  # neither fleet nor layer exists yet
    before = _tree(tmp_path)
    assert run("install", bundle(), "--host", host, "--scope", "managed").exit_code == 0
    assert (tmp_path / "fleet" / "layer" / "50-hookweave.json").read_text() == (
        CLAUDE_OURS if host == "claude" else COPILOT_OURS)
    assert run("verify", "--host", host, "--scope", "managed").exit_code == 0
    assert run("uninstall", "guard", "--host", host, "--scope", "managed").exit_code == 0
    assert not record.exists()
    after = _tree(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith("bundle")} == {
        k: v for k, v in before.items() if not k.startswith("bundle")}


@pytest.mark.parametrize("host", ["claude", "copilot"])
def test_the_drop_in_is_0644_in_0755_folders_whatever_roots_umask(run, bundle, layer, host) -> None:
    folder, drop_in, record = layer(host)
    old = os.umask(0o077)
    try:
        assert run("install", bundle(), "--host", host, "--scope", "managed").exit_code == 0
    finally:
        os.umask(old)
    made = [folder, folder.parent] if host == "claude" else [folder]  # the folders install created
    assert [stat.S_IMODE(f.stat().st_mode) for f in made] == [0o755] * len(made)
    assert stat.S_IMODE(drop_in.stat().st_mode) == 0o644 and stat.S_IMODE(record.stat().st_mode) == 0o644
    assert drop_in.read_text() == (CLAUDE_OURS if host == "claude" else COPILOT_OURS)
    assert run("verify", "--host", host, "--scope", "managed").exit_code == 0


@pytest.mark.parametrize("host", ["claude", "copilot"])
@pytest.mark.parametrize("what", ["drop-in", "folder"])
def test_verify_says_when_a_user_cannot_read_the_drop_in(run, bundle, layer, host, what) -> None:
    folder, drop_in, _ = layer(host)
    assert run("install", bundle(), "--host", host, "--scope", "managed").exit_code == 0
    (drop_in if what == "drop-in" else folder).chmod(0o600 if what == "drop-in" else 0o700)
    verify = run("verify", "--host", host, "--scope", "managed")
    assert verify.exit_code == 1, verify.output
    title = "Claude Code" if host == "claude" else "Copilot CLI"
    why = f"others cannot read it (mode 600)" if what == "drop-in" else f"others cannot read {folder} (mode 700)"
    assert (f"  problem: {drop_in}: {title} runs as the user, who cannot read this drop-in, as {why}, and runs none "
            "of its hooks; chmod 644 it and 755 its folders, or uninstall and install again as root\n") in verify.stdout


@pytest.mark.parametrize("host", ["claude", "copilot"])
@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_a_user_who_is_not_root_is_told_to_run_as_root(run, bundle, layer, host, command, monkeypatch,
                                                       tmp_path: Path) -> None:
    folder, drop_in, _ = layer(host)
    source = bundle()
    folder.mkdir(parents=True)
    folder.chmod(0o755)
    if command == "uninstall":
        assert run("install", source, "--host", host, "--scope", "managed").exit_code == 0
    before = _tree(tmp_path)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)  # root's folder, and a user's run
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: mode in (os.F_OK, os.R_OK, os.X_OK))
    args = ["guard"] if command == "uninstall" else [source]
    result = run(command, *args, "--host", host, "--scope", "managed")
    assert result.exit_code == 1
    if host == "copilot" and command == "install":  # Copilot's own reason comes first: it loads root's files only
        assert result.stderr == f"hooks: {drop_in}: {copilot_policy.NEEDS_ROOT}\n"
    else:
        assert result.stderr == (f"hooks: {folder}: the folder is root's, and hookweave runs as uid 1000; "
                                 "run as root (sudo), or choose another scope\n")
    assert _tree(tmp_path) == before


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root, to become another user")
@pytest.mark.parametrize("host", ["claude", "copilot"])
def test_a_real_user_who_is_not_root_is_told_to_run_as_root(host, monkeypatch, write_bundle) -> None:
    """The same, as uid 65534 for real (a forked child after os.setuid), in folders it may enter."""
    import json
    import shutil
    import tempfile

    from typer.testing import CliRunner

    from hookweave.core.cli.app import app

    base = Path(tempfile.mkdtemp(prefix="hookweave-managed-"))
    try:
        base.chmod(0o755)
        home, project = base / "home", base / "project"
        for folder in (home, project):
            folder.mkdir()
            os.chown(folder, 65534, 65534)
        folder = base / "managed" / "managed-settings.d" if host == "claude" else base / "policy.d"
        folder.mkdir(parents=True, mode=0o755)
        source = write_bundle(BUNDLE.replace("{version}", "1.0.0"))
        shutil.copytree(source, base / "bundle")
        for name, value in {"HOME": home, "CLAUDE_CONFIG_DIR": home / ".claude", "COPILOT_HOME": home / ".copilot",
                            "XDG_CACHE_HOME": home / ".cache", "HOOKWEAVE_CLAUDE_MANAGED_DIR": base / "managed",
                            "HOOKWEAVE_COPILOT_POLICY_DIR": base / "policy.d"}.items():
            monkeypatch.setenv(name, str(value))
        monkeypatch.chdir(project)
        args = ["install", str(base / "bundle"), "--host", host, "--scope", "managed"]
        runner = CliRunner()
        assert runner.invoke(app, [*args, "--dry-run"]).exit_code == 0  # as root: every module the child needs loaded
        before = _tree(base)
        read, write = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover - the child reports through the pipe
            try:
                os.close(read)
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
                result = runner.invoke(app, args)
                os.write(write, json.dumps([result.exit_code, result.stderr]).encode())
            finally:
                os._exit(0)
        os.close(write)
        os.waitpid(child, 0)
        with os.fdopen(read) as pipe:
            code, stderr = json.loads(pipe.read())
        if host == "claude":
            assert (code, stderr) == (1, f"hooks: {folder}: the folder is root's, and hookweave runs as uid 65534; run "
                                         "as root (sudo), or choose another scope\n")
        else:
            assert (code, stderr) == (1, f"hooks: {folder}/50-hookweave.json: {copilot_policy.NEEDS_ROOT}\n")
        assert _tree(base) == before
    finally:
        shutil.rmtree(base, ignore_errors=True)


CHAINED = BUNDLE.replace('version = "{version}"\n', 'version = "{version}"\norder = "chain"\n') + """
[[hooks]]
id = "two-strike"
event = "pre_tool_use"
command = "guard check --twice"
"""


@pytest.mark.parametrize("host", ["claude", "copilot"])
def test_a_chained_bundles_runner_in_the_managed_layer_is_readable_and_never_taken_for_taken_over(
        run, write_bundle, layer, host) -> None:
    folder, drop_in, _ = layer(host)
    old = os.umask(0o077)
    try:
        first = run("install", str(write_bundle(CHAINED.replace("{version}", "1.0.0"))), "--host", host,
                    "--scope", "managed")
        again = run("install", str(write_bundle(CHAINED.replace("{version}", "1.1.0"))), "--host", host,
                    "--scope", "managed")
    finally:
        os.umask(old)
    assert (first.exit_code, again.exit_code) == (0, 0), first.output + again.output
    assert "warning" not in first.stdout + again.stdout
    made = sorted(p.name for p in folder.iterdir())
    # every file there, the runner included while it sits beside the drop-in (issue 33 item 1 may move it)
    assert {p: stat.S_IMODE((folder / p).stat().st_mode) & 0o444 for p in made} == {p: 0o444 for p in made}


def test_a_failed_upgrade_gives_a_taken_over_drop_in_its_owner_and_mode_back(run, bundle, layer, monkeypatch,
                                                                              tmp_path: Path) -> None:
    """Nothing written on 1: a drop-in given to root in a run whose later write fails is put back
    with its text, and its owner, group and mode too."""
    import errno

    from hookweave.core.files import fileio

    _, drop_in, record = layer("copilot")
    assert run("install", bundle(), "--host", "copilot", "--scope", "managed").exit_code == 0
    os.chown(drop_in, 4321, 4322)
    drop_in.chmod(0o664)
    upgrade = bundle("1.1.0")
    before = _tree(tmp_path)
    real_write = fileio.write_text

    def failing(path, text, expected, **kw):
        if path == record and text != expected:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real_write(path, text, expected, **kw)

    monkeypatch.setattr(fileio, "write_text", failing)
    result = run("install", upgrade, "--host", "copilot", "--scope", "managed")
    assert result.exit_code == 1, result.output
    assert result.stderr.endswith("every file was put back as it was\n")
    info = drop_in.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (4321, 4322, 0o664)
    assert _tree(tmp_path) == before
