#!/usr/bin/env python3
"""Everyday calls, python-chess against pychess-rs, interleaved in one process
(``tools/benchsuite/micro.py``).

    python tools/bench_micro.py [--quick] [--rounds N] [--markdown]

Also the "micro" workload of tools/bench.py.
"""

import sys

from benchsuite.micro import main

if __name__ == "__main__":
    sys.exit(main())
