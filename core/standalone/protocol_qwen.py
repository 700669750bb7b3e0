"""How Qwen Code 0.24.4 reads a hook's exit code and output (its bundled code, ``hookRunner`` and
``types``; the decisive rows run in tests/e2e/test_check_real.py).

Exit 2 parses **stderr** (JSON, else the text is a deny with that reason; empty stderr: no
decision at all, the call goes ahead). Any other exit parses stdout, or stderr when stdout is
empty: a JSON object decides whatever the exit code, plain text is a message (exit 0; the model's
context on SessionStart and UserPromptSubmit) or a warning (any other code), and a stdout that
starts with ``{`` but is not JSON is a hook error. On PreToolUse ``hookSpecificOutput.
permissionDecision`` is read first, then ``decision`` (``block``/``deny``, ``ask``,
``allow``/``approve``); ``continue: false`` refuses the call too. A hook that times out or is
killed by a signal is an error, and the call goes ahead.
"""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import (
        CONTEXT,
        DEEP,
        Verdict,
        block_verdict,
        js_trim,
        loads_json,
        unknown_fields,
    )


QWEN_FIELDS = frozenset({"continue", "stopReason", "suppressOutput", "systemMessage", "terminalSequence", "decision",
                         "reason", "hookSpecificOutput"})


def judge_qwen(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    if code is None:
        return Verdict("error", "Hook killed by signal", None, notes + ("Qwen counts a hook a signal ended as a "
                                                                          "failure and goes on",))
    blocking = code == 2
    stdout = js_trim(out)
    text = js_trim(err) if blocking else (stdout or js_trim(err))
    if blocking and stdout:
        notes += ("on exit 2 Qwen reads stderr only: stdout is ignored",)
    elif not blocking and not stdout and text:
        notes += ("stdout is empty, so Qwen reads stderr as the hook's output",)
    if not text:
        if code == 0:
            return Verdict("allow", "", None, notes)
        if blocking:
            return Verdict("error", "", None, notes + ("exit 2 with nothing on stderr: Qwen reads no decision and goes on",))
        return Verdict("error", "", None, notes + (f"exit {code} without output: Qwen goes on",))
    value, problem = loads_json(text)
    if isinstance(value, str):  # Qwen parses a JSON string a second time
        value, problem = loads_json(value)
    if value is DEEP:
        value, problem, notes = {}, "", notes + ("JSON nested deeper than the checker reads: judged as if it held no "
                                                 "known field",)
    if isinstance(value, dict):
        if code not in (0, 2):
            notes += (f"exit code {code} is ignored: the JSON decides",)
        return _qwen_json(event, value, notes)
    if problem and not blocking and text.startswith("{"):
        return Verdict("error", "Hook output is not valid JSON", None, notes + (
            "stdout starts like a JSON object but is not JSON: Qwen ignores it and goes on",))
    if code == 0:
        if stdout and event in CONTEXT["qwen"]:
            return Verdict("allow", text, None, notes + ("plain stdout is added to the model's context",))
        return Verdict("allow", text, None, notes + ("plain text is shown to the user as a system message",))
    if blocking:
        return block_verdict("qwen", event, text, None, notes + ("exit 2: Qwen denies with stderr as the reason",))
    return Verdict("error", f"Warning: {text}", None, notes + (f"exit {code}: Qwen shows a warning and goes on",))


def _qwen_json(event: str, obj: dict, notes: tuple) -> Verdict:
    notes += unknown_fields(obj, QWEN_FIELDS)
    if obj.get("systemMessage"):
        notes += ("systemMessage is shown to the user",)
    specific = obj.get("hookSpecificOutput") if isinstance(obj.get("hookSpecificOutput"), dict) else {}
    if isinstance(specific.get("additionalContext"), str) and specific["additionalContext"]:
        notes += ((("additionalContext on PreToolUse did not reach the model (measured on 0.24.4)",)
                   if event == "PreToolUse" else ("additionalContext is given to the model",)))
    stop_reason = str(obj.get("stopReason") or obj.get("reason") or "No reason provided")
    if event == "PreToolUse":
        decision = specific.get("permissionDecision")
        if decision not in ("allow", "deny", "ask"):
            decision = {"allow": "allow", "approve": "allow", "deny": "deny", "block": "deny",
                        "ask": "ask"}.get(obj.get("decision"))
        reason = specific.get("permissionDecisionReason")
        reason = reason if isinstance(reason, str) else obj.get("reason")
        if decision == "deny":
            return block_verdict("qwen", event, str(reason or stop_reason), obj, notes)
        if decision == "ask":
            return Verdict("ask", str(reason or "User confirmation required"), obj, notes + (
                "Qwen asks the user; where it cannot (yolo, -p) the call does not run",))
        if obj.get("continue") is False:
            return block_verdict("qwen", event, stop_reason, obj, notes + ("continue: false refuses the call; the "
                                                                          "session goes on",))
        if decision == "allow" and isinstance(specific.get("permissionDecisionReason"), str):
            notes += ("permissionDecisionReason on allow is shown to no one",)
        return Verdict("allow", "", obj, notes)
    blocks = obj.get("decision") in ("block", "deny")
    if event == "PostToolUse":
        if obj.get("continue") is False:
            return Verdict("stop", stop_reason, obj, notes)
        if blocks:
            notes += ("a decision on PostToolUse changes nothing: the tool already ran",)
        return Verdict("allow" if not blocks else "ignored", "", obj, notes)
    if event in ("UserPromptSubmit", "Stop", "SubagentStop") and (blocks or obj.get("continue") is False):
        return block_verdict("qwen", event, stop_reason, obj, notes)
    if obj.get("continue") is False:
        return Verdict("stop", stop_reason, obj, notes)
    if blocks:
        return block_verdict("qwen", event, stop_reason, obj, notes)
    if obj.get("decision") == "ask":
        return Verdict("ask", str(obj.get("reason") or ""), obj, notes)
    return Verdict("allow", "", obj, notes)
