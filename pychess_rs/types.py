"""Constants and small helpers with python-chess's names: colours, piece types, squares.

Squares are ints (``A1 = 0`` ... ``H8 = 63``), colours are bools (``WHITE = True``), piece
types are ints (``PAWN = 1`` ... ``KING = 6``), exactly as in python-chess.
"""

from __future__ import annotations

import enum

Color = bool
PieceType = int
Square = int
Bitboard = int

WHITE: Color = True
BLACK: Color = False
COLORS: list[Color] = [WHITE, BLACK]
COLOR_NAMES: list[str] = ["black", "white"]

PAWN: PieceType = 1
KNIGHT: PieceType = 2
BISHOP: PieceType = 3
ROOK: PieceType = 4
QUEEN: PieceType = 5
KING: PieceType = 6
PIECE_TYPES: list[PieceType] = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING]
PIECE_SYMBOLS: list[str | None] = [None, "p", "n", "b", "r", "q", "k"]
PIECE_NAMES: list[str | None] = [None, "pawn", "knight", "bishop", "rook", "queen", "king"]
UNICODE_PIECE_SYMBOLS: dict[str, str] = {
    "R": "♖", "r": "♜", "N": "♘", "n": "♞", "B": "♗", "b": "♝",
    "Q": "♕", "q": "♛", "K": "♔", "k": "♚", "P": "♙", "p": "♟",
}  # fmt: skip

FILE_NAMES: list[str] = ["a", "b", "c", "d", "e", "f", "g", "h"]
RANK_NAMES: list[str] = ["1", "2", "3", "4", "5", "6", "7", "8"]

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
STARTING_BOARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

SQUARES: list[Square] = list(range(64))
SQUARE_NAMES: list[str] = [f + r for r in RANK_NAMES for f in FILE_NAMES]
SQUARES_180: list[Square] = [sq ^ 0x38 for sq in SQUARES]

(
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
) = SQUARES  # fmt: skip

BB_EMPTY: Bitboard = 0
BB_ALL: Bitboard = 0xFFFF_FFFF_FFFF_FFFF
BB_SQUARES: list[Bitboard] = [1 << sq for sq in SQUARES]
BB_LIGHT_SQUARES: Bitboard = 0x55AA_55AA_55AA_55AA
BB_DARK_SQUARES: Bitboard = 0xAA55_AA55_AA55_AA55
BB_FILES: list[Bitboard] = [0x0101_0101_0101_0101 << i for i in range(8)]
BB_RANKS: list[Bitboard] = [0xFF << (8 * i) for i in range(8)]
BB_BACKRANKS: Bitboard = BB_RANKS[0] | BB_RANKS[7]


def piece_symbol(piece_type: PieceType) -> str:
    """The lowercase letter of a piece type."""
    return PIECE_SYMBOLS[piece_type]  # type: ignore[return-value]


def piece_name(piece_type: PieceType) -> str:
    """The English name of a piece type."""
    return PIECE_NAMES[piece_type]  # type: ignore[return-value]


def square(file_index: int, rank_index: int) -> Square:
    """The square on ``file_index`` (0 = a) and ``rank_index`` (0 = first rank)."""
    return rank_index * 8 + file_index


def square_file(square: Square) -> int:
    """The file index (0 = a) of a square."""
    return square & 7


def square_rank(square: Square) -> int:
    """The rank index (0 = first rank) of a square."""
    return square >> 3


def square_name(square: Square) -> str:
    """The name of a square, like ``e4``."""
    return SQUARE_NAMES[square]


def parse_square(name: str) -> Square:
    """The square for a name like ``e4``.

    :raises: :exc:`ValueError` if the name is not a square.
    """
    return SQUARE_NAMES.index(name)


def square_mirror(square: Square) -> Square:
    """The square with its rank mirrored (a1 <-> a8)."""
    return square ^ 0x38


