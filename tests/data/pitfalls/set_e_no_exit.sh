#!/usr/bin/env bash
# Pitfall: set -e and no final `exit 0`: the last command's failure becomes the hook's exit code.
set -euo pipefail
cat > /dev/null
[ -f "${HOME}/.hook-verbose" ] && echo "verbose" > /dev/null
