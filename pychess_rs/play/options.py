"""``pychess-rs play``'s command line: the arguments and the game they set up."""

from __future__ import annotations

import argparse
import os
import random
from pathlib import Path
from typing import Any

from .._book import EngineBook, random_seed
from .._core import Board, check_uci_option
from ..engine import Limit
from ..uci import _VARIANTS as _UCI_VARIANTS
from . import record
from .engine_player import LEVELS, EnginePlayer, describe_levels, parse_level

__all__ = ["VARIANTS", "add_arguments", "players", "search_limit", "start_position"]

#: The variants ``--variant`` plays: the UCI loop's ``UCI_Variant`` values.
VARIANTS = _UCI_VARIANTS

EPILOG = """\
examples:
  pychess-rs play                                  you (White) against the engine, level 3
  pychess-rs play --white engine --black human --level 6
  pychess-rs play --white human --black human      two players at one keyboard
  pychess-rs play --white engine --depth 6         watch the engine play itself
  pychess-rs play --chess960 --save game.pgn       a random Chess960 start
  pychess-rs play --book performance.bin           the engine opens from a Polyglot book
  pychess-rs play --syzygy ~/syzygy                the engine plays endgames from Syzygy tables
  pychess-rs play --variant atomic                 a chess variant (crazyhouse, 3check, ...)
  printf 'f3\\ne5\\ng4\\nQh4\\n' | pychess-rs play --black human   one move per line

Moves are SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3); type help during the game for the
commands (moves, undo, hint, flip, fen, pgn, resign, draw, claim, quit)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declares ``play``'s options on ``parser``."""
    parser.add_argument(
        "--white", choices=("human", "engine"), default="human", help="who plays White"
    )
    parser.add_argument(
        "--black", choices=("human", "engine"), default="engine", help="who plays Black"
    )
    parser.add_argument(
        "--level",
        default="3",
        metavar="LEVEL",
        help=f"engine strength: 1..{LEVELS} (UCI_Elo {describe_levels()}), an Elo in the "
        "engine's UCI_Elo range, or max (default: 3)",
    )
    add_limit_arguments(parser)
    add_book_arguments(parser)
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--fen", metavar="FEN", help="start from this position")
    start.add_argument(
        "--pgn", metavar="FILE", type=Path, help="resume the mainline of this PGN game"
    )
    start.add_argument(
        "--chess960",
        nargs="?",
        const=-1,
        type=int,
        metavar="N",
        help="Chess960 from start position N (0..959; 518 is the standard one), random without N",
    )
    parser.add_argument(
        "--variant",
        metavar="NAME",
        default="chess",
        help="play a variant: " + ", ".join(VARIANTS) + " (default chess); with --fen, "
        "the FEN is read with the variant's rules",
    )
    parser.add_argument("--flip", action="store_true", help="show the board from Black's side")
    parser.add_argument("--ascii", action="store_true", help="letters instead of Unicode pieces")
    parser.add_argument(
        "--no-color", action="store_true", help="no colours (also NO_COLOR or TERM=dumb)"
    )
    parser.add_argument(
        "--save", metavar="FILE", type=Path, help="also write the game's PGN to FILE at the end"
    )


def start_position(args: argparse.Namespace) -> Board:
    """The board the game starts from (with a resumed game's moves on its stack).

    :raises: :exc:`ValueError` with a one-line reason.
    """
    if args.fen is not None:
        return Board(args.fen)
    if args.pgn is not None:
        try:
            text = args.pgn.read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            raise ValueError(f"cannot read {args.pgn}: {e.strerror}") from None
        return record.read_mainline(text)
    if args.chess960 is not None:
        number = random.randrange(960) if args.chess960 == -1 else args.chess960
        if not 0 <= number < 960:
            raise ValueError(f"--chess960 takes 0..959, got {number}")
        return Board.from_chess960_pos(number)
    return Board()


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """The engine's search limit per move (read back by :func:`search_limit`)."""
    parser.add_argument(
        "--movetime",
        type=float,
        metavar="SECONDS",
        help="engine thinking time per move (default 1 second unless --depth or --nodes)",
    )
    parser.add_argument("--depth", type=int, metavar="N", help="engine search depth per move")
    parser.add_argument("--nodes", type=int, metavar="N", help="engine nodes per move")


def add_book_arguments(parser: argparse.ArgumentParser) -> None:
    """The engine's opening book (read back by :func:`book_options`)."""
    parser.add_argument(
        "--book",
        metavar="FILE",
        type=Path,
        help="a Polyglot opening book (.bin) the engine plays from while the game is in it",
    )
    parser.add_argument(
        "--book-seed",
        type=int,
        metavar="N",
        help="seed of the book's weighted choice: the same seed repeats the same openings "
        "(default: a new one each game)",
    )
    parser.add_argument(
        "--syzygy",
        metavar="DIR",
        help="directory of Syzygy endgame tables (.rtbw/.rtbz) the engine plays endgames "
        f"from; several joined with {os.pathsep!r}",
    )


def book_options(args: argparse.Namespace) -> dict[str, Any]:
    """``Engine``'s ``book``, ``book_seed`` and ``syzygy`` for one game (a fresh seed unless
    given).

    :raises: :exc:`ValueError` for a book or a tables directory that cannot be read, or a
        seed out of range.
    """
    if args.book is not None:
        try:
            EngineBook(args.book).close()
        except OSError as e:
            raise ValueError(f"cannot read the book {str(args.book)!r}: {e}") from None
    syzygy: str | None = getattr(args, "syzygy", None)
    if syzygy is not None:
        for directory in syzygy.split(os.pathsep):
            if directory and not os.path.isdir(directory):
                raise ValueError(f"cannot read the Syzygy tables: no directory {directory!r}")
    seed = random_seed() if args.book_seed is None else args.book_seed
    return {
        "book": args.book,
        "book_seed": check_uci_option("book_seed", seed),
        "syzygy": syzygy,
    }


def search_limit(args: argparse.Namespace) -> Limit:
    """The engine's limit per move.

    :raises: :exc:`ValueError` for a bad value.
    """
    for name in ("depth", "nodes"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise ValueError(f"--{name} must be at least 1, got {value}")
    movetime = args.movetime
    if movetime is not None and not 0 < movetime < float("inf"):
        raise ValueError(f"--movetime must be a positive number of seconds, got {movetime}")
    if movetime is None and args.depth is None and args.nodes is None:
        movetime = 1.0
    return Limit(time=movetime, depth=args.depth, nodes=args.nodes)


def players(args: argparse.Namespace, limit: Limit) -> dict[bool, EnginePlayer | None]:
    """``{colour: engine or None for a human}``.

    :raises: :exc:`ValueError` for a bad ``--level``, ``--book`` or ``--book-seed``.
    """
    strength = parse_level(args.level)
    book = book_options(args)
    return {
        True: EnginePlayer(strength, limit, **book) if args.white == "engine" else None,
        False: EnginePlayer(strength, limit, **book) if args.black == "engine" else None,
    }
