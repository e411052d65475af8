"""tools/calibrate.py: reading match results into ratings and skill anchors."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import calibrate
import pytest


def measured(level: int, sf_elo: int, elo: float) -> calibrate.Measured:
    return calibrate.Measured(calibrate.Point(level, sf_elo), 5, 5, 5, elo, elo - 50, elo + 50, 0)


def test_anchors_interpolate_between_measured_levels_and_extend_beyond() -> None:
    rows = [measured(5, 1320, -120), measured(10, 1600, 0), measured(15, 2000, 100)]
    table = calibrate.anchors(rows)
    assert len(table) == calibrate.MAX_LEVEL + 1
    assert table[5] == 1200 and table[10] == 1600 and table[15] == 2100
    assert table[7] == 1200 + round(2 * 400 / 5)
    # Beyond the ends the nearest segment's slope continues.
    assert table[0] == 1200 - 400 and table[20] == 2100 + 500


def test_anchors_stay_increasing_when_measurements_are_noisy() -> None:
    rows = [measured(0, 1320, -100), measured(5, 1320, -150), measured(10, 1600, 0)]
    table = calibrate.anchors(rows)
    assert all(b > a for a, b in zip(table, table[1:]))


def test_anchors_refuse_a_level_that_won_every_game() -> None:
    rows = [measured(5, 1320, float("inf")), measured(10, 1600, 0)]
    with pytest.raises(ValueError, match=r"level\(s\) \[5\]"):
        calibrate.anchors(rows)


def test_points_are_checked() -> None:
    assert calibrate.parse_point("7:1500") == calibrate.Point(7, 1500)
    for bad in ("7", "x:1500", "21:1500"):
        with pytest.raises(argparse.ArgumentTypeError):
            calibrate.parse_point(bad)


def test_reads_the_match_summary(tmp_path: Path) -> None:
    summary = {
        "pairings": [
            {
                "engine": "level5",
                "wins": 3,
                "draws": 4,
                "losses": 13,
                "complete_pairs": 10,
                "elo_pairs": {"elo": -190.0, "low": -300.0, "high": -100.0},
                "elo_games": {"elo": -180.0, "low": -290.0, "high": -95.0},
                "failures": {"level5": {"time_forfeit": 1, "illegal_move": 0, "crash": 0}},
            }
        ]
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(summary))
    m = calibrate.read(calibrate.Point(5, 1320), path)
    assert (m.games, m.elo, m.forfeits, m.rating) == (20, -190.0, 1, 1130.0)


def test_anchors_take_ratings_measured_elsewhere() -> None:
    rows = [measured(5, 1350, 0), measured(10, 1600, 0)]
    table = calibrate.anchors(rows, {20: 2400.0})
    assert table[5] == 1350 and table[10] == 1600 and table[20] == 2400
    assert table[15] == 2000


def test_reads_unbounded_intervals_written_as_strings(tmp_path: Path) -> None:
    summary = {
        "pairings": [
            {
                "engine": "level10",
                "wins": 21,
                "draws": 1,
                "losses": 2,
                "complete_pairs": 12,
                "elo_pairs": {"elo": 373.8, "low": 228.5, "high": "+inf"},
                "elo_games": {"elo": 373.8, "low": 230.0, "high": 600.0},
                "failures": {"level10": {"time_forfeit": 0, "illegal_move": 0, "crash": 0}},
            }
        ]
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(summary))
    m = calibrate.read(calibrate.Point(10, 1600), path)
    assert m.high == float("inf") and calibrate.interval(m) == "+inf / -145"
