"""The built-in engine, in process: python-chess's ``chess.engine`` shapes, no subprocess.

::

    >>> import pychess_rs as chess
    >>> engine = chess.Engine(hash_mb=16)
    >>> board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    >>> result = engine.play(board, chess.Limit(depth=4))
    >>> result.move
    Move.from_uci('a1a8')
    >>> info = engine.analyse(board, chess.Limit(depth=4))
    >>> info["score"].white()
    Mate(+1)

The search runs in Rust with the GIL released, so another thread may call
:meth:`Engine.stop` (or :meth:`Engine.ponderhit`) while :meth:`Engine.play` or
:meth:`Engine.analyse` runs. Scores follow python-chess: a :class:`PovScore` holds a
:class:`Cp` or :class:`Mate` from the side to move's point of view.
"""

from __future__ import annotations

import abc
import dataclasses
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Callable, TypedDict, Union, cast, overload

from ._core import (
    Board,
    Move,
    SearchControl,
    Searcher,
    SearchInfo,
    engine_option_ranges,
)

if TYPE_CHECKING:
    from ._core import SearcherOptions

__all__ = [
    "Cp",
    "Engine",
    "EngineOptionError",
    "InfoDict",
    "Limit",
    "LimitError",
    "Mate",
    "MateGiven",
    "PlayResult",
    "PovScore",
    "Score",
]


class EngineOptionError(ValueError):
    """An engine option that does not exist, or a value of the wrong type or out of range."""


class LimitError(ValueError):
    """A search limit of the wrong type or out of range."""


# ---- scores -----------------------------------------------------------------------------------


class Score(abc.ABC):
    """A score from one side's point of view: :class:`Cp`, :class:`Mate` or
    :class:`MateGiven`. Scores compare from worst (getting mated soon) to best (mating soon)."""

    @abc.abstractmethod
    def score(self, *, mate_score: int | None = None) -> int | None:
        """Centipawns; a mate counts as ``mate_score`` minus its distance, or ``None`` when
        no ``mate_score`` is given."""

    @abc.abstractmethod
    def mate(self) -> int | None:
        """Moves to mate (negative when getting mated), or ``None``."""

    def is_mate(self) -> bool:
        """Is this a mate score?"""
        return self.mate() is not None

    @abc.abstractmethod
    def __neg__(self) -> Score:
        """The same score from the other side's point of view."""

    def __pos__(self) -> Score:
        return self

    def _order(self) -> tuple[int, int]:
        # (class, value): getting mated < centipawns < mating; within mates, sooner is
        # more extreme.
        mate = self.mate()
        if mate is None:
            return (0, self.score() or 0)
        if isinstance(self, MateGiven) or mate > 0:
            return (1, -mate)
        return (-1, -mate)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._order() == other._order()

    def __lt__(self, other: Score) -> bool:
        return self._order() < other._order()

    def __le__(self, other: Score) -> bool:
        return self._order() <= other._order()

    def __gt__(self, other: Score) -> bool:
        return self._order() > other._order()

    def __ge__(self, other: Score) -> bool:
        return self._order() >= other._order()

    def __hash__(self) -> int:
        return hash(self._order())


class Cp(Score):
    """A score in centipawns."""

    def __init__(self, cp: int) -> None:
        self.cp = cp

    def score(self, *, mate_score: int | None = None) -> int:
        return self.cp

    def mate(self) -> None:
        return None

    def __neg__(self) -> Cp:
        return Cp(-self.cp)

    def __abs__(self) -> Cp:
        return Cp(abs(self.cp))

    def __repr__(self) -> str:
        return f"Cp({self})"

    def __str__(self) -> str:
        # python-chess's: a sign for positive scores only ("0", not "+0").
        return f"+{self.cp:d}" if self.cp > 0 else str(self.cp)


