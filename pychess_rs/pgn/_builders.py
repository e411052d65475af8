"""The visitors that build something from a game: :class:`GameBuilder` (the node tree; the
reader's default), :class:`HeadersBuilder`, :class:`BoardBuilder` and :class:`SkipVisitor`."""

from __future__ import annotations

import logging
from typing import Any, Literal

from .._core import Board, Move
from ._headers import Headers, HeadersT
from ._nodes import Game, GameNode, GameT
from ._visitors import SKIP, BaseVisitor, SkipType

LOGGER = logging.getLogger("pychess_rs.pgn")

# Defaults for the `Game=`/`Headers=` parameters (typed loosely, as the generic parameters
# they fill in).
_GAME_CLASS: Any = Game
_HEADERS_CLASS: Any = Headers


class GameBuilder(BaseVisitor[GameT]):
    """Builds a :class:`Game` (the default visitor of :func:`read_game`)."""

    def __init__(self, *, Game: type[GameT] = _GAME_CLASS) -> None:
        self.Game = Game

    def begin_game(self) -> None:
        self.game: GameT = self.Game()
        self.variation_stack: list[GameNode] = [self.game]
        self.starting_comment = ""
        self.in_variation = False

    def begin_headers(self) -> Headers:
        return self.game.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.game.headers[tagname] = tagvalue

    def visit_nag(self, nag: int) -> None:
        self.variation_stack[-1].nags.add(nag)

    def begin_variation(self) -> None:
        parent = self.variation_stack[-1].parent
        if parent is None:
            raise RuntimeError("begin_variation called, but root node on top of stack")
        self.variation_stack.append(parent)
        self.in_variation = False

    def end_variation(self) -> None:
        self.variation_stack.pop()

    def visit_result(self, result: str) -> None:
        if self.game.headers.get("Result", "*") == "*":
            self.game.headers["Result"] = result

    def visit_comment(self, comment: str) -> None:
        top = self.variation_stack[-1]
        if self.in_variation or (top.parent is None and top.is_end()):
            top.comment = " ".join(filter(None, [top.comment, comment]))
        else:
            self.starting_comment = " ".join(filter(None, [self.starting_comment, comment]))

    def visit_move(self, board: Board, move: Move) -> None:
        self.variation_stack[-1] = self.variation_stack[-1].add_variation(move)
        self.variation_stack[-1].starting_comment = self.starting_comment
        self.starting_comment = ""
        self.in_variation = True

    def handle_error(self, error: Exception) -> None:
        """Records the error in ``game.errors`` and logs it."""
        LOGGER.error("%s while parsing %r", error, self.game)
        self.game.errors.append(error)

    def result(self) -> GameT:
        return self.game


class HeadersBuilder(BaseVisitor[HeadersT]):
    """Collects the headers of a game and skips its movetext."""

    def __init__(self, *, Headers: type[HeadersT] = _HEADERS_CLASS) -> None:
        self.Headers = Headers

    def begin_headers(self) -> HeadersT:
        self.headers: HeadersT = self.Headers({})
        return self.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def end_headers(self) -> SkipType:
        return SKIP

    def result(self) -> HeadersT:
        return self.headers


class BoardBuilder(BaseVisitor[Board]):
    """The final position of the main line (the main line on its move stack)."""

    def begin_game(self) -> None:
        self.skip_variation_depth = 0

    def begin_variation(self) -> SkipType:
        self.skip_variation_depth += 1
        return SKIP

    def end_variation(self) -> None:
        self.skip_variation_depth = max(self.skip_variation_depth - 1, 0)

    def visit_board(self, board: Board) -> None:
        if not self.skip_variation_depth:
            self.board = board

    def result(self) -> Board:
        return self.board


class SkipVisitor(BaseVisitor[Literal[True]]):
    """Skips a game."""

    def begin_game(self) -> SkipType:
        return SKIP

    def end_headers(self) -> SkipType:
        return SKIP

    def begin_variation(self) -> SkipType:
        return SKIP

    def result(self) -> Literal[True]:
        return True
