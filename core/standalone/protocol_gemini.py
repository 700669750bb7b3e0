"""How Gemini CLI 0.61.0 reads a hook's exit code and output (its JS bundle, and tests/e2e)."""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import (
        DEEP,
        Verdict,
        block_verdict,
        js_trim,
        loads_json,
        unknown_fields,
    )


GEMINI_FIELDS = frozenset({"continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason",
                           "hookSpecificOutput"})


def judge_gemini(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    if code is None:  # Gemini takes `exitCode || 0`: a hook killed by a signal counts as exit 0
        code, notes = 0, notes + ("Gemini counts a hook ended by a signal as exit 0",)
    text = js_trim(out) or js_trim(err)
    if not out.strip() and text:
        notes += ("stdout is empty, so Gemini reads stderr as the hook's output",)
    if not text:
        if code == 0:
            return Verdict("allow", "", None, notes)
        return Verdict("error", "", None, notes + (f"exit {code} without output: Gemini logs it in debug output only",))
    value, problem = loads_json(text)
    if isinstance(value, str):  # Gemini parses a JSON string a second time
        value, problem = loads_json(value)
    if value is DEEP:
        value, notes = {}, notes + ("JSON nested deeper than the checker reads: judged as if it held no known field",)
    if problem:  # plain text: exit 0 a message, exit 1 a warning, any other exit a deny with the text as reason
        if code == 0:
            return Verdict("allow", text, None, notes + ("plain text is shown to the user as a system message",))
        if code == 1:
            return Verdict("error", f"Warning: {text}", None, notes + ("exit 1: Gemini shows a warning and goes on",))
        return block_verdict("gemini", event, text, None, notes + (f"exit {code} with plain text: Gemini denies with the text",))
    if not isinstance(value, (dict, list)):
        return Verdict("ignored" if code == 0 else "error", "", None, notes + ("JSON that is not an object is ignored",))
    obj = value if isinstance(value, dict) else {}
    notes += unknown_fields(obj, GEMINI_FIELDS)
    if code != 0:
        notes += (f"exit code {code} is ignored: the JSON decides",)
    if obj.get("systemMessage") and not obj.get("suppressOutput"):
        notes += ("systemMessage is shown to the user",)
    if isinstance(obj.get("hookSpecificOutput"), dict) and "permissionDecision" in obj["hookSpecificOutput"]:
        notes += ("hookSpecificOutput.permissionDecision means nothing to Gemini: use decision",)
    reason = str(obj.get("stopReason") or obj.get("reason") or "No reason provided")
    if obj.get("continue") is False:
        return Verdict("stop", reason, value, notes)
    if obj.get("decision") in ("block", "deny"):
        return block_verdict("gemini", event, reason, value, notes)
    if obj.get("decision") == "ask":
        return Verdict("ask", str(obj.get("reason") or ""), value, notes)
    return Verdict("allow", "", value, notes)
