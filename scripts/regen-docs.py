#!/usr/bin/env python3
"""Regenerates every command output shown in README.md and docs/*.md, or checks it.

  scripts/regen-docs.py --build build            rewrite the outputs that differ (beyond the masks) in place
  scripts/regen-docs.py --build build --force    rewrite every output, masked spans included
  scripts/regen-docs.py --build build --check    compare; a unified diff per block, exit 1 on any difference
  scripts/regen-docs.py --list                   list the blocks found (no build needed)
  scripts/regen-docs.py --self-test              check the masks below on built-in line pairs
  scripts/regen-docs.py --build build --only docs/recover.md   one file (any flag above)
  scripts/regen-docs.py --build build --screenshots            also docs/img/ (scripts/docs-screenshots.sh)

Which fenced blocks are command outputs (Markdown fences of ``` with no language, `console` or
`text`):
  1. A block whose first line starts with `$ `: each `$ ` line is a command (a line ending in a
     backslash continues on the next), the lines up to the next `$ ` line are its output. A blank
     line before the next `$ ` line is kept as a separator.
  2. A ```sh block holding exactly one command, followed directly (blank lines allowed) by a
     plain block: the plain block is that command's output (the README's style).
  3. A line `<!-- regen-docs: skip REASON -->` right before a block of kind 1 or 2 leaves it as
     written: measurements (benchmarks, accuracy matrices) whose numbers are the result of one
     run. `--list` prints them with their reason.

How commands run: with bash, stdin /dev/null, in one fresh temporary directory (files in the
order README.md, docs/*.md sorted, blocks in file order, so a later block can read what an
earlier one wrote, e.g. a run directory), where `build` is a link to --build and every other
top-level entry of the repository (models, tests, scripts, bench, docs, ...) a link to the
source; `runs/` there is private and never touches the repository. stdout and stderr go to one
pipe, as `2>&1` would. A command shown twice (the same text) runs once; both blocks show its
output. Keep commands cheap (the test runs them all): a few steps of a small model, --threads 1.

What is masked (MASKS below; applied to both the doc and the fresh output in --check, never
when rewriting), and nothing else:
  - timings: the step time (`| 343.7 ms |`), `ms/step`, a run's duration (`in 2m27s`),
    the `ts`/`dur`/`t_ns` fields of JSON events, MFU (derived from the step time: a number,
    `n/a`, or the run summary's whole MFU clause);
  - the matmul probe's peak (`peak 11.4 GFLOP/s`, `best of 7 in 0.22 s`: MFU's denominator,
    a measurement of the machine like its free memory);
  - tok/s (throughput);
  - eta;
  - run-directory timestamps (`runs/gpt-nano-20261129-145213`);
  - free memory: the CPU `device:` line's free bytes, with the machine's total RAM and the
    process RSS printed beside it;
  - the CPU-dependent OpenBLAS hint line (`[oomkit] warning: OpenBLAS chose ...`), which
    appears only on CPUs that OpenBLAS does not recognise: dropped from both sides;
  - the `[oomkit] warning: MFU above 100% ...` line, printed when the matmul probe ran on a busy
    CPU (MFU then reads `n/a`, masked like a number): dropped from both sides;
  - the `[oomkit] info: oneDNN: ...` (or warning) line, printed only for CPU bf16 runs on CPUs
    with AMX-BF16: dropped from both sides.
Everything else must match byte for byte: pin anything machine-dependent with flags in the doc
command (--threads, --host-memory, --seed) instead of masking it.
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAIN_LANGS = {"", "console", "text"}
SHELL_LANGS = {"sh", "bash", "shell"}
SKIP_RE = re.compile(r"^<!--\s*regen-docs:\s*skip\b(.*?)-->\s*$")
FENCE_RE = re.compile(r"^(```+)\s*([\w+-]*)\s*$")
# Replacement spans: (what, pattern, replacement). Documented in the module docstring and in
# docs/hardening.md ("Docs that cannot drift"); add nothing here without listing it there.
SIZE = r"\d+(?:\.\d+)? (?:B|bytes|KiB|MiB|GiB|TiB)"
MASKS = [
    ("timings", re.compile(r"\|\s*\d+(?:\.\d+)? ms \|"), "| <ms> ms |"),
    ("timings", re.compile(r"\s+\d+(?:\.\d+)? ms/step"), " <ms> ms/step"),
    ("timings", re.compile(r"\bin (?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?s\b"), "in <time>"),
    ("timings", re.compile(r'"(ts|dur|t_ns)":\s*\d+'), r'"\1":<time>'),
    # The run summary's MFU clause: "MFU 12.3% (FLOPs/token, peak, probe)" or, after a busy probe,
    # "MFU not reported (...)" (FLOPs/token stays checked on the `mfu:` line at the start).
    ("timings", re.compile(r"\bMFU (?:\d+(?:\.\d+)?%|not reported) \([^)]*\)"), "MFU <mfu> (<mfu detail>)"),
    # MFU, a number or "n/a" (a step faster than the probe's peak allows: a busy CPU during the probe),
    # with the padding after it: both read as one placeholder.
    ("timings", re.compile(r"\bmfu\s+(?:n/a|\d+(?:\.\d+)?%)\s*", re.I), "MFU <mfu> "),
    ("timings", re.compile(r"\bbest of \d+ in \d+(?:\.\d+)? s\b"), "best of <n> in <time> s"),
    ("matmul peak", re.compile(r"\b\d+(?:\.\d+)? GFLOP/s"), "<peak> GFLOP/s"),
    ("tok/s", re.compile(r"\s+\d+(?:\.\d+)? tok/s"), " <tok/s> tok/s"),
    ("eta", re.compile(r"\beta\s+(?:\d+h)?(?:\d+m)?\d+s\b"), "eta <eta>"),
    ("run-directory timestamps", re.compile(r"(-)\d{8}-\d{6}\b"), r"\1<time>"),
]
# On the CPU `device:` line only: the machine's free memory, total RAM and process RSS.
DEVICE_LINE_RE = re.compile(r"\bdevice: ")
DEVICE_MASKS = [
    re.compile(r"\b(total|capacity|free) " + SIZE),
    re.compile(r"\b(process RSS) " + SIZE),
]
# Whole lines dropped from both sides: what they say depends on the machine or its load.
DROPPED_LINES = [
    # OpenBLAS's core-type hint: printed only on CPUs OpenBLAS does not recognise.
    re.compile(r"^\[oomkit\] warning: OpenBLAS chose "),
    # MFU above 100% (the matmul probe ran on a busy CPU): a timing, like MFU.
    re.compile(r"^\[oomkit\] warning: MFU above 100%"),
    # oneDNN's bf16 kernels (AMX or not): printed only for CPU bf16 runs on CPUs with AMX-BF16.
    re.compile(r"^\[oomkit\] (info|warning): oneDNN: "),
]


def mask_lines(lines):
    out = []
    for line in lines:
        if any(pat.match(line) for pat in DROPPED_LINES):
            continue
        for _what, pat, rep in MASKS:
            line = pat.sub(rep, line)
        if DEVICE_LINE_RE.search(line) and ("cpu" in line or "process RSS" in line):
            for pat in DEVICE_MASKS:
                line = pat.sub(lambda m: m.group(1) + " <mem>", line)
        out.append(line)
    return out


class Segment:
    """One command and the output lines shown for it."""

    def __init__(self, cmd_lines, out_lines, sep):
        self.cmd_lines = cmd_lines  # as written, `$ ` included on the first
        self.out_lines = out_lines  # as written
        self.sep = sep  # a blank line before the next `$ ` line

    def command(self):
        text = "\n".join(self.cmd_lines)
        return text[2:] if text.startswith("$ ") else text


class Block:
    """A command-output block: `start`..`end` are the line indices of the output fence's body."""

    def __init__(self, path, kind, start, end, segments, skip=None):
        self.path, self.kind, self.start, self.end = path, kind, start, end
        self.segments, self.skip = segments, skip

    def label(self):
        return f"{os.path.relpath(self.path, ROOT)}:{self.start}"


