"""How Claude Code 2.1.332 reads a hook's exit code and output (its binary, and tests/e2e).

What the model is told when a PreToolUse hook blocks (``p7`` in 2.1.332's bundle, measured in
tests/e2e/test_runtime_real.py): every block now comes prefixed ``PreToolUse:<tool> hook error: ``,
the JSON ones too (``decision: block``, ``permissionDecision: deny``: 2.1.197 told the reason alone);
exit 2 keeps its ``[<command>]: `` before stderr, as in 2.1.197.
"""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import (
        BLOCKS,
        CONTEXT,
        DEEP,
        Verdict,
        block_verdict,
        js_trim,
        loads_json,
        missing_script,
        shown_json,
        stderr_on_success,
        unknown_fields,
    )


CLAUDE_FIELDS = frozenset({"continue", "suppressOutput", "stopReason", "decision", "reason", "systemMessage",
                           "terminalSequence", "hookSpecificOutput"})
CLAUDE_SPECIFIC = {
    "PreToolUse": ("permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"),
    "PreSkillShellCommand": ("permissionDecision", "permissionDecisionReason", "updatedInput"),
    "UserPromptSubmit": ("additionalContext", "sessionTitle", "suppressOriginalPrompt"),
    "UserPromptExpansion": ("additionalContext",), "Setup": ("additionalContext",),
    "SessionStart": ("additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"),
    "SubagentStart": ("additionalContext",), "PostToolUseFailure": ("additionalContext",),
    "PostToolUse": ("additionalContext", "updatedToolOutput", "updatedMCPToolOutput"),
    "PostToolBatch": ("additionalContext",), "Stop": ("additionalContext",), "SubagentStop": ("additionalContext",),
    "PermissionDenied": ("retry",), "Notification": ("additionalContext",), "PermissionRequest": ("decision",),
    "Elicitation": ("action", "content"), "ElicitationResult": ("action", "content"), "CwdChanged": ("watchPaths",),
    "FileChanged": ("watchPaths",), "WorktreeCreate": ("worktreePath",), "MessageDisplay": ("displayContent",),
}
CLAUDE_GATES = ("PreToolUse", "PreSkillShellCommand")  # the events a permissionDecision answers
# PreSkillShellCommand (a skill's shell command, before it runs), as 2.1.332's schema describes the
# answer (read in its bundle; no run here makes Claude run a skill's command offline): "allow adds
# nothing: the command runs unless a hook refuses it. deny, ask and defer all keep it from running",
# and updatedInput is "never applied. Any value keeps the command from running".
CLAUDE_SKILL_BLOCKS = ("deny", "ask", "defer")
_CLAUDE_TYPES = {"continue": bool, "suppressOutput": bool, "stopReason": str, "reason": str, "systemMessage": str,
                 "terminalSequence": str}


def _claude_problem(event: str, obj: dict) -> str:
    """Why Claude's schema check (or its decision switch) rejects the object, or ''."""
    for key, kind in _CLAUDE_TYPES.items():
        if key in obj and not isinstance(obj[key], kind):
            return f"{key}: expected {kind.__name__}"
    if "decision" in obj and obj["decision"] not in ("approve", "block"):
        return f"decision: {shown_json(obj['decision'])} is not approve or block"
    specific = obj.get("hookSpecificOutput")
    if specific is None:
        return ""
    if not isinstance(specific, dict):
        return "hookSpecificOutput: expected object"
    name = specific.get("hookEventName")
    if name is None:
        return 'hookSpecificOutput is missing required field "hookEventName"'
    if name not in CLAUDE_SPECIFIC:
        return f"hookSpecificOutput.hookEventName: {shown_json(name)} is not an event"
    if name != event:
        return f"incorrect event name: expected '{event}' but got '{name}'"
    decision = specific.get("permissionDecision")
    if name in CLAUDE_GATES and decision is not None and decision not in ("allow", "deny", "ask", "defer"):
        return f"permissionDecision: {shown_json(decision)} is not allow, deny, ask or defer"
    return ""


