"""``pychess-rs training-data``: write training data for chess networks, or read it back.

Subcommands (each writer shows progress on standard error and ends with a one-line summary
on standard output; :mod:`pychess_rs.training_data` is the API behind them, and
``docs/training-data.md`` the formats):

``nnue``       32-byte NNUE records (bullet's ``ChessBoard`` or marlinflow's ``PackedBoard``)
               from a PGN file or from the engine's self-play;
``lc0``        Lc0 V6 training chunks from a PGN file;
``alphazero``  AlphaZero planes, legal masks, moves and outcomes as ``.npy`` files or ``.npz``;
``filter``     copy the records of an NNUE file that pass filters;
``rescore``    score an NNUE file's positions again with a UCI engine (Stockfish, say);
``read``       print the records of any of these files (a check that they round-trip).

Exit status: 0 done, 1 the data could not be written or read, 2 usage error.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

DESCRIPTION = (
    "Write training data for chess networks from PGN games or the built-in engine's self-play:\n"
    "NNUE records (bullet / marlinflow layouts), Lc0 V6 chunks, AlphaZero tensors (.npy/.npz);\n"
    "or read such files back. Formats: docs/training-data.md."
)
EPILOG = (
    "examples:\n"
    "  pychess-rs training-data nnue data.bin --pgn games.pgn.zst --skip-check --skip-noisy\n"
    "  pychess-rs training-data nnue data.bin --selfplay 10000 --nodes 5000 --threads 8 --seed 1\n"
    "  pychess-rs training-data nnue data.bin --selfplay 500 --seed 1 --first-game 10000 --append\n"
    "  pychess-rs training-data nnue data.bin --pgn games.pgn --engine-nodes 2000 --format marlin\n"
    "  pychess-rs training-data lc0 games.pgn chunks/ --games-per-chunk 100\n"
    "  pychess-rs training-data alphazero games.pgn tensors.npz\n"
    "  pychess-rs training-data filter data.bin quiet.bin --skip-check --skip-noisy\n"
    "  pychess-rs training-data filter data.bin kids.bin --children 6 --seed 1 --skip-noisy\n"
    "  pychess-rs training-data rescore quiet.bin sf.bin --engine /usr/games/stockfish --depth 8\n"
    "  pychess-rs training-data read data.bin --limit 5"
)


def _positive(text: str) -> int:
    value = int(text.replace("_", ""))
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def _count(text: str) -> int:
    value = int(text.replace("_", ""))
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {text}")
    return value


def _add_common(parser: argparse.ArgumentParser, *, scores: bool) -> None:
    group = parser.add_argument_group("positions left out")
    group.add_argument(
        "--skip-plies", type=_count, default=0, metavar="N", help="the first N plies of each game"
    )
    group.add_argument(
        "--skip-check", action="store_true", help="positions whose side to move is in check"
    )
    group.add_argument(
        "--skip-noisy",
        action="store_true",
        help="positions whose best move (the engine's, else the one played) "
        "is a capture or a promotion",
    )
    if scores:
        group.add_argument(
            "--max-score",
            type=_count,
            metavar="CP",
            help="positions whose |score| is above CP (mates are 32000)",
        )
    parser.add_argument(
        "--threads",
        type=_positive,
        default=os.cpu_count() or 1,
        help="worker threads (default: all cores; the output is the same for any number)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress line")


def _record_file_to_file(sub: Any, name: str, **text: str) -> argparse.ArgumentParser:
    """A subcommand that reads one NNUE record file and writes another."""
    parser: argparse.ArgumentParser = sub.add_parser(name, **text)
    parser.add_argument("src", help="an NNUE record file")
    parser.add_argument("out", help="the record file to write (not SRC)")
    parser.add_argument("--format", choices=("bullet", "marlin"), default="bullet")
    parser.add_argument("--no-progress", action="store_true", help="no progress line")
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(
        dest="what", required=True, metavar="{nnue,lc0,alphazero,filter,rescore,read}"
    )

    nnue = sub.add_parser(
        "nnue",
        help="32-byte NNUE records (position, score, result)",
        description="Write 32-byte NNUE records from a PGN file (scores from [%%eval] "
        "comments, else from the built-in engine with --engine-nodes/--engine-depth, else 0) "
        "or from self-play of the built-in engine.",
    )
    nnue.add_argument("out", help="the record file to write")
    nnue.add_argument("--append", action="store_true", help="add to OUT instead of replacing it")
    source = nnue.add_mutually_exclusive_group(required=True)
    source.add_argument("--pgn", help="a .pgn file, or .pgn.gz / .pgn.bz2 / .pgn.zst")
    source.add_argument(
        "--selfplay", type=_positive, metavar="GAMES", help="play this many games of self-play"
    )
    nnue.add_argument(
        "--format",
        choices=("bullet", "marlin"),
        default="bullet",
        help="bullet's ChessBoard (default) or marlinflow's PackedBoard",
    )
    play = nnue.add_argument_group("self-play")
    play.add_argument(
        "--nodes", type=_positive, default=None, help="nodes per move (default 5000 unless --depth)"
    )
    play.add_argument("--depth", type=_positive, help="depth per move")
    play.add_argument(
        "--random-plies",
        type=_count,
        default=8,
        help="uniformly random plies before the engine plays (default 8)",
    )
    play.add_argument("--seed", type=_count, default=0, help="the run's seed (default 0)")
    play.add_argument(
        "--first-game",
        type=_count,
        default=0,
        metavar="N",
        help="play games N .. N + GAMES - 1 of the seed's sequence (to run in pieces)",
    )
    play.add_argument(
        "--max-plies",
        type=_positive,
        default=400,
        help="a game still going after this many plies is a draw (default 400)",
    )
    scoring = nnue.add_argument_group("scoring PGN positions without [%eval]")
    scoring.add_argument("--engine-nodes", type=_positive, help="search them to this many nodes")
    scoring.add_argument("--engine-depth", type=_positive, help="search them to this depth")
    _add_common(nnue, scores=True)
    nnue.set_defaults(write=_write_nnue)

    lc0 = sub.add_parser(
        "lc0",
        help="Lc0 V6 training chunks from a PGN file",
        description="Write Lc0 V6 training chunks (training.<n>.gz) from the games of a PGN "
        "file: history planes, the move played as a one-hot policy, the result.",
    )
    lc0.add_argument("pgn", help="a .pgn file, or .pgn.gz / .pgn.bz2 / .pgn.zst")
    lc0.add_argument("out", help="the directory of chunks (created if missing)")
    lc0.add_argument(
        "--games-per-chunk",
        type=_positive,
        default=1,
        help="games in each chunk file (default 1, as Lc0 writes them)",
    )
    _add_common(lc0, scores=False)
    lc0.set_defaults(write=_write_lc0)

    az = sub.add_parser(
        "alphazero",
        help="AlphaZero planes, legal masks, moves and outcomes (.npy files or .npz)",
        description="Write the AlphaZero input planes, legal-move masks, moves played and "
        "outcomes of the games of a PGN file: a directory of .npy files (memory-mappable), "
        "or one .npz archive when OUT ends in .npz.",
    )
    az.add_argument("pgn", help="a .pgn file, or .pgn.gz / .pgn.bz2 / .pgn.zst")
    az.add_argument("out", help="a directory, or a file ending in .npz")
    az.add_argument("--compress", action="store_true", help="deflate the .npz")
    _add_common(az, scores=False)
    az.set_defaults(write=_write_alphazero)

    refilter = _record_file_to_file(
        sub,
        "filter",
        help="copy the NNUE records of a file that pass filters to another",
        description="Copy the records of an NNUE file that pass the filters to OUT, byte for "
        "byte. Records carry no best move: --skip-noisy leaves out positions where the side "
        "to move has a capture or promotion that wins material by static exchange. With "
        "--children K, write instead the positions after up to K distinct random legal moves "
        "of each record's (score 0, to be rescored; the record's result): --max-score then "
        "applies to the record, --skip-check and --skip-noisy to each child.",
    )
    refilter.add_argument(
        "--children",
        type=_count,
        default=0,
        metavar="K",
        help="write up to K random one-move children of each position instead of it",
    )
    refilter.add_argument(
        "--seed", type=_count, default=0, help="the children's random moves (default 0)"
    )
    refilter.add_argument("--skip-check", action="store_true", help="positions in check")
    refilter.add_argument(
        "--skip-noisy", action="store_true", help="positions with a winning capture or promotion"
    )
    refilter.add_argument(
        "--max-score", type=_count, metavar="CP", help="positions whose |score| is above CP"
    )
    refilter.set_defaults(write=_filter_nnue)

    rescore = _record_file_to_file(
        sub,
        "rescore",
        help="score the positions of an NNUE file again with a UCI engine",
        description="Copy the records of an NNUE file to OUT in order, each scored by a UCI "
        "engine's search of its position (--depth and/or --nodes); positions and results are "
        "kept. --threads engine processes run side by side.",
    )
    rescore.add_argument(
        "--engine",
        required=True,
        help="the engine's command line (split as a shell would), e.g. /usr/games/stockfish",
    )
    rescore.add_argument("--depth", type=_positive, help="search each position to this depth")
    rescore.add_argument("--nodes", type=_positive, help="search each position this many nodes")
    rescore.add_argument("--threads", type=_positive, default=1, help="engine processes")
    rescore.add_argument(
        "--resume",
        action="store_true",
        help="keep the records an interrupted run left in OUT and score the rest",
    )
    rescore.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a UCI option for each engine process (repeatable), e.g. Hash=16",
    )
    rescore.set_defaults(write=_rescore_nnue)

    read = sub.add_parser(
        "read",
        help="print the records of a training-data file",
        description="Print the records of an NNUE file (FEN | score | result), an Lc0 chunk "
        "(FEN | move | result | plies left) or AlphaZero arrays (their shapes, then each "
        "position's move index and outcome).",
    )
    read.add_argument("file", help="an NNUE file, an Lc0 .gz chunk, a .npz or a .npy directory")
    read.add_argument(
        "--format",
        choices=("bullet", "marlin", "lc0", "alphazero"),
        help="default: lc0 for .gz, alphazero for .npz and directories, else bullet",
    )
    read.add_argument("--limit", type=_count, default=None, help="print at most this many")
    read.set_defaults(write=None)


def run(args: argparse.Namespace) -> int:
    from .training_data import TrainingDataError

    try:
        if args.write is None:
            return _read(args)
        stats = args.write(args)
    except (TrainingDataError, OSError) as e:
        print(f"pychess-rs training-data: {e}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}: {stats.summary()}")
    return 0


def _progress(
    args: argparse.Namespace,
    label: str,
    describe: Callable[[Any], str] = lambda s: f"{s.games} games, {s.written} positions",
) -> tuple[Any, Any]:
    from ._progress import Progress

    bar = Progress(sys.stderr, label=label, enabled=not args.no_progress)

    def show(stats: Any, fraction: float | None) -> None:
        if bar.due():
            bar.show(describe(stats), fraction)

    return bar, show


def _filters(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "skip_plies": args.skip_plies,
        "skip_check": args.skip_check,
        "skip_noisy": args.skip_noisy,
        "threads": args.threads,
    }


def _write_nnue(args: argparse.Namespace) -> Any:
    from .training_data import write_nnue

    bar, show = _progress(args, "nnue")
    nodes = args.nodes if args.nodes is not None or args.depth is not None else 5000
    try:
        return write_nnue(
            args.out,
            pgn=args.pgn,
            games=args.selfplay,
            first_game=args.first_game,
            append=args.append,
            format=args.format,
            nodes=nodes,
            depth=args.depth,
            random_plies=args.random_plies,
            seed=args.seed,
            max_plies=args.max_plies,
            engine_nodes=args.engine_nodes,
            engine_depth=args.engine_depth,
            max_score=args.max_score,
            progress=show,
            **_filters(args),
        )
    finally:
        bar.finish()


def _filter_nnue(args: argparse.Namespace) -> Any:
    from .training_data import filter_nnue

    bar, show = _progress(args, "filter", lambda s: f"{s.positions} read, {s.written} kept")
    try:
        return filter_nnue(
            args.src,
            args.out,
            format=args.format,
            skip_check=args.skip_check,
            skip_noisy=args.skip_noisy,
            max_score=args.max_score,
            children=args.children,
            seed=args.seed,
            progress=show,
        )
    finally:
        bar.finish()


def _rescore_nnue(args: argparse.Namespace) -> Any:
    from .training_data import TrainingDataError, rescore_nnue

    if args.depth is None and args.nodes is None:
        raise TrainingDataError("rescore needs --depth or --nodes")
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise TrainingDataError(f"--option {item!r} is not NAME=VALUE")
        options[name.strip()] = value.strip()
    bar, show = _progress(args, "rescore", lambda s: f"{s.written} positions scored")
    try:
        return rescore_nnue(
            args.src,
            args.out,
            shlex.split(args.engine),
            depth=args.depth,
            nodes=args.nodes,
            threads=args.threads,
            options=options,
            format=args.format,
            resume=args.resume,
            progress=show,
        )
    finally:
        bar.finish()


def _write_lc0(args: argparse.Namespace) -> Any:
    from .training_data import write_lc0

    bar, show = _progress(args, "lc0")
    try:
        return write_lc0(
            args.pgn,
            args.out,
            games_per_chunk=args.games_per_chunk,
            progress=show,
            **_filters(args),
        )
    finally:
        bar.finish()


def _write_alphazero(args: argparse.Namespace) -> Any:
    from .training_data import write_alphazero

    bar, show = _progress(args, "alphazero")
    try:
        return write_alphazero(
            args.pgn, args.out, compress=args.compress, progress=show, **_filters(args)
        )
    finally:
        bar.finish()


def _read(args: argparse.Namespace) -> int:
    from . import training_data as td

    path = Path(args.file)
    fmt = args.format
    if fmt is None:
        fmt = (
            "lc0"
            if path.suffix == ".gz"
            else "alphazero"
            if path.suffix == ".npz" or path.is_dir()
            else "bullet"
        )
    limit = args.limit
    if fmt == "alphazero":
        arrays = td.read_alphazero(path)
        for name, array in arrays.items():
            print(f"{name}: {array.dtype} {tuple(array.shape)}")
        count = len(arrays["action"]) if limit is None else min(limit, len(arrays["action"]))
        for i in range(count):
            print(f"{i} | action {int(arrays['action'][i])} | outcome {int(arrays['outcome'][i])}")
        return 0
    if fmt == "lc0":
        for record in td.read_lc0(path)[:limit]:
            print(f"{record.fen} | {record.move} | {record.result} | {record.plies_left:g}")
        return 0
    with open(path, "rb") as file:
        # Only the records to print are read (a whole file when there is no limit).
        data = file.read() if limit is None else file.read(limit * td.NNUE_RECORD_SIZE)
    for nnue in td.decode_nnue(data, fmt):
        print(f"{nnue.fen} | {nnue.score} | {nnue.result}")
    return 0
