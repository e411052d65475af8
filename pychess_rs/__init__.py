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
from .engine import (
    Cp,
    Engine,
    EngineOptionError,
    InfoDict,
    Limit,
    LimitError,
    Mate,
    MateGiven,
    PlayResult,
    PovScore,
    Score,
)
from .outcome import Outcome, Termination
from .types import *  # noqa: F403  (python-chess's flat namespace of constants)
from .types import __all__ as _types_all

__all__ = [
    "AmbiguousMoveError",
    "Board",
    "Cp",
    "Engine",
    "EngineOptionError",
    "IllegalMoveError",
    "InfoDict",
    "InvalidFenError",
    "InvalidMoveError",
    "LegalMoveGenerator",
    "Limit",
    "LimitError",
    "Mate",
    "MateGiven",
    "Move",
    "Outcome",
    "Piece",
    "PlayResult",
    "PovScore",
    "PseudoLegalMoveGenerator",
    "Score",
    "SquareSet",
    "Termination",
    "__version__",
    *_types_all,
]
