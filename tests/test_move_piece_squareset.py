"""Move, Piece, SquareSet and the square/colour/piece constants and helpers."""

from __future__ import annotations

import copy
import pickle
import re

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pychess_rs

# --- Move ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("uci", "from_square", "to_square", "promotion"),
    [
        ("e2e4", pychess_rs.E2, pychess_rs.E4, None),
        ("g1f3", pychess_rs.G1, pychess_rs.F3, None),
        ("a1h8", pychess_rs.A1, pychess_rs.H8, None),
        ("h8a1", pychess_rs.H8, pychess_rs.A1, None),
        ("e7e8q", pychess_rs.E7, pychess_rs.E8, pychess_rs.QUEEN),
        ("b7a8r", pychess_rs.B7, pychess_rs.A8, pychess_rs.ROOK),
        ("c2c1b", pychess_rs.C2, pychess_rs.C1, pychess_rs.BISHOP),
        ("h2g1n", pychess_rs.H2, pychess_rs.G1, pychess_rs.KNIGHT),
        # UCI for castling is king-to-destination in standard chess, king-takes-rook in 960.
        ("e1g1", pychess_rs.E1, pychess_rs.G1, None),
        ("e1h1", pychess_rs.E1, pychess_rs.H1, None),
    ],
)
def test_move_from_uci_fields_and_round_trip(uci, from_square, to_square, promotion):
    move = pychess_rs.Move.from_uci(uci)
    assert move.from_square == from_square
    assert move.to_square == to_square
    assert move.promotion == promotion
    assert move.uci() == uci
    assert str(move) == uci
    assert move == pychess_rs.Move(from_square, to_square, promotion=promotion)
    assert move == pychess_rs.Move(from_square, to_square, promotion)


@pytest.mark.parametrize(
    "bad",
    ["", "e2", "e2e", "E2E4", "e2e9", "i2e4", "e2e4x", "e7e8Q", "e2 e4", "e2e4qq", "e2e2", "-"],
)
def test_move_from_uci_rejects_malformed(bad):
    with pytest.raises(pychess_rs.InvalidMoveError):
        pychess_rs.Move.from_uci(bad)
    with pytest.raises(ValueError):
        pychess_rs.Move.from_uci(bad)


def test_move_null():
    null = pychess_rs.Move.null()
    assert null.uci() == "0000"
    assert str(null) == "0000"
    assert not null
    assert bool(pychess_rs.Move.from_uci("e2e4"))
    assert pychess_rs.Move.from_uci("0000") == null
    assert null.from_square == null.to_square == pychess_rs.A1
    assert null.promotion is None


def test_move_equality_and_hash():
    a = pychess_rs.Move.from_uci("e7e8q")
    b = pychess_rs.Move(pychess_rs.E7, pychess_rs.E8, promotion=pychess_rs.QUEEN)
    assert a == b
    assert not (a != b)
    assert hash(a) == hash(b)
    assert a != pychess_rs.Move.from_uci("e7e8n")
    assert a != pychess_rs.Move.from_uci("e7e8")
    assert pychess_rs.Move.from_uci("e2e4") != pychess_rs.Move.from_uci("e4e2")
    assert pychess_rs.Move.from_uci("e2e4") != "e2e4"
    moves = {pychess_rs.Move.from_uci(u) for u in ["e2e4", "e2e4", "d2d4", "e7e8q", "e7e8r"]}
    assert len(moves) == 4
    assert pychess_rs.Move.from_uci("d2d4") in moves
    assert {pychess_rs.Move.from_uci("g1f3"): 1}[pychess_rs.Move(pychess_rs.G1, pychess_rs.F3)] == 1


def test_move_repr_names_the_move():
    assert "e2e4" in repr(pychess_rs.Move.from_uci("e2e4"))


@pytest.mark.parametrize("uci", ["e2e4", "a7a8q", "0000", "h2g1n"])
def test_move_agrees_with_python_chess(uci):
    ours = pychess_rs.Move.from_uci(uci)
    theirs = chess.Move.from_uci(uci)
    assert (ours.from_square, ours.to_square, ours.promotion) == (
        theirs.from_square,
        theirs.to_square,
        theirs.promotion,
    )
    assert bool(ours) == bool(theirs)


