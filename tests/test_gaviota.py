"""pychess_rs.gaviota: the Rust Gaviota prober, against python-chess's pure-Python one.

The oracle is ``chess.gaviota.open_tablebase(directory, LibraryLoader=None)`` (python-chess
1.11.2's ``PythonTablebase``). Two sets of tables are probed:

* python-chess's own test tables (``data/gaviota/`` of its sdist, cached by
  ``tools/fetch-python-chess-tests``): the five 3-piece tables, on random legal positions of
  each signature, the extra piece White's and Black's, both sides to move. Skipped without
  the cache.
* Tables written here: every 4-piece index scheme (``kqkr``, ``kqkp``, ``kqqk``, ``kqrk``,
  ``kqpk``, ``kppk``, ``kpkp``) filled with arbitrary bytes, LZMA-compressed block by block
  as the format has it. The values mean nothing, but both probers must read the same entry
  and decode it the same way, and ``kpkp`` gives en-passant positions, whose captures
  python-chess resolves by probing the child (in the real ``kpk``).

The default run probes a few thousand positions (python-chess is slow); the ``slow`` sweeps
probe many more.
"""

from __future__ import annotations

import ctypes.util
import lzma
import os
import random
import shutil
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.gaviota
import pytest

import pychess_rs
import pychess_rs.gaviota as gaviota

VERSION = "1.11.2"


def _suite_tables() -> Path:
    named = os.environ.get("PYCHESS_RS_PYTHON_CHESS_SUITE")
    cache = os.environ.get("PYCHESS_RS_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pychess-rs"
    )
    suite = Path(named) if named else Path(cache) / f"python-chess-{VERSION}"
    return suite / "data" / "gaviota"


TABLES = _suite_tables()
THREE_PIECE = ("kqk", "krk", "kbk", "knk", "kpk")
needs_tables = pytest.mark.skipif(
    not all((TABLES / f"{name}.gtb.cp4").is_file() for name in THREE_PIECE),
    reason="python-chess's test tables are not cached (run tools/fetch-python-chess-tests)",
)

#: Placements per (table, colour of the extra material) in the default run; each is probed
#: with both sides to move where legal.
QUICK = 600
#: The same for the slow sweep.
SWEEP = 20_000

PIECE_TYPES = {
    "q": chess.QUEEN,
    "r": chess.ROOK,
    "b": chess.BISHOP,
    "n": chess.KNIGHT,
    "p": chess.PAWN,
}


def random_positions(
    name: str, strong: chess.Color, count: int, rng: random.Random
) -> Iterator[chess.Board]:
    """Legal positions with the material of table ``name`` (``"kqkp"``), its white pieces
    given to ``strong``: ``count`` random placements, each with both sides to move where
    that is legal."""
    second_king = name.index("k", 1)
    sides = [(strong, name[1:second_king]), (not strong, name[second_king + 1 :])]
    anywhere = list(range(64))
    pawn_squares = list(range(8, 56))
    made = 0
    while made < count:
        board = chess.Board.empty()
        for color, letters in sides:
            for piece_type in [chess.KING, *(PIECE_TYPES[letter] for letter in letters)]:
                squares = pawn_squares if piece_type == chess.PAWN else anywhere
                free = [s for s in squares if board.piece_type_at(s) is None]
                board.set_piece_at(rng.choice(free), chess.Piece(piece_type, color))
        legal = []
        for turn in (chess.WHITE, chess.BLACK):
            board.turn = turn
            if board.is_valid():
                legal.append(board.copy())
        if legal:
            made += 1
            yield from legal


def answers(tables: object, board: chess.Board | pychess_rs.Board) -> tuple[object, object]:
    """(probe_dtm, probe_wdl), or the class of the exception each raises."""
    out: list[object] = []
    for probe in ("probe_dtm", "probe_wdl"):
        try:
            out.append(getattr(tables, probe)(board))
        except KeyError as err:
            out.append(type(err).__name__)
    return out[0], out[1]


def mismatches(
    directory: Path, names: tuple[str, ...], count: int, seed: int
) -> tuple[int, list[str]]:
    """Probes random positions of each table in ``names`` with both probers."""
    ours = gaviota.open_tablebase(str(directory))
    oracle = chess.gaviota.open_tablebase(str(directory), LibraryLoader=None)
    rng = random.Random(seed)
    probed = 0
    wrong = []
    for name in names:
        for strong in (chess.WHITE, chess.BLACK):
            for board in random_positions(name, strong, count, rng):
                expected = answers(oracle, board)
                got = answers(ours, pychess_rs.Board(board.fen()))
                probed += 1
                if got != expected:
                    wrong.append(f"{board.fen()}: ours {got}, python-chess {expected}")
    ours.close()
    oracle.close()
    return probed, wrong


