#!/usr/bin/env bash
# The full estimate-vs-measured matrix of issue 4: builds bench/estimate_accuracy and runs every
# configuration of the matrix (gpt-nano, gpt-micro, a d=768 L=4 model; B 1/8; T 128/512;
# checkpointing none/full; fp32/bf16-mixed; adamw/sgd/adafactor; first and steady step) with
# the real trainer on the tracking CPU allocator, printing every row and the summary (median
# and max |error|, ours and the chapter's). Exit 1 when a row of ours is beyond the 3% bar.
# Extra arguments go to estimate_accuracy, e.g. --filter gpt-nano, --threads 4, --failing.
# Takes 10-20 minutes on 2 shared cores (the d=768 runs dominate).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${OOMKIT_BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
ninja -C "$BUILD_DIR" -j "${OOMKIT_BUILD_JOBS:-2}" estimate_accuracy
exec "$BUILD_DIR/estimate_accuracy" --subset full --check "$@"
