"""Workload ``encode``: encodings per second, every ``pychess_rs.encode`` format on a batch of
positions (1 and 2 threads refilling one array, a new array each call, and one call per
board), side by side with PettingZoo chess_v6's own encoder (``tools/bench_encode.py``).

The positions are taken from random games (each board keeps its move stack, so the history
planes have history to show). PettingZoo's encoder is its environment's own ``observe()``
(observation and action mask together), on python-chess boards of the same positions with the
same history buffer, called the way the environment calls it; it is the reference of the
ratios, for our observation + mask and for the AlphaZero planes.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .config import Context
from .report import Row, log, render
from .timing import best_of

REFERENCE = "PettingZoo chess_v6 observe()"


def positions(count: int, seed: int = 1) -> list[Any]:
    """``count`` positions of random games, each board with its move stack."""
    import pychess_rs

    rng = random.Random(seed)
    out: list[pychess_rs.Board] = []
    while len(out) < count:
        board = pychess_rs.Board()
        while not board.is_game_over() and board.ply() < 160 and len(out) < count:
            board.push(rng.choice(list(board.legal_moves)))
            out.append(board.copy())
    return out


def pettingzoo_observer() -> Callable[[Any, Any], Any] | None:
    """PettingZoo's own encoder, as its environment runs it: ``observe(agent)`` of the agent
    to move, given the board and the history buffer the environment would hold."""
    try:
        from pettingzoo.classic.chess import chess
    except ImportError:
        return None
    env = chess.raw_env()
    env.reset()

    def observe(board: Any, history: Any) -> Any:
        env.board = board
        env.board_history = history
        agent = env.agents[0 if board.turn else 1]
        env.agent_selection = agent
        return env.observe(agent)

    return observe


def measure(batch: int = 4096, repeat: int = 5, quick: bool = False) -> list[Row]:
    """The rows: ``workload`` is the format, ``units`` the positions encoded per run."""
    import numpy as np

    from pychess_rs import encode

    if quick:
        batch, repeat = min(batch, 1024), min(repeat, 2)
    boards = positions(batch)
    results: list[Row] = []

    def timed(name: str, impl: str, runner: Callable[[], Any], count: int, times: int) -> Row:
        row = Row(name, impl, units=count, unit="positions")
        timing = best_of(runner, times, impl)
        row.seconds, row.note = timing.seconds, timing.note
        results.append(row)
        return row

    formats: list[tuple[str, Callable[..., Any], Callable[[Any], Any]]] = [
        ("compact", encode.compact_batch, encode.compact),
        ("AlphaZero 8x8x119", encode.alphazero_batch, encode.alphazero),
        (
            "PettingZoo observation 8x8x111",
            encode.pettingzoo_observation_batch,
            encode.pettingzoo_observation,
        ),
        ("action mask 4672", encode.action_mask_batch, encode.action_mask),
        ("Lc0 112x8x8", encode.lc0_batch, encode.lc0),
        ("HalfKP", encode.halfkp_batch, encode.halfkp),
        ("HalfKAv2_hm", encode.halfka_v2_hm_batch, encode.halfka_v2_hm),
    ]
    for name, batched, single in formats:
        log(f"[{name}]")
        out = batched(boards)
        for threads in (1, 2):
            # A training loop refills one array (out=): no allocation, no fresh pages.
            plural = "s" if threads > 1 else ""
            impl = f"pychess-rs batch of {batch}, {threads} thread{plural}, out="
            run_batch = lambda f=batched, t=threads, o=out: f(boards, threads=t, out=o)  # noqa: E731
            timed(name, impl, run_batch, batch, repeat)
        impl = f"pychess-rs batch of {batch}, 1 thread, new array"
        timed(name, impl, lambda f=batched: f(boards), batch, repeat)
        sample = boards[: max(1, batch // 4)]
        run_single = lambda f=single, s=sample: [f(b) for b in s]  # noqa: E731
        timed(name, "pychess-rs one call per board", run_single, len(sample), repeat)

    # PettingZoo's own observe() (observation + mask) against ours (both, batched).
    observe = pettingzoo_observer()
    name = "PettingZoo observation + mask"
    if observe is None:
        note = "not installed (pip install pettingzoo gymnasium pygame)"
        results.append(Row(name, "PettingZoo chess_v6", unit="positions", note=note))
        return results
    log(f"[{name}]")
    sample = boards[: 200 if quick else 500]
    oracles = [b.to_python_chess() for b in sample]
    history = np.zeros((8, 8, 104), dtype=bool)
    # Same answers first: what is timed is the same work.
    for board, oracle in zip(sample[:50], oracles[:50]):
        theirs = observe(oracle, history)
        assert np.array_equal(theirs["action_mask"], encode.action_mask(board))
    run_theirs = lambda: [observe(o, history) for o in oracles]  # noqa: E731
    reference = timed(name, REFERENCE, run_theirs, len(sample), max(1, repeat // 2))
    observations = encode.pettingzoo_observation_batch(boards)
    masks = encode.action_mask_batch(boards)
    ours_rows = []
    for threads in (1, 2):

        def ours(threads: int = threads) -> None:
            encode.pettingzoo_observation_batch(boards, threads=threads, out=observations)
            encode.action_mask_batch(boards, threads=threads, out=masks)

        plural = "s" if threads > 1 else ""
        impl = f"pychess-rs batch of {batch}, {threads} thread{plural}, out="
        ours_rows.append(timed(name, impl, ours, batch, repeat))

    def ours_single() -> None:
        for b in sample:
            encode.pettingzoo_observation(b)
            encode.action_mask(b)

    ours_rows.append(timed(name, "pychess-rs one call per board", ours_single, len(sample), repeat))
    if reference.rate:
        reference.ratio = 1.0
        for row in ours_rows:
            row.ratio = row.rate / reference.rate if row.rate else None
        # AlphaZero planes against the same reference: the second target.
        for row in results:
            if row.workload == "AlphaZero 8x8x119" and row.rate and row.ratio is None:
                row.ratio = row.rate / reference.rate
                row.note = "ratio: vs PettingZoo observe()"
    return results


def rows(ctx: Context) -> list[Row]:
    """The rows of ``tools/bench.py --only encode``, in its main table."""
    try:
        import numpy  # noqa: F401  (pychess_rs.encode needs NumPy)
    except ImportError as error:
        log(f"[encode] skipped: {error}")
        return []
    out = measure(quick=ctx.quick, repeat=ctx.repeat)
    for row in out:
        row.workload = f"encode: {row.workload}"
        row.ratio_ref = "(ref)" if "PettingZoo" in row.impl else ""
    return out


def fmt_rate(rate: float | None) -> str:
    if rate is None:
        return ""
    for factor, prefix in ((1e6, "M"), (1e3, "k")):
        if rate >= factor:
            return f"{rate / factor:.2f} {prefix}positions/s"
    return f"{rate:.0f} positions/s"


def fmt_ratio(ratio: float | None) -> str:
    if ratio is None:
        return ""
    return f"{ratio:.0f}x" if ratio >= 10 else f"{ratio:.2f}x"


def render_results(results: Sequence[Row], markdown: bool) -> str:
    """This workload's own table: format, implementation, rate, ratio, note."""
    header = ("Format", "Implementation", "Rate", "Ratio", "Note")
    cells = [(r.workload, r.impl, fmt_rate(r.rate), fmt_ratio(r.ratio), r.note) for r in results]
    return render(header, cells, markdown, right={2, 3})


def main(argv: Sequence[str] | None = None) -> int:
    """``tools/bench_encode.py``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=4096, help="positions per batch")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (best)")
    parser.add_argument("--quick", action="store_true", help="a smaller, faster run")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args(argv)
    try:
        results = measure(args.batch, args.repeat, args.quick)
    except ImportError as error:
        print(f"bench_encode.py needs NumPy: {error}", file=sys.stderr)
        return 2
    print(render_results(results, args.markdown))
    return 0
