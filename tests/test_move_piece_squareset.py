"""Move, Piece, SquareSet and the square/colour/piece constants and helpers."""

from __future__ import annotations

import chess as pychess_oracle
import pytest

import pychess_rs as chess

# --- Move ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("uci", "from_square", "to_square", "promotion"),
    [
        ("e2e4", chess.E2, chess.E4, None),
        ("g1f3", chess.G1, chess.F3, None),
        ("a1h8", chess.A1, chess.H8, None),
        ("h8a1", chess.H8, chess.A1, None),
        ("e7e8q", chess.E7, chess.E8, chess.QUEEN),
        ("b7a8r", chess.B7, chess.A8, chess.ROOK),
        ("c2c1b", chess.C2, chess.C1, chess.BISHOP),
        ("h2g1n", chess.H2, chess.G1, chess.KNIGHT),
        # UCI for castling is king-to-destination in standard chess, king-takes-rook in 960.
        ("e1g1", chess.E1, chess.G1, None),
        ("e1h1", chess.E1, chess.H1, None),
    ],
)
def test_move_from_uci_fields_and_round_trip(uci, from_square, to_square, promotion):
    move = chess.Move.from_uci(uci)
    assert move.from_square == from_square
    assert move.to_square == to_square
    assert move.promotion == promotion
    assert move.uci() == uci
    assert str(move) == uci
    assert move == chess.Move(from_square, to_square, promotion=promotion)
    assert move == chess.Move(from_square, to_square, promotion)


@pytest.mark.parametrize(
    "bad",
    ["", "e2", "e2e", "E2E4", "e2e9", "i2e4", "e2e4x", "e7e8Q", "e2 e4", "e2e4qq", "e2e2", "-"],
)
def test_move_from_uci_rejects_malformed(bad):
    with pytest.raises(chess.InvalidMoveError):
        chess.Move.from_uci(bad)
    with pytest.raises(ValueError):
        chess.Move.from_uci(bad)


def test_move_null():
    null = chess.Move.null()
    assert null.uci() == "0000"
    assert str(null) == "0000"
    assert not null
    assert bool(chess.Move.from_uci("e2e4"))
    assert chess.Move.from_uci("0000") == null
    assert null.from_square == null.to_square == chess.A1
    assert null.promotion is None


def test_move_equality_and_hash():
    a = chess.Move.from_uci("e7e8q")
    b = chess.Move(chess.E7, chess.E8, promotion=chess.QUEEN)
    assert a == b
    assert not (a != b)
    assert hash(a) == hash(b)
    assert a != chess.Move.from_uci("e7e8n")
    assert a != chess.Move.from_uci("e7e8")
    assert chess.Move.from_uci("e2e4") != chess.Move.from_uci("e4e2")
    assert chess.Move.from_uci("e2e4") != "e2e4"
    moves = {chess.Move.from_uci(u) for u in ["e2e4", "e2e4", "d2d4", "e7e8q", "e7e8r"]}
    assert len(moves) == 4
    assert chess.Move.from_uci("d2d4") in moves
    assert {chess.Move.from_uci("g1f3"): 1}[chess.Move(chess.G1, chess.F3)] == 1


def test_move_repr_names_the_move():
    assert "e2e4" in repr(chess.Move.from_uci("e2e4"))


@pytest.mark.parametrize("uci", ["e2e4", "a7a8q", "0000", "h2g1n"])
def test_move_agrees_with_python_chess(uci):
    ours = chess.Move.from_uci(uci)
    theirs = pychess_oracle.Move.from_uci(uci)
    assert (ours.from_square, ours.to_square, ours.promotion) == (
        theirs.from_square,
        theirs.to_square,
        theirs.promotion,
    )
    assert bool(ours) == bool(theirs)


# --- Piece --------------------------------------------------------------------------------

PIECE_TABLE = [
    ("P", chess.PAWN, chess.WHITE, "♙"),
    ("N", chess.KNIGHT, chess.WHITE, "♘"),
    ("B", chess.BISHOP, chess.WHITE, "♗"),
    ("R", chess.ROOK, chess.WHITE, "♖"),
    ("Q", chess.QUEEN, chess.WHITE, "♕"),
    ("K", chess.KING, chess.WHITE, "♔"),
    ("p", chess.PAWN, chess.BLACK, "♟"),
    ("n", chess.KNIGHT, chess.BLACK, "♞"),
    ("b", chess.BISHOP, chess.BLACK, "♝"),
    ("r", chess.ROOK, chess.BLACK, "♜"),
    ("q", chess.QUEEN, chess.BLACK, "♛"),
    ("k", chess.KING, chess.BLACK, "♚"),
]


