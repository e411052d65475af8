#!/usr/bin/env python3
"""Engine matches: measure playing strength, accept or reject engine changes by SPRT.

Plays games between UCI (or xboard) engines through python-chess's engine client, from
opening positions with colours swapped per opening, keeps the clocks itself, ends games only
by the rules (or a player's failure: time forfeit, illegal move, crash, hang), and reports
W-D-L, Elo with a 95% interval, LOS and an SPRT verdict. The code lives in the package
``tools/match/``; run ``tools/match.py --help`` for the options.
"""

import sys
from pathlib import Path

# Run as a script, this file's directory is on sys.path, and a package directory wins over a
# module of the same name there: ``match`` below is the package tools/match/.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from match.cli import main

if __name__ == "__main__":
    sys.exit(main())
