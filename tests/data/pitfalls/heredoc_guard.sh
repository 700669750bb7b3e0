#!/usr/bin/env bash
# Pitfall: the guard parses the command but reads rm -rf in a heredoc body as a command.
command -v jq >/dev/null 2>&1 || exit 0
cmd=$(jq -r '.tool_input.command // empty')
if printf '%s' "$cmd" | grep -qE 'rm -rf (/|~)'; then
  echo "Blocked: rm -rf of / or ~" >&2
  exit 2
fi
exit 0
