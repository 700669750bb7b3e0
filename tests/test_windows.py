"""Issue 13 case 10, what can be proven on Linux about Windows: without ``fcntl`` the write path
locks with ``msvcrt.locking`` (stood in here by a byte-range lock with the same contract), takes the
portable write path (no ``renameat2``, no ``chattr`` check), and leaves nothing in the operator's
folders. Not proven here: the real msvcrt, NTFS rename semantics, and how each host's shell on
Windows reads our POSIX-quoted commands (README, "Windows")."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

BUNDLE = '[bundle]\nname = "tiny"\nversion = "1.0.0"\n[[hooks]]\nid = "stop-note"\nevent = "stop"\ncommand = "echo bye"\n'
OPERATOR = '{\n    "model": "opus",\n    "permissions": {"allow": ["Bash(ls:*)"]}\n}\n'


@pytest.fixture
def windows(monkeypatch, tmp_path):
    """``sys.platform`` win32, no ``fcntl``, and an ``msvcrt`` whose ``locking`` records its calls."""
    import fcntl

    calls: list[tuple[int, int]] = []

    def locking(fd: int, mode: int, nbytes: int) -> None:
        calls.append((mode, nbytes))
        if mode == fake.LK_NBLCK:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, nbytes)  # raises OSError when held, as msvcrt does

    fake = types.SimpleNamespace(LK_NBLCK=2, LK_LOCK=1, LK_UNLCK=0, locking=locking)
    monkeypatch.setitem(sys.modules, "fcntl", None)  # import fcntl raises ImportError, as on Windows
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("TMPDIR", str(tmp_path / "temp"))
    (tmp_path / "temp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # gettempdir() reads TMPDIR again
    return calls


def test_install_verify_uninstall_without_fcntl(run, project: Path, write_bundle, windows, tmp_path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(OPERATOR)
    result = run("install", str(write_bundle(BUNDLE)), "--host", "claude")
    assert result.exit_code == 0, result.output
    assert result.stdout == ("claude project .claude/settings.json: installed tiny 1.0.0 (1 hook)\n"
                             "Restart running sessions of Claude Code: hooks load at session start.\n")
    assert json.loads(settings.read_text())["hooks"]["Stop"][0]["hooks"][0]["command"] == "echo bye # hookweave:tiny/stop-note"
    assert windows and {mode for mode, _ in windows} == {2}  # a non-blocking byte lock, retried
    locks = sorted(p.suffix for p in (tmp_path / "temp" / "hookweave-locks").iterdir())
    assert locks and set(locks) == {".lock"}  # lock files live in the temp folder ...
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.hookweave.json", "settings.json"]  # ... not here
    assert run("verify", "--host", "claude").exit_code == 0
    assert run("uninstall", "tiny", "--host", "claude").exit_code == 0
    assert settings.read_text() == OPERATOR


def test_a_held_lock_is_waited_for(project: Path, windows, monkeypatch) -> None:
    """The second run waits (LK_NBLCK retried) rather than failing: it gets the lock once released."""
    from hookweave.core.files import filelock

    attempts = {"n": 0}
    real_lock = sys.modules["msvcrt"].locking

    def busy_twice(fd: int, mode: int, nbytes: int) -> None:
        attempts["n"] += 1
        if attempts["n"] <= 2:
            raise OSError(36, "Resource deadlock avoided")  # what msvcrt raises while another process holds it
        real_lock(fd, mode, nbytes)

    monkeypatch.setattr(sys.modules["msvcrt"], "locking", busy_twice)
    with filelock.locked([project / ".claude" / "settings.json"]):
        pass
    assert attempts["n"] >= 3
