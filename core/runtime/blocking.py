"""How to block on each host: the fix ``hooks check`` names for a hook whose block the host
ignores or lets through (core/standalone/protocol*.py has the facts behind each line)."""

HOW_TO_BLOCK = {
    "claude": 'exit 2 with the reason on stderr, or print {"decision": "block", "reason": "..."}',
    "codex": 'exit 2 with the reason on stderr, or print {"decision": "block", "reason": "..."}',
    "gemini": 'exit 2 with the reason on stderr, or print {"decision": "deny", "reason": "..."}',
    "cursor": 'print {"permission": "deny", "agent_message": "..."}, or exit 2',
    "copilot": 'print {"permissionDecision": "deny", "permissionDecisionReason": "..."} (preToolUse) or '
               '{"decision": "block", "reason": "..."} (userPromptSubmitted); Claude\'s hookSpecificOutput means nothing here',
    "qwen": 'exit 2 with the reason on stderr, or print {"decision": "block", "reason": "..."}',
    "factory": 'exit 2 with the reason on stderr, or print {"hookSpecificOutput": {"hookEventName": "PreToolUse", '
               '"permissionDecision": "deny", "permissionDecisionReason": "..."}}',
    "cline": 'print {"cancel": true, "errorMessage": "..."} (Cline ignores exit codes; a cancel ends the whole run)',
    "windsurf": "exit 2 (the only block Windsurf documents)",
    "antigravity": 'print {"decision": "deny", "reason": "..."}',
    "hermes": 'print {"decision": "block", "reason": "..."} on stdout (pre_tool_call; Hermes Agent ignores exit codes)',
}


def how_to_block(host: str) -> str:
    """The fix for ``host``'s protocol: its line above, or what its data says blocks (a plugin's)."""
    from hookweave.core.standalone.protocol_data import DATA
    from hookweave.core.standalone.protocol_data import how_to_block as from_data

    return HOW_TO_BLOCK.get(host) or (from_data(DATA[host]) if host in DATA else "see the notes")