__all__ = [
    "A1",
    "A2",
    "A3",
    "A4",
    "A5",
    "A6",
    "A7",
    "A8",
    "B1",
    "B2",
    "B3",
    "B4",
    "B5",
    "B6",
    "B7",
    "B8",
    "BB_ALL",
    "BB_BACKRANKS",
    "BB_DARK_SQUARES",
    "BB_EMPTY",
    "BB_FILES",
    "BB_LIGHT_SQUARES",
    "BB_RANKS",
    "BB_SQUARES",
    "BISHOP",
    "BLACK",
    "C1",
    "C2",
    "C3",
    "C4",
    "C5",
    "C6",
    "C7",
    "C8",
    "COLORS",
    "COLOR_NAMES",
    "D1",
    "D2",
    "D3",
    "D4",
    "D5",
    "D6",
    "D7",
    "D8",
    "E1",
    "E2",
    "E3",
    "E4",
    "E5",
    "E6",
    "E7",
    "E8",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "FILE_NAMES",
    "G1",
    "G2",
    "G3",
    "G4",
    "G5",
    "G6",
    "G7",
    "G8",
    "H1",
    "H2",
    "H3",
    "H4",
    "H5",
    "H6",
    "H7",
    "H8",
    "KING",
    "KNIGHT",
    "PAWN",
    "PIECE_NAMES",
    "PIECE_SYMBOLS",
    "PIECE_TYPES",
    "QUEEN",
    "RANK_NAMES",
    "ROOK",
    "SQUARES",
    "SQUARES_180",
    "SQUARE_NAMES",
    "STARTING_BOARD_FEN",
    "STARTING_FEN",
    "UNICODE_PIECE_SYMBOLS",
    "WHITE",
    "Bitboard",
    "Color",
    "PieceType",
    "Square",
    "parse_square",
    "piece_name",
    "piece_symbol",
    "square",
    "square_file",
    "square_mirror",
    "square_name",
    "square_rank",
]


class Status(enum.IntFlag):
    """What is wrong with a position (``Board.status()``), python-chess's flags."""

    VALID = 0
    NO_WHITE_KING = 1 << 0
    NO_BLACK_KING = 1 << 1
    TOO_MANY_KINGS = 1 << 2
    TOO_MANY_WHITE_PAWNS = 1 << 3
    TOO_MANY_BLACK_PAWNS = 1 << 4
    PAWNS_ON_BACKRANK = 1 << 5
    TOO_MANY_WHITE_PIECES = 1 << 6
    TOO_MANY_BLACK_PIECES = 1 << 7
    BAD_CASTLING_RIGHTS = 1 << 8
    INVALID_EP_SQUARE = 1 << 9
    OPPOSITE_CHECK = 1 << 10
    EMPTY = 1 << 11
    RACE_CHECK = 1 << 12
    RACE_OVER = 1 << 13
    RACE_MATERIAL = 1 << 14
    TOO_MANY_CHECKERS = 1 << 15
    IMPOSSIBLE_CHECK = 1 << 16


STATUS_VALID = Status.VALID
STATUS_NO_WHITE_KING = Status.NO_WHITE_KING
STATUS_NO_BLACK_KING = Status.NO_BLACK_KING
STATUS_TOO_MANY_KINGS = Status.TOO_MANY_KINGS
STATUS_TOO_MANY_WHITE_PAWNS = Status.TOO_MANY_WHITE_PAWNS
STATUS_TOO_MANY_BLACK_PAWNS = Status.TOO_MANY_BLACK_PAWNS
STATUS_PAWNS_ON_BACKRANK = Status.PAWNS_ON_BACKRANK
STATUS_TOO_MANY_WHITE_PIECES = Status.TOO_MANY_WHITE_PIECES
STATUS_TOO_MANY_BLACK_PIECES = Status.TOO_MANY_BLACK_PIECES
STATUS_BAD_CASTLING_RIGHTS = Status.BAD_CASTLING_RIGHTS
STATUS_INVALID_EP_SQUARE = Status.INVALID_EP_SQUARE
STATUS_OPPOSITE_CHECK = Status.OPPOSITE_CHECK
STATUS_EMPTY = Status.EMPTY
STATUS_RACE_CHECK = Status.RACE_CHECK
STATUS_RACE_OVER = Status.RACE_OVER
STATUS_RACE_MATERIAL = Status.RACE_MATERIAL
STATUS_TOO_MANY_CHECKERS = Status.TOO_MANY_CHECKERS
STATUS_IMPOSSIBLE_CHECK = Status.IMPOSSIBLE_CHECK

__all__ += [
    "STATUS_BAD_CASTLING_RIGHTS",
    "STATUS_EMPTY",
    "STATUS_IMPOSSIBLE_CHECK",
    "STATUS_INVALID_EP_SQUARE",
    "STATUS_NO_BLACK_KING",
    "STATUS_NO_WHITE_KING",
    "STATUS_OPPOSITE_CHECK",
    "STATUS_PAWNS_ON_BACKRANK",
    "STATUS_RACE_CHECK",
    "STATUS_RACE_MATERIAL",
    "STATUS_RACE_OVER",
    "STATUS_TOO_MANY_BLACK_PAWNS",
    "STATUS_TOO_MANY_BLACK_PIECES",
    "STATUS_TOO_MANY_CHECKERS",
    "STATUS_TOO_MANY_KINGS",
    "STATUS_TOO_MANY_WHITE_PAWNS",
    "STATUS_TOO_MANY_WHITE_PIECES",
    "STATUS_VALID",
    "Status",
]
