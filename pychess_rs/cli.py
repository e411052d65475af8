"""The ``pychess-rs`` command: one entry point, one subcommand per job.

Adding a subcommand is one function: write ``_add_<name>(subparsers)`` that creates its parser
with ``subparsers.add_parser(...)``, declares its arguments and sets ``run`` (a function from
the parsed ``argparse.Namespace`` to an exit status) with ``set_defaults``; then list it in
``SUBCOMMANDS``. Keep a subcommand's heavy imports (the fuzzer's python-chess, say) inside its
``run`` path, so that ``pychess-rs --help`` stays fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Callable

from . import perft_cli

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

# The documentation site (docs/, built by tools/build-docs, hosted by Read the Docs); the same
# address is pyproject.toml's [project.urls] Documentation (tests/test_readme.py compares them).
DOCS_URL = "https://pychess-rs.readthedocs.io/"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pychess-rs")
    except PackageNotFoundError:
        return "unknown"


def _add_perft(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "perft",
        help="count leaf nodes of the legal-move tree (one position, divide, or a suite)",
        usage="%(prog)s [options] (FEN DEPTH | --startpos DEPTH | --suite [FILE])",
        description="Count the leaf nodes of the legal-move tree to a depth, natively.",
        epilog="examples:\n"
        "  pychess-rs perft --startpos 5\n"
        "  pychess-rs perft --divide 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R"
        " w KQkq - 0 1' 3\n"
        "  pychess-rs perft --chess960 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR"
        " w HFhf - 2 9' 4\n"
        "  pychess-rs perft --suite tests/data/perft.epd --max-nodes 1000000\n"
        "  pychess-rs perft --suite --max-nodes 200_000_000 --jobs 2",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    perft_cli.add_cli_arguments(parser)
    parser.set_defaults(run=perft_cli.run_cli)


def _add_fuzz(subparsers: Subparsers) -> None:
    from .fuzz import cli as fuzz_cli  # imports python-chess only when the fuzzer runs

    parser = subparsers.add_parser(
        "fuzz",
        help="differential fuzzing against python-chess (needs pychess-rs[fuzz])",
        description=fuzz_cli.DESCRIPTION,
        epilog=fuzz_cli.EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    fuzz_cli.add_arguments(parser)
    parser.set_defaults(run=fuzz_cli.run_cli)


def _add_uci(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "uci",
        help="run the engine over the UCI protocol on stdin/stdout (for chess GUIs)",
        description="Speak UCI on stdin/stdout until `quit` or end of input. Also installed "
        "as the argument-less command `pychess-rs-uci`, for GUIs that take a bare program.",
    )
    parser.set_defaults(run=_run_uci)


def _run_uci(args: argparse.Namespace) -> int:
    from . import uci

    return uci.main()


def _add_bench(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="search the fixed bench positions; the node count is the search's signature",
        description="Search the engine's fixed bench positions to a fixed depth. The node count "
        "is the same on every run of one build: a change that should not alter the search "
        "must leave it unchanged.",
    )
    parser.add_argument(
        "depth", nargs="?", type=int, default=None, help="search depth (default: the engine's)"
    )
    parser.set_defaults(run=_run_bench)


def _run_bench(args: argparse.Namespace) -> int:
    from . import uci

    try:
        lines = uci.bench_lines(args.depth)
    except ValueError as e:
        print(f"pychess-rs {e}", file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    return 0


def _add_play(subparsers: Subparsers) -> None:
    from . import play

    parser = subparsers.add_parser(
        "play",
        help="play chess in the terminal, against the engine or another person",
        description="A game of chess in the terminal: a board diagram, moves in SAN or UCI,\n"
        "every rule explained, the game written as PGN at the end.",
        epilog=play.options.EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_arguments(parser)
    parser.set_defaults(run=play.run)


def _add_gui(subparsers: Subparsers) -> None:
    from . import gui

    parser = subparsers.add_parser(
        "gui",
        help="play chess in the browser: a local web page with a clickable board",
        description="Serve a chess board on this machine and open it in the browser: play\n"
        "against the engine or another person by clicking (needs pychess-rs[gui]).",
        epilog=gui.EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    gui.add_arguments(parser)
    parser.set_defaults(run=gui.run)


def _add_pgn(subparsers: Subparsers) -> None:
    from .pgn import _cli as pgn_cli

    pgn_cli.add_subcommand(subparsers)


def _add_analyse(subparsers: Subparsers) -> None:
    from . import analyse_cli

    parser = subparsers.add_parser(
        "analyse",
        help="annotate every game of a PGN file with engine analysis, lichess-style",
        description=analyse_cli.DESCRIPTION,
        epilog=analyse_cli.EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    analyse_cli.add_arguments(parser)
    parser.set_defaults(run=analyse_cli.run)


def _add_training_data(subparsers: Subparsers) -> None:
    from . import training_data_cli

    parser = subparsers.add_parser(
        "training-data",
        help="write NNUE records, Lc0 chunks or AlphaZero tensors from PGN or self-play",
        description=training_data_cli.DESCRIPTION,
        epilog=training_data_cli.EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    training_data_cli.add_arguments(parser)
    parser.set_defaults(run=training_data_cli.run)


# One function per subcommand, in the order `--help` lists them.
SUBCOMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    _add_play,
    _add_gui,
    _add_perft,
    _add_uci,
    _add_bench,
    _add_fuzz,
    _add_pgn,
    _add_analyse,
    _add_training_data,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pychess-rs",
        description="Fast, correct chess for Python: a Rust rules core with a "
        "python-chess-shaped API.",
        epilog=f"`pychess-rs COMMAND --help` explains a command. Documentation: {DOCS_URL}",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add_subcommand in SUBCOMMANDS:
        add_subcommand(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``pychess-rs`` with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `pychess-rs perft --divide ... | head`
        # Python would complain again when it flushes stdout at exit: point it at devnull.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status
