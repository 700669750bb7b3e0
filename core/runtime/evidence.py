"""The evidence behind a ``hooks check`` finding (issue 36): the payload's own input on one line
(the shell command, else the prompt, else the file path), a fix for a false block that fits the
case the payload was built to catch, and a finding where a guard lets a destructive command
through. Pure: payloads and outcomes in, text and findings out.

A fix that does not apply is worse than none: "parse the payload and match the command" told the
author of a guard that already reads ``.tool_input.command`` nothing, when what it matched was the
body of a heredoc inside that very command.
"""

from __future__ import annotations

import json
import re

from hookweave.core.files.paths import printable
from hookweave.core.runtime import payloadbase as cases
from hookweave.core.runtime.pitfalls import Pitfall

# The fields that say what a call is about, in the order they are shown: the keys every host's shape
# uses (tests/e2e measured them), whatever the nesting (tool_input, toolArgs, preToolUse.parameters ...).
LABELS = {"command": "command", "commands": "command", "command_line": "command", "CommandLine": "command",
          "prompt": "prompt", "user_prompt": "prompt", "file_path": "file", "filePath": "file", "notebook_path": "file",
          "path": "file"}
RANK = {"command": 0, "prompt": 1, "file": 2}
WIDTH = 120  # characters: one terminal line, beside the label
# Text of a hook that can block: an exit or return code 2, or an answer that denies, blocks or cancels.
CAN_BLOCK = re.compile(r"\bexit\s*\(?\s*2\b|\breturn\s+2\b|process\.exit\(\s*2\s*\)|[\"'](?:deny|block)[\"']"
                       r"|[\"']cancel[\"']\s*:\s*true|\bpermissionDecision\b")


def shown(data) -> tuple[str, str] | None:
    """The payload's key field as (label, its text on one line): ``("command", "rm -rf ~/")``."""
    found = sorted(_fields(data, 0))
    if not found:
        return None
    _, _, label, text = found[0]
    return label, one_line(text)


def one_line(text: str) -> str:
    """``text`` on one line: line breaks and control characters as escapes, cut at ``WIDTH``."""
    text = printable(text)
    return text if len(text) <= WIDTH else text[:WIDTH - 3] + "..."


def _fields(value, depth: int) -> list[tuple[int, int, str, str]]:
    """Each key field in ``value`` as (rank, depth, label, text); a JSON string is read as what it
    holds (Cline's ``commands``, a list as a string; Copilot's ``toolArgs`` as its docs spell it)."""
    if isinstance(value, str) and value.lstrip().startswith(("{", "[")):
        value = _json(value)
    if depth > 5 or not isinstance(value, dict):
        return []
    out = []
    for key, item in value.items():
        if key in LABELS:
            text = _text(_json(item) if isinstance(item, str) and item.lstrip().startswith("[") else item)
            if text:
                out.append((RANK[LABELS[key]], depth, LABELS[key], text))
        elif isinstance(item, (dict, str)):
            out += _fields(item, depth + 1)
    return out


def _json(text: str):
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def _text(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    return ""


def false_block(title: str, payload, reason: str, field: str) -> Pitfall:
    """A block on a payload that should pass, with the fix for what that payload holds."""
    said = f"{title} blocks a payload that should pass: {reason}"
    if payload.name == cases.ORDINARY:
        return Pitfall("problem", "false-block", f"{title} blocks even an ordinary call: {reason}",
                       f"read the payload's {field} (JSON on stdin) and block only the commands you mean to")
    if payload.name == cases.ORDINARY_PROMPT:
        return Pitfall("problem", "false-block", f"{title} blocks even an ordinary prompt: {reason}",
                       "read the payload's prompt (JSON on stdin) and block only the prompts you mean to")
    fix = FIXES.get(payload.name, "parse the payload and match {field} itself, not data in a heredoc body, "
                                  "a description or another field")
    return Pitfall("problem", "false-block", said, fix.format(field=field))


FIXES = {  # per hostile case (payloadbase): what the guard matched there, and how to match the command instead
    cases.HEREDOC: "the guard matched text inside a heredoc: the lines between <<'EOF' and EOF are data the "
                   "command writes (a note, a file), not commands it runs; match the command word instead: drop each "
                   "heredoc body (the lines after a <<WORD up to the line WORD) before you look for rm, as "
                   "example-guard's guard.py does (hooks init --from example-guard)",
    cases.QUOTED: "the guard matched text inside quotes: a quoted string is one argument (a commit message here), "
                  "not a command; match the command word instead: leave quoted strings out before you look for rm, "
                  "except where a shell runs them (bash -c, sh -c, eval, ssh HOST, a pipe into sh), as "
                  "example-guard's guard.py does (hooks init --from example-guard)",
    cases.OTHER_FIELD: "the guard matched text outside the command (the tool's description names rm -rf; the command "
                       "is ls -la): read {field} alone and match on it, not on the whole payload",
    cases.NON_ASCII: "the guard blocks a command for its non-ASCII text (a file name or a message may hold any "
                     "character): read stdin as UTF-8 and match the command word, not the characters around it",
    cases.WORD_IN_PROMPT: "the guard matched rm -rf in the prompt, where it is a word the user wrote, not a command "
                          "that runs: block prompts only on what must never reach the model (a secret), and leave "
                          "commands to a pre_tool_use hook, which sees each before it runs",
}


def can_block(texts: list[str]) -> bool:
    """Whether a hook's own text (its scripts, its command) shows it blocks some calls."""
    return any(CAN_BLOCK.search(text) for text in texts)


def let_through(title: str, outcomes: list, guard: bool, field: str) -> list[Pitfall]:
    """A warning per payload that should be blocked and was allowed, on a hook that blocks other
    calls (``guard``: it blocked a payload, or its text can): a hook with another job says nothing.
    A warning, not a problem: a guard of ``--no-verify`` has no duty to stop ``rm -rf``."""
    out = []
    for o in outcomes:
        if not (guard and o.payload.should_block and o.verdict.action in ("allow", "ignored")):
            continue
        if any(p.name != "slow" for p in o.pitfalls):  # already named: a block the host ignores, a crash
            continue
        what = shown(o.payload.data)
        command = what[1] if what else o.payload.name
        out.append(Pitfall("warning", "let-through", f"{title}: {command} was allowed: the guard lets a destructive "
                           "command through", f"if stopping such commands is its job, match rm with -r and -f on / or ~ "
                           f"in {field} (example-guard's guard.py has the patterns: hooks init --from example-guard); "
                           "if its job is another, leave it"))
    return out
