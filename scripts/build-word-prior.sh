#!/usr/bin/env bash
# Regenerates src/diagnose/word_prior_data.inc (the diagnoser's word prior, see
# include/oomkit/diagnose/word_prior.h) from the labelled corpus under tests/data/oom-corpus*/.
# Run it after adding or relabelling reports in a part the model trains on; the ctest
# WordPrior.BuiltinModelIsTheCorpusModel fails until it has been run.
# Usage: scripts/build-word-prior.sh [build folder, default build]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
ninja -C "$build" word_prior_gen >/dev/null 2>&1 || cmake --build "$build" --target word_prior_gen
tmp="$(mktemp)"
"$build/word_prior_gen" tests/data > "$tmp"
mv "$tmp" src/diagnose/word_prior_data.inc
echo "wrote src/diagnose/word_prior_data.inc ($(wc -l < src/diagnose/word_prior_data.inc) lines); rebuild to embed it"
