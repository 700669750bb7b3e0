#!/usr/bin/env bash
# Pitfall: permissionDecisionReason on an allow never reaches the model (and Codex refuses allow).
cat > /dev/null
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "looks safe"}}'
exit 0
