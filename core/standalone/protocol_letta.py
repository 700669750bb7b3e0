"""How Letta Code 0.32.18 reads a hook's exit code and output (``executeHooks`` and
``executeHooksParallel`` in its bundled letta.js; the PreToolUse cases run offline in
tests/e2e/test_letta_real.py). Only exit 2 blocks: Letta reads no ``decision``,
``permissionDecision`` or ``continue`` from stdout. A PreToolUse block gives the model
``Error: Tool execution blocked by hook. [<command>]: <stderr>``; after a tool, the hooks' texts
(exit 2 and exit 1 stderr, ``additionalContext``) follow the tool's result under ``[Hook feedback]:``."""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import Verdict, loads_json

# executeHooks: one after another, the first exit 2 ends them and blocks (SessionStart's caller drops the block)
LETTA_SEQUENTIAL = frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit", "Stop", "SubagentStop"})
LETTA_AFTER = frozenset({"PostToolUse", "PostToolUseFailure"})  # feedback appended to the tool's result
LETTA_TO_MODEL = "the text reaches the model"


def judge_letta(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    if code is None:  # a hook ended by a signal closes with code null: Letta counts it an error
        code = 1
    reason = err.strip()
    if code == 2:
        if event in LETTA_SEQUENTIAL:
            told = (f"{LETTA_TO_MODEL} as the tool's error: Tool execution blocked by hook. [<command>]: <stderr>",) \
                if event == "PreToolUse" and reason else ()
            return Verdict("block", reason, None, notes + told + ("later hooks of the event do not run",))
        told = (f"{LETTA_TO_MODEL} after the tool's result, as [<command>]: <stderr>",) \
            if event in LETTA_AFTER and reason else ()
        later = ("later hooks of the event do not run",) if event == "SessionStart" else ()
        return Verdict("allow", reason, None, notes + told + later + (f"exit 2 on {event} blocks nothing",))
    if code != 0:
        told = (f"{LETTA_TO_MODEL} after the tool's result, as Hook error: <stderr>",) \
            if event in LETTA_AFTER and reason else ()
        return Verdict("error", f"Hook error: {reason}" if reason else "", None,
                       notes + told + ("Letta goes on: only exit 2 blocks",))
    body = out.strip()
    obj, problem = loads_json(body) if body else (None, "")
    obj = obj if isinstance(obj, dict) and not problem else None
    if obj is not None and any(k in obj for k in ("decision", "continue")) or obj is not None and isinstance(
            obj.get("hookSpecificOutput"), dict) and "permissionDecision" in obj["hookSpecificOutput"]:
        notes += ("Letta reads no decision, permissionDecision or continue: only exit 2 blocks",)
    if event == "UserPromptSubmit" and body:
        return Verdict("allow", body, obj, notes + (f"{LETTA_TO_MODEL} with the prompt",))
    if event == "PreToolUse" and obj is not None and isinstance(obj.get("hookSpecificOutput"), dict) \
            and isinstance(obj["hookSpecificOutput"].get("updatedInput"), dict):
        return Verdict("allow", "", obj, notes + ("the tool runs with hookSpecificOutput.updatedInput",))
    context = _context(obj) if event in LETTA_AFTER else ""
    if context:
        return Verdict("allow", context, obj, notes + (f"{LETTA_TO_MODEL} after the tool's result",))
    return Verdict("allow", "", obj, notes + (("stdout is shown in Letta's log, not to the model",) if body else ()))


def _context(obj) -> str:
    if obj is None:
        return ""
    specific = obj.get("hookSpecificOutput") if isinstance(obj.get("hookSpecificOutput"), dict) else {}
    text = specific.get("additionalContext") or obj.get("additionalContext")
    return text if isinstance(text, str) else ""
