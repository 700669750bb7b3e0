"""Where the test suite's CPU goes: each test's CPU time, its own and its programs', by folder and file.

On two cores the suite's wall time follows its CPU time (the workers are busy 95% of the run), and a
test's wall time under load says more about the machine than about the test. So this counts CPU:
for each test, the worker's own user and system time (the mock model servers are threads of it) and
that of every program it started and waited for (agents, ``hooks``, hooks, ``ansible-playbook``),
from ``getrusage`` before and after the test's set-up, call and tear-down.

As a pytest plugin, writing one JSON line per test into ``HOOKWEAVE_CPU_OUT`` (a folder, a file per
worker)::

    HOOKWEAVE_CPU_OUT=/tmp/cpu PYTHONPATH=bench .venv/bin/pytest -p suite_cpu -p no:randomly

then the table, by folder (``--depth 2``) or by file (``--depth 3``), largest first::

    python3 bench/suite_cpu.py /tmp/cpu --depth 3 --top 30
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import time
from collections import defaultdict
from pathlib import Path

import pytest

_log = None


def _cpu() -> tuple[float, float]:
    own, waited = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, waited.ru_utime + waited.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):  # noqa: ANN001, ANN201 (pytest's hook signature)
    global _log
    folder = os.environ.get("HOOKWEAVE_CPU_OUT")
    if not folder:
        yield
        return
    if _log is None:
        Path(folder).mkdir(parents=True, exist_ok=True)
        _log = open(Path(folder) / f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.jsonl", "a")  # noqa: SIM115
    own0, waited0 = _cpu()
    started = time.monotonic()
    yield
    own1, waited1 = _cpu()
    _log.write(json.dumps({"id": item.nodeid, "wall": round(time.monotonic() - started, 3),
                           "self": round(own1 - own0, 3), "children": round(waited1 - waited0, 3)}) + "\n")
    _log.flush()


def table(rows: list[dict], depth: int) -> list[tuple[str, int, float, float, float]]:
    """(place, tests, CPU, of it the worker's own, wall) per folder or file, most CPU first."""
    sums: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for row in rows:
        place = "/".join(row["id"].split("::")[0].split("/")[:depth])
        entry = sums[place]
        entry[0] += 1
        entry[1] += row["self"] + row["children"]
        entry[2] += row["self"]
        entry[3] += row["wall"]
    return sorted(((place, int(n), cpu, own, wall) for place, (n, cpu, own, wall) in sums.items()),
                  key=lambda line: -line[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--depth", type=int, default=2, help="2: tests/<folder>; 3: a file in it")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    rows = [json.loads(line) for log in sorted(args.folder.glob("*.jsonl")) for line in log.open()]
    lines = table(rows, args.depth)
    print(f"{len(rows)} tests, {sum(line[2] for line in lines):,.0f} s of CPU, "
          f"{sum(line[4] for line in lines):,.0f} s of test time")
    print(f"{'place':52} {'tests':>6} {'CPU s':>8} {'own':>7} {'wall s':>8}")
    for place, n, cpu, own, wall in lines[:args.top]:
        print(f"{place:52} {n:6} {cpu:8.1f} {own:7.1f} {wall:8.1f}")


if __name__ == "__main__":
    main()
