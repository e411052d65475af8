"""The ``pychess-rs fuzz`` subcommand: :func:`add_arguments` declares it, :func:`run_cli` runs it.

This module imports python-chess only inside :func:`run_cli`, so that ``pychess-rs --help`` and
``pychess-rs fuzz --help`` work without it, and a missing python-chess is one clear message
(exit status 2) rather than a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import SOURCES

#: The python-chess release the contract (``contract``) is written against: the ``fuzz`` extra.
ORACLE_VERSION = "1.11.2"
INSTALL_HINT = "pip install 'pychess-rs[fuzz]'"

DESCRIPTION = (
    "Differential fuzzing of pychess_rs against python-chess: random, rare, mutated and\n"
    "hand-edited positions, every answer of both compared (python-chess comes with\n"
    f"{INSTALL_HINT})."
)
EPILOG = (
    f"Sources: {', '.join(SOURCES)}. Without --games/--positions/--minutes, --games 20 is "
    "used. Exit status 1 when a mismatch was found, 2 on a usage error or without python-chess "
    f"(the oracle: {INSTALL_HINT}).\n\n"
    "examples:\n"
    "  pychess-rs fuzz --seed 1 --positions 20000\n"
    "  pychess-rs fuzz --seed 7 --minutes 30 --chess960\n"
    "  pychess-rs fuzz --sources rare,placement --games 200\n"
    "  pychess-rs fuzz --variant atomic --positions 20000 --seed 1\n"
    "  pychess-rs fuzz --variant all --positions 2000\n"
    "  pychess-rs fuzz --replay fuzz-failures/rare-san-s1-000001.json"
)


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {text}")
    return value


def _minutes(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {text}")
    return value


def _sources(text: str) -> list[str]:
    sources = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in sources if s not in SOURCES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown source(s) {unknown}; choose from {', '.join(SOURCES)}"
        )
    return sources


def _directory(text: str) -> Path:
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a directory: {text}")
    return path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the fuzzer's options on *parser* (``pychess-rs fuzz``'s own parser)."""
    parser.add_argument("--seed", type=int, default=0, help="campaign seed (default 0)")
    parser.add_argument(
        "--games",
        type=_count,
        help="games per game source (placement: 10x that many placements, mutated: 50x FENs; "
        "epd: every position once)",
    )
    parser.add_argument("--positions", type=_count, help="stop after N positions checked")
    parser.add_argument("--minutes", type=_minutes, help="stop after M minutes")
    parser.add_argument(
        "--chess960",
        action="store_true",
        help="Chess960 only: skip startpos, play every other source in Chess960 mode, only "
        "perft960.epd",
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
        type=_sources,
        default=list(SOURCES),
        help="comma-separated subset of the sources (default: all)",
    )
    parser.add_argument(
        "--epd-dir",
        type=_directory,
        metavar="DIR",
        help="the *.epd files of the epd source (default: tests/data of the source checkout "
        "this package runs from; an installed wheel has none, and skips the epd source)",
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
    parser.add_argument(
        "--variant",
        metavar="NAME",
        help="fuzz pychess_rs.variant's boards against python-chess's chess.variant instead: "
        "a variant's name (atomic, crazyhouse, 3check, KOTH, ...), several separated by "
        "commas, or 'all'; --positions/--games/--minutes then count per variant",
    )


def run_cli(args: argparse.Namespace) -> int:
    """Run the fuzzer with parsed *args*; return the exit status: 0 no mismatch, 1 mismatches
    found, 2 python-chess not installed."""
    try:
        import chess
    except ImportError:
        print(
            "pychess-rs fuzz: the differential fuzzer needs python-chess, its oracle, which is "
            f"not installed: {INSTALL_HINT}",
            file=sys.stderr,
        )
        return 2
    if chess.__version__ != ORACLE_VERSION:
        print(
            f"pychess-rs fuzz: note: python-chess {chess.__version__} is installed; the "
            f"fuzzer's contract is written against {ORACLE_VERSION} ({INSTALL_HINT})",
            file=sys.stderr,
        )
    import pychess_rs

    from .campaign import Config, run
    from .report import format_summary, replay_reports
    from .sources import DATA_DIR, epd_files

    if args.replay:
        return 1 if replay_reports(pychess_rs, args.replay, sys.stdout) else 0
    if args.variant:
        return _run_variants(args, pychess_rs)
    games = args.games
    if games is None and args.positions is None and args.minutes is None:
        games = 20
    epd_dir = args.epd_dir or DATA_DIR
    if "epd" in args.sources and not epd_files(epd_dir, only_chess960=args.chess960):
        where = (
            f"no EPD files in {epd_dir}"
            if args.epd_dir or epd_dir.is_dir()
            else "its EPD files are tests/data of a source checkout, which an installed "
            "package does not have (--epd-dir DIR names a directory of *.epd files)"
        )
        print(f"pychess-rs fuzz: the epd source is skipped: {where}", file=sys.stderr)
    config = Config(
        seed=args.seed,
        games=games,
        positions=args.positions,
        minutes=args.minutes,
        chess960=args.chess960,
        out=args.out,
        quiet=args.quiet,
        sources=args.sources,
        max_reports=args.max_reports,
        epd_dir=epd_dir,
    )
    try:
        result = run(config, pychess_rs)
    except KeyboardInterrupt:
        print("\npychess-rs fuzz: interrupted", file=sys.stderr)
        return 130
    print(format_summary(result, config))
    return 1 if result.mismatches else 0


def _run_variants(args: argparse.Namespace, rs: object) -> int:
    """``--variant``: the variant fuzzer (``variants``)."""
    import chess.variant

    from .variants import VARIANT_NAMES, format_variant_summary, run_variants

    names: list[str] = []
    for name in args.variant.split(","):
        name = name.strip()
        if name.lower() == "all":
            names.extend(VARIANT_NAMES)
            continue
        try:
            uci_name = chess.variant.find_variant(name).uci_variant
        except ValueError:
            print(
                f"pychess-rs fuzz: unknown variant {name!r}; choose from "
                f"{', '.join(VARIANT_NAMES)} or all",
                file=sys.stderr,
            )
            return 2
        if uci_name is None or uci_name == "chess":
            print("pychess-rs fuzz: standard chess is fuzzed without --variant", file=sys.stderr)
            return 2
        names.append(uci_name)
    try:
        result = run_variants(
            rs,
            names,
            seed=args.seed,
            positions=args.positions,
            games=args.games,
            minutes=args.minutes,
            max_reports=args.max_reports,
            quiet=args.quiet,
            out=args.out,
        )
    except KeyboardInterrupt:
        print("\npychess-rs fuzz: interrupted", file=sys.stderr)
        return 130
    if not args.quiet:
        shown: dict[tuple[str, str], int] = {}
        for mismatch in result.mismatches:
            key = (mismatch.variant, mismatch.prop)
            shown[key] = shown.get(key, 0) + 1
            if shown[key] <= args.max_reports:
                print(mismatch.format())
    print(format_variant_summary(result, args.seed))
    return 1 if result.mismatches else 0


def main(argv: Sequence[str] | None = None) -> int:
    """``pychess-rs fuzz`` with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    parser = argparse.ArgumentParser(
        prog="pychess-rs fuzz",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    return run_cli(parser.parse_args(argv))
