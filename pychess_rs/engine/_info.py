"""Search reports: the :class:`InfoDict` an engine's ``info`` lines become, the :class:`Info`
flags that select which parts are read, and the reader of UCI ``info`` lines.

::

    >>> import pychess_rs as chess
    >>> from pychess_rs.engine import _parse_uci_info
    >>> info = _parse_uci_info("depth 7 score cp 31 pv e2e4 e7e5", chess.Board())
    >>> info["depth"], info["score"], info["pv"]
    (7, PovScore(Cp(+31), WHITE), [Move.from_uci('e2e4'), Move.from_uci('e7e5')])

Moves are read against the board being searched (a pychess_rs ``Board`` or a python-chess
one, variants included) and given as pychess_rs ``Move`` objects, as python-chess's client
gives its own ``Move`` whatever the board (python-chess boards take them too). A token that
cannot be read is skipped and logged; the rest of the line still counts.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import Any, TypedDict

from .._core import Move
from ._score import Cp, Mate, PovScore, PovWdl, Score, Wdl

__all__ = [
    "INFO_ALL",
    "INFO_BASIC",
    "INFO_CURRLINE",
    "INFO_NONE",
    "INFO_PV",
    "INFO_REFUTATION",
    "INFO_SCORE",
    "Info",
    "InfoDict",
]


class Info(enum.IntFlag):
    """Which parts of an engine's reports to read (reading moves costs time)."""

    NONE = 0
    #: depth, seldepth, time, nodes, nps, tbhits, multipv, currmove, currmovenumber,
    #: hashfull, cpuload, ebf, wdl and string (read whenever anything is selected).
    BASIC = 1
    #: score (with lowerbound/upperbound).
    SCORE = 2
    #: pv.
    PV = 4
    #: refutation.
    REFUTATION = 8
    #: currline.
    CURRLINE = 16
    ALL = BASIC | SCORE | PV | REFUTATION | CURRLINE


INFO_NONE = Info.NONE
INFO_BASIC = Info.BASIC
INFO_SCORE = Info.SCORE
INFO_PV = Info.PV
INFO_REFUTATION = Info.REFUTATION
INFO_CURRLINE = Info.CURRLINE
INFO_ALL = Info.ALL


class InfoDict(TypedDict, total=False):
    """One search report; every key is optional. ``time`` is in seconds; moves are the
    searched board's ``Move`` objects."""

    score: PovScore
    pv: list[Any]
    depth: int
    seldepth: int
    time: float
    nodes: int
    nps: int
    tbhits: int
    multipv: int
    currmove: Any
    currmovenumber: int
    hashfull: int
    cpuload: int
    refutation: dict[Any, list[Any]]
    currline: dict[int, list[Any]]
    ebf: float
    wdl: PovWdl
    string: str
    lowerbound: bool
    upperbound: bool


_INT_FIELDS = frozenset(
    "depth seldepth nodes nps tbhits multipv currmovenumber hashfull cpuload".split()
)


def own_move(move: Any) -> Move:
    """pychess_rs's ``Move`` for a move of any board's type."""
    return move if isinstance(move, Move) else Move.from_uci(move.uci())


class _Tokens:
    """The whitespace-separated words of a line (``string`` takes the rest of the line
    verbatim, double spaces included: where a word starts is found only then)."""

    __slots__ = ("index", "text", "words")

    def __init__(self, text: str) -> None:
        self.text = text
        self.words = text.split()
        self.index = 0

    def next(self) -> str | None:
        if self.index >= len(self.words):
            return None
        self.index += 1
        return self.words[self.index - 1]

    def peek(self) -> str | None:
        return self.words[self.index] if self.index < len(self.words) else None

    def rest(self) -> str:
        if self.index >= len(self.words):
            return ""
        start = 0
        for word in self.words[: self.index + 1]:
            start = self.text.index(word, start) + len(word)
        start -= len(self.words[self.index])
        self.index = len(self.words)
        return self.text[start:].rstrip()


