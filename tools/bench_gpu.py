#!/usr/bin/env python3
"""Benchmark pychess-rs's batch on every CPU core beside pgx on a GPU, and the AlphaZero loop
(batch observations -> a conv policy net in PyTorch on the GPU -> actions back)
(``tools/benchsuite/gpu.py``). Rows that need a GPU, jax+pgx or torch are skipped with a note
when those are missing.

    python tools/bench_gpu.py [--quick] [--repeat N] [--markdown] [--batch B ...]
                              [--steps N] [--threads N] [--loop-device cuda|cpu]

Also the "gpu" workload of tools/bench.py.
"""

import sys

from benchsuite.gpu import main

if __name__ == "__main__":
    sys.exit(main())
