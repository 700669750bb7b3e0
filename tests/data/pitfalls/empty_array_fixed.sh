#!/usr/bin/env bash
# Fixed: ${extra[@]+"${extra[@]}"} expands to nothing when the array is empty, on every bash.
set -u
cat > /dev/null
extra=()
printf '%s\n' ${extra[@]+"${extra[@]}"} > /dev/null
exit 0
