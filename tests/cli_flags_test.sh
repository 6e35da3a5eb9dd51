#!/bin/sh
# Flag-level rules of the torch-free `oomkit` (issue 12 item 10): a size flag without a unit
# (but a bare 0 where 0 bytes is a valid amount), empty, or 0 where a capacity is meant is one
# error line naming the flag and exit 2; enum flags refuse unknown values with the valid list
# (and "did you mean" for a prefix such as adam -> adamw); --help lists the valid values and
# the size units. The library's parse_bytes() is unchanged (a bare number is bytes there:
# units_test).
# Usage: cli_flags_test.sh OOMKIT
set -u
exe="$1"
fail=0
tmp="${TMPDIR:-/tmp}/oomkit_cli_flags.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
printf 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.50 GiB is free.\n' >"$tmp/oom.log"

expect_bad() {  # field, message pattern, args...
  field="$1"; pattern="$2"; shift 2
  "$exe" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 2 ]; then echo "FAIL ($rc != 2): $*"; cat "$tmp/err"; fail=1; return; fi
  if ! head -n 1 "$tmp/err" | grep -q -- "^error: .*$field"; then echo "FAIL (field $field not named): $*"; cat "$tmp/err"; fail=1; fi
  if ! grep -q -- "$pattern" "$tmp/err"; then echo "FAIL (no '$pattern'): $*"; cat "$tmp/err"; fail=1; fi
  if [ "$(grep -c '^error:' "$tmp/err")" -ne 1 ]; then echo "FAIL (not one error line): $*"; cat "$tmp/err"; fail=1; fi
}
expect_ok() {  # pattern, args...
  pattern="$1"; shift
  if ! "$exe" "$@" >"$tmp/out" 2>"$tmp/err"; then echo "FAIL (exit): $*"; cat "$tmp/err"; fail=1; return; fi
  if ! grep -q -- "$pattern" "$tmp/out"; then echo "FAIL (no '$pattern'): $*"; head -n 40 "$tmp/out"; fail=1; fi
}

# Sizes: a bare number is not bytes; empty and 0 are not capacities.
expect_bad "--memory" "no unit" estimate --model gpt2 --memory 24
expect_bad "--memory" "GiB" estimate --model gpt2 --memory 24
expect_bad "--memory" "empty" estimate --model gpt2 --memory ""
expect_bad "--memory" "more than 0" estimate --model gpt2 --memory 0GiB
expect_bad "--overhead" "no unit" estimate --model gpt2 --overhead 500
expect_bad "--memory" "no unit" estimate --model gpt2 --memory 0.4
expect_bad "--host-memory" "more than 0" estimate --model gpt2 --gpu a100-80gb --host-memory 0GiB
expect_bad "--link-bandwidth" "no unit" estimate --model gpt2 --gpu a100-80gb --link-bandwidth 31.5
expect_bad "--memory" "no unit" diagnose "$tmp/oom.log" --memory 80
expect_bad "--overhead" "no unit" diagnose "$tmp/oom.log" --model gpt2 --overhead 500
# G is GiB (documented in --help): 24G and 24GiB give the same capacity, 24GB is 10^9-based.
expect_ok '"capacity_bytes": 25769803776' estimate --model gpt2 --memory 24G --json
expect_ok '"capacity_bytes": 25769803776' estimate --model gpt2 --memory 24GiB --json
expect_ok '"capacity_bytes": 24000000000' estimate --model gpt2 --memory 24GB --json
expect_ok 'verdict' estimate --model gpt2 --memory 24GiB --overhead 0B
# A bare 0 is 0 bytes in any unit: accepted where 0 is a valid amount (no context overhead).
expect_ok '"overhead_bytes": 0,' estimate --model gpt2 --overhead 0 --json

# Enum flags: the valid values, and a hint for a prefix.
expect_bad "--optimizer" "did you mean adamw" estimate --model gpt2 --optimizer adam
expect_bad "--optimizer" "did you mean adamw" diagnose "$tmp/oom.log" --model gpt2 --optimizer adam
expect_bad "--precision" "valid: fp32, bf16-mixed, fp16-mixed, bf16, chapter" estimate --model gpt2 --precision fp64
expect_bad "--attention" "valid: eager, sdpa, flash" estimate --model gpt2 --attention xformers
expect_bad "--device" "valid: cuda, cpu" estimate --model gpt2 --device tpu
expect_bad "--method" "valid: detailed, chapter" estimate --model gpt2 --method exact
expect_bad "--model" "without a model" diagnose "$tmp/oom.log" --precision bf16

# --described: a text without a message is one report when the user says it tells of an OOM;
# without it, the answer says so and names the flag; a timeline is not a text.
printf 'The processes on GPUs 1, 2 and 3 each use almost a GB of space on GPU0.\n' >"$tmp/issue.txt"
expect_ok "no OOM found\|No OOM found" diagnose "$tmp/issue.txt"
"$exe" diagnose "$tmp/issue.txt" 2>&1 >/dev/null | grep -q "^hint: .*--described reads it as one report" ||
  { echo "FAIL: no --described hint on stderr"; fail=1; }
printf '\n \n' >"$tmp/blank.txt"
expect_ok "the text is blank" diagnose "$tmp/blank.txt" --described
"$exe" diagnose "$tmp/blank.txt" --described 2>&1 >/dev/null | grep -q "hint:" && { echo "FAIL: hint beside --described"; fail=1; }
expect_ok "OOM at line 1: described" diagnose "$tmp/issue.txt" --described
expect_ok '"family": "described"' diagnose "$tmp/issue.txt" --described --json
expect_ok '"family": "pytorch2"' diagnose "$tmp/oom.log" --described --json
expect_bad "--described" "not a --timeline" diagnose --described --timeline "$tmp/oom.log"

# --help lists the valid values and how sizes are written, the same for estimate and diagnose,
# except --precision auto (issue 15 item 3), which only estimate and train take.
expect_ok "{fp32,bf16-mixed,fp16-mixed,bf16,chapter,auto}" estimate --help
expect_ok "{fp32,bf16-mixed,fp16-mixed,bf16,chapter}" diagnose --help
for cmd in estimate diagnose; do
  expect_ok "{adamw,sgd,sgd-momentum,lion,adafactor,adam-8bit,paged-adamw-8bit}" $cmd --help
  expect_ok "K/M/G/T mean KiB/MiB/GiB/TiB" $cmd --help
done
exit $fail
