"""How a game ended: the ``Termination`` enum and the ``Outcome`` record (pure data).

The rules that decide them, and the result text, live in the Rust core; ``Board.outcome()``
builds these objects.
"""

from __future__ import annotations

import dataclasses
import enum

from ._core import outcome_result


class Termination(enum.Enum):
    """Enum with reasons for a game to be over (python-chess's names and values)."""

    CHECKMATE = 1
    STALEMATE = 2
    INSUFFICIENT_MATERIAL = 3
    SEVENTYFIVE_MOVES = 4
    FIVEFOLD_REPETITION = 5
    FIFTY_MOVES = 6
    THREEFOLD_REPETITION = 7
    VARIANT_WIN = 8
    VARIANT_LOSS = 9
    VARIANT_DRAW = 10


@dataclasses.dataclass
class Outcome:
    """Information about the outcome of an ended game, usually obtained from
    ``Board.outcome()``."""

    termination: Termination
    """The reason for the game to have ended."""

    winner: bool | None
    """The winning color (``True`` for white) or ``None`` if drawn."""

    def result(self) -> str:
        """Returns ``1-0``, ``0-1`` or ``1/2-1/2``."""
        return outcome_result(self.winner)
