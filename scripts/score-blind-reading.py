#!/usr/bin/env python3
"""Scores the blind reading of the held-apart OOM corpus parts (tests/data/oom-corpus-blind/).

A reader who saw nothing but each report's text (tests/data/oom-corpus-blind/INSTRUCTIONS.md)
ranked up to three causes per report and said whether the text states the cause ("stated"),
implies it ("implied") or leaves it to a guess ("guess"). This prints, per part and per basis,
how often the reader's first / first three causes equal the thread's label (the part's
index.jsonl). Given --dump FILE... (the corpus scorer's OOMKIT_CORPUS_DUMP lines), it prints the
diagnoser's top-1 / top-3 on the same reports beside the reader's.

Usage: scripts/score-blind-reading.py [--parts held4,held5,...] [--dump FILE ...] [--check]
--check fails (exit 1, one line) unless the readings cover every report of each part they read,
once, with valid category names and bases (ctest: blind_reading).
"""
import argparse
import collections
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data")


def labels(part):
    name = "oom-corpus" if part == "tuned" else "oom-corpus-" + part
    out = {}
    with open(os.path.join(DATA, name, "index.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                out[row["id"]] = row["label"]
    return out


CATEGORIES = {"fragmentation", "activations_batch", "activations_seqlen", "static_model_too_large", "optimizer_state",
              "leak_across_steps", "eval_without_no_grad", "other_process", "multi_gpu_imbalance",
              "generation_kv_cache", "cpu_ram", "other"}


def check(readings):
    seen = set()
    for r in readings:
        key = (r["part"], r["id"])
        if key in seen:
            return f"{r['file']}: {key[0]}/{key[1]} read twice"
        seen.add(key)
        if not 1 <= len(r["top3"]) <= 3 or len(set(r["top3"])) != len(r["top3"]) or not set(r["top3"]) <= CATEGORIES:
            return f"{r['file']}: top3 {r['top3']} is not 1-3 distinct categories"
        if r["basis"] not in ("stated", "implied", "guess"):
            return f"{r['file']}: basis {r['basis']!r}"
    for part in sorted({p for p, _ in seen}):
        ids = set(labels(part))
        read = {i for p, i in seen if p == part}
        if read != ids:
            return f"{part}: {len(ids - read)} reports not read, {len(read - ids)} read that the index lacks"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", default="", help="comma-separated parts to score (default: every part read)")
    ap.add_argument("--dump", nargs="*", default=[], help="OOMKIT_CORPUS_DUMP files of the diagnoser")
    ap.add_argument("--check", action="store_true", help="validate the readings against the parts' indexes")
    args = ap.parse_args()
    readings = []
    with open(os.path.join(DATA, "oom-corpus-blind", "readings.jsonl"), encoding="utf-8") as f:
        readings = [json.loads(line) for line in f if line.strip()]
    if args.check:
        problem = check(readings)
        if problem:
            sys.exit("score-blind-reading: " + problem)
    parts = [p for p in args.parts.split(",") if p] or sorted({r["part"] for r in readings},
                                                                key=lambda p: int(p[4:]) if p[4:].isdigit() else 0)
    label = {p: labels(p) for p in parts}
    diag = {}
    for path in args.dump:
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                diag[(row["dir"].rstrip("/").replace("oom-corpus-", "").replace("oom-corpus", "tuned"), row["id"])] = [
                    c for c, _ in row.get("findings", [])]
    groups = collections.OrderedDict()
    for r in readings:
        if r["part"] not in parts:
            continue
        lab = label[r["part"]][r["id"]]
        got = diag.get((r["part"], r["id"]))
        if args.dump and got is None:
            sys.exit(f"no diagnoser line for {r['part']}/{r['id']} in --dump")
        row = (r["top3"][0] == lab, lab in r["top3"][:3], bool(got) and got[0] == lab, bool(got) and lab in got[:3])
        for g in (r["part"], "basis " + r["basis"], "all"):
            groups.setdefault(g, []).append(row)
    order = [p for p in parts] + [g for g in ("basis stated", "basis implied", "basis guess") if g in groups] + ["all"]
    head = f"{'reports':<14} {'n':>4}   reader top-1  top-3"
    if args.dump:
        head += "   diagnoser top-1  top-3"
    print(head)
    for g in order:
        rows = groups.get(g, [])
        if not rows:
            continue
        n = len(rows)
        pct = [100.0 * sum(x[i] for x in rows) / n for i in range(4)]
        line = f"{g:<14} {n:>4}   {pct[0]:11.1f}%  {pct[1]:4.1f}%"
        if args.dump:
            line += f"   {pct[2]:14.1f}%  {pct[3]:4.1f}%"
        print(line)


if __name__ == "__main__":
    main()
