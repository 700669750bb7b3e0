"""An out-of-tree host plugin, installed into a fresh virtual environment like a user would."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent.parent
PLUGIN = Path(__file__).parent.parent / "plugin" / "hookweave-echo"
AUGGIE = Path(__file__).parent.parent / "plugin" / "hookweave-auggie"  # a plugin that is a description alone
BUNDLE = Path(__file__).parent.parent / "data" / "claude" / "bundle"


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("plugin-venv")
    source = root / "hookweave-src"  # a clean copy: an in-tree build would leave build/ in the repo
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "core", "hosts", "templates", "testing"):
        copy = shutil.copytree if (REPO / name).is_dir() else shutil.copy2
        copy(REPO / name, source / name, **({"ignore": shutil.ignore_patterns("__pycache__")} if copy is shutil.copytree else {}))
    folder = root / "venv"
    # No pip of its own (ensurepip was 6 s of CPU): the tests' pip installs into it (--python), all
    # four in one resolve: hookweave from source, the two plugins, and the pytest their tests run on.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    plugins = [shutil.copytree(p, root / p.name, ignore=shutil.ignore_patterns("build", "*.egg-info"))
               for p in (PLUGIN, AUGGIE)]
    wanted = [str(source), *map(str, plugins), "pytest"]
    uv = Path(sys.executable).parent / "uv"  # where .ci/run and the release checks put it (the release extra's pin)
    if uv.is_file():  # the same install for 8 s of CPU instead of pip's 21, from the package source pip has here
        subprocess.run(["bash", "-c", '. scripts/uv-package-source && uv_package_source "$1" && shift && exec "$@"', "-",
                        sys.executable, str(uv), "pip", "install", "-q", "--python", str(folder / "bin" / "python"),
                        *wanted], check=True, cwd=REPO)
    else:
        subprocess.run([sys.executable, "-m", "pip", "--python", str(folder / "bin" / "python"), "install", "-q",
                        "--disable-pip-version-check", *wanted], check=True, cwd=root)
    return folder


def test_plugin_host_is_listed_installed_into_and_uninstalled(venv: Path, tmp_path: Path, home: Path) -> None:
    project = tmp_path / "proj"
    (project / ".echo").mkdir(parents=True)
    operator = '{\n    "hooks": {\n        "Done": [{"hooks": [{"type": "command", "command": "say bye"}]}]\n    }\n}\n'
    (project / ".echo" / "hooks.json").write_text(operator)
    env = {**os.environ, "HOME": str(home), "NO_COLOR": "1"}

    def hooks(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(venv / "bin" / "hooks"), *args], cwd=project, env=env, capture_output=True, text=True)

    listed = json.loads(hooks("hosts", "--json").stdout)["hosts"]
    echo = next(h for h in listed if h["name"] == "echo")
    assert echo["origin"] == "hookweave-echo 0.1.0" and echo["title"] == "Echo Agent"
    assert {h["name"]: h["origin"] for h in listed}["claude"] == "built-in"

    installed = hooks("install", str(BUNDLE), "--host", "echo")
    assert installed.returncode == 0, installed.stderr
    data = json.loads((project / ".echo" / "hooks.json").read_text())
    assert data["hooks"]["BeforeCall"][0] == {"matcher": "sh", "hooks": [
        {"type": "command", "command": 'guard-hook --project "$ECHO_PROJECT" # hookweave:guard/one-strike', "timeout": 10}]}
    assert data["hooks"]["Done"][0] == {"hooks": [{"type": "command", "command": "say bye"}]}
    verify = hooks("verify", "--host", "echo")
    assert verify.returncode == 0, verify.stdout
    assert "note: Echo runs an event's hooks one after another in file order" in verify.stdout
    assert hooks("install", str(BUNDLE), "--host", "echo").stdout.endswith("already installed; nothing written\n")
    assert hooks("uninstall", "guard", "--host", "echo").returncode == 0
    assert (project / ".echo" / "hooks.json").read_text() == operator

    blocked = subprocess.run([str(venv / "bin" / "hooks"), "hosts"], cwd=project, capture_output=True, text=True,
                             env={**env, "HOOKWEAVE_DISABLE_PLUGINS": "echo"})
    assert "echo" not in blocked.stdout.split()


def test_a_description_plugin_passes_the_shipped_contract_suite(venv: Path, tmp_path: Path) -> None:
    """Auggie CLI, described in data (no methods, under 40 lines), installed from its folder like a
    user's plugin, runs its own tests: a subclass of hookweave.testing's HostContract, found through
    hookweave's pytest11 entry point in that environment."""
    source = (AUGGIE / "hookweave_auggie" / "__init__.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 40 and "def " not in source
    tests = shutil.copytree(AUGGIE / "tests", tmp_path / "tests")
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)],
                          cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert "passed" in summary and "failed" not in summary and "skipped" not in summary, summary