@needs_tables
def test_three_piece_tables_agree_with_python_chess() -> None:
    probed, wrong = mismatches(TABLES, THREE_PIECE, QUICK, seed=22)
    assert probed > 2 * 5 * QUICK
    assert wrong == []


@needs_tables
@pytest.mark.slow
def test_three_piece_sweep() -> None:
    probed, wrong = mismatches(TABLES, THREE_PIECE, SWEEP, seed=2022)
    assert probed > 2 * 5 * SWEEP
    assert wrong[:20] == []


#: Debian's libgaviotatb1 (Gaviota's own C prober), a second oracle where installed.
LIBGTB = ctypes.util.find_library("gaviotatb")


@needs_tables
@pytest.mark.skipif(LIBGTB is None, reason="libgaviotatb is not installed (Debian: libgaviotatb1)")
def test_three_piece_tables_agree_with_libgtb() -> None:
    native = chess.gaviota.open_tablebase_native(str(TABLES), libgtb=LIBGTB)
    ours = gaviota.open_tablebase(str(TABLES))
    wrong = []
    with native, ours:
        for name in THREE_PIECE:
            for strong in (chess.WHITE, chess.BLACK):
                for board in random_positions(name, strong, 100, random.Random(name)):
                    # (python-chess's NativeTablebase answers 0 for insufficient material
                    # without probing libgtb; the tables say 0 there too.)
                    expected = native.probe_dtm(board)
                    got = ours.probe_dtm(pychess_rs.Board(board.fen()))
                    if got != expected:
                        wrong.append(f"{board.fen()}: ours {got}, libgtb {expected}")
    assert wrong == []


# -- Tables written here: the 4-piece schemes and en passant --------------------------------------

#: Entries per side of each 4-piece table written here (python-chess's EGKEY sizes).
FOUR_PIECE_SIZES = {
    "kqkr": 462 * 64 * 64,
    "kqkp": 24 * 64 * 64 * 64,
    "kqqk": 462 * 2016,
    "kqrk": 462 * 64 * 64,
    "kqpk": 24 * 64 * 64 * 64,
    "kppk": 576 * 64 * 64,
    "kpkp": 24 * 48 * 64 * 64,
}

ENTRIES_PER_BLOCK = 16 * 1024


#: The bytes the written tables are cut from: a period shorter than the 4 KiB dictionary, so
#: that blocks compress (and decompress) fast, and prime, so that neighbouring entries and
#: blocks still differ.
PATTERN = random.Random(22).randbytes(1021)
LZMA1 = [{"id": lzma.FILTER_LZMA1, "preset": 0, "dict_size": 4096, "lc": 3, "lp": 0, "pb": 2}]


