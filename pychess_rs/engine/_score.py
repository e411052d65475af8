"""Evaluations: :class:`Cp`, :class:`Mate` and :data:`MateGiven` from one side's point of
view, :class:`PovScore` tying one to a side, and win/draw/loss expectations (:class:`Wdl`,
:class:`PovWdl`) from the win-rate models Stockfish publishes.

::

    >>> from pychess_rs.engine import Cp, Mate, MateGiven, PovScore
    >>> Cp(-20) < Cp(35) < Mate(+3) < Mate(+1) < MateGiven
    True
    >>> PovScore(Mate(+2), False).white()
    Mate(-2)
    >>> Cp(131).wdl(model="sf12", ply=25)
    Wdl(wins=524, draws=467, losses=9)

A model turns centipawns and the game's ply into wins, draws and losses per mille. The
Stockfish models are the logistic curves of that engine's ``win_rate_model`` (the version
names say which release's coefficients), with the same clamping and pawn normalisation as the
release, so that the numbers match the engine's own ``UCI_ShowWDL`` output.
"""

from __future__ import annotations

import abc
import dataclasses
import math
from collections.abc import Iterator
from typing import Literal

__all__ = [
    "Cp",
    "Mate",
    "MateGiven",
    "MateGivenType",
    "PovScore",
    "PovWdl",
    "Score",
    "Wdl",
    "WdlModel",
]

#: The names :meth:`Score.wdl` accepts; ``"sf"`` is the newest Stockfish model.
WdlModel = Literal["sf", "sf16.1", "sf16", "sf15.1", "sf15", "sf14", "sf12", "lichess"]


# ---- win/draw/loss -------------------------------------------------------------------------


@dataclasses.dataclass
class Wdl:
    """Expected wins, draws and losses (usually per mille) from one side's point of view.
    False when all three are zero."""

    wins: int
    draws: int
    losses: int

    def total(self) -> int:
        """``wins + draws + losses``."""
        return self.wins + self.draws + self.losses

    def winning_chance(self) -> float:
        """The chance of a win, between 0 and 1."""
        return self.wins / self.total()

    def drawing_chance(self) -> float:
        """The chance of a draw, between 0 and 1."""
        return self.draws / self.total()

    def losing_chance(self) -> float:
        """The chance of a loss, between 0 and 1."""
        return self.losses / self.total()

    def expectation(self) -> float:
        """The expected points: a win counts 1, a draw 1/2."""
        return (self.wins + self.draws / 2) / self.total()

    def __bool__(self) -> bool:
        return self.total() > 0

    def __iter__(self) -> Iterator[int]:
        return iter((self.wins, self.draws, self.losses))

    def __reversed__(self) -> Iterator[int]:
        return iter((self.losses, self.draws, self.wins))

    def __neg__(self) -> Wdl:
        """The other side's view: wins and losses swap."""
        return Wdl(self.losses, self.draws, self.wins)

    def __pos__(self) -> Wdl:
        return self


