"""The README's table of what each host does with a hook's exit code and output, generated from
core/standalone/protocol.py (a test keeps the README's copy equal to this)."""

from __future__ import annotations

from hookweave.core.standalone import protocol

PRE = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool", "cursor": "preToolUse",
       "copilot": "preToolUse", "qwen": "PreToolUse", "factory": "PreToolUse", "cline": "PreToolUse",
       "windsurf": "pre_run_command", "antigravity": "PreToolUse"}
PROMPT = {"claude": "UserPromptSubmit", "codex": "UserPromptSubmit", "gemini": "BeforeAgent",
          "cursor": "beforeSubmitPrompt", "copilot": "userPromptSubmitted", "qwen": "UserPromptSubmit",
          "factory": "UserPromptSubmit", "cline": "UserPromptSubmit", "windsurf": "pre_user_prompt",
          "antigravity": None}
# The notes of a verdict whose text reaches the model.
TO_MODEL = ("plain stdout is added to the model's context", "additionalContext is given to the model",
            "the text reaches the model")
# (what the hook does, event kind, exit code, stdout, stderr)
OUTCOMES = (
    ("exit 0, no output", PRE, 0, "", ""),
    ("exit 0, plain stdout", PRE, 0, "all good", ""),
    ("exit 0, plain stdout, on the prompt event", PROMPT, 0, "some context", ""),
    ("exit 2, reason on stderr", PRE, 2, "", "reason"),
    ("exit 2, nothing on stderr", PRE, 2, "", ""),
    ("exit 1, text on stderr", PRE, 1, "", "oops"),
    ("exit 1, a JSON block on stdout", PRE, 1, '{"decision": "block", "reason": "r"}', ""),
    ("exit 3, text on stderr", PRE, 3, "", "oops"),
    ('exit 0, `{"decision": "block", "reason": …}`', PRE, 0, '{"decision": "block", "reason": "r"}', ""),
    ('exit 0, `{"decision": "deny", "reason": …}`', PRE, 0, '{"decision": "deny", "reason": "r"}', ""),
    ("exit 0, `permissionDecision: \"deny\"` with a reason", PRE, 0, None, ""),
    ("exit 0, `permissionDecision: \"allow\"` with a reason", PRE, 0, None, ""),
    ('exit 0, top-level `{"permissionDecision": "deny", …}`', PRE, 0,
     '{"permissionDecision": "deny", "permissionDecisionReason": "r"}', ""),
    ('exit 0, `{"cancel": true, "errorMessage": …}`', PRE, 0, '{"cancel": true, "errorMessage": "r"}', ""),
    ('exit 0, a block with an unknown field', PRE, 0, '{"decision": "block", "reason": "r", "extra": 1}', ""),
    ("exit 2, stdout `{not json`, reason on stderr", PRE, 2, "{not json", "reason"),
    ('exit 0, `{"continue": false}`', PROMPT, 0, '{"continue": false, "stopReason": "done"}', ""),
)


def _permission(host: str, decision: str) -> str:
    return ('{"hookSpecificOutput": {"hookEventName": "%s", "permissionDecision": "%s", '
            '"permissionDecisionReason": "r"}}' % (PRE[host], decision))


def cell(host: str, label: str, events: dict, code: int, stdout: str | None, stderr: str) -> str:
    if events[host] is None:
        return "no such event"
    if stdout is None:
        stdout = _permission(host, "deny" if "deny" in label else "allow")
    verdict = protocol.judge(host, events[host], code, stdout, stderr)
    notes = " ".join(verdict.notes)
    if any(n.startswith(TO_MODEL) for n in verdict.notes):
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
