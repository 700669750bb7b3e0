#!/usr/bin/env bash
# Pitfall: grep on the raw payload matches rm -rf in any field (here the tool's description).
input=$(cat)
if echo "$input" | grep -q 'rm -rf'; then
  echo "Blocked: rm -rf" >&2
  exit 2
fi
exit 0
