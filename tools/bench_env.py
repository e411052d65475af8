#!/usr/bin/env python3
"""Benchmark pychess-rs's batched games and RL environment against their peers
(``tools/benchsuite/env.py``).

    python tools/bench_env.py [--quick] [--repeat N] [--markdown]

Also the "env" workload of tools/bench.py.
"""

import sys

from benchsuite.env import main

if __name__ == "__main__":
    sys.exit(main())
