"""pychess-rs: fast, correct chess for Python.

A Rust rules core behind a python-chess-shaped API::

    >>> import pychess_rs as chess
    >>> board = chess.Board()
    >>> board.push_san("e4")
    Move.from_uci('e2e4')
    >>> board.legal_moves.count()
    20
"""

from __future__ import annotations

from ._core import (
    AmbiguousMoveError,
    Board,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    LegalMoveGenerator,
    Move,
    Piece,
    PseudoLegalMoveGenerator,
    SquareSet,
    __version__,
)
from .outcome import Outcome, Termination
from .types import *  # noqa: F403  (python-chess's flat namespace of constants)
from .types import __all__ as _types_all

__all__ = [
    "AmbiguousMoveError",
    "Board",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "LegalMoveGenerator",
    "Move",
    "Outcome",
    "Piece",
    "PseudoLegalMoveGenerator",
    "SquareSet",
    "Termination",
    "__version__",
    *_types_all,
]
