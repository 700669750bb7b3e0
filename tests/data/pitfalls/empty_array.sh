#!/usr/bin/env bash
# Pitfall: "${extra[@]}" under set -u fails on bash 3.2 (macOS) when the array is empty.
set -u
cat > /dev/null
extra=()
printf '%s\n' "${extra[@]}" > /dev/null
exit 0
