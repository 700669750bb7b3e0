"""The neutral event and tool names of a bundle manifest, and what each built-in host calls them.

One table for every host, so the README and the code cannot drift apart. ``None`` means the host
has no such event: the hook is skipped there and reported. Third-party hosts bring their own
column through ``Host.events`` and ``Host.tools``.
"""

from __future__ import annotations

HOSTS = ("claude", "codex", "gemini", "cursor")

EVENTS: dict[str, tuple[str | None, str | None, str | None, str | None]] = {
    #                      claude              codex               gemini         cursor
    "session_start": ("SessionStart", "SessionStart", "SessionStart", "sessionStart"),
    "session_end": ("SessionEnd", "SessionEnd", "SessionEnd", "sessionEnd"),
    "user_prompt_submit": ("UserPromptSubmit", "UserPromptSubmit", "BeforeAgent", "beforeSubmitPrompt"),
    "pre_tool_use": ("PreToolUse", "PreToolUse", "BeforeTool", "preToolUse"),
    "post_tool_use": ("PostToolUse", "PostToolUse", "AfterTool", "postToolUse"),
    "stop": ("Stop", "Stop", "AfterAgent", "stop"),
    "subagent_stop": ("SubagentStop", "SubagentStop", None, "subagentStop"),
    "pre_compact": ("PreCompact", "PreCompact", "PreCompress", "preCompact"),
    "notification": ("Notification", None, "Notification", None),
}

# Neutral tool names for matchers. Codex matchers are regexes; apply_patch also answers to
# Write and Edit there. Cursor's edit tool name is not documented, so it maps to Write.
TOOLS: dict[str, tuple[str | None, str | None, str | None, str | None]] = {
    "shell": ("Bash", "Bash", "run_shell_command", "Shell"),
    "write": ("Write", "apply_patch", "write_file", "Write"),
    "edit": ("Edit|MultiEdit", "apply_patch", "replace", "Write"),
    "read": ("Read", None, "read_file", "Read"),
}


def column(host: str, table: dict[str, tuple[str | None, ...]]) -> dict[str, str | None]:
    """The mapping for one built-in host: neutral name to native name (or None)."""
    index = HOSTS.index(host)
    return {neutral: natives[index] for neutral, natives in table.items()}

POSITIONS = ("first", "last")  # where a hook goes among the operator's (manifest `position`)
POLICIES = ("if-absent", "override", "at-least")  # how an env var meets the operator's value
