"""Opening positions for matches: one FEN or EPD a line.

Blank lines and lines starting with ``#`` are skipped. A line is a full FEN (6 fields, any
text after them ignored) or an EPD line (4 fields, then operations such as ``bm``/``id``,
which are ignored). Castling rights may be standard (``KQkq``) or Shredder/X-FEN (``HAha``):
a position whose castling rights are only expressible in Chess960 is played as Chess960.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import chess


@dataclass(frozen=True)
class Opening:
    """One opening position; ``index`` is its 1-based line number in the file."""

    index: int
    fen: str
    chess960: bool

    def board(self) -> chess.Board:
        return chess.Board(self.fen, chess960=self.chess960)


def parse_opening(text: str, index: int = 0, force_chess960: bool = False) -> Opening:
    """Parse one FEN/EPD line; ValueError if it is not a playable position."""
    fields = text.split()
    if len(fields) < 4:
        raise ValueError("too few fields for a FEN or EPD")
    try:
        if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
            board = chess.Board(" ".join(fields[:6]), chess960=True)
        else:
            board, _ops = chess.Board.from_epd(text, chess960=True)
    except ValueError as err:
        raise ValueError(f"not a valid FEN/EPD: {err}") from None
    status = board.status()
    if status != chess.STATUS_VALID:
        raise ValueError(f"not a legal position ({status!r})")
    chess960 = force_chess960 or board.has_chess960_castling_rights()
    board.chess960 = chess960
    if board.is_game_over(claim_draw=False):
        raise ValueError("the game is already over in this position")
    return Opening(index, board.fen(shredder=chess960), chess960)


def parse_openings(lines: Iterable[str], force_chess960: bool = False) -> list[Opening]:
    """Parse every position of an opening file; ValueError names the first bad line."""
    openings = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            openings.append(parse_opening(line, number, force_chess960))
        except ValueError as err:
            raise ValueError(f"line {number}: {err}: {line!r}") from None
    if not openings:
        raise ValueError("no opening positions")
    return openings


def load_openings(path: str | Path, force_chess960: bool = False) -> list[Opening]:
    """Read an opening file (see the module docstring)."""
    with open(path, encoding="utf-8") as f:
        try:
            return parse_openings(f, force_chess960)
        except ValueError as err:
            raise ValueError(f"{path}: {err}") from None


def opening_order(count: int, rounds: int, shuffle: bool, seed: int | None) -> list[int]:
    """Indices into the opening list for ``rounds`` game pairs.

    Sequential: 0, 1, 2, ... wrapping around. Shuffled: a fixed permutation from ``seed``,
    also wrapping, so no opening repeats before all have been played.
    """
    order = list(range(count))
    if shuffle:
        random.Random(seed).shuffle(order)
    return [order[r % count] for r in range(rounds)]
