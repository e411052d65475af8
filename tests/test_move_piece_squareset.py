"""Move, Piece, SquareSet and the square/colour/piece constants and helpers."""

from __future__ import annotations

import chess
import pytest

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
