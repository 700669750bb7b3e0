"""The fleet tests' kept zip code (zipcode/sitecustomize.py) changes no module's behaviour: a second
run loads the code the first compiled, names its own zip in a traceback, and a changed source is
compiled afresh."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.fleet.conftest import ZIP_CODE

PROGRAM = "import sys; sys.path.insert(0, sys.argv[1]); import payload; payload.run()"


def _zip(path: Path, source: str) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("payload.py", source)
    return path


def _run(zip_path: Path, kept: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ZIP_CODE), "HOOKWEAVE_TEST_ZIP_CODE": str(kept)}
    return subprocess.run([sys.executable, "-c", PROGRAM, str(zip_path)], env=env, capture_output=True, text=True)


def test_kept_code_runs_as_compiled_and_names_the_new_zip(tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    source = "def run():\n    print('one')\n    raise SystemExit(helper())\n\ndef helper():\n    raise ValueError('x')\n"
    first = _run(_zip(tmp_path / "a.zip", source), kept)
    assert "one" in first.stdout and f'{tmp_path / "a.zip"}/payload.py' in first.stderr
    assert len(list(kept.iterdir())) == 1
    second = _run(_zip(tmp_path / "b.zip", source), kept)
    assert second.stdout == first.stdout and second.returncode == first.returncode
    assert f'{tmp_path / "b.zip"}/payload.py", line 6, in helper' in second.stderr  # the inner function too
    assert "a.zip" not in second.stderr
    changed = _run(_zip(tmp_path / "c.zip", source.replace("'one'", "'two'")), kept)
    assert "two" in changed.stdout and len(list(kept.iterdir())) == 2


def test_without_the_variable_nothing_changes() -> None:
    env = {**os.environ, "PYTHONPATH": str(ZIP_CODE)}
    env.pop("HOOKWEAVE_TEST_ZIP_CODE", None)
    probe = "import zipimport; print(zipimport._compile_source.__module__)"
    assert subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True).stdout == "zipimport\n"
    env["HOOKWEAVE_TEST_ZIP_CODE"] = "kept"
    assert subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True).stdout == "sitecustomize\n"
