"""Mistakes in a bundle that would install without a word and then fail on every call: a script
under ``{bundle_dir}`` that is not there, not executable, written with CRLF line ends or naming an
interpreter this machine lacks; a path relative to the bundle that the agent resolves in the
project; a host that gets nothing from the bundle.

``errors`` raises ``BadInput`` (exit 2, nothing written) naming the manifest, the hook and field,
and the fix. Checked by install before it plans anything. A program missing from PATH is not
judged here (the agent's PATH is not the installing shell's): ``hooks check`` names it when it runs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.errors import BadInput
from hookweave.core.files import paths

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host
    from hookweave.core.model.bundle import Bundle

SHELLS = ("sh", "bash", "dash", "zsh", "ksh")


def _words(command: str | tuple[str, ...]) -> list[str] | None:
    if isinstance(command, tuple):
        return list(command)
    if not any(c in command for c in _SHLEX_SPECIAL):
        # Words between shlex's whitespace, as shlex.split finds them in a command without quotes,
        # escapes or comments (most): loading and running shlex cost an install 1 million instructions.
        return [word for word in command.translate(_SHLEX_SPACES).split(" ") if word]
    import shlex

    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return None


_SHLEX_SPECIAL = ("'", '"', "\\", "#")  # shlex's quotes, escape and comment character
_SHLEX_SPACES = str.maketrans("\t\r\n", "   ")  # shlex's whitespace, " \t\r\n", as spaces


def _commands(bundle: Bundle):
    """``(where, command)`` for each hook's command and each host table's own command."""
    for i, hook in enumerate(bundle.hooks):
        yield f"hooks[{i}] ({hook.id}).command", hook.command
        for host, table in hook.overrides.items():
            if "command" in table:
                yield f"hooks[{i}] ({hook.id}).host.{host}.command", table["command"]


def errors(bundle: Bundle, projects: list[Path]) -> None:
    """Refuse a command that cannot run as written; ``projects``: the folders the agents run it in."""
    for where, command in _commands(bundle):
        words = _words(command)
        for n, word in enumerate(words or ()):
            problem = _word(bundle, word, n, words, projects)
            if problem:
                raise BadInput(f"{paths.printable(str(bundle.manifest))}: {where}: {problem}")


def _word(bundle: Bundle, word: str, n: int, words: list[str], projects: list[Path]) -> str | None:
    runs = n == 0  # the program itself, which the shell executes
    if word.startswith("{bundle_dir}"):
        path = Path(str(bundle.directory) + word[len("{bundle_dir}"):])
        shown = paths.printable(str(path))
        if not os.path.lexists(path):
            return f"{word} does not exist ({shown}); the agent would fail on every call: create it or fix the name"
        if runs and path.is_dir():
            return f"{word} is a folder; name the script inside it"
        if runs and not os.access(path, os.X_OK):
            return (f"{word} is not executable; the agent would get exit 126 on every call: chmod +x {shown}, "
                    f'or run it through its interpreter (["bash", "{word}"])')
        script = runs or (n == 1 and os.path.basename(words[0]) in SHELLS)
        return _script(path, word, runs) if script and path.is_file() else None
    if _relative_in_bundle(bundle, word) and not any((p / word).exists() for p in projects):
        return (f"{word} is relative: the agent runs hooks in the project folder, where it is not; "
                f"write {{bundle_dir}}/{word}")
    return None


def _relative_in_bundle(bundle: Bundle, word: str) -> bool:
    if word.startswith(("/", "-", "$", "~", "{")) or "/" not in word.rstrip("/") and "." not in word:
        return False
    try:
        return (bundle.directory / word).is_file()
    except (OSError, ValueError):
        return False


def _script(path: Path, word: str, runs: bool) -> str | None:
    """A script's first line: CRLF line ends (its shebang names ``bash\\r``; a shell reads every
    line with a ``\\r``), or an absolute interpreter that does not exist here."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    first = head.split(b"\n", 1)[0]
    if first.endswith(b"\r") and (runs or first.startswith(b"#!") or b"\r\n" in head):
        return (f"{word} has Windows (CRLF) line ends, which a POSIX shell reads as part of each command; "
                "convert it to LF (dos2unix, or git's core.autocrlf=input)")
    if runs and first.startswith(b"#!"):
        interpreter = first[2:].decode("utf-8", "replace").split()
        if interpreter and interpreter[0].startswith("/") and not os.path.exists(interpreter[0]):
            return (f"{word}'s shebang names {interpreter[0]}, which is not on this machine; "
                    "use one it has (#!/usr/bin/env python3)")
    return None


def nothing_for(host: Host, bundle: Bundle) -> str | None:
    """Why ``bundle`` installs no hook and no env var on ``host``, or ``None`` where it does."""
    from hookweave.core.plan import resolve

    regs, notes = resolve.registrations(host, bundle)
    if regs or resolve.env_vars(host, bundle)[0]:
        return None
    named = [h for h in bundle.hooks if h.hosts is not None and host.name not in h.hosts]
    why = [n.message.removeprefix("skipped: ") for n in notes]
    for hook in named:
        why.insert(0, f"hook {hook.id} has hosts = {list(hook.hosts)}")
    return "; ".join(dict.fromkeys(why)) or "no hook applies"  # one reason shared by several hooks is said once


def hosts_with_something(hosts: list[Host], bundle: Bundle, everyone: bool) -> tuple[list[Host], list[str]]:
    """The hosts ``bundle`` installs something on, and a note for each left out. A host named on
    the command line that would get nothing is an error (an install of 0 hooks is no install);
    under ``--host all`` it is left out with a note, unless that leaves none."""
    kept, notes = [], []
    for host in hosts:
        why = nothing_for(host, bundle)
        if why is None:
            kept.append(host)
        elif not everyone:
            raise BadInput(f"{paths.printable(str(bundle.manifest))}: bundle {bundle.name} has nothing to install on "
                           f"{host.name} ({why}); install it on another host, or give a hook for {host.name}")
        else:
            notes.append(f"{host.name}: nothing to install ({why})")
    if not kept:
        raise BadInput(f"{paths.printable(str(bundle.manifest))}: bundle {bundle.name} has nothing to install on any "
                       "host asked for; check each hook's event, matcher and hosts")
    return kept, notes
