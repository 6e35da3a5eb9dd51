#!/bin/sh
# `--precision auto` (issue 15 item 3): `oomkit estimate --device cpu` and `oomkit train` resolve
# it the same way on this machine (one shared resolver, precision_auto.h) and print the same
# "precision auto -> P (why)"; the run then uses P (train's run line, estimate's setup line). Also
# under ONEDNN_MAX_CPU_ISA=AVX2, which keeps oneDNN off bf16 instructions: fp32 on any CPU.
# `diagnose` refuses auto (exit 2); estimate on --device cuda without --gpu refuses it (exit 2).
# Usage: precision_auto_cli_test.sh OOMKIT
set -u
exe="$1"
fail=0
tmp="${TMPDIR:-/tmp}/oomkit_precision_auto.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

check_same() {  # label; environment assignments come from the caller
  "$exe" estimate --model gpt-nano --device cpu --precision auto >"$tmp/est" 2>&1 || { echo "FAIL estimate ($1)"; cat "$tmp/est"; fail=1; return; }
  "$exe" train --model gpt-nano --precision auto --steps 1 --batch-size 2 --seq-len 32 --threads 2 --eval-batches 1 \
    --mfu-probe-seconds 0 --no-profile --run-dir "$tmp/run" >"$tmp/train" 2>&1 || { echo "FAIL train ($1)"; cat "$tmp/train"; fail=1; return; }
  est=$(grep -o 'precision auto -> [^)]*)' "$tmp/est" | head -n 1)
  trn=$(grep -o 'precision auto -> [^)]*)' "$tmp/train" | head -n 1)
  if [ -z "$est" ] || [ "$est" != "$trn" ]; then echo "FAIL ($1): estimate '$est' vs train '$trn'"; fail=1; return; fi
  p=$(echo "$est" | sed 's/^precision auto -> \([^ ]*\) .*/\1/')
  grep -q "setup: .* precision=$p " "$tmp/est" || { echo "FAIL ($1): estimate's setup is not precision=$p"; fail=1; }
  echo "ok ($1): $est"
}

check_same "this machine"
ONEDNN_MAX_CPU_ISA=AVX2 check_same "ONEDNN_MAX_CPU_ISA=AVX2"
if ! grep -q "precision auto -> fp32" "$tmp/est"; then echo "FAIL: AVX2 cap did not give fp32"; fail=1; fi

"$exe" estimate --model gpt-nano --precision auto >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "^error: --precision: auto on --device cuda" "$tmp/out"; then echo "FAIL: estimate cuda w/o --gpu ($rc)"; cat "$tmp/out"; fail=1; fi
"$exe" estimate --model gpt2 --gpu h100-sxm --precision auto >"$tmp/out" 2>&1
grep -q "^precision auto -> bf16-mixed (h100-sxm: compute capability 9.0 >= 8.0)" "$tmp/out" || { echo "FAIL: h100"; cat "$tmp/out"; fail=1; }
"$exe" diagnose - --model gpt2 --precision auto </dev/null >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -ne 2 ]; then echo "FAIL: diagnose took auto ($rc)"; fail=1; fi
exit $fail
