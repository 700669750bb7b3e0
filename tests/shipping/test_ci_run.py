""".ci/run's shape (docs/speed.md, round 5): the agents install beside the README's main command, the
release checks run beside the suite in a copy of the tree, and CI fails whole when any part fails.
Run on a stand-in repository: the real .ci/run, with README commands and scripts that only say they ran."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

README = r"""# stand-in

<!-- main-command -->
```sh
mkdir -p .venv/bin && for p in pip uv; do printf '#!/bin/sh\necho "$*" >> %s.ran\n' $p > .venv/bin/$p; done && chmod +x .venv/bin/* && echo main > main.ran
```

<!-- test-command -->
```sh
{test}
```
"""


def _repo(tmp_path: Path, *, test: str, checks: str, hosts: str = "sleep 1; echo hosts installed") -> Path:
    repo = tmp_path / "repo"
    (repo / ".ci").mkdir(parents=True)
    (repo / "scripts").mkdir()
    shutil.copy(ROOT / ".ci" / "run", repo / ".ci" / "run")
    shutil.copy(ROOT / "scripts" / "uv-package-source", repo / "scripts" / "uv-package-source")
    (repo / "pyproject.toml").write_text('release = ["uv==0.1.2"]\n')  # the pin .ci/run reads
    (repo / "README.md").write_text(README.format(test=test))
    (repo / ".gitignore").write_text(".venv/\n*.ran\n")
    for path, body in ((repo / ".ci" / "release-checks", checks), (repo / "scripts" / "install-hosts", hosts)):
        path.write_text(f"#!/usr/bin/env bash\ncd \"$(dirname \"$0\")/..\"\n{body}\n")
        path.chmod(0o755)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "stand-in"], cwd=repo, check=True)
    return repo


def _ci(repo: Path) -> subprocess.CompletedProcess:
    fake_bin = repo.parent / "bin"  # npm present, so the agents' install runs
    fake_bin.mkdir(exist_ok=True)
    (fake_bin / "npm").write_text("#!/bin/sh\nexit 0\n")
    (fake_bin / "npm").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake_bin}:{os.environ['PATH']}"}
    return subprocess.run([str(repo / ".ci" / "run")], cwd=repo, capture_output=True, text=True, env=env, timeout=120)


def _wait_for(path: Path) -> str:  # sh: up to 30 s for a file another part makes, else fail
    return f"for i in $(seq 150); do [ -e {path} ] && break; sleep 0.2; done; [ -e {path} ]"


def test_the_parts_run_side_by_side_and_the_checks_see_the_tree_as_it_stands(tmp_path: Path) -> None:
    # Each part waits for the other to have started: run one after the other, they would fail.
    # The agents' install waits for the test extras, which .ci/run installs while the agents install.
    suite_started, checks_started = tmp_path / "suite.started", tmp_path / "checks.started"
    repo_pip = tmp_path / "repo" / "pip.ran"
    checks = (f"touch {checks_started}; echo \"checks in $PWD\"; cat edited.txt new.txt; "
              f"{_wait_for(suite_started)} && echo checks done")
    repo = _repo(tmp_path, test=f"touch {suite_started} && {_wait_for(checks_started)} && echo suite > suite.ran",
                 checks=checks, hosts=f"touch {tmp_path}/hosts.started; {_wait_for(repo_pip)} && echo hosts installed")
    (repo / "edited.txt").write_text("committed\n")
    subprocess.run(["git", "add", "edited.txt"], cwd=repo, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "e"],
                   cwd=repo, check=True)
    (repo / "edited.txt").write_text("edited, not committed\n")
    (repo / "new.txt").write_text("added, not committed\n")
    readme = (repo / "README.md").read_text()
    readme = readme.replace("mkdir -p .venv/bin", f"{_wait_for(tmp_path / 'hosts.started')} && mkdir -p .venv/bin")
    (repo / "README.md").write_text(readme)  # the main command waits for the agents' install to have started
    ran = _ci(repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    out = ran.stdout
    assert "hosts installed" in out and "checks done" in out and out.rstrip().endswith("s")
    # the machine's speed for this run, before the background jobs and after them (docs/speed.md, Round 8)
    assert re.search(r"yardstick \(a fixed Python loop, one start of python3 -S\): \d+\.\d\d s and \d+\.\d ms of CPU "
                     r"at the start, \d+\.\d\d s and \d+\.\d ms at the end\n== \.ci/run passed", out)
    assert "edited, not committed\nadded, not committed" in out  # the copy is the tree as it stands
    assert f"checks in {repo}" not in out  # ... and a copy, not the tree itself
    assert out.index("README test command") < out.index("checks in") < out.index(".ci/run passed")
    assert (repo / "main.ran").exists() and (repo / "suite.ran").exists()
    # the test extras, while the agents install, by the pinned uv
    assert (repo / "pip.ran").read_text() == "install -q uv==0.1.2\n"
    assert (repo / "uv.ran").read_text() == "pip install -q --compile-bytecode --python .venv/bin/python -e .[test]\n"


def test_failing_checks_fail_ci_with_their_log(tmp_path: Path) -> None:
    repo = _repo(tmp_path, test="echo suite", checks="echo 'mkdocs build --strict failed'; exit 3")
    ran = _ci(repo)
    assert ran.returncode == 1
    assert "mkdocs build --strict failed" in ran.stdout
    assert "the release checks failed (exit 3)" in ran.stdout and ".ci/run passed" not in ran.stdout


def test_a_failing_suite_fails_ci_and_stops_the_checks_whole(tmp_path: Path) -> None:
    marker = tmp_path / "checks-still-running"
    repo = _repo(tmp_path, test="exit 1", checks=f"(sleep 6; touch {marker}) & sleep 6; touch {marker}")
    ran = _ci(repo)
    assert ran.returncode == 1 and ".ci/run passed" not in ran.stdout
    time.sleep(7)
    assert not marker.exists()  # the checks and what they started were stopped, not left running


def test_a_failing_install_of_the_agents_fails_ci_with_its_log(tmp_path: Path) -> None:
    repo = _repo(tmp_path, test="echo suite > suite.ran", checks="echo checks",
                 hosts="echo 'npm ERR! 404 qwen'; exit 1")
    ran = _ci(repo)
    assert ran.returncode == 1
    assert "npm ERR! 404 qwen" in ran.stdout and "scripts/install-hosts failed" in ran.stdout
    assert not (repo / "suite.ran").exists()
