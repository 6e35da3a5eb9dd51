#!/usr/bin/env python3
"""Scores the diagnoser's sentence readings on tests/data/prose-probes/ (item 14 of
tests/data/oom-corpus/README.md).

Each set is TAG<TAB>sentence per line. A sentence tagged opt / data / other / first / hostram
counts as read when the diagnoser cites it as evidence for optimizer_state / cpu_ram /
other_process / multi_gpu_imbalance / cpu_ram; grow and trouble when the sentence alone is taken
for a report; res when it is cited as "the user's account of the fix or the cause". A near miss
(neg-KIND) trips when its kind's test holds; neg-any (the review's near misses) when the sentence
alone is a report or it is cited with any of the readings' evidence. Every sentence goes through
`prose_probe` (tests/prose_probe.cpp), once per --probe given (default build/prose_probe), so
builds of other commits can be scored side by side.

    python3 scripts/score-prose-probes.py [--probe PATH ...] [--by-tag] [--misses] [SET.tsv ...]
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAUSE = {"opt": "optimizer_state", "data": "cpu_ram", "other": "other_process", "first": "multi_gpu_imbalance",
         "hostram": "cpu_ram"}
READINGS = ["the optimizer's memory", "a whole dataset", "left behind", "piling up", "host RAM runs out",
            "account of the fix", "one GPU holds more"]


def read_set(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                continue
            if "\t" not in line:
                sys.exit(f"{path}:{n}: expected TAG<TAB>sentence")
            tag, sentence = line.split("\t", 1)
            rows.append((tag, sentence))
    return rows


def probe(binary, sentences):
    out = subprocess.run([binary], input=("\n".join(sentences) + "\n").encode("utf-8"), capture_output=True, check=True)
    results = [json.loads(l) for l in out.stdout.decode("utf-8", "replace").splitlines()]
    if len(results) != len(sentences):
        sys.exit(f"{binary}: {len(results)} results for {len(sentences)} sentences")
    return results


def hit(result, tag):
    kind = tag[4:] if tag.startswith("neg-") else tag
    evidence = result["evidence"]
    if kind == "any":
        return result["alone"] is not None or any(r in e for _, e in evidence for r in READINGS)
    if kind in CAUSE:
        return any(c == CAUSE[kind] for c, _ in evidence)
    if kind == "res":
        return any("account of the fix" in e for _, e in evidence)
    return result["alone"] is not None  # grow, trouble


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--probe", action="append", help="a prose_probe binary (repeatable; default build/prose_probe)")
    ap.add_argument("--by-tag", action="store_true", help="one row per tag")
    ap.add_argument("--misses", action="store_true", help="list the sentences of the last probe that miss or trip")
    ap.add_argument("sets", nargs="*")
    args = ap.parse_args()
    probes = args.probe or [os.path.join(ROOT, "build", "prose_probe")]
    sets = args.sets or [os.path.join(ROOT, "tests", "data", "prose-probes", f)
                         for f in ("review.tsv", "fresh1.tsv", "fresh2.tsv", "fresh3.tsv", "fresh4.tsv")]
    for k, p in enumerate(probes, 1):
        print(f"probe {k}: {p}")
    print("set          kind     n    " + "  ".join(f"     probe {k}" for k in range(1, len(probes) + 1)))
    for path in sets:
        rows = read_set(path)
        results = [probe(p, [s for _, s in rows]) for p in probes]
        groups = {}
        for i, (tag, _) in enumerate(rows):
            key = tag if args.by_tag else ("near miss" if tag.startswith("neg-") else "told")
            groups.setdefault(key, []).append(i)
        for key in sorted(groups):
            idx = groups[key]
            cells = []
            for r in results:
                k = sum(hit(r[i], rows[i][0]) for i in idx)
                cells.append(f"{k:5d} {100.0 * k / len(idx):5.1f}%")
            print(f"{os.path.basename(path):12s} {key:9s}{len(idx):4d}  " + "  ".join(cells))
        if args.misses:
            for i, (tag, sentence) in enumerate(rows):
                h = hit(results[-1][i], tag)
                if h == tag.startswith("neg-"):
                    print(f"  {'trips' if h else 'misses'} {tag}: {sentence}")


if __name__ == "__main__":
    main()
