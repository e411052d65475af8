"""Squares as sets and the board's geometry, with python-chess's names: the ``BB_*`` bitboard
constants and attack tables, square distances, rays, flips and shifts; also the rest of
python-chess's flat namespace (the SAN and FEN-castling regexes, its typing aliases).
``pychess_rs`` re-exports all of it, next to :mod:`pychess_rs.types`.

Bitboards are ints with bit ``i`` for square ``i``, exactly as in python-chess::

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
from .types import BB_FILES, BB_RANKS, BB_SQUARES, Bitboard, Square

ColorName = Literal["white", "black"]
EnPassantSpec = Literal["legal", "fen", "xfen"]
IntoSquareSet = Union[SupportsInt, Iterable[Square]]

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

BB_FILE_A, BB_FILE_B, BB_FILE_C, BB_FILE_D, BB_FILE_E, BB_FILE_F, BB_FILE_G, BB_FILE_H = BB_FILES
BB_RANK_1, BB_RANK_2, BB_RANK_3, BB_RANK_4, BB_RANK_5, BB_RANK_6, BB_RANK_7, BB_RANK_8 = BB_RANKS

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

__all__ = [
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
    "square_distance",
    "square_knight_distance",
    "square_manhattan_distance",
]
