"""Matchers the sh fast path decides itself (issue 38): a list of names (``a|b``) and a regex that is
exactly an anchored list of names (``^(a|b)$``, ``^(?:a|b)$``, ``^a$``) on every sh host, and Cline's
name lists on the tool its dispatcher reads (``preToolUse`` or ``postToolUse``, then ``toolName``).
Anything else is the Python runner's.

Each case runs through the sh path and through the Python part alone; both must run the same members
with the same exit code, stdout and stderr. A ``python3`` first on PATH notes every hand-over, so a
case the sh path must decide alone fails when it hands over.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookweave.core.plan import chain, chainsh
from hookweave.hosts.cline import dispatcher as cline_dispatcher

REAL_PYTHON = str(Path(sys.executable).resolve())


def runner_folder(folder: Path, wrappers: dict[str, str]) -> Path:
    """Both chain runners in ``folder``, and ``folder/bin`` holding the sh ``wrappers`` (name: script),
    which the caller puts first on PATH to see what the runner starts."""
    (folder / "settings.hookweave-chain.py").write_text(chain.runner_text(), encoding="utf-8")
    (folder / "settings.hookweave-chain.sh").write_text(chainsh.runner_text(), encoding="utf-8")
    noting = folder / "bin"
    noting.mkdir()
    for name, script in wrappers.items():
        (noting / name).write_text(script, encoding="utf-8")
        (noting / name).chmod(0o755)
    return noting


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    noting = runner_folder(tmp_path, {"python3": f'#!/bin/sh\necho handed >>"$HANDED"\nexec {REAL_PYTHON} "$@"\n'})
    monkeypatch.setenv("PATH", f"{noting}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("HANDED", str(tmp_path / "handed"))
    monkeypatch.setenv("LOG", str(tmp_path / "log"))
    return tmp_path


def run(folder: Path, argv: list[str], payload: bytes) -> tuple[int, bytes, bytes, str, bool]:
    """Exit code, stdout, stderr, the members that ran, and whether Python was started."""
    done = subprocess.run(argv, input=payload, capture_output=True, timeout=60, cwd=folder)
    log, handed = folder / "log", folder / "handed"
    ran = log.read_text() if log.exists() else ""
    seen = (done.returncode, done.stdout, done.stderr, ran, handed.exists())
    log.unlink(missing_ok=True)
    handed.unlink(missing_ok=True)
    return seen


def both(folder: Path, host: str, event: str, matchers: list[str], payload: bytes):
    members = []
    for n, matcher in enumerate(matchers):
        members += [f"m{n}", "10", matcher, f'echo m{n} >>"$LOG"']
    members += ["last", "10", "", 'echo last >>"$LOG"']
    sh = run(folder, ["sh", str(folder / "settings.hookweave-chain.sh"), host, event, *members], payload)
    py = run(folder, [REAL_PYTHON, "-S", str(folder / "settings.hookweave-chain.py"), host, event, *members], payload)
    return sh, py


EVENT = {"claude": "PreToolUse", "cursor": "preToolUse", "codex": "PreToolUse", "gemini": "BeforeTool",
         "qwen": "PreToolUse", "factory": "PreToolUse", "auggie": "PreToolUse"}
EXACT = ["^(Bash|Write)$", "^(?:Read|Write)$", "^Bash$", "^(Read)$", "^(?:Bash_2|Bash)$", "Read|Bash"]


@pytest.mark.parametrize("host", sorted(EVENT))
@pytest.mark.parametrize("tool", ["Bash", "Read", "Bash_2", "^Bash$", "Bas", "apply_patch"])
def test_anchored_lists_of_names_are_decided_in_sh_as_python_decides_them(folder, host, tool):
    payload = json.dumps({"tool_name": tool, "tool_input": {}}).encode()
    sh, py = both(folder, host, EVENT[host], EXACT, payload)
    assert sh[:4] == py[:4]
    assert not sh[4], f"{host}: handed a list of names over to Python"


@pytest.mark.parametrize("matcher", ["^Bash|Read$", "^(Bash|.*)$", "^(Bash|)$", "^(Ba.h)$", "^(Bash)|(Read)$",
                                     "^(Bash-x)$", "^(Bash|Read)$ ", "^((Bash))$"])
def test_a_regex_that_is_not_exactly_a_list_of_names_is_left_to_python(folder, matcher):
    """``^a|b$`` is ``^a`` or ``b$``; ``^(a|)$`` takes the empty name: no list, so Python decides."""
    for tool in ("Bash", "xBash", "Read", ""):
        payload = json.dumps({"tool_name": tool}).encode()
        sh, py = both(folder, "claude", "PreToolUse", [matcher], payload)
        assert sh[:4] == py[:4] and sh[4]


def test_gemini_compares_other_events_matchers_as_text_in_sh(folder):
    payload = json.dumps({"source": "startup"}).encode()
    sh, py = both(folder, "gemini", "SessionStart", ["^(startup)$", "startup"], payload)
    assert sh[:4] == py[:4] and sh[3] == "m1\nlast\n"  # gemini tests no regex there: "^(startup)$" is text
    assert not sh[4]


CLINE_HOOKS = [{"command": 'echo m0 >>"$LOG"', "matcher": "run_commands|execute_command", "timeout": 5},
               {"command": 'echo m1 >>"$LOG"', "matcher": "write_to_file", "timeout": 5},
               {"command": 'echo m2 >>"$LOG"', "matcher": "read_file||write_to_file", "timeout": 5},
               {"command": 'echo m3 >>"$LOG"', "timeout": 5}]
DECIDED_IN_SH = [  # payload: the members Cline's dispatcher runs
    ({"hookName": "PreToolUse", "preToolUse": {"toolName": "execute_command", "parameters": {"command": "ls"}}},
     "m0 m3"),
    ({"postToolUse": {"toolName": "write_to_file", "result": {"toolName": "x"}}}, "m1 m2 m3"),
    ({"preToolUse": {}, "postToolUse": {"toolName": "write_to_file"}}, "m1 m2 m3"),  # an empty call is false
    ({"preToolUse": None, "postToolUse": {"toolName": "run_commands"}}, "m0 m3"),
    ({"preToolUse": False, "postToolUse": {}}, "m0 m1 m2 m3"),  # a call without toolName: every member runs
    ({"preToolUse": {"parameters": {}}, "postToolUse": {"toolName": "write_to_file"}}, "m0 m1 m2 m3"),
    ({"preToolUse": {"toolName": "run_commands", "toolName": None}}, "m0 m1 m2 m3"),
    ({"preToolUse": {"toolName": ""}}, "m2 m3"),  # the empty name between "||"
    ({"hookName": "TaskStart", "taskStart": {"taskMetadata": {}}}, "m0 m1 m2 m3"),
    ({"preToolUse": {"toolName": "caf\u00e9"}}, "m3"),
]
HANDED_OVER = [{"preToolUse": {"toolName": 5}}, {"preToolUse": [1]}, {"preToolUse": "execute_command"},
               {"preToolUse": {"toolName": {"name": "write_to_file"}}}, {"preToolUse": 0, "postToolUse": {}}]


def cline(folder: Path, payload: bytes) -> tuple[tuple, tuple]:
    path = folder / "PreToolUse"
    path.write_text(cline_dispatcher.render("PreToolUse", CLINE_HOOKS, 0), encoding="utf-8")
    return run(folder, ["sh", str(path)], payload), run(folder, [REAL_PYTHON, "-S", str(path)], payload)


@pytest.mark.parametrize("payload, ran", DECIDED_IN_SH)
def test_cline_name_lists_are_decided_in_sh_on_the_tool_its_dispatcher_reads(folder, payload, ran):
    """Cline's `shell` is two tool names: the sh part handed every matcher to Python (+20 ms an event)."""
    sh, py = cline(folder, json.dumps(payload, ensure_ascii=False).encode())
    assert sh[:4] == py[:4] and py[3].split() == ran.split()
    assert not sh[4], "handed over to Python"


@pytest.mark.parametrize("payload", HANDED_OVER + [b'{"preToolUse": {"tool\\u004eame": "write_to_file"}}',
                                                   b'{"preToolUse": {"toolName": "write\\u005fto_file"}}'])
def test_cline_calls_sh_cannot_read_exactly_are_left_to_python(folder, payload):
    sh, py = cline(folder, payload if isinstance(payload, bytes) else json.dumps(payload).encode())
    assert sh[:4] == py[:4] and sh[4]
