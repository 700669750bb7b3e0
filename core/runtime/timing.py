"""Each hook's own wall time, over several runs per payload (``hooks check --runs``).

A hook's time does not hang on the host that judges its answer, only on what is started: the
host's shell, the command and the payload. So the runs of one hook are pooled across hosts that
start it the same way (the judged runs count), and only what is short of ``runs`` is run again,
after every judged run (a hook that keeps state cannot change what another host's run judged).
A run that timed out, or a payload whose runs already took ``ENOUGH`` seconds (per ``RUNS`` asked
for), is not run again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from hookweave.core.runtime import hookrun

RUNS = 5  # per payload: the median of five holds against one slow start
SAME_START = ("--norc", "--noprofile")
ENOUGH = 1.0  # seconds per RUNS runs asked for: a hook this slow needs no finer figure, only a slower check


def key(target, payload_name: str, project: Path) -> tuple:
    """What decides a run's time: the shell and command as the host starts them, and the payload.
    ``bash --norc --noprofile -c`` starts as ``bash -c`` does (a shell that is neither interactive
    nor a login shell reads neither file); a login shell (``-lc``) reads the profiles, and is apart."""
    words = hookrun.invocation(target.host, target.command, project)
    return tuple(w for w in words[:-1] if w not in SAME_START) + words[-1:], payload_name


def pooled(done: list, runs: int, project: Path, again: Callable, progress: Callable | None = None) -> list:
    """``done`` (``checking.Checked``) with each outcome's ``times``: its pool of run times, topped up
    to ``runs`` with ``again(target, outcome)``, which runs the hook once more and returns the ``Run``."""
    pool: dict[tuple, list[float]] = {}
    first: dict[tuple, tuple] = {}
    for c in done:
        for o in c.outcomes:
            k = key(c.target, o.payload.name, project)
            pool.setdefault(k, []).append(o.run.seconds)
            first.setdefault(k, (c.target, o))
    todo = {k: runs - len(times) for k, times in pool.items() if not first[k][1].run.timed_out and len(times) < runs}
    total, count, enough = sum(todo.values()), 0, ENOUGH * runs / RUNS
    for k, missing in todo.items():
        for _ in range(missing):
            if sum(pool[k]) >= enough:
                break
            run = again(*first[k])
            pool[k].append(run.seconds)
            count += 1
            if progress is not None:
                progress(f"timing: run {count} of at most {total}")
            if run.timed_out:
                break
    return [c._replace(outcomes=tuple(o._replace(times=tuple(pool[key(c.target, o.payload.name, project)]))
                                      for o in c.outcomes)) for c in done]
