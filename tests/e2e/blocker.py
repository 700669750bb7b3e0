"""A PreToolUse hook that answers in the way the shell command asks: ``echo mode-<name>``.

Usage: blocker.py <log file> <host>. Reads the payload on stdin, finds ``mode-<name>`` in it,
logs one JSON line (mode, start time) and then answers:

- ``exit2``: the reason on stderr, exit 2          - ``exit3``: the reason on stderr, exit 3
- ``exit1``: the reason on stderr, exit 1          - ``plain``: the reason on stdout, exit 0
- ``block``: ``{"decision": "block", ...}``        - ``deny``: ``permissionDecision: "deny"``
- anything else: nothing, exit 0.

Every reason holds ``reason-<name>``, so a test finds what the model was told.
"""

import json
import os
import re
import sys
import time

log, host = sys.argv[1], sys.argv[2]
start = time.time()
payload = sys.stdin.read() or os.environ.get("OPENHARNESS_HOOK_PAYLOAD", "")  # OpenHarness gives no stdin
found = re.search(r"mode-([a-z0-9]+)", payload)
mode = found.group(1) if found else ""
with open(log, "a", encoding="utf-8") as out:
    out.write(json.dumps({"mode": mode, "start": start}) + "\n")
reason = f"reason-{mode} from the hook"
if mode in ("exit1", "exit2", "exit3"):
    print(reason, file=sys.stderr)
    sys.exit(int(mode[-1]))
if mode == "plain":
    print(reason)
elif mode == "block":
    print(json.dumps({"decision": "block", "reason": reason}))
elif mode == "deny":
    event = "BeforeTool" if host == "gemini" else "PreToolUse"
    print(json.dumps({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                             "permissionDecisionReason": reason}}))
