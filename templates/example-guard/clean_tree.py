"""Stop hook: before the agent ends its turn, ask it once to commit or stash its changes.

Prints a JSON ``{"decision": "block", "reason": ...}`` when the git tree has uncommitted changes;
does nothing when the stop hook already fired this turn (``stop_hook_active``), outside git, or
on a clean tree, so it can never keep an agent looping.
"""

import json
import subprocess
import sys


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    if payload.get("stop_hook_active"):
        return 0
    cwd = payload.get("cwd") or "."
    try:
        result = subprocess.run(
            ["git", "status", "--porcelain"], cwd=cwd, capture_output=True, text=True, timeout=20
        )
    except (OSError, subprocess.TimeoutExpired):
        return 0
    # Not stdout.strip(): it would eat the first line's leading status column (" M core/x.py").
    changes = [line for line in result.stdout.splitlines() if line.strip()] if result.returncode == 0 else []
    if changes:
        shown = ", ".join(line[3:] for line in changes[:5]) + (" ..." if len(changes) > 5 else "")
        reason = f"Uncommitted changes ({shown}): commit or stash them before ending the turn."
        print(json.dumps({"decision": "block", "reason": reason}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
