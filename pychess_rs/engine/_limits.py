"""What a search is asked for and what it gives back: :class:`Limit`, :class:`PlayResult`,
:class:`BestMove`, and the :class:`Opponent` an engine may be told about.

These are plain data, shared by the in-process :class:`~pychess_rs.engine.Engine` and the
clients of UCI and XBoard engines (:class:`~pychess_rs.engine.SimpleEngine`)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._info import InfoDict

__all__ = ["BestMove", "Limit", "Opponent", "PlayResult"]


@dataclasses.dataclass
class Limit:
    """When to stop searching. Times are in seconds. With no field set the search runs
    until stopped (an analysis) or until the engine decides (a move to play).

    ``clock_id`` names the time control the clocks belong to: an XBoard engine is told the
    control again only when it changes."""

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    white_clock: float | None = None
    black_clock: float | None = None
    white_inc: float | None = None
    black_inc: float | None = None
    remaining_moves: int | None = None
    clock_id: object = None

    def __repr__(self) -> str:
        fields = (
            f"{field.name}={getattr(self, field.name)!r}"
            for field in dataclasses.fields(self)
            if getattr(self, field.name) is not None and field.name != "clock_id"
        )
        return f"{type(self).__name__}({', '.join(fields)})"


@dataclasses.dataclass
class BestMove:
    """The engine's final word on a search: the best move and the expected reply (either may
    be ``None``)."""

    move: Any
    ponder: Any


class PlayResult:
    """The move to play (``None`` when there is none, or when the engine resigned), the
    expected reply, the last report of the search (as selected by the ``info`` argument of
    ``play``), and whether the engine offered a draw or resigned."""

    def __init__(
        self,
        move: Any,
        ponder: Any,
        info: InfoDict | None = None,
        *,
        draw_offered: bool = False,
        resigned: bool = False,
    ) -> None:
        self.move = move
        self.ponder = ponder
        self.info: InfoDict = info if info is not None else {}
        self.draw_offered = draw_offered
        self.resigned = resigned

    def _fields(self) -> tuple[Any, ...]:
        return (self.move, self.ponder, self.info, self.draw_offered, self.resigned)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayResult):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} at {id(self):#x} (move={self.move}, "
            f"ponder={self.ponder}, info={self.info}, draw_offered={self.draw_offered}, "
            f"resigned={self.resigned})>"
        )


@dataclasses.dataclass
class Opponent:
    """Who the engine plays against: a name, a title (``"GM"``, ...), a rating, and whether
    it is an engine."""

    name: str | None
    title: str | None
    rating: int | None
    is_engine: bool | None