# --- Piece --------------------------------------------------------------------------------

PIECE_TABLE = [
    ("P", pychess_rs.PAWN, pychess_rs.WHITE, "♙"),
    ("N", pychess_rs.KNIGHT, pychess_rs.WHITE, "♘"),
    ("B", pychess_rs.BISHOP, pychess_rs.WHITE, "♗"),
    ("R", pychess_rs.ROOK, pychess_rs.WHITE, "♖"),
    ("Q", pychess_rs.QUEEN, pychess_rs.WHITE, "♕"),
    ("K", pychess_rs.KING, pychess_rs.WHITE, "♔"),
    ("p", pychess_rs.PAWN, pychess_rs.BLACK, "♟"),
    ("n", pychess_rs.KNIGHT, pychess_rs.BLACK, "♞"),
    ("b", pychess_rs.BISHOP, pychess_rs.BLACK, "♝"),
    ("r", pychess_rs.ROOK, pychess_rs.BLACK, "♜"),
    ("q", pychess_rs.QUEEN, pychess_rs.BLACK, "♛"),
    ("k", pychess_rs.KING, pychess_rs.BLACK, "♚"),
]


@pytest.mark.parametrize(("symbol", "piece_type", "color", "uni"), PIECE_TABLE)
def test_piece_from_symbol(symbol, piece_type, color, uni):
    piece = pychess_rs.Piece.from_symbol(symbol)
    assert piece.piece_type == piece_type
    assert piece.color == color
    assert piece.symbol() == symbol
    assert str(piece) == symbol
    assert piece.unicode_symbol() == uni
    assert piece == pychess_rs.Piece(piece_type, color)
    assert hash(piece) == hash(pychess_rs.Piece(piece_type, color))


def test_piece_unicode_invert_color():
    assert pychess_rs.Piece.from_symbol("K").unicode_symbol(invert_color=True) == "♚"
    assert pychess_rs.Piece.from_symbol("k").unicode_symbol(invert_color=True) == "♔"


def test_piece_equality():
    assert pychess_rs.Piece.from_symbol("Q") != pychess_rs.Piece.from_symbol("q")
    assert pychess_rs.Piece.from_symbol("Q") != pychess_rs.Piece.from_symbol("K")
    assert len({pychess_rs.Piece.from_symbol(s) for s in "PPpNnn"}) == 4


@pytest.mark.parametrize("bad", ["x", "", "QQ", "1"])
def test_piece_from_symbol_rejects_garbage(bad):
    with pytest.raises(ValueError):
        pychess_rs.Piece.from_symbol(bad)


# --- SquareSet ----------------------------------------------------------------------------


def test_squareset_behaves_like_a_set_of_squares():
    board = pychess_rs.Board()
    attackers = board.attackers(pychess_rs.WHITE, pychess_rs.F3)
    # g1 knight, e2 and g2 pawns defend f3 in the initial position.
    expected = {pychess_rs.E2, pychess_rs.G2, pychess_rs.G1}
    assert set(attackers) == expected
    assert len(attackers) == 3
    assert pychess_rs.G1 in attackers
    assert pychess_rs.F2 not in attackers
    assert bool(attackers)
    assert attackers == (1 << pychess_rs.E2) | (1 << pychess_rs.G2) | (1 << pychess_rs.G1)
    assert int(attackers) == 0x5040
    assert sorted(attackers) == [pychess_rs.G1, pychess_rs.E2, pychess_rs.G2]
    assert list(attackers) == sorted(attackers), "squares iterate in ascending order"


def test_empty_squareset():
    empty = pychess_rs.Board().attackers(pychess_rs.BLACK, pychess_rs.E4)
    assert not empty
    assert len(empty) == 0
    assert list(empty) == []
    assert empty == 0


def test_squareset_matches_python_chess():
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    ours, theirs = pychess_rs.Board(fen), chess.Board(fen)
    for color in (pychess_rs.WHITE, pychess_rs.BLACK):
        for sq in range(64):
            assert int(ours.attackers(color, sq)) == int(theirs.attackers(color, sq))


# --- constants and helpers ----------------------------------------------------------------


