#!/usr/bin/env bash
# Fixed: the documented JSON field, read as context by Claude Code, Codex and Gemini CLI.
cat > /dev/null
event=UserPromptSubmit
[ -n "${GEMINI_PROJECT_DIR:-}" ] && event=BeforeAgent
printf '{"hookSpecificOutput": {"hookEventName": "%s", "additionalContext": "Remember: the tests live in tests/."}}\n' "$event"
exit 0
