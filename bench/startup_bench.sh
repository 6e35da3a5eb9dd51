#!/usr/bin/env bash
# Start-up cost of each `oomkit` command (issue 9 item 7): wall-clock milliseconds, CPU
# milliseconds (user + system) and peak resident memory (max RSS, as GNU time reports it: a
# child forked from Python would count Python's own pages) of `oomkit --version`,
# `oomkit gpus`, `oomkit estimate --model gpt2`, `oomkit diagnose` of a small log and
# `oomkit report` of an estimate, set against `oomkit train --help` (which runs oomkit-train,
# the LibTorch half) in the same run (left out, and said so, when no oomkit-train is beside
# oomkit: a -DOOMKIT_WITH_TORCH=OFF build). Each command runs REPEATS times, interleaved so machine
# load hits all alike; the table shows the median and the worst wall time, the median CPU time
# (which other jobs on the machine do not inflate) and the largest RSS.
# Targets (issue 9): <= 50 ms wall and <= 30 MiB RSS for every command but train; exit 1 when
# a median wall time or an RSS misses them (STARTUP_CHECK=0: report only).
#   OOMKIT_EXE (default build/oomkit)  REPEATS (default 15)
# Usage: bench/startup_bench.sh        (GNU time: `apt-get install time`, in scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
EXE=${OOMKIT_EXE:-build/oomkit}
REPEATS=${REPEATS:-15}
[ -x "$EXE" ] || { echo "startup_bench: $EXE not found (build first: scripts/setup.sh)" >&2; exit 2; }
# Exit 77 (ctest: skipped) without GNU time, which scripts/setup.sh installs.
[ -x /usr/bin/time ] || { echo "startup_bench: needs GNU time (apt-get install time)" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$EXE" estimate --model gpt2 --json > "$tmp/estimate.json"
python3 - "$EXE" "$REPEATS" "$tmp" "${STARTUP_CHECK:-1}" <<'PY'
import os, statistics, subprocess, sys, time
exe, repeats, tmp, check = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
log = "tests/data/oom-cases/noisy.log"
commands = [
    ("oomkit --version", [exe, "--version"]),
    ("oomkit gpus", [exe, "gpus"]),
    ("oomkit estimate --model gpt2", [exe, "estimate", "--model", "gpt2"]),
    ("oomkit diagnose noisy.log (%d KiB)" % (os.path.getsize(log) // 1024), [exe, "diagnose", log]),
    ("oomkit report estimate.json", [exe, "report", tmp + "/estimate.json", "-o", tmp + "/report.html"]),
]
if os.access(os.path.join(os.path.dirname(os.path.abspath(exe)), "oomkit-train"), os.X_OK):
    commands.append(("oomkit train --help (oomkit-train, LibTorch)", [exe, "train", "--help"]))
else:
    print("no oomkit-train beside %s (a torch-free build): train left out" % exe)
wall = {name: [] for name, _ in commands}
cpu = {name: [] for name, _ in commands}
rss = {name: 0 for name, _ in commands}
rss_file = tmp + "/rss"
for _ in range(repeats):
    for name, argv in commands:
        start = time.perf_counter()
        p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss_file] + argv,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)  # rusage of GNU time and of the command it waited for
        wall[name].append((time.perf_counter() - start) * 1e3)
        cpu[name].append((usage.ru_utime + usage.ru_stime) * 1e3)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("startup_bench: '%s' exited %d" % (" ".join(argv), os.waitstatus_to_exitcode(status)))
        rss[name] = max(rss[name], int(open(rss_file).read().split()[-1]))  # KiB
print("%-50s %9s %9s %9s %12s" % ("command (%d runs each)" % repeats, "wall ms", "worst ms", "CPU ms", "max RSS MiB"))
failed = []
for name, _ in commands:
    med, worst, mib = statistics.median(wall[name]), max(wall[name]), rss[name] / 1024.0
    print("%-50s %9.1f %9.1f %9.1f %12.1f" % (name, med, worst, statistics.median(cpu[name]), mib))
    if "train" not in name and (med > 50.0 or mib > 30.0):
        failed.append(name)
print("machine: %d cores, load average %.1f (1 min) during the run" % (os.cpu_count(), os.getloadavg()[0]))
print("wall and CPU: medians; targets: <= 50 ms wall, <= 30 MiB max RSS for every command but train")
if failed and check:
    sys.exit("startup_bench: over target: " + ", ".join(failed))
PY
