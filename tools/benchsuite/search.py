"""Workload ``search-speed``: nodes per second of a fixed-depth search over fixed positions, one
thread: our engine's bench set (``pychess-rs bench``, whose node count is the search's
signature) beside Stockfish's own ``bench``. Different engines and positions, so the ratio
compares speed of search, not strength.
"""

from __future__ import annotations

from typing import Any

from .config import Context
from .report import Row, log
from .stockfish import stockfish_bench
from .timing import Measured, best_of


def _nodes(nodes: Any) -> str:
    return f"{nodes:,} nodes"


def rows(ctx: Context) -> list[Row]:
    from pychess_rs import _core

    depth = ctx.sizes.search_depth
    workload = f"search speed (bench d{depth}, 1 thread)"
    log(f"[{workload}]")

    def ours_bench() -> Measured:
        nodes, seconds, _ = _core.bench(depth)
        return Measured(nodes, seconds)

    ours = Row(workload, "pychess-rs", unit="nodes")
    timing = best_of(ours_bench, ctx.repeat, "pychess-rs", describe=_nodes)
    ours.seconds, ours.units = timing.seconds, float(timing.result or 0)
    ours.note = timing.note or f"{int(ours.units):,} nodes (the bench signature)"
    reference = Row(workload, "stockfish", unit="nodes")
    if ctx.stockfish is None:
        reference.note = "stockfish not found (apt-get install stockfish)"
    else:
        sf_depth = ctx.sizes.stockfish_bench_depth
        path = ctx.stockfish
        timing = best_of(
            lambda: stockfish_bench(path, sf_depth), ctx.repeat, "stockfish", describe=_nodes
        )
        reference.seconds, reference.units = timing.seconds, float(timing.result or 0)
        if timing.seconds is None:
            reference.note = f"stockfish bench failed: {timing.note}"
        else:
            reference.ratio, reference.ratio_ref = 1.0, "(ref)"
            reference.note = f"its own bench, depth {sf_depth}"
    if ours.rate and reference.rate:
        ours.ratio, ours.ratio_ref = ours.rate / reference.rate, "nps vs stockfish"
    return [ours, reference]
