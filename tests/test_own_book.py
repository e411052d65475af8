"""The engine's own opening book: ``OwnBook``/``BookFile``/``BookSeed`` in the UCI loop,
``Engine(book=..., book_seed=...)`` in process, and ``--book`` for ``play`` and ``gui``.

The books are tiny ones written here (keys from python-chess's hash, as a book tool writes
them); one test also plays from python-chess's ``performance.bin`` (its cached sdist,
``tools/fetch-python-chess-tests``) and is skipped without it.
"""

from __future__ import annotations

import argparse
import io
import os
import struct
from pathlib import Path

import chess
import chess.polyglot
import pytest

import pychess_rs
from pychess_rs import Engine, EngineOptionError, Limit
from pychess_rs.uci import UciSession

# The start position's book: 1. e4 (weight 3), 1. d4 (weight 1), 1. c4 (weight 0: never
# played), and one reply to 1. e4.
START_MOVES = {"e2e4": 3, "d2d4": 1, "c2c4": 0}
AFTER_E4_REPLY = "c7c5"
# A position out of the book.
OUT_OF_BOOK = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"


def raw(uci: str) -> int:
    move = chess.Move.from_uci(uci)
    return move.from_square << 6 | move.to_square


def write_book(path: Path) -> Path:
    start = chess.Board()
    after = chess.Board()
    after.push_uci("e2e4")
    rows = [(chess.polyglot.zobrist_hash(start), raw(m), w, 0) for m, w in START_MOVES.items()]
    rows.append((chess.polyglot.zobrist_hash(after), raw(AFTER_E4_REPLY), 1, 0))
    rows.sort(key=lambda row: row[0])
    path.write_bytes(b"".join(struct.pack(">QHHI", *row) for row in rows))
    return path


@pytest.fixture
def book(tmp_path: Path) -> Path:
    return write_book(tmp_path / "tiny.bin")


def session(*commands: str) -> list[str]:
    out = io.StringIO()
    UciSession(iter(line + "\n" for line in commands), out).run()
    return list(out.getvalue().splitlines())


def with_book(path: Path | str, *commands: str, seed: int = 0, own: bool = True) -> list[str]:
    return session(
        f"setoption name BookFile value {path}",
        f"setoption name OwnBook value {'true' if own else 'false'}",
        f"setoption name BookSeed value {seed}",
        *commands,
    )


def bestmove(lines: list[str]) -> str:
    found = [line.split()[1] for line in lines if line.startswith("bestmove ")]
    assert len(found) == 1, lines
    return found[0]


# ---- the UCI loop ------------------------------------------------------------------------------


def test_uci_loop_answers_from_the_book_at_once(book: Path) -> None:
    lines = with_book(book, "position startpos", "go wtime 60000 btime 60000")
    move = bestmove(lines)
    assert move in ("e2e4", "d2d4")
    assert lines == [f"info string book move {move}", f"bestmove {move}"]
    reply = with_book(book, "position startpos moves e2e4", "go depth 3")
    assert reply == [f"info string book move {AFTER_E4_REPLY}", f"bestmove {AFTER_E4_REPLY}"]


def test_uci_loop_searches_without_own_book_or_out_of_the_book(book: Path) -> None:
    for lines in (
        with_book(book, "position startpos", "go depth 2", own=False),
        session("setoption name OwnBook value true", "position startpos", "go depth 2"),
        with_book(book, f"position fen {OUT_OF_BOOK}", "go depth 2"),
    ):
        assert not any("book move" in line for line in lines), lines
        # The end of input stops the search, so it may not reach depth 2; it did search.
        assert any(line.startswith("info depth ") for line in lines), lines
        bestmove(lines)


def test_uci_loop_searches_when_it_must_wait_or_is_restricted(book: Path) -> None:
    for go in ("go depth 2 searchmoves g1f3", "go ponder depth 2", "go infinite"):
        lines = with_book(book, "position startpos", go, "stop")
        assert not any("book move" in line for line in lines), (go, lines)
        bestmove(lines)


def test_same_seed_same_move_and_python_chess_lists_it(book: Path) -> None:
    moves = {
        seed: bestmove(with_book(book, "position startpos", "go", seed=seed)) for seed in range(24)
    }
    for seed in (0, 5, 23):
        assert bestmove(with_book(book, "position startpos", "go", seed=seed)) == moves[seed]
    # The weights show: both moves of weight 1 or more turn up, the one of weight 0 never.
    assert set(moves.values()) == {"e2e4", "d2d4"}
    with chess.polyglot.open_reader(book) as reader:
        listed = {entry.move.uci() for entry in reader.find_all(chess.Board())}
    assert set(moves.values()) <= listed


