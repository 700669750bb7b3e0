"""Pitfalls a hook's shell text shows before it runs (pure: text in, findings out).

Each is one that hook authors hit: a script that ends on a test (``[ -f x ] && echo``, status 1), ``((x++))``
returning 1, ``"${arr[@]}"`` under ``-u`` on bash 3.2, ``grep`` on the raw payload, a call to
``tmux`` or ``jq`` that fails where the tool is missing. Each comes with its fix.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import NamedTuple


class Pitfall(NamedTuple):
    level: str  # problem (check exits 1) | warning | note
    name: str  # short id, e.g. "set-e-no-exit-0"
    message: str
    fix: str
    on: tuple = ()  # the payloads it showed on, each (name, (label, input) or None): its evidence (evidence.py)


SHELLS = re.compile(r"^#!\s*\S*(?:/|env\s+)(?:ba|z|da|k)?sh\b")
ERREXIT = re.compile(r"^\s*set\s+(?:-[a-zA-Z]*e[a-zA-Z]*\b|.*-o\s+errexit)|^#!.*\bsh\s+-[a-zA-Z]*e", re.MULTILINE)
NOUNSET = re.compile(r"^\s*set\s+(?:-[a-zA-Z]*u[a-zA-Z]*\b|.*-o\s+nounset)", re.MULTILINE)
INCREMENT = re.compile(r"(?<![$\w])\(\(\s*(?:\w+\s*(?:\+\+|--|[-+*]=)|(?:\+\+|--)\s*\w+)[^)]*\)\)(?!\s*\|\|)")
ARRAY_ALL = re.compile(r'(?<!\+)"\$\{(\w+)\[@\]\}"')
RAW_READ = re.compile(r"(\w+)=\"?\$\(\s*cat(?:\s+-|\s+/dev/stdin)?\s*\)")
CAT_GREP = re.compile(r"(?:^|[;&|(]\s*)cat(?:\s+-|\s+/dev/stdin)?\s*\|\s*(?:e|f)?grep\b", re.MULTILINE)
# A last command whose status is 1 when its test is false: ``[ -f x ] && echo``, ``grep -q p f``.
LAST_TEST = re.compile(r"\s*(?:!\s*)?(?:\[\[?\s|test\s|(?:e|f)?grep\s|\(\()(?!.*\|\|)(?!.*;\s*(?:exit|true|:)\b)")
CONDITION = re.compile(r"^\s*(?:if|elif|while|until)\b|&&|\|\||^\s*!")  # where a non-zero status ends nothing
GUARD = "command -v {0} >/dev/null 2>&1 || exit 0"


def candidates(command: str, cwd: Path, env: dict[str, str]) -> list[Path]:
    """Files a hook command may run: its words that look like paths, variables filled in."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return []
    found = []
    for word in words:
        for name, value in env.items():
            word = word.replace(f"${name}", value).replace(f"${{{name}}}", value)
        path = Path(word) if word.startswith("/") else cwd / word
        if "/" in word and path not in found:
            found.append(path)
    return found


def is_shell(path: Path, text: str) -> bool:
    """A shell script: a shell shebang, or a .sh name."""
    return bool(SHELLS.match(text[:200])) or path.suffix in (".sh", ".bash")


def _code(text: str) -> list[str]:
    """The lines that hold code: no blank lines, no comment lines (the shebang is a comment)."""
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def static(text: str, where: str, field: str | None = ".tool_input.command") -> list[Pitfall]:
    """The pitfalls ``text`` (a shell script, or a hook's inline command) shows on reading;
    ``field``: where the host's payload holds the command (None on an event without one)."""
    found: list[Pitfall] = []
    code = _code(text)
    body = "\n".join(code)
    errexit = bool(ERREXIT.search(text))
    if code and LAST_TEST.match(code[-1]):
        found.append(Pitfall(
            "problem", "ends-on-a-test",
            f"{where}: ends with `{code[-1].strip()[:40]}`, whose status is 1 when the test is false; with no exit after "
            "it, the hook then exits 1 and the agent shows a hook error",
            "end the script with `exit 0` (and exit 2 with a reason on stderr where it means to block), or write "
            "`if ...; then ...; fi`"))
    for line in code:
        if errexit and INCREMENT.search(line) and not CONDITION.search(line):
            found.append(Pitfall(
                "problem", "arithmetic-status",
                f"{where}: `{line.strip()[:50]}` returns status 1 when its value is 0 (x++ is 0 when x was 0), "
                "which ends a set -e script",
                "write `x=$((x + 1))`, or append `|| true`"))
            break
    if NOUNSET.search(text):
        for match in ARRAY_ALL.finditer(body):
            name = match.group(1)
            found.append(Pitfall(
                "warning", "empty-array-nounset",
                f'{where}: "${{{name}[@]}}" under set -u fails with "unbound variable" when {name} is empty on '
                "bash before 4.4 (macOS /bin/bash is 3.2)",
                f'write ${{{name}[@]+"${{{name}[@]}}"}}'))
            break
    raw = {m.group(1) for m in RAW_READ.finditer(body)}
    fed = any(re.search(rf'(?:echo|printf[^|]*)\s+"?\${{?{v}\b[^|]*\|\s*(?:e|f)?grep\b|grep\b[^\n]*<<<\s*"?\${{?{v}\b', body)
              for v in raw)
    if fed or CAT_GREP.search(body) or re.match(r"\s*(?:e|f)?grep\b", code[0] if code else ""):
        found.append(Pitfall(
            "problem", "grep-raw-stdin",
            f"{where}: greps the raw stdin JSON: field order is not guaranteed and any field (a description, a "
            "file's content) can hold the pattern, so it " + ("blocks calls it should let through" if field else
                                                             "matches text it did not mean to"),
            f"parse the payload first: cmd=$(jq -r '{field.split()[0]} // empty'), then match on \"$cmd\"" if field
            else "parse the payload first (jq -r '.the_field // empty') and match the field you mean"))
    for tool in ("tmux", "jq"):
        calls = [line for line in code if re.search(rf"(?:^|[;&|($`]\s*|\s){tool}\s", line)]
        guarded = re.search(rf"(?:command\s+-v|which|type|hash)\s+{tool}\b", body)
        if calls and not guarded and not all("||" in line for line in calls):
            ends = errexit or calls[-1] is code[-1]
            found.append(Pitfall(
                "warning", f"unguarded-{tool}",
                f"{where}: calls {tool} without checking it is there: where it is missing, the call fails with 127 and "
                + ("the hook exits 127: the agent shows a hook error" if ends else
                   "the script goes on without its result"),
                f"guard it: `{GUARD.format(tool)}` before the first call"))
    return found
