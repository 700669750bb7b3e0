"""The chain runner's answers: matchers as each host applies them, and the members' answers
combined into one. Standard library only, no hookweave import: install puts this source after
``jsonfast.py``'s and before ``chainrun.py``'s in the runner file (``chain.runner_text``), one namespace.
"""

if "loads" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.jsonfast import dumps, loads  # noqa: F401

# The payload field each host tests an event's matcher against (HOSTS.md); other events run every member.
TOOL = "tool_name"
QUERY = {
    "claude": {"PreToolUse": TOOL, "PostToolUse": TOOL, "PostToolUseFailure": TOOL, "PermissionRequest": TOOL,
               "PermissionDenied": TOOL, "UserPromptExpansion": "command_name", "SessionStart": "source",
               "ConfigChange": "source", "Setup": "trigger", "PreCompact": "trigger", "PostCompact": "trigger",
               "Notification": "notification_type", "SessionEnd": "reason", "StopFailure": "error",
               "SubagentStart": "agent_type", "SubagentStop": "agent_type", "Elicitation": "mcp_server_name",
               "ElicitationResult": "mcp_server_name", "InstructionsLoaded": "load_reason"},
    "codex": {"PreToolUse": TOOL, "PermissionRequest": TOOL, "PostToolUse": TOOL, "PreCompact": "trigger",
              "PostCompact": "trigger", "SessionStart": "source", "SubagentStart": "agent_type",
              "SubagentStop": "agent_type"},
    "gemini": {"BeforeTool": TOOL, "AfterTool": TOOL, "SessionStart": "source", "SessionEnd": "reason",
               "PreCompress": "trigger", "Notification": "notification_type"},
    "cursor": {"preToolUse": TOOL, "postToolUse": TOOL, "postToolUseFailure": TOOL},
    "auggie": {"PreToolUse": TOOL, "PostToolUse": TOOL},  # unanchored regexes on Auggie's tool names
    "openhands": {"PreToolUse": TOOL, "PostToolUse": TOOL},
    "hermes": {"pre_tool_call": TOOL, "post_tool_call": TOOL},  # re.fullmatch on the tool name
    "kimi": {"PreToolUse": TOOL, "PostToolUse": TOOL, "PostToolUseFailure": TOOL, "PermissionRequest": TOOL,
             "PermissionResult": TOOL, "UserPromptSubmit": "prompt", "SessionStart": "source", "SessionEnd": "reason",
             "SubagentStart": "agent_name", "SubagentStop": "agent_name", "PreCompact": "trigger",
             "PostCompact": "trigger", "StopFailure": "error_type", "Notification": "notification_type"},
    "letta": {"PreToolUse": TOOL, "PostToolUse": TOOL, "PostToolUseFailure": TOOL, "PermissionRequest": TOOL},
    "copilot": {"preToolUse": "toolName", "postToolUse": "toolName", "postToolUseFailure": "toolName",
                "permissionRequest": "toolName"},
    "qwen": {"PreToolUse": TOOL, "PostToolUse": TOOL, "PostToolUseFailure": TOOL, "PermissionRequest": TOOL,
             "PermissionDenied": TOOL, "SubagentStart": "agent_type", "SubagentStop": "agent_type"},
    "factory": {"PreToolUse": TOOL, "PostToolUse": TOOL},
    "antigravity": {"PreToolUse": "toolCall.name", "PostToolUse": "toolCall.name"},
}
# A host whose protocol is data (a plugin's) -> (payload field, how a matcher applies): the runner sets
# it from the host's row in its protocol table (``chainrun.learn_matchers``).
DATA_MATCHERS = {}
GEMINI_TOOL_EVENTS = ("BeforeTool", "AfterTool")
SIMPLE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_|")
JOINED = ("additionalContext", "systemMessage", "user_message", "agent_message", "followup_message")
STRICT = {"permissionDecision": ("allow", "ask", "deny"), "permission": ("allow", "ask", "deny"),
          "decision": ("approve", "allow", "ask", "block", "deny")}
STRICT_REASONS = {"permissionDecision": "permissionDecisionReason", "decision": "reason"}


# -- matchers: each host's own rule (HOSTS.md)

