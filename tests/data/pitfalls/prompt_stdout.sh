#!/usr/bin/env bash
# On a prompt event: plain stdout (older Claude Code versions showed it as a hook error).
cat > /dev/null
echo "Remember: the tests live in tests/."
exit 0
