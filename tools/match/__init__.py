"""Engine-match runner behind ``tools/match.py``: engines, openings, clock, game loop,
statistics (Elo, LOS, SPRT) and reports. See ``tools/match.py --help``."""
