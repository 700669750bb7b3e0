"""How the sh fast path reads the payload a matcher tests (issue 38): dd copies it and says how many
bytes it copied; a payload of at most 1 KiB whose lines hold no control character is read by the
shell itself when it read as many bytes as dd copied (a NUL, which the shell drops, or a multibyte
character where sh is bash in a UTF-8 locale reads short), else by `tr` as before. Every program the
runner starts itself runs with LC_ALL=C (a UTF-8 locale costs each start a dozen files to open); the
members keep the host's environment.

Each payload runs through the sh path (dash, and bash in a UTF-8 locale) and through the Python runner:
both must run the same members with the same exit code, stdout and stderr. Wrappers first on PATH note
each program the runner starts, so a payload the shell must read itself fails when `tr` starts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.runner.test_chainrun_sh_matchers import runner_folder

REAL_PYTHON = str(Path(sys.executable).resolve())
NOTED = ("dd", "tr", "cat", "rm", "sleep", "ps")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    wrappers = {name: f'#!/bin/sh\necho "{name} LC_ALL=${{LC_ALL-unset}}" >>"$NOTES"\nexec {shutil.which(name)} "$@"\n'
                for name in NOTED}
    noting = runner_folder(tmp_path, {**wrappers, "python3": f'#!/bin/sh\necho python3 >>"$NOTES"\nexec {REAL_PYTHON} "$@"\n'})
    monkeypatch.setenv("PATH", f"{noting}{os.pathsep}{Path(REAL_PYTHON).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("NOTES", str(tmp_path / "notes"))
    monkeypatch.setenv("LOG", str(tmp_path / "log"))
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    return tmp_path


def taken(path: Path) -> str:
    text = path.read_text() if path.exists() else ""
    path.unlink(missing_ok=True)
    return text


SHELLS = {"dash": ["sh"], "bash": ["bash", "--posix"]}


def run(folder: Path, lead: list[str], payload: bytes) -> tuple[tuple, list[str]]:
    """(exit code, stdout, stderr, the members that ran) and the programs the sh runner started before
    its first member ran (the ticker's `sleep` and `rm` run beside the chain, whenever they fall)."""
    members = []
    for name, matcher in (("bash", "Bash"), ("read", "^(Read|Write)$"), ("any", "")):
        members += [name, "10", matcher, f'echo {name} "$LC_ALL" >>"$LOG"']
    done = subprocess.run([*lead, "claude", "PreToolUse", *members], input=payload, capture_output=True,
                          timeout=60, cwd=folder)
    notes = [n for n in taken(folder / "notes").splitlines() if n.split()[0] not in ("sleep", "rm")]
    return (done.returncode, done.stdout, done.stderr, taken(folder / "log")), notes


def both(folder: Path, shell: str, payload: bytes) -> tuple[tuple, tuple, list[str]]:
    sh, notes = run(folder, [*SHELLS[shell], str(folder / "settings.hookweave-chain.sh")], payload)
    py, _ = run(folder, [REAL_PYTHON, "-S", str(folder / "settings.hookweave-chain.py")], payload)
    return sh, py, notes


def padded(size: int, tool: str = "Read") -> bytes:
    """A payload of exactly ``size`` bytes."""
    head = json.dumps({"tool_name": tool, "pad": ""}).encode()
    return head[:-2] + b"x" * (size - len(head)) + b'"}'


READ_BY_THE_SHELL = [  # on dash and on bash in a UTF-8 locale alike, and decided there
    b'{"tool_name": "Bash", "tool_input": {"command": "ls"}}',
    b'{"tool_name": "Read"}\n', b'{"tool_name": "Read"}\n\n\n', b'\n {"tool_name":"Write"}  \n ',
    json.dumps({"tool_name": "Read", "tool_input": {"a": [1, {"b": None}]}}, indent=2).encode(),
    b'{"tool_name": "Bash", "x": "a\\\\"\n}', b'{"tool_name": "Bash", "x": "\\t\\u0000"}',
    b'{"tool_name": "Read", "tool_name": "Bash"}', b'{}', padded(1024), padded(1024, "Bash"),
]
NOT_JSON = [  # read by the shell, which hands over: Python runs every member
    b'{"tool_name": "Bash", "x": "a\\\\\n"}',  # a newline inside a string
    b'{"tool_name": "Bash",}', b'{"tool_name": "Bash"} x', b'', b'[]',
]
READ_BY_TR = [  # what the shell cannot read exactly: tr reads it, as before
    b'{"tool_name": "Bash"}\x00', b'{"tool_name": "Re\x00ad"}', b'\x00' * 40,
    b'{"tool_name": "Bash", "x": "a\tb"}', b'{"tool_name":\t"Read"}', b'{"tool_name": "Read"}\r\n',
    b'{"tool_name": "Read", "x": "\x7f"}', b'{"tool_name": "Read", "x": "\x1b[0m"}',
    padded(1025), padded(3000, "Bash"),
]
READ_BY_THE_SHELL.append(b'{"tool_name": "Read", "x": "\xff"}')  # not UTF-8: one byte, one character to bash
MULTIBYTE = [b'{"tool_name": "Read", "x": "caf\xc3\xa9"}', b'{"tool_name": "\xe2\x80\x8bRead"}']


@pytest.mark.parametrize("shell", sorted(SHELLS))
@pytest.mark.parametrize("payload", READ_BY_THE_SHELL + NOT_JSON + READ_BY_TR + MULTIBYTE)
def test_both_runners_read_the_payload_alike_and_the_shell_reads_what_it_can_read_exactly(folder, shell, payload):
    sh, py, notes = both(folder, shell, payload)
    assert sh == py
    started = sorted({n.split()[0] for n in notes})
    by_the_shell = payload in READ_BY_THE_SHELL + NOT_JSON or payload in MULTIBYTE and shell == "dash"  # dash counts
    assert ("tr" not in started) == by_the_shell, "the shell could have read this payload itself"  # bytes, bash characters
    assert ("python3" in started) == (not an_object(payload)), "handed over, or decided what Python must"
    assert started[0] == "dd"


def an_object(payload: bytes) -> bool:
    """Whether the Python runner reads a JSON object (else it runs every member, and so must sh)."""
    try:
        return isinstance(json.loads(payload.decode("utf-8", "replace")), dict)
    except ValueError:
        return False


def test_the_programs_the_runner_starts_skip_the_locale_and_the_members_keep_the_hosts(folder):
    """A `cat` in the C.UTF-8 locale opened 13 locale files before it copied a byte: 4.7 ms a start
    here under load, 1.5 ms with LC_ALL=C. The members' own environment is the host's."""
    answer = b'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "x"}}'
    members = ["m0", "10", "", 'echo m0 "$LC_ALL" >>"$LOG"',  # silent: the last member's answer is the chain's
               "m1", "10", "^(Bash)$", f"echo m1 \"$LC_ALL\" >>\"$LOG\"; echo noise >&2; printf '%s' '{answer.decode()}'"]
    payload = padded(1100, "Bash")  # past 1 KiB: tr reads it
    done = subprocess.run(["sh", str(folder / "settings.hookweave-chain.sh"), "claude", "PreToolUse", *members],
                          input=payload, capture_output=True, timeout=60, cwd=folder)
    assert (done.returncode, done.stdout, done.stderr) == (0, answer, b"noise\n")
    assert taken(folder / "log") == "m0 C.UTF-8\nm1 C.UTF-8\n"
    notes = taken(folder / "notes").splitlines()
    assert {"dd LC_ALL=C", "tr LC_ALL=C", "cat LC_ALL=C"} <= set(notes) and all(n.endswith(" LC_ALL=C") for n in notes)
