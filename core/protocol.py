"""What each agent does with a hook's exit code and output: the one table that ``hooks check``
and the chain runner share.

Stdlib only and no hookweave imports, so the chain runner can load this file on its own
(``python3 -S protocol.py`` or by path). Facts are from the pinned hosts: Claude Code 2.1.197,
Codex 0.169.0 and Gemini CLI 0.61.0, read in their shipped code (Claude's binary, Gemini's JS
bundle, Codex's hooks crate whose messages are in the 0.169.0 binary), the decisive ones run
on the real agents in tests/e2e. Cursor was never run: every Cursor verdict says "unmeasured".

``judge`` answers for one hook run; ``chain_verdict`` combines the verdicts of an event's hooks
the way the host combines them. Actions: allow, block, ask, error (the agent shows a hook
error or a non-blocking failure and goes on), ignored (output the host does not read), stop
(the session stops).
"""

from __future__ import annotations

# No ``json``, ``re`` or ``typing`` at the top: the chain runner loads this file under ``python3 -S``
# when a member answers, and those three would cost it 10 ms (json loads ``re``); what needs them
# imports them on its own path.

ACTIONS = ("allow", "block", "ask", "error", "ignored", "stop")
HOSTS = ("claude", "codex", "gemini", "cursor")
VERSIONS = {"claude": "2.1.197", "codex": "0.169.0", "gemini": "0.61.0", "cursor": "docs only"}
UNMEASURED = "unmeasured: Cursor facts come from its documentation, never from a run"


class Verdict(tuple):
    """``(action, reason, output, notes)``: action one of ACTIONS; reason the text the host shows or
    gives the model; output the parsed JSON object, or None; notes short strings (unknown fields,
    invalid JSON, ignored output, ...). A plain tuple: ``typing.NamedTuple`` costs the runner 3 ms."""

    __slots__ = ()

    def __new__(cls, action: str, reason: str, output: object, notes: tuple) -> Verdict:
        return tuple.__new__(cls, (action, reason, output, notes))

    action = property(lambda self: self[0])
    reason = property(lambda self: self[1])
    output = property(lambda self: self[2])
    notes = property(lambda self: self[3])

    def __repr__(self) -> str:
        return f"Verdict(action={self[0]!r}, reason={self[1]!r}, output={self[2]!r}, notes={self[3]!r})"


class ChainVerdict(tuple):
    """``(verdict, decided_by)``: the combined verdict, and the index of the member whose verdict
    decided (None when none did)."""

    __slots__ = ()

    def __new__(cls, verdict: Verdict, decided_by: object) -> ChainVerdict:
        return tuple.__new__(cls, (verdict, decided_by))

    verdict = property(lambda self: self[0])
    decided_by = property(lambda self: self[1])

    def __repr__(self) -> str:
        return f"ChainVerdict(verdict={self[0]!r}, decided_by={self[1]!r})"


# Events where a block means something (the others show the reason and go on).
BLOCKS = {
    "claude": frozenset({"PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit",
                         "Stop", "SubagentStop", "TeammateIdle", "TaskCompleted", "ConfigChange", "Elicitation",
                         "ElicitationResult", "WorktreeCreate"}),
    "codex": frozenset({"PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"}),
    "gemini": frozenset({"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel"}),
    "cursor": frozenset({"preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile",
                         "beforeSubmitPrompt", "subagentStart", "stop", "subagentStop"}),
}
# Events whose plain stdout (exit 0, not JSON) reaches the model as context.
CONTEXT = {"claude": frozenset({"UserPromptSubmit", "SessionStart", "Setup"}),
           "codex": frozenset({"UserPromptSubmit", "SessionStart", "SubagentStart"})}
# What a block means where it is not "the action does not happen".
BLOCK_MEANS = {"Stop": "the agent keeps working with the reason as its next prompt",
               "SubagentStop": "the subagent keeps working with the reason as its next prompt",
               "AfterAgent": "the agent keeps working with the reason as its next prompt",
               "PostToolUse": "the tool already ran; the reason goes to the model",
               "AfterTool": "the tool already ran; its result is replaced by the reason",
               "stop": "the agent keeps working with the reason as its next prompt"}

# What JavaScript's String.prototype.trim and Rust's str::trim take off both ends.
_JS_SPACE = ("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
             "\u2028\u2029\u202f\u205f\u3000\ufeff")
_RUST_SPACE = ("\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
               "\u200a\u2028\u2029\u202f\u205f\u3000")
SERDE_DEPTH = 128  # serde_json's nesting limit: Codex cannot read JSON nested this deep
_DEEP = object()  # JSON nested deeper than Python's parser goes (V8 reads it)


