#!/usr/bin/env bash
# Fixed guard (for grep_raw.sh and heredoc_guard.sh): parse the payload, match the command alone,
# and leave each heredoc body out (it is data being written, not a command), and each quoted
# string with a space in it (a commit message is one argument) unless a shell runs it.
command -v jq >/dev/null 2>&1 || exit 0
cmd=$(jq -r '.tool_input.command // empty')
code=$(printf '%s\n' "$cmd" | awk '
  skip { if ($0 == end) skip = 0; next }
  { print }
  match($0, /<<-?[ \t]*["\047]?[A-Za-z_][A-Za-z_0-9]*/) {
    end = substr($0, RSTART, RLENGTH); sub(/^<<-?[ \t]*["\047]?/, "", end); skip = 1 }')
case "$code" in
  *" -c "*|*eval*|*"| sh"*|*"|sh"*|*"| bash"*|*"|bash"*) ;;  # a shell runs its quoted strings: keep them
  *) code=$(printf '%s\n' "$code" | sed -E "s/\"[^\"]*[[:space:]][^\"]*\"/\"\"/g; s/'[^']*[[:space:]][^']*'/''/g") ;;
esac
if printf '%s' "$code" | grep -qE 'rm -rf (/|~)'; then
  echo "Blocked: rm -rf of / or ~" >&2
  exit 2
fi
exit 0
