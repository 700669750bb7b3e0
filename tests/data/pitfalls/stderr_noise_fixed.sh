#!/usr/bin/env bash
# Fixed: diagnostics go to a log file; stderr stays empty on success.
cat > /dev/null
echo "stderr-noise: checked" >> "${TMPDIR:-/tmp}/hookweave-check-example.log"
exit 0
