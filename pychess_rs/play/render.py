"""What the players see: the board diagram and the status line.

Two looks from one layout. With colour (a terminal that is not ``TERM=dumb``, no
``NO_COLOR``), squares are light and dark and highlights are backgrounds. Without colour (a
pipe, ``--no-color``), every highlight is a pair of marker characters around the piece, so
a transcript shows the same information::

      a  b  c  d  e  f  g  h
    8 r  n  b  q  k  b  n  r  8
    ...
    2 P  P  P  P  .  P  P  P  2
    1 R  N  B  Q  K  B  N  R  1

``[ ]`` last move, ``( )`` the piece asked about, `` * `` a square it reaches, ``< >`` a
capture, ``! !`` a king in check.
"""

from __future__ import annotations

import dataclasses
import os
from typing import TextIO

from .._core import Board, Move
from ..types import (
    BISHOP,
    FILE_NAMES,
    KNIGHT,
    PAWN,
    QUEEN,
    RANK_NAMES,
    ROOK,
    Color,
    Square,
    square,
)

__all__ = [
    "Marks",
    "Style",
    "detect_style",
    "diagram",
    "landing_square",
    "material_balance",
    "status_line",
]

_VALUES = {PAWN: 1, KNIGHT: 3, BISHOP: 3, ROOK: 5, QUEEN: 9}

# 256-colour backgrounds: board, last move, check, reachable, capture, selected piece.
_LIGHT, _DARK = 223, 137
_LAST_LIGHT, _LAST_DARK = 187, 143
_CHECK, _TARGET, _CAPTURE, _SELECTED = 167, 114, 209, 75
_WHITE_FG, _BLACK_FG = "\x1b[1;38;5;231m", "\x1b[38;5;16m"
_RESET = "\x1b[0m"
# Filled glyphs for both sides when colour tells them apart: the outlined "white" glyphs
# look like black pieces on a dark terminal.
_SOLID = {"p": "♟", "n": "♞", "b": "♝", "r": "♜", "q": "♛", "k": "♚"}
_UNICODE = {
    "P": "♙", "N": "♘", "B": "♗", "R": "♖", "Q": "♕", "K": "♔",
    "p": "♟", "n": "♞", "b": "♝", "r": "♜", "q": "♛", "k": "♚",
}  # fmt: skip


def landing_square(board: Board, move: Move) -> Square:
    """Where ``move`` (of the position on ``board``) is shown to land: its destination, or
    for castling the king's landing square on the g- or c-file, however the move spells
    castling (``e1g1``, or king takes rook in Chess960). The rule is the core's."""
    target = board._castling_king_target(move)
    return move.to_square if target is None else target


@dataclasses.dataclass(frozen=True)
class Style:
    """How to draw: Unicode pieces or letters, ANSI colours or marker characters."""

    unicode: bool
    color: bool


def detect_style(stream: TextIO, *, ascii_only: bool = False, no_color: bool = False) -> Style:
    """The richest style ``stream`` can show: colour only on a terminal without
    ``NO_COLOR`` or ``TERM=dumb``; Unicode unless asked not to or the encoding lacks it."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    color = (
        tty
        and not no_color
        and "NO_COLOR" not in os.environ
        and os.environ.get("TERM", "") != "dumb"
    )
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♚·".encode(encoding)
        encodable = True
    except (LookupError, UnicodeEncodeError):
        encodable = False
    return Style(unicode=encodable and not ascii_only, color=color)


@dataclasses.dataclass(frozen=True)
class Marks:
    """Squares to highlight."""

    last_move: Move | None = None
    check: Square | None = None
    selected: Square | None = None
    targets: frozenset[Square] = frozenset()
    captures: frozenset[Square] = frozenset()


def _glyph(symbol: str | None, style: Style) -> str:
    if symbol is None:
        if style.color:
            return " "
        return "·" if style.unicode else "."
    if not style.unicode:
        return symbol
    if style.color:
        return _SOLID[symbol.lower()]
    return _UNICODE[symbol]


def _cell(board: Board, sq: Square, style: Style, marks: Marks) -> str:
    piece = board.piece_at(sq)
    dark = (sq // 8 + sq % 8) % 2 == 0
    glyph = _glyph(piece.symbol() if piece else None, style)
    last = marks.last_move is not None and sq in (
        marks.last_move.from_square,
        marks.last_move.to_square,
    )
    if style.color:
        if sq == marks.check:
            background = _CHECK
        elif sq == marks.selected:
            background = _SELECTED
        elif sq in marks.captures:
            background = _CAPTURE
        elif sq in marks.targets:
            background = _TARGET
        elif last:
            background = _LAST_DARK if dark else _LAST_LIGHT
        else:
            background = _DARK if dark else _LIGHT
        if piece is None and sq in marks.targets:
            glyph = "•" if style.unicode else "*"
        foreground = _WHITE_FG if piece is not None and piece.color else _BLACK_FG
        return f"\x1b[48;5;{background}m{foreground} {glyph} {_RESET}"
    if sq == marks.check:
        return f"!{glyph}!"
    if sq == marks.selected:
        return f"({glyph})"
    if sq in marks.captures:
        return f"<{glyph}>"
    if sq in marks.targets:
        return " * "
    if last:
        return f"[{glyph}]"
    return f" {glyph} "


def diagram(board: Board, style: Style, *, white_at_bottom: bool = True, marks: Marks) -> str:
    """The board with files and ranks on all four edges, from White's side unless
    ``white_at_bottom`` is false."""
    files = range(8) if white_at_bottom else range(7, -1, -1)
    ranks = range(7, -1, -1) if white_at_bottom else range(8)
    edge = ("  " + "".join(f" {FILE_NAMES[f]} " for f in files)).rstrip()
    lines = [edge]
    for rank in ranks:
        row = "".join(_cell(board, square(f, rank), style, marks) for f in files)
        lines.append(f"{RANK_NAMES[rank]} {row} {RANK_NAMES[rank]}")
    lines.append(edge)
    if not style.color:
        legend = _legend(board, marks)
        if legend:
            lines.append("  " + legend)
    return "\n".join(lines)


def _legend(board: Board, marks: Marks) -> str:
    parts = []
    if marks.last_move is not None:
        parts.append("[ ] last move")
    if marks.selected is not None:
        parts.append("( ) selected")
    if marks.targets - marks.captures:
        parts.append("* can go")
    if marks.captures:
        parts.append("< > can capture")
    if marks.check is not None:
        parts.append("! ! in check")
    return "   ".join(parts)


def material_balance(board: Board) -> int:
    """White's material minus Black's, in pawns (N=B=3, R=5, Q=9)."""
    return sum(
        value * (len(board.pieces(piece, True)) - len(board.pieces(piece, False)))
        for piece, value in _VALUES.items()
    )


def _side(color: Color) -> str:
    return "White" if color else "Black"


def status_line(board: Board) -> str:
    """Move number, whose move, material, the halfmove clock once it nears the 50-move
    rule, and "Check!"."""
    parts = [f"Move {board.fullmove_number}", f"{_side(board.turn)} to move"]
    balance = material_balance(board)
    if balance == 0:
        parts.append("material even")
    else:
        parts.append(f"material {_side(balance > 0)} +{abs(balance)}")
    if board.halfmove_clock >= 20:
        parts.append(f"halfmove clock {board.halfmove_clock} (a draw may be claimed at 100)")
    text = ", ".join(parts)
    if board.is_check():
        text += ". Check!"
    return text
