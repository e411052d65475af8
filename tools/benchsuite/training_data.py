"""Workload ``training-data``: positions written per second by ``pychess_rs.training_data``.

From PGN: the lichess-style annotated corpus of the ``pgn`` workload (``annotated_corpus``: a
``[%eval]`` on most moves, which become the NNUE scores), as many games as that workload's
second table, written as bullet and marlinflow NNUE records, Lc0 V6 chunks and AlphaZero
``.npy`` tensors, on 1 thread and on 2. From self-play: the built-in engine at 1,000 nodes a
move after 8 random plies, NNUE records, on 1 thread and on 2. Every run of a row must write
the same number of positions. The output goes to a temporary directory, deleted afterwards;
there is no peer to compare with (no Python library writes these formats), so no ratios.
Each row's note gives the rate per second of the process's CPU time (all threads) in its
fastest run: on a shared machine it moves less than the wall-clock rate.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from typing import Any, Callable

from .config import Context
from .report import Row, log
from .timing import best_of

#: Self-play: games per run (``--quick``: a third), nodes per move.
SELFPLAY_GAMES = 6
SELFPLAY_NODES = 1000


def measure(pgn_games: int, repeat: int, quick: bool) -> list[Row]:
    """The rows: ``units`` are the positions written by one run."""
    from pychess_rs import training_data as td

    from .pgn import make_annotated_corpus

    path, size = make_annotated_corpus(pgn_games)
    out_dir = tempfile.mkdtemp(prefix="pychess-rs-bench-training-")
    rows: list[Row] = []

    def timed(workload: str, impl: str, write: Callable[[str], Any]) -> None:
        target = os.path.join(out_dir, "out")
        counts: list[int] = []
        cpu: list[tuple[float, float]] = []  # (wall, CPU) seconds of each run

        def run() -> int:
            shutil.rmtree(target, ignore_errors=True)
            if os.path.exists(target):
                os.unlink(target)
            wall, started = time.perf_counter(), time.process_time()
            stats = write(target)
            cpu.append((time.perf_counter() - wall, time.process_time() - started))
            counts.append(stats.written)
            return int(stats.written)

        first = run()
        timing = best_of(run, repeat, impl, expected=first)
        row = Row(workload, impl, units=first, unit="positions")
        row.seconds, row.note = timing.seconds, timing.note
        if len(set(counts)) != 1:
            row.note = f"runs wrote {sorted(set(counts))} positions"
        elif not row.note:
            cpu_seconds = min(cpu)[1]
            if cpu_seconds > 0:
                row.note = f"{first / cpu_seconds / 1e3:,.1f} k/CPU-s"
        rows.append(row)

    try:
        source = f"{pgn_games} annotated games, {size / 1e6:.1f} MB"
        writers: list[tuple[str, Callable[[str, int], Any]]] = [
            ("NNUE bullet", lambda out, t: td.write_nnue(out, pgn=path, threads=t)),
            (
                "NNUE marlin",
                lambda out, t: td.write_nnue(out, pgn=path, format="marlin", threads=t),
            ),
            ("Lc0 V6 chunks", lambda out, t: td.write_lc0(path, out, threads=t)),
            ("AlphaZero .npy", lambda out, t: td.write_alphazero(path, out, threads=t)),
        ]
        for name, write in writers:
            workload = f"training data: {name} from PGN ({source})"
            log(f"[{workload}]")
            for threads in (1, 2):
                impl = f"pychess-rs, {threads} thread{'s' if threads > 1 else ''}"
                timed(workload, impl, lambda out, w=write, t=threads: w(out, t))
        games = max(2, SELFPLAY_GAMES // (3 if quick else 1))
        workload = (
            f"training data: NNUE from self-play ({games} games, {SELFPLAY_NODES} nodes/move)"
        )
        log(f"[{workload}]")
        for threads in (1, 2):
            impl = f"pychess-rs, {threads} thread{'s' if threads > 1 else ''}"

            def play(out: str, t: int = threads) -> Any:
                return td.write_nnue(out, games=games, nodes=SELFPLAY_NODES, seed=1, threads=t)

            timed(workload, impl, play)
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)
        os.unlink(path)
    return rows


def rows(ctx: Context) -> list[Row]:
    """The rows of ``tools/bench.py --only training-data``, in its main table."""
    try:
        import numpy  # noqa: F401  (the AlphaZero reader's arrays; the writers need none)
    except ImportError as error:
        log(f"[training-data] skipped: {error}")
        return []
    return measure(max(ctx.sizes.pgn_games // 4, 4), ctx.repeat, ctx.quick)
