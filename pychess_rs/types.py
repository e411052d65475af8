"""Constants and small helpers with python-chess's names: colours, piece types, squares,
bitboards.

Squares are ints (``A1 = 0`` ... ``H8 = 63``), colours are bools (``WHITE = True``), piece
types are ints (``PAWN = 1`` ... ``KING = 6``), bitboards are ints with bit ``i`` for square
``i``, exactly as in python-chess::

    >>> import pychess_rs as chess
    >>> chess.BB_RANK_1 | chess.BB_A8 == chess.SquareSet([chess.A8, *range(8)])
    True
    >>> chess.square_knight_distance(chess.G1, chess.F3)
    1
    >>> list(chess.SquareSet(chess.between(chess.A1, chess.D4))) == [chess.B2, chess.C3]
    True
    >>> hex(chess.flip_vertical(chess.BB_RANK_1)), list(chess.scan_reversed(chess.BB_FILE_A))[:2]
    ('0xff00000000000000', [56, 48])

The geometry (distances, rays, flips, shifts, attack tables) is the Rust core's; the plain
constants and pure-int helpers (``lsb``, ``scan_forward``, ...) are Python, as python-chess's.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Literal, SupportsInt, Union

from ._core import (
    _attack_tables,
    between,
    flip_anti_diagonal,
    flip_diagonal,
    flip_horizontal,
    flip_vertical,
    ray,
    shift_2_down,
    shift_2_left,
    shift_2_right,
    shift_2_up,
    shift_down,
    shift_down_left,
    shift_down_right,
    shift_left,
    shift_right,
    shift_up,
    shift_up_left,
    shift_up_right,
    square_distance,
    square_knight_distance,
    square_manhattan_distance,
)

Color = bool
PieceType = int
Square = int
Bitboard = int
ColorName = Literal["white", "black"]
EnPassantSpec = Literal["legal", "fen", "xfen"]
IntoSquareSet = Union[SupportsInt, Iterable[Square]]

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

(
    BB_A1, BB_B1, BB_C1, BB_D1, BB_E1, BB_F1, BB_G1, BB_H1,
    BB_A2, BB_B2, BB_C2, BB_D2, BB_E2, BB_F2, BB_G2, BB_H2,
    BB_A3, BB_B3, BB_C3, BB_D3, BB_E3, BB_F3, BB_G3, BB_H3,
    BB_A4, BB_B4, BB_C4, BB_D4, BB_E4, BB_F4, BB_G4, BB_H4,
    BB_A5, BB_B5, BB_C5, BB_D5, BB_E5, BB_F5, BB_G5, BB_H5,
    BB_A6, BB_B6, BB_C6, BB_D6, BB_E6, BB_F6, BB_G6, BB_H6,
    BB_A7, BB_B7, BB_C7, BB_D7, BB_E7, BB_F7, BB_G7, BB_H7,
    BB_A8, BB_B8, BB_C8, BB_D8, BB_E8, BB_F8, BB_G8, BB_H8,
) = BB_SQUARES  # fmt: skip

BB_CORNERS: Bitboard = BB_A1 | BB_H1 | BB_A8 | BB_H8
BB_CENTER: Bitboard = BB_D4 | BB_E4 | BB_D5 | BB_E5

BB_LIGHT_SQUARES: Bitboard = 0x55AA_55AA_55AA_55AA
BB_DARK_SQUARES: Bitboard = 0xAA55_AA55_AA55_AA55

BB_FILES: list[Bitboard] = [0x0101_0101_0101_0101 << i for i in range(8)]
BB_FILE_A, BB_FILE_B, BB_FILE_C, BB_FILE_D, BB_FILE_E, BB_FILE_F, BB_FILE_G, BB_FILE_H = BB_FILES
BB_RANKS: list[Bitboard] = [0xFF << (8 * i) for i in range(8)]
BB_RANK_1, BB_RANK_2, BB_RANK_3, BB_RANK_4, BB_RANK_5, BB_RANK_6, BB_RANK_7, BB_RANK_8 = BB_RANKS
BB_BACKRANKS: Bitboard = BB_RANK_1 | BB_RANK_8

# The attack tables come from the Rust core's own tables, in python-chess's shapes: a list
# per square (BB_PAWN_ATTACKS first by colour, BLACK = 0), and for sliders the relevant
# occupancy mask per square plus a dict from each subset of it to the attacked squares.
_tables = _attack_tables()
BB_KNIGHT_ATTACKS: list[Bitboard] = _tables["BB_KNIGHT_ATTACKS"]
BB_KING_ATTACKS: list[Bitboard] = _tables["BB_KING_ATTACKS"]
BB_PAWN_ATTACKS: list[list[Bitboard]] = _tables["BB_PAWN_ATTACKS"]
BB_DIAG_MASKS: list[Bitboard] = _tables["BB_DIAG_MASKS"]
BB_DIAG_ATTACKS: list[dict[Bitboard, Bitboard]] = _tables["BB_DIAG_ATTACKS"]
BB_FILE_MASKS: list[Bitboard] = _tables["BB_FILE_MASKS"]
BB_FILE_ATTACKS: list[dict[Bitboard, Bitboard]] = _tables["BB_FILE_ATTACKS"]
BB_RANK_MASKS: list[Bitboard] = _tables["BB_RANK_MASKS"]
BB_RANK_ATTACKS: list[dict[Bitboard, Bitboard]] = _tables["BB_RANK_ATTACKS"]
BB_RAYS: list[list[Bitboard]] = _tables["BB_RAYS"]
del _tables

SAN_REGEX = re.compile(r"^([NBKRQ])?([a-h])?([1-8])?[\-x]?([a-h][1-8])(=?[nbrqkNBRQK])?[\+#]?\Z")
FEN_CASTLING_REGEX = re.compile(r"^(?:-|[KQABCDEFGH]{0,2}[kqabcdefgh]{0,2})\Z")


def lsb(bb: Bitboard) -> int:
    """The index of the lowest set bit (-1 for 0)."""
    return (bb & -bb).bit_length() - 1


def msb(bb: Bitboard) -> int:
    """The index of the highest set bit (-1 for 0)."""
    return bb.bit_length() - 1


def scan_forward(bb: Bitboard) -> Iterator[Square]:
    """The squares of a mask, lowest first."""
    while bb:
        lowest = bb & -bb
        yield lowest.bit_length() - 1
        bb ^= lowest


def scan_reversed(bb: Bitboard) -> Iterator[Square]:
    """The squares of a mask, highest first."""
    while bb:
        highest = bb.bit_length() - 1
        yield highest
        bb ^= 1 << highest


def _popcount(bb: Bitboard) -> int:
    return bin(bb).count("1")


# How many bits are set (of the absolute value, as int.bit_count counts); the C version where
# Python has it.
popcount: Callable[[Bitboard], int] = int.bit_count if sys.version_info >= (3, 10) else _popcount


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
    "square_distance",
    "square_file",
    "square_manhattan_distance",
    "square_mirror",
    "square_name",
    "square_rank",
]

# The bitboard constants, tables and helpers (their own list, kept apart from the one above).
__all__ += [
    "BB_A1",
    "BB_A2",
    "BB_A3",
    "BB_A4",
    "BB_A5",
    "BB_A6",
    "BB_A7",
    "BB_A8",
    "BB_B1",
    "BB_B2",
    "BB_B3",
    "BB_B4",
    "BB_B5",
    "BB_B6",
    "BB_B7",
    "BB_B8",
    "BB_C1",
    "BB_C2",
    "BB_C3",
    "BB_C4",
    "BB_C5",
    "BB_C6",
    "BB_C7",
    "BB_C8",
    "BB_CENTER",
    "BB_CORNERS",
    "BB_D1",
    "BB_D2",
    "BB_D3",
    "BB_D4",
    "BB_D5",
    "BB_D6",
    "BB_D7",
    "BB_D8",
    "BB_DIAG_ATTACKS",
    "BB_DIAG_MASKS",
    "BB_E1",
    "BB_E2",
    "BB_E3",
    "BB_E4",
    "BB_E5",
    "BB_E6",
    "BB_E7",
    "BB_E8",
    "BB_F1",
    "BB_F2",
    "BB_F3",
    "BB_F4",
    "BB_F5",
    "BB_F6",
    "BB_F7",
    "BB_F8",
    "BB_FILE_A",
    "BB_FILE_ATTACKS",
    "BB_FILE_B",
    "BB_FILE_C",
    "BB_FILE_D",
    "BB_FILE_E",
    "BB_FILE_F",
    "BB_FILE_G",
    "BB_FILE_H",
    "BB_FILE_MASKS",
    "BB_G1",
    "BB_G2",
    "BB_G3",
    "BB_G4",
    "BB_G5",
    "BB_G6",
    "BB_G7",
    "BB_G8",
    "BB_H1",
    "BB_H2",
    "BB_H3",
    "BB_H4",
    "BB_H5",
    "BB_H6",
    "BB_H7",
    "BB_H8",
    "BB_KING_ATTACKS",
    "BB_KNIGHT_ATTACKS",
    "BB_PAWN_ATTACKS",
    "BB_RANK_1",
    "BB_RANK_2",
    "BB_RANK_3",
    "BB_RANK_4",
    "BB_RANK_5",
    "BB_RANK_6",
    "BB_RANK_7",
    "BB_RANK_8",
    "BB_RANK_ATTACKS",
    "BB_RANK_MASKS",
    "BB_RAYS",
    "FEN_CASTLING_REGEX",
    "SAN_REGEX",
    "ColorName",
    "EnPassantSpec",
    "IntoSquareSet",
    "between",
    "flip_anti_diagonal",
    "flip_diagonal",
    "flip_horizontal",
    "flip_vertical",
    "lsb",
    "msb",
    "popcount",
    "ray",
    "scan_forward",
    "scan_reversed",
    "shift_2_down",
    "shift_2_left",
    "shift_2_right",
    "shift_2_up",
    "shift_down",
    "shift_down_left",
    "shift_down_right",
    "shift_left",
    "shift_right",
    "shift_up",
    "shift_up_left",
    "shift_up_right",
    "square_knight_distance",
]
