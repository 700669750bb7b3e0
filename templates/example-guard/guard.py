"""Pre-tool-use hook: refuse shell commands that destroy data beyond an easy undo.

Reads the hook payload on stdin; exits 2 with the reason on stderr to block (Claude, Codex,
Cursor and Gemini all read exit 2 as "block"), 0 to allow.
"""

import json
import re
import sys

DESTRUCTIVE = [
    (r"\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*\s+-?[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*\s+-?[a-zA-Z]*[rR]|-[a-zA-Z]*(rf|fr)[a-zA-Z]*)\s+(/|~|\$HOME)(\s|/?$|/\*)",
     "recursive forced delete of / or the home folder"),
    (r"\bgit\s+push\b(?=.*\s(--force|-f)(\s|$))(?!.*--force-with-lease)", "force push without --force-with-lease"),
    (r"\bgit\s+reset\s+--hard\b", "git reset --hard discards uncommitted work"),
    (r"\bgit\s+clean\s+-[a-zA-Z]*f", "git clean -f deletes untracked files"),
    (r"\bmkfs(\.\w+)?\s", "formatting a filesystem"),
    (r"\bdd\s+.*\bof=/dev/(sd|nvme|hd|vd|disk)", "dd onto a disk device"),
    (r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:", "fork bomb"),
]


HEREDOC = re.compile(r"(?<!<)<<(?!<)-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")


def without_heredoc_bodies(command: str) -> str:
    """The command with each here-document's body left out: that text is data (a file being
    written, a message), not commands, and ``rm -rf /`` in a note must not block writing it."""
    kept, open_ends = [], []
    for line in command.split("\n"):
        if open_ends:
            if line.lstrip("\t").rstrip() == open_ends[0]:
                open_ends.pop(0)
            continue
        kept.append(line)
        open_ends += [m.group(2) for m in HEREDOC.finditer(line)]
    return "\n".join(kept)


def command_of(payload: dict) -> str:
    tool_input = payload.get("tool_input") or {}
    if isinstance(tool_input, dict):
        return str(tool_input.get("command") or "")
    return str(payload.get("command") or "")


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0  # not our business to break the agent on a payload we do not understand
    command = without_heredoc_bodies(command_of(payload))
    for pattern, why in DESTRUCTIVE:
        if re.search(pattern, command):
            print(f"Blocked by example-guard: {why}. Run it yourself if you mean it.", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
