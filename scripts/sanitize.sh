#!/usr/bin/env bash
# ASan + UBSan build (clang-14) of oomkit and its ctest suite, into build-asan/.
#
#   scripts/sanitize.sh              the whole suite, LibTorch tests included
#   scripts/sanitize.sh --core       the torch-free build (OOMKIT_WITH_TORCH=OFF: oomkit_core, the
#                                    `oomkit` executable) and every `core` test, CLI tests included
#                                    (minutes instead of an hour on 2 cores)
#   scripts/sanitize.sh -- ARGS      extra ctest arguments after --, e.g. -- -R Timeline
#
# Excluded, with the reason (ctest -E):
#   report_browser        drives Chromium through chromedriver: Chromium's time, not oomkit's code
#                         (the same `oomkit report` pages are built under ASan by report_test and
#                         bad_inputs_cli)
#   cuda_*/gpu label      need a CUDA device (skip on CPU machines anyway)
#   fuzz_smoke            a sanitizer build of its own (scripts/fuzz.sh)
#   diagnose_speed        a wall-clock speed guard (MB/s of log); ASan + UBSan make every
#                         instruction several times slower, so it would fail on time, not on a
#                         bug (its correctness is diagnose_test's, which runs here)
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
with_torch=ON
((core)) && with_torch=OFF
# One build folder for both: --core switches the LibTorch part off, a full run back on; the
# torch-free objects are the same in both and are not rebuilt.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$CXX_BIN" \
  -DCMAKE_CXX_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN" -DCMAKE_SHARED_LINKER_FLAGS="$SAN" \
  -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON -DOOMKIT_BUILD_BENCH=OFF -DOOMKIT_WITH_TORCH=$with_torch \
  "${launcher[@]}" >/dev/null
cmake --build "$BUILD" -j "${OOMKIT_JOBS:-$(nproc)}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(pwd)/scripts/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exclude='^(report_browser|fuzz_smoke|cuda_memory_backend|diagnose_speed)$|Cuda|cuda'
cd "$BUILD"
if ((core)); then
  ctest --output-on-failure -j "${OOMKIT_TEST_JOBS:-2}" --timeout 1800 -L core -E "$exclude" "${ctest_args[@]}"
else
  ctest --output-on-failure -j "${OOMKIT_TEST_JOBS:-2}" --timeout 1800 -E "$exclude" "${ctest_args[@]}"
fi