def test_unreadable_book_file_is_reported_and_the_loop_serves_on(tmp_path: Path) -> None:
    odd = tmp_path / "odd.bin"
    odd.write_bytes(b"\x00" * 17)  # not a whole number of 16-byte entries
    for path in (tmp_path / "missing.bin", odd):
        lines = with_book(path, "isready", "position startpos", "go depth 1")
        assert lines[0].startswith(f"info string BookFile '{path}' cannot be read ("), lines
        assert lines[0].endswith("; playing without a book")
        assert "readyok" in lines
        assert not any("book move" in line for line in lines)
        bestmove(lines)


def test_book_file_can_be_replaced_and_emptied(book: Path, tmp_path: Path) -> None:
    lines = session(
        f"setoption name BookFile value {tmp_path / 'missing.bin'}",
        f"setoption name BookFile value {book}",
        "setoption name OwnBook value true",
        "position startpos",
        "go",
        "setoption name BookFile value <empty>",
        "go depth 1",
    )
    assert sum("cannot be read" in line for line in lines) == 1
    assert sum("book move" in line for line in lines) == 1
    assert len([line for line in lines if line.startswith("bestmove")]) == 2


def test_book_seed_is_checked(book: Path) -> None:
    lines = session("setoption name BookSeed value -1", "setoption name BookSeed value x")
    assert lines == [
        "info string setoption: engine option BookSeed must be in 0..2147483647, got -1",
        "info string setoption: BookSeed expects an integer, got 'x'",
    ]


# ---- the in-process Engine ---------------------------------------------------------------------


def test_engine_plays_book_moves_and_the_uci_loops_moves(book: Path) -> None:
    for seed in (0, 1, 7):
        engine = Engine(book=book, book_seed=seed)
        result = engine.play(pychess_rs.Board(), Limit(depth=3))
        assert result.move is not None
        move = result.move.uci()
        assert result.info == {"string": f"book move {move}"}
        assert move == bestmove(with_book(book, "position startpos", "go", seed=seed))
        board = pychess_rs.Board()
        board.push_uci("e2e4")
        assert engine.play(board, Limit(depth=3)).move == board.parse_uci(AFTER_E4_REPLY)


def test_engine_searches_out_of_the_book_and_analyse_ignores_it(book: Path) -> None:
    engine = Engine(book=book)
    out = engine.play(pychess_rs.Board(OUT_OF_BOOK), Limit(depth=2))
    assert out.info.get("depth") == 2 and "string" not in out.info
    info = engine.analyse(pychess_rs.Board(), Limit(depth=2))
    assert info.get("depth") == 2
    restricted = engine.play(
        pychess_rs.Board(), Limit(depth=2), root_moves=[pychess_rs.Move.from_uci("g1f3")]
    )
    assert restricted.move == pychess_rs.Move.from_uci("g1f3")


def test_engine_book_options(book: Path, tmp_path: Path) -> None:
    engine = Engine(hash_mb=8)
    assert engine.book is None and engine.book_seed == 0
    assert engine.play(pychess_rs.Board(), Limit(depth=1)).info.get("depth") == 1
    engine.configure(book=book, book_seed=4)
    assert engine.book == book and engine.book_seed == 4
    assert "book move" in str(engine.play(pychess_rs.Board(), Limit(depth=1)).info)
    assert repr(engine).endswith(f", book={book!r}, book_seed=4)")
    with pytest.raises(OSError):
        engine.configure(book=tmp_path / "missing.bin", hash_mb=4)
    with pytest.raises(EngineOptionError, match=r"book_seed must be in 0\.\.2147483647, got -1"):
        engine.configure(book_seed=-1)
    with pytest.raises(EngineOptionError, match="book_seed must be an int"):
        Engine(book_seed="1")  # type: ignore[arg-type]
    assert engine.book == book and engine.book_seed == 4 and engine.options["hash_mb"] == 8
    engine.configure(book=None)
    assert engine.book is None and engine.book_seed == 4
    with pytest.raises(OSError):
        Engine(book=tmp_path / "missing.bin")


