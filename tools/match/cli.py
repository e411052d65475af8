"""Command line of the match runner (``tools/match.py``)."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys
from pathlib import Path

from . import stats
from .clock import TIME_MARGIN, TimeControl
from .engines import EngineSpec, parse_engine_spec, unique_names
from .game import HANG_TIMEOUT, Limits
from .openings import load_openings
from .runner import Match, MatchConfig

DEFAULT_OPENINGS = Path(__file__).resolve().parents[2] / "tests" / "data" / "openings.epd"
#: Game cap of an SPRT run without --games: the test normally ends long before.
SPRT_MAX_GAMES = 20000

EPILOG = """\
engine settings (after --engine / --opponent, as key=value tokens):
  cmd=COMMAND          command line (split like a shell would; quote it as one token)
  name=NAME            name in tables and PGN (default: the program's file name)
  proto=uci|xboard     protocol (default uci)
  option.NAME=VALUE    an engine option, e.g. option.Hash=64 option.UCI_Elo=2000
  arg=ARG              one more command-line argument (repeatable)
  dir=DIR              working directory
Engines with a Threads option get Threads=1 unless given. Programs not on PATH are also
looked up in /usr/games (Debian's engines: tools/install-engines).

examples:
  tools/match.py --engine cmd=pychess-rs-uci name=new --engine cmd=old-build/uci name=old \\
      --tc 10+0.1 --concurrency 2 --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05
  tools/match.py --engine cmd=pychess-rs-uci name=new \\
      --opponent cmd=stockfish name=sf2400 option.UCI_LimitStrength=true option.UCI_Elo=2400 \\
      --opponent cmd=glaurung --opponent cmd=toga2 --games 40 --tc 10+0.1 --pgn out.pgn

Scores, Elo and LOS are from the first engine's point of view. Ctrl-C stops the match,
closes the engines and prints the summary of the finished games.
"""


def _key_values(tokens: list[str], what: str) -> dict[str, str]:
    out = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep:
            raise ValueError(f"{what}: {token!r} is not key=value")
        out[key] = value
    return out


def parse_sprt(tokens: list[str]) -> stats.Sprt:
    values = _key_values(tokens, "--sprt")
    unknown = set(values) - {"elo0", "elo1", "alpha", "beta"}
    if unknown:
        raise ValueError(f"--sprt: unknown setting(s) {sorted(unknown)} (elo0 elo1 alpha beta)")
    try:
        return stats.Sprt(**{k: float(v) for k, v in values.items()})
    except ValueError as err:
        raise ValueError(f"--sprt: {err}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tools/match.py",
        description="Play engine matches (UCI or xboard) and measure the Elo difference; "
        "SPRT mode accepts or rejects a change against the previous build.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    add(
        "--engine",
        action="append",
        nargs="+",
        default=[],
        metavar="KEY=VALUE",
        help="an engine; the first is the tested one, a second is its opponent",
    )
    add(
        "--opponent",
        action="append",
        nargs="+",
        default=[],
        metavar="KEY=VALUE",
        help="an opponent of the first engine (repeat for a gauntlet: one row each)",
    )
    add("--tc", help="time control [moves/]seconds[+increment], e.g. 10+0.1 or 40/60")
    add("--movetime", type=float, help="seconds per move (a hard limit, forfeit beyond it)")
    add("--nodes", type=int, help="nodes per move")
    add("--depth", type=int, help="depth per move")
    add(
        "--games",
        type=int,
        help="games per opponent, an even number: colour-swapped pairs, one opening a pair "
        f"(default 20; with --sprt the cap, default {SPRT_MAX_GAMES})",
    )
    add("--concurrency", type=int, default=1, help="games played at once (default 1)")
    add(
        "--openings",
        default=str(DEFAULT_OPENINGS),
        help="FEN/EPD file, one position a line (default tests/data/openings.epd)",
    )
    add("--random-openings", action="store_true", help="play the openings in a shuffled order")
    add("--seed", type=int, help="seed of --random-openings (default: random, printed)")
    add(
        "--chess960",
        action="store_true",
        help="play every opening as Chess960 (positions with Chess960 castling rights are "
        "played as Chess960 anyway)",
    )
    add(
        "--sprt",
        nargs="+",
        metavar="KEY=VALUE",
        help="sequential test: elo0=0 elo1=5 alpha=0.05 beta=0.05; stops at a verdict",
    )
    add(
        "--sprt-model",
        choices=("pentanomial", "trinomial"),
        default="pentanomial",
        help="counts the SPRT uses (default pentanomial: game pairs)",
    )
    add(
        "--margin",
        type=float,
        default=TIME_MARGIN,
        help=f"seconds a move may overstep its time before it forfeits (default {TIME_MARGIN})",
    )
    add(
        "--hang-timeout",
        type=float,
        default=HANG_TIMEOUT,
        help="seconds past its time budget (or, for nodes/depth moves, in all) after which a "
        f"silent engine is declared hung and restarted (default {HANG_TIMEOUT:g})",
    )
    add("--pgn", help="write the games to this PGN file")
    add("--json", help="write the summary to this JSON file")
    add("--event", default="pychess-rs match", help="PGN Event tag")
    add(
        "--progress",
        choices=("games", "status"),
        default="games",
        help="a line per finished game (default) or a status line every --status-interval s",
    )
    add("--status-interval", type=float, default=10.0)
    add("--debug", action="store_true", help="log the engine traffic (python-chess) to stderr")
    return parser


def build_config(args: argparse.Namespace) -> MatchConfig:
    specs: list[EngineSpec] = [parse_engine_spec(t) for t in args.engine + args.opponent]
    if len(specs) < 2:
        raise ValueError("need two engines: --engine A --engine B, or --engine A --opponent B")
    specs = unique_names(specs)
    tc = TimeControl.parse(args.tc) if args.tc else None
    for name in ("movetime", "nodes", "depth", "concurrency"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            raise ValueError(f"--{name} must be positive")
    if args.margin < 0 or args.hang_timeout <= 0:
        raise ValueError("--margin must be >= 0 and --hang-timeout > 0")
    limits = Limits(tc, args.movetime, args.nodes, args.depth, args.margin, args.hang_timeout)
    sprt = parse_sprt(args.sprt) if args.sprt else None
    games = args.games if args.games is not None else (SPRT_MAX_GAMES if sprt else 20)
    openings = load_openings(args.openings, args.chess960)
    return MatchConfig(
        engine=specs[0],
        opponents=specs[1:],
        limits=limits,
        openings=openings,
        games=games,
        concurrency=args.concurrency,
        random_openings=args.random_openings,
        seed=args.seed,
        sprt=sprt,
        sprt_model=args.sprt_model,
        pgn_path=args.pgn,
        event=args.event,
        progress=args.progress,
        status_interval=args.status_interval,
    )


async def _run(match: Match) -> None:
    loop = asyncio.get_running_loop()

    def interrupted(signame: str) -> None:
        match._say(
            f"match: {signame}: abandoning the games in progress and closing the engines "
            "(again to force)"
        )
        match.stop("interrupted")
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, interrupted, sig.name)
    await match.run()


def main(argv: list[str] | None = None) -> int:
    """Run a match; exit status 0, 1 if an engine could not be started, 2 for bad
    arguments, 130 if interrupted."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.random_openings and args.seed is None:
        import random

        args.seed = random.SystemRandom().randrange(2**31)
    try:
        config = build_config(args)
    except (ValueError, OSError) as err:
        parser.error(str(err))
    logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("chess.engine").setLevel(logging.DEBUG if args.debug else logging.CRITICAL)
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)

    match = Match(config)
    engines = ", ".join(s.describe() for s in (config.engine, *config.opponents))
    seed = f", seed {config.seed}" if config.random_openings else ""
    match._say(
        f"match: {match.total_games} games, {config.limits.describe()}, "
        f"concurrency {config.concurrency}, {len(config.openings)} openings from "
        f"{args.openings}{seed}\nmatch: engines: {engines}"
    )
    try:
        asyncio.run(_run(match))
    except KeyboardInterrupt:
        match.stop("interrupted")
    print(match.summary(), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(match.to_json(), f, indent=2)
            f.write("\n")
    if match.stop_reason == "interrupted":
        return 130
    return 1 if match.failed else 0


if __name__ == "__main__":
    sys.exit(main())