def judge_claude(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    body = js_trim(out)
    obj, problem = loads_json(body) if body.startswith("{") else (None, "not JSON")
    if obj is DEEP:
        obj, notes = {}, notes + ("JSON nested deeper than the checker reads: judged as if it held no known field",)
    if isinstance(obj, dict):  # Claude reads JSON on every exit code, but only when it starts with {
        problem = _claude_problem(event, obj)
        if problem:
            return Verdict("error", f"Hook JSON output validation failed — {problem}", obj,
                           notes + ("JSON that fails Claude's schema: a hook error, whatever the exit code",))
        return _claude_json(event, code, obj, err, notes)
    if body.startswith("{"):  # measured: JSON that does not parse is plain text to Claude, exit 2 still blocks
        notes += (f"stdout starts with {{ but is {problem}: Claude reads it as plain text",)
    if code == 0:
        if not body:
            return Verdict("allow", "", None, notes + stderr_on_success(err))
        if event in CONTEXT["claude"]:
            return Verdict("allow", body, None, notes + ("plain stdout is added to the model's context",))
        return Verdict("ignored", body, None, notes + ("plain stdout: Claude Code shows it only in the transcript view",))
    if code == 2:
        if event in {"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"} and not out.strip() and missing_script(err):
            return Verdict("error", f"Hook script appears to be missing: {err.strip()}", None,
                           notes + ("exit 2 with a missing-file message counts as non-blocking",))
        if event in BLOCKS["claude"]:
            return block_verdict("claude", event, err or "No stderr output", None, notes + _claude_told(event, True))
        return Verdict("error", err.strip(), None, notes + (f"exit 2 cannot block {event}: stderr is shown to the user",))
    shown = f"Failed with non-blocking status code: {err.strip() or 'No stderr output'}"
    return Verdict("error", shown, None, notes + ("non-zero exit other than 2: a hook error, the call goes ahead",))


def _claude_json(event: str, code, obj: dict, err: str, notes: tuple) -> Verdict:
    notes += unknown_fields(obj, CLAUDE_FIELDS | {"async", "asyncTimeout"})
    if obj.get("async") is True:
        return Verdict("allow", "", obj, notes + ("async: Claude Code goes on without waiting for this hook",))
    specific = obj.get("hookSpecificOutput") or {}
    notes += unknown_fields(specific, frozenset(CLAUDE_SPECIFIC.get(event, ())) | {"hookEventName"}, "hookSpecificOutput.")
    if code not in (0, 2):
        notes += (f"exit code {'from a signal' if code is None else code} is ignored: the JSON decides",)
    if obj.get("systemMessage"):
        notes += ("systemMessage is shown to the user",)
    action, reason = "allow", ""
    if obj.get("decision") == "block":
        action, reason = "block", obj.get("reason") or "Blocked by hook"
    permission = specific.get("permissionDecision") if event == "PreToolUse" else None
    if permission == "deny":
        action, reason = "block", specific.get("permissionDecisionReason") or obj.get("reason") or "Blocked by hook"
    elif permission == "ask" and action != "block":  # a decision:block's blocking error stays
        action, reason = "ask", specific.get("permissionDecisionReason") or ""
    elif permission in ("allow", "defer") and action != "block":
        action = "allow"
        if specific.get("permissionDecisionReason"):
            notes += ("permissionDecisionReason on allow is shown to the user, never to the model",)
        if permission == "defer":
            notes += ("defer: Claude Code decides as if no hook had answered",)
    if event == "PreSkillShellCommand":
        action, reason, notes = _skill_command(specific, action, reason, notes)
    request = specific.get("decision") if event == "PermissionRequest" else None
    if isinstance(request, dict) and request.get("behavior"):
        action = "allow" if request.get("behavior") == "allow" else "block"
        reason = "" if action == "allow" else str(request.get("message") or "Blocked by hook")
    if code == 2 and action != "block":
        action, reason = "block", err or "No stderr output"
    if specific.get("additionalContext"):
        notes += ("additionalContext is given to the model",)
    if obj.get("continue") is False:
        return Verdict("stop", obj.get("stopReason") or "", obj, notes)
    if action == "block":
        stderr_reason = code == 2 and reason == (err or "No stderr output")
        return block_verdict("claude", event, reason, obj, notes + _claude_told(event, stderr_reason))
    return Verdict(action, reason, obj, notes)


def _skill_command(specific: dict, action: str, reason: str, notes: tuple) -> tuple[str, str, tuple]:
    """A PreSkillShellCommand answer: any of deny, ask, defer or an updatedInput keeps the command
    from running; allow adds nothing (another hook, or exit 2, can still refuse it)."""
    permission = specific.get("permissionDecision")
    if permission in CLAUDE_SKILL_BLOCKS:
        notes += () if permission == "deny" else (f"{permission} keeps a skill's shell command from running, as deny does",)
        return "block", specific.get("permissionDecisionReason") or reason or "Blocked by hook", notes
    if specific.get("updatedInput") is not None:
        return "block", reason or "Blocked by hook", notes + (
            "updatedInput is never applied to a skill's shell command: any value keeps it from running",)
    if permission == "allow":
        notes += ("allow adds nothing: the command runs unless another hook refuses it",)
    return action, reason, notes


def _claude_told(event: str, from_stderr: bool) -> tuple:
    """The words the model reads around a PreToolUse block's reason (2.1.332)."""
    if event != "PreToolUse":
        return ()
    return ("the model is told: PreToolUse:<tool> hook error: " + ("[<the hook's command>]: " if from_stderr else "")
            + "<reason>",)
