"""The command line: ``tools/fuzz_diff.py ...`` or ``pychess-rs fuzz ...``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .campaign import Config, import_pychess_rs, run
from .report import format_summary, replay_reports
from .sources import SOURCES


def _parse_args(argv: Sequence[str] | None, prog: str | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Differential fuzzing of pychess_rs against python-chess.",
        epilog=(
            f"Sources: {', '.join(SOURCES)}. Without --games/--positions/--minutes, "
            "--games 20 is used. Exit status 1 when a mismatch was found."
        ),
    )
    parser.add_argument("--seed", type=int, default=0, help="campaign seed (default 0)")
    parser.add_argument(
        "--games",
        type=int,
        help="games per game source (placement: 10x that "
        "many placements, mutated: 50x FENs; epd: every position once)",
    )
    parser.add_argument("--positions", type=int, help="stop after N positions checked")
    parser.add_argument("--minutes", type=float, help="stop after M minutes")
    parser.add_argument(
        "--chess960",
        action="store_true",
        help="Chess960 only: skip startpos, play every other source in "
        "Chess960 mode, only perft960.epd",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("fuzz-failures"),
        help="directory for JSON reproducers (default ./fuzz-failures)",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar and no printed reproducers (still saved)",
    )
    parser.add_argument(
        "--sources",
        default=",".join(SOURCES),
        help="comma-separated subset of the sources (default: all)",
    )
    parser.add_argument(
        "--max-reports",
        type=int,
        default=5,
        help="reproducers printed and saved per property (default 5)",
    )
    parser.add_argument(
        "--replay", nargs="+", metavar="FILE", help="re-check saved reproducers instead of fuzzing"
    )
    args = parser.parse_args(argv)
    sources = [s.strip() for s in args.sources.split(",") if s.strip()]
    unknown = [s for s in sources if s not in SOURCES]
    if unknown:
        parser.error(f"unknown source(s) {unknown}; choose from {', '.join(SOURCES)}")
    args.sources = sources
    for name in ("games", "positions", "minutes"):
        value = getattr(args, name)
        if value is not None and value < 0:
            parser.error(f"--{name} must not be negative")
    if args.games is None and args.positions is None and args.minutes is None:
        args.games = 20
    return args


def main(argv: Sequence[str] | None = None, prog: str | None = "fuzz_diff.py") -> int:
    """Run the fuzzer with ``argv`` (default: ``sys.argv[1:]``); return the exit status:
    0 no mismatch, 1 mismatches found, 2 usage error or pychess_rs not importable."""
    args = _parse_args(argv, prog)
    try:
        rs = import_pychess_rs()
    except ImportError as exc:
        print(
            f"fuzz_diff: cannot import pychess_rs ({exc}); build it first "
            "(e.g. maturin develop --release)",
            file=sys.stderr,
        )
        return 2
    if args.replay:
        return 1 if replay_reports(rs, args.replay, sys.stdout) else 0
    config = Config(
        seed=args.seed,
        games=args.games,
        positions=args.positions,
        minutes=args.minutes,
        chess960=args.chess960,
        out=args.out,
        quiet=args.quiet,
        sources=args.sources,
        max_reports=args.max_reports,
    )
    try:
        result = run(config, rs)
    except KeyboardInterrupt:
        print("\nfuzz_diff: interrupted", file=sys.stderr)
        return 130
    print(format_summary(result, config))
    return 1 if result.mismatches else 0
