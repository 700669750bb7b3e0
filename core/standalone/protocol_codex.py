"""How Codex 0.169.0 and 0.171.0 read a hook's exit code and output (its hooks crate; messages from the binary)."""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import (
        BLOCKS,
        CONTEXT,
        DEEP,
        SERDE_DEPTH,
        Verdict,
        block_verdict,
        json_depth,
        loads_json,
        rust_trim,
        shown_json,
        stderr_on_success,
    )


CODEX_UNIVERSAL = frozenset({"continue", "stopReason", "suppressOutput", "systemMessage"})
CODEX_FIELDS = {  # top-level fields beyond the universal ones, and hookSpecificOutput's fields
    "PreToolUse": ({"decision", "reason", "hookSpecificOutput"},
                   {"hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"}),
    "PostToolUse": ({"decision", "reason", "hookSpecificOutput"}, {"hookEventName", "additionalContext", "updatedMCPToolOutput"}),
    "UserPromptSubmit": ({"decision", "reason", "hookSpecificOutput"}, {"hookEventName", "additionalContext"}),
    "SessionStart": ({"hookSpecificOutput"}, {"hookEventName", "additionalContext"}),
    "SubagentStart": ({"hookSpecificOutput"}, {"hookEventName", "additionalContext"}),
    "PermissionRequest": ({"hookSpecificOutput"}, {"hookEventName", "decision"}),
    "Stop": ({"decision", "reason"}, set()), "SubagentStop": ({"decision", "reason"}, set()),
}
_CODEX_INVALID = {"PreToolUse": "pre-tool-use", "PostToolUse": "post-tool-use", "UserPromptSubmit": "user prompt submit",
                  "SessionStart": "session start", "PermissionRequest": "permission-request", "Stop": "stop hook",
                  "SubagentStop": "subagent stop hook"}