class Mate(Score):
    """Mate in ``moves`` moves; negative when the side is getting mated, ``Mate(0)`` when it
    is mated already."""

    def __init__(self, moves: int) -> None:
        self.moves = moves

    def score(self, *, mate_score: int | None = None) -> int | None:
        if mate_score is None:
            return None
        if self.moves > 0:
            return mate_score - self.moves
        return -mate_score - self.moves

    def mate(self) -> int:
        return self.moves

    def __neg__(self) -> Score:
        return MateGiven() if self.moves == 0 else Mate(-self.moves)

    def __abs__(self) -> Score:
        return MateGiven() if self.moves == 0 else Mate(abs(self.moves))

    def __repr__(self) -> str:
        return "Mate(-0)" if self.moves == 0 else f"Mate({self.moves:+d})"

    def __str__(self) -> str:
        return "#-0" if self.moves == 0 else f"#{self.moves:+d}"


class MateGiven(Score):
    """The winner's view of a position where the other side is mated."""

    def score(self, *, mate_score: int | None = None) -> int | None:
        return mate_score

    def mate(self) -> int:
        return 0

    def __neg__(self) -> Mate:
        return Mate(0)

    def __abs__(self) -> MateGiven:
        return self

    def __repr__(self) -> str:
        return "MateGiven"

    def __str__(self) -> str:
        return "#+0"


class PovScore:
    """A score ``relative`` to the side ``turn`` (``True`` for White)."""

    def __init__(self, relative: Score, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def white(self) -> Score:
        """The score from White's point of view."""
        return self.pov(True)

    def black(self) -> Score:
        """The score from Black's point of view."""
        return self.pov(False)

    def pov(self, color: bool) -> Score:
        """The score from ``color``'s point of view."""
        return self.relative if color == self.turn else -self.relative

    def is_mate(self) -> bool:
        """Is this a mate score?"""
        return self.relative.is_mate()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovScore):
            return NotImplemented
        return self.white() == other.white()

    def __hash__(self) -> int:
        return hash(self.white())

    def __repr__(self) -> str:
        side = "WHITE" if self.turn else "BLACK"
        return f"PovScore({self.relative!r}, {side})"


# ---- limits, infos, results ---------------------------------------------------------------


@dataclasses.dataclass
class Limit:
    """When to stop searching (python-chess's ``Limit``). Times are in seconds. With no field
    set the search runs until :meth:`Engine.stop`."""

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    white_clock: float | None = None
    black_clock: float | None = None
    white_inc: float | None = None
    black_inc: float | None = None
    remaining_moves: int | None = None


class InfoDict(TypedDict, total=False):
    """One search report (python-chess's ``InfoDict``); ``time`` is in seconds."""

    score: PovScore
    pv: list[Move]
    depth: int
    seldepth: int
    multipv: int
    nodes: int
    nps: int
    hashfull: int
    time: float
    lowerbound: bool
    upperbound: bool


@dataclasses.dataclass
class PlayResult:
    """The move to play (``None`` when there is no legal move), the expected reply and the
    last report of the best line."""

    move: Move | None
    ponder: Move | None
    info: InfoDict = dataclasses.field(default_factory=lambda: InfoDict())


def _info_dict(info: SearchInfo, turn: bool) -> InfoDict:
    relative: Score = Mate(info.mate) if info.mate is not None else Cp(info.cp or 0)
    result = InfoDict(
        score=PovScore(relative, turn),
        pv=info.pv,
        depth=info.depth,
        seldepth=info.seldepth,
        multipv=info.multipv,
        nodes=info.nodes,
        nps=info.nps,
        hashfull=info.hashfull,
        time=info.time_ms / 1000,
    )
    if info.lowerbound:
        result["lowerbound"] = True
    if info.upperbound:
        result["upperbound"] = True
    return result


