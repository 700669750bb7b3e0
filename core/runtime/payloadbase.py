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


# Shell commands and prompts, in neutral form: (name, command, description, should pass).
SHELL = (
    ("an ordinary shell command", "git status --short", "Show the working tree status", True),
    ("a heredoc whose body says rm -rf", "cat > notes.md <<'EOF'\nNever run rm -rf / on a shared host.\nEOF",
     "Write a note about rm -rf", True),
    ("rm -rf named in another field", "ls -la", "List files before the rm -rf / cleanup", True),
    ("non-ASCII text", "echo 'Größe: 5 µm — 日本語 ✓'", "Print a non-ASCII line", True),
    ("a destructive command", "rm -rf ~/", "Delete the home folder", False),
)
PROMPTS = (("an ordinary prompt", "Summarise README.md in three lines"),
           ("a non-ASCII prompt", "Résume le fichier — 日本語 ✓ (rm -rf is only a word here)"))
MILLIS = 1795643144510  # a Copilot timestamp (milliseconds)


def shell_payloads(event: str, after: bool, make, skip_other_field: bool = False) -> list[Payload]:
    """One payload per shell case of ``SHELL`` (only the first after the call), built by ``make``."""
    out = []
    for i, (name, command, description, passes) in enumerate(SHELL[:1] if after else SHELL):
        if skip_other_field and name.startswith("rm -rf named"):
            continue  # no other field of their shell input to hide it in
        data, tool = make(i, command, description)
        out.append(Payload(name, event, data, passes, tool))
    return out
