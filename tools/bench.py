#!/usr/bin/env python3
"""Benchmark pychess-rs against Stockfish and against python-chess and its peers.

Workloads: native-perft, search-speed, python-perft, random-games, fen-legal, pgn, book,
encode, env, variants, micro; each is documented in its module of the package
``tools/benchsuite/``. Run
``tools/bench.py --help`` for the options (``--quick``, ``--only``, ``--markdown``,
``--repeat N``, ``--stockfish PATH``, ``--time-wrong``).
"""

import sys

from benchsuite.cli import main

if __name__ == "__main__":
    sys.exit(main())
