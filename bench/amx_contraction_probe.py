#!/usr/bin/python3
"""Which bf16 matmuls kill the process under oneDNN's AMX kernels (matmul_workspace.h, amx_hazard()).

Debian's oneDNN 2.6.3, which Debian's LibTorch 1.13 (python3-torch here) uses for bf16
mm/addmm/bmm, JITs AMX-BF16 brgemm kernels on CPUs with AMX (Sapphire Rapids and later); some
of them die with SIGILL. This probe runs seeded random bf16 matmuls, each in a forked child (a
death costs only the child), with ONEDNN_MAX_CPU_ISA unset (every ISA), and counts the deaths
separately for contraction lengths K ≡ 31 (mod 32) and every other K. oomkit keeps oneDNN off
AMX exactly for the models whose step has such a K (amx_hazard()).
Report only; exits 0 whatever it finds, 77 when the CPU has no amx_bf16.
Usage: bench/amx_contraction_probe.py [--seed S] [--other N] [--k31 N] [--threads T]
"""
import argparse
import os
import random
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=20261201)
ap.add_argument("--other", type=int, default=600, help="shapes with K mod 32 != 31")
ap.add_argument("--k31", type=int, default=160, help="shapes with K mod 32 == 31")
ap.add_argument("--threads", type=int, default=2)
a = ap.parse_args()
flags = next((l.split(":", 1)[1].split() for l in open("/proc/cpuinfo") if l.startswith("flags")), [])
if "amx_bf16" not in flags:
    print("no amx_bf16 in this CPU's flags: oneDNN runs no AMX kernel here")
    sys.exit(77)
for name in ("ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA"):
    os.environ.pop(name, None)
import torch  # noqa: E402  (after the environment is cleared)

torch.set_num_threads(a.threads)


def dies(op, batch, m, k, n, ta, tb):
    pid = os.fork()
    if pid == 0:
        if op == "bmm":
            x = torch.randn(batch, k, m).bfloat16().transpose(1, 2) if ta else torch.randn(batch, m, k).bfloat16()
            y = torch.randn(batch, n, k).bfloat16().transpose(1, 2) if tb else torch.randn(batch, k, n).bfloat16()
            torch.bmm(x, y)
        elif op == "addmm":  # nn.Linear with a bias: (m, k) x (n, k)^T + (n,)
            x = torch.randn(k, m).bfloat16().t() if ta else torch.randn(m, k).bfloat16()
            torch.nn.functional.linear(x, torch.randn(n, k).bfloat16(), torch.randn(n).bfloat16())
        else:
            x = torch.randn(k, m).bfloat16().t() if ta else torch.randn(m, k).bfloat16()
            y = torch.randn(n, k).bfloat16().t() if tb else torch.randn(k, n).bfloat16()
            x.mm(y)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == 4  # SIGILL


rng = random.Random(a.seed)
print(f"oneDNN with every ISA (AMX), {a.threads} threads, seed {a.seed}; each matmul in a forked child")
print(f"{'K group':<18} {'shapes':>7} {'SIGILL':>7}  first deaths (op, batch, m, k, n, a^T, b^T)")
for group, count in (("K mod 32 == 31", a.k31), ("K mod 32 != 31", a.other)):
    deaths = []
    for _ in range(count):
        while True:
            k = rng.randint(1, 4200)
            if (k % 32 == 31) == (group == "K mod 32 == 31"):
                break
        op = rng.choice(["mm", "addmm", "bmm"])
        big = op != "bmm" and rng.random() < 0.5
        m, n = (rng.randint(1, 3000), rng.randint(1, 3000)) if big else (rng.randint(1, 400), rng.randint(1, 400))
        shape = (op, rng.randint(1, 16) if op == "bmm" else 0, m, k, n, rng.randint(0, 1), rng.randint(0, 1))
        if dies(*shape):
            deaths.append(shape)
    print(f"{group:<18} {count:>7} {len(deaths):>7}  {deaths[:3]}", flush=True)
