"""``BaseBoard``: a piece placement without side to move, castling rights or history.

python-chess's ``BaseBoard`` is the parent class of its ``Board``. Here the placement and its
questions (attacks, pins, FEN, editing, symmetries) live in the Rust ``Board``, so a
``BaseBoard`` holds one and answers through it, limited to what a placement means. ``Board`` is
registered as a virtual subclass, so ``isinstance(board, BaseBoard)`` holds for every board, as
in python-chess; it does not inherit from this class, because a Rust class cannot take its data
from a Python parent without a cost on every call.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from ._core import Board, Piece, SquareSet

BaseBoardT = TypeVar("BaseBoardT", bound="BaseBoard")

STARTING_BOARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
BB_ALL = 0xFFFF_FFFF_FFFF_FFFF


class BaseBoard(metaclass=abc.ABCMeta):  # noqa: B024 (ABCMeta for register(), not abstract)
    """A board with pieces and nothing else (python-chess's ``BaseBoard``)."""

    __slots__ = ("_board",)

    def __init__(self, board_fen: str | None = STARTING_BOARD_FEN) -> None:
        self._board = Board(None)
        if board_fen is not None:
            self._board.set_board_fen(board_fen)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def empty(cls: type[BaseBoardT]) -> BaseBoardT:
        return cls(None)

    @classmethod
    def from_chess960_pos(cls: type[BaseBoardT], scharnagl: int) -> BaseBoardT:
        board = cls.empty()
        board.set_chess960_pos(scharnagl)
        return board

    def copy(self: BaseBoardT) -> BaseBoardT:
        board = type(self).empty()
        board._board = self._board.copy(stack=False)
        return board

    def __copy__(self: BaseBoardT) -> BaseBoardT:
        return self.copy()

    def __deepcopy__(self: BaseBoardT, memo: dict[int, object]) -> BaseBoardT:
        board = self.copy()
        memo[id(self)] = board
        return board

    def __reduce__(
        self,
    ) -> tuple[
        Callable[[type[BaseBoard], str], BaseBoard],
        tuple[type[BaseBoard], str],
        dict[str, object] | None,
    ]:
        # A subclass's own attributes travel as the state pickle restores, and its __init__
        # (which may take other arguments) is not called: as pickle treats python-chess's.
        state = getattr(self, "__dict__", None) or None
        return _unpickle, (type(self), self._board.board_fen(promoted=True)), state

    # -- the placement as bitboards -----------------------------------------------------------

    @property
    def occupied(self) -> int:
        return self._board.occupied

    @property
    def occupied_co(self) -> list[int]:
        return list(self._board.occupied_co)

    @property
    def pawns(self) -> int:
        return self._board.pawns

    @property
    def knights(self) -> int:
        return self._board.knights

    @property
    def bishops(self) -> int:
        return self._board.bishops

    @property
    def rooks(self) -> int:
        return self._board.rooks

    @property
    def queens(self) -> int:
        return self._board.queens

    @property
    def kings(self) -> int:
        return self._board.kings

    @property
    def promoted(self) -> int:
        return self._board.promoted

    # -- questions ----------------------------------------------------------------------------

    def pieces_mask(self, piece_type: int, color: bool) -> int:
        return self._board.pieces_mask(piece_type, color)

    def pieces(self, piece_type: int, color: bool) -> SquareSet:
        return self._board.pieces(piece_type, color)

    def piece_at(self, square: int) -> Piece | None:
        return self._board.piece_at(square)

    def piece_type_at(self, square: int) -> int | None:
        return self._board.piece_type_at(square)

    def color_at(self, square: int) -> bool | None:
        return self._board.color_at(square)

    def king(self, color: bool) -> int | None:
        return self._board.king(color)

    def attacks_mask(self, square: int) -> int:
        return self._board.attacks_mask(square)

    def attacks(self, square: int) -> SquareSet:
        return self._board.attacks(square)

    def attackers_mask(self, color: bool, square: int, occupied: int | None = None) -> int:
        return self._board.attackers_mask(color, square, occupied)

    def attackers(
        self, color: bool, square: int, occupied: int | SquareSet | Iterable[int] | None = None
    ) -> SquareSet:
        return self._board.attackers(color, square, occupied)

    def is_attacked_by(
        self, color: bool, square: int, occupied: int | SquareSet | Iterable[int] | None = None
    ) -> bool:
        return self._board.is_attacked_by(color, square, occupied)

    def pin_mask(self, color: bool, square: int) -> int:
        return self._board.pin_mask(color, square)

    def pin(self, color: bool, square: int) -> SquareSet:
        return self._board.pin(color, square)

    def is_pinned(self, color: bool, square: int) -> bool:
        return self._board.is_pinned(color, square)

    def piece_map(self, *, mask: int = BB_ALL) -> dict[int, Piece]:
        return self._board.piece_map(mask=mask)

    def chess960_pos(self) -> int | None:
        return self._board.chess960_pos(ignore_turn=True, ignore_castling=True)

    # -- editing ------------------------------------------------------------------------------

    def clear_board(self) -> None:
        self._board.clear_board()

    def reset_board(self) -> None:
        self._board.reset_board()

    def set_piece_at(self, square: int, piece: Piece | None, promoted: bool = False) -> None:
        self._board.set_piece_at(square, piece, promoted)

    def remove_piece_at(self, square: int) -> Piece | None:
        return self._board.remove_piece_at(square)

    def set_piece_map(self, pieces: Mapping[int, Piece]) -> None:
        self._board.set_piece_map(pieces)

    def set_board_fen(self, fen: str) -> None:
        self._board.set_board_fen(fen)

    def set_chess960_pos(self, scharnagl: int) -> None:
        self._board.set_chess960_pos(scharnagl)
        self._board.castling_rights = 0

    # -- symmetries ---------------------------------------------------------------------------

    def apply_transform(self, f: Callable[[int], int]) -> None:
        self._board.apply_transform(f)

    def transform(self: BaseBoardT, f: Callable[[int], int]) -> BaseBoardT:
        board = self.copy()
        board.apply_transform(f)
        return board

    def apply_mirror(self) -> None:
        self._board.apply_mirror()

    def mirror(self: BaseBoardT) -> BaseBoardT:
        board = self.copy()
        board.apply_mirror()
        return board

    # -- text and pictures --------------------------------------------------------------------

    def board_fen(self, *, promoted: bool | None = False) -> str:
        return self._board.board_fen(promoted=promoted)

    def unicode(
        self,
        *,
        invert_color: bool = False,
        borders: bool = False,
        empty_square: str = "⭘",
        orientation: bool = True,
    ) -> str:
        return self._board.unicode(
            invert_color=invert_color,
            borders=borders,
            empty_square=empty_square,
            orientation=orientation,
        )

    def __str__(self) -> str:
        return str(self._board)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.board_fen()!r})"

    def _repr_svg_(self) -> str:
        from . import svg

        return svg.board(self, size=390)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseBoard):
            return NotImplemented
        return (
            all(
                getattr(self, name) == getattr(other, name)
                for name in ("occupied", "pawns", "knights", "bishops", "rooks", "queens", "kings")
            )
            and self.occupied_co[1] == other.occupied_co[1]
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, as in python-chess


BaseBoard.register(Board)


def _unpickle(cls: type[BaseBoardT], board_fen: str) -> BaseBoardT:
    """A pickled ``BaseBoard`` (or subclass instance), made without calling ``__init__``."""
    board = cls.__new__(cls)
    board._board = Board(None)
    board._board.set_board_fen(board_fen)
    return board
