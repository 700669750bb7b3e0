"""Attack (issue 5): SIGKILL `hooks install` / `hooks uninstall` at random moments, then run again.

Every kill must leave each file exactly as it was or exactly as the finished run leaves it, never a
settings file with entries that no record knows (install writes a new bundle's record first), no
lock that blocks the next run, and no temp file the next run does not sweep away. The next run,
install or uninstall, must then land on exactly the bytes an uninterrupted run gives.
HOOKWEAVE_TEST_SLOW_WRITE (test-only) stalls each write between its temp file and the swap, so
that many kills land inside the writes rather than in Python's start-up.
"""

from __future__ import annotations

import fcntl
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hookweave.core.errors import Conflict
from hookweave.core.files import fileio
from hookweave.core.formats import jsontext
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
HOOKS = str(Path(sys.executable).parent / "hooks")
DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
SETTINGS = {"claude": ".claude/settings.json", "gemini": ".gemini/settings.json", "codex": ".codex/hooks.json"}
TEMP = re.compile(r"\..+\.[a-z0-9_]{8}\.hookweave-tmp")


def _args(host: str, op: str) -> list[str]:
    return [op, BUNDLE if op == "install" else "guard", "--host", host] + (["--trust"] if op == "install" and host == "codex" else [])


def _snapshot(files: list[Path]) -> tuple[bytes | None, ...]:
    return tuple(f.read_bytes() if f.exists() else None for f in files)


def _same(index: int, a: bytes | None, b: bytes | None) -> bool:
    """The same bytes (settings, record and any trust file alike)."""
    return a == b


def _temps(folders: list[Path]) -> list[Path]:
    return [f for d in folders if d.is_dir() for f in d.iterdir() if TEMP.fullmatch(f.name)]


