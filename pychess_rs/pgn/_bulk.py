"""The bulk reader: many games fast, as light records, without node trees.

Reading, decompression and move parsing happen in Rust on worker threads with the GIL
released; games come out in file order. Tag filters run before any move is read.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, NamedTuple, Union

from .._core import PgnGame, PgnReader
from .._progress import Progress

__all__ = ["BadGame", "GameStream", "PgnGame", "read_games"]

#: What ``read_games`` reads: a path or an open file (binary or text).
Source = Union[str, "os.PathLike[str]", IO[bytes], IO[str]]
#: ``where=``: tag -> value (equality) or ``(op, value)``, ``op`` one of ``==``, ``!=``, ``<``,
#: ``<=``, ``>``, ``>=``, ``contains``; numbers compare as numbers.
Where = Union[
    Mapping[str, Union[str, int, float, tuple[str, Union[str, int, float]]]],
    Sequence[tuple[str, str, Union[str, int, float]]],
]


class BadGame(NamedTuple):
    """A game skipped for its errors: where it starts and why."""

    offset: int
    errors: list[Exception]

    @property
    def reason(self) -> str:
        return "; ".join(str(e) for e in self.errors)


def _conditions(where: Where | None) -> list[tuple[str, str, str]]:
    if where is None:
        return []
    out: list[tuple[str, str, str]] = []
    if isinstance(where, Mapping):
        for tag, test in where.items():
            if isinstance(test, tuple):
                op, value = test
                out.append((tag, op, str(value)))
            else:
                out.append((tag, "==", str(test)))
    else:
        for tag, op, value in where:
            out.append((tag, op, str(value)))
    return out


class GameStream(Iterator[PgnGame]):
    """The games of a PGN source, in order. After (or during) iteration, :attr:`bad` lists
    the games skipped for errors (with ``skip_errors=True``) and :attr:`count` the games
    yielded."""

    def __init__(
        self,
        reader: PgnReader,
        *,
        skip_errors: bool,
        progress: bool,
        total_bytes: int | None,
        label: str,
        base: int = 0,
    ) -> None:
        self._reader = reader
        self._skip_errors = skip_errors
        self.bad: list[BadGame] = []
        self.count = 0
        self._bar = Progress(sys.stderr, label=label, enabled=progress)
        self._total = total_bytes
        self._start = time.monotonic()
        self._base = base
        self._offset = base

    def __iter__(self) -> GameStream:
        return self

    def __next__(self) -> PgnGame:
        while True:
            game = next(self._reader, None)
            if game is None:
                self._show(final=True)
                raise StopIteration
            self._offset = game.offset
            if self._bar.enabled and self._bar.due():
                self._show()
            if self._skip_errors:
                errors = game.errors
                if errors:
                    self.bad.append(BadGame(game.offset, errors))
                    continue
            self.count += 1
            return game

    def _show(self, *, final: bool = False) -> None:
        if not self._bar.enabled:
            return
        elapsed = max(time.monotonic() - self._start, 1e-9)
        done = self._total if final and self._total else self._offset - self._base
        mb = done / 1e6
        text = f"{self.count} games, {mb:.1f} MB, {self.count / elapsed:.0f} games/s"
        if self.bad:
            text += f", {len(self.bad)} bad"
        fraction = None
        if final:
            fraction = 1.0
        elif self._total:
            fraction = min((self._offset - self._base) / self._total, 1.0)
        self._bar.show(text, fraction)
        if final:
            self._bar.finish()


def read_games(
    source: Source,
    *,
    threads: int | None = None,
    where: Where | None = None,
    time_control: str | Sequence[str] | None = None,
    fens: bool = False,
    skip_errors: bool = False,
    progress: bool = False,
    start: int | None = None,
    end: int | None = None,
) -> GameStream:
    """Reads every game of ``source`` (a path or a file; ``.gz``, ``.bz2`` and ``.zst``
    content is recognised by its first bytes) as :class:`PgnGame` records: ``headers``,
    ``moves`` (UCI), ``san``, ``result``, ``errors``, ``offset``, ``fens``.

    ``threads``: parsing threads (default: all cores; 1 parses in the calling thread).
    ``where``: tag conditions, all required, e.g. ``{"WhiteElo": (">=", 2000)}``.
    ``time_control``: allowed classes of the ``TimeControl`` tag (``bullet``, ``blitz``,
    ``rapid``, ``standard``/``classical``, ``unlimited``, ``unknown``).
    ``fens``: compute the FEN after each ply on the worker threads.
    ``skip_errors``: leave out games with errors, listing them in ``stream.bad``.
    ``start``/``end``: only the games starting in this byte range of an uncompressed file
    (see :func:`pychess_rs.pgn.byte_ranges`).
    """
    if threads is None:
        threads = os.cpu_count() or 1
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    classes: list[str] = []
    if time_control is not None:
        classes = [time_control] if isinstance(time_control, str) else list(time_control)
    path: str | None = None
    src: object = source
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        src = path
    reader = PgnReader(
        src,
        threads=threads,
        fens=fens,
        conditions=_conditions(where),
        time_classes=classes,
        start=start,
        end=end,
    )
    total = None
    if path is not None:
        with open(path, "rb") as f:
            magic = f.read(4)
        if not (magic.startswith((b"\x1f\x8b", b"BZh", b"\x28\xb5\x2f\xfd"))):
            size = os.path.getsize(path)
            total = (end if end is not None else size) - (start or 0)
    label = os.path.basename(path) if path else "pgn"
    return GameStream(
        reader,
        skip_errors=skip_errors,
        progress=progress,
        total_bytes=total,
        label=label,
        base=start or 0,
    )
