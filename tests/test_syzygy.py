"""pychess_rs.syzygy against python-chess 1.11.2's chess.syzygy, the oracle.

The tables are the 3- and 4-piece ones of python-chess's sdist (``data/syzygy/regular``,
fetched by ``tools/fetch-python-chess-tests``; without them this module skips, saying why).
Positions are random and legal, for every material of those tables with either colour
stronger and either side to move; en-passant positions are built on purpose (a pawn that has
just made a double step beside an enemy pawn). Every probe must give python-chess's answer,
or python-chess's exception class with its message.
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.syzygy
import pytest

import pychess_rs
import pychess_rs.syzygy

VERSION = "1.11.2"


def _suite_dir() -> Path:
    named = os.environ.get("PYCHESS_RS_PYTHON_CHESS_SUITE")
    if named:
        return Path(named)
    cache = os.environ.get("PYCHESS_RS_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pychess-rs"
    )
    return Path(cache) / f"python-chess-{VERSION}"


TABLES = _suite_dir() / "data" / "syzygy" / "regular"
if not (TABLES / "KQvK.rtbw").is_file():
    pytest.skip(
        f"python-chess {VERSION}'s Syzygy test tables are not at {TABLES} (tools/test fetches "
        "them with tools/fetch-python-chess-tests; run that once with network access)",
        allow_module_level=True,
    )

#: The materials of the tables there, e.g. "KRvKP" (White strong) and "KPvKR" (Black strong).
MATERIALS = sorted(
    {
        key
        for name in (p.stem for p in TABLES.glob("*.rtbw"))
        for key in (name, chess.syzygy.normalize_tablename(name, mirror=True))
    }
)

#: Five-piece materials with a pawn on each side: no table here, but an en-passant capture (or
#: another capture) leads into the four-piece tables, so python-chess answers some positions
#: and raises MissingTableError for the others; ours must do the same.
EP_MATERIALS = sorted(
    {
        key
        for name in ("KQPvKP", "KRPvKP", "KBPvKP", "KNPvKP", "KPPvKP")
        for key in (name, chess.syzygy.normalize_tablename(name, mirror=True))
    }
)

PIECES = {c: chess.Piece.from_symbol(c).piece_type for c in "KQRBNP"}


def _random_board(material: str, rng: random.Random) -> chess.Board:
    """A legal position of ``material`` (White's pieces left of the ``v``), random side to
    move, no castling rights, no en-passant square."""
    white, black = material.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        for color, side in ((chess.WHITE, white), (chess.BLACK, black)):
            for letter in side:
                sq = squares.pop()
                if letter == "P" and chess.square_rank(sq) in (0, 7):
                    break
                board.set_piece_at(sq, chess.Piece(PIECES[letter], color))
        board.turn = rng.choice(chess.COLORS)
        board.halfmove_clock = rng.choice((0, 0, 7, 99))
        if len(board.piece_map()) == len(material) - 1 and board.is_valid():
            return board


def _en_passant_board(material: str, rng: random.Random) -> chess.Board | None:
    """A legal position of ``material`` just after a double step beside an enemy pawn, so
    that an en-passant capture may be possible (None if the material has no such pair)."""
    white, black = material.split("v")
    if "P" not in white or "P" not in black:
        return None
    for _ in range(1000):
        mover = rng.choice(chess.COLORS)  # the side that captures en passant
        file = rng.randrange(8)
        beside = file + rng.choice((-1, 1))
        if not 0 <= beside < 8:
            continue
        rank = 4 if mover == chess.WHITE else 3  # the double-stepped pawn's rank
        board = chess.Board(None)
        board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, not mover))
        board.set_piece_at(chess.square(beside, rank), chess.Piece(chess.PAWN, mover))
        step = 1 if mover == chess.WHITE else -1
        ep_square = chess.square(file, rank + step)
        origin = chess.square(file, rank + 2 * step)
        rest = {chess.WHITE: list(white), chess.BLACK: list(black)}
        rest[chess.WHITE].remove("P")
        rest[chess.BLACK].remove("P")
        free = [
            sq
            for sq in chess.SQUARES
            if board.piece_at(sq) is None and sq not in (ep_square, origin)
        ]
        squares = rng.sample(free, len(rest[chess.WHITE]) + len(rest[chess.BLACK]))
        ok = True
        for color in chess.COLORS:
            for letter in rest[color]:
                sq = squares.pop()
                if letter == "P" and chess.square_rank(sq) in (0, 7):
                    ok = False
                board.set_piece_at(sq, chess.Piece(PIECES[letter], color))
        board.turn = mover
        board.ep_square = ep_square
        if ok and board.is_valid():
            return board
    return None


def _answer(probe: object, board: object) -> tuple[str, object]:
    try:
        return "ok", probe(board)  # type: ignore[operator]
    except KeyError as e:
        return type(e).__name__, str(e)


def _compare(
    theirs: chess.syzygy.Tablebase, ours: pychess_rs.syzygy.Tablebase, board: chess.Board
) -> list[str]:
    ours_board = pychess_rs.Board(board.fen(en_passant="fen"))
    problems = []
    for name in ("probe_wdl", "probe_dtz"):
        expected = _answer(getattr(theirs, name), board)
        got = _answer(getattr(ours, name), ours_board)
        if got != expected:
            problems.append(f"{name} {board.fen(en_passant='fen')}: {got} != {expected}")
    return problems


@pytest.fixture(scope="module")
def tablebases() -> Iterator[tuple[chess.syzygy.Tablebase, pychess_rs.syzygy.Tablebase]]:
    with (
        chess.syzygy.open_tablebase(str(TABLES)) as theirs,
        pychess_rs.syzygy.open_tablebase(str(TABLES)) as ours,
    ):
        yield theirs, ours


def _sweep(
    tablebases: tuple[chess.syzygy.Tablebase, pychess_rs.syzygy.Tablebase],
    per_material: int,
    seed: int,
) -> int:
    theirs, ours = tablebases
    rng = random.Random(seed)
    problems: list[str] = []
    count = 0
    boards = []
    for material in MATERIALS:
        boards += [_random_board(material, rng) for _ in range(per_material)]
    for material in ["KPvKP", *EP_MATERIALS]:
        boards += [_en_passant_board(material, rng) for _ in range(per_material)]
    for board in boards:
        assert board is not None
        problems += _compare(theirs, ours, board)
        count += 1
    assert problems == [], f"{len(problems)} mismatches of {count}:\n" + "\n".join(problems[:20])
    return count


def test_every_material_matches_python_chess(tablebases) -> None:
    assert len(MATERIALS) == 65  # 35 tables, 5 of them symmetric
    assert _sweep(tablebases, per_material=40, seed=22) == 65 * 40 + 11 * 40


@pytest.mark.slow
def test_many_positions_match_python_chess(tablebases) -> None:
    assert _sweep(tablebases, per_material=400, seed=2022) == 65 * 400 + 11 * 400


def test_en_passant_positions_are_built(tablebases) -> None:
    rng = random.Random(5)
    boards = [_en_passant_board("KPvKP", rng) for _ in range(50)]
    assert all(b is not None and b.ep_square is not None for b in boards)
    # Some have a legal en-passant capture, and some change the answer because of it.
    assert any(b.has_legal_en_passant() for b in boards if b is not None)
    theirs, _ = tablebases
    assert any(theirs.probe_wdl(b) != theirs.probe_wdl_table(b) for b in boards if b is not None)


@pytest.mark.parametrize(
    "fen",
    [
        # Castling rights: no table holds them (KeyError).
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        chess.STARTING_FEN,
        # Too many pieces for any table (KeyError).
        "4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1",
        # A 5- and a 6-piece table that is not there (MissingTableError).
        "4k3/8/8/8/8/8/3PP3/3QK3 w - - 0 1",
        "4k3/8/8/8/8/8/3PPP2/3QK3 b - - 0 1",
        # Kings only, and a 3-piece draw.
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KB2 b - - 0 1",
    ],
)
def test_errors_and_edges_match_python_chess(tablebases, fen: str) -> None:
    theirs, ours = tablebases
    board = chess.Board(fen)
    for name in ("probe_wdl", "probe_dtz", "probe_wdl_table"):
        expected = _answer(getattr(theirs, name), board)
        got = _answer(getattr(ours, name), pychess_rs.Board(fen))
        assert got == expected, name
    for name in ("get_wdl", "get_dtz"):
        assert getattr(ours, name)(pychess_rs.Board(fen)) == getattr(theirs, name)(board)


def test_python_chess_boards_are_accepted(tablebases) -> None:
    theirs, ours = tablebases
    board = chess.Board("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2")
    assert ours.probe_wdl(board) == theirs.probe_wdl(board) == 2
    assert pychess_rs.syzygy.calc_key(board) == chess.syzygy.calc_key(board) == "KPvKP"


def test_missing_wdl_tables_for_dtz_and_closed_tables() -> None:
    board = pychess_rs.Board("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")
    with pychess_rs.syzygy.open_tablebase(str(TABLES), load_wdl=False) as tables:
        with pytest.raises(pychess_rs.syzygy.MissingTableError, match="wdl table KQvK"):
            tables.probe_dtz(board)
    tables = pychess_rs.syzygy.Tablebase()
    assert tables.add_directory(TABLES) == 70
    assert tables.probe_wdl(board) == 2
    tables.close()
    with pytest.raises(pychess_rs.syzygy.MissingTableError):
        tables.probe_wdl(board)
    with pytest.raises(FileNotFoundError):
        pychess_rs.syzygy.open_tablebase(str(TABLES / "nowhere"))


def test_a_bad_file_is_an_oserror(tmp_path: Path) -> None:
    (tmp_path / "KQvK.rtbw").write_bytes(b"\0" * 80)
    with pychess_rs.syzygy.open_tablebase(tmp_path) as tables:
        with pytest.raises(OSError, match="invalid magic header"):
            tables.probe_wdl(pychess_rs.Board("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1"))
    (tmp_path / "KRvK.rtbw").write_bytes(b"\0" * 81)
    table = pychess_rs.syzygy.WdlTable(tmp_path / "KRvK.rtbw")
    with pytest.raises(OSError, match="invalid file size"):
        table.init_table_wdl()


def test_variant_boards_are_refused() -> None:
    import chess.variant

    with pytest.raises(ValueError, match="standard chess"):
        pychess_rs.syzygy.Tablebase(VariantBoard=chess.variant.AntichessBoard)
    with pytest.raises(KeyError, match="probed with: antichess"):
        pychess_rs.syzygy.Tablebase().probe_dtz(chess.variant.AntichessBoard())


def test_name_functions_match_python_chess() -> None:
    ours = list(pychess_rs.syzygy.tablenames(piece_count=5))
    assert ours == list(chess.syzygy.tablenames(piece_count=5))
    for name in ours[:200]:
        w, b = name.split("v")
        assert pychess_rs.syzygy.normalize_tablename(b + "v" + w) == name
        assert list(pychess_rs.syzygy.dependencies(name)) == list(chess.syzygy.dependencies(name))
        assert pychess_rs.syzygy.is_tablename(name)
    assert not pychess_rs.syzygy.is_tablename("KvKQ")
    assert pychess_rs.syzygy.dtz_before_zeroing(-1) == chess.syzygy.dtz_before_zeroing(-1) == -101
    with pytest.raises(ValueError):
        pychess_rs.syzygy.normalize_tablename("KQK")


def test_tables_as_python_chess_tests_them() -> None:
    with pychess_rs.syzygy.DtzTable(TABLES / "KRvKN.rtbz") as dtz:
        dtz.init_table_dtz()
        board = pychess_rs.Board("7n/6k1/4R3/4K3/8/8/8/8 b - - 1 1")
        assert dtz.probe_dtz_table(board, -2) == (8, 1)
        dtz.close()
        assert dtz.probe_dtz_table(board, -2) == (8, 1)  # maps the file again
    wdl = pychess_rs.syzygy.WdlTable(TABLES / "KRvKP.rtbw")
    with pytest.raises(ValueError, match="table KRvKP probed with a board of KQvK"):
        wdl.probe_wdl_table(pychess_rs.Board("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1"))


def test_probes_from_threads_agree(tablebases) -> None:
    theirs, ours = tablebases
    rng = random.Random(7)
    boards = [_random_board(m, rng) for m in MATERIALS for _ in range(2)]
    expected = [theirs.probe_dtz(b) for b in boards]
    ours_boards = [pychess_rs.Board(b.fen()) for b in boards]
    results: list[list[int]] = []

    def work() -> None:
        results.append([ours.probe_dtz(b) for b in ours_boards])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4
