"""pychess_rs.polyglot: the opening-book reader, against python-chess's ``chess.polyglot``.

Most tests write a tiny book of their own (entries made with python-chess's hash, sorted as a
book is), so they need no data; the differential test at the end reads python-chess's two
test books from its cached sdist (``tools/fetch-python-chess-tests``) and is skipped without
them.
"""

from __future__ import annotations

import os
import random
import re
import struct
import threading
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import chess.polyglot
import pytest

import pychess_rs
import pychess_rs.polyglot as polyglot

CASTLING = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def raw(uci: str, promotion_code: int = 0) -> int:
    move = chess.Move.from_uci(uci)
    return promotion_code << 12 | move.from_square << 6 | move.to_square


def write_book(path: Path, rows: list[tuple[int, int, int, int]]) -> Path:
    """A book file of ``(key, raw_move, weight, learn)`` rows, sorted by key (stable)."""
    path.write_bytes(
        b"".join(struct.pack(">QHHI", *row) for row in sorted(rows, key=lambda r: r[0]))
    )
    return path


def key(fen: str) -> int:
    return chess.polyglot.zobrist_hash(chess.Board(fen))


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    start = key(chess.STARTING_FEN)
    castling = key(CASTLING)
    return write_book(
        tmp_path / "tiny.bin",
        [
            (start, raw("e2e4"), 10, 1),
            (start, raw("d2d4"), 30, 2),
            (start, raw("c2c4"), 30, 3),
            (start, raw("g1f3"), 0, 4),  # weight 0: only with minimum_weight=0
            (start, raw("e2e5"), 50, 5),  # illegal: skipped on a board, listed by key
            (castling, raw("e1h1"), 4, 0),
            (castling, raw("e1a1"), 2, 0),
            (castling, raw("e8h8"), 9, 0),  # Black's castling: not White's move
            (key(AFTER_E4), raw("c7c5"), 7, 0),
        ],
    )


def rows(entries: Any) -> list[tuple[int, int, int, int, str]]:
    return [(e.key, e.raw_move, e.weight, e.learn, e.move.uci()) for e in entries]


def both(path: Path) -> tuple[polyglot.MemoryMappedReader, chess.polyglot.MemoryMappedReader]:
    return polyglot.open_reader(path), chess.polyglot.open_reader(path)


def test_entries_by_index_and_iteration(tiny: Path) -> None:
    ours, theirs = both(tiny)
    with ours, theirs:
        assert len(ours) == len(theirs) == 9
        assert rows(ours) == rows(theirs)
        assert rows([ours[i] for i in range(-9, 9)]) == rows([theirs[i] for i in range(-9, 9)])
        assert rows(reversed(ours)) == rows(reversed(theirs))  # type: ignore[call-overload]
        for bad in (9, 100, -10, 1 << 70):
            with pytest.raises(IndexError):
                ours[bad]
        entry = ours[0]
        assert isinstance(entry, polyglot.Entry)
        assert isinstance(entry.move, pychess_rs.Move)
        assert entry == tuple(entry) and entry._fields == chess.polyglot.Entry._fields
        assert all(e in ours for e in ours)
        assert entry._replace(weight=999) not in ours
        for k in (0, key(CASTLING), 1 << 64, -1):
            assert ours.bisect_key_left(k) == theirs.bisect_key_left(k)


def test_find_all_on_boards_matches_python_chess(tiny: Path) -> None:
    ours, theirs = both(tiny)
    for fen in (chess.STARTING_FEN, CASTLING, AFTER_E4, "8/8/8/8/8/8/8/K1k5 w - - 0 1"):
        for chess960 in (False, True):
            mine = pychess_rs.Board(fen, chess960=chess960)
            oracle = chess.Board(fen, chess960=chess960)
            for minimum_weight in (0, 1, 5, 31, -3, 1 << 80):
                expected = rows(theirs.find_all(oracle, minimum_weight=minimum_weight))
                assert rows(ours.find_all(mine, minimum_weight=minimum_weight)) == expected
                # A python-chess board is read through its FEN.
                assert rows(ours.find_all(oracle, minimum_weight=minimum_weight)) == expected
    castling = rows(ours.find_all(pychess_rs.Board(CASTLING)))
    assert [r[4] for r in castling] == ["e1g1", "e1c1"]
    assert [r[4] for r in rows(ours.find_all(pychess_rs.Board(CASTLING, chess960=True)))] == [
        "e1h1",
        "e1a1",
    ]


