"""How Cursor reads a hook's exit code and output: from its documentation only, never run."""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import (
        UNMEASURED,
        Verdict,
        block_verdict,
        loads_json,
        unknown_fields,
    )


CURSOR_FIELDS = frozenset({"permission", "user_message", "agent_message", "continue", "followup_message"})


def judge_cursor(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    notes += (UNMEASURED,)
    if code == 2:
        return block_verdict("cursor", event, err.strip(), None, notes)
    if code != 0:
        return Verdict("error", err.strip(), None, notes + ("Cursor fails open on a failed hook",))
    body = out.strip()
    if not body:
        return Verdict("allow", "", None, notes)
    obj, problem = loads_json(body)
    if problem or not isinstance(obj, dict):
        return Verdict("error", "", None, notes + ((problem or "JSON that is not an object") + ": Cursor fails open",))
    notes += unknown_fields(obj, CURSOR_FIELDS)
    reason = str(obj.get("agent_message") or obj.get("user_message") or "")
    if obj.get("permission") == "deny" or (event == "beforeSubmitPrompt" and obj.get("continue") is False):
        return block_verdict("cursor", event, reason, obj, notes)
    if obj.get("permission") == "ask":
        return Verdict("ask", reason, obj, notes)
    if event in ("stop", "subagentStop") and obj.get("followup_message"):
        return block_verdict("cursor", event, str(obj["followup_message"]), obj, notes)
    return Verdict("allow", "", obj, notes)
