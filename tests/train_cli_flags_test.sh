#!/bin/sh
# `oomkit train`'s flag-level rules (issue 12 item 10): each bad value is one error line naming
# the flag and exit 2 before any training (and before the model is built), never a silent
# default, a wrapped number or exit 1. Usage: train_cli_flags_test.sh OOMKIT
set -u
exe="$1"
fail=0
tmp="${TMPDIR:-/tmp}/oomkit_train_flags.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

expect_bad() {  # field, message pattern, train args...
  field="$1"; pattern="$2"; shift 2
  "$exe" train --steps 1 --eval-batches 1 --threads 1 --run-dir "$tmp/run" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 2 ]; then echo "FAIL ($rc != 2): train $*"; cat "$tmp/err"; fail=1; return; fi
  if ! head -n 1 "$tmp/err" | grep -q -- "^error: .*$field"; then echo "FAIL (field $field not named): train $*"; cat "$tmp/err"; fail=1; fi
  if ! grep -q -- "$pattern" "$tmp/err"; then echo "FAIL (no '$pattern'): train $*"; cat "$tmp/err"; fail=1; fi
  if [ -e "$tmp/run/timeline.jsonl" ]; then echo "FAIL (a run started): train $*"; fail=1; fi
}

expect_bad "--dropout" "\[0, 1)" --dropout -0.5
expect_bad "--dropout" "\[0, 1)" --dropout nan
expect_bad "--dropout" "\[0, 1)" --dropout 1
expect_bad "--seed" ">= 0" --seed -1
expect_bad "--memory-limit" "more than 0" --memory-limit 0B
expect_bad "--memory-limit" "more than 0" --memory-limit 0
expect_bad "--memory-limit" "no unit" --memory-limit 0.4
expect_bad "--memory-limit" "empty" --memory-limit ""
expect_bad "--memory-limit" "no unit" --memory-limit 512
expect_bad "--optimizer" "did you mean adamw" --optimizer adam
expect_bad "--precision" "valid: fp32, bf16-mixed, fp16-mixed, bf16" --precision chapter
expect_bad "--checkpointing" "valid: none, full" --checkpointing selective
# gpt-nano's parameters are 4.03 MiB: a 1 MiB budget cannot build the model; said before building.
expect_bad "--memory-limit" "below the parameter bytes" --memory-limit 1MiB
# Just above the parameters, the model or the data still cannot be allocated: exit 2, not 1.
expect_bad "--memory-limit" "is \(below the parameter bytes\|too small to build\)" --memory-limit 4200KiB

# --warmup not given: 20 steps, or a tenth of --steps when fewer (a --steps 20 run is not all warmup);
# given, it is kept as given.
expect_warmup() {  # expected warmup, train args...
  want="$1"; shift
  "$exe" train --threads 1 --batch-size 1 --seq-len 8 --eval-batches 1 --mfu-probe-seconds 0 --run-dir "$tmp/w" "$@" \
    >"$tmp/out" 2>"$tmp/err"
  if ! grep -q "(warmup $want, cosine" "$tmp/err"; then echo "FAIL (warmup $want): train $*"; grep "run:" "$tmp/err"; fail=1; fi
  rm -rf "$tmp/w"
}
expect_warmup 2 --steps 20
expect_warmup 20 --steps 20 --warmup 20
expect_warmup 0 --steps 5

"$exe" train --help >"$tmp/help" 2>&1 || { echo "FAIL: train --help"; fail=1; }
grep -q "{fp32,bf16-mixed,fp16-mixed,bf16,auto}" "$tmp/help" || { echo "FAIL: train --help lists no precisions"; fail=1; }
grep -q "{adamw,sgd,sgd-momentum,lion,adafactor,adam-8bit}" "$tmp/help" || { echo "FAIL: train --help lists no optimizers"; fail=1; }
grep -q "K/M/G/T mean KiB/MiB/GiB/TiB" "$tmp/help" || { echo "FAIL: train --help does not say how sizes are written"; fail=1; }
exit $fail
