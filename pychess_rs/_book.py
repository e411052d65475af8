"""The opening book an engine plays from: ``OwnBook``/``BookFile``/``BookSeed`` in the UCI
loop, ``Engine(book=..., book_seed=...)`` in process.

The move is the Rust book crate's ``Book::seeded_move``: chosen by weight, with the seed mixed
with the position's Polyglot key, so the same position and seed give the same move whatever
was played before, and a match played again repeats its book moves. The options themselves
(names, kinds, the seed's range) are declared in the engine's option table.
"""

from __future__ import annotations

import os
import random
from typing import Union

from ._core import Board, Move, PolyglotBook, uci_options
from .polyglot import Entry

__all__ = ["BookPath", "EngineBook", "random_seed"]

BookPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


class EngineBook:
    """A Polyglot book opened for play.

    :raises: :exc:`OSError` if the file cannot be read or is not a book.
    """

    def __init__(self, path: BookPath) -> None:
        self.path = path
        self._book = PolyglotBook(path, Entry)

    def move(self, board: Board, seed: int) -> Move | None:
        """The book's move for ``board`` with ``seed``, or ``None`` when it has none."""
        return self._book.seeded_move(board, seed)

    def close(self) -> None:
        """Unmaps the book."""
        self._book.close()

    def __repr__(self) -> str:
        return f"EngineBook({self.path!r})"


def random_seed() -> int:
    """A seed drawn from ``BookSeed``'s range (the option table's): a game whose seed is not
    given gets its own openings."""
    low, high = next((row[4], row[5]) for row in uci_options() if row[2] == "book_seed")
    assert low is not None and high is not None
    return random.randint(low, high)
