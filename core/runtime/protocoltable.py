"""The README's table of what each host does with a hook's exit code and output, generated from
core/standalone/protocol.py (a test keeps the README's copy equal to this)."""

from __future__ import annotations

from hookweave.core.standalone import protocol

PRE = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool", "cursor": "preToolUse"}
PROMPT = {"claude": "UserPromptSubmit", "codex": "UserPromptSubmit", "gemini": "BeforeAgent",
          "cursor": "beforeSubmitPrompt"}
# (what the hook does, event kind, exit code, stdout, stderr)
OUTCOMES = (
    ("exit 0, no output", PRE, 0, "", ""),
    ("exit 0, plain stdout", PRE, 0, "all good", ""),
    ("exit 0, plain stdout, on the prompt event", PROMPT, 0, "some context", ""),
    ("exit 2, reason on stderr", PRE, 2, "", "reason"),
    ("exit 2, nothing on stderr", PRE, 2, "", ""),
    ("exit 1, text on stderr", PRE, 1, "", "oops"),
    ("exit 3, text on stderr", PRE, 3, "", "oops"),
    ('exit 0, `{"decision": "block", "reason": …}`', PRE, 0, '{"decision": "block", "reason": "r"}', ""),
    ('exit 0, `{"decision": "deny", "reason": …}`', PRE, 0, '{"decision": "deny", "reason": "r"}', ""),
    ("exit 0, `permissionDecision: \"deny\"` with a reason", PRE, 0, None, ""),
    ("exit 0, `permissionDecision: \"allow\"` with a reason", PRE, 0, None, ""),
    ('exit 0, a block with an unknown field', PRE, 0, '{"decision": "block", "reason": "r", "extra": 1}', ""),
    ("exit 2, stdout `{not json`, reason on stderr", PRE, 2, "{not json", "reason"),
    ('exit 0, `{"continue": false}`', PROMPT, 0, '{"continue": false, "stopReason": "done"}', ""),
)


def _permission(host: str, decision: str) -> str:
    return ('{"hookSpecificOutput": {"hookEventName": "%s", "permissionDecision": "%s", '
            '"permissionDecisionReason": "r"}}' % (PRE[host], decision))


def cell(host: str, label: str, events: dict, code: int, stdout: str | None, stderr: str) -> str:
    if stdout is None:
        stdout = _permission(host, "deny" if "deny" in label else "allow")
    verdict = protocol.judge(host, events[host], code, stdout, stderr)
    notes = " ".join(verdict.notes)
    if "context" in notes:
        return f"{verdict.action} (model's context)"
    if "shown to the user" in notes and verdict.action == "allow":
        return f"{verdict.action} (user sees it)"
    return verdict.action


def markdown() -> str:
    hosts = protocol.HOSTS
    head = "| the hook | " + " | ".join(f"{h} {protocol.VERSIONS[h]}" for h in hosts) + " |"
    rows = [head, "|---" * (len(hosts) + 1) + "|"]
    for label, events, code, stdout, stderr in OUTCOMES:
        rows.append(f"| {label} | " + " | ".join(cell(h, label, events, code, stdout, stderr) for h in hosts) + " |")
    return "\n".join(rows) + "\n"