def judge_codex(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    if code is None:
        return Verdict("error", "hook exited without a status code", None, notes)
    if code == 2:
        reason = rust_trim(err)
        if event in BLOCKS["codex"] and reason:
            return block_verdict("codex", event, reason, None, notes)
        missing = "a continuation prompt" if event in ("Stop", "SubagentStop") else "a blocking reason"
        shown = (f"{event} hook exited with code 2 but did not write {missing} to stderr" if event in BLOCKS["codex"]
                 else "hook exited with code 2")
        return Verdict("error", shown, None, notes + ("Codex reads JSON only on exit 0",) * bool(out.strip()))
    if code != 0:
        return Verdict("error", f"hook exited with code {code}", None,
                       notes + ("Codex reads JSON only on exit 0",) * bool(out.strip()))
    body = rust_trim(out)
    if not body:
        return Verdict("allow", "", None, notes + stderr_on_success(err))
    obj, problem = loads_json(body)
    if obj is DEEP or (isinstance(obj, (dict, list)) and json_depth(obj) >= SERDE_DEPTH):
        obj, problem = None, f"JSON nested {SERDE_DEPTH} levels or deeper (serde_json's limit)"
    if isinstance(obj, dict):
        problem = _codex_shape(event, obj)
        if not problem:
            return _codex_json(event, obj, notes)
    kind = _CODEX_INVALID.get(event, event)
    if isinstance(obj, dict) or body.startswith(("{", "[")) or event in ("Stop", "SubagentStop"):
        return Verdict("error", f"hook returned invalid {kind} JSON output", obj if isinstance(obj, dict) else None,
                       notes + ((problem,) if problem else ()) + ("invalid JSON output: Codex shows a failed hook and goes on",))
    if event in CONTEXT["codex"]:
        return Verdict("allow", body, None, notes + ("plain stdout is added to the model's context",))
    return Verdict("ignored", body, None, notes + ("plain stdout: Codex does not read it on this event",))


def _codex_shape(event: str, obj: dict) -> str:
    """Codex's output structs deny unknown fields: one stray key voids the whole object."""
    top, inner = CODEX_FIELDS.get(event, (set(), set()))
    stray = [key for key in obj if key not in CODEX_UNIVERSAL and key not in top]
    if stray:
        return f"unknown field {stray[0]} (Codex rejects the whole output)"
    for key, kind in (("continue", bool), ("suppressOutput", bool), ("stopReason", str), ("systemMessage", str),
                      ("reason", str)):
        if obj.get(key) is not None and not isinstance(obj[key], kind):
            return f"{key}: expected {kind.__name__}"
    decisions = ("approve", "block") if event == "PreToolUse" else ("block",)
    if obj.get("decision") is not None and obj["decision"] not in decisions:
        return f"decision: {shown_json(obj['decision'])} is not {' or '.join(decisions)}"
    specific = obj.get("hookSpecificOutput")
    if specific is None:
        return ""
    if not isinstance(specific, dict):
        return "hookSpecificOutput: expected object"
    stray = [key for key in specific if key not in inner]
    if stray:
        return f"unknown field hookSpecificOutput.{stray[0]} (Codex rejects the whole output)"
    if specific.get("hookEventName") != event:
        return f"hookSpecificOutput.hookEventName must be {event}"
    permission = specific.get("permissionDecision")
    if permission is not None and permission not in ("allow", "deny", "ask"):
        return f"permissionDecision: {shown_json(permission)} is not allow, deny or ask"
    return ""


def _codex_unsupported(event: str, obj: dict) -> str:
    """The outputs Codex parses and then refuses (it fails open with this message)."""
    reason = rust_trim(obj.get("reason") or "")
    if event == "PreToolUse":
        if obj.get("continue") is False:
            return "PreToolUse hook returned unsupported continue:false"
        if obj.get("stopReason") is not None:
            return "PreToolUse hook returned unsupported stopReason"
        if obj.get("suppressOutput"):
            return "PreToolUse hook returned unsupported suppressOutput"
        specific = obj.get("hookSpecificOutput") or {}
        permission = specific.get("permissionDecision")
        if any(specific.get(k) is not None for k in ("permissionDecision", "permissionDecisionReason", "updatedInput")):
            if specific.get("updatedInput") is not None and permission != "allow":
                return "PreToolUse hook returned updatedInput without permissionDecision:allow"
            if permission in ("allow", "ask") and not (permission == "allow" and specific.get("updatedInput") is not None):
                return f"PreToolUse hook returned unsupported permissionDecision:{permission}"
            if permission == "deny" and not rust_trim(specific.get("permissionDecisionReason") or ""):
                return "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason"
            if permission is None:
                return "PreToolUse hook returned permissionDecisionReason without permissionDecision"
            return ""
        if obj.get("decision") == "approve":
            return "PreToolUse hook returned unsupported decision:approve"
        if obj.get("decision") is None and obj.get("reason") is not None:
            return "PreToolUse hook returned reason without decision"
    if event == "PostToolUse" and obj.get("suppressOutput"):
        return "PostToolUse hook returned unsupported suppressOutput"
    if event == "PostToolUse" and obj.get("decision") is None and obj.get("continue") is not False and "reason" in obj:
        return "PostToolUse hook returned reason without decision"
    if obj.get("decision") == "block" and not reason and obj.get("continue") is not False:
        return f"{event} hook returned decision:block without a non-empty reason"
    return ""


def _codex_json(event: str, obj: dict, notes: tuple) -> Verdict:
    if obj.get("systemMessage"):
        notes += ("systemMessage is shown to the user as a warning",)
    unsupported = _codex_unsupported(event, obj)
    if unsupported:
        return Verdict("error", unsupported, obj, notes + ("Codex shows a failed hook and goes on",))
    specific = obj.get("hookSpecificOutput") or {}
    if specific.get("additionalContext"):
        notes += ("additionalContext is given to the model",)
    if obj.get("continue") is False:
        if event == "SubagentStart":
            return Verdict("allow", "", obj, notes + ("continue:false is ignored on SubagentStart",))
        return Verdict("stop", obj.get("stopReason") or "", obj, notes)
    if event == "PreToolUse" and specific.get("permissionDecision") == "deny":
        return block_verdict("codex", event, rust_trim(specific["permissionDecisionReason"]), obj, notes)
    if event == "PermissionRequest" and isinstance(specific.get("decision"), dict):
        decision = specific["decision"]
        if decision.get("behavior") == "deny":
            message = rust_trim(str(decision.get("message") or "")) or "PermissionRequest hook denied approval"
            return block_verdict("codex", event, message, obj, notes)
        return Verdict("allow", "", obj, notes)
    if obj.get("decision") == "block":
        return block_verdict("codex", event, rust_trim(obj["reason"]), obj, notes)
    return Verdict("allow", "", obj, notes)
