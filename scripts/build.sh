#!/usr/bin/env bash
# Configures (Release, once) and builds into build/. Installs nothing: scripts/setup.sh installs
# the Debian packages first. Idempotent: a second run only rebuilds what changed.
#   OOMKIT_BUILD_DIR  build folder (default: build)
#   OOMKIT_JOBS       parallel compile jobs (default: nproc)
#   OOMKIT_CMAKE_ARGS extra configure arguments, e.g. -DOOMKIT_BUILD_BENCH=OFF (first configure only)
#   CI=true           compiler warnings are errors (-DOOMKIT_WERROR=ON; .ci/run sets CI=true, so
#                     scripts/setup.sh and scripts/test.sh build with the same flags)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${OOMKIT_BUILD_DIR:-build}
JOBS=${OOMKIT_JOBS:-$(nproc)}
GENERATOR=()
if command -v ninja >/dev/null; then GENERATOR=(-G Ninja); fi
WERROR=()
if [ "${CI:-}" = true ]; then WERROR=(-DOOMKIT_WERROR=ON); fi
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  # shellcheck disable=SC2086
  cmake -S . -B "$BUILD_DIR" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release "${WERROR[@]}" ${OOMKIT_CMAKE_ARGS:-}
elif [ ${#WERROR[@]} -gt 0 ] && ! grep -q '^OOMKIT_WERROR:BOOL=ON' "$BUILD_DIR/CMakeCache.txt"; then
  cmake -S . -B "$BUILD_DIR" "${WERROR[@]}"
fi
cmake --build "$BUILD_DIR" -j "$JOBS"
echo "[build] built $BUILD_DIR/oomkit"
