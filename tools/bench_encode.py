"""Encodings per second: every pychess_rs.encode format on a batch of positions (1 and 2
threads, and one call per board), side by side with PettingZoo chess_v6's own encoder.

    python tools/bench_encode.py [--quick] [--batch 4096] [--repeat 5] [--markdown]

Also the "encode" workload of tools/bench.py. The positions are taken from random games
(each board keeps its move stack, so the history planes have history to show). PettingZoo's
encoder is its environment's own ``observe()`` (observation and action mask together), on
python-chess boards of the same positions with the same history buffer, called the way the
environment calls it.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import pychess_rs
from pychess_rs import encode


@dataclass
class Result:
    workload: str
    impl: str
    seconds: float
    positions: int
    ratio: float | None = None
    note: str = ""

    @property
    def rate(self) -> float:
        return self.positions / self.seconds


def positions(count: int, seed: int = 1) -> list[pychess_rs.Board]:
    """``count`` positions of random games, each board with its move stack."""
    rng = random.Random(seed)
    out: list[pychess_rs.Board] = []
    while len(out) < count:
        board = pychess_rs.Board()
        while not board.is_game_over() and board.ply() < 160 and len(out) < count:
            board.push(rng.choice(list(board.legal_moves)))
            out.append(board.copy())
    return out


def best(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


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


def run(batch: int = 4096, repeat: int = 5, quick: bool = False) -> list[Result]:
    if quick:
        batch, repeat = min(batch, 1024), min(repeat, 2)
    boards = positions(batch)
    results: list[Result] = []
    formats: list[tuple[str, Callable[..., Any], Callable[[pychess_rs.Board], Any]]] = [
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
        print(f"[{name}]", file=sys.stderr, flush=True)
        out = batched(boards)
        for threads in (1, 2):
            # A training loop refills one array (out=): no allocation, no fresh pages.
            seconds = best(lambda f=batched, t=threads, o=out: f(boards, threads=t, out=o), repeat)
            plural = "s" if threads > 1 else ""
            impl = f"pychess-rs batch of {batch}, {threads} thread{plural}, out="
            results.append(Result(name, impl, seconds, batch))
        seconds = best(lambda f=batched: f(boards), repeat)
        impl = f"pychess-rs batch of {batch}, 1 thread, new array"
        results.append(Result(name, impl, seconds, batch))
        sample = boards[: max(1, batch // 4)]
        seconds = best(lambda f=single, s=sample: [f(b) for b in s], repeat)
        results.append(Result(name, "pychess-rs one call per board", seconds, len(sample)))

    # PettingZoo's own observe() (observation + mask) against ours (both, batched).
    observe = pettingzoo_observer()
    name = "PettingZoo observation + mask"
    if observe is None:
        results.append(
            Result(
                name,
                "PettingZoo chess_v6",
                float("nan"),
                0,
                note="not installed (pip install pettingzoo gymnasium pygame)",
            )
        )
        return results
    sample = boards[: 200 if quick else 500]
    oracles = [b.to_python_chess() for b in sample]
    history = np.zeros((8, 8, 104), dtype=bool)
    # Same answers first: what is timed is the same work.
    for board, oracle in zip(sample[:50], oracles[:50]):
        theirs = observe(oracle, history)
        assert np.array_equal(theirs["action_mask"], encode.action_mask(board))
    seconds = best(lambda: [observe(o, history) for o in oracles], max(1, repeat // 2))
    reference = Result(name, "PettingZoo chess_v6 observe()", seconds, len(sample), ratio=1.0)
    results.append(reference)
    observations = encode.pettingzoo_observation_batch(boards)
    masks = encode.action_mask_batch(boards)
    for threads in (1, 2):

        def ours(threads: int = threads) -> None:
            encode.pettingzoo_observation_batch(boards, threads=threads, out=observations)
            encode.action_mask_batch(boards, threads=threads, out=masks)

        seconds = best(ours, repeat)
        plural = "s" if threads > 1 else ""
        impl = f"pychess-rs batch of {batch}, {threads} thread{plural}, out="
        result = Result(name, impl, seconds, batch)
        result.ratio = result.rate / reference.rate
        results.append(result)

    def ours_single() -> None:
        for b in sample:
            encode.pettingzoo_observation(b)
            encode.action_mask(b)

    result = Result(name, "pychess-rs one call per board", best(ours_single, repeat), len(sample))
    result.ratio = result.rate / reference.rate
    results.append(result)
    # AlphaZero planes against the same reference: the second target.
    for r in results:
        if r.workload == "AlphaZero 8x8x119" and r.ratio is None:
            r.ratio = r.rate / reference.rate
            r.note = "ratio: vs PettingZoo observe()"
    return results


def fmt_rate(rate: float) -> str:
    for factor, prefix in ((1e6, "M"), (1e3, "k")):
        if rate >= factor:
            return f"{rate / factor:.2f} {prefix}positions/s"
    return f"{rate:.0f} positions/s"


def render(results: Sequence[Result], markdown: bool) -> str:
    header = ("Format", "Implementation", "Rate", "Ratio", "Note")
    cells = [
        (
            r.workload,
            r.impl,
            "" if r.positions == 0 else fmt_rate(r.rate),
            "" if r.ratio is None else f"{r.ratio:.0f}x" if r.ratio >= 10 else f"{r.ratio:.2f}x",
            r.note,
        )
        for r in results
    ]
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|---|---|---:|---:|---|"]
        lines += ["| " + " | ".join(c) + " |" for c in cells]
        return "\n".join(lines)
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(x.ljust(w) for x, w in zip(c, widths)) for c in cells]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=4096, help="positions per batch")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (best)")
    parser.add_argument("--quick", action="store_true", help="a smaller, faster run")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args(argv)
    print(render(run(args.batch, args.repeat, args.quick), args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
