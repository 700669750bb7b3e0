"""A hook that answers the way its payload asks (``mode-<name>`` in the shell command or prompt),
used both by ``hooks check`` and by the real agents, so the two can be compared.

Usage: answers.py <folder> <host>. Saves every payload to ``<folder>/payload-<event>-<n>.json``
(the shapes the real hosts send) and answers:

- ``exit2`` / ``exit1`` / ``exit3``: the reason on stderr, that exit code
- ``noreason``: exit 2 with nothing on stderr        - ``plain``: the reason on stdout, exit 0
- ``block``: ``{"decision": "block", "reason": ...}``
- ``deny``: the host's own deny (``permissionDecision: "deny"``; Gemini ``decision: "deny"``)
- ``crossdeny``: ``{"decision": "deny", ...}`` everywhere (Gemini's spelling on Claude and Codex)
- ``stray``: a block with one extra field          - ``badjson``: ``{not json`` on stdout, exit 2
- ``allowreason``: ``permissionDecision: "allow"`` with a ``permissionDecisionReason``
- ``noise``: a line on stderr, exit 0              - anything else: nothing, exit 0

Every reason holds ``reason-<name>``, so a test finds what the model was told.
"""

import json
import re
import sys
from pathlib import Path

folder, host = Path(sys.argv[1]), sys.argv[2]
raw = sys.stdin.read()
payload = json.loads(raw)
event = payload.get("hook_event_name", "unknown")
folder.mkdir(parents=True, exist_ok=True)
(folder / f"payload-{event}-{len(list(folder.glob(f'payload-{event}-*')))}.json").write_text(raw)
asked = payload.get("prompt") if "prompt" in payload else (payload.get("tool_input") or {}).get("command", "")
found = re.search(r"mode-([a-z0-9]+)", str(asked))
mode = found.group(1) if found else ""
reason = f"reason-{mode} from the hook"
pre = "BeforeTool" if host == "gemini" else "PreToolUse"

if mode in ("exit1", "exit2", "exit3"):
    print(reason, file=sys.stderr)
    sys.exit(int(mode[-1]))
if mode == "noreason":
    sys.exit(2)
if mode == "badjson":
    print("{not json")
    print(reason, file=sys.stderr)
    sys.exit(2)
answers = {
    "plain": reason,
    "block": {"decision": "block", "reason": reason},
    "deny": {"decision": "deny", "reason": reason} if host == "gemini" else
            {"hookSpecificOutput": {"hookEventName": pre, "permissionDecision": "deny", "permissionDecisionReason": reason}},
    "crossdeny": {"decision": "deny", "reason": reason},
    "stray": {"decision": "block", "reason": reason, "extra": 1},
    "allowreason": {"hookSpecificOutput": {"hookEventName": pre, "permissionDecision": "allow",
                                           "permissionDecisionReason": reason}},
}
if mode == "noise":
    print(f"{reason} (diagnostics on stderr)", file=sys.stderr)
elif mode in answers:
    answer = answers[mode]
    print(answer if isinstance(answer, str) else json.dumps(answer))
