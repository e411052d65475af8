"""Workload ``native-perft``: ``pychess_rs.Board(fen).perft(depth)`` (bulk counting at the last
ply, one thread) against Stockfish's ``go perft`` on the same positions with ``Threads 1``.

Ratio: Stockfish's time over ours (higher is faster). Without a Stockfish binary its rows say
so and ours are timed alone.
"""

from __future__ import annotations

import functools

from .config import PERFT_COUNTS, POSITION_NAMES, Context
from .report import Row, log
from .stockfish import Stockfish
from .timing import best_of


def rows(ctx: Context) -> list[Row]:
    out: list[Row] = []
    ours = next(i for i in ctx.impls if i.name == "pychess-rs")
    stockfish: Stockfish | None = None
    sf_note = ""
    if ctx.stockfish is None:
        sf_note = "stockfish not found (apt-get install stockfish)"
    else:
        try:
            stockfish = Stockfish(ctx.stockfish)
            log(f"  stockfish: {stockfish.name} ({ctx.stockfish})")
            ctx.versions.append(stockfish.name)
        except Exception as exc:
            sf_note = f"stockfish failed to start: {exc}"
    try:
        for fen, depth in ctx.sizes.native_perft:
            workload = f"native perft {POSITION_NAMES[fen]} d{depth}"
            nodes = PERFT_COUNTS[fen][depth]
            log(f"[{workload}] {nodes:,} nodes")
            sf_row = Row(workload, "stockfish", units=nodes, unit="nodes")
            if stockfish is None:
                sf_row.note = sf_note
            else:
                run = functools.partial(stockfish.perft, fen, depth)
                timing = best_of(run, ctx.repeat, "stockfish", nodes)
                sf_row.seconds, sf_row.note = timing.seconds, timing.note
                if timing.seconds is not None:
                    sf_row.ratio, sf_row.ratio_ref = 1.0, "(ref)"
            row = Row(workload, "pychess-rs", units=nodes, unit="nodes")
            runner = ours.adapter.native_perft_setup(fen, depth) if ours.adapter else None
            if ours.adapter is None:
                row.note = ours.status
            elif runner is None:
                row.note = "Board.perft missing"
            else:
                timing = best_of(runner, ctx.repeat, "pychess-rs", nodes)
                row.seconds, row.note = timing.seconds, timing.note
            if row.seconds and sf_row.seconds:
                row.ratio, row.ratio_ref = sf_row.seconds / row.seconds, "vs stockfish"
            out += [row, sf_row]
    finally:
        if stockfish is not None:
            stockfish.close()
    return out
