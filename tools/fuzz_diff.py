#!/usr/bin/env python3
"""Differential fuzzing of pychess_rs against python-chess, position by position.

The code lives in the package ``tools/fuzz_diff/`` (its ``__init__`` describes the modules);
run ``tools/fuzz_diff.py --help`` for the options. ``pychess-rs fuzz`` is the same command.
"""

import sys

from pychess_rs.fuzz.cli import main

if __name__ == "__main__":
    sys.exit(main())
