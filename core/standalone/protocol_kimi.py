"""How Kimi Code reads a hook's exit code and output: its documentation, checked in its source
(MoonshotAI/kimi-code 0.38.0, agent-core-v2 ``externalHooks/internal/runHook.ts`` and
``matchHooks.ts``), never run [DOC moonshotai.github.io/kimi-code/en/customization/hooks].

Exit 2 blocks, stderr (trimmed) the reason. Exit 0 with a JSON object on stdout whose
``hookSpecificOutput.permissionDecision`` is ``"deny"`` blocks too, the reason its
``permissionDecisionReason``; the JSON is read on exit 0 only. Any other exit, a timeout and a crash
let the call go ahead (fail-open). A block stops PreToolUse (the tool does not run), Stop (the reason
goes back to the model, once a turn) and UserPromptSubmit (the model is not called); every other
event only observes. UserPromptSubmit's ``message`` (top level, else ``hookSpecificOutput.message``),
else its stdout, is added to the context.
"""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import UNMEASURED_NOTES, Verdict, block_verdict, loads_json


def judge_kimi(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    notes += (UNMEASURED_NOTES["kimi"],)
    if code == 2:
        reason = err.strip() or f"Blocked by {event} hook"
        return block_verdict("kimi", event, reason, None, notes + ("exit 2 blocks, stderr the reason",))
    if code != 0:
        return Verdict("error", err.strip(), None, notes + ("a failed hook does not block: Kimi Code goes on "
                                                            "(fail-open); only exit 2 or a JSON deny blocks",))
    body = out.strip()
    obj, problem = loads_json(body) if body else (None, "")
    obj = obj if isinstance(obj, dict) and not problem else None
    specific = obj.get("hookSpecificOutput") if obj is not None else None
    specific = specific if isinstance(specific, dict) else {}
    message = _text(obj.get("message")) if obj is not None else None
    message = message if message is not None else _text(specific.get("message"))
    if specific.get("permissionDecision") == "deny":
        why = specific.get("permissionDecisionReason")
        reason = why.strip() if isinstance(why, str) and why.strip() else f"Blocked by {event} hook"
        return block_verdict("kimi", event, reason, obj, notes + ('permissionDecision "deny" blocks',))
    if obj is not None and "decision" in obj:
        notes += ('Kimi Code reads no "decision": block with exit 2 or hookSpecificOutput.permissionDecision "deny"',)
    if event == "UserPromptSubmit" and (message or body):
        said = message.strip() if message and message.strip() else body
        more = () if message or obj is None else ("a JSON answer without message: its text itself reaches the model",)
        return Verdict("allow", said, obj, notes + more + ("the text reaches the model",))
    return Verdict("allow", "", obj, notes + (("stdout is not shown to the model",) if body else ()))


def _text(value):
    """A message as Kimi's schema reads it: a string, or a number or boolean as text; else none."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return None
