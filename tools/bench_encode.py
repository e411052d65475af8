#!/usr/bin/env python3
"""Encodings per second: every pychess_rs.encode format on a batch of positions against
PettingZoo chess_v6's own encoder (``tools/benchsuite/encode.py``).

    python tools/bench_encode.py [--quick] [--batch 4096] [--repeat 5] [--markdown]

Also the "encode" workload of tools/bench.py.
"""

import sys

from benchsuite.encode import main

if __name__ == "__main__":
    sys.exit(main())
