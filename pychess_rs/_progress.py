"""A one-line progress display for long command-line runs (perft suites, the fuzzer, matches).

On a terminal the line is redrawn in place (``\\r``). On a pipe or a file, where ``\\r`` would
pile up, a plain line is written instead at each tenth of the work, or every
:data:`LOG_SECONDS` when the total is unknown, so that a CI log shows a run is alive without
drowning in it. Standard library only: the package has no dependencies.

Usage::

    bar = Progress(sys.stderr, label="perft.epd")
    for done, item in enumerate(items, 1):
        work(item)
        if bar.due() or done == len(items):
            bar.show(f"{done}/{len(items)} positions", done / len(items))
    bar.finish()

Anything else written to the stream while a line is on screen should be preceded by
:meth:`Progress.clear`, so the two do not mix.
"""

from __future__ import annotations

import sys
import time
from typing import IO

#: Shortest interval between two redraws on a terminal, in seconds.
REDRAW_SECONDS = 0.1
#: Interval between two lines on a pipe or file when the fraction done is unknown, in seconds.
LOG_SECONDS = 30.0
#: Characters of the ``[###---]`` bar.
BAR_WIDTH = 20


class Progress:
    """A status line on ``stream`` (default ``sys.stderr``); does nothing when not ``enabled``."""

    def __init__(self, stream: IO[str] | None = None, *, label: str = "", enabled: bool = True):
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.enabled = enabled
        isatty = getattr(self.stream, "isatty", None)
        self.tty = enabled and isatty is not None and bool(isatty())
        self._shown = 0  # length of the line on screen (terminal only)
        self._checked = float("-inf")  # when due() last said yes
        self._logged = time.monotonic()  # when the last plain line was written
        self._next_tenth = 1
        self._created = time.monotonic()

    def due(self) -> bool:
        """Whether :meth:`show` would be worth calling now (at most ten times a second).

        Cheap, so a caller can build its status text only when it is due.
        """
        if not self.enabled:
            return False
        now = time.monotonic()
        if now - self._checked < REDRAW_SECONDS:
            return False
        self._checked = now
        return True

    def show(self, text: str, fraction: float | None = None) -> None:
        """Display ``text``, with a bar and a percentage when ``fraction`` (0 to 1) is known.

        On a terminal the line is redrawn; elsewhere a line is written only when ``fraction``
        passes a tenth (or reaches 1), or, with no fraction, every :data:`LOG_SECONDS`.
        """
        if not self.enabled:
            return
        if self.tty:
            words = [self.label] if self.label else []
            if fraction is not None:
                filled = int(BAR_WIDTH * min(max(fraction, 0.0), 1.0))
                words.append(f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {fraction:4.0%}")
            words.append(text)
            line = " ".join(words)
            self.stream.write("\r" + line.ljust(self._shown))
            self._shown = len(line)
            self.stream.flush()
            return
        now = time.monotonic()
        if fraction is None:
            if now - self._logged < LOG_SECONDS:
                return
        elif fraction * 10 >= self._next_tenth:
            self._next_tenth = int(fraction * 10) + 1
        else:
            return
        self._logged = now
        words = [f"{self.label}:"] if self.label else []
        if fraction is not None:
            words.append(f"{fraction:.0%}")
        words.append(text)
        self.stream.write(" ".join(words) + "\n")
        self.stream.flush()

    def count(self, done: int, total: int | None = None, unit: str = "items") -> None:
        """Shows ``done`` (of ``total``) ``unit`` with the rate so far and, when the total is
        known, the time left at that rate: ``12/40 games, 3.1/s, ETA 0:09``."""
        if not (self.due() or done == total):
            return
        elapsed = time.monotonic() - self._created
        rate = done / elapsed if elapsed > 0 else 0.0
        words = [f"{done}/{total} {unit}" if total is not None else f"{done} {unit}"]
        words.append(f"{rate:.1f}/s")
        if total is not None and rate > 0:
            words.append(f"ETA {format_seconds((total - done) / rate)}")
        self.show(", ".join(words), done / total if total else None)

    def clear(self) -> None:
        """Erase the line from a terminal (before other output, or to leave no trace)."""
        if self._shown:
            self.stream.write("\r" + " " * self._shown + "\r")
            self.stream.flush()
            self._shown = 0

    def finish(self) -> None:
        """End the line on a terminal, leaving its last state on screen."""
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = 0


def format_seconds(seconds: float) -> str:
    """``H:MM:SS`` (or ``M:SS`` under an hour), rounded up to the second."""
    whole = int(-(-seconds // 1)) if seconds > 0 else 0
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"
