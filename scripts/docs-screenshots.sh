#!/bin/sh
# Regenerates the report screenshots in docs/img/ from real output (never by hand):
#   scripts/docs-screenshots.sh [RUN_DIR]
# Without RUN_DIR it first runs the default `oomkit train` (gpt-nano, 400 steps, a few minutes,
# niced) into a temporary run directory. Needs build/oomkit, chromium and chromium-driver.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
oomkit="$root/build/oomkit"
run="${1:-}"
if [ -z "$run" ]; then
  run=$(mktemp -d)/default-run
  nice -n 5 "$oomkit" train --run-dir "$run"
fi
exec python3 "$root/tests/browser/docs_screenshots.py" --oomkit "$oomkit" --run "$run" --out "$root/docs/img"
