"""How Auggie CLI 0.36.0 reads a hook's exit code and output (measured offline against its shipped
code; facts and sources in docs/HOST-FACTS.md). Only PreToolUse can block; a Stop or PostToolUse
``decision: "block"`` is dropped, and SessionStart and PromptSubmit output never reach the model."""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import Verdict, loads_json, unknown_fields

AUGGIE_FIELDS = frozenset({"continue", "stopReason", "suppressOutput", "systemMessage", "additionalContext",
                           "hookSpecificOutput"})
AUGGIE_SPECIFIC = {"PreToolUse": frozenset({"hookEventName", "permissionDecision", "permissionDecisionReason",
                                            "updatedInput"}),
                   "PostToolUse": frozenset({"hookEventName", "decision", "reason", "additionalContext"}),
                   "Stop": frozenset({"hookEventName", "decision", "reason"}),
                   "SessionStart": frozenset({"hookEventName", "additionalContext"}),
                   "SessionEnd": frozenset({"hookEventName"}), "Notification": frozenset({"hookEventName"})}


def judge_auggie(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    if code is None:  # Auggie takes `code || 0`: a hook ended by a signal counts as exit 0
        code, notes = 0, notes + ("Auggie counts a hook ended by a signal as exit 0",)
    if code == 2 and event == "PreToolUse":
        return Verdict("block", err.strip(), None, notes + ("the model gets the reason as the tool's error",))
    if code == 2 and event == "PostToolUse":
        return Verdict("allow", err.strip(), None, notes + ("exit 2 on PostToolUse: stderr reaches the model as "
                                                             "context after the tool's result",))
    if code != 0:
        shown = f"Failed with non-blocking status code {code}: {err.strip()}"
        return Verdict("error", shown, None, notes + ("Auggie goes on and discards stdout",) +
                       (("exit 2 blocks only on PreToolUse",) if code == 2 else ()))
    body = out.strip()
    obj, problem = loads_json(body) if body else (None, "")
    reason = _schema_problem(obj) if isinstance(obj, dict) and not problem else "not a JSON object"
    if not body or reason:
        seen = ("plain stdout is shown to the user, not the model",) if body else ()
        return Verdict("allow", "", None, notes + seen + ((f"JSON ignored: {reason}",) if body and obj else ()))
    notes += unknown_fields(obj, AUGGIE_FIELDS)
    specific = obj.get("hookSpecificOutput") if isinstance(obj.get("hookSpecificOutput"), dict) else {}
    if event == "PreToolUse" and obj.get("continue") is False:
        return Verdict("block", "Tool execution blocked by hook", obj, notes + ("stopReason is not shown",))
    if event == "PreToolUse" and specific.get("permissionDecision") == "deny":
        return Verdict("block", str(specific.get("permissionDecisionReason") or ""), obj, notes)
    if specific.get("decision") == "block" or specific.get("permissionDecision") in ("allow", "ask"):
        return Verdict("ignored", str(specific.get("reason") or specific.get("permissionDecisionReason") or ""), obj,
                       notes + (f"Auggie 0.36 does nothing with this {event} decision",))
    if event in ("SessionStart", "PromptSubmit") and (specific.get("additionalContext") or obj.get("additionalContext")):
        return Verdict("ignored", "", obj, notes + (f"{event} context does not reach the model in Auggie 0.36",))
    return Verdict("allow", "", obj, notes)


def _schema_problem(obj: dict) -> str:
    """Why Auggie rejects the whole JSON answer (then read as plain stdout), or ''."""
    specific = obj.get("hookSpecificOutput")
    if specific is None:
        return ""
    name = specific.get("hookEventName") if isinstance(specific, dict) else None
    if name not in AUGGIE_SPECIFIC:
        return "hookSpecificOutput.hookEventName is missing or not one Auggie reads"
    decision = specific.get("permissionDecision")
    if decision is not None and decision not in ("allow", "deny", "ask"):
        return "permissionDecision is not allow, deny or ask"
    return ""
