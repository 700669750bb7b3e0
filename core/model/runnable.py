"""Pure: what keeps a registration runnable wherever the agent runs it: the scopes every project
reads, the size of one shell argument, and the guard before a chain's command, so a runner that
cannot start never reads as a block.

``sh`` or ``python3`` on a missing file exits 2 (or 127), which Claude, Codex and most hosts read as a
block, and Copilot any non-zero exit: a user-scope chain whose runner was named through the project
folder blocked every matching call in every other project (issue 33). So the registration first
checks its runner file is there, and else says so on stderr and exits 0, as a hook that is not
installed lets the call go ahead. POSIX sh, dash, bash and zsh (Codex's ``$SHELL -lc``) read it alike.
"""

from __future__ import annotations

GUARD_TAIL = " >&2; exit 0; }; "
MISSING = "hookweave: chain runner missing, its hooks did not run, see hooks verify"  # unquoted words in every shell
# The scopes whose files an agent reads in every project: a path in them (a chain's runner, a
# ``{bundle_dir}``) must hold from every folder, so it is the absolute one (the user's and the
# administrator's files live on this machine).
EVERY_PROJECT = frozenset({"user", "managed"})
# Agents run a command as one argument of ``sh -c`` or ``bash -c``; Linux takes at most 128 KiB for one
# (MAX_ARG_STRLEN, with its NUL), and a longer one fails to start (E2BIG). Kept 2 KiB below, for the
# variables an agent writes into the text before its shell sees it (Gemini's project folder).
MAX_COMMAND_BYTES = 126 * 1024


def longest_command(handler: object, keys: tuple[str, ...]) -> int:
    """The size in bytes of the longest command of a handler, under the host's command ``keys``."""
    if not isinstance(handler, dict):
        return 0
    return max((len(handler[k].encode("utf-8", "surrogatepass")) for k in keys if isinstance(handler.get(k), str)),
               default=0)


def guard(runner: str) -> str:
    """The text before a chain's command: ``runner`` (the shell word it runs) must be a file, else
    exit 0. The word once more only, as Codex's finds the project through ``git rev-parse``."""
    return f"[ -f {runner} ] || {{ echo {MISSING}{GUARD_TAIL}"


def unguarded(command: str) -> str:
    """A chain's command without ``guard``'s text (a registration written before it has none)."""
    if command.startswith("[ -f ") and GUARD_TAIL in command:
        return command.split(GUARD_TAIL, 1)[1]
    return command
