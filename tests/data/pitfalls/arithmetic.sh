#!/usr/bin/env bash
# Pitfall: ((count++)) returns 1 when count is 0, which ends a set -e script with exit 1.
set -e
cat > /dev/null
count=0
((count++))
echo "calls: $count" > /dev/null
exit 0