def read_command(lines, i):
    """Lines of one command starting at lines[i] (backslash continuations); returns (cmd, next)."""
    cmd = [lines[i]]
    while cmd[-1].rstrip().endswith("\\") and i + 1 < len(lines):
        i += 1
        cmd.append(lines[i])
    return cmd, i + 1


def parse_dollar_block(body):
    segments, i = [], 0
    while i < len(body):
        cmd, i = read_command(body, i)
        out = []
        while i < len(body) and not body[i].startswith("$ "):
            out.append(body[i])
            i += 1
        sep = False
        if i < len(body) and out and out[-1] == "":
            while out and out[-1] == "":
                out.pop()
            sep = True
        segments.append(Segment(cmd, out, sep))
    return segments


def fences(lines):
    """(open index, close index, lang) of every top-level fenced block."""
    found, i = [], 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if m:
            fence, lang = m.group(1), m.group(2)
            j = i + 1
            while j < len(lines) and lines[j].strip() != fence:
                j += 1
            found.append((i, j, lang))
            i = j + 1
        else:
            i += 1
    return found


def shell_command(body):
    """The one command of a ```sh block (comments and blank lines ignored), or None."""
    cmds, i = [], 0
    while i < len(body):
        if not body[i].strip() or body[i].lstrip().startswith("#"):
            i += 1
            continue
        cmd, i = read_command(body, i)
        cmds.append(cmd)
    return cmds[0] if len(cmds) == 1 else None


