"""What every host's protocol shares: the verdict types, which events a block means something on,
and the helpers that read a hook's output as the hosts read it (JSON without ``import json``,
JavaScript's and Rust's trim).

Stdlib only and no hookweave imports: the chain runner reads this file, and the per-host files after
it, into one namespace (``protocol.PARTS``). The per-host judges are ``protocol_<host>.py``;
``protocol.judge`` picks one.
"""

from __future__ import annotations

# No ``json``, ``re`` or ``typing`` at the top: the chain runner loads this file under ``python3 -S``
# when a member answers, and those three would cost it 10 ms (json loads ``re``); what needs them
# imports them on its own path.
ACTIONS = ("allow", "block", "ask", "error", "ignored", "stop")
HOSTS = ("claude", "codex", "gemini", "cursor", "copilot", "qwen", "factory", "cline", "windsurf", "antigravity")
# Every answer protocol with a judge (``protocol._JUDGES``), as names: what a description may name
# and a chain may run on, known without loading the fifteen judges (a command that only checks a
# name would pay 2-4 ms for them).
JUDGED = ("claude", "codex", "gemini", "cursor", "copilot", "qwen", "factory", "cline", "windsurf", "antigravity",
          "auggie", "letta", "openhands", "kimi", "openharness", "hermes")
VERSIONS = {"auggie": "0.36.0", "letta": "0.32.18", "openhands": "1.16.0", "openharness": "0.1.9", "claude": "2.1.332", "codex": "0.171.0", "gemini": "0.61.0", "cursor": "docs only", "copilot": "1.0.102",
            "qwen": "0.24.4", "factory": "0.225.2", "cline": "3.0.65", "windsurf": "docs only",
            "antigravity": "docs only", "kimi": "docs only", "hermes": "0.19.0"}
UNMEASURED = "unmeasured: Cursor facts come from its documentation, never from a run"
# The hosts no program of which runs here: every verdict of theirs carries this note.
UNMEASURED_NOTES = {
    "cursor": UNMEASURED,
    "windsurf": "unmeasured: Windsurf facts come from its documentation, never from a run",
    "antigravity": "unmeasured: Antigravity facts come from third-party write-ups of agy, never from a run",
    "kimi": "unmeasured: Kimi Code facts come from its documentation and source (0.38.0), never from a run",
}


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
                         "ElicitationResult", "WorktreeCreate", "PreSkillShellCommand"}),
    "codex": frozenset({"PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"}),
    "gemini": frozenset({"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel"}),
    "cursor": frozenset({"preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile",
                         "beforeSubmitPrompt", "subagentStart", "stop", "subagentStop"}),
    "copilot": frozenset({"preToolUse", "userPromptSubmitted", "permissionRequest", "agentStop", "subagentStop"}),
    "qwen": frozenset({"PreToolUse", "UserPromptSubmit", "UserPromptExpansion", "Stop", "SubagentStop",
                       "PermissionRequest", "PostToolBatch"}),
    "factory": frozenset({"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"}),
    "cline": frozenset({"PreToolUse", "PostToolUse"}),
    "windsurf": frozenset({"pre_read_code", "pre_write_code", "pre_run_command", "pre_mcp_tool_use",
                           "pre_user_prompt"}),
    "antigravity": frozenset({"PreToolUse"}),
    "auggie": frozenset({"PreToolUse"}),  # a plugin's protocol (tests/plugin/hookweave-auggie)
    "letta": frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit", "Stop", "SubagentStop"}),
    "openhands": frozenset({"PreToolUse", "UserPromptSubmit", "Stop"}),
    "kimi": frozenset({"PreToolUse", "UserPromptSubmit", "Stop"}),
    "openharness": frozenset({"pre_tool_use", "pre_compact"}),  # where block_on_failure (hookweave writes it) counts
    "hermes": frozenset({"pre_tool_call", "pre_verify"}),  # JSON only: Hermes ignores exit codes
}
# Events whose plain stdout (exit 0, not JSON) reaches the model as context.
CONTEXT = {"claude": frozenset({"UserPromptSubmit", "SessionStart", "Setup"}),
           "codex": frozenset({"UserPromptSubmit", "SessionStart", "SubagentStart"}),
           "qwen": frozenset({"SessionStart", "UserPromptSubmit", "UserPromptExpansion"}),
           "factory": frozenset({"UserPromptSubmit"}),
           "kimi": frozenset({"UserPromptSubmit"})}