def _lock_is_free(folder: Path) -> bool:
    """Whether the folder lock can be taken within 5 s (a killed holder's lock is gone at once)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        deadline = time.monotonic() + 5
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.05)
    finally:
        os.close(fd)


@pytest.mark.parametrize("host", ["claude", "gemini", "codex"])
def test_killed_runs_leave_old_or_new_bytes_and_the_next_run_converges(host, project, home, run, attack_report) -> None:
    kills = attack_size(10, 170)
    settings = project / SETTINGS[host]
    settings.parent.mkdir()
    settings.write_text((DATA / host / "operator.settings.json").read_text(encoding="utf-8"), encoding="utf-8")
    files = [settings, settings.with_name(settings.stem + ".hookweave.json")]
    if host == "codex":
        files.append(home / ".codex" / "config.toml")
        files[2].parent.mkdir()
        files[2].write_text(f'# trust\n[projects."{project}"]\ntrust_level = "trusted"\n', encoding="utf-8")
    folders = sorted({f.parent for f in files})
    env = {**os.environ, "GEMINI_CLI_TRUST_WORKSPACE": "true"}

    # What an uninterrupted run writes, and how long one takes (the window the kills aim at).
    old = _snapshot(files)
    took = {}
    for op in ("install", "uninstall"):
        start = time.monotonic()
        done = subprocess.run([HOOKS, *_args(host, op)], env=env, capture_output=True, text=True, timeout=60)
        took[op] = time.monotonic() - start
        assert done.returncode == 0, done.stderr
        if op == "install":
            new = _snapshot(files)
    assert _snapshot(files) == old, "install then uninstall did not give back every byte"
    assert new[0] != old[0] and new[1] is not None and old[1] is None
    target = {"install": new, "uninstall": old}

    torn = unparseable = unrecorded = blocked = leftover = temps_seen = duplicated = 0
    mid_write = 0
    rng = random.Random(os.environ.get("HOOKWEAVE_ATTACK_SEED", "5"))
    state = old
    for _ in range(kills):
        op = "install" if state[0] == old[0] else "uninstall"
        slow = rng.choice([0.0, 0.1])
        child = subprocess.Popen([HOOKS, *_args(host, op)], env={**env, "HOOKWEAVE_TEST_SLOW_WRITE": str(slow)},
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0, took[op] + len(files) * slow))
        child.send_signal(signal.SIGKILL)
        child.wait()

        after = _snapshot(files)
        torn += sum(1 for i, data in enumerate(after) if not (_same(i, data, old[i]) or _same(i, data, new[i])))
        if after[0] is not None:
            try:
                jsontext.parse(after[0].decode("utf-8"), "settings", comments=host == "gemini")
            except Exception:
                unparseable += 1
        is_new = tuple(_same(i, after[i], new[i]) for i in range(len(files)))
        mid_write += len(set(is_new)) > 1  # some files written, some not yet
        if is_new[0] and not is_new[1]:
            unrecorded += 1  # hookweave's entries in the file, and no record of them
        if is_new[1] and not is_new[0]:  # a record ahead of its file: verify says so, with exit 1
            check = run("verify", "--host", host)
            assert check.exit_code == 1 and "missing" in check.output, check.output

        stray = _temps(folders)
        temps_seen += len(stray)
        for path in stray:  # a killed run's temp file, as the next run finds it some seconds later
            past = time.time() - 2 * fileio.STALE_TEMP_SECONDS
            os.utime(path, (past, past))
        blocked += not all(_lock_is_free(folder) for folder in folders)
        then = rng.choice(["install", "uninstall"])
        start = time.monotonic()
        result = run(*_args(host, then))
        blocked += time.monotonic() - start > 5
        # uninstall with no record left (killed before the install's record landed) has nothing to
        # remove: exit 1 since issue 13, and no byte written
        nothing = then == "uninstall" and after[1] is None
        assert result.exit_code == (1 if nothing else 0), (then, is_new, result.output)
        state = _snapshot(files)
        duplicated += state[1] != target[then][1]  # a record whose bytes differ after a rerun
        assert all(_same(i, state[i], target[then][i]) for i in range(len(files))), f"{then} after a killed {op} ({is_new})"
        leftover += len(_temps(folders))

    attack_report("crash kills", kills=kills, torn_files=torn, unparseable=unparseable, blocked_next_runs=blocked,
                  leftover_temp_files=leftover, unrecorded_entries=unrecorded, temp_files_swept=temps_seen,
                  killed_mid_write=mid_write, duplicated_created_pointers=duplicated)
    assert (torn, unparseable, unrecorded, blocked, leftover, duplicated) == (0, 0, 0, 0, 0, 0)
    if kills >= 100:  # at full size the kills must have hit the writes, not only start-up
        assert mid_write and temps_seen, (mid_write, temps_seen)


def test_only_our_old_temp_files_are_swept(tmp_path: Path) -> None:
    tmp_path = tmp_path / "folder"
    tmp_path.mkdir()
    target = tmp_path / "settings.json"
    names = [".settings.json.ab_cd123.hookweave-tmp", ".settings.json.zz9zz9zz.hookweave-tmp",
             ".settings.json.abc.hookweave-tmp", ".settings.json.ab_cd123.hookweave-tmp.keep",
             ".other.json.ab_cd123.hookweave-tmp", "settings.json.ab_cd123.hookweave-tmp"]
    for name in names:
        (tmp_path / name).write_text("x")
    os.symlink(target, tmp_path / ".settings.json.linklink.hookweave-tmp")
    past = time.time() - 60
    for name in names[1:] + [".settings.json.linklink.hookweave-tmp"]:
        os.utime(tmp_path / name, (past, past), follow_symlinks=False)
    assert fileio.remove_stale_temps([target]) == [tmp_path / names[1]]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[:1] + names[2:] + [".settings.json.linklink.hookweave-tmp"])


def test_a_host_save_during_our_swap_is_put_back(tmp_path: Path, monkeypatch) -> None:
    """The window between our last look and the rename: the host's save must win (we plan again)."""
    tmp_path = tmp_path / "folder"
    tmp_path.mkdir()
    path = tmp_path / "settings.json"
    path.write_text('{"a": 1}\n')
    monkeypatch.setattr(fileio, "_test_pause", lambda: path.write_text('{"a": 1, "host": true}\n'))
    with pytest.raises(Conflict):
        fileio.write_text(path, '{"a": 1, "ours": true}\n', expected='{"a": 1}\n')
    assert path.read_text() == '{"a": 1, "host": true}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
    new = tmp_path / "new.json"
    monkeypatch.setattr(fileio, "_test_pause", lambda: new.write_text("{}\n"))
    with pytest.raises(Conflict):
        fileio.write_text(new, '{"ours": true}\n', expected=None)
    assert new.read_text() == "{}\n"
