#!/usr/bin/env bash
# libFuzzer runs of oomkit's torch-free parsers (fuzz/). Builds build-fuzz/ with clang-14
# (ASan + UBSan + libFuzzer), seeds each target's corpus from tests/data, runs, and prints one
# line per target: executions, execs/s, coverage (edges), features, corpus size, findings.
#
#   scripts/fuzz.sh TARGET SECONDS     one target (fuzz_oom_log, fuzz_config, fuzz_timeline,
#                                      fuzz_report_json, fuzz_size, fuzz_checkpoint, fuzz_safetensors)
#   scripts/fuzz.sh all SECONDS        every target, one after the other
#   scripts/fuzz.sh smoke [SECONDS]    every target for SECONDS (default 3) from its seeds only;
#                                      exit 77 (skipped) without clang; ctest's `fuzz_smoke`
#   scripts/fuzz.sh table              the Markdown table of every run recorded in results.tsv
# Environment: OOMKIT_FUZZ_BUILD (build-fuzz), OOMKIT_FUZZ_CXX (clang++-14), OOMKIT_FUZZ_JOBS (2,
# build jobs), FUZZ_RUNS (-runs= limit: `FUZZ_RUNS=1000000 scripts/fuzz.sh fuzz_size 7200` stops
# after 1M executions or 2 h). One fuzzing process per target (no -jobs/-workers).
# A finding is written to build-fuzz/findings/TARGET/ (smoke: smoke-findings/) as crash-*,
# leak-*, timeout-* or oom-*, and the script exits 1; only the files of those kinds a run writes count
# as its findings (earlier runs' files, and slow-unit-* files, stay there for inspection). Every non-smoke run appends its measured
# line (UTC time, target, execs, execs/s, CPU s, execs/CPU-s, cov, ft, findings, max_len, command)
# to build-fuzz/results.tsv (`scripts/fuzz.sh table` prints them).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
TARGETS=(fuzz_oom_log fuzz_config fuzz_timeline fuzz_report_json fuzz_size fuzz_checkpoint fuzz_safetensors)
what=${1:-}
seconds=${2:-}
[ "$what" = smoke ] && seconds=${seconds:-3}
BUILD=${OOMKIT_FUZZ_BUILD:-$ROOT/build-fuzz}
if [ "$what" = table ]; then
  # Every run recorded by run_one, in order (measured, never edited by hand).
  [ -f "$BUILD/results.tsv" ] || { echo "no runs recorded in $BUILD/results.tsv"; exit 1; }
  echo "| target | execs | execs/s (wall) | CPU s | execs/CPU-s | cov | ft | findings | max_len | finished (UTC) | command |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | `%s` |\n", $2, $3, $4, $5, $6, $7, $8, $9, $10, $1, $11 }' \
    "$BUILD/results.tsv"
  exit 0
fi
if [ -z "$what" ] || [ -z "$seconds" ]; then
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
CXX_BIN=${OOMKIT_FUZZ_CXX:-$(command -v clang++-14 || command -v clang++ || true)}
if [ -z "$CXX_BIN" ]; then
  echo "SKIP: clang is not installed (Debian: apt-get install clang-14 libclang-rt-14-dev)"
  [ "$what" = smoke ] && exit 77
  exit 2
fi
if [ ! -f "$BUILD/build.ninja" ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S fuzz -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$CXX_BIN" "${launcher[@]}" >/dev/null || exit 1
fi
cmake --build "$BUILD" -j "${OOMKIT_FUZZ_JOBS:-2}" >"$BUILD/build.log" 2>&1 || { tail -40 "$BUILD/build.log"; exit 1; }

# Seed corpora from the repository's own test data.
seed() {  # TARGET -> prints the seed directory
  local dir="$BUILD/seeds/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  case "$1" in
    fuzz_oom_log)
      cp tests/data/oom-cases/*.log tests/data/oom-cases/bad-inputs/*.log "$dir/"
      for f in tests/data/oom-corpus/*.log tests/data/oom-corpus-held2/*.log; do
        cp "$f" "$dir/$(basename "$(dirname "$f")")-$(basename "$f")"
      done
      python3 - "$dir" tests/data/oom-cases/variants.jsonl tests/data/oom-cases/cases.jsonl <<'PY'
import json, sys
out = sys.argv[1]; n = 0
for path in sys.argv[2:]:
    for line in open(path):
        if not line.strip(): continue
        rec = json.loads(line)
        for key in ("message", "log", "text"):
            if isinstance(rec.get(key), str):
                open("%s/msg-%d.txt" % (out, n), "w").write(rec[key]); n += 1
PY
      ;;
    fuzz_config) cp models/*.json tests/data/bad-inputs/config-*.json tests/data/oom-cases/opt-1.3b-gpt2-layout.json "$dir/" ;;
    fuzz_timeline)
      for f in tests/data/report/*/timeline.jsonl; do cp "$f" "$dir/$(basename "$(dirname "$f")").jsonl"; done
      cp tests/data/oom-cases/leak-timeline.jsonl tests/data/bad-inputs/*.jsonl "$dir/" ;;
    fuzz_report_json)
      cp tests/data/report/estimate_sweep.json "$dir/"
      for f in tests/data/report/*/summary.json tests/data/report/*/oom_report.json; do
        [ -f "$f" ] && cp "$f" "$dir/$(basename "$(dirname "$f")")-$(basename "$f")"
      done ;;
    fuzz_size)
      for s in 24GiB 80GB "512 MiB" 1.5G 1000 0.25TiB "20.00 MiB" 7b 1e3GB; do printf '%s' "$s" >"$dir/$(echo "$s" | tr ' .' '__')"; done ;;
    fuzz_checkpoint)
      printf '%s' '{"format":"oomkit-train-checkpoint","version":1,"model":{"model_type":"gpt2","n_embd":128},"precision":"fp32","optimizer":"adamw","seq_len":128,"batch_size":16,"grad_accum":1,"seed":1337,"step":40,"data_position":40,"first_loss":5.5,"loss_scale":65536.0,"good_steps":0}' >"$dir/meta.json"
      printf 'OOMKCKPT\003\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000abc' >"$dir/bad-checksum.ckpt" ;;
    fuzz_safetensors)  # the independent writer's fixtures, valid and malformed, and an index
      python3 tests/data/safetensors/make_fixtures.py "$dir/fixtures" >/dev/null
      for f in "$dir"/fixtures/*/*; do cp "$f" "$dir/$(basename "$(dirname "$f")")-$(basename "$f")"; done
      rm -rf "$dir/fixtures" ;;
  esac
  echo "$dir"
}