# What a block means where it is not "the action does not happen".
BLOCK_MEANS = {"Stop": "the agent keeps working with the reason as its next prompt",
               "SubagentStop": "the subagent keeps working with the reason as its next prompt",
               "AfterAgent": "the agent keeps working with the reason as its next prompt",
               "PostToolUse": "the tool already ran; the reason goes to the model",
               "AfterTool": "the tool already ran; its result is replaced by the reason",
               "stop": "the agent keeps working with the reason as its next prompt",
               "agentStop": "the agent keeps working with the reason as its next prompt",
               "post_cascade_response": "the response is already shown; the reason goes nowhere"}

# What JavaScript's String.prototype.trim and Rust's str::trim take off both ends.
_JS_SPACE = ("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
             "\u2028\u2029\u202f\u205f\u3000\ufeff")
_RUST_SPACE = ("\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
               "\u200a\u2028\u2029\u202f\u205f\u3000")
SERDE_DEPTH = 128  # serde_json's nesting limit: Codex cannot read JSON nested this deep
DEEP = object()  # JSON nested deeper than Python's parser goes (V8 reads it)

def decode_output(data, name: str) -> tuple:
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


def js_trim(text: str) -> str:
    return text.strip(_JS_SPACE)


def rust_trim(text: str) -> str:
    return text.strip(_RUST_SPACE)


def missing_script(err: str) -> bool:
    """Claude's test for a Stop hook whose script is gone (``/no such file|can't open/i``)."""
    import re

    return re.search(r"no such file|can't open", err, re.IGNORECASE) is not None


class _Strict:
    """What ``json.loads`` hands its C scanner, constants refused as ``loads_json`` refuses them."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int
    parse_constant = staticmethod(_reject_constant)
    memo: dict = {}


def loads_json(text: str) -> tuple:
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
        return DEEP, ""
    except Exception:  # StopIteration, ValueError, SystemError (its error path wants json.decoder): ask json
        pass
    import json

    try:
        return json.loads(text, parse_constant=_reject_constant), ""
    except RecursionError:
        return DEEP, ""
    except ValueError as exc:
        return None, f"invalid JSON ({str(exc).splitlines()[0][:80]})"


def shown_json(value: object) -> str:
    """A field's value as JSON, for a message (at most 40 characters)."""
    import json

    return json.dumps(value)[:40]


def json_depth(value) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def timeout_verdict(host: str, notes: tuple) -> Verdict:
    shown = {"claude": "hook cancelled (timed out)", "gemini": "", "qwen": "Hook timed out",
             "cline": "hook command timed out"}.get(host, "hook timed out")
    extra = {"gemini": ("Gemini logs a timed-out hook in its debug output only; the call goes ahead",),
             "copilot": ("Copilot lets the call go ahead when a hook times out, a preToolUse hook too (fail-open)",),
             "factory": ("Droid kills the hook and counts it as exit 1: a warning; the call goes ahead",),
             "cline": ("Cline kills the hook (SIGKILL) and runs the tool",),
             "hermes": ("Hermes Agent logs a timed-out hook and goes on",)}.get(host, ("the call goes ahead",))
    if host in UNMEASURED_NOTES:
        extra = (UNMEASURED_NOTES[host],)
    return Verdict("error", shown, None, notes + ("timed out",) + extra)


def unknown_fields(obj: dict, known: frozenset, where: str = "") -> tuple:
    return tuple(f"unknown field {where}{key}" for key in obj if key not in known)


def block_verdict(host: str, event: str, reason: str, output, notes: tuple) -> Verdict:
    if event not in BLOCKS[host]:
        return Verdict("ignored", reason, output, notes + (f"{event} cannot be blocked: the block is ignored",))
    means = BLOCK_MEANS.get(event)
    return Verdict("block", reason, output, notes + ((means,) if means else ()))


def stderr_on_success(err: str) -> tuple:
    return ("stderr on exit 0 is not shown",) if err.strip() else ()
