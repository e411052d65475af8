#!/usr/bin/env python3
"""Differential fuzzing of pychess_rs against python-chess, position by position.

The code lives in the package ``tools/fuzz_diff/`` (its ``__init__`` describes the modules);
run ``tools/fuzz_diff.py --help`` for the options. ``pychess-rs fuzz`` is the same command.
"""

import sys
from pathlib import Path

# Run as a script, this file's directory is on sys.path, and a package directory wins over a
# module of the same name there: ``fuzz_diff`` below is the package tools/fuzz_diff/.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz_diff.cli import main

if __name__ == "__main__":
    sys.exit(main())
