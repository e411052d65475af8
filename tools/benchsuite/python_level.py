"""The Python-level workloads, against python-chess and its peers (:mod:`.peers`):

``python-perft``
    Perft through each library's Python API, no bulk counting: ``for m in
    list(board.legal_moves): board.push(m); recurse; board.pop()`` down to depth 0 (start
    position depth 4, Kiwipete depth 3). Libraries without ``pop()`` copy the board instead.
``random-games``
    300 games of at most 300 plies, drawn once with python-chess from a fixed seed
    (:func:`.inputs.make_games`), so every library replays the same games. At every ply (and
    the final position) each library lists the legal moves and evaluates checkmate,
    stalemate, insufficient material, the 75-move rule and fivefold repetition, then plays the
    game's next move (converted to the library's move type before timing).

:func:`run_workload` times one workload for every implementation (``fen-legal`` uses it too):
each result is checked against python-chess's, and ratios are python-chess's time over the
implementation's.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from .config import GAMES_SEED, MAX_PLIES, PERFT_COUNTS, POSITION_NAMES, Context
from .inputs import game_checksum_fields, make_games
from .peers import Adapter
from .report import Row, log, set_ratios
from .timing import best_of

REFERENCE = "python-chess"


def run_workload(
    ctx: Context,
    workload: str,
    key: str,
    setup: Callable[[Adapter], Callable[[], Any]],
    expected: Any,
    units: float,
    unit: str,
) -> list[Row]:
    """One row per implementation; ``setup`` (untimed) gives the timed callable, ``key`` names
    the workload in the adapters' ``notes``."""
    log(f"[{workload}]")
    rows: list[Row] = []
    reference: Row | None = None
    for impl in ctx.impls:
        row = Row(workload, impl.name, units=units, unit=unit)
        rows.append(row)
        if impl.adapter is None:
            row.note = impl.status
            continue
        try:
            runner = setup(impl.adapter)
        except Exception as exc:
            row.note = f"setup failed: {type(exc).__name__}: {exc}"[:100]
            log(f"    {impl.name}: {row.note}")
            continue
        timing = best_of(runner, ctx.repeat, impl.name, expected, time_wrong=ctx.time_wrong)
        row.seconds, row.note = timing.seconds, timing.note
        if row.seconds is not None and not row.note:
            row.note = impl.adapter.notes.get(key, "")
            if impl.name == REFERENCE:
                reference = row
    set_ratios(rows, reference)
    return rows


def python_perft_rows(ctx: Context) -> list[Row]:
    rows: list[Row] = []
    for fen, depth in ctx.sizes.python_perft:
        nodes = PERFT_COUNTS[fen][depth]
        rows += run_workload(
            ctx,
            f"python perft {POSITION_NAMES[fen]} d{depth}",
            "python-perft",
            lambda adapter, fen=fen, depth=depth: adapter.perft_setup(fen, depth),
            nodes,
            nodes,
            "nodes",
        )
    return rows


def random_games_rows(ctx: Context) -> list[Row]:
    import chess

    games = ctx.sizes.games
    start = time.perf_counter()
    scripts = make_games(chess, games, GAMES_SEED)
    log(
        f"  drew {games} games with python-chess in {time.perf_counter() - start:.1f} s; "
        f"expected {game_checksum_fields()} = {scripts.expected}"
    )
    return run_workload(
        ctx,
        f"random games ({games} x <={MAX_PLIES} plies)",
        "random-games",
        lambda adapter: adapter.games_setup(scripts),
        scripts.expected,
        scripts.expected[1],
        "plies",
    )
