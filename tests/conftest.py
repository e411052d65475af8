"""Shared fixtures for the pychess_rs behaviour tests.

In every test file ``chess`` is python-chess, the oracle, and the package under test is
``pychess_rs``, under its own name. The oracle's side of the FEN acceptance contract is
``pychess_rs.fuzz.contract`` (the differential fuzzer ships in the package).

Rule scenarios are written once, from White's point of view, and the ``side`` fixture
plays each of them for both colours: for Black the FEN is mirrored by python-chess
(``Board.mirror()``: flip the board vertically, swap the colours, swap the side to move)
and every square, UCI and SAN string is mirrored the same way (rank r becomes 9 - r).
"""

from __future__ import annotations

import chess
import pytest

import pychess_rs

_RANK_MIRROR = str.maketrans("12345678", "87654321")


class Side:
    """One colour's view of a scenario written for White."""

    def __init__(self, color: bool) -> None:
        self.color = color
        self.us = color
        self.them = not color
        self.name = "white" if color else "black"

    def __repr__(self) -> str:
        return f"Side({self.name})"

    def text(self, s: str) -> str:
        """Mirror the ranks in a square name, a UCI move, a SAN move or a list of them."""
        return s if self.color else s.translate(_RANK_MIRROR)

    def fen(self, fen: str) -> str:
        """The FEN of the scenario for this colour (mirrored by python-chess for Black)."""
        if self.color:
            return fen
        return chess.Board(fen).mirror().fen()

    def board(self, fen: str) -> pychess_rs.Board:
        return pychess_rs.Board(self.fen(fen))

    def oracle(self, fen: str) -> chess.Board:
        return chess.Board(self.fen(fen))

    def sq(self, name: str) -> int:
        return pychess_rs.parse_square(self.text(name))

    def squares(self, names: str) -> set[int]:
        return {self.sq(n) for n in names.split()}

    def move(self, uci: str) -> pychess_rs.Move:
        return pychess_rs.Move.from_uci(self.text(uci))

    def play_uci(self, board: pychess_rs.Board, ucis: str) -> None:
        for uci in ucis.split():
            board.push_uci(self.text(uci))

    def play_san(self, board: pychess_rs.Board, sans: str) -> None:
        for san in sans.split():
            board.push_san(self.text(san))

    def piece(self, symbol: str) -> pychess_rs.Piece:
        """A piece given for White's view: 'Q' is our queen, 'q' is theirs."""
        if self.color:
            return pychess_rs.Piece.from_symbol(symbol)
        return pychess_rs.Piece.from_symbol(symbol.swapcase())


def pytest_configure(config: pytest.Config) -> None:
    # On a failing property test, hypothesis imports libcst to print a patch, and that
    # import warns (mypy_extensions.TypedDict). Under ``filterwarnings = error`` the
    # warning would hide the real failure behind an INTERNALERROR.
    config.addinivalue_line(
        "filterwarnings", "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning"
    )


@pytest.fixture(params=[True, False], ids=["white", "black"])
def side(request: pytest.FixtureRequest) -> Side:
    """Runs a test once for each colour (see ``Side``)."""
    return Side(request.param)


def oracle_board(board: pychess_rs.Board) -> chess.Board:
    """Rebuild a board in python-chess from its starting FEN and move stack (UCI strings)."""
    moves = [m.uci() for m in board.move_stack]
    probe = board.copy()
    for _ in moves:
        probe.pop()
    oracle = chess.Board(probe.fen(), chess960=board.chess960)
    for uci in moves:
        oracle.push_uci(uci)
    return oracle


@pytest.fixture
def to_oracle():
    """A function turning one of our boards (with its move stack) into a python-chess board."""
    return oracle_board