def judge(host: str, event: str, exit_code, stdout, stderr, timed_out: bool = False) -> Verdict:
    """What ``host`` does with one run of a hook on ``event``. ``exit_code`` is None or negative
    when a signal ended the hook; stdout and stderr are str or bytes (decoded as the hosts do)."""
    out, notes = _decode(stdout, "stdout")
    err, more = _decode(stderr, "stderr")
    notes += more
    if host not in _JUDGES:
        raise ValueError(f"unknown host {host!r}; expected one of {', '.join(HOSTS)}")
    if timed_out:
        return _timed_out(host, notes)
    signal = exit_code is None or exit_code < 0
    if signal:
        notes += (f"ended by signal {-exit_code}" if exit_code else "ended without an exit code",)
    return _JUDGES[host](event, None if signal else exit_code, out, err, notes)


def _decode(data, name: str) -> tuple:
    if data is None:
        return "", ()
    if isinstance(data, str):
        return data, ()
    text = bytes(data).decode("utf-8", "replace")
    if "\ufffd" in text and b"\xef\xbf\xbd" not in data:
        return text, (f"{name} is not UTF-8: the host reads replacement characters",)
    return text, ()


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _js_trim(text: str) -> str:
    return text.strip(_JS_SPACE)


def _rust_trim(text: str) -> str:
    return text.strip(_RUST_SPACE)


def _missing_script(err: str) -> bool:
    """Claude's test for a Stop hook whose script is gone (``/no such file|can't open/i``)."""
    import re

    return re.search(r"no such file|can't open", err, re.IGNORECASE) is not None


class _Strict:
    """What ``json.loads`` hands its C scanner, constants refused as ``_loads`` refuses them."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int
    parse_constant = staticmethod(_reject_constant)
    memo: dict = {}


def _loads(text: str) -> tuple:
    """(value, problem): the parsed JSON value, or None and why it is not JSON. The value comes from
    the C scanner ``json.loads`` itself uses, without importing ``json`` (7 ms for the runner); any
    text it does not take whole goes to ``json.loads`` for the exact reason."""
    try:
        import _json

        scan = _json.make_scanner(_Strict())
        start = len(text) - len(text.lstrip(" \t\n\r"))
        try:
            value, end = scan(text, start)
        finally:
            _Strict.memo.clear()
        if not text.startswith("\ufeff") and not text[end:].strip(" \t\n\r"):
            return value, ""
    except RecursionError:
        return _DEEP, ""
    except Exception:  # StopIteration, ValueError, SystemError (its error path wants json.decoder): ask json
        pass
    import json

    try:
        return json.loads(text, parse_constant=_reject_constant), ""
    except RecursionError:
        return _DEEP, ""
    except ValueError as exc:
        return None, f"invalid JSON ({str(exc).splitlines()[0][:80]})"


def _shown(value: object) -> str:
    """A field's value as JSON, for a message (at most 40 characters)."""
    import json

    return json.dumps(value)[:40]


def _depth(value) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def _timed_out(host: str, notes: tuple) -> Verdict:
    shown = {"claude": "hook cancelled (timed out)", "codex": "hook timed out",
             "gemini": "", "cursor": "hook timed out"}[host]
    extra = {"gemini": ("Gemini logs a timed-out hook in its debug output only; the call goes ahead",),
             "cursor": (UNMEASURED,)}.get(host, ("the call goes ahead",))
    return Verdict("error", shown, None, notes + ("timed out",) + extra)


def _unknown(obj: dict, known: frozenset, where: str = "") -> tuple:
    return tuple(f"unknown field {where}{key}" for key in obj if key not in known)


def _blocked(host: str, event: str, reason: str, output, notes: tuple) -> Verdict:
    if event not in BLOCKS[host]:
        return Verdict("ignored", reason, output, notes + (f"{event} cannot be blocked: the block is ignored",))
    means = BLOCK_MEANS.get(event)
    return Verdict("block", reason, output, notes + ((means,) if means else ()))


# -- Claude Code 2.1.197 -------------------------------------------------------------------------

CLAUDE_FIELDS = frozenset({"continue", "suppressOutput", "stopReason", "decision", "reason", "systemMessage",
                           "terminalSequence", "hookSpecificOutput"})
