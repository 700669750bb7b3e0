"""The entry point ends the process without the interpreter's teardown (``core/entry.finish``).

What anyone can observe must stay as a normal exit gives it: every command's exit code, stdout,
stderr and files are compared, whole, with the same command run through a normal interpreter exit;
``atexit`` functions run and streams are flushed; the normal exit is kept where it decides something.
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hookweave.core.cli import entry

HOOKS = str(Path(sys.executable).parent / "hooks")
NORMAL_EXIT = "import sys; sys.argv[0] = 'hooks'; from hookweave.core.cli.app import main; main()"

GUARD = """\
[bundle]
name = "guard"
version = "1.0.0"

[[hooks]]
id = "no-rm"
event = "pre_tool_use"
matcher = ["shell"]
command = ["sh", "-c", "exit 0"]

[env]
GUARD_LEVEL = { value = "2" }
"""

MINE = '{\n  "model":   "opus",\n  "permissions": {"allow": ["Bash(ls)"]}\n}\n'
BROKEN = '[bundle]\nname = "broken"\nversion = "1.0.0"\n\n[[hooks]]\nid = "x"\nevent = "nope"\ncommand = ["true"]\n'


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _run(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout, done.stderr


SCRIPT = [
    ["--help"],
    ["install", "BUNDLE", "--host", "claude", "--host", "codex", "--host", "gemini", "--dry-run"],
    ["install", "BUNDLE", "--host", "claude", "--host", "codex", "--host", "gemini"],
    ["install", "BUNDLE", "--host", "claude", "--host", "codex", "--host", "gemini"],
    ["install", "example-guard", "--host", "cursor"],
    ["status"],
    ["status", "--json"],
    ["verify", "--host", "all"],
    ["verify", "--host", "claude", "--json"],
    ["install", "BROKEN", "--host", "claude"],
    ["install", "BUNDLE", "--host", "nosuchhost"],
    ["instal"],
    ["uninstall", "guard", "--host", "claude", "--host", "codex", "--host", "gemini"],
    ["uninstall", "example-guard", "--host", "cursor"],
    ["verify"],
]


def test_every_command_prints_exits_and_writes_as_with_a_normal_exit(tmp_path, write_bundle):
    bundle, broken = write_bundle(GUARD), write_bundle(BROKEN)
    fast, normal = tmp_path / "fast", tmp_path / "normal"
    for side in (fast, normal):
        side.mkdir()
        (side / ".claude").mkdir()
        (side / ".claude" / "settings.json").write_text(MINE)
    home = Path.home()
    for args in SCRIPT:
        args = [{"BUNDLE": str(bundle), "BROKEN": str(broken)}.get(a, a) for a in args]
        before = _files(home)
        got = _run([HOOKS, *args], fast)
        after_fast = _files(home)
        for path in set(after_fast) - set(before):  # user-scope files: the normal run starts from the same state
            (home / path).unlink()
        for path, data in before.items():
            (home / path).write_bytes(data)
        want = _run([sys.executable, "-c", NORMAL_EXIT, *args], normal)
        assert got == want, args
        assert _files(home) == after_fast, args
        assert _files(fast) == _files(normal), args
    assert _files(fast)[".claude/settings.json"] == MINE.encode()


def test_a_closed_pipe_ends_as_with_a_normal_exit(tmp_path):
    """Output into a pipe nobody reads: the same status and stderr as the interpreter's own exit."""
    def closed_pipe(argv):
        child = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        child.stdout.close()
        err = child.stderr.read()
        return child.wait(timeout=60), err

    assert closed_pipe([HOOKS, "--help"]) == closed_pipe([sys.executable, "-c", NORMAL_EXIT, "--help"])


class Ended(Exception):
    pass


@pytest.fixture
def ends(monkeypatch):
    """``os._exit`` recorded instead of ending the test run."""
    codes: list[int] = []

    def fake_exit(code):
        codes.append(code)
        raise Ended

    monkeypatch.setattr(entry.os, "_exit", fake_exit)
    return codes


@pytest.mark.parametrize("code, status", [(None, 0), (0, 0), (1, 1), (2, 2), (130, 130), (256, 0), (-1, 255), (True, 1)])
def test_exit_codes_are_the_interpreters(ends, code, status):
    with pytest.raises(Ended):
        entry.finish(code)
    assert ends == [status]


