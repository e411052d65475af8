"""Polyglot opening-book hashing, as ``chess.polyglot`` offers it.

Only the hash is here: :func:`zobrist_hash` gives the 64-bit key Polyglot books are indexed
by, computed by the Rust core (the same key ``Board.zobrist_hash()`` returns)::

    >>> import pychess_rs as chess
    >>> import pychess_rs.polyglot
    >>> hex(chess.polyglot.zobrist_hash(chess.Board()))
    '0x463b96181691fc9c'

Reading Polyglot book files (``open_reader``) is not provided.
"""

from __future__ import annotations

from ._core import Board

__all__ = ["zobrist_hash"]


def zobrist_hash(board: Board) -> int:
    """The Polyglot Zobrist hash of the position (placement, side to move, castling rights,
    and the en-passant file when a pawn stands ready to capture there).
    """
    return board.zobrist_hash()