def _count(name: str, value: object, minimum: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitError(f"Limit.{name} must be an int, got {value!r}")
    if value < minimum:
        raise LimitError(f"Limit.{name} must be at least {minimum}, got {value!r}")
    return value


def _seconds(name: str, value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LimitError(f"Limit.{name} must be a number of seconds, got {value!r}")
    if not value >= 0 or value == float("inf"):  # also rejects NaN
        raise LimitError(f"Limit.{name} must be a finite number >= 0, got {value!r}")
    return float(value)


def _search_arguments(limit: Limit, turn: bool) -> dict[str, Any]:
    """The keyword arguments of :meth:`Searcher.search` for ``limit``, side ``turn`` to move."""
    if not isinstance(limit, Limit):
        raise LimitError(f"expected a Limit, got {limit!r}")
    depth = _count("depth", limit.depth, 1)
    nodes = _count("nodes", limit.nodes, 1)
    mate = _count("mate", limit.mate, 1)
    moves_to_go = _count("remaining_moves", limit.remaining_moves, 1)
    movetime = _seconds("time", limit.time)
    clocks = {
        name: _seconds(name, getattr(limit, name))
        for name in ("white_clock", "black_clock", "white_inc", "black_inc")
    }
    time_left = clocks["white_clock"] if turn else clocks["black_clock"]
    increment = (clocks["white_inc"] if turn else clocks["black_inc"]) or 0.0
    arguments: dict[str, Any] = {
        "depth": depth,
        "nodes": nodes,
        "mate": mate,
        "movetime": movetime,
        "time_left": time_left,
        "increment": increment,
        "moves_to_go": moves_to_go if time_left is not None else None,
    }
    # A clock given only for the side not to move limits nothing, as in python-chess.
    arguments["infinite"] = all(
        arguments[key] is None for key in ("depth", "nodes", "mate", "movetime", "time_left")
    )
    return arguments


# ---- the engine -------------------------------------------------------------------------------

OptionValue = Union[int, None]

_OPTION_NAMES = ("hash_mb", "threads", "multipv", "move_overhead_ms", "limit_elo", "skill_level")


def option_ranges() -> dict[str, tuple[int, int]]:
    """``{option: (min, max)}`` for the keyword options of :class:`Engine`."""
    return engine_option_ranges()


def _check_option(name: str, value: object) -> OptionValue:
    if name not in _OPTION_NAMES:
        raise EngineOptionError(
            f"unknown engine option {name!r} (options: {', '.join(_OPTION_NAMES)})"
        )
    if value is None and name == "limit_elo":
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineOptionError(f"engine option {name} must be an int, got {value!r}")
    low, high = engine_option_ranges()[name]
    if not low <= value <= high:
        raise EngineOptionError(f"engine option {name} must be in {low}..{high}, got {value!r}")
    return value


def _merge_options(base: SearcherOptions, changes: dict[str, OptionValue]) -> SearcherOptions:
    merged: dict[str, Any] = dict(base)
    for name, value in changes.items():
        merged[name] = _check_option(name, value)
    return cast("SearcherOptions", merged)


class Engine:
    """The pychess-rs engine in this process, with python-chess-shaped ``play`` and
    ``analyse``. Options (keyword arguments, also for :meth:`configure`):

    ``hash_mb`` (transposition table, MiB), ``threads``, ``multipv`` (lines ``analyse``
    reports), ``move_overhead_ms`` (kept in reserve per move under a clock), ``limit_elo``
    (``None`` for full strength) and ``skill_level`` (0..20).

    One search runs at a time; :meth:`stop` and :meth:`ponderhit` may be called from other
    threads.

    :raises: :exc:`EngineOptionError` for an unknown option or a bad value.
    """

    def __init__(self, **options: OptionValue) -> None:
        merged = _merge_options(Searcher.default_options(), options)
        self._searcher = Searcher(**merged)
        self._search_lock = threading.Lock()
        self._control_lock = threading.Lock()
        self._control: SearchControl | None = None

    @property
    def options(self) -> SearcherOptions:
        """The current options (a copy)."""
        return self._searcher.options

    def configure(self, **options: OptionValue) -> None:
        """Changes some options; waits for a running search to end first.

        :raises: :exc:`EngineOptionError` for an unknown option or a bad value.
        """
        merged = _merge_options(self._searcher.options, options)
        with self._search_lock:
            self._searcher.configure(**merged)

    def clear(self) -> None:
        """Forgets what earlier searches learnt (the hash table), as for a new game."""
        with self._search_lock:
            self._searcher.clear()

    def stop(self) -> None:
        """Ends the running search (if any) soon; it returns its best move so far."""
        with self._control_lock:
            if self._control is not None:
                self._control.stop()

    def ponderhit(self) -> None:
        """The opponent played the expected move: a ``pondering`` search's limits start now."""
        with self._control_lock:
            if self._control is not None:
                self._control.ponderhit()

    def play(
        self,
        board: Board,
        limit: Limit,
        *,
        root_moves: Iterable[Move] | None = None,
        pondering: bool = False,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> PlayResult:
        """Chooses a move for ``board`` (its move stack counts for repetitions).

        ``root_moves`` restricts the choice. With ``pondering``, the search starts as a ponder
        search: its limits start only at :meth:`ponderhit` (and it ends at :meth:`stop`).
        ``on_info`` receives each report, from the searching thread.

        :raises: :exc:`LimitError` for a bad limit, :exc:`IllegalMoveError` for an illegal
            root move, :exc:`RuntimeError` if the engine failed.
        """
        result, turn = self._search(board, limit, root_moves, pondering, on_info, None)
        lines = result.lines
        info = _info_dict(lines[0], turn) if lines else InfoDict()
        return PlayResult(result.best, result.ponder, info)

    @overload
    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: None = None,
        root_moves: Iterable[Move] | None = None,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> InfoDict: ...

    @overload
    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int,
        root_moves: Iterable[Move] | None = None,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> list[InfoDict]: ...

    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> InfoDict | list[InfoDict]:
        """Analyses ``board`` and returns the final report: one :class:`InfoDict`, or with
        ``multipv`` a list of up to that many, best first (empty without legal moves).

        :raises: :exc:`LimitError` for a bad limit, :exc:`EngineOptionError` for a bad
            ``multipv``, :exc:`IllegalMoveError` for an illegal root move.
        """
        if multipv is not None:
            _check_option("multipv", multipv)
        result, turn = self._search(board, limit, root_moves, False, on_info, multipv)
        infos = [_info_dict(line, turn) for line in result.lines]
        if multipv is None:
            return infos[0] if infos else InfoDict()
        return infos

    def _search(
        self,
        board: Board,
        limit: Limit,
        root_moves: Iterable[Move] | None,
        pondering: bool,
        on_info: Callable[[InfoDict], object] | None,
        multipv: int | None,
    ) -> tuple[Any, bool]:
        if not isinstance(board, Board):
            raise TypeError(f"expected a pychess_rs.Board, got {type(board).__name__}")
        turn = board.turn
        arguments = _search_arguments(limit, turn)
        searchmoves = list(root_moves) if root_moves is not None else None

        def report(info: SearchInfo) -> None:
            if on_info is not None:
                on_info(_info_dict(info, turn))

        control = SearchControl(pondering=pondering)
        with self._search_lock:
            saved = self._searcher.options
            if multipv is not None and multipv != saved["multipv"]:
                self._searcher.configure(**_merge_options(saved, {"multipv": multipv}))
            with self._control_lock:
                self._control = control
            try:
                result = self._searcher.search(
                    board,
                    searchmoves=searchmoves,
                    control=control,
                    on_info=report if on_info is not None else None,
                    **arguments,
                )
            finally:
                with self._control_lock:
                    self._control = None
                if self._searcher.options != saved:
                    self._searcher.configure(**saved)
        return result, turn

    def close(self) -> None:
        """Stops a running search (python-chess engines must be closed; this one need not)."""
        self.stop()

    def quit(self) -> None:
        """The same as :meth:`close` (python-chess's name)."""
        self.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self._searcher.options.items())
        return f"Engine({options})"
