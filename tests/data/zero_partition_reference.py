#!/usr/bin/python3
"""Prints zero_partition_reference.jsonl: PyTorch's own ZeroRedundancyOptimizer partition for
seeded random parameter sizes and GPT-2 layouts (`/usr/bin/python3 zero_partition_reference.py > zero_partition_reference.jsonl`, with a torch that has
torch.distributed.optim.ZeroRedundancyOptimizer; recorded with Debian's python3-torch 1.13.1).
Its _partition_parameters is called unbound on a stand-in object holding exactly the attributes it
reads, so no process group is needed; the code that partitions is torch's."""
import json
import random
import sys

import torch
from torch.distributed.optim import ZeroRedundancyOptimizer as Z


class Stub:
    pass


def partition(numels, world_size):
    params = [torch.empty(n) for n in numels]
    s = Stub()
    s.world_size = world_size
    s.param_groups = [{"params": params}]
    s._partition_parameters_cache = []
    s._get_min_index = lambda values, disallowed=None: Z._get_min_index(s, values, disallowed)
    s._partition_param_group = lambda group, per_rank: Z._partition_param_group(s, group, per_rank)
    per_rank = Z._partition_parameters(s)
    index = {id(p): i for i, p in enumerate(params)}
    return [[index[id(p)] for group in rank for p in group["params"]] for rank in per_rank]


def gpt2_numels(n_layer, d, vocab, ctx):
    out = [vocab * d, ctx * d]
    for _ in range(n_layer):
        out += [d, d, d * 3 * d, 3 * d, d * d, d, d, d, d * 4 * d, 4 * d, 4 * d * d, d]
    return out + [d, d]


rng = random.Random(20261201)
cases = [(gpt2_numels(4, 128, 50257, 256), 2), (gpt2_numels(4, 128, 50257, 256), 3),
         (gpt2_numels(12, 768, 50257, 1024), 2), (gpt2_numels(12, 768, 50257, 1024), 8),
         ([5, 5, 5, 5], 3), ([1, 2, 3], 4)]
for _ in range(10):
    n = rng.randint(1, 40)
    cases.append(([rng.choice([rng.randint(0, 10), rng.randint(1, 100000)]) for _ in range(n)], rng.randint(1, 9)))
for numels, world in cases:
    sys.stdout.write(json.dumps({"numels": numels, "world_size": world, "owned": partition(numels, world)}) + "\n")