def test_colour_and_piece_type_constants():
    assert pychess_rs.WHITE is True
    assert pychess_rs.BLACK is False
    assert (
        pychess_rs.PAWN,
        pychess_rs.KNIGHT,
        pychess_rs.BISHOP,
        pychess_rs.ROOK,
        pychess_rs.QUEEN,
        pychess_rs.KING,
    ) == (
        1,
        2,
        3,
        4,
        5,
        6,
    )
    assert list(pychess_rs.PIECE_TYPES) == [1, 2, 3, 4, 5, 6]
    assert list(pychess_rs.COLORS) == [True, False]


def test_square_constants():
    assert pychess_rs.A1 == 0
    assert pychess_rs.H1 == 7
    assert pychess_rs.A2 == 8
    assert pychess_rs.E4 == 28
    assert pychess_rs.H8 == 63
    assert list(pychess_rs.SQUARES) == list(range(64))
    assert len(pychess_rs.SQUARE_NAMES) == 64
    assert pychess_rs.SQUARE_NAMES[0] == "a1"
    assert pychess_rs.SQUARE_NAMES[63] == "h8"
    assert list(pychess_rs.SQUARE_NAMES) == list(chess.SQUARE_NAMES)
    for name in pychess_rs.SQUARE_NAMES:
        assert getattr(pychess_rs, name.upper()) == pychess_rs.SQUARE_NAMES.index(name)


def test_starting_fen():
    assert pychess_rs.STARTING_FEN == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert pychess_rs.STARTING_BOARD_FEN == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