def test_find_all_by_key_lists_moves_as_written(tiny: Path) -> None:
    ours, theirs = both(tiny)
    for k in (key(chess.STARTING_FEN), key(CASTLING), 12345, -1, 1 << 64, str(key(CASTLING))):
        for minimum_weight in (0, 1, 10):
            assert rows(ours.find_all(k, minimum_weight=minimum_weight)) == rows(  # type: ignore[arg-type]
                theirs.find_all(k, minimum_weight=minimum_weight)  # type: ignore[arg-type]
            )
    assert [r[4] for r in rows(ours.find_all(key(CASTLING)))] == ["e1h1", "e1a1", "e8h8"]


def test_exclude_find_and_get(tiny: Path) -> None:
    ours, theirs = both(tiny)
    board, oracle = pychess_rs.Board(), chess.Board()
    d4, c4 = pychess_rs.Move.from_uci("d2d4"), pychess_rs.Move.from_uci("c2c4")
    assert ours.find(board).move == d4  # first of the heaviest, as python-chess
    assert theirs.find(oracle).move.uci() == "d2d4"
    assert ours.find(board, exclude_moves=[d4]).move == c4
    assert ours.find(board, exclude_moves={d4, c4}).move.uci() == "e2e4"
    assert [e.move.uci() for e in ours.find_all(board, exclude_moves=(d4,))] == ["e2e4", "c2c4"]
    # Only Moves compare equal to a book's moves; strings and python-chess moves exclude nothing.
    assert len(list(ours.find_all(board, exclude_moves=["d2d4", chess.Move.from_uci("d2d4")]))) == 3
    castling = pychess_rs.Board(CASTLING)
    assert (
        ours.find(castling, exclude_moves=[pychess_rs.Move.from_uci("e1g1")]).move.uci() == "e1c1"
    )
    empty = pychess_rs.Board("8/8/8/8/8/8/8/K1k5 w - - 0 1")
    with pytest.raises(IndexError):
        ours.find(empty)
    with pytest.raises(IndexError):
        ours.find(board, minimum_weight=31)
    assert ours.get(empty) is None
    sentinel = theirs.find(oracle)
    assert ours.get(empty, sentinel) is sentinel  # type: ignore[arg-type]
    assert ours.get(board, minimum_weight=11).move == d4


class Scripted:
    """A ``random.Random`` stand-in answering from a script and recording its calls."""

    def __init__(self, answers: list[int]) -> None:
        self.answers = answers
        self.calls: list[tuple[int, int]] = []

    def randint(self, low: int, high: int) -> int:
        self.calls.append((low, high))
        return self.answers.pop(0)


def test_choices_call_random_as_python_chess_does(tiny: Path) -> None:
    ours, theirs = both(tiny)
    board, oracle = pychess_rs.Board(), chess.Board()
    for answers in ([0, 0], [1, 0], [0, 2], [1, 2]):
        mine, oracles = Scripted(list(answers)), Scripted(list(answers))
        got = ours.choice(board, random=mine)  # type: ignore[arg-type]
        expected = theirs.choice(oracle, random=oracles)  # type: ignore[arg-type]
        assert got.move.uci() == expected.move.uci()
        assert mine.calls == oracles.calls == [(0, 1), (0, 2)]
    for answer in (0, 9, 10, 39, 40, 69):
        mine, oracles = Scripted([answer]), Scripted([answer])
        got = ours.weighted_choice(board, random=mine)  # type: ignore[arg-type]
        expected = theirs.weighted_choice(oracle, random=oracles)  # type: ignore[arg-type]
        assert got.move.uci() == expected.move.uci()
        assert mine.calls == oracles.calls == [(0, 69)]
    # Seeded generators, and the random module itself, give python-chess's answers.
    for seed in range(20):
        for exclude in ((), (pychess_rs.Move.from_uci("d2d4"),)):
            their_exclude = [chess.Move.from_uci(m.uci()) for m in exclude]
            got = ours.weighted_choice(board, exclude_moves=exclude, random=random.Random(seed))
            expected = theirs.weighted_choice(
                oracle, exclude_moves=their_exclude, random=random.Random(seed)
            )
            assert got.move.uci() == expected.move.uci()
            got = ours.choice(
                board, minimum_weight=0, exclude_moves=exclude, random=random.Random(seed)
            )
            expected = theirs.choice(
                oracle, minimum_weight=0, exclude_moves=their_exclude, random=random.Random(seed)
            )
            assert got.move.uci() == expected.move.uci()
        random.seed(seed)
        got = ours.weighted_choice(board)
        random.seed(seed)
        assert got.move.uci() == theirs.weighted_choice(oracle).move.uci()
    empty = pychess_rs.Board("8/8/8/8/8/8/8/K1k5 w - - 0 1")
    with pytest.raises(IndexError):
        ours.choice(empty)
    with pytest.raises(IndexError):
        ours.weighted_choice(empty)
    only_zero = polyglot.open_reader(
        write_book(tiny.parent / "zero.bin", [(key(chess.STARTING_FEN), raw("e2e4"), 0, 0)])
    )
    with pytest.raises(IndexError):
        only_zero.weighted_choice(board, random=Scripted([]))  # type: ignore[arg-type]
    assert only_zero.choice(board, minimum_weight=0).move.uci() == "e2e4"