CLAUDE_SPECIFIC = {
    "PreToolUse": ("permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"),
    "UserPromptSubmit": ("additionalContext", "sessionTitle", "suppressOriginalPrompt"),
    "UserPromptExpansion": ("additionalContext",), "Setup": ("additionalContext",),
    "SessionStart": ("additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"),
    "SubagentStart": ("additionalContext",), "PostToolUseFailure": ("additionalContext",),
    "PostToolUse": ("additionalContext", "updatedToolOutput", "updatedMCPToolOutput"),
    "PostToolBatch": ("additionalContext",), "Stop": ("additionalContext",), "SubagentStop": ("additionalContext",),
    "PermissionDenied": ("retry",), "Notification": ("additionalContext",), "PermissionRequest": ("decision",),
    "Elicitation": ("action", "content"), "ElicitationResult": ("action", "content"), "CwdChanged": ("watchPaths",),
    "FileChanged": ("watchPaths",), "WorktreeCreate": ("worktreePath",), "MessageDisplay": ("displayContent",),
}
_CLAUDE_TYPES = {"continue": bool, "suppressOutput": bool, "stopReason": str, "reason": str, "systemMessage": str,
                 "terminalSequence": str}


def _claude_problem(event: str, obj: dict) -> str:
    """Why Claude's schema check (or its decision switch) rejects the object, or ''."""
    for key, kind in _CLAUDE_TYPES.items():
        if key in obj and not isinstance(obj[key], kind):
            return f"{key}: expected {kind.__name__}"
    if "decision" in obj and obj["decision"] not in ("approve", "block"):
        return f"decision: {_shown(obj['decision'])} is not approve or block"
    specific = obj.get("hookSpecificOutput")
    if specific is None:
        return ""
    if not isinstance(specific, dict):
        return "hookSpecificOutput: expected object"
    name = specific.get("hookEventName")
    if name is None:
        return 'hookSpecificOutput is missing required field "hookEventName"'
    if name not in CLAUDE_SPECIFIC:
        return f"hookSpecificOutput.hookEventName: {_shown(name)} is not an event"
    if name != event:
        return f"incorrect event name: expected '{event}' but got '{name}'"
    decision = specific.get("permissionDecision")
    if name == "PreToolUse" and decision is not None and decision not in ("allow", "deny", "ask", "defer"):
        return f"permissionDecision: {_shown(decision)} is not allow, deny, ask or defer"
    return ""


