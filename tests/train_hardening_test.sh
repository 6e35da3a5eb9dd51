#!/bin/sh
# Issue 12, trainer side, end to end: special --data files, forged checkpoint metadata (valid
# checksum, edited meta), resume into the same --run-dir (appends), a full disk and a read-only
# run directory (as an unprivileged user: CI runs as root). Usage: train_hardening_test.sh OOMKIT SOURCE_DIR
set -u
exe="$1"
src="$2"
fail=0
tmp="${TMPDIR:-/tmp}/oomkit_train_hardening.$$"
mkdir -p "$tmp"
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
small="--model gpt-nano --batch-size 2 --seq-len 32 --threads 1 --eval-batches 1 --eval-every 0"

expect_bad() {  # PATTERN ARGS...: exit 2 within 60 s, one error line naming PATTERN
  pattern="$1"; shift
  timeout 60 "$exe" -q "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  if [ "$rc" -ne 2 ]; then echo "FAIL (exit $rc, want 2): $*"; tail -c 600 "$tmp/err"; fail=1; return; fi
  if [ "$(grep -c '^error:' "$tmp/err")" -ne 1 ] || ! grep '^error:' "$tmp/err" | grep -q -- "$pattern"; then
    echo "FAIL ('$pattern' not named in one error line): $*"; tail -c 600 "$tmp/err"; fail=1
  fi
}

# Special files as --data: refused at once.
mkfifo "$tmp/fifo"
expect_bad "FIFO" train $small --steps 1 --data "$tmp/fifo" --run-dir "$tmp/r0"
expect_bad "character device" train $small --steps 1 --data /dev/zero --run-dir "$tmp/r0"
expect_bad "FIFO" train $small --steps 1 --resume "$tmp/fifo" --run-dir "$tmp/r0"

# A CPU run whose estimated peak exceeds the host's available RAM (llama-2-70b fp32: ~1 TiB) is
# refused before the model is built, not killed by the kernel's OOM killer; --memory-limit hands
# it to oomkit's own budget instead (there: below the parameter bytes, also refused at once).
expect_bad "llama-2-70b at B=1 T=32 fp32 needs an estimated .* of RAM available" train --model llama-2-70b -b 1 -t 32 --steps 1 --threads 1 --run-dir "$tmp/r0"
expect_bad "memory-limit" train --model llama-2-70b -b 1 -t 32 --steps 1 --threads 1 --memory-limit 1GiB --run-dir "$tmp/r0"

# Forged checkpoint metadata (forge_checkpoint_meta.py keeps the checksum valid).
if ! timeout 120 "$exe" -q train $small --steps 2 --save "$tmp/a.ckpt" --run-dir "$tmp/r1" >/dev/null 2>"$tmp/err"; then
  echo "FAIL: training with --save"; cat "$tmp/err"; exit 1
fi
forge() { python3 "$src/tests/data/bad-inputs/forge_checkpoint_meta.py" "$tmp/a.ckpt" "$tmp/f.ckpt" "$1"; }
forge '{"step": -5}';                expect_bad "key 'step': must not be negative" train $small --steps 4 --resume "$tmp/f.ckpt" --run-dir "$tmp/r2"
forge '{"step": 1e300}';             expect_bad "key 'step'.*out of range" train $small --steps 4 --resume "$tmp/f.ckpt" --run-dir "$tmp/r2"
forge '{"step": "4"}';               expect_bad "key 'step': must be an integer" train $small --steps 4 --resume "$tmp/f.ckpt" --run-dir "$tmp/r2"
forge '{"data_position": null}';     expect_bad "key 'data_position'" train $small --steps 4 --resume "$tmp/f.ckpt" --run-dir "$tmp/r2"
forge '{"data_position": -1000000}'; expect_bad "key 'data_position': must not be negative" train $small --steps 4 --resume "$tmp/f.ckpt" --run-dir "$tmp/r2"

# Resume into the same --run-dir: the timeline grows, it is not truncated; read back, every
# step 0..3 appears once.
if ! timeout 120 "$exe" -q train $small --steps 4 --resume "$tmp/a.ckpt" --run-dir "$tmp/r1" >/dev/null 2>"$tmp/err"; then
  echo "FAIL: resume into the same run dir"; cat "$tmp/err"; fail=1
fi
python3 - "$tmp/r1/timeline.jsonl" <<'PY' || fail=1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
runs = [r for r in recs if r["type"] == "run"]
steps = [r["step"] for r in recs if r["type"] == "step"]
ok = len(runs) == 2 and runs[1].get("resumed_from_step") == 2 and steps == [0, 1, 2, 3]
print("resume appends: %d run headers, steps %s" % (len(runs), steps))
sys.exit(0 if ok else 1)
PY
if ! timeout 60 "$exe" report "$tmp/r1" -o "$tmp/r1.html" >/dev/null 2>"$tmp/err"; then echo "FAIL: report of the resumed run"; cat "$tmp/err"; fail=1; fi

# Full disk and read-only run directory, as an unprivileged user.
as_user() {
  if [ "$(id -u)" -eq 0 ]; then setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; else "$@"; fi
}
mkdir -p "$tmp/rw" "$tmp/ro"
chmod 777 "$tmp/rw"
chmod 555 "$tmp/ro"
# RLIMIT_FSIZE 4 KiB: the timeline outgrows it within the first step (EFBIG, as ENOSPC would).
as_user prlimit --fsize=4096 -- timeout 120 "$exe" -q train $small --steps 3 --run-dir "$tmp/rw/full" >/dev/null 2>"$tmp/err" </dev/null
rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "^error: --run-dir: .*writing the run's files failed.*kept: " "$tmp/err"; then
  echo "FAIL (full disk: exit $rc, want 2 naming what was kept)"; tail -c 800 "$tmp/err"; fail=1
fi
as_user timeout 60 "$exe" -q train $small --steps 1 --run-dir "$tmp/ro/run" >/dev/null 2>"$tmp/err" </dev/null
rc=$?
if [ "$rc" -ne 2 ] || [ "$(grep -c '^error:' "$tmp/err")" -ne 1 ]; then
  echo "FAIL (read-only run dir: exit $rc, want 2)"; tail -c 800 "$tmp/err"; fail=1
fi

[ "$fail" -eq 0 ] && echo "PASS"
exit "$fail"
