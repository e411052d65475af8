"""The engine with Syzygy tables: the UCI options (SyzygyPath, SyzygyProbeDepth,
Syzygy50MoveRule), ``tbhits``, ``Engine(syzygy=...)``, ``play --syzygy``, and endings played
out against Stockfish.

The tables are the 3- and 4-piece ones of python-chess's sdist (fetched by
``tools/fetch-python-chess-tests``); without them, or without Stockfish (tools/test installs
it in /usr/games), the tests that need them skip, saying why.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
from pathlib import Path

import pytest

import pychess_rs
from pychess_rs.engine import Engine, Limit, SimpleEngine
from pychess_rs.play.options import book_options
from pychess_rs.uci import UciSession

VERSION = "1.11.2"


def _tables() -> Path:
    named = os.environ.get("PYCHESS_RS_PYTHON_CHESS_SUITE")
    if named:
        suite = Path(named)
    else:
        cache = os.environ.get("PYCHESS_RS_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pychess-rs"
        )
        suite = Path(cache) / f"python-chess-{VERSION}"
    return suite / "data" / "syzygy" / "regular"


TABLES = _tables()
needs_tables = pytest.mark.skipif(
    not (TABLES / "KQvK.rtbw").is_file(),
    reason=f"no Syzygy test tables at {TABLES} (run tools/fetch-python-chess-tests)",
)


def _stockfish() -> str:
    program = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    if program is None:
        pytest.skip("needs Stockfish (tools/test installs it in /usr/games)")
    return program


def session(commands: str) -> list[str]:
    out = io.StringIO()
    assert UciSession(io.StringIO(commands), out).run() == 0  # type: ignore[arg-type]
    return out.getvalue().splitlines()


@needs_tables
def test_uci_plays_from_the_tables() -> None:
    lines = session(
        f"setoption name SyzygyPath value {TABLES}\n"
        "position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1\n"
        "go depth 5\n"
    )
    assert f"info string found 70 tablebase files in {TABLES}" in lines
    info = next(line for line in lines if line.startswith("info depth"))
    assert " tbhits " in info and " tbhits 0 " not in info, info
    score = int(info.split(" score cp ")[1].split()[0])
    assert score > 10_000, info
    assert lines[-1].startswith("bestmove ")


@needs_tables
def test_the_search_probes_and_the_probe_depth_applies() -> None:
    # Five pieces, no table: searched, with probes after the captures.
    board = pychess_rs.Board("8/8/3k4/8/2q5/8/2Q4R/3K4 w - - 0 1")
    with Engine(syzygy=TABLES) as engine:
        assert engine.analyse(board, Limit(depth=6))["tbhits"] > 0
    # A probe depth beyond the search probes nothing.
    with Engine(syzygy=TABLES, syzygy_probe_depth=100, syzygy_50_move_rule=False) as engine:
        assert engine.analyse(board, Limit(depth=6))["tbhits"] == 0
    with pytest.raises(ValueError, match=r"1\.\.100"):
        Engine(syzygy=TABLES, syzygy_probe_depth=0)
    lines = session("setoption name SyzygyProbeDepth value 0\n")
    assert lines and "SyzygyProbeDepth" in lines[0] and "1..100" in lines[0]


def test_uci_reports_unreadable_tables() -> None:
    lines = session("setoption name SyzygyPath value /nowhere/at/all\nisready\n")
    assert lines[0].startswith("info string SyzygyPath '/nowhere/at/all' cannot be read")
    assert lines[-1] == "readyok"


@needs_tables
def test_in_process_engine_with_tables() -> None:
    board = pychess_rs.Board("8/8/8/4k3/8/8/8/KR6 w - - 0 1")
    with Engine(syzygy=TABLES) as engine:
        assert engine.syzygy == str(TABLES)
        result = engine.play(board, Limit(depth=4))
        assert result.move in board.legal_moves
        assert result.info["tbhits"] > 0
        assert result.info["score"].white().score() > 10_000
    with pytest.raises(OSError):
        Engine(syzygy="/nowhere/at/all")


def test_play_takes_a_tables_directory(tmp_path: Path) -> None:
    args = argparse.Namespace(book=None, book_seed=3, syzygy=str(tmp_path))
    assert book_options(args) == {"book": None, "book_seed": 3, "syzygy": str(tmp_path)}
    args.syzygy = str(tmp_path / "missing")
    with pytest.raises(ValueError, match="Syzygy tables"):
        book_options(args)


#: Endings and the result the engine with tables must reach against Stockfish, the engine
#: playing the side that moves first.
ENDINGS = [
    ("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "1-0"),
    ("8/8/8/4k3/8/8/8/KR6 w - - 0 1", "1-0"),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "1-0"),
    # The defending king in front of the pawn: Stockfish has the pawn and cannot win.
    ("8/8/8/8/4k3/8/4P3/4K3 b - - 0 1", "1/2-1/2"),
]


@needs_tables
@pytest.mark.parametrize(("fen", "result"), ENDINGS)
def test_endings_against_stockfish(fen: str, result: str) -> None:
    board = pychess_rs.Board(fen)
    ours = board.turn
    with Engine(syzygy=TABLES) as engine, SimpleEngine.popen_uci(_stockfish()) as stockfish:
        while board.outcome(claim_draw=True) is None:
            if board.turn == ours:
                move = engine.play(board, Limit(depth=2)).move
            else:
                move = stockfish.play(board, Limit(depth=8)).move
            assert move is not None
            board.push(move)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None
    assert outcome.result() == result, f"{fen}: {outcome} after {board.fen()}"
