"""pychess_rs.engine.EnginePool / analyse_many: many positions and games on N engines, in
input order, an engine that dies replaced, a position that kills engines twice reported as an
error, and no engine process left once the pool is closed (counted as in
tests/test_engine_client.py)."""

from __future__ import annotations

import io
import os
import shutil
import sys
from typing import Any

import pytest
from test_engine_client import fake, live_processes, marker, wait_gone  # noqa: F401

import pychess_rs
from pychess_rs import pgn
from pychess_rs._progress import Progress, format_seconds
from pychess_rs.engine import (
    EnginePool,
    EngineTerminatedError,
    Limit,
    Mate,
    MateGiven,
    PoolResult,
    analyse_many,
)

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
GAME = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6".split()


def plies(count: int) -> pychess_rs.Board:
    board = pychess_rs.Board()
    for uci in GAME[:count]:
        board.push_uci(uci)
    return board


def test_builtin_engine_on_threads_keeps_input_order() -> None:
    fens = [MATE_IN_ONE, pychess_rs.STARTING_FEN] * 4
    with EnginePool(workers=2, hash_mb=1) as pool:
        results = list(pool.analyse_many(fens, Limit(depth=3)))
    assert [r.index for r in results] == list(range(8))
    assert [r.item for r in results] == fens
    assert all(r.ok and r.attempts == 1 for r in results)
    for r in results[::2]:
        assert r.value is not None
        assert r.value["pv"][0] == pychess_rs.Move.from_uci("a1a8")
        assert r.value["score"].white() == Mate(1)


def test_per_position_limits_and_finished_positions() -> None:
    mated = pychess_rs.Board("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1")
    items: list[Any] = [(MATE_IN_ONE, Limit(depth=1)), (MATE_IN_ONE, Limit(depth=4)), mated]
    results = list(analyse_many(items, Limit(depth=2), workers=2))
    assert [r.value["depth"] for r in results[:2]] == [1, 4]  # type: ignore[index]
    assert results[2].value == {"score": pychess_rs.engine.PovScore(MateGiven, True)}


def test_bad_input_is_an_error_result_without_retry() -> None:
    results = list(analyse_many(["not a fen", MATE_IN_ONE], Limit(depth=1), workers=1))
    assert isinstance(results[0].error, ValueError) and results[0].attempts == 1
    assert results[1].ok


def test_uci_engine_crash_is_retried_then_reported(marker: str) -> None:  # noqa: F811
    boards = [plies(n) for n in range(6)]
    with EnginePool(fake(marker, "die-at-ply:3"), workers=2) as pool:
        results = list(pool.analyse_many(boards, Limit(depth=1)))
        assert pool.restarts == 2  # the engine that died, and the fresh one that died too
    assert not wait_gone(marker)
    assert [r.index for r in results] == list(range(6))
    assert [r.ok for r in results] == [True, True, True, False, True, True]
    assert isinstance(results[3].error, EngineTerminatedError)
    assert results[3].attempts == 2
    for n in (0, 1, 2, 4, 5):
        assert results[n].value["pv"][0] == pychess_rs.Move.from_uci(GAME[n])  # type: ignore[index]


def test_stopping_early_leaves_no_process(marker: str) -> None:  # noqa: F811
    with EnginePool(fake(marker, "slow"), workers=2) as pool:
        run = pool.analyse_many((plies(n % 6) for n in range(1000)), Limit(depth=1))
        first = next(run)
        run.close()
    assert first.ok and first.index == 0
    assert not wait_gone(marker)
    with pytest.raises(RuntimeError, match="closed"):
        next(pool.analyse_many([MATE_IN_ONE], Limit(depth=1)))


def test_our_uci_front_in_a_pool_matches_the_builtin_pool(marker: str) -> None:  # noqa: F811
    program = shutil.which("pychess-rs-uci") or shutil.which(
        "pychess-rs-uci", path=os.path.dirname(sys.executable)
    )
    if program is None:
        pytest.skip("the pychess-rs-uci console script is not installed")
    fens = [MATE_IN_ONE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"]
    with EnginePool([program, marker], workers=2, options={"Hash": 1}) as pool:
        theirs = [r.value["pv"][0] for r in pool.analyse_many(fens, Limit(depth=3))]  # type: ignore[index]
        assert len(live_processes(marker)) == 2
    assert not wait_gone(marker)
    ours = [r.value["pv"][0] for r in analyse_many(fens, Limit(depth=3), workers=1)]  # type: ignore[index]
    assert theirs == ours


def test_games_are_analysed_position_by_position() -> None:
    text = '[Event "t"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n[Event "u"]\n\n1. e4 *\n'
    stream = io.StringIO(text)
    games = [pgn.read_game(stream), pgn.read_game(stream)]
    with EnginePool(workers=2, hash_mb=1) as pool:
        results = list(pool.analyse_games(games, Limit(depth=2)))
    assert [len(r.value or []) for r in results] == [5, 2]
    last = results[0].value[-1]  # type: ignore[index]
    assert last["score"].white() == -MateGiven  # Black gave mate


def test_progress_reports_count_and_eta() -> None:
    out = io.StringIO()
    bar = Progress(out, label="analyse")
    list(analyse_many([MATE_IN_ONE] * 10, Limit(depth=1), workers=2, progress=bar))
    lines = out.getvalue().splitlines()
    assert lines[-1].startswith("analyse: 100% 10/10 positions")
    assert "ETA 0:00" in lines[-1]
    assert format_seconds(3725.2) == "1:02:06" and format_seconds(59) == "0:59"


def test_pool_result_is_a_value() -> None:
    result: PoolResult[int] = PoolResult(0, "x", value=1)
    assert result.ok and PoolResult(0, "x", error=ValueError()).ok is False


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="workers"):
        EnginePool(workers=0)
    with pytest.raises(ValueError, match="options"):
        EnginePool(["x"], hash_mb=1)
    (result,) = analyse_many([MATE_IN_ONE], workers=1)
    assert isinstance(result.error, ValueError) and "no limit" in str(result.error)


def test_module_example() -> None:
    import doctest

    from pychess_rs.engine import _pool

    result = doctest.testmod(_pool)
    assert result.attempted > 0 and result.failed == 0
