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

import os as _os

try:
    from ._core import (
        AmbiguousMoveError,
        Board,
        IllegalMoveError,
        InvalidFenError,
        InvalidMoveError,
        LegalMoveGenerator,
        Move,
        Piece,
        Position,
        PseudoLegalMoveGenerator,
        SquareSet,
        __version__,
    )
except ModuleNotFoundError as _error:
    # Only the compiled core itself being absent gets the explanation; anything missing inside
    # it (a broken install) keeps its own message.
    if _error.name != f"{__name__}._core":
        raise
    _here = _os.path.dirname(_os.path.abspath(__file__))
    raise ModuleNotFoundError(
        f"pychess_rs was imported from {_here}, but that directory has no compiled core "
        "(pychess_rs/_core*.so or .pyd). Most likely it is the source tree of a checkout, "
        "found before the installed pychess-rs because it is in the current directory or on "
        "PYTHONPATH, and the Rust extension has not been built into it. Two ways out: run "
        "Python from another directory, so that the installed package is the one imported "
        "(pip install pychess-rs, or pip install dist/*.whl); or build the extension into "
        "this tree with `maturin develop` (add --release for full speed).",
        name=_error.name,
    ) from None

from . import engine as engine  # python-chess's chess.engine: `chess.engine.SimpleEngine`
from .base_board import BaseBoard
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
from .squares import *  # noqa: F403  (bitboards, board geometry, the rest of that namespace)
from .squares import __all__ as _squares_all
from .types import *  # noqa: F403  (python-chess's flat namespace of constants)
from .types import __all__ as _types_all

__all__ = [
    "AmbiguousMoveError",
    "BaseBoard",
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
    "Position",
    "PovScore",
    "PseudoLegalMoveGenerator",
    "Score",
    "SquareSet",
    "Termination",
    "__version__",
    *_types_all,
    *_squares_all,
]
