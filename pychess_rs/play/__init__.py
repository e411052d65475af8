"""``pychess-rs play``: a game of chess in the terminal, against the engine or a friend.

The modules, one job each: :mod:`.options` (the command line), :mod:`.session` (the game
loop, turns and commands), :mod:`.console` (input and output, terminal or pipe),
:mod:`.render` (diagram and status line), :mod:`.commands` (the words besides moves),
:mod:`.engine_player` (levels, thinking, hints, draw offers) and :mod:`.record` (PGN).
Reading moves and explaining illegal ones is the Rust core's ``Board.read_move``.
"""

from __future__ import annotations

import argparse
import sys

from .options import add_arguments

__all__ = ["add_arguments", "run"]


def run(args: argparse.Namespace) -> int:
    """Plays the game ``args`` describes; returns the exit status (2 for bad options)."""
    from .console import Console
    from .options import players, search_limit, start_position
    from .render import detect_style
    from .session import Session

    variant = getattr(args, "variant", "chess")
    if variant != "chess":
        return run_variant(args)
    try:
        board = start_position(args)
        limit = search_limit(args)
        sides = players(args, limit)
    except ValueError as e:
        print(f"pychess-rs play: {e}", file=sys.stderr)
        return 2
    console = Console(sys.stdin, sys.stdout)
    style = detect_style(sys.stdout, ascii_only=args.ascii, no_color=args.no_color)
    session = Session(
        board,
        sides,
        console,
        style,
        limit=limit,
        white_at_bottom=not args.flip,
        save=args.save,
    )
    return session.run()


def run_variant(args: argparse.Namespace) -> int:
    """``play --variant NAME``: the smaller loop of :mod:`.variant_game`."""
    from .engine_player import parse_level
    from .options import VARIANTS, search_limit
    from .variant_game import VariantGame

    try:
        if args.variant not in VARIANTS:
            raise ValueError(
                f"--variant must be one of {', '.join(VARIANTS)}, got {args.variant!r}"
            )
        if args.pgn is not None or args.chess960 is not None:
            raise ValueError("--variant takes --fen, not --pgn or --chess960")
        limit = search_limit(args)
        strength = parse_level(args.level)
        engines = {
            color: strength
            for color, who in ((True, args.white), (False, args.black))
            if who == "engine"
        }
        game = VariantGame(
            args.variant, engines, limit, sys.stdin, sys.stdout, fen=args.fen, save=args.save
        )
    except ValueError as e:
        print(f"pychess-rs play: {e}", file=sys.stderr)
        return 2
    return game.run()
