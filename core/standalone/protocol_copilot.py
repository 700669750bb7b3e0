"""How Copilot CLI 1.0.102 reads a hook's exit code and output (tests/e2e/test_check_real.py runs it).

Copilot's own hook files (``.github/hooks/*.json``): the payload and the answer are camelCase and
flat. Measured: on ``preToolUse`` a top-level ``permissionDecision`` decides (deny, ask, allow) with
its ``permissionDecisionReason``, and a top-level ``additionalContext`` reaches the model; Claude's
``decision`` and ``hookSpecificOutput`` mean nothing there. Any non-zero exit, or a hook a signal
ends, denies the call (fail-closed): exit 2 with "hook exited with code 2", any other with "hook
errored"; stderr never reaches the model. A timed-out hook lets the call go ahead (fail-open). On
``userPromptSubmitted`` ``{"decision": "block"}`` refuses the prompt and a top-level
``additionalContext`` reaches the model; plain stdout and exit codes do nothing there. A
``postToolUse`` answer is ignored, and a ``-p`` run ends even when an ``agentStop`` hook blocks.
"""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import (
        DEEP,
        Verdict,
        block_verdict,
        loads_json,
        stderr_on_success,
        unknown_fields,
    )


COPILOT_FIELDS = frozenset({"permissionDecision", "permissionDecisionReason", "modifiedArgs", "additionalContext",
                            "suppressOutput", "decision", "reason"})
_CLAUDE_ONLY = ("hookSpecificOutput", "continue", "stopReason")


def judge_copilot(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    body = out.strip()
    obj, problem = loads_json(body) if body else (None, "")
    if obj is DEEP:
        obj, notes = {}, notes + ("JSON nested deeper than the checker reads: judged as if it held no known field",)
    if err.strip():
        notes += ("stderr never reaches the model on Copilot",)
    if event == "preToolUse":
        return _pre_tool(code, body, obj, problem, notes)
    if code != 0:
        shown = "hook was ended by a signal" if code is None else f"Hook command failed with code {code}"
        return Verdict("error", shown, None, notes + ("a failed hook is a warning here; Copilot goes on",))
    if not body:
        return Verdict("allow", "", None, notes + stderr_on_success(err))
    if not isinstance(obj, dict):
        return Verdict("ignored", body, None, notes + (f"{'plain stdout' if problem else 'JSON that is not an object'}: "
                                                       f"Copilot reads only a JSON object here",))
    notes += _fields(obj)
    if event == "userPromptSubmitted":
        if obj.get("additionalContext") and isinstance(obj["additionalContext"], str):
            notes += ("additionalContext is given to the model",)
        if obj.get("decision") == "block":
            return block_verdict("copilot", event, str(obj.get("reason") or "Prompt blocked by hook"), obj, notes)
        return Verdict("allow", "", obj, notes)
    if event in ("agentStop", "subagentStop") and obj.get("decision") == "block":
        verdict = block_verdict("copilot", event, str(obj.get("reason") or ""), obj, notes)
        return Verdict(verdict.action, verdict.reason, obj, verdict.notes + (
            "measured on 1.0.102: a -p run ended anyway; documented to keep the agent working",))
    if event == "permissionRequest" and obj.get("permissionDecision") == "deny":
        return block_verdict("copilot", event, str(obj.get("permissionDecisionReason") or ""), obj, notes)
    return Verdict("ignored", body, obj, notes + (f"Copilot reads no answer on {event}",))


def _pre_tool(code, body: str, obj, problem: str, notes: tuple) -> Verdict:
    if code is None:
        return block_verdict("copilot", "preToolUse", "Denied by preToolUse hook (hook errored)", None, notes + (
            "a preToolUse hook ended by a signal denies the call (fail-closed)",))
    if code == 2:
        reason = "hook exited with code 2"
        if isinstance(obj, dict) and obj.get("permissionDecision") in ("deny", "ask"):
            reason = str(obj.get("permissionDecisionReason") or reason)
        return block_verdict("copilot", "preToolUse", f"Denied by preToolUse hook: {reason}", obj if isinstance(obj, dict)
                             else None, notes + ("exit 2 denies the call; the reason is the JSON's, never stderr",))
    if code != 0:
        return block_verdict("copilot", "preToolUse", "Denied by preToolUse hook (hook errored)", None, notes + (
            f"exit {code}: a failed preToolUse hook denies the call (fail-closed), whatever it printed",))
    if not body:
        return Verdict("allow", "", None, notes)
    if not isinstance(obj, dict):
        return Verdict("ignored", body, None, notes + ((f"stdout is {problem}: Copilot ignores it and runs the call"
                                                        if problem.startswith("invalid") and body.startswith("{") else
                                                        "plain stdout: Copilot reads only a JSON object on preToolUse"),))
    notes += _fields(obj)
    decision = obj.get("permissionDecision")
    reason = obj.get("permissionDecisionReason")
    if isinstance(obj.get("additionalContext"), str) and obj["additionalContext"]:
        notes += ("additionalContext is given to the model",)
    if decision == "deny":
        return block_verdict("copilot", "preToolUse", f"Denied by preToolUse hook: {reason or 'denied'}", obj, notes)
    if decision == "ask":
        return Verdict("ask", str(reason or ""), obj, notes + (
            "Copilot asks the user; a -p run cannot ask and denies the call",))
    if decision == "allow":
        return Verdict("allow", "", obj, notes + (("permissionDecisionReason on allow is shown to no one",) if reason else ()))
    if any(key in obj for key in ("decision",) + _CLAUDE_ONLY) and "additionalContext" not in obj:
        return Verdict("ignored", body, obj, notes + ("Copilot reads a top-level permissionDecision on preToolUse, "
                                                      "not decision or hookSpecificOutput: the call goes ahead",))
    return Verdict("allow", "", obj, notes)


def _fields(obj: dict) -> tuple:
    return unknown_fields(obj, COPILOT_FIELDS)
