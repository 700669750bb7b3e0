"""The suite's own set-up: ``python3`` on PATH is the interpreter itself (tests/conftest.py), so a hook,
probe or agent that starts it pays no shim (pyenv's starts bash and pyenv first), in a test's own
process and in the processes it starts, and already for a module's fixtures."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def python3_seen_by_a_module_fixture() -> str | None:
    return shutil.which("python3")  # a module fixture runs before the function-scoped ones


def test_python3_on_path_is_the_interpreter_not_a_script(python3_seen_by_a_module_fixture) -> None:
    started = subprocess.run(["sh", "-c", "command -v python3"], capture_output=True, text=True, check=True)
    for found in (shutil.which("python3"), python3_seen_by_a_module_fixture, started.stdout.strip()):
        assert found, "no python3 on PATH"
        assert Path(found).resolve().read_bytes()[:2] != b"#!", f"{found} is a script"


def test_python3_on_path_starts_with_the_standard_library_alone() -> None:
    """No site-packages of the interpreter's own install: their .pth files run at every start of every
    hook and probe (this machine's sandbox imports certifi from one), which a plain machine's does not."""
    started = subprocess.run(["python3", "-c", "import sys; print(sys.prefix != sys.base_prefix); "
                              "print([p for p in sys.path if 'site-packages' in p]); print(sorted(sys.modules))"],
                             capture_output=True, text=True, check=True)
    in_a_venv, site_paths, modules = started.stdout.splitlines()
    assert (in_a_venv, site_paths) == ("True", "[]")
    assert "certifi" not in modules and "_distutils_hack" not in modules
