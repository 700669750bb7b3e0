"""What hookweave's programs in the agent's path cost per event: a chain, and Cline's dispatcher.

Each figure is the median wall time of starting the commands the way a host does (``bash -c``
per registration, one after another), for a PreToolUse payload on stdin, against the same hooks
run directly (one registration each):

- ``python3 -c pass``: the yardstick the issue names;
- a chain of 3 trivial hooks as one registration: the sh fast path (``sh <runner.sh>``, issue 24),
  with and without a matcher to read, and the Python runner (``python3 -S``), as Copilot's run;
  the same for 3 hook scripts (``#!/bin/sh``, reading the payload), the members real bundles have;
- a member answering in JSON: last (its answer goes to the host as it is, no Python) and first (the
  sh path hands its answer to the Python runner, which loads the shared protocol table);
- Cline's dispatcher (``python3 -S`` behind an sh line) running 3 trivial hooks;
- the same on bundles with matchers (issue 38): each member matching a list of names (``Bash|Write``),
  an anchored one (``^(Bash|Write)$``), and Cline's ``shell`` (``run_commands|execute_command``, on
  Cline's own payload), which the sh path decides without Python.

The rows run round robin (one run of each, then the next round, each round in a new order), so a
moment of load weighs on every row alike, and so does what a row leaves running (an sh chain's ticker
wakes 0.1 s after its chain to remove the scratch files: in a fixed order it fell on the same rows
each round, and one runner text measured twice in the same rounds read +1.5 and +3.9 ms); and,
unless ``--alone``, with a second process spinning on a core for the whole run, as the targets are
set under load (<= 2 ms added per chained event, <= 10 ms with a JSON member, Cline <= 5 ms).

``--against REV`` adds a twin of each sh and Cline row run with REV's sh text (``core/standalone/chainrun.sh``
at that commit; the host facts and the Python runner are this tree's), in the same rounds: a before and
after measured at the same moments, which a machine under shifting load cannot give from two runs.

Run: env -u PYTHONDONTWRITEBYTECODE .venv/bin/python bench/chain.py [--runs N] [--alone] [--against REV]
(figures, not assertions; see docs/speed.md. Without ``-u``, a shell that sets PYTHONDONTWRITEBYTECODE
measures stale bytecode.)
"""

from __future__ import annotations

import json
import os
import random
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

from hookweave.core.model import shfacts
from hookweave.core.plan import chain, chainsh

SESSION = "3f2a9c1e-8b7d-4e6f-a5c4-2d1b0e9f8a7c"  # a PreToolUse payload as Claude Code sends one: 391 bytes
PAYLOAD = (json.dumps({"session_id": SESSION, "transcript_path": f"/home/dev/.claude/projects/-home-dev-app/{SESSION}.jsonl",
                       "cwd": "/home/dev/app", "permission_mode": "default", "hook_event_name": "PreToolUse",
                       "tool_name": "Bash", "tool_input": {"command": "ls -la src", "description": "List the sources"},
                       "tool_use_id": "toolu_01ABCDEFGHJKLMNPQRSTUVWX"}) + "\n").encode()


def real_python_first() -> dict[str, str]:
    """PATH with this interpreter's own folder first: a ``python3`` that is a pyenv shim (a shell
    script) costs some 80 ms per start here, which would measure the shim, not the chain."""
    folder = str(Path(sys.executable).resolve().parent)
    return {**os.environ, "PATH": folder + os.pathsep + os.environ.get("PATH", "")}


CLINE_PAYLOAD = json.dumps({"hookName": "PreToolUse", "preToolUse": {"toolName": "execute_command",
                                                                      "parameters": {"command": "ls"}}}).encode()