status=0
run_one() {  # TARGET SECONDS
  local t=$1 s=$2 seeds corpus findings log
  seeds=$(seed "$t")
  corpus="$BUILD/corpus/$t"
  findings="$BUILD/findings/$t"
  log="$BUILD/$t.log"
  if [ "$what" = smoke ]; then
    corpus="$BUILD/smoke-corpus/$t"; findings="$BUILD/smoke-findings/$t"; rm -rf "$corpus" "$findings"
  fi
  mkdir -p "$corpus" "$findings"
  # Findings are the files this run writes: earlier runs' files stay in the folder for inspection
  # and are not counted again.
  local stamp="$BUILD/.start-$t"
  : >"$stamp"
  # Longest input libFuzzer builds (bytes). OOM logs: 8 KiB holds several reports with their
  # tracebacks (tests/data/oom-corpus's real logs are 0.2-2.5 KB); a longer limit mostly slows
  # each execution (the diagnosis is linear in the log, the instrumentation is per byte).
  local max_len=4096
  case "$t" in fuzz_timeline|fuzz_report_json) max_len=131072 ;; fuzz_oom_log) max_len=8192 ;; esac
  max_len=${FUZZ_MAX_LEN:-$max_len}
  local runs=()
  [ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS")
  # CPU seconds (user + sys) beside the wall-clock rate libFuzzer prints: on a shared machine
  # the wall rate says more about the neighbours than about the target.
  local TIMEFORMAT='%U %S' rc
  { time ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$BUILD/$t" "$corpus" "$seeds" -max_total_time="$s" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$findings/" "${runs[@]}" >"$log" 2>&1; } 2>"$log.cpu"
  rc=$?
  local cpu_s per_cpu_s
  cpu_s=$(awk '{ printf "%.1f", $1 + $2 }' "$log.cpu")
  local execs per_s cov ft units
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  per_s=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  # -a: libFuzzer's log holds the raw bytes of dictionary entries ("binary file matches").
  cov=$(grep -ao 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -ao 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  units=$(ls "$corpus" | wc -l)
  local found
  # The documented kinds only: libFuzzer's slow-unit-* (an input slower than -report_slow_units,
  # which a loaded machine's scheduling alone can produce) is kept for inspection, not counted.
  found=$(find "$findings" -type f -newer "$stamp" \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  per_cpu_s=$(awk -v n="${execs:-0}" -v c="$cpu_s" 'BEGIN { if (c > 0) printf "%.0f", n / c; else print "?" }')
  printf '%-18s %6ss  execs %-10s %7s/s  %7s/CPU-s  cov %-6s ft %-6s corpus %-5s findings %s\n' "$t" "$s" \
    "${execs:-?}" "${per_s:-?}" "$per_cpu_s" "${cov:-?}" "${ft:-?}" "$units" "$found"
  if [ "$what" != smoke ]; then
    local cmd="scripts/fuzz.sh $t $s"
    [ -n "${FUZZ_RUNS:-}" ] && cmd="FUZZ_RUNS=$FUZZ_RUNS $cmd"
    [ -n "${FUZZ_MAX_LEN:-}" ] && cmd="FUZZ_MAX_LEN=$FUZZ_MAX_LEN $cmd"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$t" "${execs:-?}" \
      "${per_s:-?}" "$cpu_s" "$per_cpu_s" "${cov:-?}" "${ft:-?}" "$found" "$max_len" "$cmd" >>"$BUILD/results.tsv"
  fi
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    status=1
    grep -a -m1 -A25 "ERROR: \|runtime error\|==ERROR\|deadly signal" "$log" | head -40
  fi
}

case "$what" in
  all) for t in "${TARGETS[@]}"; do run_one "$t" "$seconds"; done ;;
  smoke) for t in "${TARGETS[@]}"; do run_one "$t" "$seconds"; done ;;
  *)
    if [ ! -x "$BUILD/$what" ]; then echo "unknown target '$what' (targets: ${TARGETS[*]})"; exit 2; fi
    run_one "$what" "$seconds" ;;
esac
exit "$status"