def packed_block(offset: int, n: int, cache: dict[tuple[int, int], bytes]) -> bytes:
    """``n`` entries of :data:`PATTERN` from ``offset`` on, as a block: two flag bytes and an
    ``.lzma`` stream (lc 3, lp 0, pb 2, 4 KiB dictionary)."""
    key = (offset, n)
    if key not in cache:
        data = (PATTERN * (n // len(PATTERN) + 2))[offset : offset + n]
        cache[key] = b"\x00\x00" + lzma.compress(data, format=lzma.FORMAT_ALONE, filters=LZMA1)
    return cache[key]


def write_table(
    path: Path, entries_per_side: int, seed: int, cache: dict[tuple[int, int], bytes]
) -> None:
    """A ``.gtb.cp4`` file of arbitrary entries: the header, the block offsets, the blocks."""
    blocks_per_side = -(-entries_per_side // ENTRIES_PER_BLOCK)
    blocks = []
    for side in range(2):
        for block in range(blocks_per_side):
            start = block * ENTRIES_PER_BLOCK
            n = min(ENTRIES_PER_BLOCK, entries_per_side - start)
            offset = (seed * 131 + side * 7 + start) % len(PATTERN)
            blocks.append(packed_block(offset, n, cache))
    data_start = 40 + 4 * (len(blocks) + 1)
    offsets = [data_start]
    for block_bytes in blocks:
        offsets.append(offsets[-1] + len(block_bytes))
    header = struct.pack("<10I", 0, 0, 0, 0, 0, 0, 0, 0, data_start, 0)
    path.write_bytes(header + struct.pack(f"<{len(offsets)}I", *offsets) + b"".join(blocks))


@pytest.fixture(scope="module")
def written_tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("gaviota")
    cache: dict[tuple[int, int], bytes] = {}
    for seed, (name, size) in enumerate(FOUR_PIECE_SIZES.items()):
        write_table(directory / f"{name}.gtb.cp4", size, seed, cache)
    if (TABLES / "kpk.gtb.cp4").is_file():
        # En-passant captures in kpkp leave kpk positions.
        shutil.copy(TABLES / "kpk.gtb.cp4", directory / "kpk.gtb.cp4")
    return directory


def test_four_piece_schemes_agree_with_python_chess(written_tables: Path) -> None:
    probed, wrong = mismatches(written_tables, tuple(FOUR_PIECE_SIZES), 25, seed=4)
    assert probed > 2 * len(FOUR_PIECE_SIZES) * 25
    assert wrong == []


@pytest.mark.slow
def test_four_piece_sweep(written_tables: Path) -> None:
    probed, wrong = mismatches(written_tables, tuple(FOUR_PIECE_SIZES), 1000, seed=44)
    assert probed > 2 * len(FOUR_PIECE_SIZES) * 1000
    assert wrong[:20] == []


def en_passant_positions(count: int, rng: random.Random) -> Iterator[chess.Board]:
    """KPvKP positions just after a double step, with an en-passant capture on the board."""
    made = 0
    while made < count:
        turn = rng.choice([chess.WHITE, chess.BLACK])
        file = rng.randrange(8)
        capturer_file = file + rng.choice([-1, 1])
        if not 0 <= capturer_file < 8:
            continue
        # The pawn that moved two squares stands on the capturer's rank.
        rank = 4 if turn == chess.WHITE else 3
        board = chess.Board.empty()
        board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, not turn))
        board.set_piece_at(chess.square(capturer_file, rank), chess.Piece(chess.PAWN, turn))
        free = [s for s in range(64) if board.piece_at(s) is None]
        wk, bk = rng.sample(free, 2)
        board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
        board.turn = turn
        board.ep_square = chess.square(file, 5 if turn == chess.WHITE else 2)
        if board.is_valid() and board.has_legal_en_passant():
            made += 1
            yield board


@needs_tables
def test_en_passant_is_resolved_as_python_chess_does(written_tables: Path) -> None:
    ours = gaviota.open_tablebase(str(written_tables))
    oracle = chess.gaviota.open_tablebase(str(written_tables), LibraryLoader=None)
    wrong = []
    differs_from_no_ep = 0
    with ours, oracle:
        for board in en_passant_positions(300, random.Random(5)):
            expected = answers(oracle, board)
            got = answers(ours, pychess_rs.Board(board.fen(en_passant="fen")))
            if got != expected:
                wrong.append(f"{board.fen()}: ours {got}, python-chess {expected}")
            no_ep = board.copy()
            no_ep.ep_square = None
            differs_from_no_ep += answers(oracle, no_ep) != expected
    assert wrong == []
    # The capture changed the answer often enough for the test to mean something.
    assert differs_from_no_ep > 30


# -- What cannot be probed ----------------------------------------------------------------------


@needs_tables
def test_refusals_match_python_chess() -> None:
    ours = gaviota.open_tablebase(str(TABLES))
    oracle = chess.gaviota.open_tablebase(str(TABLES), LibraryLoader=None)
    for fen, error in [
        # Castling rights, also without the rook (python-chess looks at the raw rights).
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", KeyError),
        (chess.STARTING_FEN, KeyError),
        # Six pieces.
        ("4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1", KeyError),
        # No table for the material, either way round.
        ("4k3/8/8/8/8/8/n7/R3K3 w - - 0 1", chess.gaviota.MissingTableError),
        ("8/8/8/8/5pPp/8/5K1k/8 b - g3 0 61", chess.gaviota.MissingTableError),
    ]:
        with pytest.raises(error) as expected:
            oracle.probe_dtm(chess.Board(fen))
        ours_error = gaviota.MissingTableError if error is not KeyError else KeyError
        for board in (pychess_rs.Board(fen), chess.Board(fen)):
            with pytest.raises(ours_error) as got:
                ours.probe_dtm(board)
            assert str(got.value) == str(expected.value)
            if error is KeyError:
                assert not isinstance(got.value, gaviota.MissingTableError)
            with pytest.raises(ours_error):
                ours.probe_wdl(board)
            assert ours.get_dtm(board) is None
            assert ours.get_wdl(board, 7) == 7
    # A python-chess board keeps castling rights its FEN does not show: refused too.
    rookless = chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    rookless.castling_rights = chess.BB_A1
    with pytest.raises(KeyError):
        oracle.probe_dtm(rookless)
    with pytest.raises(KeyError, match="castling rights"):
        ours.probe_dtm(rookless)


def test_kings_alone_need_no_table() -> None:
    tables = gaviota.PythonTablebase()
    board = pychess_rs.Board("8/8/4K3/8/8/3k4/8/8 w - - 0 1")
    assert tables.probe_dtm(board) == 0
    assert tables.probe_wdl(board) == 0
    with pytest.raises(gaviota.MissingTableError, match="KQvK"):
        tables.probe_dtm(pychess_rs.Board("8/8/4K3/8/8/3k4/8/Q7 w - - 0 1"))


@needs_tables
def test_a_position_without_entry_is_a_key_error() -> None:
    # Kings side by side (and a pawn on the last rank) have no entry: python-chess fails
    # there with whatever its arithmetic meets (ValueError, IndexError); ours says KeyError.
    tables = gaviota.open_tablebase(str(TABLES))
    for fen in ["8/8/8/8/8/8/8/KkQ5 w - - 0 1", "7P/8/8/8/8/8/8/K1k5 w - - 0 1"]:
        with pytest.raises(KeyError, match="has no entry"):
            tables.probe_dtm(pychess_rs.Board(fen))
        assert tables.get_dtm(pychess_rs.Board(fen)) is None


def test_directories(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(OSError) as expected:
        chess.gaviota.open_tablebase(str(missing), LibraryLoader=None)
    with pytest.raises(OSError) as got:
        gaviota.open_tablebase(str(missing))
    assert str(got.value) == str(expected.value)
    with pytest.raises(OSError, match="not a directory"):
        gaviota.open_tablebase_native(str(missing))
    # An empty directory is fine: nothing to probe.
    tables = gaviota.open_tablebase_native(str(tmp_path))
    assert isinstance(tables, gaviota.NativeTablebase)
    assert tables.available_tables == {}


def test_an_unreadable_table_is_an_os_error(tmp_path: Path) -> None:
    (tmp_path / "kqk.gtb.cp4").write_bytes(b"not a table")
    tables = gaviota.open_tablebase(str(tmp_path))
    assert list(tables.available_tables) == ["kqk"]
    with pytest.raises(OSError):
        tables.probe_dtm(pychess_rs.Board("6K1/8/8/8/4Q3/8/6k1/8 b - - 0 1"))


@needs_tables
def test_close_and_context_manager() -> None:
    board = pychess_rs.Board("6K1/8/8/8/4Q3/8/6k1/8 b - - 0 1")
    with gaviota.open_tablebase(str(TABLES)) as tables:
        assert sorted(tables.available_tables) == sorted(THREE_PIECE)
        assert tables.available_tables["kqk"] == str(TABLES.absolute() / "kqk.gtb.cp4")
        assert tables.probe_dtm(board) == -14
    assert tables.available_tables == {}
    with pytest.raises(gaviota.MissingTableError):
        tables.probe_dtm(board)
    tables.add_directory(str(TABLES))
    assert tables.probe_dtm(board) == -14


@needs_tables
def test_shared_between_threads() -> None:
    tables = gaviota.open_tablebase(str(TABLES))
    boards = [
        b.fen()
        for name in THREE_PIECE
        for b in random_positions(name, chess.WHITE, 20, random.Random(name))
    ]
    expected = [tables.probe_dtm(pychess_rs.Board(fen)) for fen in boards]
    results: list[list[int]] = []

    def work() -> None:
        results.append([tables.probe_dtm(pychess_rs.Board(fen)) for fen in boards])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


def test_api_names() -> None:
    assert issubclass(gaviota.MissingTableError, KeyError)
    assert issubclass(gaviota.NativeTablebase, gaviota.PythonTablebase)
    for name in gaviota.__all__:
        assert hasattr(chess.gaviota, name), name
