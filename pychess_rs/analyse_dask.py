"""Games analysed on a Dask cluster (``pychess-rs analyse --scheduler ADDRESS``).

Each game is one task. Every worker process keeps its own
:class:`~pychess_rs.engine.EnginePool` (one per engine and hash size, with as many engines as
the worker has threads), started with its first game and reused for the next ones, so engines
start once per worker, not once per game. Results come back in input order, at most
``ahead`` games in flight. Needs ``dask.distributed`` (``pip install 'pychess-rs[dask]'``).
"""

from __future__ import annotations

import atexit
import collections
import dataclasses
import importlib
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from ._progress import Progress
from .engine import EnginePool, InfoDict, Limit, PoolResult

__all__ = ["analyse_game", "analyse_games_on"]

_POOLS: dict[tuple[Any, ...], EnginePool] = {}
_POOLS_LOCK = threading.Lock()


def _worker_threads() -> int:
    try:
        distributed = importlib.import_module("dask.distributed")
        return int(distributed.get_worker().state.nthreads)
    except (ImportError, ValueError, AttributeError):  # not on a Dask worker
        return 1


def worker_pool(engine: tuple[str, ...] | None, hash_mb: int) -> EnginePool:
    """This process's pool for ``engine`` (``None``: the built-in one), started on first use
    and closed when the process exits."""
    key = (engine, hash_mb)
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            workers = _worker_threads()
            if engine is None:
                pool = EnginePool(None, workers, hash_mb=hash_mb, threads=1)
            else:
                pool = EnginePool(list(engine), workers, options={"Hash": hash_mb})
            atexit.register(pool.close)
            _POOLS[key] = pool
    return pool


def analyse_game(
    game: Any, limit: Limit, engine: tuple[str, ...] | None, hash_mb: int
) -> PoolResult[list[InfoDict]]:
    """One game on this worker's pool (the task each game becomes)."""
    (result,) = worker_pool(engine, hash_mb).analyse_games([game], limit)
    return result


def analyse_games_on(
    scheduler: Any,
    games: Iterable[Any],
    limit: Limit,
    *,
    engine: tuple[str, ...] | None = None,
    hash_mb: int = 16,
    ahead: int | None = None,
    progress: Progress | None = None,
    total: int | None = None,
) -> Iterator[PoolResult[list[InfoDict]]]:
    """Analyses ``games`` on the Dask cluster at ``scheduler`` (an address, or a
    ``distributed.Client``); yields one :class:`PoolResult` per game, in input order."""
    try:
        distributed = importlib.import_module("dask.distributed")
    except ImportError as e:
        raise ImportError(
            "--scheduler needs dask.distributed: pip install 'pychess-rs[dask]'"
        ) from e
    owned = not isinstance(scheduler, distributed.Client)
    client = distributed.Client(scheduler) if owned else scheduler
    try:
        if ahead is None:
            ahead = 2 * max(1, sum(client.nthreads().values()))
        pending: collections.deque[tuple[int, Any, Any]] = collections.deque()
        done = 0

        def finished() -> PoolResult[list[InfoDict]]:
            nonlocal done
            index, game, future = pending.popleft()
            try:
                result: PoolResult[list[InfoDict]] = future.result()
                result = dataclasses.replace(result, index=index, item=game)
            except Exception as e:  # the task itself failed (a lost worker, say)
                result = PoolResult(index, game, error=e)
            done += 1
            if progress is not None:
                progress.count(done, total, "games")
            return result

        for index, game in enumerate(games):
            future = client.submit(analyse_game, game, limit, engine, hash_mb, pure=False)
            pending.append((index, game, future))
            while len(pending) >= ahead:
                yield finished()
        while pending:
            yield finished()
    finally:
        if owned:
            client.close()
