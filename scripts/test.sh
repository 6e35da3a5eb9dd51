#!/usr/bin/env bash
# Builds (through setup.sh, which is idempotent) and runs every test with ctest.
# Extra arguments go to ctest, e.g. scripts/test.sh -L core   or   -R Estimator
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${OOMKIT_BUILD_DIR:-build}
cd "$BUILD_DIR"
ctest --output-on-failure -j "${OOMKIT_TEST_JOBS:-2}" --timeout 1200 "$@"
