"""One read per file per command (issue 38): the plan, the gates and the cross-agent check meet the
same settings files, and read each from disk once; a file changed on disk, or written by the
command itself, is read again.

Each command runs in a fresh ``python`` as ``hooks`` runs it (``entry.main``); the probe counts
the files opened and read (``os.open`` then ``os.read``, as ``fileio`` reads) and writes the counts
from an ``atexit`` function.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import atexit, collections, json, os, sys
sys.argv = ["hooks", *json.loads(sys.argv[1])]
read = collections.Counter()
files, real_open, real_read = {{}}, os.open, os.read
def opening(path, flags, *args, **kwargs):
    fd = real_open(path, flags, *args, **kwargs)
    files[fd] = os.fspath(path)
    return fd
def reading(fd, size):
    path = files.pop(fd, None)  # each opened file counted once, on its first read
    if path is not None:
        read[path] += 1
    return real_read(fd, size)
os.open, os.read = opening, reading
atexit.register(lambda: open({out!r}, "w").write(json.dumps(read)))
from hookweave.core.cli.entry import main
main()
"""


def reads(project: Path, tmp_path: Path, *argv: str) -> dict[str, int]:
    """``{path: times opened for reading}`` of one run of ``hooks *argv`` in ``project``."""
    out = tmp_path / "reads.json"
    done = subprocess.run([sys.executable, "-c", PROBE.format(out=str(out)), json.dumps(argv)], cwd=project,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


@pytest.fixture
def installed(run, project: Path, home: Path) -> Path:
    """example-guard in the project's Claude settings, beside a user settings file of the operator's."""
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text('{"env": {"GREETING": "hi"}}\n', encoding="utf-8")
    result = run("install", "example-guard", "--host", "claude")
    assert result.exit_code == 0, result.output
    return project


@pytest.mark.parametrize("argv", [["verify", "--host", "claude"], ["status"],
                                  ["install", "example-guard", "--host", "claude"]])
def test_an_everyday_command_reads_each_settings_file_once(installed, home, tmp_path, argv):
    read = reads(installed, tmp_path, *argv)
    assert str(installed / ".claude" / "settings.hookweave.json") in read  # the probe saw the command read
    assert {path: n for path, n in read.items() if n > 1} == {}


def test_a_command_keeps_no_text_for_the_next(run, project):
    """Commands run one after another in one process (an API user, these tests) read afresh: the
    second install sees the record the first wrote and writes nothing, and an operator's edit
    between two verifies is seen by the second."""
    first = run("install", "example-guard", "--host", "claude")
    assert first.exit_code == 0, first.output
    settings = project / ".claude" / "settings.json"
    written = settings.read_text(encoding="utf-8")
    second = run("install", "example-guard", "--host", "claude")
    assert second.exit_code == 0 and "nothing written" in second.output, second.output
    assert settings.read_text(encoding="utf-8") == written
    assert run("verify", "--host", "claude").exit_code == 0
    with settings.open("r+", encoding="utf-8") as same_file:  # in place, as an editor may save it
        same_file.write(written.replace("example-guard", "example-guarb", 1))
    assert run("verify", "--host", "claude").exit_code == 1


OPERATORS = """{
  // the operator's own, kept byte for byte
  "env": {"KEEP": "1"},
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]},
  "model": "opus"   ,
}
"""


def test_within_a_command_an_edited_file_is_read_again(tmp_path: Path) -> None:
    """Inside one command: a second read gives the text kept from the first; the operator's edit of
    the same size, in place (same inode, another mtime), is read again, whole; so is our own write."""
    from hookweave.core.files import fileio

    path = tmp_path / "settings.json"
    path.write_text(OPERATORS, encoding="utf-8")
    with fileio.one_read_per_file():
        first = fileio.read_text(path)
        assert first == OPERATORS and fileio.read_text(path) is first
        edited = OPERATORS.replace("say done", "say DONE")
        with path.open("r+", encoding="utf-8") as same_file:  # in place: same inode, same size
            same_file.write(edited)
        stamp = path.stat().st_mtime_ns + 2_000_000_000  # a clock tick apart, whatever the filesystem's
        os.utime(path, ns=(stamp, stamp))
        assert fileio.read_text(path) == edited
        ours = edited.replace('"opus"   ,', '"opus",')
        fileio.write_text(path, ours, expected=edited)
        assert fileio.read_text(path) == ours and path.read_text(encoding="utf-8") == ours


def test_a_realpath_is_asked_once_per_command_and_again_after_a_write(tmp_path, monkeypatch):
    """``readcontext.realpath``: kept within one command (``one_read_per_file``), forgotten with the
    texts (``forget_reads``, a write of ours) and at the command's end; outside one, asked each time."""
    from hookweave.core.files import readcontext

    (tmp_path / "a").mkdir()
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "a")
    asked = []
    real = os.path.realpath
    monkeypatch.setattr(os.path, "realpath", lambda p: asked.append(p) or real(p))
    assert readcontext.realpath(link / "f") == str(tmp_path / "a" / "f") and len(asked) == 1
    readcontext.realpath(link / "f")
    assert len(asked) == 2  # no command: not kept
    with readcontext.one_read_per_file():
        for _ in range(3):
            assert readcontext.realpath(link / "f") == str(tmp_path / "a" / "f")
        assert len(asked) == 3
        link.unlink()
        (tmp_path / "b").mkdir()
        link.symlink_to(tmp_path / "b")
        readcontext.forget_reads()
        assert readcontext.realpath(str(link / "f")) == str(tmp_path / "b" / "f") and len(asked) == 4
        with readcontext.one_read_per_file():  # a nested command keeps the outer's
            readcontext.realpath(link / "f")
        readcontext.realpath(link / "f")
        assert len(asked) == 4
    readcontext.realpath(link / "f")
    assert len(asked) == 5