def play_line(board: Any, words: Iterable[str], parse: Callable[[Any, str], Any]) -> list[Any]:
    """The moves of ``words`` played on a copy of ``board``, each read by
    ``parse(position, word)``, up to the first that is not a legal move (``parse`` raises
    :exc:`ValueError`)."""
    line: list[Any] = []
    position = board.copy(stack=False)
    for word in words:
        try:
            move = parse(position, word)
        except ValueError:
            break
        position.push(move)
        line.append(own_move(move))
    return line


def _moves(tokens: _Tokens, board: Any) -> list[Any]:
    """Plays the UCI moves that follow on a copy of ``board`` (until a word that is not a
    legal move, which is left unread)."""
    rest = tokens.words[tokens.index :]
    line = play_line(board, rest, lambda position, word: position.parse_uci(word))
    tokens.index += len(line)
    return line


def _score(tokens: _Tokens, turn: bool, info: InfoDict) -> None:
    kind, value = tokens.next(), tokens.next()
    relative: Score
    if kind == "cp" and value is not None:
        relative = Cp(int(value))
    elif kind == "mate" and value is not None:
        relative = Mate(int(value))
    else:
        raise ValueError(f"expected 'cp N' or 'mate N' after score, got {kind!r} {value!r}")
    info["score"] = PovScore(relative, turn)
    while tokens.peek() in ("lowerbound", "upperbound"):
        bound = tokens.next()
        info["lowerbound" if bound == "lowerbound" else "upperbound"] = True


def _wdl(tokens: _Tokens, turn: bool, info: InfoDict) -> None:
    numbers = [tokens.next() for _ in range(3)]
    wins, draws, losses = (int(n) for n in numbers if n is not None)
    info["wdl"] = PovWdl(Wdl(wins, draws, losses), turn)


def parse_uci_info(text: str, root_board: Any, selector: Info = Info.ALL) -> InfoDict:
    """The :class:`InfoDict` of one UCI ``info`` line (without the word ``info``), searched
    from ``root_board``, keeping the parts ``selector`` asks for."""
    info: InfoDict = {}
    if not selector:
        return info
    tokens = _Tokens(text)
    turn = bool(root_board.turn)
    while (word := tokens.next()) is not None:
        try:
            _read_field(word, tokens, root_board, turn, selector, info)
        except (ValueError, TypeError) as error:
            import logging  # only now: importing it costs more than all of this module

            logging.getLogger("pychess_rs.engine").error(
                "skipping unreadable %r in info line %r: %s", word, text, error
            )
    return info


def _read_field(
    word: str, tokens: _Tokens, board: Any, turn: bool, selector: Info, info: InfoDict
) -> None:
    # The basic fields (and wdl) are read whatever the selector, as python-chess does; the
    # selector decides about the score and the lines of moves, which cost most to read.
    if word == "string":
        info["string"] = tokens.rest()
    elif word in _INT_FIELDS:
        info[word] = int(tokens.next() or "")  # type: ignore[literal-required]
    elif word == "time":
        info["time"] = int(tokens.next() or "") / 1000
    elif word == "ebf":
        info["ebf"] = float(tokens.next() or "")
    elif word == "currmove":
        info["currmove"] = own_move(board.parse_uci(tokens.next() or ""))
    elif word == "wdl":
        _wdl(tokens, turn, info)
    elif word == "score":
        scratch: InfoDict = {}
        _score(tokens, turn, scratch)
        if selector & Info.SCORE:
            info.update(scratch)
    elif word == "pv":
        line = _moves(tokens, board)
        if selector & Info.PV:
            info["pv"] = line
    elif word == "refutation":
        line = _moves(tokens, board)
        if selector & Info.REFUTATION and line:
            info.setdefault("refutation", {})[line[0]] = line[1:]
    elif word == "currline":
        cpu = 1
        if (number := tokens.peek()) is not None and number.isdigit():
            cpu = int(number)
            tokens.next()
        line = _moves(tokens, board)
        if selector & Info.CURRLINE:
            info.setdefault("currline", {})[cpu] = line
    # Anything else is a word this reader does not know: skipped, as UCI asks.
