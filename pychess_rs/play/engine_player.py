"""The engine as a player: strength levels, thinking on a thread, hints and draw offers."""

from __future__ import annotations

import dataclasses

from .. import __version__
from .._book import BookPath
from .._core import Board, Move
from ..engine import Cp, Engine, InfoDict, Limit, PovScore, Score, option_ranges

__all__ = ["LEVELS", "EnginePlayer", "Strength", "describe_levels", "parse_level"]

#: Named levels, spread evenly over the engine's ``UCI_Elo`` range; the last one is
#: full strength (the top of the range is the engine unweakened).
LEVELS = 8

#: The engine takes a draw when its own evaluation is at most this many centipawns:
#: "the game is level or worse for it".
DRAW_MARGIN_CP = 20


@dataclasses.dataclass(frozen=True)
class Strength:
    """A playing strength: ``elo`` for ``UCI_LimitStrength``/``UCI_Elo``, or ``None``
    for full strength, and the name shown in the game and the PGN."""

    elo: int | None
    name: str


def _elo_range() -> tuple[int, int]:
    return option_ranges()["limit_elo"]


def _level_elo(level: int) -> int:
    low, high = _elo_range()
    return round(low + (high - low) * (level - 1) / (LEVELS - 1))


def parse_level(text: str) -> Strength:
    """``1``..``8`` (a named level), an Elo inside the engine's range, or ``max``.

    :raises: :exc:`ValueError` with a one-line reason.
    """
    low, high = _elo_range()
    if text.strip().lower() in ("max", "full"):
        return Strength(None, "full strength")
    try:
        value = int(text)
    except ValueError:
        raise ValueError(
            f"level must be 1..{LEVELS}, an Elo in {low}..{high} or max, got {text!r}"
        ) from None
    if 1 <= value <= LEVELS:
        if value == LEVELS:
            return Strength(None, f"level {value}, full strength")
        return Strength(_level_elo(value), f"level {value}, Elo {_level_elo(value)}")
    if low <= value <= high:
        return Strength(value if value < high else None, f"Elo {value}")
    raise ValueError(f"level must be 1..{LEVELS}, an Elo in {low}..{high} or max, got {text!r}")


def describe_levels() -> str:
    """The named levels and their Elo, for ``--help``."""
    names = ", ".join(f"{n}={_level_elo(n)}" for n in range(1, LEVELS))
    return f"{names}, {LEVELS}=full strength"


def format_score(score: PovScore) -> str:
    """``+0.35`` or ``mate in 3`` (``mated in 2``), from White's point of view."""
    white = score.white()
    mate = white.mate()
    if mate is not None:
        if mate > 0:
            return f"White mates in {mate}"
        return f"Black mates in {-mate}" if mate < 0 else "mate"
    return f"{(white.score() or 0) / 100:+.2f}"


class EnginePlayer:
    """One engine at one strength. :meth:`think` may run on a worker thread while
    :meth:`stop` is called from another; the rest is for the main thread."""

    def __init__(
        self,
        strength: Strength,
        limit: Limit,
        *,
        book: BookPath | None = None,
        book_seed: int = 0,
        syzygy: str | None = None,
    ) -> None:
        """``book``: a Polyglot book the engine plays from while the game is in it (hints
        and evaluations search); ``syzygy``: directories of Syzygy endgame tables it plays
        endgames from (``os.pathsep`` between several).

        :raises: :exc:`OSError` for a book or a tables directory that cannot be read.
        """
        self.strength = strength
        self.limit = limit
        self._engine = Engine(
            hash_mb=16, limit_elo=strength.elo, book=book, book_seed=book_seed, syzygy=syzygy
        )
        # Hints come from a second, full-strength engine, made on first use.
        self._analyser: Engine | None = None

    @property
    def name(self) -> str:
        """``pychess-rs 0.1.0 (level 3, Elo 1757)``: the PGN's White/Black."""
        return f"pychess-rs {__version__} ({self.strength.name})"

    def think(self, board: Board) -> Move | None:
        """The move to play (``None`` when there is none)."""
        move: Move | None = self._engine.play(board, self.limit).move
        return move

    def stop(self) -> None:
        """Make a running :meth:`think` return its best move now."""
        self._engine.stop()

    def evaluate(self, board: Board) -> PovScore | None:
        """The engine's own (weakened) view of the position."""
        info: InfoDict = self._engine.analyse(board, self.limit)
        return info.get("score")

    def accepts_draw(self, board: Board, color: bool) -> bool:
        """Takes a draw when its evaluation for ``color`` is level or worse."""
        score = self.evaluate(board)
        if score is None:
            return True
        own: Score = score.pov(color)
        return own <= Cp(DRAW_MARGIN_CP)

    def hint(self, board: Board, limit: Limit) -> tuple[Move, PovScore | None] | None:
        """The best move at full strength and its score, or ``None`` with no legal move."""
        if self._analyser is None:
            self._analyser = Engine(hash_mb=16)
        info = self._analyser.analyse(board, limit)
        pv = info.get("pv") or []
        if not pv:
            return None
        return pv[0], info.get("score")


def hint_engine(limit: Limit) -> EnginePlayer:
    """A full-strength engine for hints in games with no engine player."""
    return EnginePlayer(Strength(None, "full strength"), limit)
