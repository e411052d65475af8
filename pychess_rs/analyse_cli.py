"""``pychess-rs analyse``: lichess-style computer analysis of every game of a PGN file.

Each game is analysed position by position on a pool of engines
(:class:`pychess_rs.engine.EnginePool`, one engine per game at a time) and written to
``--out`` with ``[%eval]`` on every move, ``?!``/``?``/``??`` and the best line at each judged
move, and each player's accuracy in a comment before the first move
(:mod:`pychess_rs.annotate` gives the formulas). A table of the games ends the run.

Resuming: a game already in ``--out`` (same tags, same moves) is not analysed again, so an
interrupted run is continued by running the same command; an incomplete game at the end of
``--out`` (a run killed while writing) is cut off first. A game that cannot be read, or whose
analysis fails (an engine that dies on it twice), is reported on standard error and left out;
the run goes on, and its exit status is then 1.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shlex
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

DESCRIPTION = (
    "Analyse every game of a PGN file with an engine, lichess-style: an evaluation on every\n"
    "move, ?! / ? / ?? by the drop in winning chances, the best line at each of them, and\n"
    "each player's accuracy. Runs already begun are resumed: games already in --out are\n"
    "skipped."
)
EPILOG = (
    "examples:\n"
    "  pychess-rs analyse games.pgn --out annotated.pgn\n"
    "  pychess-rs analyse games.pgn.zst --out annotated.pgn --nodes 1000000 --workers 8\n"
    "  pychess-rs analyse games.pgn --out annotated.pgn --engine /usr/bin/stockfish --depth 18"
)
#: The search of each position when no limit is given.
DEFAULT_NODES = 200_000
#: The ``Annotator`` tag of analysed games.
ANNOTATOR = "pychess-rs analyse"
_COMPLETE = re.compile(rb"(1-0|0-1|1/2-1/2|\*)\n\n\Z")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("games", help="a .pgn file, or .pgn.gz / .pgn.bz2 / .pgn.zst")
    parser.add_argument("--out", required=True, help="the annotated .pgn (appended to)")
    parser.add_argument(
        "--engine",
        default="builtin",
        help="'builtin' (this package's engine, in process) or a UCI engine's command",
    )
    parser.add_argument("--depth", type=int, help="search depth per position")
    parser.add_argument("--nodes", type=int, help=f"nodes per position (default {DEFAULT_NODES})")
    parser.add_argument("--movetime", type=int, metavar="MS", help="milliseconds per position")
    parser.add_argument(
        "--workers", type=int, default=None, help="engines at work at once (default: cores)"
    )
    parser.add_argument("--hash", type=int, default=16, metavar="MB", help="hash per engine")
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="a Dask scheduler (tcp://host:port): games go to its workers, each with its own "
        "engines (needs pychess-rs[dask])",
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress line on standard error"
    )


def _limit(args: argparse.Namespace) -> Any:
    from .engine import Limit

    for name in ("depth", "nodes", "movetime", "workers", "hash"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise ValueError(f"--{name} must be at least 1, got {value}")
    time_ = args.movetime / 1000 if args.movetime is not None else None
    nodes = args.nodes
    if args.depth is None and nodes is None and time_ is None:
        nodes = DEFAULT_NODES
    return Limit(depth=args.depth, nodes=nodes, time=time_)


def game_key(headers: Any, moves: Any) -> tuple[Any, ...]:
    """What identifies a game across runs: its tags (but ``Annotator``) and its moves."""
    tags = tuple(sorted((k, v) for k, v in headers.items() if k != "Annotator"))
    return tags, tuple(str(move) for move in moves)


def repair(path: str) -> bool:
    """Cuts an incomplete last game off ``path``; whether there was one."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except FileNotFoundError:
        return False
    if not data.strip() or _COMPLETE.search(data):
        return False
    start = data.rfind(b"\n\n[Event ")
    with open(path, "r+b") as file:
        file.truncate(start + 2 if start >= 0 else 0)
    return True


def done_games(path: str) -> Counter[tuple[Any, ...]]:
    """The keys (:func:`game_key`) of the games in ``path``, counted."""
    from .pgn import read_games

    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return Counter()
    return Counter(game_key(g.headers, g.moves) for g in read_games(path, threads=1))


def build_game(record: Any) -> Any:
    """A :class:`pychess_rs.pgn.Game` from a bulk reader record (tags and main line)."""
    from . import STARTING_FEN, Move
    from .pgn import Game, GameNode

    game = Game()
    for name, value in record.headers.items():
        game.headers[name] = value
    if record.start_fen != STARTING_FEN:
        game.setup(record.start_fen)
    node: GameNode = game
    for uci in record.moves:
        node = node.add_main_variation(Move.from_uci(uci))
    return game


