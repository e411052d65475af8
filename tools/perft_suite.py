#!/usr/bin/env python3
"""Check the perft suites against pychess_rs.Board.perft (native, GIL released), or divide.

    tools/perft_suite.py                          # tests/data/perft.epd + perft960.epd, <= 10M
    tools/perft_suite.py --max-nodes 200_000_000 --jobs 2
    tools/perft_suite.py --file tests/data/perft960.epd --max-nodes 1e6
    tools/perft_suite.py --divide "FEN" 4 [--chess960]

``cargo test`` runs the suites to a CI-sized depth; this tool runs them deeper. The logic
lives in ``pychess_rs.perft_cli`` (shared with ``pychess-rs perft --suite``). Exit status 1
when any count differs.
"""

from __future__ import annotations

import os
import sys

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests", "data")
DEFAULT_FILES = (
    (os.path.normpath(os.path.join(DATA, "perft.epd")), False),
    (os.path.normpath(os.path.join(DATA, "perft960.epd")), True),
)

if __name__ == "__main__":
    try:
        from pychess_rs import perft_cli
    except ImportError as exc:
        sys.exit(f"perft_suite.py: cannot import pychess_rs ({exc}); build it first: tools/test")
    sys.exit(perft_cli.main(default_files=DEFAULT_FILES, prog="tools/perft_suite.py"))
