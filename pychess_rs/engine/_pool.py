"""Many positions (or games) analysed at once by a pool of engines.

::

    >>> import pychess_rs as chess
    >>> from pychess_rs.engine import EnginePool, Limit
    >>> with EnginePool(workers=2) as pool:  # the built-in engine on two threads
    ...     results = list(pool.analyse_many(["8/8/8/8/8/5k2/7q/5K2 w - - 0 1",
    ...                                        chess.STARTING_FEN], Limit(depth=2)))
    >>> [r.index for r in results], all(r.ok for r in results)
    ([0, 1], True)

``EnginePool(command, workers=N)`` runs ``N`` processes of any UCI engine (``command`` as for
:meth:`SimpleEngine.popen_uci`); without a command, ``N`` in-process :class:`Engine` objects
search on ``N`` threads (the search releases the GIL). Results come back in input order from a
generator that works ahead of the consumer (at most ``ahead`` items in flight).

An engine that fails (its process dies, it stops answering: any :exc:`EngineError`, or a
:exc:`RuntimeError` from the in-process engine) is closed (a fresh one is started when
needed) and the item is tried again on another engine, up to ``retries`` more times; an item
that still fails comes back as a :class:`PoolResult` holding the error, and the run goes on.
Bad input (an unreadable FEN, a bad limit: :exc:`ValueError`) is reported at once, without a
retry.
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import os
import queue
import sys
import threading
from collections.abc import Generator, Iterable, Sequence
from typing import IO, Any, Callable, Generic, TypeVar, Union

from .._core import Board
from .._progress import Progress
from ._info import InfoDict
from ._inprocess import Engine
from ._limits import Limit
from ._score import Cp, MateGiven, PovScore

__all__ = ["EnginePool", "PoolResult", "analyse_many"]

T = TypeVar("T")

#: A position: a board (its move stack is sent too) or a FEN; optionally with its own limit.
Position = Union[Board, str]
PositionItem = Union[Position, "tuple[Position, Limit]"]


@dataclasses.dataclass(frozen=True)
class PoolResult(Generic[T]):
    """One item's outcome: ``value`` (an :class:`InfoDict` for a position, a list of them for
    a game) or ``error`` (what failed it, after the retries), never both."""

    index: int
    item: Any
    value: T | None = None
    error: BaseException | None = None
    attempts: int = 1

    @property
    def ok(self) -> bool:
        return self.error is None


def _board(position: Position) -> Board:
    if isinstance(position, str):
        return Board(position)
    if isinstance(position, Board):
        return position.copy()
    raise TypeError(f"expected a pychess_rs.Board or a FEN, got {type(position).__name__}")


def _split(item: Any, limit: Limit | None) -> tuple[Any, Limit]:
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Limit):
        return item[0], item[1]
    if limit is None:
        raise ValueError(f"no limit for {item!r}: pass limit= or (position, Limit) pairs")
    return item, limit


def final_info(board: Board) -> InfoDict | None:
    """The report for a position with no move to search: mate given, or a draw (0); ``None``
    when the game goes on."""
    if board.is_checkmate():
        return InfoDict(score=PovScore(MateGiven, not board.turn))
    if board.is_game_over():
        return InfoDict(score=PovScore(Cp(0), board.turn))
    return None


def game_boards(game: Any) -> list[Board]:
    """The positions of a game's main line (a :class:`pychess_rs.pgn.Game`), from its start
    to after its last move."""
    board = game.board()
    boards = [board.copy()]
    for move in game.mainline_moves():
        board.push(move)
        boards.append(board.copy())
    return boards


class EnginePool:
    """``workers`` engines analysing many positions or games at once (see the module notes).

    ``command``: a UCI engine (a program, or a list of program and arguments); ``None`` for
    the built-in engine in this process (``engine_options`` are :class:`Engine` options).
    ``options``: UCI options configured on every started engine. ``timeout``: seconds an
    engine may stay silent beyond its search's time limit (as :class:`SimpleEngine`).
    ``retries``: other engines an item may use after the one that failed on it.
    """

    def __init__(
        self,
        command: str | Sequence[str] | None = None,
        workers: int | None = None,
        *,
        options: dict[str, Any] | None = None,
        timeout: float | None = 10.0,
        retries: int = 1,
        **engine_options: Any,
    ) -> None:
        if workers is None:
            workers = os.cpu_count() or 1
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        if retries < 0:
            raise ValueError(f"retries must be at least 0, got {retries}")
        if command is not None and engine_options:
            raise ValueError("engine options are for the built-in engine; use options=")
        if command is None and options:
            raise ValueError("options= is for UCI engines; pass the built-in engine's as keywords")
        self.command = command if command is None or isinstance(command, str) else list(command)
        self.workers = workers
        self.retries = retries
        self.timeout = timeout
        self._options = dict(options or {})
        self._engine_options = engine_options
        if command is None:
            Engine(**engine_options)  # checks the options now, not on a worker thread
        self._idle: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._engines: set[Any] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._executor = concurrent.futures.ThreadPoolExecutor(
            workers, thread_name_prefix="pychess-rs-pool"
        )
        #: Engines replaced after a failure, since the pool started.
        self.restarts = 0

    # ---- engines ---------------------------------------------------------------------------

    def _start(self) -> Any:
        if self.command is None:
            engine: Any = Engine(**self._engine_options)
        else:
            from ._simple import SimpleEngine

            engine = SimpleEngine.popen_uci(self.command, timeout=self.timeout)
            if self._options:
                try:
                    engine.configure(self._options)
                except BaseException:
                    engine.close()
                    raise
        with self._lock:
            self._engines.add(engine)
        return engine

    def _acquire(self) -> Any:
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            return self._start()

    def _discard(self, engine: Any) -> None:
        with self._lock:
            self._engines.discard(engine)
            self.restarts += 1
        try:
            engine.close()
        except Exception:  # a dead engine may fail to close; it is gone either way
            pass

    def _attempt(self, index: int, item: Any, job: Callable[[Any, Any], T]) -> PoolResult[T]:
        error: BaseException | None = None
        for attempt in range(1, self.retries + 2):
            try:
                engine = self._acquire()
            except Exception as e:  # an engine that cannot start fails the item, not the run
                error = e
                continue
            try:
                value = job(engine, item)
            except (ValueError, TypeError) as e:  # the item's fault: no retry
                self._idle.put(engine)
                return PoolResult(index, item, error=e, attempts=attempt)
            except Exception as e:  # the engine's fault: replace it and try again
                self._discard(engine)
                error = e
                continue
            self._idle.put(engine)
            return PoolResult(index, item, value=value, attempts=attempt)
        return PoolResult(index, item, error=error, attempts=self.retries + 1)

    # ---- runs ------------------------------------------------------------------------------

    def map(
        self,
        job: Callable[[Any, Any], T],
        items: Iterable[Any],
        *,
        ahead: int | None = None,
        progress: bool | Progress = False,
        unit: str = "items",
        total: int | None = None,
    ) -> Generator[PoolResult[T], None, None]:
        """``job(engine, item)`` for every item, on the pool's engines; results in input
        order, at most ``ahead`` (default: twice the workers) items ahead of the consumer.
        ``progress``: ``True`` (a line on standard error) or a :class:`Progress`; ``total``:
        the number of items for its ETA (default: ``len(items)`` where there is one)."""
        if self._closed:
            raise RuntimeError("the engine pool is closed")
        ahead = max(1, ahead if ahead is not None else 2 * self.workers)
        if total is None and hasattr(items, "__len__"):
            total = len(items)  # type: ignore[arg-type]
        bar = _progress_bar(progress)
        pending: collections.deque[concurrent.futures.Future[PoolResult[T]]] = collections.deque()
        done = 0
        try:
            for index, item in enumerate(items):
                pending.append(self._executor.submit(self._attempt, index, item, job))
                while len(pending) >= ahead:
                    yield pending.popleft().result()
                    done += 1
                    if bar is not None:
                        bar.count(done, total, unit)
            while pending:
                yield pending.popleft().result()
                done += 1
                if bar is not None:
                    bar.count(done, total, unit)
        finally:
            for future in pending:
                future.cancel()
            if bar is not None:
                bar.finish()

    def analyse_many(
        self,
        positions: Iterable[PositionItem],
        limit: Limit | None = None,
        *,
        ahead: int | None = None,
        progress: bool | Progress = False,
        total: int | None = None,
    ) -> Generator[PoolResult[InfoDict], None, None]:
        """Analyses every position (a :class:`Board` or a FEN, or a ``(position, Limit)`` pair
        for its own limit) and yields a :class:`PoolResult` per position, in input order, its
        ``value`` the engine's final :class:`InfoDict`.
        """

        def job(engine: Any, item: Any) -> InfoDict:
            position, item_limit = _split(item, limit)
            board = _board(position)
            final = final_info(board)
            if final is not None:
                return final
            info: InfoDict = engine.analyse(board, item_limit)
            return info

        return self.map(
            job, positions, ahead=ahead, progress=progress, unit="positions", total=total
        )

    def analyse_games(
        self,
        games: Iterable[Any],
        limit: Limit | None = None,
        *,
        ahead: int | None = None,
        progress: bool | Progress = False,
        total: int | None = None,
    ) -> Generator[PoolResult[list[InfoDict]], None, None]:
        """Analyses every position of each game's main line (a :class:`pychess_rs.pgn.Game`,
        or a ``(game, Limit)`` pair), one engine per game, and yields a :class:`PoolResult`
        per game in input order: its ``value`` one :class:`InfoDict` per position, from the
        start position to the final one. Each game starts with an empty hash table
        (``ucinewgame``), so its report does not depend on the games analysed before it. A
        game whose engine fails is started again on another engine (``retries``)."""

        def job(engine: Any, item: Any) -> list[InfoDict]:
            game, item_limit = _split(item, limit)
            # Each game starts from an empty hash table, so that a game's analysis does not
            # depend on the games its engine saw before (nor on the number of workers).
            if isinstance(engine, Engine):
                engine.clear()
                new_game: dict[str, object] = {}
            else:
                new_game = {"game": object()}  # a new game object: ucinewgame
            infos = []
            for board in game_boards(game):
                final = final_info(board)
                if final is None:
                    final = engine.analyse(board, item_limit, **new_game)
                infos.append(final)
            return infos

        return self.map(job, games, ahead=ahead, progress=progress, unit="games", total=total)

    # ---- closing ---------------------------------------------------------------------------

    def close(self) -> None:
        """Waits for running items, drops queued ones and closes every engine (no engine
        process outlives this call)."""
        if self._closed:
            return
        self._closed = True
        self._executor.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            engines, self._engines = self._engines, set()
        for engine in engines:
            try:
                engine.close()
            except Exception:
                pass

    def __enter__(self) -> EnginePool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        what = "built-in engine" if self.command is None else repr(self.command)
        return f"<EnginePool {what} workers={self.workers}>"


def _progress_bar(progress: bool | Progress, stream: IO[str] | None = None) -> Progress | None:
    if isinstance(progress, Progress):
        return progress
    if progress:
        return Progress(stream if stream is not None else sys.stderr, label="analyse")
    return None


def analyse_many(
    positions: Iterable[PositionItem],
    limit: Limit | None = None,
    *,
    engine: str | Sequence[str] | None = None,
    workers: int | None = None,
    retries: int = 1,
    ahead: int | None = None,
    progress: bool | Progress = False,
) -> Generator[PoolResult[InfoDict], None, None]:
    """:meth:`EnginePool.analyse_many` on a pool of its own, closed when the generator ends
    (or is closed)."""
    with EnginePool(engine, workers, retries=retries) as pool:
        yield from pool.analyse_many(positions, limit, ahead=ahead, progress=progress)
