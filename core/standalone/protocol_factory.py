"""How Factory Droid 0.225.2 reads a hook's exit code and output (the JavaScript in its binary; the
decisive rows run in tests/e2e/test_check_real.py).

Droid parses stdout as JSON when it starts with ``{``, on every exit code. On PreToolUse:
``continue: false`` stops the agent, exit 3 aborts it, ``hookSpecificOutput.permissionDecision``
``deny`` refuses the call (``allow`` approves it, ``ask`` is only logged), exit 2 refuses it with
stderr as the reason, and exit 1 runs it with stderr put before the tool's result as a warning;
``decision: "block"`` means nothing there. On UserPromptSubmit exit 2 or 3 or ``continue: false``
refuse the prompt, and ``additionalContext`` or plain stdout reach the model (read in its code:
``droid exec`` runs no UserPromptSubmit hook at all, measured). On Stop
``decision: "block"`` with a reason, or exit 2, keeps the agent working. A hook past its timeout
(60 s unless set) is killed and counts as exit 1; one a signal ends counts as exit 1.
"""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import (
        CONTEXT,
        DEEP,
        Verdict,
        block_verdict,
        loads_json,
        stderr_on_success,
        unknown_fields,
    )


FACTORY_FIELDS = frozenset({"continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason",
                            "hookSpecificOutput"})


def judge_factory(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    if event == "UserPromptSubmit":
        notes += ("droid exec runs no UserPromptSubmit hook (measured on 0.225.2); interactive sessions do",)
    if code is None:
        code, notes = 1, notes + ("Droid counts a hook a signal ended as exit 1",)
    obj = None
    if out.strip().startswith("{"):
        obj, problem = loads_json(out)
        if obj is DEEP:
            obj, notes = {}, notes + ("JSON nested deeper than the checker reads: judged as if it held no known field",)
        if problem or not isinstance(obj, dict):
            obj, notes = None, notes + ("stdout starts with { but is not a JSON object: Droid logs it and reads no "
                                        "answer",)
        else:
            notes += unknown_fields(obj, FACTORY_FIELDS)
    obj = obj or {}
    specific = obj.get("hookSpecificOutput") if isinstance(obj.get("hookSpecificOutput"), dict) else {}
    context = specific.get("additionalContext") if isinstance(specific.get("additionalContext"), str) else ""
    reason = err.strip()
    if obj.get("systemMessage"):
        notes += ("systemMessage is shown to the user",)
    output = obj or None
    if obj.get("continue") is False and event in ("PreToolUse", "PostToolUse", "Stop", "SubagentStop"):
        return Verdict("stop", str(obj.get("stopReason") or "Hook requested to stop execution"), output, notes)
    if code == 3 and event in ("PreToolUse", "PostToolUse", "Stop", "SubagentStop"):
        return Verdict("stop", reason or "Agent aborted by hook", output, notes + ("exit 3 aborts the agent",))
    if event == "PreToolUse":
        decision = specific.get("permissionDecision")
        if decision == "deny":
            return block_verdict("factory", event, str(specific.get("permissionDecisionReason") or
                                                        "Tool execution denied by hook"), output, notes)
        if decision == "ask":
            notes += ("ask is only logged: Droid runs the call",)
        if code == 2:
            return block_verdict("factory", event, reason or "Tool execution blocked by hook", output, notes)
        if obj.get("decision") in ("block", "deny") and code == 0 and decision is None:
            return Verdict("ignored", out.strip(), output, notes + (
                "Droid reads hookSpecificOutput.permissionDecision on PreToolUse, not decision: the call goes ahead",))
        if decision == "allow":
            return Verdict("allow", "", output, notes + ("allow approves the call without asking",) + (
                ("permissionDecisionReason on allow is only logged",) if specific.get("permissionDecisionReason") else ()))
    elif event == "UserPromptSubmit":
        if code in (2, 3) or obj.get("continue") is False:
            why = reason or str(obj.get("stopReason") or obj.get("systemMessage") or
                                "User prompt submission blocked by hook")
            return block_verdict("factory", event, why, output, notes)
        if code == 0 and (context or (out.strip() and not obj and not out.strip().startswith("{"))):
            return Verdict("allow", context or out.strip(), output, notes + (
                ("additionalContext is given to the model",) if context else
                ("plain stdout is added to the model's context",)))
    elif event in ("Stop", "SubagentStop"):
        if obj.get("decision") == "block" and obj.get("reason"):
            return block_verdict("factory", event, str(obj["reason"]), output, notes)
        if code == 2:
            return block_verdict("factory", event, reason or "Stop hook requested continuation", output, notes)
    elif event == "PostToolUse":
        if context:
            notes += ("additionalContext is given to the model",)
        if code == 2:
            return block_verdict("factory", event, reason or "hook reported an issue", output, notes)
    if code == 1:
        shown = ("the model reads it before the tool's result" if event == "PreToolUse" else "the user sees it")
        return Verdict("error", reason, output, notes + (f"exit 1: a warning ({shown}); Droid goes on",))
    if code != 0:
        return Verdict("error", reason, output, notes + (f"exit {code}: Droid reads nothing from it and goes on",))
    if out.strip() and not obj:
        return Verdict("ignored", out.strip(), None, notes + (f"plain stdout: Droid does not read it on {event}",))
    if event in CONTEXT["factory"] and context:
        return Verdict("allow", context, output, notes + ("additionalContext is given to the model",))
    return Verdict("allow", "", output, notes + stderr_on_success(err))