def _claude(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    body = _js_trim(out)
    obj, problem = _loads(body) if body.startswith("{") else (None, "not JSON")
    if obj is _DEEP:
        obj, notes = {}, notes + ("JSON nested deeper than the checker reads: judged as if it held no known field",)
    if isinstance(obj, dict):  # Claude reads JSON on every exit code, but only when it starts with {
        problem = _claude_problem(event, obj)
        if problem:
            return Verdict("error", f"Hook JSON output validation failed — {problem}", obj,
                           notes + ("JSON that fails Claude's schema: a hook error, whatever the exit code",))
        return _claude_json(event, code, obj, err, notes)
    if body.startswith("{"):  # measured: JSON that does not parse is plain text to Claude, exit 2 still blocks
        notes += (f"stdout starts with {{ but is {problem}: Claude reads it as plain text",)
    if code == 0:
        if not body:
            return Verdict("allow", "", None, notes + _stderr_on_success(err))
        if event in CONTEXT["claude"]:
            return Verdict("allow", body, None, notes + ("plain stdout is added to the model's context",))
        return Verdict("ignored", body, None, notes + ("plain stdout: Claude Code shows it only in the transcript view",))
    if code == 2:
        if event in {"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"} and not out.strip() and _missing_script(err):
            return Verdict("error", f"Hook script appears to be missing: {err.strip()}", None,
                           notes + ("exit 2 with a missing-file message counts as non-blocking",))
        if event in BLOCKS["claude"]:
            return _blocked("claude", event, err or "No stderr output", None, notes)
        return Verdict("error", err.strip(), None, notes + (f"exit 2 cannot block {event}: stderr is shown to the user",))
    shown = f"Failed with non-blocking status code: {err.strip() or 'No stderr output'}"
    return Verdict("error", shown, None, notes + ("non-zero exit other than 2: a hook error, the call goes ahead",))


def _stderr_on_success(err: str) -> tuple:
    return ("stderr on exit 0 is not shown",) if err.strip() else ()


def _claude_json(event: str, code, obj: dict, err: str, notes: tuple) -> Verdict:
    notes += _unknown(obj, CLAUDE_FIELDS | {"async", "asyncTimeout"})
    if obj.get("async") is True:
        return Verdict("allow", "", obj, notes + ("async: Claude Code goes on without waiting for this hook",))
    specific = obj.get("hookSpecificOutput") or {}
    notes += _unknown(specific, frozenset(CLAUDE_SPECIFIC.get(event, ())) | {"hookEventName"}, "hookSpecificOutput.")
    if code not in (0, 2):
        notes += (f"exit code {'from a signal' if code is None else code} is ignored: the JSON decides",)
    if obj.get("systemMessage"):
        notes += ("systemMessage is shown to the user",)
    action, reason = "allow", ""
    if obj.get("decision") == "block":
        action, reason = "block", obj.get("reason") or "Blocked by hook"
    permission = specific.get("permissionDecision") if event == "PreToolUse" else None
    if permission == "deny":
        action, reason = "block", specific.get("permissionDecisionReason") or obj.get("reason") or "Blocked by hook"
    elif permission == "ask" and action != "block":  # a decision:block's blocking error stays
        action, reason = "ask", specific.get("permissionDecisionReason") or ""
    elif permission in ("allow", "defer") and action != "block":
        action = "allow"
        if specific.get("permissionDecisionReason"):
            notes += ("permissionDecisionReason on allow is shown to the user, never to the model",)
        if permission == "defer":
            notes += ("defer: Claude Code decides as if no hook had answered",)
    request = specific.get("decision") if event == "PermissionRequest" else None
    if isinstance(request, dict) and request.get("behavior"):
        action = "allow" if request.get("behavior") == "allow" else "block"
        reason = "" if action == "allow" else str(request.get("message") or "Blocked by hook")
    if code == 2 and action != "block":
        action, reason = "block", err or "No stderr output"
    if specific.get("additionalContext"):
        notes += ("additionalContext is given to the model",)
    if obj.get("continue") is False:
        return Verdict("stop", obj.get("stopReason") or "", obj, notes)
    if action == "block":
        return _blocked("claude", event, reason, obj, notes)
    return Verdict(action, reason, obj, notes)


# -- Codex 0.169.0 ----------------------------------------------------------------------------------

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


def _codex(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    if code is None:
        return Verdict("error", "hook exited without a status code", None, notes)
    if code == 2:
        reason = _rust_trim(err)
        if event in BLOCKS["codex"] and reason:
            return _blocked("codex", event, reason, None, notes)
        missing = "a continuation prompt" if event in ("Stop", "SubagentStop") else "a blocking reason"
        shown = (f"{event} hook exited with code 2 but did not write {missing} to stderr" if event in BLOCKS["codex"]
                 else "hook exited with code 2")
        return Verdict("error", shown, None, notes + ("Codex reads JSON only on exit 0",) * bool(out.strip()))
    if code != 0:
        return Verdict("error", f"hook exited with code {code}", None,
                       notes + ("Codex reads JSON only on exit 0",) * bool(out.strip()))
    body = _rust_trim(out)
    if not body:
        return Verdict("allow", "", None, notes + _stderr_on_success(err))
    obj, problem = _loads(body)
    if obj is _DEEP or (isinstance(obj, (dict, list)) and _depth(obj) >= SERDE_DEPTH):
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
        return f"decision: {_shown(obj['decision'])} is not {' or '.join(decisions)}"
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
        return f"permissionDecision: {_shown(permission)} is not allow, deny or ask"
    return ""


def _codex_unsupported(event: str, obj: dict) -> str:
    """The outputs Codex parses and then refuses (it fails open with this message)."""
    reason = _rust_trim(obj.get("reason") or "")
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
            if permission == "deny" and not _rust_trim(specific.get("permissionDecisionReason") or ""):
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
        return _blocked("codex", event, _rust_trim(specific["permissionDecisionReason"]), obj, notes)
    if event == "PermissionRequest" and isinstance(specific.get("decision"), dict):
        decision = specific["decision"]
        if decision.get("behavior") == "deny":
            message = _rust_trim(str(decision.get("message") or "")) or "PermissionRequest hook denied approval"
            return _blocked("codex", event, message, obj, notes)
        return Verdict("allow", "", obj, notes)
    if obj.get("decision") == "block":
        return _blocked("codex", event, _rust_trim(obj["reason"]), obj, notes)
    return Verdict("allow", "", obj, notes)


# -- Gemini CLI 0.61.0 ------------------------------------------------------------------------------

GEMINI_FIELDS = frozenset({"continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason",
                           "hookSpecificOutput"})


def _gemini(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    if code is None:  # Gemini takes `exitCode || 0`: a hook killed by a signal counts as exit 0
        code, notes = 0, notes + ("Gemini counts a hook ended by a signal as exit 0",)
    text = _js_trim(out) or _js_trim(err)
    if not out.strip() and text:
        notes += ("stdout is empty, so Gemini reads stderr as the hook's output",)
    if not text:
        if code == 0:
            return Verdict("allow", "", None, notes)
        return Verdict("error", "", None, notes + (f"exit {code} without output: Gemini logs it in debug output only",))
    value, problem = _loads(text)
    if isinstance(value, str):  # Gemini parses a JSON string a second time
        value, problem = _loads(value)
    if value is _DEEP:
        value, notes = {}, notes + ("JSON nested deeper than the checker reads: judged as if it held no known field",)
    if problem:  # plain text: exit 0 a message, exit 1 a warning, any other exit a deny with the text as reason
        if code == 0:
            return Verdict("allow", text, None, notes + ("plain text is shown to the user as a system message",))
        if code == 1:
            return Verdict("error", f"Warning: {text}", None, notes + ("exit 1: Gemini shows a warning and goes on",))
        return _blocked("gemini", event, text, None, notes + (f"exit {code} with plain text: Gemini denies with the text",))
    if not isinstance(value, (dict, list)):
        return Verdict("ignored" if code == 0 else "error", "", None, notes + ("JSON that is not an object is ignored",))
    obj = value if isinstance(value, dict) else {}
    notes += _unknown(obj, GEMINI_FIELDS)
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
        return _blocked("gemini", event, reason, value, notes)
    if obj.get("decision") == "ask":
        return Verdict("ask", str(obj.get("reason") or ""), value, notes)
    return Verdict("allow", "", value, notes)


# -- Cursor (documentation only) ----------------------------------------------------------------------

CURSOR_FIELDS = frozenset({"permission", "user_message", "agent_message", "continue", "followup_message"})


def _cursor(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    notes += (UNMEASURED,)
    if code == 2:
        return _blocked("cursor", event, err.strip(), None, notes)
    if code != 0:
        return Verdict("error", err.strip(), None, notes + ("Cursor fails open on a failed hook",))
    body = out.strip()
    if not body:
        return Verdict("allow", "", None, notes)
    obj, problem = _loads(body)
    if problem or not isinstance(obj, dict):
        return Verdict("error", "", None, notes + ((problem or "JSON that is not an object") + ": Cursor fails open",))
    notes += _unknown(obj, CURSOR_FIELDS)
    reason = str(obj.get("agent_message") or obj.get("user_message") or "")
    if obj.get("permission") == "deny" or (event == "beforeSubmitPrompt" and obj.get("continue") is False):
        return _blocked("cursor", event, reason, obj, notes)
    if obj.get("permission") == "ask":
        return Verdict("ask", reason, obj, notes)
    if event in ("stop", "subagentStop") and obj.get("followup_message"):
        return _blocked("cursor", event, str(obj["followup_message"]), obj, notes)
    return Verdict("allow", "", obj, notes)


_JUDGES = {"claude": _claude, "codex": _codex, "gemini": _gemini, "cursor": _cursor}


# -- chains ---------------------------------------------------------------------------------------

_RANK = {"stop": 5, "block": 4, "ask": 3, "error": 2, "allow": 1, "ignored": 0}
REPLACING = {"gemini": frozenset({"BeforeModel", "AfterModel"})}  # later hooks' fields replace earlier ones


def chain_verdict(host: str, event: str, verdicts) -> ChainVerdict:
    """The verdict of an event's hooks together, and which member decided it. Every host runs
    them all and the strongest answer wins (stop, then block, then ask; Claude's deny > ask >
    allow, Codex's stop over block, Gemini's OR); on Gemini's BeforeModel/AfterModel the last
    hook that answered replaces the earlier ones. First in order wins a tie, as the hosts take
    the first reason."""
    verdicts = list(verdicts)
    if not verdicts:
        return ChainVerdict(Verdict("allow", "", None, ("no hook ran",)), None)
    if event in REPLACING.get(host, ()):
        answered = [i for i, v in enumerate(verdicts) if v.action in ("stop", "block", "ask")
                    or (isinstance(v.output, dict) and ("decision" in v.output or "continue" in v.output))]
        if answered:
            return ChainVerdict(verdicts[answered[-1]], answered[-1])
        return ChainVerdict(Verdict("allow", "", None, ()), None)
    best = max(range(len(verdicts)), key=lambda i: (_RANK.get(verdicts[i].action, 0), -i))
    if verdicts[best].action in ("allow", "ignored"):
        return ChainVerdict(Verdict("allow", "", None, ()), None)
    if verdicts[best].action == "block" and (host == "gemini" or event in ("Stop", "SubagentStop") and host == "codex"):
        reasons = [v.reason for v in verdicts if v.action == "block" and v.reason]
        joined = Verdict("block", "\n".join(reasons), verdicts[best].output, verdicts[best].notes)
        return ChainVerdict(joined, best)
    return ChainVerdict(verdicts[best], best)