@pytest.mark.parametrize(("symbol", "piece_type", "color", "uni"), PIECE_TABLE)
def test_piece_from_symbol(symbol, piece_type, color, uni):
    piece = chess.Piece.from_symbol(symbol)
    assert piece.piece_type == piece_type
    assert piece.color == color
    assert piece.symbol() == symbol
    assert str(piece) == symbol
    assert piece.unicode_symbol() == uni
    assert piece == chess.Piece(piece_type, color)
    assert hash(piece) == hash(chess.Piece(piece_type, color))


def test_piece_unicode_invert_color():
    assert chess.Piece.from_symbol("K").unicode_symbol(invert_color=True) == "♚"
    assert chess.Piece.from_symbol("k").unicode_symbol(invert_color=True) == "♔"


def test_piece_equality():
    assert chess.Piece.from_symbol("Q") != chess.Piece.from_symbol("q")
    assert chess.Piece.from_symbol("Q") != chess.Piece.from_symbol("K")
    assert len({chess.Piece.from_symbol(s) for s in "PPpNnn"}) == 4


@pytest.mark.parametrize("bad", ["x", "", "QQ", "1"])
def test_piece_from_symbol_rejects_garbage(bad):
    with pytest.raises(ValueError):
        chess.Piece.from_symbol(bad)


# --- SquareSet ----------------------------------------------------------------------------


def test_squareset_behaves_like_a_set_of_squares():
    board = chess.Board()
    attackers = board.attackers(chess.WHITE, chess.F3)
    # g1 knight, e2 and g2 pawns defend f3 in the initial position.
    expected = {chess.E2, chess.G2, chess.G1}
    assert set(attackers) == expected
    assert len(attackers) == 3
    assert chess.G1 in attackers
    assert chess.F2 not in attackers
    assert bool(attackers)
    assert attackers == (1 << chess.E2) | (1 << chess.G2) | (1 << chess.G1)
    assert int(attackers) == 0x5040
    assert sorted(attackers) == [chess.G1, chess.E2, chess.G2]
    assert list(attackers) == sorted(attackers), "squares iterate in ascending order"


def test_empty_squareset():
    empty = chess.Board().attackers(chess.BLACK, chess.E4)
    assert not empty
    assert len(empty) == 0
    assert list(empty) == []
    assert empty == 0


def test_squareset_matches_python_chess():
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    ours, theirs = chess.Board(fen), pychess_oracle.Board(fen)
    for color in (chess.WHITE, chess.BLACK):
        for sq in range(64):
            assert int(ours.attackers(color, sq)) == int(theirs.attackers(color, sq))


# --- constants and helpers ----------------------------------------------------------------


def test_colour_and_piece_type_constants():
    assert chess.WHITE is True
    assert chess.BLACK is False
    assert (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING) == (
        1,
        2,
        3,
        4,
        5,
        6,
    )
    assert list(chess.PIECE_TYPES) == [1, 2, 3, 4, 5, 6]
    assert list(chess.COLORS) == [True, False]


def test_square_constants():
    assert chess.A1 == 0
    assert chess.H1 == 7
    assert chess.A2 == 8
    assert chess.E4 == 28
    assert chess.H8 == 63
    assert list(chess.SQUARES) == list(range(64))
    assert len(chess.SQUARE_NAMES) == 64
    assert chess.SQUARE_NAMES[0] == "a1"
    assert chess.SQUARE_NAMES[63] == "h8"
    assert list(chess.SQUARE_NAMES) == list(pychess_oracle.SQUARE_NAMES)
    for name in chess.SQUARE_NAMES:
        assert getattr(chess, name.upper()) == chess.SQUARE_NAMES.index(name)


def test_starting_fen():
    assert chess.STARTING_FEN == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert chess.STARTING_BOARD_FEN == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


@pytest.mark.parametrize("sq", range(64))
def test_square_helpers(sq):
    name = "abcdefgh"[sq % 8] + "12345678"[sq // 8]
    assert chess.square_name(sq) == name
    assert chess.parse_square(name) == sq
    assert chess.square_file(sq) == sq % 8
    assert chess.square_rank(sq) == sq // 8
    assert chess.square(sq % 8, sq // 8) == sq


@pytest.mark.parametrize("bad", ["", "z9", "e0", "E4", "e44", "i1"])
def test_parse_square_rejects_garbage(bad):
    with pytest.raises(ValueError):
        chess.parse_square(bad)
