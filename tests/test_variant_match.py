"""tools/variant_match.py: a two-game Racing Kings match of the engine against itself, the
games kept by the core's rules (a smoke test; the measured matches are in docs/variants.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_two_games_are_played_to_their_end(tmp_path: Path) -> None:
    summary = tmp_path / "summary.json"
    pgn = tmp_path / "games.pgn"
    engine = f"cmd={sys.executable} -m pychess_rs uci"
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "variant_match.py"),
            "--variant",
            "racingkings",
            "--games",
            "2",
            "--tc",
            "1+0.01",
            "--engine",
            engine,
            "name=a",
            "--engine",
            engine,
            "name=b",
            "option.Skill Level=0",
            "--json",
            str(summary),
            "--pgn",
            str(pgn),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(summary.read_text())
    assert data["games"] == 2
    assert sum(data["wins_draws_losses"]) == 2
    assert sum(data["score"]) == 2.0
    assert data["illegal_moves"] == [0, 0]
    assert data["crashes"] == [0, 0]
    assert data["time_forfeits"] == [0, 0]
    games = pgn.read_text().split("[Event ")
    assert len(games) == 3 and all('[Variant "racingkings"]' in g for g in games[1:])