def test_files_sizes_and_closing(tmp_path: Path, tiny: Path) -> None:
    with polyglot.open_reader(os.devnull) as empty:
        assert len(empty) == 0
        assert list(empty.find_all(pychess_rs.Board())) == []
        assert list(empty) == []
    odd = tmp_path / "odd.bin"
    odd.write_bytes(b"\0" * 20)
    message = f"invalid file size: ensure {odd!r} is a valid polyglot opening book"
    with pytest.raises(OSError, match=re.escape(message)):
        polyglot.open_reader(odd)
    with pytest.raises(FileNotFoundError):
        polyglot.open_reader(tmp_path / "missing.bin")
    for name in (str(tiny), os.fsencode(tiny), tiny):
        with polyglot.MemoryMappedReader(name) as reader:
            assert len(reader) == 9
    reader = polyglot.open_reader(tiny)
    with reader:
        pass
    for use in (len, lambda r: r[0], lambda r: r.find_all(pychess_rs.Board()), list):
        with pytest.raises(ValueError, match="closed"):
            use(reader)
    reader.close()  # closing twice is fine


def test_moves_no_board_plays(tmp_path: Path) -> None:
    """Drops (equal squares, a piece code) and codes naming no piece, read by key."""
    start = key(chess.STARTING_FEN)
    path = write_book(
        tmp_path / "odd-moves.bin",
        [
            (start, raw("e2e4"), 1, 0),
            (start, 2 << 12 | 28 << 6 | 28, 1, 0),
            (start, 28 << 6 | 28, 1, 0),
        ],
    )
    ours, theirs = both(path)
    assert rows(ours.find_all(start)) == rows(theirs.find_all(start))
    assert [e.move.uci() for e in ours.find_all(pychess_rs.Board())] == ["e2e4"]
    assert ours[1].move.drop == chess.BISHOP
    bad = write_book(
        tmp_path / "bad-code.bin", [(start, raw("a7a8", 6), 1, 0), (start, raw("e2e4"), 1, 0)]
    )
    with polyglot.open_reader(bad) as reader:
        # On a board python-chess finds such a move illegal; read raw, it names no piece type.
        assert [e.move.uci() for e in reader.find_all(pychess_rs.Board())] == ["e2e4"]
        with pytest.raises(ValueError, match="promotion code 6 names no piece type"):
            reader[0]


def test_zobrist_hasher_with_any_table() -> None:
    assert polyglot.POLYGLOT_RANDOM_ARRAY == chess.polyglot.POLYGLOT_RANDOM_ARRAY
    rng = random.Random(5)
    table = [rng.getrandbits(64) for _ in range(781)]
    ours, theirs = polyglot.ZobristHasher(table), chess.polyglot.ZobristHasher(table)
    for fen in (
        chess.STARTING_FEN,
        CASTLING,
        AFTER_E4,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ):
        mine, oracle = pychess_rs.Board(fen), chess.Board(fen)
        for part in ("hash_board", "hash_castling", "hash_ep_square", "hash_turn"):
            assert getattr(ours, part)(mine) == getattr(theirs, part)(oracle), part
        assert ours(mine) == theirs(oracle) == ours(oracle)
        assert polyglot.zobrist_hash(mine, _hasher=ours) == theirs(oracle)
        assert polyglot.zobrist_hash(oracle) == chess.polyglot.zobrist_hash(oracle)
    assert ours.hash_board(pychess_rs.BaseBoard()) == theirs.hash_board(chess.BaseBoard())
    ours.array = list(chess.polyglot.POLYGLOT_RANDOM_ARRAY)
    assert ours(pychess_rs.Board()) == 0x463B96181691FC9C
    with pytest.raises(AssertionError):
        polyglot.ZobristHasher(table[:780])


