"""The ledger of scripts/attack: which attack ran on which code, so a full-size run can stop and resume.

A full run takes hours on two cores, longer than a working session. Each attack test's outcome is
kept with a key of the code it ran on: the product (core/, hosts/, templates/, pyproject.toml), the
files the tests share (tests/conftest.py, the helper modules beside it, tests/data/ and the plugin
packages under tests/plugin/) and the test's own module with the test modules it imports
(``from tests.x import``). A later run skips a test only while that key is unchanged and its last
run there passed; editing one attack module sends only its tests (and those importing it) round
again, and any product change sends them all. The real-agent tests' folders (tests/e2e/,
tests/ansible/) are no attack's code. Standard library only: scripts/attack runs it before pytest.

  attack_ledger.py keys KEYS.json < test-ids          the key of each test, written to KEYS.json
  attack_ledger.py remaining KEYS.json RESULTS.jsonl  the tests not yet passed at their key
  attack_ledger.py summary KEYS.json RESULTS.jsonl REPORT.jsonl   the figures at these keys
"""

from __future__ import annotations

import hashlib
import json
import re
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("core", "hosts", "templates", "pyproject.toml")
SKIPPED_PARTS = {"__pycache__", ".pytest_cache", ".hypothesis"}


def _files(top: Path):
    if top.is_file():
        yield top
        return
    for path in sorted(top.rglob("*")):
        if path.is_file() and not SKIPPED_PARTS & set(path.parts) and path.suffix != ".pyc":
            yield path


def _digest(paths) -> str:
    sha = hashlib.sha256()
    for path in paths:
        sha.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()[:16]


IMPORTED_TEST_MODULE = re.compile(r"^from (tests(?:\.\w+)+) import", re.MULTILINE)


def _shared_test_files():
    tests = ROOT / "tests"
    yield from sorted(f for f in tests.glob("*") if f.is_file() and not f.name.startswith("test_"))
    for folder in ("data", "plugin"):
        yield from _files(tests / folder)


def _modules_of(module: str) -> list[Path]:
    """A test module and the test modules it imports, transitively: their code is the test's code."""
    seen: list[Path] = []
    todo = [ROOT / module]
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.append(path)
        for dotted in IMPORTED_TEST_MODULE.findall(path.read_text(encoding="utf-8")):
            todo.append(ROOT / (dotted.replace(".", "/") + ".py"))
    return sorted(seen)


def keys(test_ids: list[str]) -> dict[str, str]:
    """Each test id's key: the product, the tests' shared files, and its own modules."""
    product = _digest(f for top in PRODUCT for f in _files(ROOT / top))
    shared = _digest(_shared_test_files())
    own: dict[str, str] = {}
    out = {}
    for test in test_ids:
        module = test.split("::", 1)[0]
        if module not in own:
            own[module] = _digest(_modules_of(module))
        out[test] = f"{product}-{shared}-{own[module]}"
    return out


def _rows(path: str) -> list[dict]:
    if not Path(path).exists():
        return []
    rows = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            pass  # a line cut short when a run was killed mid-write
    return rows


def latest_runs(keyed: dict[str, str], results: list[dict]) -> dict[str, dict]:
    """Each test's last finished run at its current key."""
    last = {}
    for row in results:
        if keyed.get(row.get("test")) == row.get("key"):
            last[row["test"]] = row
    return last


def remaining(keyed: dict[str, str], results: list[dict]) -> list[str]:
    done = latest_runs(keyed, results)
    return [test for test in keyed if done.get(test, {}).get("outcome") != "passed"]


def summary(keyed: dict[str, str], results: list[dict], report: list[dict]) -> str:
    done = latest_runs(keyed, results)
    runs = {test: row["run"] for test, row in done.items()}
    merged: dict[str, dict[str, int]] = {}
    for row in report:
        if runs.get(row.get("test")) != row.get("run") or keyed.get(row.get("test")) != row.get("key"):
            continue  # figures of an earlier run of that test, or of other code
        into = merged.setdefault(row["attack"], {})
        for name, value in row.items():
            if name not in ("attack", "test", "run", "key"):
                into[name] = into.get(name, 0) + value
    outcomes = [row["outcome"] for row in done.values()]
    seconds = sum(row.get("seconds", 0) for row in done.values())
    lines = [
        f"attack tests at this code: {len(keyed)}; passed {outcomes.count('passed')}, "
        f"failed {len(outcomes) - outcomes.count('passed')}, not yet run {len(keyed) - len(done)} "
        f"({seconds:,.0f} s of test time in the runs counted)"
    ]
    for test, row in sorted(done.items()):
        if row["outcome"] != "passed":
            lines.append(f"  {row['outcome'].upper()}: {test}")
    for name, figures in sorted(merged.items()):
        lines.append(f"  {name:<34} " + ", ".join(f"{k} {v:,}" for k, v in figures.items()))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    command, keys_file = argv[0], argv[1]
    if command == "keys":
        Path(keys_file).write_text(json.dumps(keys([t.strip() for t in sys.stdin if t.strip()])))
        return 0
    keyed = json.loads(Path(keys_file).read_text(encoding="utf-8"))
    if command == "remaining":
        for test in remaining(keyed, _rows(argv[2])):
            print(test)
    elif command == "summary":
        print(summary(keyed, _rows(argv[2]), _rows(argv[3])))
    else:
        raise SystemExit(f"attack_ledger.py: unknown command {command!r}; use keys, remaining or summary")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `summary | head` ends quietly, as a shell tool does
    raise SystemExit(main(sys.argv[1:]))
