"""How OpenHands 1.16.0 reads a hook's exit code and output (``HookExecutor.execute`` and
``HookManager`` in openhands-sdk 1.21.0; the PreToolUse cases run offline in
tests/e2e/test_openhands_real.py). Exit 2 blocks, and so do ``"decision": "deny"`` and
``"continue": false`` on stdout after any exit code; Claude's ``hookSpecificOutput`` is not read.
The reason is the JSON ``reason``, else stderr, else "Blocked by hook"."""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import Verdict, loads_json

OPENHANDS_BLOCKS = frozenset({"PreToolUse", "UserPromptSubmit", "Stop"})  # what a block stops (or, Stop: continues)


def judge_openhands(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    if code is None:  # subprocess.run gives a negative code for a signal: neither 0 nor 2
        code = -1
    body = out.strip()
    obj, problem = loads_json(body) if body else (None, "")
    obj = obj if isinstance(obj, dict) and not problem else None
    decision = obj.get("decision") if obj is not None else None
    if decision is not None and not isinstance(decision, str):
        return Verdict("error", "Hook execution failed", obj, notes + ("decision is not a string: OpenHands counts "
                                                                       "the hook failed and goes on",))
    blocked = code == 2 or (decision or "").lower() == "deny" or (obj is not None and "continue" in obj
                                                                   and not obj["continue"])
    reason = str(obj["reason"]) if obj is not None and "reason" in obj else err.strip() or ""
    if isinstance(obj, dict) and isinstance(obj.get("hookSpecificOutput"), dict):
        notes += ("OpenHands reads no hookSpecificOutput: use decision, reason and additionalContext at the top",)
    if blocked:
        if event not in OPENHANDS_BLOCKS:
            return Verdict("ignored", reason, obj, notes + (f"{event} cannot be blocked: the block is ignored",))
        more = ("the agent goes on instead of stopping",) if event == "Stop" else ()
        return Verdict("block", reason or "Blocked by hook", obj, notes + more + ("later hooks of the event do not run",))
    if code != 0:
        return Verdict("error", reason, obj, notes + ("OpenHands logs the failure and goes on: only exit 2 blocks",))
    context = obj.get("additionalContext") if obj is not None else None
    if event == "UserPromptSubmit" and context is not None:
        return Verdict("allow", str(context), obj, notes + ("the text reaches the model with the prompt",))
    return Verdict("allow", "", obj, notes + (("stdout is not shown to the model",) if body and obj is None else ()))
