#!/usr/bin/env python3
"""Writes tests/data/variants/playouts/<variant>.txt: positions of random games played by
python-chess's variant boards, with what python-chess says about each, for the core's tests
(rust/core/tests/variants/playouts.rs) to compare against.

Usage: .venv/bin/python tools/variant_playouts_reference.py [--games N] [--seed S] [--out DIR]

A bigger run elsewhere is checked with VARIANT_PLAYOUTS_DIR=DIR cargo test -p pychess-core
--test variants playouts.

One position a line, five fields separated by " | ":
  FEN | legal moves (UCI, sorted) | the move played (UCI) and its SAN, or "-" at the end |
  outcome ("-", or "TERMINATION_VALUE WINNER" with WINNER w, b or -) | is_check, and
  has_insufficient_material for White and Black (0 or 1 each)
A blank line separates games; within a game each position follows from the one before by the
move played.
"""

from __future__ import annotations

import argparse
import pathlib
import random

import chess
import chess.variant

VARIANTS = [
    "kingofthehill",
    "3check",
    "racingkings",
    "antichess",
    "giveaway",
    "suicide",
    "horde",
    "atomic",
    "crazyhouse",
]


def describe(board: chess.Board) -> str:
    outcome = board.outcome()
    if outcome is None:
        result = "-"
    else:
        winner = "-" if outcome.winner is None else ("w" if outcome.winner else "b")
        result = f"{outcome.termination.value} {winner}"
    answers = (
        board.is_check(),
        board.has_insufficient_material(chess.WHITE),
        board.has_insufficient_material(chess.BLACK),
    )
    flags = "".join(str(int(x)) for x in answers)
    legal = " ".join(sorted(m.uci() for m in board.legal_moves))
    return f"{board.fen()} | {legal} | {{played}} | {result} | {flags}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--max-plies", type=int, default=60)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument(
        "--out", type=pathlib.Path, help="directory (default: tests/data/variants/playouts)"
    )
    args = parser.parse_args()
    root = pathlib.Path(__file__).resolve().parent.parent
    default_dir = root / "tests" / "data" / "variants" / "playouts"
    out_dir = args.out or default_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in VARIANTS:
        rng = random.Random(f"{args.seed}-{name}")
        cls = chess.variant.find_variant(name)
        lines = [
            f"# Random {name} games played and described by python-chess {chess.__version__}",
            f"# (tools/variant_playouts_reference.py --games {args.games}"
            f" --max-plies {args.max_plies} --seed {args.seed}).",
        ]
        for _ in range(args.games):
            board = cls()
            for _ in range(args.max_plies):
                line = describe(board)
                moves = list(board.legal_moves)
                if not moves or board.outcome() is not None:
                    lines.append(line.replace("{played}", "-"))
                    break
                # Captures now and then, so that explosions and forced captures come up.
                captures = [m for m in moves if board.is_capture(m)]
                move = rng.choice(captures if captures and rng.random() < 0.5 else moves)
                lines.append(line.replace("{played}", f"{move.uci()} {board.san(move)}"))
                board.push(move)
            else:
                lines.append(describe(board).replace("{played}", "-"))
            lines.append("")
        (out_dir / f"{name}.txt").write_text("\n".join(lines))
        print(name, sum(1 for line in lines if line and not line.startswith("#")), "positions")


if __name__ == "__main__":
    main()
