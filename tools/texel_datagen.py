#!/usr/bin/env python3
"""Generate labelled quiet positions for Texel tuning of the pychess-rs evaluation.

Stockfish plays itself at a tiny node budget from the shared openings (plus a few random
plies, so that no two games are alike). Every quiet position of a game (side to move not in
check, Stockfish's chosen move neither a capture nor a promotion) is written with the game's
final result from White's point of view and Stockfish's score for it (centipawns, White's
point of view, mates as +-10000), which the tuner may blend into the label:

    <FEN>;<1.0 | 0.5 | 0.0>;<score>

    nice -n 10 .venv/bin/python tools/texel_datagen.py --out /work/data-texel/sf.txt \\
        --minutes 40 --nodes 1500 --seed 1

Dev-only: python-chess drives the engine here; the pychess_rs package never imports it.
The output can be large, so keep it out of git (e.g. under /work/data-texel/). Appending
to an existing file with another --seed adds more games.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import chess
import chess.engine

OPENINGS = Path(__file__).resolve().parent.parent / "tests" / "data" / "openings.epd"
FALLBACK_OPENINGS = Path("/work/shared/data/openings.epd")

# Adjudication: a side is lost once Stockfish reports at least WIN_CP against it for
# WIN_PLIES plies in a row; a game is drawn after DRAW_PLIES plies within DRAW_CP of 0
# past ply DRAW_AFTER. This saves the long endgames that a low node budget shuffles through.
WIN_CP = 1000
WIN_PLIES = 6
DRAW_CP = 15
DRAW_PLIES = 16
DRAW_AFTER = 100
MAX_PLIES = 400


def load_openings(path: Path) -> list[str]:
    """The FENs of an EPD file (first four fields, default clocks)."""
    fens = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) >= 4:
            fens.append(" ".join(fields[:4]) + " 0 1")
    return fens


def random_plies(board: chess.Board, rng: random.Random, count: int) -> bool:
    """Play `count` uniformly random legal moves; False if the game ends on the way."""
    for _ in range(count):
        moves = list(board.legal_moves)
        if not moves:
            return False
        board.push(rng.choice(moves))
    return not board.is_game_over()


def play_game(
    engine: chess.engine.SimpleEngine, start: chess.Board, nodes: int
) -> tuple[list[tuple[str, int]], float]:
    """Stockfish against itself from `start`: the quiet FENs seen (with Stockfish's score for
    White) and the result for White."""
    board = start.copy()
    quiet: list[tuple[str, int]] = []
    winning_streak = 0  # signed: >0 White winning, <0 Black winning
    drawish_streak = 0
    game_id = object()
    for ply in range(MAX_PLIES):
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            if outcome.winner is None:
                return quiet, 0.5
            return quiet, 1.0 if outcome.winner == chess.WHITE else 0.0
        result = engine.play(
            board, chess.engine.Limit(nodes=nodes), info=chess.engine.INFO_SCORE, game=game_id
        )
        move = result.move
        if move is None:
            break
        score = result.info.get("score")
        cp = None if score is None else score.white().score(mate_score=100_000)
        quiet_move = not board.is_capture(move) and move.promotion is None
        if cp is not None and quiet_move and not board.is_check():
            quiet.append((board.fen(), max(-10_000, min(10_000, cp))))
        if cp is not None:
            if cp >= WIN_CP:
                winning_streak = max(winning_streak, 0) + 1
            elif cp <= -WIN_CP:
                winning_streak = min(winning_streak, 0) - 1
            else:
                winning_streak = 0
            drawish_streak = drawish_streak + 1 if abs(cp) <= DRAW_CP else 0
            if winning_streak >= WIN_PLIES:
                return quiet, 1.0
            if winning_streak <= -WIN_PLIES:
                return quiet, 0.0
            if ply >= DRAW_AFTER and drawish_streak >= DRAW_PLIES:
                return quiet, 0.5
        board.push(move)
    return quiet, 0.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="file to append to")
    parser.add_argument("--minutes", type=float, default=30.0, help="stop after this long")
    parser.add_argument("--games", type=int, default=1_000_000, help="stop after this many")
    parser.add_argument("--nodes", type=int, default=1500, help="Stockfish nodes per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-random", type=int, default=2, help="fewest random plies")
    parser.add_argument(
        "--max-random",
        type=int,
        default=6,
        help="most random plies (an even number is played, so that both "
        "sides make as many random moves)",
    )
    parser.add_argument(
        "--skip-plies",
        type=int,
        default=4,
        help="quiet positions not recorded in each game's first plies",
    )
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    args = parser.parse_args()

    openings = load_openings(OPENINGS if OPENINGS.exists() else FALLBACK_OPENINGS)
    rng = random.Random(args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + 60.0 * args.minutes
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 16})
    games = positions = 0
    scores = {1.0: 0, 0.5: 0, 0.0: 0}
    try:
        with args.out.open("a") as out:
            while games < args.games and time.monotonic() < deadline:
                board = chess.Board(rng.choice(openings))
                plies = rng.randint(args.min_random, args.max_random) // 2 * 2
                if not random_plies(board, rng, plies):
                    continue
                quiet, result = play_game(engine, board, args.nodes)
                kept = quiet[args.skip_plies :]
                out.writelines(f"{fen};{result:.1f};{cp}\n" for fen, cp in kept)
                out.flush()
                games += 1
                positions += len(kept)
                scores[result] += 1
                if games % 50 == 0:
                    print(
                        f"{games} games, {positions} positions, +{scores[1.0]} "
                        f"={scores[0.5]} -{scores[0.0]}",
                        file=sys.stderr,
                        flush=True,
                    )
    finally:
        engine.quit()
    print(
        f"done: {games} games, {positions} positions, +{scores[1.0]} ={scores[0.5]} -{scores[0.0]}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
