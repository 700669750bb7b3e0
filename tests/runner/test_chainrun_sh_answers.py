"""JSON answers the sh fast path reads itself (issue 38): a member that exits 0 with one line of JSON
whose shape the protocol table judges alike for every text (``core/model/shanswers.py``, generated into
``core/standalone/chainshapes.sh``) is judged in sh: a block ends the chain with that member's own
stdout, an answer the chain keeps is printed as the Python runner prints it. Anything else (an escape,
a number, a second answer to combine, stderr beside it) is the Python runner's.

Each case runs through the sh path and through the Python runner alone; both must run the same
members with the same exit code, stdout and stderr. A ``python3`` first on PATH notes every hand-over.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from hookweave.core.model import shanswers
from hookweave.core.model.shfacts import shapes
from tests.runner.test_chainrun_sh_matchers import REAL_PYTHON, folder, run  # noqa: F401  (folder: a fixture)

HOOKEVENT = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool", "cursor": "preToolUse",
             "qwen": "PreToolUse", "factory": "PreToolUse", "auggie": "PreToolUse", "antigravity": "PreToolUse",
             "windsurf": "pre_run_command"}


NUL, OCTAL = "\0", "\\000"  # a NUL cannot be a word of a command: printf writes it


def both(folder: Path, host: str, event: str, answers: list[str], more: list[str] = (), first: str = ""):
    """The members: ``first`` when given, each answer printed by a member, then ``more`` commands."""
    members = [] if not first else ["f", "10", "", f'echo f >>"$LOG"; {first}']
    for n, text in enumerate(answers):
        printing = f"printf %s {shlex.quote(text)}" if NUL not in text else "printf '" + text.replace(NUL, OCTAL) + "'"
        members += [f"j{n}", "10", "", f'echo j{n} >>"$LOG"; {printing}']
    for n, command in enumerate([*more, "true"]):
        members += [f"m{n}", "10", "", f'echo m{n} >>"$LOG"; {command}']
    payload = json.dumps({"tool_name": "Bash", "tool_input": {}}).encode()
    sh = run(folder, ["sh", str(folder / "settings.hookweave-chain.sh"), host, event, *members], payload)
    py = run(folder, [REAL_PYTHON, "-S", str(folder / "settings.hookweave-chain.py"), host, event, *members], payload)
    return sh, py


def context(event: str, text: str = "x") -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}})


READ_IN_SH = [  # (host, answer, what the chain prints)
    ("claude", context("PreToolUse") + "\n", context("PreToolUse")),
    ("claude", '{"decision":"block","reason":"not on main"}\n', '{"decision":"block","reason":"not on main"}\n'),
    ("claude", '  {"continue": false}', '  {"continue": false}'),
    ("claude", '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",'
               '"permissionDecisionReason":"no"}}', None),
    ("claude", '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}',
     '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}'),
    ("claude", '{"systemMessage":"it\'s {fine} [1]"}', '{"systemMessage": "it\'s {fine} [1]"}'),
    ("codex", '{"decision":"block","reason":"x y"}', None),
    ("gemini", '{"decision":"deny","reason":"x"}', None),
    ("gemini", '{"decision":"allow"}', '{"decision": "allow"}'),
    ("cursor", '{"permission":"deny","user_message":"u","agent_message":"a"}', None),
    ("qwen", '{"decision":"block","reason":"x"}', None),
    ("factory", '{"continue":false,"stopReason":"done"}', None),
    ("antigravity", '{"decision":"deny","reason":"r"}', None),
]


@pytest.mark.parametrize("host, answer, printed", READ_IN_SH)
def test_common_answers_are_read_in_sh_as_the_python_runner_reads_them(folder, host, answer, printed):
    """Before, every member that printed an answer before others handed over to Python (+20 ms)."""
    sh, py = both(folder, host, HOOKEVENT[host], [answer])
    assert sh[:4] == py[:4]
    assert sh[1].decode() == (answer if printed is None else printed)
    assert not sh[4], f"{host}: handed {answer!r} over to Python"


HANDED_OVER = [  # answers sh cannot read exactly: the Python runner reads them, the same as before
    '{"decision":"block","reason":"a \\"quoted\\" word"}',  # an escape
    '{"decision":"block","reason":"caf\u00e9"}',  # beyond ASCII
    '{"decision":"block","decision":"approve"}',  # a duplicate key
    '{"decision":"block","reason":""}',  # an empty text: in no shape
    '{"decision":"block",}', '{"decision":"block"} x', '{"decision":"block"}\n\n', '{"decision":"block"}\r\n',
    '{"decision":"defer"}', '{"decision":"Block"}', '{"decision":true}', '{"timeout":5}', '{"continue":1}',
    '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"x"}}',  # another event
    '{"hookSpecificOutput":{"hookSpecificOutput":{}}}', '{"reason":"PreToolUse","decision":"block"}', "[1]",
    '{"decision":"bl\0ock"}', '{"decision":"block"}\0', '{"decision":"block"}\t',
]


@pytest.mark.parametrize("answer", HANDED_OVER)
def test_answers_sh_cannot_read_exactly_are_left_to_python(folder, answer):
    sh, py = both(folder, "claude", "PreToolUse", [answer])
    assert sh[:4] == py[:4] and sh[4]


def test_a_second_answer_is_combined_by_python_with_the_first_kept_in_sh(folder):
    sh, py = both(folder, "claude", "PreToolUse", [context("PreToolUse", "one"), '{"systemMessage":"two"}'])
    assert sh[:4] == py[:4] and sh[4]
    assert json.loads(sh[1]) == {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "one"},
                                 "systemMessage": "two"}


@pytest.mark.parametrize("more", [['echo said >&2'], ['echo said >&2; exit 1'], ['exit 2'],
                                  ['printf %s \'{"decision":"block","reason":"b"}\''], ['exit 3']])
def test_members_after_a_kept_answer_go_on_as_in_python(folder, more):
    """After a kept answer: stderr joins it, a block ends the chain without it, an error hands over."""
    sh, py = both(folder, "claude", "PreToolUse", [context("PreToolUse")], more)
    assert sh[:4] == py[:4]
    assert sh[4] == (more[0].endswith(("exit 1", "exit 3"))), "handed over to Python"


@pytest.mark.parametrize("first", ["echo said >&2", context("PreToolUse").join(("printf %s '", "'"))])
def test_a_block_after_stderr_or_a_kept_answer_is_its_own_as_in_python(folder, first):
    sh, py = both(folder, "claude", "PreToolUse", ['{"decision":"block","reason":"x"}'], first=first)
    assert sh[:4] == py[:4] and sh[1] == b'{"decision":"block","reason":"x"}' and sh[2] == b""
    assert not sh[4]


def test_the_shapes_file_is_generated_from_the_protocol_table():
    """``core/standalone/chainshapes.sh`` is what the protocol table says today: regenerate it with
    ``python -m hookweave.core.model.shanswers > core/standalone/chainshapes.sh`` when a judge changes."""
    assert shapes() == shanswers.generated()
    assert not set(shanswers.TEXTS) & (set(shanswers.WORDS) | set(shanswers.OTHER))


def test_every_shape_in_the_table_is_read_in_sh_as_python_reads_it(folder):
    """One answer of each shape sh reads on Claude's PreToolUse, compact, through both runners."""
    kept, blocks = shanswers.table("claude", "PreToolUse")
    letters = {letter: path for path, letter in shanswers.KEYS.items()}
    values = {"T": "a reason", "1": True, "0": False, "@": "PreToolUse"} | {v: k for k, v in shanswers.WORDS.items()}
    for signature in (kept + blocks).split():
        answer: dict = {}
        for at in range(0, len(signature), 2):
            path, mark = letters[signature[at]], signature[at + 1]
            outer, _, inner = path.rpartition(".")
            where = answer.setdefault(outer, {}) if outer else answer
            where.setdefault(inner, {}) if mark == "{" else where.__setitem__(inner, values[mark])
        sh, py = both(folder, "claude", "PreToolUse", [json.dumps(answer, separators=(",", ":"))])
        assert sh[:4] == py[:4] and not sh[4], signature
