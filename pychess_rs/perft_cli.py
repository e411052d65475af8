"""``pychess-rs perft``: count one position, divide it, or check suites of known counts.

Perft(d) is the number of leaf nodes of the legal-move tree of depth d. A suite file has one
position a line, ``FEN ;D1 n ;D2 n ...`` (the format of ``tests/data/perft.epd``), read by the
core's parser (``parse_perft_line``), the one the Rust tests use. Every count runs in Rust
through ``Board.perft``, which releases the GIL, so ``jobs`` threads run positions in parallel.

``cargo test`` runs the suites to a CI-sized depth; ``pychess-rs perft --suite`` (no file: the
suites of ``tests/data``) runs them as deep as ``--max-nodes`` says.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from ._core import Board, parse_perft_line
from ._progress import Progress

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
DEFAULT_MAX_NODES = 10_000_000

#: The suites ``--suite`` with no file checks: those of a source checkout's ``tests/data``.
DEFAULT_SUITES = tuple(
    str(Path(__file__).resolve().parent.parent / "tests" / "data" / name)
    for name in ("perft.epd", "perft960.epd")
)


def _board(fen: str, chess960: bool) -> Board:
    return Board(fen, chess960=chess960)


# --------------------------------------------------------------------------------------------
# Suite files
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SuiteLine:
    """One position of a suite file and its known counts (depth -> nodes)."""

    lineno: int
    fen: str
    counts: dict[int, int]


def load_suite(path: str | os.PathLike[str]) -> list[SuiteLine]:
    """Read a suite file; blank lines and lines starting with ``#`` are skipped.

    :raises ValueError: naming the file and line, if a count field is not ``D<depth> <nodes>``.
    """
    lines = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, start=1):
            try:
                parsed = parse_perft_line(line)
            except ValueError as exc:
                raise ValueError(f"{path}:{lineno}: {exc}") from None
            if parsed is not None:
                lines.append(SuiteLine(lineno, *parsed))
    return lines


def is_chess960_suite(path: str) -> bool:
    """Whether a suite is Chess960 by its name (``perft960.epd``, ``fischer960.epd``...)."""
    return "960" in os.path.basename(path) or "fischer" in os.path.basename(path).lower()


@dataclass(frozen=True)
class Mismatch:
    path: str
    lineno: int
    fen: str
    depth: int
    expected: int
    got: int | None  # None when the position could not be counted at all
    error: str = ""

    def describe(self) -> str:
        where = f"{os.path.basename(self.path)}:{self.lineno} D{self.depth}"
        if self.got is None:
            return f"ERROR    {where}: {self.error}  [{self.fen}]"
        diff = self.got - self.expected
        return (
            f"MISMATCH {where}: expected {self.expected}, got {self.got} ({diff:+d})  [{self.fen}]"
        )


@dataclass
class SuiteResult:
    path: str
    positions: int = 0
    entries: int = 0
    nodes: int = 0
    seconds: float = 0.0
    mismatches: list[Mismatch] = field(default_factory=list)
    complete: bool = True

    @property
    def mnps(self) -> float:
        return self.nodes / self.seconds / 1e6 if self.seconds > 0 else 0.0


def _check_line(
    path: str, line: SuiteLine, chess960: bool, max_nodes: int
) -> tuple[int, int, list[Mismatch]]:
    """Count one position at every depth within the budget: (entries, nodes, mismatches)."""
    depths = [d for d in sorted(line.counts) if line.counts[d] <= max_nodes]
    entries = nodes = 0
    mismatches = []
    try:
        board = _board(line.fen, chess960)
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
        return (
            len(depths),
            0,
            [Mismatch(path, line.lineno, line.fen, d, line.counts[d], None, error) for d in depths],
        )
    for depth in depths:
        expected = line.counts[depth]
        entries += 1
        try:
            got = board.perft(depth)
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
            mismatches.append(Mismatch(path, line.lineno, line.fen, depth, expected, None, error))
            continue
        nodes += got
        if got != expected:
            mismatches.append(Mismatch(path, line.lineno, line.fen, depth, expected, got))
    return entries, nodes, mismatches


def run_suite(
    path: str,
    *,
    chess960: bool | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    jobs: int = 1,
    progress: bool = True,
    out: IO[str] | None = None,
    err: IO[str] | None = None,
) -> SuiteResult:
    """Check every entry of a suite file whose expected count is at most ``max_nodes``.

    Mismatches (and positions that fail to load) are printed to ``out`` as they are found.
    ``chess960=None`` guesses from the file name (:func:`is_chess960_suite`).
    """
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    if chess960 is None:
        chess960 = is_chess960_suite(path)
    lines = load_suite(path)
    result = SuiteResult(path, positions=len(lines))
    bar = Progress(err, label=os.path.basename(path), enabled=progress)
    start = time.perf_counter()
    done = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures: list[Future[tuple[int, int, list[Mismatch]]]] = [
            pool.submit(_check_line, path, line, chess960, max_nodes) for line in lines
        ]
        try:
            for future in as_completed(futures):
                entries, nodes, mismatches = future.result()
                done += 1
                result.entries += entries
                result.nodes += nodes
                if mismatches:
                    bar.clear()
                    for mismatch in mismatches:
                        print(mismatch.describe(), file=out, flush=True)
                    result.mismatches += mismatches
                if done == len(lines) or bar.due():
                    elapsed = time.perf_counter() - start
                    nps = result.nodes / elapsed / 1e6 if elapsed > 0 else 0.0
                    bar.show(
                        f"{done}/{len(lines)} positions, {nps:.1f} Mnps, {elapsed:.1f} s",
                        done / len(lines),
                    )
        except KeyboardInterrupt:
            for future in futures:
                future.cancel()
            result.complete = False
            bar.finish()
            print(f"interrupted after {done}/{len(lines)} positions", file=err, flush=True)
    result.seconds = time.perf_counter() - start
    bar.finish()
    return result


def format_summary(results: Sequence[SuiteResult]) -> str:
    """The summary table of one or more suite runs (a total row when there are several)."""
    header = ("file", "positions", "entries", "mismatches", "nodes", "time", "Mnps")
    rows = [
        (
            os.path.basename(r.path) + ("" if r.complete else " (interrupted)"),
            str(r.positions),
            str(r.entries),
            str(len(r.mismatches)),
            f"{r.nodes:,}",
            f"{r.seconds:.2f} s",
            f"{r.mnps:.1f}",
        )
        for r in results
    ]
    if len(results) > 1:
        nodes = sum(r.nodes for r in results)
        seconds = sum(r.seconds for r in results)
        rows.append(
            (
                "total",
                str(sum(r.positions for r in results)),
                str(sum(r.entries for r in results)),
                str(sum(len(r.mismatches) for r in results)),
                f"{nodes:,}",
                f"{seconds:.2f} s",
                f"{nodes / seconds / 1e6 if seconds > 0 else 0.0:.1f}",
            )
        )
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    lines = [
        "  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(header, widths)))
    ]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        lines.append(
            "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths)))
        )
    return "\n".join(lines)


def check_suites(
    suites: Iterable[tuple[str, bool | None]],
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    jobs: int = 1,
    progress: bool = True,
    out: IO[str] | None = None,
) -> int:
    """Run suites, print the summary; the exit status: 0 if all counts match, else 1."""
    out = out if out is not None else sys.stdout
    results = []
    for path, chess960 in suites:
        result = run_suite(
            path, chess960=chess960, max_nodes=max_nodes, jobs=jobs, progress=progress, out=out
        )
        results.append(result)
        if not result.complete:
            break
    print(file=out)
    print(format_summary(results), file=out)
    if any(not r.complete for r in results):
        return 130
    bad = sum(len(r.mismatches) for r in results)
    checked = sum(r.entries for r in results)
    if bad:
        print(f"\nFAILED: {bad} of {checked} entries do not match", file=out)
        return 1
    print(f"\nOK: all {checked} entries match (max nodes {max_nodes:,})", file=out)
    return 0


# --------------------------------------------------------------------------------------------
# One position
# --------------------------------------------------------------------------------------------


def divide(
    position: str | Board, depth: int, *, chess960: bool = False, out: IO[str] | None = None
) -> int:
    """Print ``move: count`` for every legal move (sorted by UCI), then the total; return it.

    ``position`` is a FEN or a ``pychess_rs.Board``. The output has the shape of Stockfish's
    ``go perft``, so the two can be diffed line by line.
    """
    out = out if out is not None else sys.stdout
    board = _board(position, chess960) if isinstance(position, str) else position
    counts: dict[str, int] = board.perft_divide(depth)
    for move in sorted(counts):
        print(f"{move}: {counts[move]}", file=out)
    total = sum(counts.values())
    print(f"\nNodes searched: {total}", file=out)
    return total


def count(
    position: str | Board, depth: int, *, chess960: bool = False, out: IO[str] | None = None
) -> int:
    """Print perft(depth) of one position (a FEN or a Board) with time and speed; return it."""
    out = out if out is not None else sys.stdout
    board = _board(position, chess960) if isinstance(position, str) else position
    start = time.perf_counter()
    nodes: int = board.perft(depth)
    elapsed = time.perf_counter() - start
    speed = f"{nodes / elapsed / 1e6:.1f} Mnps" if elapsed > 0 else "-"
    print(f"perft({depth}) = {nodes}  ({elapsed:.3f} s, {speed})", file=out)
    return nodes


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be an integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"depth must be >= 0, got {value}")
    return value


def _positive(text: str) -> int:
    """A positive integer; ``10_000_000`` and ``1e7`` are accepted too."""
    try:
        number = float(text.replace("_", ""))
    except ValueError:
        number = float("nan")
    if not number.is_integer():
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    value = int(number)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


# --------------------------------------------------------------------------------------------
# `pychess-rs perft`
# --------------------------------------------------------------------------------------------


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of the ``pychess-rs perft`` subcommand."""
    parser.add_argument(
        "position",
        nargs="*",
        metavar="FEN DEPTH",
        help="a FEN (quoted, or as separate words) then the depth; with --startpos, the depth",
    )
    parser.add_argument("--startpos", action="store_true", help="count the start position")
    parser.add_argument(
        "--divide", action="store_true", help="print the count below each legal move"
    )
    parser.add_argument(
        "--chess960",
        action="store_true",
        help="Chess960 castling (suites: guessed from the file name unless given)",
    )
    parser.add_argument(
        "--suite",
        action="append",
        nargs="?",
        metavar="FILE",
        help="check a suite file of 'FEN ;D1 n ;D2 n ...' lines (repeatable); without FILE, "
        "the suites of tests/data (perft.epd, perft960.epd)",
    )
    parser.add_argument(
        "--max-nodes",
        type=_positive,
        metavar="N",
        help=f"with --suite: check entries of at most N nodes (default {DEFAULT_MAX_NODES:,})",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=_positive,
        default=os.cpu_count() or 1,
        metavar="N",
        help="with --suite: positions counted in parallel threads (default: all cores)",
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="with --suite: no progress line on stderr"
    )


