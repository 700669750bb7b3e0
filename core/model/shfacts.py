"""Pure: the host facts the sh fast path reads (``core/standalone/chainrun.sh``), as sh, and that text
with its facts as the first part of Cline's hook files. The chain runner's file is ``core/plan/chainsh``.

The facts are data generated here from the Python runner's own tables, so both paths read the same
facts: each host's shell (``chainproc.SHELLS``), the payload field its matchers test
(``chainanswer.QUERY``), and per event which exit codes ``protocol.judge`` decides alone for a member
that printed nothing on stdout (allow, block) with an empty stderr and with text on it. Every other
answer is the Python runner's to read.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

# Hosts whose chain runs the sh fast path. Copilot keeps the Python runner: its entry carries a
# PowerShell command too, which runs the same chain on Windows, where there is no sh.
SH_HOSTS = ("claude", "codex", "gemini", "cursor", "qwen", "factory", "windsurf", "antigravity", "auggie")
VISIBLE = ("x", "deny", "{}", '{"decision": "block"}', "2")  # stderr texts that must all be judged alike


def _act(verdict) -> str:
    if verdict.action in ("block", "stop"):
        return "b"
    if verdict.action in ("allow", "ignored") and verdict.output is None and not (
            verdict.action == "ignored" and verdict.notes):
        return "a"
    return "h"  # an error (its note quotes stderr), an ask, an answer: Python reads it


def _codes(host: str, event: str, errs: tuple[str, ...]) -> str:
    """`` 0=a 2=b *=h ``: the action of each exit code when stderr is each of ``errs`` (``h`` when they differ)."""
    from hookweave.core.standalone.protocol import judge

    acts = []
    for code in range(256):
        seen = {_act(judge(host, event, code, "", err)) for err in errs}
        if code > 128:  # sh sees 128 + N for a member a signal ended; Python sees -N
            seen |= {_act(judge(host, event, 128 - code, "", err)) for err in errs}
        acts.append(seen.pop() if len(seen) == 1 else "h")
    default = Counter(acts).most_common(1)[0][0]
    return " " + " ".join(f"{c}={a}" for c, a in enumerate(acts) if a != default) + f" *={default} "


def events(host: str) -> list[str]:
    from hookweave.core.model import names
    from hookweave.core.standalone.chainanswer import QUERY

    column = names.HOSTS.index(host if host in names.HOSTS else "claude")  # Auggie's events are Claude's names
    return sorted({row[column] for row in names.EVENTS.values() if row[column]} | set(QUERY.get(host, ())))


@functools.lru_cache(maxsize=4)
def facts_text(hosts: tuple[str, ...] = SH_HOSTS) -> str:
    """``hw_facts <host> <event>``: sets hw_shell, hw_field, hw_E and hw_T; 1 for a host it does not know."""
    from hookweave.core.standalone.chainanswer import QUERY
    from hookweave.core.standalone.chainproc import SHELLS

    groups: dict[tuple[str, str, str, str], list[str]] = {}
    for host in hosts:
        shell = '${SHELL:-/bin/sh}' if host == "codex" else SHELLS.get(host, "sh")
        for event in events(host):
            field = QUERY.get(host, {}).get(event, "")
            row = (shell, "-" if "." in field else field, _codes(host, event, ("",)), _codes(host, event, VISIBLE))
            groups.setdefault(row, []).append(f"{host}:{event}")
    lines = ["hw_facts() {", '  case $1:$2 in']
    for (shell, field, empty, text), keys in groups.items():
        lines.append(f"    {'|'.join(keys)})")
        lines.append(f"      hw_shell={shell} hw_field={field} hw_E='{empty}' hw_T='{text}' ;;")
    lines += ["    *) return 1 ;;", "  esac", "}", ""]
    return "\n".join(lines)


def body() -> str:
    return _standalone("chainrun.sh")


def shapes() -> str:
    """The JSON answers the sh path reads itself (``core/model/shanswers.py``, generated into this file)."""
    return _standalone("chainshapes.sh")


def _standalone(name: str) -> str:
    from hookweave.core import standalone

    return (Path(standalone.__file__).parent / name).read_text(encoding="utf-8")


def cline_text(event: str, hooks: list[dict]) -> str | None:
    """The sh fast path as the first part of Cline's hook file for ``event`` (``hosts/cline_dispatcher``):
    the members' words, then the runner, which hands over to the file's own Python part. None
    when a word would not survive inside the Python raw string that hides this text from Python (a
    backslash, three quotes) or the file's UTF-8 (a lone surrogate)."""
    words = ["cline", event]
    for n, hook in enumerate(hooks):
        timeout = hook.get("timeout")
        words += [f"m{n}", str(timeout) if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) else "0",
                  hook.get("matcher") or "", hook.get("command")]
    if not all(isinstance(w, str) for w in words):
        return None
    quoted = " ".join("'" + w.replace("'", "'\"'\"'") + "'" for w in words)
    if "\\" in quoted or "\'\'\'" in quoted or any(0xD800 <= ord(c) <= 0xDFFF for c in quoted):
        return None
    return f"set -- {quoted}\nhw_py=$0\n" + facts_text(("cline",)) + "\n" + body()
