"""What the README tells a newcomer holds when they do it: the install blocks paste one at a time,
the first command's note and warning are explained where it is shown, the hook ``hooks init`` writes
blocks what the README says, and "What to commit" names every file ``init`` and ``add`` write.
Each runs the real ``hooks`` command."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
HOOKS = str(Path(sys.executable).parent / "hooks")


def _section(text: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of its level or above."""
    level = heading.split(" ", 1)[0]
    body = text.split(heading + "\n", 1)[1]
    ends = [m.start() for m in re.finditer(rf"^#{{1,{len(level)}}} ", body, re.MULTILINE)]
    return body[:ends[0]] if ends else body


def _hooks(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([HOOKS, *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})


@pytest.mark.parametrize("page", ["README.md", "docs/getting-started.md"])
def test_the_install_blocks_paste_one_installer_at_a_time(page: str) -> None:
    text = (REPO / page).read_text(encoding="utf-8")
    install = _section(text, "## Install" if page == "README.md" else "## Install hookweave")
    blocks = [b.strip() for b in re.findall(r"```sh\n(.*?)```", install, re.DOTALL)]
    installers = [b for b in blocks if re.search(r"\b(pipx install|uv tool install|pip install dist)", b)]
    assert len(installers) == 3 and len(blocks) == 4, blocks
    for block in blocks:
        assert "\n" not in block and "#" not in block, block  # one command, nothing to strip before running it
        assert len(re.findall(r"\b(pipx install|uv tool install|pip install)\b", block)) == 1, block


def test_the_first_commands_note_and_warning_are_explained_where_it_is_shown(project: Path) -> None:
    main = README.split("<!-- main-command -->\n```sh\n", 1)[1].split("\n", 1)[0]
    install = re.search(r"\.venv/bin/hooks (install [^&]+?)\s*&&", main).group(1).split()
    project.mkdir(exist_ok=True)
    (project / "demo").mkdir()
    done = _hooks(*install, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    printed = [line.strip() for line in (done.stdout + done.stderr).splitlines() if re.match(r"\s+(note|warning):", line)]
    assert len(printed) == 2, printed
    explained = README.split("<!-- test-command -->", 1)[1].split("\n## ", 1)[0]  # under the commands, before Install
    quoted = re.findall(r"^- `((?:note|warning): [^`]+)`", explained, re.MULTILINE)
    for line in printed:
        shown = re.sub(r"/\S*/templates/", ".../templates/", line)  # where hookweave is installed
        assert any(shown.startswith(quote) and len(quote) > 40 for quote in quoted), \
            f"the README does not explain: {line}\nquoted: {quoted}"
    assert "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP" in explained and "(Claude's own limit is 8)" in explained


def test_the_hook_init_writes_blocks_what_the_readme_says(project: Path) -> None:
    project.mkdir(exist_ok=True)
    done = _hooks("init", "tools/guard", "--name", "guard", cwd=project)
    assert done.returncode == 0, done.stderr
    hook = project / "tools" / "guard" / "hook.py"

    def run(command: str) -> subprocess.CompletedProcess:
        payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}}
        return subprocess.run([sys.executable, str(hook)], input=json.dumps(payload), capture_output=True,
                              text=True, timeout=30)

    blocked = run("git commit -m wip --no-verify")
    assert (blocked.returncode, blocked.stdout) == (2, "") and "--no-verify" in blocked.stderr
    for allowed in ("git commit -m wip", "rm -rf build", "ls"):
        assert (run(allowed).returncode, run(allowed).stdout) == (0, "")
    tour = README.split("## A 60-second tour\n", 1)[1].split("<!-- tour -->", 1)[0]
    assert "blocks nothing" not in README
    assert "`--no-verify`" in tour and "exit 2 blocks the command, exit 0 lets it run" in tour


def _named(section: str) -> list[str]:
    return re.findall(r"`([^`\s]+)`", section)


@pytest.mark.parametrize("page, heading", [("README.md", "### What to commit"),
                                           ("docs/getting-started.md", "## What to commit")])
def test_what_to_commit_names_every_file_init_and_add_write(project: Path, page: str, heading: str) -> None:
    project.mkdir(exist_ok=True)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    for args in (["init", "tools/guard", "--name", "guard"], ["add", "tools/guard", "--host", "claude", "--host", "cursor"],
                 ["add", "example-guard", "--host", "claude"]):
        done = _hooks(*args, cwd=project)
        assert done.returncode == 0, done.stdout + done.stderr
    status = subprocess.run(["git", "status", "--porcelain", "-uall"], cwd=project, capture_output=True, text=True,
                            check=True).stdout
    written = sorted(line[3:] for line in status.splitlines())
    assert ".hookweave/bundles/example-guard/guard.py" in written and ".claude/settings.hookweave.json" in written
    text = (REPO / page).read_text(encoding="utf-8")
    commit, _, not_these = _section(text, heading).partition("Not these")
    named = _named(commit)
    for path in written:
        assert any(path == name or (name.endswith("/") and path.startswith(name)) for name in named), \
            f"{page} does not say to commit {path}: it names {named}"
    assert ".claude/settings.local.json" in _named(not_these)  # the personal file is named as not to commit
