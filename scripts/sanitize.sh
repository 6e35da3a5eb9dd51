#!/usr/bin/env bash
# ASan + UBSan build (clang-14) of oomkit and its ctest suite, into build-asan/.
#
#   scripts/sanitize.sh              the whole suite, LibTorch tests included
#   scripts/sanitize.sh --core       only the torch-free libraries and their GoogleTest binaries
#                                    (minutes instead of an hour on 2 cores)
#   scripts/sanitize.sh -- ARGS      extra ctest arguments after --, e.g. -- -R Timeline
#
# Excluded, with the reason (ctest -E):
#   report_browser        drives Chromium through chromedriver: Chromium's time, not oomkit's code
#                         (the same `oomkit report` pages are built under ASan by report_test and
#                         bad_inputs_cli)
#   cuda_*/gpu label      need a CUDA device (skip on CPU machines anyway)
#   fuzz_smoke            a sanitizer build of its own (scripts/fuzz.sh)
# Sanitizer settings: UBSan's vptr check is off because LibTorch's classes come from an
# uninstrumented library (false reports across that boundary); LeakSanitizer runs with
# scripts/lsan.supp, which suppresses only allocations made inside LibTorch/OpenBLAS themselves.
# Exit status: ctest's; any sanitizer report fails its test (halt_on_error / abort_on_error).
set -euo pipefail
cd "$(dirname "$0")/.."
core=0
ctest_args=()
while (($#)); do
  case "$1" in
    --core) core=1 ;;
    --) shift; ctest_args=("$@"); break ;;
    *) echo "usage: scripts/sanitize.sh [--core] [-- CTEST_ARGS]"; exit 2 ;;
  esac
  shift
done
CXX_BIN=$(command -v clang++-14 || command -v clang++ || true)
[ -n "$CXX_BIN" ] || { echo "clang is not installed (scripts/setup.sh installs clang-14 and libclang-rt-14-dev)"; exit 2; }
BUILD=${OOMKIT_SANITIZE_BUILD:-build-asan}
SAN="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$CXX_BIN" \
  -DCMAKE_CXX_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN" -DCMAKE_SHARED_LINKER_FLAGS="$SAN" \
  -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON -DOOMKIT_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
jobs=${OOMKIT_JOBS:-$(nproc)}
if ((core)); then
  targets=$(ls tests/*_test.cpp | xargs -n1 basename | sed 's/\.cpp$//')
  # shellcheck disable=SC2086
  cmake --build "$BUILD" -j "$jobs" --target $targets
else
  cmake --build "$BUILD" -j "$jobs"
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(pwd)/scripts/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exclude='^(report_browser|fuzz_smoke|cuda_memory_backend)$|Cuda|cuda'
cd "$BUILD"
if ((core)); then
  # The GoogleTest binaries of the torch-free core (the CLI tests need the oomkit executable,
  # which links LibTorch).
  ctest --output-on-failure -j "${OOMKIT_TEST_JOBS:-2}" -L core -E "$exclude|_cli|^estimate_cli$" "${ctest_args[@]}"
else
  ctest --output-on-failure -j "${OOMKIT_TEST_JOBS:-2}" --timeout 1800 -E "$exclude" "${ctest_args[@]}"
fi
