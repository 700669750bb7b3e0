"""How Hermes Agent 0.19.0 reads a shell hook's run (``agent/shell_hooks.py:_make_callback`` and
``_parse_response``; the pre_tool_call cases run offline in tests/e2e/test_hermes_real.py). The exit
code is only logged: stdout is read as JSON whatever it was. On pre_tool_call ``{"decision": "block"}``
or ``{"action": "block"}`` blocks the call, its ``reason`` (or ``message``) the tool's result; on
pre_verify a ``continue`` or ``block`` with a message keeps the agent going; ``{"context": ...}``
is context where it is read (pre_llm_call). Every hook of the event runs, after a block too."""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import Verdict, loads_json

HERMES_ALL_RUN = "later hooks of the event still run: Hermes Agent runs every one"
HERMES_DEFAULT_BLOCK = "Blocked by shell hook."


def judge_hermes(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    if code is not None and code != 0:
        notes += (f"Hermes Agent logs exit {code} and reads stdout all the same: an exit code blocks nothing",)
    body = out.strip()
    if not body:
        return Verdict("allow", "", None, notes)
    obj, problem = loads_json(body)
    if problem or not isinstance(obj, dict):
        return Verdict("allow", "", None, notes + ("stdout is not a JSON object: Hermes Agent logs it and goes on",))
    if event == "pre_tool_call":
        if obj.get("action") == "block" or obj.get("decision") == "block":
            first, second = ("message", "reason") if obj.get("action") == "block" else ("reason", "message")
            reason = obj.get(first) or obj.get(second)
            reason = reason if isinstance(reason, str) and reason else HERMES_DEFAULT_BLOCK
            return Verdict("block", reason, obj, notes + ("the model reads the reason as the tool's result",
                                                          HERMES_ALL_RUN))
        return Verdict("allow", "", obj, notes)
    if event == "pre_verify":
        action = str(obj.get("action") or obj.get("decision") or "").strip().lower()
        message = obj.get("message") or obj.get("reason")
        if action in ("continue", "block") and isinstance(message, str) and message.strip():
            return Verdict("block", message.strip(), obj, notes + (HERMES_ALL_RUN,))
        return Verdict("allow", "", obj, notes)
    context = obj.get("context")
    if isinstance(context, str) and context.strip():
        read = ("the text reaches the model (added to the user's message)",) if event == "pre_llm_call" else \
            (f"Hermes Agent reads no context on {event}",)
        return Verdict("allow" if event == "pre_llm_call" else "ignored", "", obj, notes + read)
    if obj.get("decision") or obj.get("action"):
        return Verdict("ignored", "", obj, notes + (f"Hermes Agent reads no decision on {event}",))
    return Verdict("allow", "", obj, notes)
