"""Pure: the chain runner's sh fast path as install writes it (``core/standalone/chainrun.sh`` after a
header of host facts), its place beside the settings file, and whether a file is one hookweave wrote.

The header is data generated here from the Python runner's own tables, so both paths read the same
facts: each host's shell (``chainproc.SHELLS``), the payload field its matchers test
(``chainanswer.QUERY``), and per event which exit codes ``protocol.judge`` decides alone for a member
that printed nothing on stdout (allow, block) with an empty stderr and with text on it. Every other
answer is the Python runner's to read.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

from hookweave.core.formats.patch import sha256_text

# Hosts whose chain runs the sh fast path. Copilot keeps the Python runner: its entry carries a
# PowerShell command too, which runs the same chain on Windows, where there is no sh.
SH_HOSTS = ("claude", "codex", "gemini", "cursor", "qwen", "factory", "windsurf", "antigravity", "auggie")
HEAD = "#!/bin/sh\n# hookweave chain runner, sh fast path (`hooks install`); do not edit: `hooks verify` checks it.\n"
KEY = "# key "
VISIBLE = ("x", "deny", "{}", '{"decision": "block"}', "2")  # stderr texts that must all be judged alike


SUFFIX = ".hookweave-chain.sh"


def runner_path(settings: Path) -> Path:
    """Beside the Python runner (``chain.runner_path``), which it finds by its own name."""
    return settings.with_name(settings.stem + SUFFIX)


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


def _events(host: str) -> list[str]:
    from hookweave.core.model import names
    from hookweave.core.standalone.chainanswer import QUERY

    column = names.HOSTS.index(host if host in names.HOSTS else "claude")  # Auggie's events are Claude's names
    return sorted({row[column] for row in names.EVENTS.values() if row[column]} | set(QUERY.get(host, ())))


@functools.lru_cache(maxsize=1)
def facts_text() -> str:
    """``hw_facts <host> <event>``: sets hw_shell, hw_field, hw_E and hw_T; 1 for a host it does not know."""
    from hookweave.core.standalone.chainanswer import QUERY
    from hookweave.core.standalone.chainproc import SHELLS

    groups: dict[tuple[str, str, str, str], list[str]] = {}
    for host in SH_HOSTS:
        shell = '${SHELL:-/bin/sh}' if host == "codex" else SHELLS.get(host, "sh")
        for event in _events(host):
            field = QUERY.get(host, {}).get(event, "")
            row = (shell, "-" if "." in field else field, _codes(host, event, ("",)), _codes(host, event, VISIBLE))
            groups.setdefault(row, []).append(f"{host}:{event}")
    lines = ["hw_facts() {", '  case $1:$2 in']
    for (shell, field, empty, text), keys in groups.items():
        lines.append(f"    {'|'.join(keys)})")
        lines.append(f"      hw_shell={shell} hw_field={field} hw_E='{empty}' hw_T='{text}' ;;")
    lines += ["    *) return 1 ;;", "  esac", "}", ""]
    return "\n".join(lines)


def _body() -> str:
    from hookweave.core import standalone

    return (Path(standalone.__file__).parent / "chainrun.sh").read_text(encoding="utf-8")


def _key(rest: str) -> str:
    return sha256_text(rest)[len("sha256:"):][:16]


def runner_text() -> str:
    rest = facts_text() + "\n" + _body()
    return HEAD + KEY + _key(rest) + "\n" + rest


def pristine(text: str) -> bool:
    """Whether ``text`` is an sh runner as some hookweave wrote it, unedited (its key is the hash of the rest)."""
    if not text.startswith(HEAD + KEY):
        return False
    key, _, rest = text[len(HEAD + KEY):].partition("\n")
    return _key(rest) == key
