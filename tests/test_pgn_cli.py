"""``pychess-rs pgn stats`` and ``pychess-rs pgn positions``."""

from __future__ import annotations

import csv
import gzip
from pathlib import Path

import chess
import chess.pgn
import pytest

from pychess_rs import cli

DATA = Path(__file__).resolve().parent / "data" / "pgn"
BULLET = DATA / "engine-bullet.pgn"


def test_stats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli.main(["pgn", "stats", str(BULLET), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "games:     12" in out
    assert "1-0               5" in out
    assert "errors:    0 in 0 games" in out
    assert "plies:     1775" in out
    assert "games/s" in out
    packed = tmp_path / "b.pgn.gz"
    packed.write_bytes(gzip.compress(BULLET.read_bytes()))
    assert cli.main(["pgn", "stats", str(packed), "--threads", "2"]) == 0
    captured = capsys.readouterr()
    assert "games:     12" in captured.out
    assert "12 games" in captured.err  # the progress bar's last line
    filtered = ["pgn", "stats", str(BULLET), "--no-progress", "--where", "White", "==", "sf2400"]
    assert cli.main(filtered) == 0
    assert "games:     6" in capsys.readouterr().out


def test_stats_counts_games_per_variant(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = Path(__file__).parent / "data" / "pgn"
    mixed = tmp_path / "mixed.pgn"
    mixed.write_bytes(
        BULLET.read_bytes()
        + b"\n"
        + (data / "antichess-programfox.pgn").read_bytes()
        + b"\n"
        + (data / "saturs-jannlee-zh-lichess.pgn").read_bytes()
    )
    assert cli.main(["pgn", "stats", str(mixed), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "games:     15" in out
    assert "variants:" in out
    assert "Standard                 12 (80.0%)" in out
    assert "Antichess                 2 (13.3%)" in out
    assert "Crazyhouse                1 (6.7%)" in out
    assert "errors:    0 in 0 games" in out


def test_stats_of_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["pgn", "stats", "/nonexistent.pgn", "--no-progress"]) == 2
    assert "nonexistent" in capsys.readouterr().err


def test_positions_csv_match_python_chess(tmp_path: Path) -> None:
    out = tmp_path / "p.csv"
    argv = ["pgn", "positions", str(BULLET), "--out", str(out), "--no-progress"]
    assert cli.main(argv) == 0
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    expected = []
    with open(BULLET) as handle:
        number = 0
        while (game := chess.pgn.read_game(handle)) is not None:
            board = game.board()
            moves = list(game.mainline_moves())
            for ply in range(len(moves) + 1):
                move = moves[ply].uci() if ply < len(moves) else ""
                expected.append([str(number), str(ply), board.fen(), move, game.headers["Result"]])
                if ply < len(moves):
                    board.push(moves[ply])
            number += 1
    got = [[r["game"], r["ply"], r["fen"], r["move"], r["result"]] for r in rows]
    assert got == expected
    assert cli.main([*argv[:-1], "--epd", "--no-progress"]) == 0
    with open(out, newline="") as f:
        first = next(csv.DictReader(f))
    assert first["epd"] == " ".join(expected[0][2].split()[:4])


def test_positions_parquet_or_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.parquet"
    status = cli.main(["pgn", "positions", str(BULLET), "--out", str(out), "--no-progress"])
    try:
        import pyarrow.parquet as pq
    except ImportError:
        assert status == 2
        assert "pyarrow" in capsys.readouterr().err
        return
    assert status == 0
    table = pq.read_table(out)
    assert table.num_rows == 1787
    assert table.column_names == ["game", "offset", "ply", "fen", "move", "result"]
    assert (
        table.column("fen")[0].as_py()
        == chess.Board("rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4").fen()
    )


def test_positions_refuses_other_extensions(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["pgn", "positions", str(BULLET), "--out", "x.txt", "--no-progress"]) == 2
    assert ".csv or .parquet" in capsys.readouterr().err
