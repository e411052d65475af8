"""The handle of a running analysis: :class:`AnalysisResult` collects the engine's reports
as they come, merges them per line of play (``multipv``), and ends with the engine's best
move. Iterate over it (``async for info in analysis``) to read each report once."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Callable

from ._errors import AnalysisComplete
from ._info import InfoDict
from ._limits import BestMove

__all__ = ["AnalysisResult", "Reports"]


class Reports:
    """The reports of an analysis so far: each merged into :attr:`multipv` (one
    :class:`InfoDict` per line of play, best first; :attr:`info` is the best line's) and
    queued once for reading. What the handles of both clients share (the event loop's
    :class:`AnalysisResult`, the blocking client's ``SyncAnalysis``)."""

    def __init__(self) -> None:
        self._queue: deque[InfoDict] = deque()
        self.multipv: list[InfoDict] = [{}]

    @property
    def info(self) -> InfoDict:
        """Everything reported so far about the best line (``multipv`` 1), merged."""
        return self.multipv[0]

    def post(self, info: InfoDict) -> None:
        """Adds a report (called by the protocol)."""
        index = info.get("multipv", 1)
        while len(self.multipv) < index:
            self.multipv.append({})
        self.multipv[index - 1].update(info)
        self._queue.append(info)


class AnalysisResult(Reports):
    """An analysis that may still be running, on an event loop: its reports (see
    :class:`Reports`), each read once by :meth:`get`/:meth:`next`/``async for``.

    Leaving ``with analysis:`` stops it. Made by the protocols' ``analysis()``; ``stop``
    is what asks the engine to end the search."""

    def __init__(self, stop: Callable[[], None] | None = None) -> None:
        super().__init__()
        self._stop = stop
        self._changed = asyncio.Event()
        self._finished: asyncio.Future[BestMove] = asyncio.get_running_loop().create_future()
        # An analysis that fails with nobody waiting must not log "exception never retrieved".
        self._finished.add_done_callback(_retrieve)

    def post(self, info: InfoDict) -> None:
        """Adds a report (called by the protocol)."""
        super().post(info)
        self._changed.set()

    def set_finished(self, best: BestMove) -> None:
        """Ends the analysis with the engine's best move (called by the protocol)."""
        if not self._finished.done():
            self._finished.set_result(best)
        self._changed.set()

    def set_exception(self, exc: BaseException) -> None:
        """Ends the analysis with an error (called by the protocol)."""
        if not self._finished.done():
            self._finished.set_exception(exc)
        self._changed.set()

    def stop(self) -> None:
        """Asks the engine to stop searching (it then sends its best move); does nothing
        once the analysis has ended."""
        if self._stop is not None and not self._finished.done():
            stop, self._stop = self._stop, None
            stop()

    async def wait(self) -> BestMove:
        """Waits for the end of the analysis and returns the best move.

        :raises: :exc:`EngineError` (or :exc:`EngineTerminatedError`) if it failed.
        """
        return await asyncio.shield(self._finished)

    def would_block(self) -> bool:
        """Would :meth:`get` have to wait (no report queued and not ended yet)?"""
        return not self._queue and not self._finished.done()

    def empty(self) -> bool:
        """Has every report so far been read (by :meth:`get`, :meth:`next` or iteration)?"""
        return not self._queue

    async def get(self) -> InfoDict:
        """The next unread report, waiting for it if need be.

        :raises: :exc:`AnalysisComplete` when the analysis has ended and everything was
            read; the analysis's error if it failed.
        """
        while not self._queue:
            if self._finished.done():
                self._finished.result()  # raises the engine's error, if any
                raise AnalysisComplete()
            self._changed.clear()
            await self._changed.wait()
        return self._queue.popleft()

    async def next(self) -> InfoDict | None:
        """Like :meth:`get`, but ``None`` at the end instead of :exc:`AnalysisComplete`."""
        try:
            return await self.get()
        except AnalysisComplete:
            return None

    def __aiter__(self) -> AnalysisResult:
        return self

    async def __anext__(self) -> InfoDict:
        try:
            return await self.get()
        except AnalysisComplete:
            raise StopAsyncIteration from None

    def __enter__(self) -> AnalysisResult:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "finished" if self._finished.done() else "running"
        return f"<{type(self).__name__} ({state}, {len(self._queue)} unread) at {id(self):#x}>"


def _retrieve(future: asyncio.Future[BestMove]) -> None:
    if not future.cancelled():
        future.exception()
