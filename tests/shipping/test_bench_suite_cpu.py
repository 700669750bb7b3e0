"""bench/suite_cpu.py, the suite's CPU profile (docs/speed.md): each test's own CPU and its waited programs'
are counted on the test that spent them, and the table sums them by folder and by file."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"

BURN = "import time\nend = time.process_time() + {s}\nwhile time.process_time() < end: pass\n"


def test_each_test_is_charged_its_own_and_its_programs_cpu(tmp_path: Path) -> None:
    tests = tmp_path / "tests" / "spin"
    tests.mkdir(parents=True)
    (tests / "test_burn.py").write_text(
        "import subprocess, sys, time\n\n"
        "def test_program():\n"
        f"    subprocess.run([sys.executable, '-c', {BURN.format(s=0.6)!r}], check=True)\n\n"
        "def test_itself():\n"
        "    end = time.process_time() + 0.3\n"
        "    while time.process_time() < end: pass\n\n"
        "def test_idle():\n"
        "    time.sleep(0.2)\n")
    out = tmp_path / "cpu"
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-p", "suite_cpu",
                          "-c", os.devnull, "--rootdir", str(tmp_path), "tests/spin/test_burn.py"], cwd=tmp_path,
                         capture_output=True, text=True,
                         env={**{k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"},  # ours, not an xdist worker's
                              "PYTHONPATH": str(BENCH), "HOOKWEAVE_CPU_OUT": str(out)})
    assert ran.returncode == 0, ran.stdout + ran.stderr
    rows = {json.loads(line)["id"].split("::")[1]: json.loads(line) for line in (out / "main.jsonl").open()}
    assert set(rows) == {"test_program", "test_itself", "test_idle"}
    assert rows["test_program"]["children"] >= 0.55 and rows["test_program"]["self"] < 0.3
    assert rows["test_itself"]["self"] >= 0.28 and rows["test_itself"]["children"] < 0.05
    assert rows["test_idle"]["self"] + rows["test_idle"]["children"] < 0.1 and rows["test_idle"]["wall"] >= 0.2

    shown = subprocess.run([sys.executable, str(BENCH / "suite_cpu.py"), str(out), "--depth", "3"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    assert shown[0].startswith("3 tests, 1 s of CPU")
    place, n, cpu = shown[2].split()[:3]
    assert (place, n) == ("tests/spin/test_burn.py", "3") and 0.85 <= float(cpu) < 1.3
