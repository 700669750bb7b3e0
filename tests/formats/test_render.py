"""Rendered commands run as intended in a real POSIX shell, and carry our marker."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hookweave.core.model.render import marker, marker_in, shell_command

ODD = ["a b", "it's", 'say "hi"', "$HOME", "x;rm -rf /", "`id`", "back\\slash", "", "tab\there", "ünï"]


def _argv_from_shell(command: str, project: Path) -> list[str]:
    script = command.replace("printf", "printf", 1)
    out = subprocess.run(["sh", "-c", script], capture_output=True, text=True,
                         env={"CLAUDE_PROJECT_DIR": str(project), "PATH": "/usr/bin:/bin"}, check=True)
    return out.stdout.split("\0")[:-1]


def test_argv_words_reach_the_program_unchanged(tmp_path: Path) -> None:
    bundle_dir = tmp_path / "my bundle's dir"
    command = shell_command(("printf", "%s\\0", *ODD, "{bundle_dir}/x", "{project_dir}/y"), bundle_dir,
                            '"$CLAUDE_PROJECT_DIR"', marker("b", "h"))
    assert command.endswith(" # hookweave:b/h")
    project = tmp_path / "pro ject;$x"
    assert _argv_from_shell(command, project) == [*ODD, f"{bundle_dir}/x", f"{project}/y"]


def test_string_command_placeholders_become_quoted_words(tmp_path: Path) -> None:
    bundle_dir = tmp_path / "dir with space"
    command = shell_command("printf '%s\\0' {bundle_dir} {project_dir}", bundle_dir, '"$CLAUDE_PROJECT_DIR"', marker("b", "h"))
    assert _argv_from_shell(command, tmp_path / "p q") == [str(bundle_dir), str(tmp_path / "p q")]


def test_multiline_command_gets_the_marker_on_its_own_line(tmp_path: Path) -> None:
    command = shell_command("cat <<EOF\nhello\nEOF", tmp_path, ".", marker("b", "h"))
    assert command == "cat <<EOF\nhello\nEOF\n# hookweave:b/h"
    assert subprocess.run(["sh", "-c", command], capture_output=True, text=True).stdout == "hello\n"
    assert marker_in(command) == ("b", "h")


@pytest.mark.parametrize(
    ("command", "owner"),
    [
        ("x # hookweave:guard/one-strike", ("guard", "one-strike")),
        ("x # hookweave:guard/one-strike  ", ("guard", "one-strike")),
        ("x #hookweave:guard/one", None),
        ("echo '# hookweave:guard/one' && y", None),
        ("x# hookweave:guard/one", None),
        (42, None),
    ],
)
def test_marker_is_recognised_only_at_the_end(command, owner) -> None:
    assert marker_in(command) == owner
