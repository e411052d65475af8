"""The module-level API python-chess code reaches for (``chess.BB_*``, ``chess.flip_vertical``,
``chess.square_knight_distance``, ...), XBoard/Shredder notation, the move views built from
Python and ``pychess_rs.polyglot``, each compared with python-chess 1.11.2 as the oracle."""

from __future__ import annotations

import random
import re
import types

import chess
import chess.polyglot
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pychess_rs
import pychess_rs.polyglot

# Names of python-chess's module that pychess_rs does not have, each for a reason.
NOT_OURS = {
    # Typing and stdlib names python-chess imports into its namespace.
    *"Callable ClassVar Counter Dict Generic Hashable Iterable Iterator List Literal".split(),
    *"Mapping Optional SupportsInt Tuple Type TypeVar Union BaseBoardT BoardT".split(),
    *"annotations collections copy dataclasses enum itertools math re typing".split(),
    # The position-validity flags come with the any-position boards (another change).
    "Status",
    *(name for name in dir(chess) if name.startswith("STATUS_")),
    # python-chess's placement-only board is added separately.
    "BaseBoard",
}


def test_every_public_python_chess_name_exists():
    missing = {
        name
        for name in dir(chess)
        if not name.startswith("_")
        and not hasattr(pychess_rs, name)
        and name not in NOT_OURS
        # Submodules (chess.svg, chess.engine, ...) show up once something imports them.
        and not isinstance(getattr(chess, name), types.ModuleType)
    }
    assert not missing


def test_star_import_brings_the_bitboard_names():
    namespace: dict[str, object] = {}
    exec("from pychess_rs import *", namespace)
    for name in ["BB_RANK_1", "BB_RAYS", "flip_vertical", "shift_up", "lsb", "between"]:
        assert name in namespace


@pytest.mark.parametrize("name", sorted(n for n in dir(chess) if n.startswith("BB_")))
def test_bitboard_constants_and_tables_equal_python_chess(name):
    assert getattr(pychess_rs, name) == getattr(chess, name)


def test_regexes_are_python_chess_ones():
    assert pychess_rs.SAN_REGEX.pattern == chess.SAN_REGEX.pattern
    assert pychess_rs.FEN_CASTLING_REGEX.pattern == chess.FEN_CASTLING_REGEX.pattern


def test_square_functions_over_every_pair():
    for a in range(64):
        assert pychess_rs.square_mirror(a) == chess.square_mirror(a)
        for b in range(64):
            for name in [
                "square_distance",
                "square_manhattan_distance",
                "square_knight_distance",
                "ray",
                "between",
            ]:
                assert getattr(pychess_rs, name)(a, b) == getattr(chess, name)(a, b), (name, a, b)


@pytest.mark.parametrize("name", ["square_distance", "square_knight_distance", "ray", "between"])
@pytest.mark.parametrize("args", [(64, 0), (0, 64), (-1, 0)])
def test_square_functions_reject_squares_off_the_board(name, args):
    with pytest.raises(ValueError):
        getattr(pychess_rs, name)(*args)


BITBOARD_FUNCTIONS = [
    "lsb",
    "msb",
    "popcount",
    "flip_vertical",
    "flip_horizontal",
    "flip_diagonal",
    "flip_anti_diagonal",
    *(name for name in dir(chess) if name.startswith("shift_")),
]


@settings(max_examples=500, deadline=None)
@given(bb=st.integers(min_value=0, max_value=chess.BB_ALL))
def test_bitboard_functions_match_python_chess(bb):
    for name in BITBOARD_FUNCTIONS:
        assert getattr(pychess_rs, name)(bb) == getattr(chess, name)(bb), name
    assert list(pychess_rs.scan_forward(bb)) == list(chess.scan_forward(bb))
    assert list(pychess_rs.scan_reversed(bb)) == list(chess.scan_reversed(bb))


def test_bitboard_functions_take_square_sets():
    squares = pychess_rs.SquareSet(0x1E22_2212_0E0A_1222)
    for name in BITBOARD_FUNCTIONS:
        if name not in ("lsb", "msb", "popcount"):
            assert getattr(pychess_rs, name)(squares) == getattr(chess, name)(int(squares))


def test_bitboard_functions_reject_values_wider_than_a_board():
    with pytest.raises(OverflowError):
        pychess_rs.flip_vertical(1 << 64)
    with pytest.raises(OverflowError):
        pychess_rs.shift_up(-1)


def _random_game(rng: random.Random, chess960: bool, plies: int):
    """A python-chess board after random legal moves, from a random (960) start."""
    board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


