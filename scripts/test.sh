#!/usr/bin/env bash
# Builds (scripts/build.sh: configure once, then only what changed) and runs every test with
# ctest. Installs nothing: run scripts/setup.sh once on a fresh machine (`.ci/run` does both).
# With CI=true (set by .ci/run) every compiler warning is an error (scripts/build.sh).
# Extra arguments go to ctest, e.g. scripts/test.sh -L core   or   -R Estimator
# The suite includes `fuzz_smoke` (label fuzz: every libFuzzer target of fuzz/ 3 s from its seeds,
# built with clang into build/fuzz; registered only where clang links libFuzzer): -LE fuzz skips it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
BUILD_DIR=${OOMKIT_BUILD_DIR:-build}
cd "$BUILD_DIR"
ctest --output-on-failure -j "${OOMKIT_TEST_JOBS:-2}" --timeout 1200 "$@"