@pytest.mark.parametrize("sq", range(64))
def test_square_helpers(sq):
    name = "abcdefgh"[sq % 8] + "12345678"[sq // 8]
    assert pychess_rs.square_name(sq) == name
    assert pychess_rs.parse_square(name) == sq
    assert pychess_rs.square_file(sq) == sq % 8
    assert pychess_rs.square_rank(sq) == sq // 8
    assert pychess_rs.square(sq % 8, sq // 8) == sq


@pytest.mark.parametrize("bad", ["", "z9", "e0", "E4", "e44", "i1"])
def test_parse_square_rejects_garbage(bad):
    with pytest.raises(ValueError):
        pychess_rs.parse_square(bad)


# --- Move: drops, xboard, truth value ------------------------------------------------------


@pytest.mark.parametrize("uci", ["P@e4", "N@f3", "B@f4", "Q@a1", "K@h8", "R@h1", "p@e4", "n@c6"])
def test_drop_moves_parse_and_print_like_python_chess(uci):
    ours = pychess_rs.Move.from_uci(uci)
    theirs = chess.Move.from_uci(uci)
    assert (ours.from_square, ours.to_square, ours.promotion, ours.drop) == (
        theirs.from_square,
        theirs.to_square,
        theirs.promotion,
        theirs.drop,
    )
    assert ours.uci() == str(ours) == theirs.uci()
    assert ours.xboard() == theirs.xboard()
    assert repr(ours) == repr(theirs)
    assert bool(ours) is True
    assert ours == pychess_rs.Move(ours.to_square, ours.to_square, drop=ours.drop)
    assert hash(ours) == hash(pychess_rs.Move.from_uci(uci))
    assert copy.copy(ours) == ours
    assert copy.deepcopy(ours) == ours
    assert pickle.loads(pickle.dumps(ours)) == ours


@pytest.mark.parametrize("bad", ["Q@g9", "X@e4", "@e4", "N@e44", "N@", "Ne@4", "N@@4"])
def test_malformed_drops_are_invalid(bad):
    with pytest.raises(chess.InvalidMoveError):
        chess.Move.from_uci(bad)
    with pytest.raises(pychess_rs.InvalidMoveError):
        pychess_rs.Move.from_uci(bad)


def test_drop_and_plain_move_differ():
    drop = pychess_rs.Move.from_uci("P@e4")
    plain = pychess_rs.Move(pychess_rs.E4, pychess_rs.E4)
    assert drop != plain
    assert len({drop, plain, pychess_rs.Move.from_uci("N@e4")}) == 3
    assert pychess_rs.Move(pychess_rs.E2, pychess_rs.E4, drop=pychess_rs.PAWN).uci() == "P@e4"


def test_drops_are_never_legal_on_a_standard_board():
    board = pychess_rs.Board()
    for uci in ["P@e4", "N@f3", "K@e4"]:
        drop = pychess_rs.Move.from_uci(uci)
        assert not board.is_legal(drop)
        assert not board.is_pseudo_legal(drop)
        assert drop not in board.legal_moves
        assert drop not in board.pseudo_legal_moves
        with pytest.raises(pychess_rs.IllegalMoveError):
            board.push_uci(uci)
        # Never taken for the null move (its squares are equal), and named as the drop.
        for call in (board.push, board.san, board.san_and_push):
            with pytest.raises(pychess_rs.IllegalMoveError, match=re.escape(repr(uci))):
                call(drop)
    assert board.fen() == pychess_rs.STARTING_FEN
    assert not board.move_stack


@pytest.mark.parametrize(
    ("args", "text", "truth"),
    [
        ((0, 0), "0000", False),
        ((28, 28), "e4e4", True),
        ((0, 0, pychess_rs.QUEEN), "a1a1q", True),
        ((12, 28), "e2e4", True),
    ],
)
def test_move_truth_value_and_text_follow_python_chess(args, text, truth):
    ours = pychess_rs.Move(*args)
    theirs = chess.Move(*args)
    assert theirs.uci() == ours.uci() == text
    assert bool(theirs) is bool(ours) is truth
    assert ours.xboard() == theirs.xboard()


def test_a_move_between_one_square_is_no_null_move_to_a_board():
    board = pychess_rs.Board()
    move = pychess_rs.Move(pychess_rs.E2, pychess_rs.E2)
    assert not board.is_legal(move)
    with pytest.raises(pychess_rs.IllegalMoveError):
        board.push(move)
    assert board.fen() == pychess_rs.STARTING_FEN


def test_null_move_xboard():
    assert pychess_rs.Move.null().xboard() == "@@@@"
    assert not pychess_rs.Move.null()


# --- Piece: hashes ---------------------------------------------------------------------------


def test_piece_hashes_are_python_chess_numbers():
    for symbol in "pnbrqkPNBRQK":
        assert hash(pychess_rs.Piece.from_symbol(symbol)) == hash(chess.Piece.from_symbol(symbol))
    assert len({pychess_rs.Piece.from_symbol(s) for s in "pnbrqkPNBRQK"}) == 12


@pytest.mark.parametrize("symbol", [*"pnbrqkPNBRQK", "\u212a"])
def test_piece_repr_str_and_symbols_match_python_chess(symbol):
    ours = pychess_rs.Piece.from_symbol(symbol)
    theirs = chess.Piece.from_symbol(symbol)
    assert (ours.piece_type, ours.color) == (theirs.piece_type, theirs.color)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
    for invert in (False, True):
        assert ours.unicode_symbol(invert_color=invert) == theirs.unicode_symbol(
            invert_color=invert
        )


# --- SquareSet against python-chess --------------------------------------------------------

masks = st.integers(min_value=0, max_value=chess.BB_ALL)
# Anything python-chess's SquareSet takes: masks (also negative or wider than 64 bits, which
# keep their low 64 bits), lists of squares, other sets.
operands = st.one_of(
    masks,
    st.integers(min_value=-(2**70), max_value=2**70),
    st.lists(st.integers(min_value=-64, max_value=63), max_size=8),
)


@settings(max_examples=300, deadline=None)
@given(a=masks, other=operands)
def test_squareset_operations_match_python_chess(a, other):
    ours, theirs = pychess_rs.SquareSet(a), chess.SquareSet(a)
    for name in ["union", "intersection", "difference", "symmetric_difference"]:
        assert int(getattr(ours, name)(other)) == int(getattr(theirs, name)(other)), name
    for op in ["__or__", "__and__", "__sub__", "__xor__"]:
        assert int(getattr(ours, op)(other)) == int(getattr(theirs, op)(other)), op
    for name in ["isdisjoint", "issubset", "issuperset"]:
        assert getattr(ours, name)(other) == getattr(theirs, name)(other), name
    assert (ours == other) == (theirs == other)
    assert (ours != other) == (theirs != other)
    assert pychess_rs.SquareSet(other) == chess.SquareSet(other).mask
    for name in [
        "update",
        "intersection_update",
        "difference_update",
        "symmetric_difference_update",
    ]:
        mine, ref = ours.copy(), theirs.copy()
        getattr(mine, name)(other)
        getattr(ref, name)(other)
        assert mine.mask == ref.mask, name
    for op in ["__ior__", "__iand__", "__isub__", "__ixor__"]:
        mine, ref = ours.copy(), theirs.copy()
        mine = getattr(mine, op)(other)
        ref = getattr(ref, op)(other)
        assert mine.mask == ref.mask, op
    assert ours.mask == a, "operations left the operand alone"


@settings(max_examples=300, deadline=None)
@given(a=masks, shift=st.integers(min_value=0, max_value=80))
def test_squareset_unary_and_shifts_match_python_chess(a, shift):
    ours, theirs = pychess_rs.SquareSet(a), chess.SquareSet(a)
    assert int(~ours) == int(~theirs)
    assert len(~ours) == len(~theirs)
    assert int(ours << shift) == int(theirs << shift)
    assert int(ours >> shift) == int(theirs >> shift)
    mine, ref = ours.copy(), theirs.copy()
    mine <<= shift
    ref <<= shift
    assert mine.mask == ref.mask
    mine >>= shift // 2
    ref >>= shift // 2
    assert mine.mask == ref.mask
    assert list(ours) == list(theirs)
    assert list(reversed(ours)) == list(reversed(theirs))
    assert len(ours) == len(theirs)
    assert bool(ours) == bool(theirs)
    assert ours.tolist() == theirs.tolist()
    assert int(ours.mirror()) == int(theirs.mirror())
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
    assert hex(ours) == hex(theirs)
    assert [sq in ours for sq in range(-64, 64)] == [sq in theirs for sq in range(-64, 64)]
    if a:
        assert ours.copy().pop() == theirs.copy().pop()


@settings(max_examples=100, deadline=None)
@given(a=st.integers(min_value=0, max_value=chess.BB_ALL).map(lambda m: m & 0x0F0F_0000_0000_00F1))
def test_squareset_carry_rippler_matches_python_chess(a):
    assert list(pychess_rs.SquareSet(a).carry_rippler()) == list(chess.SquareSet(a).carry_rippler())


def test_squareset_mutation_and_errors_like_python_chess():
    for lib in (chess, pychess_rs):
        squares = lib.SquareSet([lib.A1, lib.H8])
        squares.add(lib.C3)
        squares.add(-1)  # python's list index: the last square, H8
        squares.discard(lib.A1)
        squares.remove(lib.C3)
        with pytest.raises(KeyError):
            squares.remove(lib.C3)
        assert squares == [lib.H8]
        assert squares.pop() == lib.H8
        with pytest.raises(KeyError):
            squares.pop()
        with pytest.raises(IndexError):
            squares.add(64)
        with pytest.raises(IndexError):
            _ = 64 in squares
        with pytest.raises(TypeError):
            squares.add("a1")
        with pytest.raises(TypeError):
            hash(squares)
        assert squares != "a1"
        assert squares != None  # noqa: E711  (the NotImplemented path)
        squares.mask = 0b101
        assert list(squares) == [0, 2]
        squares.clear()
        assert squares == 0


def test_squareset_ray_between_from_square_match_python_chess():
    for a in range(64):
        assert pychess_rs.SquareSet.from_square(a) == chess.SquareSet.from_square(a).mask
        for b in range(64):
            assert pychess_rs.SquareSet.ray(a, b) == chess.SquareSet.ray(a, b).mask
            assert pychess_rs.SquareSet.between(a, b) == chess.SquareSet.between(a, b).mask
    assert isinstance(pychess_rs.SquareSet.ray(0, 9), pychess_rs.SquareSet)


@pytest.mark.parametrize("bad", [64, -65, 1000])
def test_off_board_squares_are_index_and_value_errors(bad):
    # python-chess raises IndexError (a list lookup); our other square arguments ValueError.
    for error in (IndexError, ValueError):
        with pytest.raises(error):
            pychess_rs.SquareSet([bad])
        with pytest.raises(error):
            pychess_rs.SquareSet().add(bad)
        with pytest.raises(error):
            _ = bad in pychess_rs.SquareSet()