@pytest.mark.parametrize("chess960", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_xboard_shredder_and_polyglot_follow_python_chess(seed, chess960):
    rng = random.Random(seed)
    theirs = _random_game(rng, chess960, rng.randrange(40))
    ours = pychess_rs.Board(theirs.fen(en_passant="fen"), chess960=chess960)
    assert pychess_rs.polyglot.zobrist_hash(ours) == chess.polyglot.zobrist_hash(theirs)
    for en_passant in ("legal", "fen", "xfen"):
        assert ours.shredder_fen(en_passant=en_passant) == theirs.shredder_fen(
            en_passant=en_passant
        )
    for move in theirs.legal_moves:
        mine = pychess_rs.Move.from_uci(move.uci())
        for mode in (None, False, True):
            assert ours.xboard(mine, mode) == theirs.xboard(move, mode)
        text = theirs.xboard(move)
        assert ours.parse_xboard(text).uci() == theirs.parse_xboard(text).uci()
    assert ours.xboard(pychess_rs.Move.null()) == "@@@@"
    assert ours.parse_xboard("@@@@") == pychess_rs.Move.null()
    move = rng.choice(list(theirs.legal_moves)) if theirs.legal_moves else None
    if move is not None:
        text = theirs.xboard(move)
        assert ours.push_xboard(text).uci() == theirs.push_xboard(text).uci()
        assert ours.fen() == theirs.fen()


def test_push_xboard_rejects_what_push_san_rejects():
    board = pychess_rs.Board()
    with pytest.raises(pychess_rs.IllegalMoveError):
        board.push_xboard("e5")
    with pytest.raises(pychess_rs.InvalidMoveError):
        board.push_xboard("hello")
    assert board.fen() == pychess_rs.STARTING_FEN


VIEW_REPR = re.compile(r"<(\w+) at 0x[0-9a-f]+ \((.*)\)>")


def _view_items(text: str) -> tuple[str, list[str]]:
    match = VIEW_REPR.fullmatch(text)
    assert match, text
    return match.group(1), sorted(filter(None, match.group(2).split(", ")))


@pytest.mark.parametrize(
    "fen",
    [
        chess.STARTING_FEN,
        "r3k1nr/ppq1pp1p/2p3p1/8/1PPR4/2N5/P3QPPP/5RK1 b kq b3 0 16",
        "r1bqkb1r/pp1npppp/2pN1n2/8/3P4/8/PPP1QPPP/R1B1KBNR b KQkq - 4 6",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    ],
)
def test_move_view_reprs_match_python_chess(fen):
    ours, theirs = pychess_rs.Board(fen), chess.Board(fen)
    for view in ("legal_moves", "pseudo_legal_moves"):
        mine = getattr(ours, view)
        ref = getattr(theirs, view)
        # python-chess generates moves in another order; the names and the moves must agree.
        assert _view_items(repr(mine)) == _view_items(repr(ref))
        assert str(mine) == repr(mine)
        assert hex(id(mine)) in repr(mine)


def test_move_views_are_built_from_python():
    board = pychess_rs.Board()
    legal = pychess_rs.LegalMoveGenerator(board)
    pseudo = pychess_rs.PseudoLegalMoveGenerator(board)
    assert legal.board is board
    assert list(legal) == list(board.legal_moves)
    assert list(pseudo) == list(board.pseudo_legal_moves)
    assert legal.count() == pseudo.count() == 20
    assert pychess_rs.Move.from_uci("e2e4") in legal
    board.push_san("e4")
    assert legal.count() == 20  # live: the view follows the board
    assert pychess_rs.Move.from_uci("e2e4") not in legal


def test_move_views_over_another_board_object_use_its_methods():
    theirs = chess.Board("r3k1nr/ppq1pp1p/2p3p1/8/1PPR4/2N5/P3QPPP/5RK1 b kq b3 0 16")
    legal = pychess_rs.LegalMoveGenerator(theirs)
    pseudo = pychess_rs.PseudoLegalMoveGenerator(theirs)
    assert list(legal) == list(theirs.legal_moves)
    assert legal.count() == theirs.legal_moves.count()
    assert bool(legal) and bool(pseudo)
    assert list(pseudo) == list(theirs.pseudo_legal_moves)
    assert chess.Move.from_uci("e8d7") in pseudo
    assert chess.Move.from_uci("e8d7") not in legal
    assert _view_items(repr(legal)) == _view_items(repr(theirs.legal_moves))
    assert _view_items(repr(pseudo)) == _view_items(repr(theirs.pseudo_legal_moves))
    with pytest.raises(TypeError):
        len(legal)


def test_a_view_over_a_foreign_board_walks_it_once():
    class CountingBoard:
        def __init__(self) -> None:
            self.walks = 0

        def generate_legal_moves(self):
            self.walks += 1
            yield from chess.Board().generate_legal_moves()

    board = CountingBoard()
    assert len(list(pychess_rs.LegalMoveGenerator(board))) == 20
    assert board.walks == 1


def test_polyglot_reference_keys():
    # The reference positions of the Polyglot book format description.
    board = pychess_rs.Board()
    assert pychess_rs.polyglot.zobrist_hash(board) == 0x463B96181691FC9C
    for san in ["e4", "d5", "e5", "f5"]:
        board.push_san(san)
    assert pychess_rs.polyglot.zobrist_hash(board) == 0x22A48B5A8E47FF78


@pytest.mark.parametrize(
    "fen",
    ["7k/8/8/8/8/8/8/KR6 w B - 0 1", "k7/8/8/8/8/8/8/K6R w H - 0 1"],
)
def test_xboard_of_the_null_move_and_drops_is_never_castling(fen):
    ours, theirs = pychess_rs.Board(fen, chess960=True), chess.Board(fen, chess960=True)
    for uci in ["0000", "P@a1", "K@b1"]:
        assert ours.xboard(pychess_rs.Move.from_uci(uci)) == theirs.xboard(chess.Move.from_uci(uci))
    # A move from a square to itself is no castling either.
    assert ours.xboard(pychess_rs.Move(0, 0, pychess_rs.QUEEN)) == "a1a1q"


@pytest.mark.parametrize(
    "name",
    [
        "aliases",
        "uci_variant",
        "xboard_variant",
        "starting_fen",
        "one_king",
        "connected_kings",
        "captures_compulsory",
    ],
)
def test_board_variant_identity_matches_python_chess(name):
    assert getattr(pychess_rs.Board, name) == getattr(chess.Board, name)
    assert getattr(pychess_rs.Board(), name) == getattr(chess.Board(), name)
