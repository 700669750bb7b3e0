"""Attack on ``hooks check`` with hostile hooks and payload files (issue 22, class 2).

Hooks that misbehave as processes, run by ``hookrun.run`` as check runs them and, for a sample,
through the real ``hooks check --hand-written`` CLI: a background child that holds stdout, a
``setsid`` child, a double-forked daemon, one that ignores SIGTERM, one that closes its output and
goes on, 300 MB of output, a 4 MB line with no newline, invalid UTF-8, an exit by a signal, a hook
that leaves its process group, one that never reads a 2 MB payload. Invariants:
- the run ends within its timeout plus ``GRACE`` plus 3 s, and the time it reports is the time it
  took (within 0.5 s): never 0.01 s for a run that held check 10 s;
- a hook whose leftover child holds its output is said so (``held``), and the children left in its
  process group are gone afterwards;
- output is kept up to ``KEEP`` and the rest counted; the CLI exits 0 or 1 with no traceback.
Payload files: lone surrogates, ``NaN``, 100,000-deep nesting, invalid UTF-8, a BOM, an array, a
number as the event: each runs, or is refused in one line with exit 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hookweave.core.runtime import hookrun
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
CASES = attack_size(12, 120)
# name: (command, what the run must say: "held", "timeout" or "")
HOSTILE = {
    "background-holder": ("(sleep 20; echo late) & echo '{}'; exit 0", "held"),
    "setsid-holder": ("setsid sh -c 'sleep 20; echo late' & exit 0", "held"),
    "daemon-holder": ("( (sleep 20; echo late) & ) ; exit 0", "held"),
    "ignores-term": ("trap '' TERM; sleep 30", "timeout"),
    "closes-output": ("exec 1>&- 2>&-; sleep 30", "timeout"),
    "floods": ("head -c 300000000 /dev/zero", ""),
    "long-line": ("head -c 4000000 /dev/zero | tr '\\0' a", ""),
    "invalid-utf8": ("printf '\\377\\376{'; printf '\\355\\240\\200' >&2; exit 0", ""),
    "by-signal": ("kill -9 $$", ""),
    "leaves-group": ("exec setsid -w sleep 30", "timeout"),
    "never-reads": ("sleep 0.2; exit 0", ""),
    "quick": ("exit 0", ""),
}
TIMEOUT = 2.0
# The flood's 300 MB must be read and counted, never timed out: at the 2 s the others get, a machine
# at load 14-20 (a suite, a bench and the attacks at once) once made it time out, which says nothing
# of the reader. It gets the time of a busy machine; the others keep 2 s, which their cases are about.
FLOOD_TIMEOUT = 10.0
GRACE = getattr(hookrun, "GRACE", 1.0)  # seconds check reads on after a hook exits


def _alive(pattern: str) -> bool:
    return subprocess.run(["pgrep", "-f", pattern], capture_output=True).returncode == 0


def test_hostile_hooks_end_on_time_and_say_how_long_they_took(tmp_path: Path, attack_report) -> None:
    rng = random.Random(22)
    names = list(HOSTILE)
    failures: list[str] = []
    for index in range(CASES):
        name = names[index] if index < len(names) else rng.choice(names)
        tag = f"sleep 20.{os.getpid()}{index:03d}"  # a sleep no other process runs
        command = HOSTILE[name][0].replace("sleep 20", tag)
        payload = b"x" * (2_000_000 if name == "never-reads" else 200)
        timeout = FLOOD_TIMEOUT if name == "floods" else TIMEOUT
        start = time.monotonic()
        run = hookrun.run("claude", command, payload, dict(os.environ), tmp_path, timeout)
        took = time.monotonic() - start
        where = f"case {index} {name}"
        expected = HOSTILE[name][1]
        if took > timeout + GRACE + 3:
            failures.append(f"{where}: took {took:.1f} s")
        if abs(run.seconds - took) > 0.5:
            failures.append(f"{where}: reported {run.seconds:.2f} s, took {took:.2f} s")
        held = getattr(run, "held", False)
        if (expected == "held") != held or (expected == "timeout") != run.timed_out:
            failures.append(f"{where}: held {held}, timed out {run.timed_out}, expected {expected or 'neither'}")
        if len(run.stdout) > hookrun.KEEP or (name == "floods" and run.dropped != 300_000_000 - hookrun.KEEP):
            failures.append(f"{where}: kept {len(run.stdout)}, dropped {run.dropped}")
        if name == "background-holder" and _alive(tag):
            failures.append(f"{where}: the child left in its process group still runs")
    attack_report("hooks check with hostile hooks", cases=CASES, failures=len(failures))
    assert not failures, "\n".join(failures)


@pytest.mark.skipif(not hasattr(__import__("fcntl"), "F_GETPIPE_SZ"), reason="pipe sizes are Linux's")
def test_a_flood_is_read_through_a_wide_pipe(tmp_path: Path) -> None:
    """The 300 MB flood timed out once at load 14-20: through a 64 KiB pipe hook and reader take ~4,500
    turns; the hook's stdout and stderr are 1 MiB pipes, as wide as Linux lets anyone ask."""
    ask = "import fcntl, sys; print(fcntl.fcntl(1, fcntl.F_GETPIPE_SZ), fcntl.fcntl(2, fcntl.F_GETPIPE_SZ))"
    run = hookrun.run("claude", f"{sys.executable} -c '{ask}'", b"{}", dict(os.environ), tmp_path, 10.0)
    assert (run.exit_code, run.stdout) == (0, b"1048576 1048576\n"), run


