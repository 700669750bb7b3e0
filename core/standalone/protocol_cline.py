"""How Cline CLI 3.0.65 reads a hook's answer (its ``@cline/core`` code; the decisive rows run in
tests/e2e/test_check_real.py), and so how hookweave's dispatcher (``cline_dispatch.py``) reads
each of its members, the same way.

Cline waits only for PreToolUse and PostToolUse; the other events' files are started detached and
nothing they print is read. Exit codes mean nothing: the answer is stdout, its last line starting
``HOOK_CONTROL<tab>`` or else all of it, parsed as one JSON object whose known fields are typed
(``cancel`` and ``review`` booleans, ``context``, ``contextModification`` and ``errorMessage``
strings, ``overrideInput``). ``cancel: true`` ends the whole run (the tool does not run, the model
is not asked again); ``context``, ``contextModification`` or ``errorMessage`` without a cancel reach
the model as hook context. A stdout that is not JSON, or a field of the wrong type, is logged and
ignored, and so is a hook that runs past its timeout (120 s, then SIGKILL): the tool runs.
"""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import (
        DEEP,
        Verdict,
        loads_json,
        unknown_fields,
    )


CLINE_FIELDS = frozenset({"cancel", "review", "context", "contextModification", "errorMessage", "overrideInput"})
_TYPES = {"cancel": bool, "review": bool, "context": str, "contextModification": str, "errorMessage": str}
WAITED = frozenset({"PreToolUse", "PostToolUse"})


def control_text(out: str) -> str:
    """What Cline parses: the last ``HOOK_CONTROL<tab>`` line, else the whole stdout, trimmed."""
    lines = [line.strip() for line in out.strip().split("\n") if line.strip()]
    marked = [line[len("HOOK_CONTROL\t"):] for line in lines if line.startswith("HOOK_CONTROL\t")]
    return marked[-1] if marked else out.strip()


def judge_cline(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    if code not in (0, None):
        notes += (f"exit code {code} means nothing to Cline: only stdout is read",)
    elif code is None:
        notes += ("Cline reads stdout even from a hook a signal ended",)
    if event not in WAITED:
        if out.strip():
            return Verdict("ignored", out.strip(), None, notes + (f"Cline starts {event} hooks detached and reads "
                                                                    "nothing they print",))
        return Verdict("allow", "", None, notes)
    text = control_text(out)
    if not text:
        return Verdict("allow", "", None, notes)
    obj, problem = loads_json(text)
    if obj is DEEP:
        obj, notes = {}, notes + ("JSON nested deeper than the checker reads: judged as if it held no known field",)
    if problem:
        return Verdict("error", "hook produced invalid control JSON", None, notes + (
            "stdout is not JSON: Cline logs an error and runs the tool",))
    if not isinstance(obj, dict):
        return Verdict("ignored", text, None, notes + ("JSON that is not an object: Cline ignores it",))
    wrong = [key for key, kind in _TYPES.items() if key in obj and not isinstance(obj[key], kind)]
    if wrong:
        return Verdict("ignored", text, obj, notes + (f"{wrong[0]} has the wrong type: Cline ignores the whole answer",))
    notes += unknown_fields(obj, CLINE_FIELDS)
    if not any(key in obj for key in CLINE_FIELDS):
        return Verdict("ignored", text, obj, notes + ("no field Cline reads (cancel, context, contextModification, "
                                                      "errorMessage, overrideInput): the tool runs",))
    message = obj.get("errorMessage") if isinstance(obj.get("errorMessage"), str) and obj["errorMessage"].strip() else None
    context = obj.get("context") if isinstance(obj.get("context"), str) else obj.get("contextModification")
    if "overrideInput" in obj and event == "PreToolUse":
        notes += ("overrideInput replaces the tool's input",)
    if obj.get("cancel") is True:
        return Verdict("stop", str(message or context or ""), obj, notes + (
            "cancel: the tool does not run and Cline ends the whole run",))
    shown = context if isinstance(context, str) and context.strip() else message
    if shown:
        notes += ("the text reaches the model as hook context",)
    return Verdict("allow", str(shown or ""), obj, notes)
