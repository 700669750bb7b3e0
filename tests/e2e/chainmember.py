"""A chain member for the real-agent tests: logs its start and end for each tool call, then answers.

Usage: chainmember.py <id> <log> <sleep seconds> <mode>. Modes: ``quiet`` (exit 0, prints nothing),
``context`` (additionalContext ``context-from-<id>``, top-level for Copilot), ``block-stop`` (exit 2 with a reason when the
tool call's command holds ``mode-stop``, else quiet).
"""

import json
import sys
import time

hook_id, log, sleep, mode = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
start = time.time()
payload = json.load(sys.stdin)
tool_input = payload.get("tool_input") or payload.get("toolArgs") or {}  # Copilot's own files: toolArgs
command = tool_input.get("command") if isinstance(tool_input, dict) else ""
call = str(command).split("mode-")[-1] if "mode-" in str(command) else "?"
time.sleep(sleep)
with open(log, "a", encoding="utf-8") as out:
    out.write(json.dumps({"id": hook_id, "call": call, "start": start, "end": time.time()}) + "\n")
if mode == "context" and "toolArgs" in payload:  # Copilot reads a top-level additionalContext
    print(json.dumps({"additionalContext": f"context-from-{hook_id}"}))
elif mode == "context":
    event = payload.get("hook_event_name")
    print(json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": f"context-from-{hook_id}"}}))
elif mode == "block-stop" and call == "stop":
    sys.stderr.write(f"stopped by {hook_id}\n")
    sys.exit(2)
