"""The one reading of a board for the tablebase probers (:mod:`pychess_rs.syzygy`,
:mod:`pychess_rs.gaviota`): their Rust probers take a pychess_rs ``Board`` and call this for
any other board, python-chess's included."""

from __future__ import annotations

from typing import Protocol, Union

from ._core import Board
from .base_board import BaseBoard


class PythonChessBoard(Protocol):
    chess960: bool
    castling_rights: int

    def fen(self, *, shredder: bool = ..., en_passant: str = ...) -> str: ...


AnyBoard = Union[Board, BaseBoard, PythonChessBoard]


def probe_board(board: AnyBoard) -> Board:
    """``board`` as a pychess_rs ``Board``: ours as it is; a python-chess board through its
    FEN with the en-passant square whenever it is set (both probers find the legal captures
    themselves, as python-chess's do) and its castling rights as set, rook or no rook (both of
    python-chess's probers refuse any).

    :raises: :exc:`KeyError` for a variant board, as python-chess's standard tablebases do.
    """
    if isinstance(board, Board):
        return board
    if isinstance(board, BaseBoard):
        return board._board
    variant = getattr(board, "uci_variant", "chess")
    if variant != "chess":
        raise KeyError(f"tablebase has been opened for chess, probed with: {variant}")
    chess960 = bool(board.chess960)
    ours = Board(board.fen(shredder=chess960, en_passant="fen"), chess960=chess960)
    ours.castling_rights = board.castling_rights
    return ours
