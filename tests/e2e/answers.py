"""A hook that answers the way its payload asks (``mode-<name>`` in the shell command or prompt),
used both by ``hooks check`` and by the real agents, so the two can be compared.

Usage: answers.py <folder> <host> [<event>]. Saves every payload to ``<folder>/payload-<event>-<n>.json``
(the shapes the real hosts send; the event is the payload's ``hook_event_name``, Cline's
``hookName``, else the one named) and answers:

- ``exit2`` / ``exit1`` / ``exit3``: the reason on stderr, that exit code
- ``noreason``: exit 2 with nothing on stderr        - ``plain``: the reason on stdout, exit 0
- ``block``: ``{"decision": "block", "reason": ...}``
- ``deny``: the host's own deny (``permissionDecision: "deny"`` in ``hookSpecificOutput``; Gemini
  ``decision: "deny"``; Copilot's top-level ``permissionDecision``; Cline's ``cancel``)
- ``crossdeny``: ``{"decision": "deny", ...}`` everywhere (Gemini's spelling on Claude and Codex)
- ``stray``: a block with one extra field          - ``badjson``: ``{not json`` on stdout, exit 2
- ``allowreason``: ``permissionDecision: "allow"`` with a ``permissionDecisionReason`` (Copilot: top level)
- ``noise``: a line on stderr, exit 0
- ``context``: the host's own context for the model (``hookSpecificOutput.additionalContext``;
  Copilot's and OpenHands' top-level ``additionalContext``; Cline's ``contextModification``)
- ``ask``: the host's own ask (as ``deny``, with ``ask``)
- ``exit1json``: ``{"decision": "block", ...}`` on stdout, exit 1
- ``cont``: ``{"continue": false, "stopReason": ...}``
- anything else: nothing, exit 0

Every reason holds ``reason-<name>``, so a test finds what the model was told. After the call
(PostToolUse and its kin) the hook answers nothing.
"""

import json
import os
import re
import sys
from pathlib import Path

folder, host = Path(sys.argv[1]), sys.argv[2]
raw = sys.stdin.read()
payload = json.loads(raw)
event = payload.get("hook_event_name") or payload.get("hookName") or payload.get("event_type") or (sys.argv[3] if len(sys.argv) > 3 else "unknown")
folder.mkdir(parents=True, exist_ok=True)
# Each run its own file, made with O_EXCL: two runs for one event at once (seen twice under load on
# Qwen and Gemini) counted the same number and wrote one file together, a payload cut into another.
number = len(list(folder.glob(f"payload-{event}-*")))
while True:
    try:
        saved = os.open(folder / f"payload-{event}-{number}.json", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        break
    except FileExistsError:
        number += 1
os.write(saved, raw.encode())
os.close(saved)
call = payload.get("tool_input") or payload.get("toolArgs") or (payload.get("preToolUse") or {}).get("parameters") or {}
prompt = payload.get("prompt", (payload.get("userPromptSubmit") or {}).get("prompt"))  # Cline: userPromptSubmit
if host == "openhands" and event == "UserPromptSubmit":
    prompt = payload.get("message")  # OpenHands: the prompt is the message
asked = prompt if prompt is not None else json.dumps(call) if not isinstance(call, str) else call
if event in ("PostToolUse", "AfterTool", "postToolUse", "tool_result"):
    asked = ""  # answer before the call only: what the model is told of a call comes from one hook
found = re.search(r"mode-([a-z0-9]+)", str(asked))
mode = found.group(1) if found else ""
reason = f"reason-{mode} from the hook"
pre = "BeforeTool" if host == "gemini" else "PreToolUse"


def permission(decision: str) -> dict:
    if host == "copilot":
        return {"permissionDecision": decision, "permissionDecisionReason": reason}
    return {"hookSpecificOutput": {"hookEventName": pre, "permissionDecision": decision, "permissionDecisionReason": reason}}


if mode in ("exit1", "exit2", "exit3"):
    print(reason, file=sys.stderr)
    sys.exit(int(mode[-1]))
if mode == "noreason":
    sys.exit(2)
if mode == "badjson":
    print("{not json")
    print(reason, file=sys.stderr)
    sys.exit(2)
if mode == "exit1json":
    print(json.dumps({"decision": "block", "reason": reason}))
    sys.exit(1)
answers = {
    "plain": reason,
    "block": {"decision": "block", "reason": reason},
    "deny": {"decision": "deny", "reason": reason} if host == "gemini" else
            {"cancel": True, "errorMessage": reason} if host == "cline" else permission("deny"),
    "crossdeny": {"decision": "deny", "reason": reason},
    "stray": {"decision": "block", "reason": reason, "extra": 1},
    "allowreason": permission("allow"),
    "ask": permission("ask"),
    "context": {"additionalContext": reason} if host in ("copilot", "openhands") else {"contextModification": reason}
               if host == "cline" else {"hookSpecificOutput": {"hookEventName": pre, "additionalContext": reason}},
    "cont": {"continue": False, "stopReason": reason},
}
if mode == "noise":
    print(f"{reason} (diagnostics on stderr)", file=sys.stderr)
elif mode in answers:
    answer = answers[mode]
    print(answer if isinstance(answer, str) else json.dumps(answer))
