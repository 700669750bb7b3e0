"""The README's 60-second tour is a real run (issue 25): each ``$ command`` of its console blocks runs
in a fresh git project, in order, and prints exactly the lines shown under it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).parent.parent.parent / "README.md"


def tour_steps() -> list[tuple[str, str]]:
    """(command, expected output) pairs, in the order the README shows them."""
    text = README.read_text(encoding="utf-8")
    tour = text.split("<!-- tour -->\n", 1)[1].split("<!-- /tour -->", 1)[0]
    steps: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", tour, re.DOTALL):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = chunk.partition("\n")
            steps.append((command, output))
    return steps


def test_the_tour_runs_as_shown(project: Path) -> None:
    steps = tour_steps()
    assert {c.split()[1] for c, _ in steps if c.startswith("hooks ")} >= {"init", "add", "sync", "remove"}
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    before = None
    for command, expected in steps:
        if command.startswith("hooks add") and before is None:
            before = sorted(str(p.relative_to(project)) for p in project.rglob("*") if ".git" not in p.parts)
        done = subprocess.run(["bash", "-c", command], cwd=project, env=env, capture_output=True, text=True, timeout=60)
        assert done.stdout + done.stderr == expected, f"$ {command}\n{done.stdout}{done.stderr}"
    after = sorted(str(p.relative_to(project)) for p in project.rglob("*") if ".git" not in p.parts)
    assert after == sorted([*before, ".hookweave.toml"])  # remove took away every file and folder add made but the project file