class PovWdl:
    """A :class:`Wdl` ``relative`` to the side ``turn`` (``True`` for White).

    It also compares equal to, and unpacks like, the plain ``(wins, draws, losses)`` tuple of
    its relative view, which is what engines report and what older code expects.
    """

    def __init__(self, relative: Wdl, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def white(self) -> Wdl:
        """The expectation from White's point of view."""
        return self.pov(True)

    def black(self) -> Wdl:
        """The expectation from Black's point of view."""
        return self.pov(False)

    def pov(self, color: bool) -> Wdl:
        """The expectation from ``color``'s point of view."""
        return self.relative if color == self.turn else -self.relative

    def __bool__(self) -> bool:
        return bool(self.relative)

    def __iter__(self) -> Iterator[int]:
        return iter(self.relative)

    def __len__(self) -> int:
        return 3

    def __getitem__(self, index: int) -> int:
        return tuple(self.relative)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PovWdl):
            return self.white() == other.white()
        if isinstance(other, tuple):
            return tuple(self.relative) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PovWdl({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"


@dataclasses.dataclass(frozen=True)
class _LogisticModel:
    """One Stockfish release's ``win_rate_model``: the win chance per mille of an internal
    evaluation ``x`` is ``1000 / (1 + exp((a - x) / b))``, where ``a`` and ``b`` are cubic
    polynomials in a game-phase measure ``m`` derived from the ply."""

    a: tuple[float, float, float, float]
    b: tuple[float, float, float, float]
    clamp: int
    #: Internal units per 100 centipawns (releases from 15.1 report normalised centipawns).
    pawn_value: int = 100
    #: 16.1 measures the phase as (ply / 2 + 1) clamped to 8..120, over 32; older releases
    #: as the ply clamped to 0..240, over 64.
    half_moves: bool = False

    def wins(self, cp: int, ply: int) -> int:
        if self.half_moves:
            m = min(120.0, max(8.0, ply / 2 + 1)) / 32
        else:
            m = min(240, max(ply, 0)) / 64
        a = ((self.a[0] * m + self.a[1]) * m + self.a[2]) * m + self.a[3]
        b = ((self.b[0] * m + self.b[1]) * m + self.b[2]) * m + self.b[3]
        x = min(self.clamp, max(cp * self.pawn_value / 100, -self.clamp))
        return int(0.5 + 1000 / (1 + math.exp((a - x) / b)))


# The coefficients are the constants of each Stockfish release's win_rate_model (uci.cpp).
_STOCKFISH_MODELS = {
    "sf16.1": _LogisticModel(
        a=(-1.06249702, 7.42016937, 0.89425629, 348.60356174),
        b=(-5.33122190, 39.57831533, -90.84473771, 123.40620748),
        clamp=4000,
        pawn_value=356,
        half_moves=True,
    ),
    "sf16": _LogisticModel(
        a=(0.38036525, -2.82015070, 23.17882135, 307.36768407),
        b=(-2.29434733, 13.27689788, -14.26828904, 63.45318330),
        clamp=4000,
        pawn_value=328,
    ),
    "sf15.1": _LogisticModel(
        a=(-0.58270499, 2.68512549, 15.24638015, 344.49745382),
        b=(-2.65734562, 15.96509799, -20.69040836, 73.61029937),
        clamp=4000,
        pawn_value=361,
    ),
    "sf15": _LogisticModel(
        a=(-0.117202460, 0.594729104, 11.2065546, 122.606222),
        b=(-1.79066759, 11.30759193, -17.43677612, 36.47147479),
        clamp=2000,
    ),
    "sf14": _LogisticModel(
        a=(-3.68389304, 30.07065921, -60.52878723, 149.53378557),
        b=(-2.01818570, 15.85685038, -29.83452023, 47.59078827),
        clamp=2000,
    ),
    "sf12": _LogisticModel(
        a=(-8.24404295, 64.23892342, -95.73056462, 153.86478679),
        b=(-3.37154371, 28.44489198, -56.67657741, 72.05858751),
        clamp=1000,
    ),
}
_STOCKFISH_MODELS["sf"] = _STOCKFISH_MODELS["sf16.1"]


def _lichess_wins(cp: int) -> int:
    """Lichess's win percentage curve (its analysis board), per mille."""
    return round(1000 / (1 + math.exp(-0.00368208 * cp)))


def _stockfish_model(model: str) -> _LogisticModel:
    try:
        return _STOCKFISH_MODELS[model]
    except KeyError:
        known = ", ".join(sorted([*_STOCKFISH_MODELS, "lichess"]))
        raise ValueError(f"unknown WDL model {model!r} (models: {known})") from None


# ---- scores ---------------------------------------------------------------------------------


class Score(abc.ABC):
    """A score from one side's point of view: :class:`Cp`, :class:`Mate` or
    :data:`MateGiven`. Scores compare from worst (getting mated now) to best (having mated).

    ``score(mate_score=...)`` gives one integer scale in which the order is the same."""

    @abc.abstractmethod
    def score(self, *, mate_score: int | None = None) -> int | None:
        """Centipawns; a mate counts as ``mate_score`` minus its distance, or ``None`` when
        no ``mate_score`` is given."""

    @abc.abstractmethod
    def mate(self) -> int | None:
        """Moves to mate (negative when getting mated, ``0`` when mated), or ``None``."""

    def is_mate(self) -> bool:
        """Is this a mate score?"""
        return self.mate() is not None

    @abc.abstractmethod
    def wdl(self, *, model: WdlModel = "sf", ply: int = 30) -> Wdl:
        """The expected wins, draws and losses per mille under ``model`` at game ply
        ``ply``.

        :raises: :exc:`ValueError` for an unknown model.
        """

    @abc.abstractmethod
    def __neg__(self) -> Score:
        """The same score from the other side's point of view."""

    def __pos__(self) -> Score:
        return self

    @abc.abstractmethod
    def __abs__(self) -> Score: ...

    def _rank(self) -> tuple[int, int]:
        # (band, value): getting mated (sooner is worse) < centipawns < mating (sooner is
        # better) < having mated.
        mate = self.mate()
        if mate is None:
            return (1, self.score() or 0)
        if isinstance(self, MateGivenType):
            return (3, 0)
        if mate > 0:
            return (2, -mate)
        return (0, -mate)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._rank() == other._rank()

    def __lt__(self, other: Score) -> bool:
        return self._rank() < other._rank()

    def __le__(self, other: Score) -> bool:
        return self._rank() <= other._rank()

    def __gt__(self, other: Score) -> bool:
        return self._rank() > other._rank()

    def __ge__(self, other: Score) -> bool:
        return self._rank() >= other._rank()

    def __hash__(self) -> int:
        return hash(self._rank())


class Cp(Score):
    """A score in centipawns."""

    def __init__(self, cp: int) -> None:
        self.cp = cp

    def score(self, *, mate_score: int | None = None) -> int:
        return self.cp

    def mate(self) -> None:
        return None

    def wdl(self, *, model: WdlModel = "sf", ply: int = 30) -> Wdl:
        if model == "lichess":
            wins = _lichess_wins(max(-1000, min(self.cp, 1000)))
            return Wdl(wins, 0, 1000 - wins)
        curve = _stockfish_model(model)
        wins = curve.wins(self.cp, ply)
        losses = curve.wins(-self.cp, ply)
        return Wdl(wins, 1000 - wins - losses, losses)

    def __neg__(self) -> Cp:
        return Cp(-self.cp)

    def __pos__(self) -> Cp:
        return Cp(self.cp)

    def __abs__(self) -> Cp:
        return Cp(abs(self.cp))

    def __repr__(self) -> str:
        return f"Cp({self})"

    def __str__(self) -> str:
        return f"+{self.cp}" if self.cp > 0 else str(self.cp)


class Mate(Score):
    """Mate in ``moves`` moves; negative when the side is getting mated, ``Mate(-0)`` when
    it is mated already (its negation is :data:`MateGiven`)."""

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

    def wdl(self, *, model: WdlModel = "sf", ply: int = 30) -> Wdl:
        if model == "lichess":
            # Lichess counts a mate as a large, distance-dependent centipawn advantage.
            wins = _lichess_wins((21 - min(10, abs(self.moves))) * 100)
            if self.moves > 0:
                return Wdl(wins, 0, 1000 - wins)
            return Wdl(1000 - wins, 0, wins)
        _stockfish_model(model)
        return Wdl(1000, 0, 0) if self.moves > 0 else Wdl(0, 0, 1000)

    def __neg__(self) -> Score:
        return MateGiven if self.moves == 0 else Mate(-self.moves)

    def __pos__(self) -> Mate:
        return Mate(self.moves)

    def __abs__(self) -> Score:
        return MateGiven if self.moves == 0 else Mate(abs(self.moves))

    def __repr__(self) -> str:
        return f"Mate({str(self).lstrip('#')})"

    def __str__(self) -> str:
        return f"#+{self.moves}" if self.moves > 0 else f"#-{abs(self.moves)}"


class MateGivenType(Score):
    """The winner's view of a position where the other side is mated; its one instance is
    :data:`MateGiven`."""

    def score(self, *, mate_score: int | None = None) -> int | None:
        return mate_score

    def mate(self) -> int:
        return 0

    def wdl(self, *, model: WdlModel = "sf", ply: int = 30) -> Wdl:
        if model != "lichess":
            _stockfish_model(model)
        return Wdl(1000, 0, 0)

    def __neg__(self) -> Mate:
        return Mate(0)

    def __pos__(self) -> MateGivenType:
        return self

    def __abs__(self) -> MateGivenType:
        return self

    def __repr__(self) -> str:
        return "MateGiven"

    def __str__(self) -> str:
        return "#+0"

    def __reduce__(self) -> str:
        return "MateGiven"


#: The score of the side that has just mated.
MateGiven = MateGivenType()


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

    def wdl(self, *, model: WdlModel = "sf", ply: int = 30) -> PovWdl:
        """:meth:`Score.wdl` of the relative score, tied to the same side."""
        return PovWdl(self.relative.wdl(model=model, ply=ply), self.turn)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovScore):
            return NotImplemented
        return self.white() == other.white()

    def __hash__(self) -> int:
        return hash(self.white())

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"