def once_ms(commands: list[str], payload: bytes) -> tuple[float, float]:
    """Wall time and CPU time (user and system, of every process waited for) in ms."""
    start, used = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    for command in commands:
        subprocess.run(["bash", "-c", command], input=payload, stdout=subprocess.DEVNULL, check=False, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
    return (time.perf_counter() - start) * 1000, cpu * 1000


def timed_rows(rows: list, runs: int) -> list[tuple[float, float, float]]:
    """(median, fastest, median CPU time) of each row over ``runs`` rounds: the fastest shows the cost
    on a machine busy with nothing else; the CPU time, what the processes themselves spent, which a
    queue for the cores does not stretch (the sh runner's ticker, which nobody waits for, is not in it)."""
    times: list[list[float]] = [[] for _ in rows]
    cpus: list[list[float]] = [[] for _ in rows]
    order, shuffle = list(range(len(rows))), random.Random(38).shuffle
    for _ in range(runs):
        shuffle(order)  # each round in another order: what a row leaves behind (an sh chain's ticker
        for at in order:  # wakes 0.1 s later to clean up) falls on every row alike, not on the rows after it
            _, commands, *_, payload = rows[at]
            wall, cpu = once_ms(commands, payload)
            times[at].append(wall)
            cpus[at].append(cpu)
    return [(statistics.median(t), min(t), statistics.median(c)) for t, c in zip(times, cpus)]


ENV = real_python_first()


def main() -> None:
    from hookweave.hosts.cline import dispatcher as cline_dispatcher

    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 41
    against = sys.argv[sys.argv.index("--against") + 1] if "--against" in sys.argv else None
    old_body = None
    if against:
        old_body = subprocess.run(["git", "show", f"{against}:core/standalone/chainrun.sh"], capture_output=True,
                                  text=True, check=True, cwd=Path(__file__).resolve().parent.parent).stdout
    spinner = None if "--alone" in sys.argv else subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        figures = measure(cline_dispatcher, runs, against, old_body)
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()
    print(f"{runs} runs each, round robin in a shuffled order, Python {sys.version.split()[0]}, "
          f"{'alone' if spinner is None else 'a second process spinning'}, load {os.getloadavg()[0]:.1f}: "
          "median / fastest wall time, median CPU time")
    for name, ms, fastest, cpu, base, target in figures:
        extra = ""
        if base is not None:
            added = ms - figures[base][1]
            extra = (f"  ({added:+.1f} / {fastest - figures[base][2]:+.1f} ms, CPU {cpu - figures[base][3]:+.1f} ms"
                     " against them run directly)")
            if target:
                extra += f"  target <= {target} ms: {'met' if added <= target else 'NOT met'}"
        print(f"{name:60} {ms:6.1f} / {fastest:5.1f} ms, CPU {cpu:5.1f} ms{extra}")


def measure(cline_dispatcher, runs: int, against: str | None = None, old_body: str | None = None) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        rows = chain_rows(cline_dispatcher, Path(tmp), chainsh.runner_text("claude"))
        if against:  # the twin of each sh and Cline row, on REV's sh text
            folder = Path(tmp) / "against"
            folder.mkdir()
            with mock.patch.object(shfacts, "body", lambda: old_body):
                twins = chain_rows(cline_dispatcher, folder, shfacts.facts_text() + "\nhw_py=${0%.sh}.py\n"
                               + old_body.replace(chainsh.SHAPES_HERE, shfacts.shapes()))  # as REV's install wrote it
            rows += [(f"{name} [{against}]", *rest) for name, *rest in twins if name.endswith(", sh") or "Cline" in name]
        times = timed_rows(rows, runs)
        return [(name, ms, fastest, cpu, base, target)
                for (name, _, base, target, _), (ms, fastest, cpu) in zip(rows, times)]


def chain_rows(cline_dispatcher, tmp: Path, sh_text: str) -> list:
    """(name, commands, the row it is compared with, target in ms, payload) for each row, in ``tmp``."""
    runner = Path(tmp) / "settings.hookweave-chain.py"
    runner.write_text(chain.runner_text(), encoding="utf-8")
    sh_runner = runner.with_suffix(".sh")
    sh_runner.write_text(sh_text, encoding="utf-8")
    cline = Path(tmp) / "PreToolUse"
    cline.write_text(cline_dispatcher.render("PreToolUse", [{"command": "true", "timeout": 5}] * 3, 0))
    cline_shell = Path(tmp) / "PreToolUse.shell"  # a `shell` matcher: two tool names on Cline
    cline_shell.write_text(cline_dispatcher.render(
        "PreToolUse", [{"command": "true", "timeout": 5, "matcher": "run_commands|execute_command"}] * 3, 0))
    trivial = ["true", "true", "true"]
    script = Path(tmp) / "hook.sh"  # a hook as authors ship one: a #! script that reads the payload
    script.write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n", encoding="utf-8")
    script.chmod(0o755)
    scripts = [shlex.quote(str(script))] * 3
    script_words = " ".join(f"s{i} 5 '' {shlex.quote(c)}" for i, c in enumerate(scripts))
    words = " ".join(f"m{i} 5 '' {c}" for i, c in enumerate(trivial))
    named = " ".join(f"m{i} 5 Bash {c}" for i, c in enumerate(trivial))
    listed = " ".join(f"m{i} 5 'Bash|Write' {c}" for i, c in enumerate(trivial))
    anchored = " ".join(f"m{i} 5 '^(Bash|Write)$' {c}" for i, c in enumerate(trivial))
    script_named = " ".join(f"s{i} 5 '^(Bash|Write)$' {shlex.quote(c)}" for i, c in enumerate(scripts))
    answer = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "x"}})
    printing = "printf %s " + shlex.quote(answer)
    json_member = f"j 5 '' {shlex.quote(printing)}"
    sh, py = f"sh {sh_runner} claude PreToolUse", f"python3 -S {runner} claude PreToolUse"
    json_named = f"j 5 '^(Bash|Write)$' {shlex.quote(printing)}"
    rows = [  # (name, commands, the row it is compared with, target in ms, payload)
        ("python3 -c pass", ["python3 -c pass"], None, None),
        ("3 trivial hooks, directly (3 registrations)", trivial, None, None),
        ("the same 3 as one chain, sh", [f"{sh} {words}"], 1, 2),
        ("the same 3, each matching Bash, chain, sh", [f"{sh} {named}"], 1, 2),
        ("the same 3, each matching Bash|Write, chain, sh", [f"{sh} {listed}"], 1, 2),
        ("the same 3, each matching ^(Bash|Write)$, chain, sh", [f"{sh} {anchored}"], 1, 2),
        ("the same 3 as one chain, python3 -S", [f"{py} {words}"], 1, None),
        ("3 hook scripts (#!/bin/sh), directly", scripts, None, None),
        ("the same 3 scripts as one chain, sh", [f"{sh} {script_words}"], 7, 2),
        ("the same 3 scripts, each ^(Bash|Write)$, chain, sh", [f"{sh} {script_named}"], 7, 2),
        ("the same 3 scripts as one chain, python3 -S", [f"{py} {script_words}"], 7, None),
        ("3 trivial + a JSON answer, directly", trivial + [printing], None, None),
        ("the same, JSON last, chain, sh", [f"{sh} {words} {json_member}"], 11, 10),
        ("the same, JSON first, chain, sh", [f"{sh} {json_member} {words}"], 11, 10),
        ("the same, JSON first, matchers, chain, sh", [f"{sh} {json_named} {anchored}"], 11, 10),
        ("the same, JSON first, chain, python3 -S", [f"{py} {json_member} {words}"], 11, None),
        ("Cline's dispatcher, the 3 trivial hooks", [f"sh {cline}"], 1, 5),
        ("Cline's dispatcher, 3 hooks matching `shell`", [f"sh {cline_shell}"], 1, 5),
    ]
    return [(*row, CLINE_PAYLOAD if "Cline" in row[0] else PAYLOAD) for row in rows]


if __name__ == "__main__":
    main()
