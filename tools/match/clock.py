"""Time controls and the game clock the match keeps itself.

The runner, not the engine, is the arbiter of time: it measures each move on the wall clock
(from the ``go`` it sends to the ``bestmove`` it receives), charges it to the mover, adds the
increment, and declares a time forfeit when a side has used more than it had.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

#: Default tolerance, in seconds, before an overstep counts as a time forfeit. Measured time
#: includes the pipe round trip and the scheduling of this process and the engine's on a busy
#: machine (a few milliseconds, more under load); 50 ms absorbs that without hiding a real
#: overstep at any time control worth playing (``--margin`` changes it).
TIME_MARGIN = 0.05

_TC_RE = re.compile(r"^(?:(\d+)/)?(\d+(?:\.\d*)?|\.\d+)(?:\+(\d+(?:\.\d*)?|\.\d+))?$")


@dataclass(frozen=True)
class TimeControl:
    """``[moves/]base[+increment]`` in seconds, e.g. ``10+0.1``, ``40/60``, ``60``."""

    base: float
    increment: float = 0.0
    #: Moves per period (the base is added again after each period), None for sudden death.
    moves: int | None = None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        m = _TC_RE.match(text.strip())
        if not m:
            raise ValueError(f"bad time control {text!r}: expected [moves/]seconds[+increment]")
        moves = int(m.group(1)) if m.group(1) else None
        base = float(m.group(2))
        inc = float(m.group(3)) if m.group(3) else 0.0
        if base <= 0 or (moves is not None and moves <= 0):
            raise ValueError(f"bad time control {text!r}: base time and moves must be positive")
        return cls(base, inc, moves)

    def __str__(self) -> str:
        text = f"{self.base:g}"
        if self.moves is not None:
            text = f"{self.moves}/{text}"
        if self.increment:
            text += f"+{self.increment:g}"
        return text


class Clock:
    """Both sides' clocks for one game, plus the per-move ``movetime`` limit if any.

    Pure bookkeeping: the caller measures how long a move took and calls ``charge``.
    """

    def __init__(
        self, tc: TimeControl | None, movetime: float | None = None, margin: float = TIME_MARGIN
    ) -> None:
        self.tc = tc
        self.movetime = movetime
        self.margin = margin
        base = tc.base if tc else 0.0
        self.remaining = {chess.WHITE: base, chess.BLACK: base}
        self.moves_made = {chess.WHITE: 0, chess.BLACK: 0}

    @property
    def timed(self) -> bool:
        """Whether moves have a time limit at all (else only nodes/depth bound them)."""
        return self.tc is not None or self.movetime is not None

    def limit_kwargs(self, side: chess.Color) -> dict[str, float | int]:
        """The clock fields of ``chess.engine.Limit`` for ``side`` to move."""
        kwargs: dict[str, float | int] = {}
        if self.tc is not None:
            kwargs["white_clock"] = max(self.remaining[chess.WHITE], 0.001)
            kwargs["black_clock"] = max(self.remaining[chess.BLACK], 0.001)
            kwargs["white_inc"] = self.tc.increment
            kwargs["black_inc"] = self.tc.increment
            if self.tc.moves is not None:
                kwargs["remaining_moves"] = self.tc.moves - self.moves_made[side] % self.tc.moves
        if self.movetime is not None:
            kwargs["time"] = self.movetime
        return kwargs

    def budget(self, side: chess.Color) -> float | None:
        """Seconds ``side`` may take for this move before its flag falls (margin included)."""
        limits = []
        if self.tc is not None:
            limits.append(self.remaining[side])
        if self.movetime is not None:
            limits.append(self.movetime)
        return min(limits) + self.margin if limits else None

    def charge(self, side: chess.Color, elapsed: float) -> bool:
        """Charge ``elapsed`` seconds to ``side``; True when that made its flag fall.

        After a move within the margin the clock is at least zero, then the increment (and,
        at the end of a period of ``moves``, the base time) is added.
        """
        fell = False
        if self.movetime is not None and elapsed > self.movetime + self.margin:
            fell = True
        if self.tc is not None:
            left = self.remaining[side] - elapsed
            if left < -self.margin:
                fell = True
            left = max(left, 0.0)
            self.moves_made[side] += 1
            if self.tc.moves is not None and self.moves_made[side] % self.tc.moves == 0:
                left += self.tc.base
            self.remaining[side] = left + self.tc.increment
        else:
            self.moves_made[side] += 1
        return fell
