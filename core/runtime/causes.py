"""Why a hook did not run its own logic, read from its exit code and stderr: a program that is not
there (127), a script that cannot be executed (126), a shebang naming a missing interpreter (or one
ending in a carriage return: a CRLF file), a script file that does not exist (python's exit 2,
node's exit 1), an uncaught exception, a signal.

Advice on such a run must name that cause, not the hook's answer: a missing ``python3`` script
exits 2, which Claude reads as a block, and "parse the payload" would be no help at all.
"""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path
from typing import NamedTuple


class Cause(NamedTuple):
    name: str  # pitfall id: program-missing, script-missing, not-executable, bad-interpreter, crash, killed
    what: str  # what happened, naming the program or file
    fix: str


# What the shells (bash, dash), env and the interpreters print; the quoted name is group "name".
NOT_FOUND = re.compile(r"^(?:\S*(?:bash|sh|zsh)(?:: line \d+|: \d+)?: )?(?:line \d+: )?(?P<name>[^\n:]+?): "
                       r"(?:command )?not found$", re.MULTILINE)
NO_FILE = re.compile(r"^\S*(?:bash|sh|zsh)(?:: line \d+|: \d+)?: (?:line \d+: )?(?P<name>[^\n]+?): "
                     r"(?:No such file or directory|cannot execute: required file not found)$", re.MULTILINE)
DENIED = re.compile(r"^\S*(?:bash|sh|zsh)(?:: line \d+|: \d+)?: (?:line \d+: )?(?P<name>[^\n]+?): "
                    r"(?:Permission denied|Is a directory)$", re.MULTILINE)
BAD_INTERPRETER = re.compile(r": (?P<name>[^\n:]+): bad interpreter: ", re.MULTILINE)
ENV_MISSING = re.compile(r"^(?:/usr)?/bin/env: [‘'`\"](?P<name>[^\n]*?)[’'\"]: No such file or directory$", re.MULTILINE)
SCRIPT_MISSING = (  # interpreters that name a script file they could not open
    re.compile(r"can't open file [‘'\"](?P<name>[^\n]+?)[’'\"]: \[Errno 2\]"),  # python
    re.compile(r"Error: Cannot find module [‘'\"](?P<name>[^\n]+?)[’'\"]"),  # node
    re.compile(r"No such file or directory -- (?P<name>[^\n]+?) \(LoadError\)"),  # ruby
    re.compile(r"Can't open perl script \"(?P<name>[^\n]+?)\": No such file"),  # perl
)
TRACEBACK = re.compile(r"Traceback \(most recent call last\):\n(?:[ \t].*\n|\n)*(?P<last>[A-Za-z_][\w.]*(?::[^\n]*)?)")


def of(exit_code: int | None, stderr: bytes, timed_out: bool) -> Cause | None:
    """The cause of a run that never got to decide, or ``None`` where the hook itself answered."""
    if timed_out or exit_code in (0, None):
        return None
    text = stderr.decode("utf-8", "replace").replace("\r\n", "\n")
    if exit_code < 0:
        name = _signal_name(-exit_code)
        return Cause("killed", f"the hook was killed by {name}",
                     "find what sends the signal (a memory limit, a crash in a program it runs) and exit 0 or 2 yourself")
    for pattern in SCRIPT_MISSING:
        found = pattern.search(text)
        if found:
            return _missing_file(found.group("name"))
    if exit_code in (126, 127):
        found = ENV_MISSING.search(text)
        if found:
            return _interpreter(found.group("name"), None)
        found = BAD_INTERPRETER.search(text)
        if found:
            return _interpreter(found.group("name").rstrip(), None)
        found = DENIED.search(text)
        if found:
            return _denied(found.group("name"))
        found = NO_FILE.search(text) or NOT_FOUND.search(text)
        if found:
            return _not_found(found.group("name").strip())
    found = TRACEBACK.search(text)
    if found:
        return Cause("crash", f"the hook crashed with a Python exception ({found.group('last')[:80]})",
                     "fix the exception (the traceback is in --json's stderr); catch what can fail and exit 0 "
                     "where the hook has nothing to decide")
    return None


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _missing_file(name: str) -> Cause:
    return Cause("script-missing", f"its script {name} does not exist, so the interpreter fails before the hook runs",
                 "create the file, or fix the path in the command ({bundle_dir}/... for a file of the bundle)")


def _not_found(name: str) -> Cause:
    """127 from the shell: the program is not on PATH, the path names no file, or (dash) the file
    is there but the interpreter its shebang names is not."""
    if "/" in name and os.path.isfile(name):
        return _interpreter(_shebang(Path(name)) or "?", name)
    if "/" in name:
        return Cause("script-missing", f"{name} does not exist", "create the file, or fix the path in the command "
                     "({bundle_dir}/... for a file of the bundle)")
    return Cause("program-missing", f"the program {name} is not found (exit 127)",
                 f"install {name}, or name it by its full path (the agent's PATH may differ from your shell's); "
                 f"to let calls through where it is missing: `command -v {name} >/dev/null 2>&1 || exit 0`")


def _denied(name: str) -> Cause:
    if os.path.isdir(name):
        return Cause("not-executable", f"{name} is a folder, not a program", "name the script inside it")
    return Cause("not-executable", f"{name} is not executable (exit 126)",
                 f"chmod +x {name}, or run it through its interpreter (bash {name}, python3 {name})")


def _interpreter(interpreter: str, script: str | None) -> Cause:
    where = f"the shebang of {script}" if script else "its shebang"
    if interpreter.endswith(("\r", "\\r")):  # env prints the carriage return as \r
        name = interpreter.removesuffix("\r").removesuffix("\\r")
        return Cause("bad-interpreter", f"{where} ends in a carriage return ({name}\\r): the script has "
                     "Windows (CRLF) line ends", "convert it to LF line ends (dos2unix, or git's core.autocrlf=input)")
    return Cause("bad-interpreter", f"{where} names {interpreter}, which is not there",
                 "install it, or change the shebang to one this machine has (#!/usr/bin/env python3)")


def _shebang(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            first = handle.readline(512)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = [w for w in first[2:].decode("utf-8", "replace").rstrip("\n").split(" ") if w]  # a \r stays on its word
    if len(words) >= 2 and words[0].endswith("/env"):
        return words[1]
    return words[0] if words else None
