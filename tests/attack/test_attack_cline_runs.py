"""Attack: Cline's hook file run as Cline runs it (``sh <file>``: the sh fast path, handing over to
the file's Python part where a member's answer must be read) against the Python part alone
(``python3 -S <file>``), on generated members: silent, context, cancel, errorMessage, HOOK_CONTROL
lines, invalid JSON, a crash, stderr noise, a timeout, script files started plainly; with and
without matchers, on tool events and on the others. Both must run the same members in the same
order and answer Cline with the same exit code, stdout and stderr (issue 24).
"""

from __future__ import annotations

import json
import os
import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from hookweave.hosts.cline import dispatcher as cline_dispatcher
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
EVENTS = ("PreToolUse", "PostToolUse", "TaskStart", "UserPromptSubmit")
TOOLS = ("run_commands", "execute_command", "write_to_file")
MATCHERS = (None, None, "run_commands", "execute_command|run_commands", "write_to_file",
            "*", "run_commands||write_to_file", "execute_command|", "^(run_commands)$")  # names, "*" a name
OUTCOMES = {
    "silent": ("", "", 0), "context": ('{"contextModification": "ctx-N"}', "", 0),
    "cancel": ('{"cancel": true, "errorMessage": "no-N"}', "", 0), "error": ('{"errorMessage": "msg-N"}', "", 0),
    "control": ('noise\nHOOK_CONTROL\t{"context": "hc-N"}\n', "", 0), "junk": ("{oops", "", 0),
    "crash": ("", "boom-N\n", 1), "noise": ("", "noise-N\n", 0), "blank-err": ("", " \n", 3),
    "timeout": ("", "", -1), "pipe": ("", "", -2),  # a pipe whose reader left: SIGPIPE, as Cline's shell gives it
}


def member(rng: random.Random, folder: Path, n: int) -> tuple[dict, str]:
    kind = rng.choice(list(OUTCOMES))
    out, err, code = (x.replace("N", str(n)) if isinstance(x, str) else x for x in OUTCOMES[kind])
    steps = [f'echo m{n} >> "$CLINE_LOG"']
    if code == -1:
        steps.append("sleep 5")
    elif code == -2:
        steps.append("seq 1 2000000 | head -1 >/dev/null")
    else:
        steps += [f"printf '%s' {shlex.quote(out)}"] if out else []
        steps += [f"printf '%s' {shlex.quote(err)} >&2"] if err else []
        steps.append(f"exit {code}")
    text = "; ".join(steps)
    if rng.random() < 0.5:  # a script file, started by a plain command
        script = folder / f"m{n}.sh"
        script.write_text(f"#!/bin/sh\n{text}\n", encoding="utf-8")
        script.chmod(0o755)
        text = f'"$CLINE_DIR"/m{n}.sh # hookweave:b/m{n}'
    hook = {"command": text, "timeout": 1 if code == -1 else rng.choice([5, 10])}
    matcher = rng.choice(MATCHERS)
    if matcher:
        hook["matcher"] = matcher
    return hook, kind


def cline_payload(rng: random.Random, event: str, tool: str) -> bytes:
    """As Cline sends one, or with the call bent where the dispatcher reads it (``preToolUse or
    postToolUse``, then ``toolName``): an empty or null call, a duplicate, a toolName not a string; or
    laid over lines, or padded to around 1 KiB, where the sh part stops reading it itself (issue 38)."""
    key = "preToolUse" if event == "PreToolUse" else "postToolUse"
    call = {"toolName": tool, "parameters": {"command": "ls"}}
    shape = rng.choice(["plain", "plain", "empty-first", "null-first", "false-first", "dup", "no-name", "null-name",
                        "empty-name", "number-name", "array", "nested", "escaped", "lines", "kib"])
    text = json.dumps({"hookName": event, key: call})
    other = rng.choice(TOOLS)
    return {"plain": text, "empty-first": json.dumps({"preToolUse": {}, "postToolUse": call}),
            "null-first": json.dumps({"preToolUse": None, "postToolUse": call}),
            "false-first": json.dumps({"preToolUse": False, "postToolUse": {}}),
            "dup": text[:-1] + f', "{key}": {{"toolName": "{other}"}}}}',
            "no-name": json.dumps({key: {"parameters": {}}}), "null-name": json.dumps({key: {"toolName": None}}),
            "empty-name": json.dumps({key: {"toolName": ""}}), "number-name": json.dumps({key: {"toolName": 7}}),
            "array": json.dumps({key: [call]}), "nested": json.dumps({key: {"x": {"toolName": other}, "toolName": tool}}),
            "escaped": json.dumps({key: call}).replace('"toolName"', '"tool\\u004eame"'),
            "lines": json.dumps({"hookName": event, key: call}, indent=rng.choice([2, "\t"])),
            "kib": json.dumps({"hookName": event, key: call, "pad": "x" * (rng.randint(1010, 1040) - len(text) - 11)}),
            }[shape].encode()


def test_the_sh_part_answers_cline_exactly_as_the_python_part(tmp_path: Path, attack_report, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(Path(sys.executable).resolve().parent) + os.pathsep + os.environ["PATH"])
    rng = random.Random(24)
    cases = attack_size(40, 600)
    disagreements, fast = [], 0
    for case in range(cases):
        folder = tmp_path / f"case{case}"
        folder.mkdir()
        event, tool = rng.choice(EVENTS), rng.choice(TOOLS)
        hooks = [member(rng, folder, n)[0] for n in range(rng.randint(1, 4))]
        path = folder / event
        text = cline_dispatcher.render(event, hooks, 0)
        path.write_text(text, encoding="utf-8")
        fast += "hw_facts" in text
        payload = cline_payload(rng, event, tool)
        seen = {}
        shell = ["bash", "--posix"] if rng.random() < 0.3 else ["sh"]  # bash as sh, in a UTF-8 locale
        for how, argv in (("sh", [*shell, str(path)]), ("py", ["python3", "-S", str(path)])):
            log = folder / f"log.{how}"
            log.touch()
            env = {**os.environ, "CLINE_LOG": str(log), "CLINE_DIR": str(folder), "LC_ALL": "C.UTF-8"}
            done = subprocess.run(argv, input=payload, capture_output=True, timeout=60, env=env, cwd=folder)
            seen[how] = (log.read_text().split(), done.returncode, done.stdout, done.stderr)
        if seen["sh"] != seen["py"]:
            disagreements.append((event, tool, hooks, seen))
    attack_report("Cline's hook file: sh part vs Python part", cases=cases, with_sh_path=fast,
                  disagreements=len(disagreements))
    assert fast == cases
    assert not disagreements, disagreements[:3]