def _usage_error(message: str) -> int:
    print(f"pychess-rs perft: error: {message}", file=sys.stderr)
    return 2


def _run_suites(args: argparse.Namespace) -> int:
    if args.position or args.startpos or args.divide:
        return _usage_error("--suite takes no position, --startpos or --divide")
    paths: list[str] = []
    for path in args.suite:
        if path is None and not all(os.path.exists(p) for p in DEFAULT_SUITES):
            return _usage_error("--suite without FILE checks tests/data of a source checkout")
        paths += DEFAULT_SUITES if path is None else [path]
    for path in dict.fromkeys(paths):
        if not os.path.exists(path):
            return _usage_error(f"no such file: {path}")
    chess960 = True if args.chess960 else None
    try:
        return check_suites(
            [(path, chess960) for path in dict.fromkeys(paths)],
            max_nodes=args.max_nodes or DEFAULT_MAX_NODES,
            jobs=args.jobs,
            progress=not args.no_progress,
        )
    except ValueError as exc:  # a malformed suite line
        return _usage_error(str(exc))


def run_cli(args: argparse.Namespace) -> int:
    """Run ``pychess-rs perft`` from its parsed arguments; return the exit status."""
    if args.suite:
        return _run_suites(args)
    if args.max_nodes is not None or args.no_progress:
        return _usage_error("--max-nodes and --no-progress go with --suite")
    words = list(args.position)
    if not words:
        return _usage_error("give a FEN and a depth, --startpos DEPTH, or --suite [FILE]")
    try:
        depth = _depth(words.pop())
    except argparse.ArgumentTypeError as exc:
        return _usage_error(str(exc))
    if args.startpos:
        if words:
            return _usage_error("--startpos takes only a depth")
        fen = STARTING_FEN
    elif words:
        fen = " ".join(words)
    else:
        return _usage_error("missing FEN before the depth (or use --startpos)")
    try:
        board = _board(fen, args.chess960)
    except ValueError as exc:  # InvalidFenError and friends
        return _usage_error(str(exc))
    if args.divide:
        divide(board, depth)
    else:
        count(board, depth)
    return 0
