"""scripts/attack resumes a stopped full-size run: an attack is skipped only while the code it ran on is unchanged."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
spec = importlib.util.spec_from_file_location("attack_ledger", REPO / "scripts" / "attack_ledger.py")
ledger = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ledger)

A = "tests/attack/test_attack_a.py::test_one"
A2 = "tests/attack/test_attack_a.py::test_two[x]"
B = "tests/attack/test_attack_b.py::test_three"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in {
        "core/model/merge.py": "x = 1\n", "hosts/claude/host.py": "y = 1\n", "templates/t/hookweave.toml": "",
        "pyproject.toml": "[project]\n", "tests/conftest.py": "", "tests/data/file.json": "{}",
        "tests/attack/test_attack_a.py": "from tests.test_security import X\n", "tests/attack/test_attack_b.py": "b",
        "tests/test_other.py": "o", "tests/test_security.py": "X = 1\n", "tests/fakes.py": "", "tests/plugin/p/p.py": "",
        "tests/e2e/conftest.py": "", "tests/e2e/mock.py": "", "docs/index.md": "",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(ledger, "ROOT", tmp_path)
    return tmp_path


def changed_keys(tree: Path, edit: str) -> set[str]:
    before = ledger.keys([A, A2, B])
    (tree / edit).write_text((tree / edit).read_text() + "# edited\n")
    after = ledger.keys([A, A2, B])
    return {test for test in before if before[test] != after[test]}


@pytest.mark.parametrize("edit, resent", [
    ("core/model/merge.py", {A, A2, B}), ("hosts/claude/host.py", {A, A2, B}), ("templates/t/hookweave.toml", {A, A2, B}),
    ("pyproject.toml", {A, A2, B}), ("tests/conftest.py", {A, A2, B}), ("tests/data/file.json", {A, A2, B}),
    ("tests/attack/test_attack_a.py", {A, A2}), ("tests/attack/test_attack_b.py", {B}),
    ("tests/test_security.py", {A, A2}), ("tests/fakes.py", {A, A2, B}), ("tests/plugin/p/p.py", {A, A2, B}),
    ("tests/test_other.py", set()), ("tests/e2e/conftest.py", set()), ("tests/e2e/mock.py", set()), ("docs/index.md", set()),
])
def test_a_test_runs_again_when_the_code_it_ran_on_changes(tree: Path, edit: str, resent: set[str]) -> None:
    assert changed_keys(tree, edit) == resent


def test_only_a_pass_at_the_current_key_is_skipped_and_only_its_last_run_counts(tree: Path) -> None:
    keyed = ledger.keys([A, A2, B])
    results = [
        {"test": A, "run": "1-0", "key": keyed[A], "outcome": "failed"},
        {"test": A, "run": "2-0", "key": keyed[A], "outcome": "passed"},  # fixed since: passes now
        {"test": A2, "run": "1-0", "key": keyed[A2], "outcome": "passed"},
        {"test": A2, "run": "2-1", "key": keyed[A2], "outcome": "failed"},  # broke since: runs again
        {"test": B, "run": "1-1", "key": "old-code", "outcome": "passed"},  # passed on other code
    ]
    assert ledger.remaining(keyed, results) == [A2, B]
    report = [
        {"attack": "merge", "cases": 10, "failures": 3, "test": A, "run": "1-0", "key": keyed[A]},
        {"attack": "merge", "cases": 10, "failures": 0, "test": A, "run": "2-0", "key": keyed[A]},
        {"attack": "merge", "cases": 5, "failures": 0, "test": B, "run": "1-1", "key": "old-code"},
    ]
    assert ledger.summary(keyed, results, report).splitlines() == [
        "attack tests at this code: 3; passed 1, failed 1, not yet run 1 (0 s of test time in the runs counted)",
        f"  FAILED: {A2}",
        "  merge                              cases 10, failures 0",
    ]


def test_a_stopped_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    """The real script twice on one fast attack: the second run runs nothing and prints the first's figures."""
    fast = "tests/attack/test_attack_orphans.py::test_by_marker_keeps_the_text_byte_for_byte"
    env = {**os.environ, "HOOKWEAVE_ATTACK_OUT": str(tmp_path / "out"), "HOOKWEAVE_ATTACK_JOBS": "1"}
    env.pop("HOOKWEAVE_ATTACK_REPORT", None)
    first = subprocess.run([str(REPO / "scripts" / "attack"), fast], env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stdout + first.stderr
    assert first.stdout.startswith("1 attacks; 1 to run")
    second = subprocess.run([str(REPO / "scripts" / "attack"), fast], env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0 and second.stdout.startswith("1 attacks; 0 to run")
    figures = "attack tests at this code: 1; passed 1, failed 0, not yet run 0"
    assert figures in second.stdout and second.stdout[second.stdout.index(figures):] == first.stdout[first.stdout.index(figures):]
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert [(row["test"], row["outcome"]) for row in rows] == [(fast, "passed")]
