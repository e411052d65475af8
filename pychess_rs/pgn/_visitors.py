"""Visitors: :class:`BaseVisitor` (the events of a game, as the reader and ``accept`` send
them; a method may answer :data:`SKIP`) and the exporters that write PGN text from them."""

from __future__ import annotations

import abc
import enum
import itertools
from typing import TYPE_CHECKING, Generic, TextIO, TypeVar

if TYPE_CHECKING:
    from .._core import Board, Move
    from ._headers import Headers


class SkipType(enum.Enum):
    SKIP = None


SKIP = SkipType.SKIP

ResultT = TypeVar("ResultT", covariant=True)


class BaseVisitor(abc.ABC, Generic[ResultT]):
    """Receives the events of a game (reading it, or walking a tree with ``accept``)."""

    def begin_game(self) -> SkipType | None:
        return None

    def begin_headers(self) -> Headers | None:
        return None

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        pass

    def end_headers(self) -> SkipType | None:
        return None

    def begin_parse_san(self, board: Board, san: str) -> SkipType | None:
        return None

    def parse_san(self, board: Board, san: str) -> Move:
        return board.parse_san(san)

    def visit_move(self, board: Board, move: Move) -> None:
        pass

    def visit_board(self, board: Board) -> None:
        pass

    def visit_comment(self, comment: str) -> None:
        pass

    def visit_nag(self, nag: int) -> None:
        pass

    def begin_variation(self) -> SkipType | None:
        return None

    def end_variation(self) -> None:
        pass

    def visit_result(self, result: str) -> None:
        pass

    def end_game(self) -> None:
        pass

    @abc.abstractmethod
    def result(self) -> ResultT: ...

    def handle_error(self, error: Exception) -> None:
        raise error


class StringExporterMixin:
    """PGN text out of visitor events, python-chess's layout byte for byte."""

    def __init__(
        self,
        *,
        columns: int | None = 80,
        headers: bool = True,
        comments: bool = True,
        variations: bool = True,
    ) -> None:
        self.columns = columns
        self.headers = headers
        self.comments = comments
        self.variations = variations
        self.found_headers = False
        self.force_movenumber = True
        self.lines: list[str] = []
        self.current_line = ""
        self.variation_depth = 0

    def flush_current_line(self) -> None:
        if self.current_line:
            self.lines.append(self.current_line.rstrip())
        self.current_line = ""

    def write_token(self, token: str) -> None:
        if self.columns is not None and self.columns - len(self.current_line) < len(token):
            self.flush_current_line()
        self.current_line += token

    def write_line(self, line: str = "") -> None:
        self.flush_current_line()
        self.lines.append(line.rstrip())

    def end_game(self) -> None:
        self.write_line()

    def begin_headers(self) -> None:
        self.found_headers = False

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        if self.headers:
            self.found_headers = True
            self.write_line(f'[{tagname} "{tagvalue}"]')

    def end_headers(self) -> None:
        if self.found_headers:
            self.write_line()

    def begin_variation(self) -> SkipType | None:
        self.variation_depth += 1
        if self.variations:
            self.write_token("( ")
            self.force_movenumber = True
            return None
        return SKIP

    def end_variation(self) -> None:
        self.variation_depth -= 1
        if self.variations:
            self.write_token(") ")
            self.force_movenumber = True

    def visit_comment(self, comment: str) -> None:
        if self.comments and (self.variations or not self.variation_depth):
            self.write_token("{ " + comment.replace("}", "").strip() + " } ")
            self.force_movenumber = True

    def visit_nag(self, nag: int) -> None:
        if self.comments and (self.variations or not self.variation_depth):
            self.write_token("$" + str(nag) + " ")

    def visit_move(self, board: Board, move: Move) -> None:
        if self.variations or not self.variation_depth:
            if board.turn:
                self.write_token(str(board.fullmove_number) + ". ")
            elif self.force_movenumber:
                self.write_token(str(board.fullmove_number) + "... ")
            self.write_token(board.san(move) + " ")
            self.force_movenumber = False

    def visit_result(self, result: str) -> None:
        self.write_token(result + " ")


class StringExporter(StringExporterMixin, BaseVisitor[str]):
    """Exports a game as a string (no newline at the end)."""

    def result(self) -> str:
        if self.current_line:
            return "\n".join(itertools.chain(self.lines, [self.current_line.rstrip()])).rstrip()
        return "\n".join(self.lines).rstrip()

    def __str__(self) -> str:
        return self.result()


class FileExporter(StringExporterMixin, BaseVisitor[int]):
    """Writes games to a text file, a blank line after each; returns characters written."""

    def __init__(
        self,
        handle: TextIO,
        *,
        columns: int | None = 80,
        headers: bool = True,
        comments: bool = True,
        variations: bool = True,
    ) -> None:
        super().__init__(columns=columns, headers=headers, comments=comments, variations=variations)
        self.handle = handle
        self.written = 0

    def begin_game(self) -> None:
        self.written = 0

    def flush_current_line(self) -> None:
        if self.current_line:
            self.written += self.handle.write(self.current_line.rstrip())
            self.written += self.handle.write("\n")
        self.current_line = ""

    def write_line(self, line: str = "") -> None:
        self.flush_current_line()
        self.written += self.handle.write(line.rstrip())
        self.written += self.handle.write("\n")

    def result(self) -> int:
        return self.written

    def __repr__(self) -> str:
        return f"<FileExporter at {id(self):#x}>"

    def __str__(self) -> str:
        return self.__repr__()