SUITE = Path(
    os.environ.get("PYCHESS_RS_PYTHON_CHESS_SUITE")
    or Path(
        os.environ.get("PYCHESS_RS_CACHE")
        or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pychess-rs"
    )
    / "python-chess-1.11.2"
)
PERFORMANCE = SUITE / "data" / "polyglot" / "performance.bin"


@pytest.mark.skipif(
    not PERFORMANCE.is_file(),
    reason="python-chess's test books are not cached (run tools/fetch-python-chess-tests)",
)
def test_a_real_book_game_follows_python_chess_entries() -> None:
    """Engine against itself from performance.bin: every book move is one python-chess's
    reader lists for the position, the game leaves the book at some point, and a second game
    with the same seed repeats the first."""

    def game(seed: int) -> list[str]:
        engine = Engine(book=PERFORMANCE, book_seed=seed)
        ours, theirs = pychess_rs.Board(), chess.Board()
        played = []
        with chess.polyglot.open_reader(PERFORMANCE) as reader:
            for _ in range(30):
                result = engine.play(ours, Limit(depth=1))
                assert result.move is not None
                if "string" not in result.info:
                    break
                listed = {e.move for e in reader.find_all(theirs)}
                assert chess.Move.from_uci(result.move.uci()) in listed
                played.append(result.move.uci())
                ours.push(result.move)
                theirs.push_uci(result.move.uci())
        return played

    first = game(3)
    assert len(first) >= 2
    assert game(3) == first


# ---- play and gui ------------------------------------------------------------------------------


def parse(command: str, *argv: str) -> argparse.Namespace:
    from pychess_rs.cli import build_parser

    return build_parser().parse_args([command, *argv])


def test_play_and_gui_accept_book(book: Path) -> None:
    from pychess_rs.play.options import players, search_limit

    for command in ("play", "gui"):
        args = parse(command, "--book", str(book), "--book-seed", "2")
        assert args.book == book and args.book_seed == 2
        assert parse(command).book is None
    args = parse(
        "play", "--white", "engine", "--book", str(book), "--book-seed", "2", "--depth", "1"
    )
    sides = players(args, search_limit(args))
    white = sides[True]
    assert white is not None and sides[False] is not None
    move = white.think(pychess_rs.Board())
    engine = Engine(book=book, book_seed=2)
    assert move == engine.play(pychess_rs.Board(), Limit(depth=1)).move


def test_play_refuses_an_unreadable_book(tmp_path: Path) -> None:
    from pychess_rs.play.options import players, search_limit

    args = parse("play", "--book", str(tmp_path / "missing.bin"))
    with pytest.raises(ValueError, match="cannot read the book"):
        players(args, search_limit(args))


def test_gui_games_play_book_moves(book: Path) -> None:
    from pychess_rs.gui.games import GameError, Games

    games = Games(Limit(depth=1), lambda work: work(), book=book, book_seed=2)
    game = games.new(white="engine", black="human", level="8", fen=None)
    expected = Engine(book=book, book_seed=2).play(pychess_rs.Board(), Limit(depth=1)).move
    assert game.board.move_stack == [expected]
    gone = Games(Limit(depth=1), lambda work: work(), book=book.parent / "gone.bin")
    with pytest.raises(GameError, match="cannot read the opening book"):
        gone.new(white="engine", black="human", level="8", fen=None)


def test_python_chess_client_configures_the_book(book: Path) -> None:
    """The real loop in a subprocess, driven by python-chess's client: it reads the
    ``string`` option and sends ``BookFile``, and the game's first move comes from the book."""
    import sys

    import chess.engine

    command = [sys.executable, "-m", "pychess_rs", "uci"]
    with chess.engine.SimpleEngine.popen_uci(command, timeout=20) as engine:
        assert engine.options["BookFile"].type == "string"
        # Stockfish's way of writing an empty default, which python-chess keeps as it is.
        assert engine.options["BookFile"].default == "<empty>"
        assert engine.options["OwnBook"].default is False
        engine.configure({"OwnBook": True, "BookFile": str(book), "BookSeed": 2})
        result = engine.play(chess.Board(), chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
        assert result.move is not None
        assert result.move.uci() == bestmove(with_book(book, "position startpos", "go", seed=2))
        assert result.info.get("string") == f"book move {result.move.uci()}"
