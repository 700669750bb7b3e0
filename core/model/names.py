"""The neutral event and tool names of a bundle manifest, and what each built-in host calls them.

One table for every host; the documentation's event and tool tables are generated from the registry. ``None`` means the host
has no such event: the hook is skipped there and reported. Third-party hosts bring their own
column through ``Host.events`` and ``Host.tools``.
"""

from __future__ import annotations

HOSTS = ("claude", "codex", "gemini", "cursor", "copilot", "qwen", "factory", "windsurf", "antigravity", "cline")

EVENTS: dict[str, tuple[str | None, ...]] = {
    #                      claude              codex               gemini         cursor
    #                      copilot                qwen                factory
    #                      windsurf               antigravity         cline
    "session_start": ("SessionStart", "SessionStart", "SessionStart", "sessionStart",
                      "sessionStart", "SessionStart", "SessionStart",
                      None, "SessionStart", "TaskStart"),
    "session_end": ("SessionEnd", "SessionEnd", "SessionEnd", "sessionEnd",
                    "sessionEnd", "SessionEnd", "SessionEnd",
                    None, None, "SessionShutdown"),
    "user_prompt_submit": ("UserPromptSubmit", "UserPromptSubmit", "BeforeAgent", "beforeSubmitPrompt",
                           "userPromptSubmitted", "UserPromptSubmit", "UserPromptSubmit",
                           "pre_user_prompt", None, "UserPromptSubmit"),
    "pre_tool_use": ("PreToolUse", "PreToolUse", "BeforeTool", "preToolUse",
                     "preToolUse", "PreToolUse", "PreToolUse",
                     "pre_run_command", "PreToolUse", "PreToolUse"),
    "post_tool_use": ("PostToolUse", "PostToolUse", "AfterTool", "postToolUse",
                      "postToolUse", "PostToolUse", "PostToolUse",
                      "post_run_command", "PostToolUse", "PostToolUse"),
    "stop": ("Stop", "Stop", "AfterAgent", "stop",
             "agentStop", "Stop", "Stop",
             "post_cascade_response", "Stop", "TaskComplete"),
    "subagent_stop": ("SubagentStop", "SubagentStop", None, "subagentStop",
                      "subagentStop", "SubagentStop", "SubagentStop",
                      None, None, None),
    "pre_compact": ("PreCompact", "PreCompact", "PreCompress", "preCompact",
                    "preCompact", "PreCompact", "PreCompact",
                    None, None, None),
    "notification": ("Notification", None, "Notification", None,
                     "notification", "Notification", "Notification",
                     None, None, None),
}

# Neutral tool names for matchers. Codex matchers are regexes; apply_patch also answers to
# Write and Edit there. Cursor's edit tool name is not documented, so it maps to Write. Copilot
# anchors its matcher (``^(?:p)$``) and names tools in lowercase; Qwen keeps Gemini's names but
# calls its edit tool ``edit`` (0.24.4, ToolNames); Factory offers Read, LS, Execute, Edit, Grep,
# Glob and Create (0.225.2, the tools it sends the model). Windsurf has no matchers: the tool is in
# the event's name, so its column holds the stem of ``pre_<stem>``/``post_<stem>`` (WindsurfHost.event_for)
# [DOC docs.windsurf.com/windsurf/cascade/hooks]. Antigravity's names are documented, not measured
# here [3P skillsaw, agy 1.1.25; DOC gemini-cli migration guide]. Cline 3.0.65 (its SDK's tool
# definitions): run_commands, editor (creates and edits files), apply_patch, read_files; its PreCompact hook
# never runs (mapped to no event), and TaskComplete is its end of a task. The Cline extension (VS Code), the
# Cline most people run, sends its own tool names to the same hook files with the same payload shape
# (preToolUse.toolName): execute_command, write_to_file, replace_in_file, read_file [DOC
# docs.cline.bot/features/hooks/hook-reference, docs.cline.bot/exploring-clines-tools], so a column names both.
TOOLS: dict[str, tuple[str | None, ...]] = {
    #          claude           codex          gemini               cursor
    #          copilot   qwen                 factory
    #          windsurf  antigravity     cline
    "shell": ("Bash", "Bash", "run_shell_command", "Shell",
              "bash", "run_shell_command", "Execute",
              "run_command", "run_command", "run_commands|execute_command"),
    "write": ("Write", "apply_patch", "write_file", "Write",
              "create", "write_file", "Create",
              "write_code", "write_to_file", "editor|apply_patch|write_to_file"),
    "edit": ("Edit|MultiEdit", "apply_patch", "replace", "Write",
             "edit", "edit", "Edit",
             "write_code", "replace_file_content", "editor|apply_patch|replace_in_file"),
    "read": ("Read", None, "read_file", "Read",
             "view", "read_file", "Read",
             "read_code", "view_file", "read_files|read_file"),
}


def column(host: str, table: dict[str, tuple[str | None, ...]]) -> dict[str, str | None]:
    """The mapping for one built-in host: neutral name to native name (or None)."""
    index = HOSTS.index(host)
    return {neutral: natives[index] for neutral, natives in table.items()}

POSITIONS = ("first", "last")  # where a hook goes among the operator's (manifest `position`)
POLICIES = ("if-absent", "override", "at-least")  # how an env var meets the operator's value