@pytest.mark.parametrize("name", ["background-holder", "setsid-holder", "daemon-holder", "floods"])
def test_check_cli_on_a_hostile_hook_reports_the_real_time(run, project: Path, name: str) -> None:
    payload = project / "p.json"
    payload.write_text(json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                                   "tool_input": {"command": "ls"}}), encoding="utf-8")
    start = time.monotonic()
    result = run("check", "--hand-written", HOSTILE[name][0], "--event", "PreToolUse", "--host", "claude",
                 "--payload", str(payload), "--json")
    took = time.monotonic() - start
    assert result.exit_code in (0, 1), result.output
    assert took < GRACE + 4, took
    doc = json.loads(result.stdout)
    runs = [o for h in doc["hooks"] for o in h["runs"]]
    assert len(runs) == 1
    reported = runs[0]["seconds"]
    assert abs(reported - took) < 1.5, (reported, took)
    names = [p["name"] for h in doc["hooks"] for p in h["pitfalls"]]
    assert ("output-held" in names) == (HOSTILE[name][1] == "held"), names


PAYLOADS = {
    "lone-surrogate": '{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "\\ud800 \\udfff"}}',
    "nan": '{"hook_event_name": "PreToolUse", "x": NaN}',
    "deep": "[" * 100_000,
    "deep-object": '{"hook_event_name": "PreToolUse", "a": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "bom": '\ufeff{"hook_event_name": "PreToolUse"}',
    "array": "[1, 2]",
    "number-event": '{"hook_event_name": 5}',
    "control": '{"hook_event_name": "PreToolUse", "tool_input": {"command": "\\u0000\\u001b[31m"}}',
}


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_hostile_payload_files_run_or_are_refused_in_one_line(run, project: Path, name: str) -> None:
    path = project / f"{name}.json"
    path.write_text(PAYLOADS[name], encoding="utf-8")
    for extra in ([], ["--json"]):
        result = run("check", "--hand-written", "cat >/dev/null; exit 0", "--event", "PreToolUse", "--host", "claude",
                     "--payload", str(path), *extra)
        assert result.exit_code in (0, 1, 2), result.output
        assert "Traceback" not in result.output
        if result.exit_code == 2:
            assert result.stderr.count("\n") == 1 and result.stderr.startswith("hooks: "), result.stderr
