"""Command line of ``tools/bench.py``: pick the workloads, run them in order, print the table."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from . import (
    book,
    encode,
    engine_client,
    env,
    fen,
    gaviota,
    gpu,
    micro,
    perft,
    pgn,
    python_level,
    search,
    syzygy,
    training_data,
    variants,
)
from .config import FULL, QUICK, Context
from .peers import load_impls
from .report import Row, log, machine_line, render_rows
from .stockfish import find_stockfish

#: The workloads of the main table, in the order they run (``--only`` takes these names).
SECTIONS: dict[str, Callable[[Context], list[Row]]] = {
    "native-perft": perft.rows,
    "search-speed": search.rows,
    "python-perft": python_level.python_perft_rows,
    "random-games": python_level.random_games_rows,
    "fen-legal": fen.rows,
    "pgn": pgn.rows,
    # Polyglot opening-book lookups against python-chess's chess.polyglot.
    "book": book.rows,
    # Gaviota DTM probes against python-chess's pure-Python chess.gaviota.
    "gaviota": gaviota.rows,
    # Syzygy WDL and DTZ probes against python-chess's chess.syzygy.
    "syzygy": syzygy.rows,
    "encode": encode.rows,
    # Batched games and the RL environment against PettingZoo, rust-chess and pgx.
    "env": env.rows,
    # Our batch on every core beside pgx on a GPU, and the AlphaZero loop through torch
    # (rows needing a GPU, jax+pgx or torch say why they are skipped).
    "gpu": gpu.rows,
    # The engine client's overhead per call against python-chess's, and `pychess-rs analyse`
    # on one worker and on two.
    "engine-client": engine_client.client_rows,
    "analyse": engine_client.analyse_rows,
    # Positions written per second: NNUE records, Lc0 chunks, AlphaZero tensors.
    "training-data": training_data.rows,
    # The nine variants: Python perft and random playouts against python-chess's
    # chess.variant, native perft against Fairy-Stockfish.
    "variants": variants.rows,
}
#: Everyday calls print their own table, after the main one.
MICRO = "micro"
WORKLOADS = (*SECTIONS, MICRO)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bench.py",
        description="Benchmark pychess-rs against Stockfish (native perft) and python-chess "
        "and its peers (Python-level workloads).",
        epilog="Workloads: " + ", ".join(WORKLOADS),
    )
    parser.add_argument("--quick", action="store_true", help="smaller sizes, one run each")
    parser.add_argument(
        "--only", action="append", choices=WORKLOADS, help="run only this workload (repeatable)"
    )
    parser.add_argument("--markdown", action="store_true", help="print the table as markdown")
    parser.add_argument("--repeat", type=int, help="runs per measurement (best is kept)")
    parser.add_argument("--stockfish", help="path of the Stockfish binary")
    parser.add_argument(
        "--time-wrong",
        action="store_true",
        help="also time implementations whose result differs from python-chess's (marked)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = QUICK if args.quick else FULL
    selected = args.only or list(WORKLOADS)
    try:
        import chess  # noqa: F401  (every workload checks its answers against python-chess)
    except ImportError:
        print("bench.py needs python-chess: pip install chess==1.11.2", file=sys.stderr)
        return 2

    log(f"machine: {machine_line()}")
    ctx = Context(
        sizes=sizes,
        repeat=args.repeat or sizes.repeat,
        quick=args.quick,
        repeat_given=args.repeat,
        time_wrong=args.time_wrong,
        impls=load_impls(),
    )
    ctx.versions = [f"{i.name} {i.version}" for i in ctx.impls if i.adapter]
    log("versions: " + ", ".join(ctx.versions))
    if {"native-perft", "search-speed"} & set(selected):
        ctx.stockfish = find_stockfish(args.stockfish)

    rows: list[Row] = []
    for name, section in SECTIONS.items():
        if name in selected:
            rows += section(ctx)
    micro_table = None
    if MICRO in selected:
        log("[micro: everyday calls, interleaved]")
        micro_table = micro.table(quick=args.quick, markdown=args.markdown)

    print()
    print(f"Machine: {machine_line()}")
    runs = f"best of {ctx.repeat} run{'s' if ctx.repeat > 1 else ''}"
    print(f"Versions: {', '.join(ctx.versions)}; {runs}.")
    print()
    if rows:
        print(render_rows(rows, args.markdown))
    if micro_table is not None:
        print()
        print(micro_table)
    return 0
