#!/bin/sh
# Issue 12's bad inputs through the CLI (torch-free commands): each ends in exit 2 with one
# `error:` line naming the file and the key, short stderr, no hang (every run under `timeout`),
# and a stdout write error is exit 2. Usage: bad_inputs_cli_test.sh OOMKIT SOURCE_DIR
set -u
exe="$1"
src="$2"
bad="$src/tests/data/bad-inputs"
fail=0
tmp="${TMPDIR:-/tmp}/oomkit_bad_inputs_cli.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

# expect_bad PATTERN ARGS...: exit 2 within 20 s, one error line matching PATTERN, stderr < 2 KB.
expect_bad() {
  pattern="$1"; shift
  timeout 20 "$exe" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  if [ "$rc" -ne 2 ]; then echo "FAIL (exit $rc, want 2): $*"; head -c 600 "$tmp/err"; fail=1; return; fi
  if [ "$(grep -c '^error:' "$tmp/err")" -ne 1 ]; then echo "FAIL (not one error line): $*"; head -c 600 "$tmp/err"; fail=1; return; fi
  if ! grep '^error:' "$tmp/err" | grep -q -- "$pattern"; then echo "FAIL ('$pattern' not named): $*"; head -c 600 "$tmp/err"; fail=1; fi
  if [ "$(wc -c <"$tmp/err")" -gt 2048 ]; then echo "FAIL (stderr over 2 KB): $*"; fail=1; fi
}

# JSON configs: out-of-range number, wrong type, float->int64 overflow, 4*n_embd overflow, 100k-deep.
expect_bad "number out of range" estimate --model "$bad/config-number-overflow-1e400.json"
expect_bad "key 'model_type': must be a string" estimate --model "$bad/config-model-type-number.json"
expect_bad "key 'n_layer'" estimate --model "$bad/config-ub-float-cast-1e19.json"
expect_bad "n_embd" estimate --model "$bad/config-ub-signed-overflow-4x-n_embd.json"
python3 -c "import sys; sys.stdout.write('{\"n_embd\": ' + '[' * 100000 + ']' * 100000 + '}')" >"$tmp/deep.json"
expect_bad "nested deeper than 64" estimate --model "$tmp/deep.json"
python3 -c "import sys; sys.stdout.write('{\"model_type\": \"' + 'x' * 5000000 + '\", \"n_embd\": 1}')" >"$tmp/long.json"
expect_bad "model_type 'xxx" estimate --model "$tmp/long.json"

# Special files: refused, never blocking or reading forever.
mkfifo "$tmp/fifo"
mkdir "$tmp/dir.json"
expect_bad "FIFO" estimate --model "$tmp/fifo"
expect_bad "character device" estimate --model /dev/zero
expect_bad "directory" estimate --model "$tmp/dir.json"
expect_bad "FIFO" report "$tmp/fifo"
expect_bad "character device" report /dev/zero
expect_bad "FIFO" report "$src/tests/data/report/run_ok" --estimate "$tmp/fifo"
expect_bad "FIFO" diagnose --timeline "$tmp/fifo"

# Timelines and estimate files with wrong types or out-of-range numbers.
expect_bad "record 2: key 'step': must be an integer, got a string \"zero\"" report "$bad/timeline-step-string.jsonl"
expect_bad "record 1: key 'type': must be a string, got the number 5" diagnose --timeline "$bad/diagnose-timeline-type-number.jsonl"
expect_bad "record 2: key 'step'" diagnose --timeline "$bad/timeline-step-string.jsonl"
printf '{"totals": {"parameters": 1e400}}' >"$tmp/est.json"
expect_bad "number out of range" report "$tmp/est.json"
printf '{"type":"run"}\n{"type":"mark","step":1,"phase":"step_start","t_ns":1e400}\n{"type":"run"}\n' >"$tmp/t.jsonl"
expect_bad "number out of range" report "$tmp/t.jsonl"

# stdout write errors: exit 2, not 0.

timeout 20 "$exe" gpus >/dev/full 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "^error: stdout: write failed" "$tmp/err"; then echo "FAIL (gpus > /dev/full: exit $rc)"; cat "$tmp/err"; fail=1; fi
timeout 20 "$exe" estimate --sweep --json >/dev/full 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ]; then echo "FAIL (estimate --sweep --json > /dev/full: exit $rc)"; fail=1; fi

[ "$fail" -eq 0 ] && echo "PASS"
exit "$fail"