def matches(host, event, matcher, payload):
    """Whether the host would run a hook with ``matcher`` for this payload (``payload`` a dict, or
    None when it is not JSON: then every member runs, as no field can be tested)."""
    if host == "openharness" and matcher not in ("", "*") and isinstance(payload, dict):
        import fnmatch  # its executor's _matches_hook: a glob on the tool, else the prompt, else the event

        return fnmatch.fnmatchcase(str(payload.get("tool_name") or payload.get("prompt") or payload.get("event") or ""),
                                   matcher)
    if host in DATA_MATCHERS and matcher not in ("", "*") and isinstance(payload, dict):
        field, style = DATA_MATCHERS[host]
        query = payload.get(field)
        if not isinstance(query, str):  # no tool in this payload: every member runs
            return True
        if style == "exact":
            return query in matcher.split("|")
        return _search(f"^(?:{matcher})$" if style == "fullmatch" else matcher, query, invalid=False)
    field = QUERY.get(host, {}).get(event)
    if host == "kimi" and matcher == "*":  # an invalid JavaScript regex, which matches nothing there
        return False
    if matcher in ("", "*") or field is None or not isinstance(payload, dict):
        return True
    query = payload
    for key in field.split("."):  # Antigravity's tool is toolCall.name
        query = query.get(key) if isinstance(query, dict) else None
    query = query if isinstance(query, str) else ""
    if host == "claude" or host == "cursor":
        simple = SIMPLE | (frozenset(" ,-") if field == TOOL else frozenset())
        if all(c in simple for c in matcher):
            seps = matcher.replace(",", "|") if field == TOOL else matcher
            return query in [t.strip() for t in seps.split("|")]
        return _search(matcher, query, invalid=False)
    if host == "codex":
        if matcher == ".*":
            return True
        queries = [query, "Write", "Edit"] if query == "apply_patch" else [query]
        return any(_search(matcher, q, invalid=False) for q in queries)
    if host == "gemini":
        if event not in GEMINI_TOOL_EVENTS:
            return query == matcher
        return _search(matcher, query, invalid=query == matcher)
    if host == "openhands":  # "/re/" or a regex character: re.fullmatch; else the exact name
        if len(matcher) > 2 and matcher[0] == matcher[-1] == "/":
            return _search(f"^(?:{matcher[1:-1]})$", query, invalid=False)
        if any(c in "|.*+?[]()^$\\" for c in matcher):
            return _search(f"^(?:{matcher})$", query, invalid=matcher == query)
        return matcher == query
    if host == "hermes":  # ShellHookSpec.matches_tool: re.fullmatch; an invalid one matches its own name
        return _search(f"^(?:{matcher})$", query, invalid=matcher == query)
    if host == "letta":  # anchored: ^(?:matcher)$; an invalid one matches the tool of its own name
        return _search(f"^(?:{matcher})$", query, invalid=matcher == query)
    if host == "copilot":  # anchored: ^(?:matcher)$; an invalid one skips the entry
        return _search(f"^(?:{matcher})$", query, invalid=False)
    if host == "qwen":
        return _qwen_matches(matcher, query)
    if host == "factory" and matcher == query:
        return True
    return _search(matcher, query, invalid=False)


def _qwen_matches(matcher, query):
    """Qwen 0.24.4's matchesHookPattern: trimmed; every call on "", "*" or ".*"; an exact name, or
    a list split on "|" whose entries are names (when it starts with neither "^" nor "("), else an
    unanchored regex; an invalid one matches nothing. (Qwen also takes a tool's aliases.)"""
    pattern = matcher.strip()
    if pattern in ("", "*", ".*") or pattern == query:
        return True
    if "|" in pattern and not pattern.startswith(("^", "(")):
        entries = [e.strip() for e in pattern.split("|") if e.strip()]
        if any(e in ("*", ".*", query) for e in entries):
            return True
        if not entries:
            return False
        pattern = "|".join(entries)
    return _search(pattern, query, invalid=False)


def _search(pattern, text, *, invalid):
    import re

    try:
        return re.search(pattern, text) is not None
    except re.error:
        return invalid


# -- combining the answers of the members that allow

def combine(answers):
    """One answer from several JSON objects, in member order: the texts hosts show or give the
    model joined, the strictest permission kept with its reason, and any other key as the first
    member that set it gave it."""
    out = {}
    for answer in answers:
        _merge(out, answer)
    return out


def _merge(into, new):
    for key, value in new.items():
        if key not in into:
            into[key] = dict(value) if isinstance(value, dict) else value
        elif isinstance(into[key], dict) and isinstance(value, dict):
            _merge(into[key], value)
        elif key in JOINED and isinstance(into[key], str) and isinstance(value, str):
            into[key] = into[key] + "\n" + value
        elif key in STRICT and _rank(key, value) > _rank(key, into[key]):
            into[key] = value
            reason = STRICT_REASONS.get(key)
            if reason and reason in new:
                into[reason] = new[reason]


def _rank(key, value):
    scale = STRICT[key]
    return scale.index(value) if value in scale else -1


def answer(host, event, answers):
    """The chain's stdout: the plain texts as they came when no member answered in JSON, else one
    JSON object, the texts (context on the events that read plain text) folded in where they stood."""
    if not any(isinstance(a, dict) for a in answers):
        return "".join(answers).encode("utf-8")
    objects = [a if isinstance(a, dict) else
               {"hookSpecificOutput": {"hookEventName": event, "additionalContext": a.strip()}} if host != "gemini"
               else {"systemMessage": a.strip()} for a in answers]
    return dumps(combine(objects)).encode("utf-8")
