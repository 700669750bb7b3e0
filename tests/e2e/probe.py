"""Logging probe hook: appends one JSON line per call (hook id, event, start, end, chosen env vars, its
arguments, Auggie's project variable, the shell command where the payload has one).

Usage: probe.py <hook id> <log file> [<seconds to sleep>]. Reads the hook payload on stdin,
prints nothing (so no host reads a decision from it) and exits 0.
"""

import json
import os
import sys
import time

ENV = ("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "PROBE_VAR", "LETTA_WORKING_DIR", "OPENHANDS_PROJECT_DIR", "OPENHANDS_SESSION_ID",
       "OPENHANDS_EVENT_TYPE", "OPENHANDS_TOOL_NAME", "OPENHARNESS_HOOK_EVENT", "OPENHARNESS_HOOK_PAYLOAD")

hook_id, log = sys.argv[1], sys.argv[2]
start = time.time()
payload = json.loads(sys.stdin.read() or os.environ.get("OPENHARNESS_HOOK_PAYLOAD") or "{}")  # OpenHarness: no stdin
time.sleep(float(sys.argv[3]) if len(sys.argv) > 3 else 0.0)
call = payload.get("preToolUse") or {}  # Cline names the event hookName and the tool preToolUse.toolName
line = {"id": hook_id, "event": payload.get("hook_event_name") or payload.get("hookName") or payload.get("event_type")
        or payload.get("event"),
        "tool": payload.get("tool_name") or call.get("toolName"),
        "command": (payload.get("tool_input") or {}).get("command") if isinstance(payload.get("tool_input"), dict) else None,
        "start": start, "end": time.time(), "env": {k: os.environ.get(k) for k in ENV}, "argv": sys.argv[1:],
        "augment_project_dir": os.environ.get("AUGMENT_PROJECT_DIR")}
with open(log, "a", encoding="utf-8") as out:
    out.write(json.dumps(line) + "\n")