def find_blocks(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, fs = [], fences(lines)
    for n, (o, c, lang) in enumerate(fs):
        body = lines[o + 1:c]
        skip = None
        if o > 0 and SKIP_RE.match(lines[o - 1]):
            skip = SKIP_RE.match(lines[o - 1]).group(1).strip() or "skip"
        if lang in PLAIN_LANGS and body and body[0].startswith("$ "):
            blocks.append(Block(path, "dollar", o + 1, c, parse_dollar_block(body), skip))
        elif lang in SHELL_LANGS and n + 1 < len(fs):
            o2, c2, lang2 = fs[n + 1]
            between = lines[c + 1:o2]
            cmd = shell_command(body)
            if lang2 in PLAIN_LANGS and cmd and all(not x.strip() for x in between):
                if o2 > 0 and SKIP_RE.match(lines[o2 - 1]):
                    skip = SKIP_RE.match(lines[o2 - 1]).group(1).strip() or "skip"
                seg = Segment(cmd, lines[o2 + 1:c2], False)
                blocks.append(Block(path, "sh+output", o2 + 1, c2, [seg], skip))
    return lines, blocks


def make_workdir(build):
    work = tempfile.mkdtemp(prefix="regen-docs-")
    for name in os.listdir(ROOT):
        if name in (".git", "runs") or name.startswith("build"):
            continue
        os.symlink(os.path.join(ROOT, name), os.path.join(work, name))
    os.symlink(os.path.abspath(build), os.path.join(work, "build"))
    return work


def run_command(cmd, work, timeout):
    t0 = time.monotonic()
    try:
        r = subprocess.run(["bash", "-c", cmd], cwd=work, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        text = r.stdout.decode("utf-8", errors="replace")
    except subprocess.TimeoutExpired:
        text = f"<regen-docs: timed out after {timeout} s>"
    out = text.split("\n")
    while out and out[-1] == "":
        out.pop()
    return out, time.monotonic() - t0


def render(block, fresh):
    """The output fence's body for `block` with each segment's output replaced by `fresh`."""
    if block.kind == "sh+output":
        return fresh[0]
    body = []
    for k, seg in enumerate(block.segments):
        body += seg.cmd_lines + fresh[k]
        if seg.sep and k + 1 < len(block.segments):
            body.append("")
    return body


# Pairs of lines that the masks must read as equal (the doc's run vs a later run of the same
# command on another machine or load), and one pair they must keep apart: `--self-test`.
MASK_CASES = [
    (["step     2 (3/4) | loss 4.6757 | lr 6.50e-04 |   12.0 ms |    9000 tok/s | mfu  12.3% | alloc 12.16 MiB | eta 1s"],
     ["[oomkit] warning: MFU above 100% (107%): the matmul probe's peak (10.0 GFLOP/s) was measured too low, likely "
      "on a busy CPU; MFU is not reported (a longer --mfu-probe-seconds on an idle machine helps)",
      "step     2 (3/4) | loss 4.6757 | lr 6.50e-04 |   11.0 ms |    9100 tok/s | mfu   n/a  | alloc 12.16 MiB | eta 2s"],
     True),
    (["[oomkit] info: throughput 9000 tok/s, 12.0 ms/step, MFU 12.3% (7129344 FLOPs/token, peak 11.4 GFLOP/s: float32 "
      "512x512 matmul on cpu); peak allocated 120.37 MiB (estimate 120.37 MiB, ratio 1.000)"],
     ["[oomkit] info: throughput 9100 tok/s, 11.0 ms/step, MFU not reported (the probe's peak was measured too low); "
      "peak allocated 120.37 MiB (estimate 120.37 MiB, ratio 1.000)"],
     True),
    (["[oomkit] warning: OpenBLAS chose its generic 'Prescott' kernels", "done in 2m27s"], ["done in 1m03s"], True),
    (["step 2 | loss 4.6757 | alloc 12.16 MiB"], ["step 2 | loss 4.6758 | alloc 12.16 MiB"], False),
]


def self_test():
    bad = 0
    for doc, fresh, equal in MASK_CASES:
        if (mask_lines(doc) == mask_lines(fresh)) != equal:
            print(f"FAIL: masks read {doc} and {fresh} as {'different' if equal else 'equal'}")
            bad += 1
    print(f"regen-docs masks: {len(MASK_CASES) - bad} of {len(MASK_CASES)} cases as expected")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--self-test", action="store_true", help="check the masks on built-in line pairs and exit")
    ap.add_argument("--build", help="build directory holding oomkit (the doc's `build/`)")
    ap.add_argument("--check", action="store_true", help="compare instead of rewriting; exit 1 on a difference")
    ap.add_argument("--list", action="store_true", help="list the blocks found and exit")
    ap.add_argument("--only", action="append", default=[], help="only this Markdown file (repeatable)")
    ap.add_argument("--force", action="store_true",
                    help="rewrite every block, also those that differ only in masked spans (default: leave those)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per command (default 300)")
    ap.add_argument("--screenshots", action="store_true",
                    help="rewrite mode: also regenerate docs/img/ with scripts/docs-screenshots.sh (minutes)")
    args = ap.parse_args()
    if args.self_test:
        return self_test()

    files = [os.path.join(ROOT, "README.md")]
    docs = os.path.join(ROOT, "docs")
    files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    if args.only:
        want = {os.path.abspath(os.path.join(ROOT, f)) if not os.path.isabs(f) else f for f in args.only}
        files = [f for f in files if os.path.abspath(f) in want]
        if not files:
            print(f"error: --only: no such Markdown file among README.md, docs/*.md: {args.only}", file=sys.stderr)
            return 2

    if args.list:
        for f in files:
            for b in find_blocks(f)[1]:
                state = f"skipped ({b.skip})" if b.skip else "regenerated"
                for seg in b.segments:
                    print(f"{b.label()}\t{b.kind}\t{state}\t{seg.command().splitlines()[0][:100]}")
        return 0
    if not args.build:
        print("error: --build: needed (the build directory holding oomkit)", file=sys.stderr)
        return 2
    if not os.path.isfile(os.path.join(args.build, "oomkit")):
        print(f"error: --build: no oomkit in '{args.build}'", file=sys.stderr)
        return 2

    differ, changed, total_s, cache = 0, [], 0.0, {}
    work = make_workdir(args.build)
    try:
        for f in files:
            lines, blocks = find_blocks(f)
            blocks = [b for b in blocks if not b.skip]
            replacements = []
            for b in blocks:
                fresh = []
                for seg in b.segments:
                    cmd = seg.command()
                    if cmd not in cache:
                        cache[cmd] = run_command(cmd, work, args.timeout)
                        total_s += cache[cmd][1]
                        print(f"{b.label()}: {cache[cmd][1]:6.1f} s  {cmd.splitlines()[0][:90]}", file=sys.stderr)
                    fresh.append(cache[cmd][0])
                if args.check:
                    for seg, out in zip(b.segments, fresh):
                        want, got = mask_lines(seg.out_lines), mask_lines(out)
                        if want != got:
                            differ += 1
                            head = seg.command().splitlines()[0]
                            sys.stdout.writelines(difflib.unified_diff(
                                [x + "\n" for x in want], [x + "\n" for x in got],
                                f"{b.label()} (doc) $ {head}", f"{b.label()} (fresh, masked)"))
                elif args.force or any(mask_lines(seg.out_lines) != mask_lines(out)
                                       for seg, out in zip(b.segments, fresh)):
                    replacements.append((b, render(b, fresh)))
            if replacements:
                for b, body in sorted(replacements, key=lambda x: -x[0].start):
                    if lines[b.start:b.end] != body:
                        lines[b.start:b.end] = body
                        changed.append(b.label())
                with open(f, "w", encoding="utf-8") as fh:
                    fh.write("\n".join(lines))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"regen-docs: {total_s:.1f} s of commands", file=sys.stderr)
    if args.check:
        if differ:
            print(f"regen-docs: {differ} block(s) differ from the build; rerun "
                  f"`scripts/regen-docs.py --build {args.build}` to rewrite them", file=sys.stderr)
            return 1
        print("regen-docs: every command output matches", file=sys.stderr)
        return 0
    print(f"regen-docs: {len(changed)} block(s) rewritten: {' '.join(changed) or '-'}", file=sys.stderr)
    if args.screenshots:
        subprocess.run(["sh", os.path.join(ROOT, "scripts", "docs-screenshots.sh")], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
