#!/bin/sh
# `oomkit train --data GLOB --val-data FILE` on llm.c shards written here (issue 13 item 5):
# both llm.c versions (GPT-2: magic 20240520, version 1, uint16; Llama-3: magic 20240801,
# version 7, uint32; karpathy/llm.c dev/data/data_common.py), shard globs read in sorted order
# as one stream, a separate validation file, and a bad header as one error line naming the
# file with exit 2. Token ids < 256 so that gpt-nano (V = 256) trains on them.
# Usage: train_data_test.sh OOMKIT
set -u
exe="$1"
tmp="${TMPDIR:-/tmp}/oomkit_train_data.$$"
mkdir -p "$tmp/shards"
trap 'rm -rf "$tmp"' EXIT
fail=0

python3 - "$tmp" <<'EOF'
import random, struct, sys
tmp = sys.argv[1]
def shard(path, magic, version, tokens, fmt):
    header = [magic, version, len(tokens)] + [0] * 253
    with open(path, "wb") as f:
        f.write(struct.pack("<256i", *header))
        f.write(struct.pack("<%d%s" % (len(tokens), fmt), *tokens))
rng = random.Random(13)
text = [rng.randrange(256) for _ in range(3000)]
# Written out of order: the reader sorts the glob's matches.
for i in (2, 0, 1):
    shard(f"{tmp}/shards/fw_train_{i:06d}.bin", 20240520, 1, text[i * 1000:(i + 1) * 1000], "H")
shard(f"{tmp}/shards/fw_val_000000.bin", 20240520, 1, [rng.randrange(256) for _ in range(500)], "H")
shard(f"{tmp}/llama3_train.bin", 20240801, 7, text, "I")
shard(f"{tmp}/llama3_val.bin", 20240801, 7, [rng.randrange(256) for _ in range(500)], "I")
shard(f"{tmp}/bad_version.bin", 20240801, 2, text, "I")
EOF

small="--model gpt-nano --seq-len 32 -b 2 --threads 1 --steps 1 --eval-batches 1"
# shellcheck disable=SC2086
"$exe" train $small --run-dir "$tmp/glob" --data "$tmp/shards/fw_train_*.bin" --val-data "$tmp/shards/fw_val_000000.bin" \
  >"$tmp/glob.out" 2>&1 || { echo "FAIL (glob): exit $?"; cat "$tmp/glob.out"; fail=1; }
grep -q "data: .*fw_train_\*.bin (3 files); validation .*fw_val_000000.bin: 3500 tokens (llm.c), train 3000 / val 500" "$tmp/glob.out" ||
  { echo "FAIL (glob): the data line does not show 3 shards, 3000 train and 500 val tokens"; grep "data:" "$tmp/glob.out"; fail=1; }

# shellcheck disable=SC2086
"$exe" train $small --run-dir "$tmp/llama3" --data "$tmp/llama3_train.bin" --val-data "$tmp/llama3_val.bin" \
  >"$tmp/llama3.out" 2>&1 || { echo "FAIL (llama3): exit $?"; cat "$tmp/llama3.out"; fail=1; }
grep -q "data: .*llama3_train.bin; validation .*llama3_val.bin: 3500 tokens (llm.c-llama3), train 3000 / val 500" "$tmp/llama3.out" ||
  { echo "FAIL (llama3): the data line does not show the Llama-3 shard"; grep "data:" "$tmp/llama3.out"; fail=1; }

# The glob's stream is the shards in sorted order: the same unigram entropy as the single file
# holding the same tokens in that order (the Llama-3 file above), to the printed digits.
e1=$(sed -n 's/.*unigram entropy \([0-9.]*\) bits.*/\1/p' "$tmp/glob.out" | head -n 1)
e2=$(sed -n 's/.*unigram entropy \([0-9.]*\) bits.*/\1/p' "$tmp/llama3.out" | head -n 1)
[ -n "$e1" ] && [ "$e1" = "$e2" ] || { echo "FAIL: glob entropy '$e1' vs single file '$e2'"; fail=1; }

expect_bad() {  # name, field, pattern, train args...
  name="$1"; field="$2"; pattern="$3"; shift 3
  # shellcheck disable=SC2086
  "$exe" train $small --run-dir "$tmp/$name" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  rc=$?
  [ "$rc" -eq 2 ] || { echo "FAIL ($name): exit $rc, want 2"; cat "$tmp/$name.err"; fail=1; return; }
  [ "$(grep -c '^error:' "$tmp/$name.err")" -eq 1 ] || { echo "FAIL ($name): not one error line"; cat "$tmp/$name.err"; fail=1; }
  grep -q -- "^error: $field.*$pattern" "$tmp/$name.err" || { echo "FAIL ($name): no '$field ... $pattern'"; cat "$tmp/$name.err"; fail=1; }
  [ ! -e "$tmp/$name/timeline.jsonl" ] || { echo "FAIL ($name): a run started"; fail=1; }
}
expect_bad bad_version --data "bad_version.bin.*version 2" --data "$tmp/bad_version.bin"
expect_bad bad_val --val-data "bad_version.bin.*version 2" --val-data "$tmp/bad_version.bin"
expect_bad no_match --data "nothing_\*.bin.*matches no file" --data "$tmp/shards/nothing_*.bin"
expect_bad mixed --val-data "llm.c-llama3 tokens" --data "$tmp/shards/fw_train_*.bin" --val-data "$tmp/llama3_val.bin"
expect_bad both --val-fraction "with --val-data the validation is that file" --val-data "$tmp/llama3_val.bin" --val-fraction 0.2

[ "$fail" -eq 0 ] && echo "OK: llm.c shard globs, both versions, --val-data, bad headers exit 2"
exit "$fail"