class _Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.bad = 0
        self.skipped = 0
        self.rows: list[tuple[int, Any, Any]] = []

    def report(self, text: str) -> None:
        print(f"pychess-rs analyse: {text}", file=sys.stderr)

    def games(self, done: Counter[tuple[Any, ...]]) -> Iterator[tuple[int, Any]]:
        from .pgn import read_games

        for number, record in enumerate(read_games(self.args.games, threads=1), 1):
            if record.errors:
                self.bad += 1
                reason = "; ".join(str(e) for e in record.errors)
                self.report(f"game {number} (byte {record.offset}) skipped: {reason}")
                continue
            try:
                game = build_game(record)
            except ValueError as e:
                self.bad += 1
                self.report(f"game {number} (byte {record.offset}) skipped: {e}")
                continue
            key = game_key(game.headers, record.moves)
            if done[key] > 0:
                done[key] -= 1
                self.skipped += 1
                continue
            yield number, game


def _count_games(path: str) -> int:
    from .pgn import read_games

    return sum(1 for game in read_games(path) if not game.errors)


def run(args: argparse.Namespace) -> int:
    from ._progress import Progress
    from .annotate import annotate_game

    try:
        limit = _limit(args)
    except ValueError as e:
        print(f"pychess-rs analyse: {e}", file=sys.stderr)
        return 2
    if args.scheduler:
        try:
            importlib.import_module("dask.distributed")
        except ImportError:
            print(
                "pychess-rs analyse: --scheduler needs dask.distributed: "
                "pip install 'pychess-rs[dask]'",
                file=sys.stderr,
            )
            return 2
    if not os.path.exists(args.games):
        print(f"pychess-rs analyse: no such file: {args.games}", file=sys.stderr)
        return 2
    work = _Run(args)
    if repair(args.out):
        work.report(f"cut an incomplete game off the end of {args.out}")
    done = done_games(args.out)
    total = max(_count_games(args.games) - sum(done.values()), 0)
    numbered = work.games(done)
    bar = Progress(sys.stderr, label="analyse", enabled=not args.no_progress)
    started = time.monotonic()
    numbers: list[int] = []

    def games() -> Iterator[Any]:
        for number, game in numbered:
            numbers.append(number)
            yield game

    engine = None if args.engine == "builtin" else tuple(shlex.split(args.engine))
    if args.scheduler:
        from .analyse_dask import analyse_games_on

        results: Iterator[Any] = analyse_games_on(
            args.scheduler,
            games(),
            limit,
            engine=engine,
            hash_mb=args.hash,
            progress=bar,
            total=total,
        )
    else:
        results = _local_results(args, engine, games(), limit, bar, total)
    analysed = 0
    with open(args.out, "a", encoding="utf-8") as out:
        for result in results:
            number = numbers[result.index]
            game = result.item
            if not result.ok:
                work.bad += 1
                bar.clear()
                work.report(f"game {number} not analysed: {result.error!r}")
                continue
            try:
                figures = annotate_game(game, result.value)
            except ValueError as e:
                work.bad += 1
                work.report(f"game {number} not annotated: {e}")
                continue
            game.headers["Annotator"] = ANNOTATOR
            summary = f"White {figures.white.describe()}; Black {figures.black.describe()}."
            game.comment = f"{game.comment} {summary}".strip()
            out.write(str(game) + "\n\n")
            out.flush()
            analysed += 1
            work.rows.append((number, game.headers, figures))
    bar.finish()
    _print_table(work.rows)
    seconds = time.monotonic() - started
    print(
        f"{analysed} games analysed in {seconds:.1f} s"
        + (f" ({analysed / seconds:.2f} games/s)" if seconds > 0 and analysed else "")
        + f", {work.skipped} already in {args.out}, {work.bad} left out"
    )
    return 1 if work.bad else 0


def _local_results(
    args: argparse.Namespace,
    engine: tuple[str, ...] | None,
    games: Iterator[Any],
    limit: Any,
    bar: Any,
    total: int,
) -> Iterator[Any]:
    from .engine import EnginePool

    if engine is None:
        pool = EnginePool(None, args.workers, hash_mb=args.hash, threads=1)
    else:
        pool = EnginePool(list(engine), args.workers, options={"Hash": args.hash})
    with pool:
        yield from pool.analyse_games(games, limit, progress=bar, total=total)


def _print_table(rows: list[tuple[int, Any, Any]]) -> None:
    if not rows:
        return

    def player(report: Any) -> str:
        accuracy = "-" if report.accuracy is None else f"{report.accuracy:.0f}"
        return f"{accuracy:>4} {report.inaccuracies:>2}/{report.mistakes}/{report.blunders}"

    width = max(12, *(len(h.get("White", "?")) for _, h, _ in rows))
    bwidth = max(12, *(len(h.get("Black", "?")) for _, h, _ in rows))
    print(
        f"{'game':>5}  {'White':<{width}} {'acc ?!/?/??':>11}  {'Black':<{bwidth}} "
        f"{'acc ?!/?/??':>11}  result"
    )
    for number, headers, figures in rows:
        print(
            f"{number:>5}  {headers.get('White', '?'):<{width}} {player(figures.white):>11}  "
            f"{headers.get('Black', '?'):<{bwidth}} {player(figures.black):>11}  "
            f"{headers.get('Result', '*')}"
        )
