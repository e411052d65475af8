"""The game record: PGN out (one function, :func:`game_pgn`) and the mainline of a PGN in
(:func:`read_mainline`, for ``--pgn``)."""

from __future__ import annotations

import datetime
import io
import re

from .. import pgn
from .._core import Board

__all__ = ["PgnError", "game_pgn", "read_mainline"]


class PgnError(ValueError):
    """A PGN whose mainline cannot be replayed."""


def game_pgn(
    board: Board,
    *,
    white: str,
    black: str,
    result: str,
    termination: str,
    comment: str | None = None,
    date: datetime.date | None = None,
) -> str:
    """The game that led to ``board`` (from ``board.root()`` along its move stack) as PGN:
    the Seven Tag Roster, ``Termination``, ``SetUp``/``FEN`` when it did not start from the
    standard position and ``Variant`` for Chess960; ``comment`` closes the movetext."""
    game = pgn.Game.from_board(board)
    day = date or datetime.date.today()
    game.headers.update(
        Event="Casual game",
        Site="pychess-rs play",
        Date=day.strftime("%Y.%m.%d"),
        Round="-",
        White=white,
        Black=black,
        Result=result,
        Termination=termination,
    )
    if comment:
        game.end().comment = comment
    return str(game) + "\n"


class _QuietBuilder(pgn.GameBuilder[pgn.Game]):
    """Builds the game without logging its errors (they are reported as one line)."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


#: The move a SAN error names (the messages are python-chess's: "illegal san: 'Ke3' in ...").
_ERROR_SAN = re.compile(r"^(?:illegal|ambiguous|invalid) san: '(.*)'(?: in |$)")


def read_mainline(text: str) -> Board:
    """The position after the mainline of the first game in ``text``, with its moves on
    the board's stack (``FEN`` and ``Variant`` tags honoured).

    :raises: :exc:`PgnError` naming the first move of the mainline that cannot be played,
        and why.
    """
    game = pgn.read_game(io.StringIO(text), Visitor=_QuietBuilder)
    if game is None:
        raise PgnError("the PGN has no game")
    board = game.end().board()
    for error in game.errors:
        # The reader stops a line at its first bad move, so the mainline's end is where
        # a bad mainline move was to be played; an error inside a variation leaves the
        # mainline whole, and the move then reads fine here or not at all.
        match = _ERROR_SAN.match(str(error))
        if match is None:
            raise PgnError(f"the PGN cannot be replayed: {error}")
        kind, _moves, why = board.read_move(match.group(1))
        if kind != "move":
            raise PgnError(f"move {len(board.move_stack) + 1} of the PGN: {why}")
    return board
