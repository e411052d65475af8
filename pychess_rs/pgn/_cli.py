"""``pychess-rs pgn``: statistics of a PGN file and its positions as a table."""

from __future__ import annotations

import argparse
import csv
import importlib
import os
import sys
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

from ._bulk import GameStream, read_games

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

#: Rows collected before a Parquet row group is written.
PARQUET_ROWS = 100_000


def _add_read_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a .pgn file, or .pgn.gz / .pgn.bz2 / .pgn.zst")
    parser.add_argument(
        "--threads", type=int, default=None, help="parsing threads (default: all cores)"
    )
    parser.add_argument(
        "--where",
        nargs=3,
        action="append",
        metavar=("TAG", "OP", "VALUE"),
        help="keep games whose tag compares so (OP: == != < <= > >= contains); repeatable",
    )
    parser.add_argument(
        "--time-control",
        action="append",
        metavar="CLASS",
        help="keep games of this time-control class (bullet, blitz, rapid, standard, "
        "unlimited, unknown); repeatable",
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress bar on standard error"
    )


def add_subcommand(subparsers: Subparsers) -> None:
    """Registers ``pgn stats`` and ``pgn positions``."""
    parser = subparsers.add_parser(
        "pgn",
        help="read PGN files fast: statistics, positions to CSV/Parquet",
        description="Read PGN game collections with the Rust bulk reader.",
        epilog="examples:\n"
        "  pychess-rs pgn stats games.pgn.zst\n"
        "  pychess-rs pgn stats games.pgn --where WhiteElo '>=' 2000 --time-control blitz\n"
        "  pychess-rs pgn positions games.pgn --out positions.csv\n"
        "  pychess-rs pgn positions games.pgn.gz --out positions.parquet --epd",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="pgn_command", metavar="ACTION", required=True)
    stats = actions.add_parser(
        "stats",
        help="count games, results, errors and plies, and time the reading",
        description="Read every game; print games, results, errors, plies and speed.",
    )
    _add_read_options(stats)
    stats.set_defaults(run=run_stats)
    positions = actions.add_parser(
        "positions",
        help="write every position (FEN or EPD per ply) to a .csv or .parquet file",
        description="Write one row per position: game (number in the file, from 0), offset "
        "(of the game in the file), ply (0 is the start), fen (or epd), move (UCI of the "
        "move played from this position, empty at the end), result. Games with errors are "
        "left out and counted. Parquet needs pyarrow.",
    )
    _add_read_options(positions)
    positions.add_argument("--out", required=True, help="output file: .csv or .parquet")
    positions.add_argument("--epd", action="store_true", help="EPD (4 fields) instead of FEN")
    positions.set_defaults(run=run_positions)


def _stream(args: argparse.Namespace, **options: Any) -> GameStream:
    return read_games(
        args.file,
        threads=args.threads,
        where=[(t, op, v) for t, op, v in args.where or []],
        time_control=args.time_control,
        progress=not args.no_progress,
        **options,
    )


def _fail(message: str) -> int:
    print(f"pychess-rs pgn: {message}", file=sys.stderr)
    return 2


def run_stats(args: argparse.Namespace) -> int:
    start = time.monotonic()
    try:
        stream = _stream(args)
        results: Counter[str] = Counter()
        variants: Counter[str] = Counter()
        games = plies = errors = with_errors = 0
        for game in stream:
            games += 1
            variants[game.variant or "Standard"] += 1
            plies += game.ply_count
            results[game.result] += 1
            found = len(game.errors)
            errors += found
            with_errors += found > 0
    except (OSError, ValueError) as e:
        return _fail(str(e))
    elapsed = max(time.monotonic() - start, 1e-9)
    size = os.path.getsize(args.file)
    print(f"file:      {args.file} ({size / 1e6:.1f} MB)")
    print(f"games:     {games}")
    for result in ("1-0", "0-1", "1/2-1/2", "*"):
        share = 100 * results[result] / games if games else 0.0
        print(f"  {result:<8} {results[result]:>10} ({share:.1f}%)")
    others = games - sum(results[r] for r in ("1-0", "0-1", "1/2-1/2", "*"))
    if others:
        print(f"  {'other':<8} {others:>10}")
    if set(variants) != {"Standard"} and games:
        print("variants:")
        for name, count in sorted(variants.items(), key=lambda item: (-item[1], item[0])):
            print(f"  {name:<16} {count:>10} ({100 * count / games:.1f}%)")
    print(f"errors:    {errors} in {with_errors} games")
    mean = plies / games if games else 0.0
    print(f"plies:     {plies} ({mean:.1f} a game)")
    print(
        f"speed:     {elapsed:.2f} s, {games / elapsed:.0f} games/s, "
        f"{size / 1e6 / elapsed:.1f} MB/s (file size / time)"
    )
    return 0


class _Writer:
    """Rows to CSV, or to Parquet in row groups."""

    def __init__(self, path: str, columns: list[str]) -> None:
        self.columns = columns
        self.rows: list[tuple[Any, ...]] = []
        self.parquet = path.lower().endswith(".parquet")
        if self.parquet:
            try:
                self.pa: Any = importlib.import_module("pyarrow")
                self.pq: Any = importlib.import_module("pyarrow.parquet")
            except ImportError:
                raise ValueError(
                    "writing .parquet needs pyarrow (pip install pyarrow); or use --out X.csv"
                ) from None
            types = {"game": self.pa.int64(), "offset": self.pa.int64(), "ply": self.pa.int32()}
            self.schema = self.pa.schema([(c, types.get(c, self.pa.string())) for c in columns])
            self.writer = self.pq.ParquetWriter(path, self.schema)
        elif path.lower().endswith(".csv"):
            self.file = open(path, "w", newline="", encoding="utf-8")
            self.csv = csv.writer(self.file)
            self.csv.writerow(columns)
        else:
            raise ValueError(f"--out must end in .csv or .parquet, got {path!r}")

    def add(self, row: tuple[Any, ...]) -> None:
        if self.parquet:
            self.rows.append(row)
            if len(self.rows) >= PARQUET_ROWS:
                self.flush()
        else:
            self.csv.writerow(row)

    def flush(self) -> None:
        if self.parquet and self.rows:
            table = self.pa.Table.from_arrays(
                [self.pa.array(col, type=t.type) for col, t in zip(zip(*self.rows), self.schema)],
                schema=self.schema,
            )
            self.writer.write_table(table)
            self.rows.clear()

    def close(self) -> None:
        if self.parquet:
            self.flush()
            self.writer.close()
        else:
            self.file.close()


def run_positions(args: argparse.Namespace) -> int:
    columns = ["game", "offset", "ply", "epd" if args.epd else "fen", "move", "result"]
    try:
        writer = _Writer(args.out, columns)
    except (OSError, ValueError) as e:
        return _fail(str(e))
    rows = 0
    try:
        stream = _stream(args, fens=True, skip_errors=True)
        for number, game in enumerate(stream):
            moves = game.moves
            result = game.result
            for ply, fen in enumerate(game.fens):
                position = " ".join(fen.split(" ")[:4]) if args.epd else fen
                move = moves[ply] if ply < len(moves) else ""
                writer.add((number, game.offset, ply, position, move, result))
                rows += 1
    except (OSError, ValueError) as e:
        writer.close()
        return _fail(str(e))
    writer.close()
    print(
        f"{rows} positions of {stream.count} games written to {args.out}"
        f" ({len(stream.bad)} games with errors left out)"
    )
    return 0
