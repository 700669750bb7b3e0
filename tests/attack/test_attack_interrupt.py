"""Attack (issue 8): SIGINT, SIGTERM and SIGHUP at random moments of a three-host install or uninstall.

One run writes seven files (Claude, Gemini and Codex settings and records, and Codex's trust file
with ``--trust``). A stop signal lands at a random moment; HOOKWEAVE_TEST_SLOW_WRITE widens each
write so many land inside the write span. Invariants: the seven files are, together, exactly as
before the run or exactly as an uninterrupted run leaves them, never a mix; the exit code says
which (128 + the signal's number with "every file was put back", or the process killed by the
signal before or after the write span, or 0 when the signal came after the run); no traceback but
Python's own for a ^C during start-up; and a rerun, install or uninstall, lands on the exact bytes
of an uninterrupted run.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import attack_size

pytestmark = pytest.mark.attack
HOOKS = str(Path(sys.executable).parent / "hooks")
DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
HOSTS = ["--host", "claude", "--host", "gemini", "--host", "codex"]
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
TEMP = re.compile(r"\..+\.[a-z0-9_]{8}\.hookweave-tmp")


def _args(op: str) -> list[str]:
    return ["install", BUNDLE, *HOSTS, "--trust"] if op == "install" else ["uninstall", "guard", *HOSTS]


def _snapshot(files: list[Path]) -> tuple[bytes | None, ...]:
    return tuple(f.read_bytes() if f.exists() else None for f in files)


def test_stop_signals_leave_all_old_or_all_new_and_a_rerun_converges(project: Path, home: Path, run, attack_report) -> None:
    signals = attack_size(12, 150)
    files = []
    for host, name in (("claude", ".claude/settings.json"), ("gemini", ".gemini/settings.json"), ("codex", ".codex/hooks.json")):
        settings = project / name
        settings.parent.mkdir()
        settings.write_text((DATA / host / "operator.settings.json").read_text(encoding="utf-8"), encoding="utf-8")
        files += [settings, settings.with_name(settings.stem + ".hookweave.json")]
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(f'# trust\n[projects."{project}"]\ntrust_level = "trusted"\n', encoding="utf-8")
    files.append(config)
    folders = sorted({f.parent for f in files})
    env = {**os.environ, "GEMINI_CLI_TRUST_WORKSPACE": "true"}

    old = _snapshot(files)
    took = {}
    for op in ("install", "uninstall"):
        start = time.monotonic()
        done = subprocess.run([HOOKS, *_args(op)], env=env, capture_output=True, text=True, timeout=60)
        took[op] = time.monotonic() - start
        assert done.returncode == 0, done.stderr
        if op == "install":
            new = _snapshot(files)
    assert _snapshot(files) == old
    target = {"install": new, "uninstall": old}

    rng = random.Random(os.environ.get("HOOKWEAVE_ATTACK_SEED", "8"))
    mixed, wrong_exit, tracebacks, startup_tracebacks, not_converged, leftovers = [], [], 0, 0, 0, 0
    traceback_texts = []
    rolled_back = completed = killed = 0
    state = old
    for _ in range(signals):
        op = "install" if state == old else "uninstall"
        slow = rng.choice([0.0, 0.05, 0.1])
        signum = rng.choice(SIGNALS)
        child = subprocess.Popen([HOOKS, *_args(op)], env={**env, "HOOKWEAVE_TEST_SLOW_WRITE": str(slow)},
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0, took[op] + len(files) * slow))
        child.send_signal(signum)
        _, err = child.communicate(timeout=60)
        code = child.returncode
        after = _snapshot(files)
        done = after == target[op]
        if after not in (old, new):
            mixed.append((op, signum.name, code))
        put_back = code == 128 + signum and "every file was put back as it was" in err
        ours = [line for line in err.splitlines() if line.strip().startswith("File") and re.search(r"/(core|hosts)/", line)]
        startup = "Traceback" in err and err.rstrip().endswith("KeyboardInterrupt") and not ours
        allowed = {0, 130, -signum} if done else {128 + signum, 130, -signum} | ({1} if startup else set())
        if code not in allowed or (put_back and done):
            wrong_exit.append((op, signum.name, code, done, err[-200:]))
        startup_tracebacks += startup  # Python's own, for a ^C while it starts, before any hookweave code runs
        tracebacks += "Traceback" in err and not startup
        if "Traceback" in err and not startup:
            traceback_texts.append((op, signum.name, code, err[-1500:]))  # what the assertion shows
        rolled_back += put_back
        completed += done and code != 0
        killed += code < 0

        then = rng.choice(["install", "uninstall"])
        result = run(*_args(then))
        state = _snapshot(files)
        nothing = then == "uninstall" and after == old  # nothing to remove: exit 1 since issue 13, no byte written
        if result.exit_code != (1 if nothing else 0) or state != target[then]:
            not_converged += 1
        leftovers += sum(1 for d in folders if d.is_dir() for f in d.iterdir() if TEMP.fullmatch(f.name))

    attack_report("stop signals", signals=signals, rolled_back=rolled_back, completed_then_stopped=completed,
                  killed_by_signal=killed, mixed_states=len(mixed), wrong_exit_codes=len(wrong_exit),
                  tracebacks=tracebacks, startup_tracebacks=startup_tracebacks, not_converged=not_converged,
                  leftover_temp_files=leftovers)
    assert (mixed, wrong_exit, tracebacks, not_converged, leftovers) == ([], [], 0, 0, 0), traceback_texts
    if signals >= 100:  # at full size the signals must have hit the write span, not only start-up
        assert rolled_back, rolled_back