def test_a_reader_is_shared_between_threads(tiny: Path) -> None:
    reader = polyglot.open_reader(tiny)
    board = pychess_rs.Board()
    expected = rows(reader.find_all(board))
    failures: list[object] = []

    def look() -> None:
        for _ in range(500):
            if rows(reader.find_all(board)) != expected:
                failures.append("mismatch")

    threads = [threading.Thread(target=look) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


# -- Differential: python-chess's test books, every position of many games ------------------------


def _suite_books() -> list[Path]:
    named = os.environ.get("PYCHESS_RS_PYTHON_CHESS_SUITE")
    cache = os.environ.get("PYCHESS_RS_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pychess-rs"
    )
    suite = Path(named) if named else Path(cache) / "python-chess-1.11.2"
    return [suite / "data" / "polyglot" / name for name in ("performance.bin", "lasker-trap.bin")]


BOOKS = _suite_books()
needs_books = pytest.mark.skipif(
    not all(book.is_file() for book in BOOKS),
    reason="python-chess's test books are not cached (run tools/fetch-python-chess-tests)",
)


Game = tuple[chess.Board, list[chess.Move]]


def _walks(book: chess.polyglot.MemoryMappedReader, rng: random.Random) -> list[Game]:
    """200 games: 100 that follow the book by weighted choice while they can, 100 of random
    moves from the start; each goes on with random moves to 50 plies or the end."""
    games = []
    for index in range(200):
        board = chess.Board()
        in_book = index % 2 == 0
        while len(board.move_stack) < 50 and not board.is_game_over():
            if in_book and book.get(board) is not None:
                board.push(book.weighted_choice(board, random=rng).move)
            else:
                in_book = False
                board.push(rng.choice(list(board.legal_moves)))
        games.append((chess.Board(), board.move_stack))
    return games


def _pgn_games() -> list[Game]:
    """The standard and Chess960 games of tests/data/pgn."""
    games = []
    for path in sorted((Path(__file__).parent / "data" / "pgn").glob("*.pgn")):
        with open(path, encoding="utf-8-sig") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                variant = game.headers.get("Variant", "Standard")
                if variant in ("Standard", "Chess960", "Fischerandom") and not game.errors:
                    games.append((game.board(), list(game.mainline_moves())))
    return games


def _same_lookups(
    ours: polyglot.MemoryMappedReader,
    theirs: chess.polyglot.MemoryMappedReader,
    oracle: chess.Board,
    mine: pychess_rs.Board,
    rng: random.Random,
) -> bool:
    """Asserts that both readers find the same entries for the position (and, now and then,
    the same with a move excluded, and the same weighted choice); says whether there were any."""
    expected = rows(theirs.find_all(oracle))
    assert rows(ours.find_all(mine)) == expected, oracle.fen()
    if expected and rng.random() < 0.2:
        first = chess.Move.from_uci(expected[0][4])
        assert rows(
            ours.find_all(
                mine, minimum_weight=2, exclude_moves=[pychess_rs.Move.from_uci(first.uci())]
            )
        ) == rows(theirs.find_all(oracle, minimum_weight=2, exclude_moves=[first]))
        seed = rng.getrandbits(32)
        assert (
            ours.weighted_choice(mine, random=random.Random(seed)).move.uci()
            == theirs.weighted_choice(oracle, random=random.Random(seed)).move.uci()
        )
    return bool(expected)


@needs_books
def test_lookups_match_python_chess_on_every_position_of_many_games() -> None:
    """Each position is asked as it is and with the other Chess960 flag (castling moves are
    shown differently then)."""
    rng = random.Random(2211)
    lookups = with_entries = 0
    games = _walks(chess.polyglot.open_reader(BOOKS[0]), rng) + _pgn_games()
    for path in BOOKS:
        theirs = chess.polyglot.open_reader(path)
        ours = polyglot.open_reader(path)
        for start, moves in games:
            oracle = start.copy()
            mine = pychess_rs.Board(oracle.fen(), chess960=oracle.chess960)
            for move in [*moves, None]:
                fen = oracle.fen(shredder=True, en_passant="fen")
                flipped = not oracle.chess960
                with_entries += _same_lookups(ours, theirs, oracle, mine, rng)
                with_entries += _same_lookups(
                    ours,
                    theirs,
                    chess.Board(fen, chess960=flipped),
                    pychess_rs.Board(fen, chess960=flipped),
                    rng,
                )
                lookups += 2
                if move is not None:
                    oracle.push(move)
                    mine.push(pychess_rs.Move.from_uci(move.uci()))
    assert lookups > 50_000, lookups
    assert with_entries > 4_000, with_entries
