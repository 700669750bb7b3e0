"""What every host's ``hooks check`` payloads share: the payload type, the session ids and stamps,
and the shell commands and prompts each event's payloads carry (payloads, payloadshapes)."""

from __future__ import annotations

from typing import NamedTuple

SESSION = "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f"
TURN = "01a2064a-cad2-76e0-a9ad-d09e91bd33c5"
STAMP = "2026-11-23T02:45:06.630Z"


class Payload(NamedTuple):
    name: str  # what the payload is, as the report names it
    event: str  # the host's event name
    data: dict
    should_pass: bool  # a block on it is a false positive
    tool: str | None = None  # the tool name a matcher sees, None on events without tools

    @property
    def should_block(self) -> bool:
        """A payload a guard of shell commands should block: ``should_pass`` false says only that a block
        is no false positive (a stop hook's block is its job), this says a pass lets harm through."""
        return self.name == DESTRUCTIVE


# The shell cases by name: each hostile one tells ``hooks check`` which fix fits a block on it (evidence.py).
ORDINARY = "an ordinary shell command"
HEREDOC = "a heredoc whose body says rm -rf"
QUOTED = "a quoted message that says rm -rf"
OTHER_FIELD = "rm -rf named in another field"
NON_ASCII = "non-ASCII text"
DESTRUCTIVE = "a destructive command"


# Shell commands and prompts, in neutral form: (name, command, description, should pass).
SHELL = (
    (ORDINARY, "git status --short", "Show the working tree status", True),
    (HEREDOC, "cat > notes.md <<'EOF'\nNever run rm -rf / on a shared host.\nEOF",
     "Write a note about rm -rf", True),
    (QUOTED, 'git commit -m "Explain why rm -rf / is refused"', "Commit the docs change", True),
    (OTHER_FIELD, "ls -la", "List files before the rm -rf / cleanup", True),
    (NON_ASCII, "echo 'Größe: 5 µm — 日本語 ✓'", "Print a non-ASCII line", True),
    (DESTRUCTIVE, "rm -rf ~/", "Delete the home folder", False),
)
ORDINARY_PROMPT, WORD_IN_PROMPT = "an ordinary prompt", "a non-ASCII prompt"  # the second says rm -rf as a word
PROMPTS = ((ORDINARY_PROMPT, "Summarise README.md in three lines"),
           (WORD_IN_PROMPT, "Résume le fichier — 日本語 ✓ (rm -rf is only a word here)"))
MILLIS = 1795643144510  # a Copilot timestamp (milliseconds)


def shell_payloads(event: str, after: bool, make, skip_other_field: bool = False) -> list[Payload]:
    """One payload per shell case of ``SHELL`` (only the first after the call), built by ``make``."""
    out = []
    for i, (name, command, description, passes) in enumerate(SHELL[:1] if after else SHELL):
        if skip_other_field and name == OTHER_FIELD:
            continue  # no other field of their shell input to hide it in
        data, tool = make(i, command, description)
        out.append(Payload(name, event, data, passes, tool))
    return out
