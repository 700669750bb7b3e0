#!/usr/bin/env bash
# Fixed: count=$((count + 1)) always succeeds.
set -e
cat > /dev/null
count=0
count=$((count + 1))
exit 0
