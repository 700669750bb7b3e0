#!/usr/bin/env bash
# Pitfall (with a second such hook on the event): diagnostics on stderr on success.
cat > /dev/null
echo "stderr-noise: checked" >&2
exit 0