def test_atexit_functions_run_and_streams_are_flushed_before_the_end(ends, monkeypatch):
    order: list[str] = []

    class Stream:
        def __init__(self, name):
            self.name = name

        def flush(self):
            order.append(f"flush {self.name}")

    monkeypatch.setattr(sys, "stdout", Stream("out"))
    monkeypatch.setattr(sys, "stderr", Stream("err"))
    monkeypatch.setattr(atexit, "_run_exitfuncs", lambda: order.append("atexit"))
    with pytest.raises(Ended):
        entry.finish(0)
    assert order == ["flush out", "flush err", "atexit", "flush out", "flush err"]


def test_a_registered_atexit_function_runs_in_the_real_command(tmp_path):
    """Through the real script: a plugin's atexit function (coverage registers one) still runs."""
    marker = tmp_path / "ran"
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        f"import atexit\natexit.register(lambda: open({str(marker)!r}, 'w').write('yes'))\n")
    env = {**__import__("os").environ, "PYTHONPATH": str(site)}
    done = subprocess.run([HOOKS, "--help"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("Usage: hooks")
    assert marker.read_text() == "yes"


@pytest.mark.parametrize("code", ["hooks: a message", 3.5, [1]])
def test_a_code_that_is_not_a_number_takes_the_normal_exit(ends, code):
    with pytest.raises(SystemExit) as done:
        entry.finish(code)
    assert done.value.code == code and ends == []


def test_a_stream_that_cannot_be_flushed_takes_the_normal_exit(ends, monkeypatch):
    class Closed:
        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    with pytest.raises(SystemExit) as done:
        entry.finish(0)
    assert done.value.code == 0 and ends == []


def test_a_running_thread_takes_the_normal_exit(ends):
    release = threading.Event()
    worker = threading.Thread(target=release.wait, daemon=False)
    worker.start()
    try:
        with pytest.raises(SystemExit) as done:
            entry.finish(1)
        assert done.value.code == 1 and ends == []
    finally:
        release.set()
        worker.join()
    daemon = threading.Thread(target=release.wait, daemon=True)  # a daemon is not waited for
    release.clear()
    daemon.start()
    try:
        with pytest.raises(Ended):
            entry.finish(1)
        assert ends == [1]
    finally:
        release.set()
        daemon.join()


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a shell")
def test_output_is_complete_when_the_command_is_piped(tmp_path):
    """Buffered output reaches a pipe whole before the process ends (a reader sees every line)."""
    got = subprocess.run(f"'{HOOKS}' --help | cat", shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    want = _run([sys.executable, "-c", NORMAL_EXIT, "--help"], tmp_path)
    assert (got.returncode, got.stdout, got.stderr) == want


def test_an_ascii_locale_prints_as_with_a_normal_exit(tmp_path, write_bundle):
    """With ``LC_ALL=C`` click writes through its own wrapper of stdout: still flushed, byte for byte."""
    import os

    bundle = write_bundle(GUARD.replace('value = "2"', 'value = "grüß ☕"'))
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    env.pop("PYTHONIOENCODING", None)
    sides = {}
    for side in ("fast", "normal"):
        project = tmp_path / side / "prøject"
        project.mkdir(parents=True)
        sides[side] = project
    for args in (["install", str(bundle), "--host", "claude"], ["status"], ["verify", "--host", "claude"],
                 ["status", "--json"], ["uninstall", "guard", "--host", "claude"]):
        got = subprocess.run([HOOKS, *args], cwd=sides["fast"], env=env, capture_output=True, timeout=60)
        want = subprocess.run([sys.executable, "-c", NORMAL_EXIT, *args], cwd=sides["normal"], env=env,
                              capture_output=True, timeout=60)
        assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr), args
        assert got.returncode in (0, 1) and got.stdout, args


def test_a_stop_while_typer_builds_the_command_is_quiet():
    """Found by the stop-signals attack in CI: a ^C while typer built the command (inspecting its
    parameters) printed Python's traceback; it is a quiet stop, exit 130, as during the imports."""
    code = ("import hookweave.core.cli.app as app\n"
            "def building():\n    raise KeyboardInterrupt\n"
            "app.main = building\n"
            "from hookweave.core.cli import entry\nentry.main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "hooks: stopped; nothing written\n")
