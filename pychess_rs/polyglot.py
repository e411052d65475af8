"""Polyglot opening books, as ``chess.polyglot`` (python-chess 1.11) offers them.

A book maps positions, by their Polyglot Zobrist hash, to weighted moves. The reader is the
Rust crate ``pychess-book``: the file is memory-mapped and searched with the GIL released, and
one reader may be shared between threads::

    >>> import pychess_rs as chess
    >>> import pychess_rs.polyglot
    >>> hex(chess.polyglot.zobrist_hash(chess.Board()))
    '0x463b96181691fc9c'

Reading a book (python-chess's own test books are ``data/polyglot/*.bin`` in its sdist)::

    with chess.polyglot.open_reader("performance.bin") as reader:
        for entry in reader.find_all(chess.Board()):
            print(entry.move, entry.weight, entry.learn)

Boards may be pychess_rs boards or python-chess boards (read through their FEN); the moves
found are pychess_rs ``Move`` objects either way. As in python-chess, castling that a book
writes king-takes-rook (``e1h1``) comes back as the king's move (``e1g1``) unless the board
is Chess960, and an entry whose move is not legal on the board is skipped.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Container, Iterator
from types import TracebackType
from typing import NamedTuple, Protocol, Union

from . import _core
from ._core import Board, Move
from .base_board import BaseBoard

__all__ = [
    "POLYGLOT_RANDOM_ARRAY",
    "Entry",
    "MemoryMappedReader",
    "ZobristHasher",
    "open_reader",
    "zobrist_hash",
]

StrOrBytesPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

#: The 781 numbers Polyglot keys are made of: 768 piece-square keys (``64 * kind + square``,
#: kind ``2 * (piece_type - 1) + color``), castling K, Q, k, q, the eight en-passant files,
#: and White to move.
POLYGLOT_RANDOM_ARRAY: list[int] = list(_core.POLYGLOT_RANDOM_ARRAY)

#: Entries read per call while iterating over a whole book.
_CHUNK = 4096


class _PythonChessBoard(Protocol):
    chess960: bool

    def fen(self, *, shredder: bool = ..., en_passant: str = ...) -> str: ...


AnyBoard = Union[Board, BaseBoard, _PythonChessBoard]


def _our_board(board: AnyBoard) -> Board:
    """``board`` as a pychess_rs ``Board``: ours as it is, a python-chess board through its FEN
    (with the en-passant square whenever it is set, which the key looks at)."""
    if isinstance(board, Board):
        return board
    if isinstance(board, BaseBoard):
        return board._board
    chess960 = bool(board.chess960)
    return Board(board.fen(shredder=chess960, en_passant="fen"), chess960=chess960)


class ZobristHasher:
    """Hashes boards with a table of (at least) 781 numbers laid out like
    :data:`POLYGLOT_RANDOM_ARRAY`, part by part (python-chess's ``ZobristHasher``). The table is
    read when it is set: change ``array`` by assigning a new one, not in place.
    """

    def __init__(self, array: list[int]) -> None:
        assert len(array) >= 781
        self.array = array

    @property
    def array(self) -> list[int]:
        return self._array

    @array.setter
    def array(self, array: list[int]) -> None:
        self._table = _core.ZobristTable(list(array[:781]))
        self._array = array

    def hash_board(self, board: AnyBoard) -> int:
        """The pieces' part of the key."""
        return self._table.parts(_our_board(board))[0]

    def hash_castling(self, board: AnyBoard) -> int:
        """The castling rights' part: one number per side that keeps one (K, Q, k, q)."""
        return self._table.parts(_our_board(board))[1]

    def hash_ep_square(self, board: AnyBoard) -> int:
        """The en-passant part: the file's number when a pawn of the side to move stands
        ready to capture there (whether the capture is legal or not), else 0."""
        return self._table.parts(_our_board(board))[2]

    def hash_turn(self, board: AnyBoard) -> int:
        """The turn's part: the last number while White is to move, else 0."""
        return self._table.parts(_our_board(board))[3]

    def __call__(self, board: AnyBoard) -> int:
        pieces, castling, ep, turn = self._table.parts(_our_board(board))
        return pieces ^ castling ^ ep ^ turn


def zobrist_hash(board: AnyBoard, *, _hasher: Callable[[AnyBoard], int] | None = None) -> int:
    """The Polyglot Zobrist hash of the position (placement, side to move, castling rights,
    and the en-passant file when a pawn stands ready to capture there): the key books are
    indexed by. ``_hasher`` (python-chess's hook) hashes with another table instead.
    """
    if _hasher is not None:
        return _hasher(board)
    return _our_board(board).zobrist_hash()


class Entry(NamedTuple):
    """An entry from a Polyglot opening book."""

    key: int
    """The Zobrist hash of the position."""

    raw_move: int
    """The move as the book stores it (16 bits). Use :data:`move` instead."""

    weight: int
    """How often the move should be chosen, relative to the position's other entries."""

    learn: int
    """Another number the book may use for extra information."""

    move: Move
    """The move: as the book writes it when looked up by key or index, as python-chess shows
    it (castling as the king's move, unless Chess960) when looked up by board."""


Position = Union[AnyBoard, int]


def _position(board: Position) -> Board | int:
    """What a lookup takes: a board, or a key as python-chess reads one (``int(board)``)."""
    if isinstance(board, Board):
        return board
    try:
        return int(board)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return _our_board(board)  # type: ignore[arg-type]


class MemoryMappedReader:
    """Maps a Polyglot opening book to memory (python-chess's ``MemoryMappedReader``).

    :raises: :exc:`OSError` if the file cannot be opened, or its size is not a whole number of
        16-byte entries. A file that cannot be mapped (empty, ``os.devnull``) reads as an
        empty book.
    """

    def __init__(self, filename: StrOrBytesPath) -> None:
        self._book = _core.PolyglotBook(filename, Entry)

    def __enter__(self) -> MemoryMappedReader:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __len__(self) -> int:
        return len(self._book)

    def __getitem__(self, index: int) -> Entry:
        """The entry at ``index`` in file order (negative counts from the end), its move as
        the book writes it.

        :raises: :exc:`IndexError` past either end.
        """
        try:
            entry: Entry = self._book.entry(index)
        except OverflowError:
            raise IndexError("book index out of range") from None
        return entry

    def __iter__(self) -> Iterator[Entry]:
        size = len(self)
        for start in range(0, size, _CHUNK):
            yield from self._book.entries(start, min(start + _CHUNK, size))

    def bisect_key_left(self, key: int) -> int:
        """The index of the first entry whose key is not below ``key``."""
        if key < 0:
            return 0
        if key >= 1 << 64:
            return len(self)
        return self._book.bisect_key_left(key)

    def __contains__(self, entry: Entry) -> bool:
        return any(
            current == entry for current in self.find_all(entry.key, minimum_weight=entry.weight)
        )

    def find_all(
        self,
        board: Position,
        *,
        minimum_weight: int = 1,
        exclude_moves: Container[Move] = (),
    ) -> Iterator[Entry]:
        """The entries for a board (moves legal there, castling as python-chess shows it) or a
        Zobrist key (every entry, moves as written), in book order, with a weight of at least
        ``minimum_weight`` and a move not in ``exclude_moves``.
        """
        # An exact Board goes straight through (the common case, kept cheap).
        position = board if type(board) is Board else _position(board)
        found: list[Entry] = self._book.find_all(position, minimum_weight, exclude_moves)
        return iter(found)

    def find(
        self,
        board: Position,
        *,
        minimum_weight: int = 1,
        exclude_moves: Container[Move] = (),
    ) -> Entry:
        """The main entry for the board or key: the first with the highest weight. Entries of
        weight 0 (a common way to delete entries without rewriting a book) are left out unless
        ``minimum_weight`` is 0.

        :raises: :exc:`IndexError` if there is none; :meth:`get` gives ``None`` instead.
        """
        found: list[Entry] = self._book.find_all(_position(board), minimum_weight, exclude_moves)
        if not found:
            raise IndexError("no entry in the book")
        return max(found, key=lambda entry: entry.weight)

    def get(
        self,
        board: Position,
        default: Entry | None = None,
        *,
        minimum_weight: int = 1,
        exclude_moves: Container[Move] = (),
    ) -> Entry | None:
        """:meth:`find`, or ``default`` when there is no entry."""
        try:
            return self.find(board, minimum_weight=minimum_weight, exclude_moves=exclude_moves)
        except IndexError:
            return default

    def choice(
        self,
        board: Position,
        *,
        minimum_weight: int = 1,
        exclude_moves: Container[Move] = (),
        random: random.Random | None = None,
    ) -> Entry:
        """An entry chosen uniformly. ``random`` (default: the :mod:`random` module) is asked
        ``randint(0, i)`` as python-chess asks it, so a seeded ``random.Random`` gives
        python-chess's choice.

        :raises: :exc:`IndexError` if there is no entry.
        """
        entry: Entry = self._book.choice(_position(board), minimum_weight, exclude_moves, random)
        return entry

    def weighted_choice(
        self,
        board: Position,
        *,
        exclude_moves: Container[Move] = (),
        random: random.Random | None = None,
    ) -> Entry:
        """An entry chosen in proportion to its weight, with one ``randint(0, total - 1)``
        call to ``random`` (default: the :mod:`random` module), as python-chess makes it.

        :raises: :exc:`IndexError` if there is no entry of weight 1 or more.
        """
        entry: Entry = self._book.weighted_choice(_position(board), exclude_moves, random)
        return entry

    def close(self) -> None:
        """Unmaps the book; lookups afterwards raise :exc:`ValueError`."""
        self._book.close()


def open_reader(path: StrOrBytesPath) -> MemoryMappedReader:
    """A reader for the book at ``path``::

        with chess.polyglot.open_reader("performance.bin") as reader:
            for entry in reader.find_all(chess.Board()):
                print(entry.move, entry.weight, entry.learn)

    :raises: :exc:`OSError` as :class:`MemoryMappedReader` does.
    """
    return MemoryMappedReader(path)
