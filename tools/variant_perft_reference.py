#!/usr/bin/env python3
"""Writes tests/data/variants/<variant>.epd: perft counts of variant positions, computed by
Fairy-Stockfish (`apt-get install fairy-stockfish`), an oracle no one here wrote.

Usage: .venv/bin/python tools/variant_perft_reference.py [--engine PATH] [--max-nodes N]
                                                         [--only VARIANT ...]

Positions whose rules Fairy-Stockfish does not share are counted by python-chess's boards.

Each position is counted at depths 1, 2, ... until a count exceeds --max-nodes (default
10^7), the last one included. The files use the format of tests/data/perft.epd, with the
variant's FEN as python-chess writes it (Three-check: remaining checks after the en-passant
field, which Fairy-Stockfish reads the same way).
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess

import chess
import chess.variant

POSITIONS: dict[str, list[tuple[str, str]]] = {
    "kingofthehill": [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        (
            "kings one step from the hill",
            "rnbq1bnr/ppp2ppp/3k4/3pp3/4P3/2NK4/PPPP1PPP/R1BQ1BNR w - - 2 5",
        ),
        ("open centre, kings racing", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        (
            "castling, pins and a king near the hill",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
    ],
    "3check": [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"),
        ("one check to go", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 2"),
        (
            "both one check from winning",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1+1 3 3",
        ),
        (
            "kiwipete, one check each to go",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 1+1 0 1",
        ),
    ],
    "racingkings": [
        ("start", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"),
        ("middlegame", "8/8/8/3k4/8/2r1K3/1q1n1BR1/2bN1RQ1 w - - 4 6"),
    ],
    "antichess": [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
        ("promotions and en passant", "8/1P4k1/8/3pP3/8/8/6p1/1K6 w - d6 0 1"),
        ("forced captures everywhere", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2"),
        ("bare kings and knights", "8/8/3k4/8/2N5/8/5n2/4K3 w - - 0 1"),
    ],
    "giveaway": [
        ("start, castling allowed", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        ("castling through attacked squares", "r3k2r/p6p/b7/8/8/8/P6P/R3K2R w KQkq - 0 1"),
        (
            "forced captures everywhere",
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        ),
    ],
    "horde": [
        ("start", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"),
        (
            "open horde, en passant",
            "rnbqkb1r/p3pppp/1p6/2PpP3/PPPP1PPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq d6 0 5",
        ),
        ("late horde", "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - - 0 1"),
        ("first-rank double steps, no en passant", "k7/8/8/8/8/1p6/8/P1P1P1P1 w - - 0 1"),
    ],
    "crazyhouse": [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
        ("full pockets", "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1"),
        ("a promoted queen taken becomes a pawn", "4k3/3Q~4/8/8/8/8/8/4K3[n] b - - 0 1"),
        ("check blocked by drops", "4k3/8/8/8/8/8/8/R3K2r[NBp] w Q - 0 1"),
    ],
    # Fairy-Stockfish's suicide never castles (python-chess's does, with rights in the FEN):
    # positions whose castling cannot happen within their depths.
    "suicide": [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        ("pawn endings with promotions", "8/1P4k1/8/3pP3/8/8/6p1/1K6 w - d6 0 1"),
        ("minor pieces", "8/2b5/3k4/8/2N5/5B2/5n2/4K3 b - - 0 1"),
    ],
}

# Positions where Fairy-Stockfish's rules differ from python-chess's (and lichess's), counted
# by python-chess's own boards instead. Racing Kings: when Black reaches the eighth rank
# first the game is over, and when White reaches it and Black cannot follow it is over at
# once; Fairy-Stockfish gives the other side one more move in both cases.
#
# Atomic: Fairy-Stockfish 11.1's atomic lets a king take the enemy king and gives the start
# position chess's counts (197281 at depth 4 where captures have exploded; python-chess and
# shakmaty count 197326), so every Atomic count is python-chess's.
PYTHON_CHESS_POSITIONS: dict[str, list[tuple[str, str]]] = {
    "atomic": [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        (
            "explosions near both kings",
            "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2n1PB2/8/PP2QPPP/RN2KBNR b KQkq - 0 1",
        ),
        ("connected kings", "8/8/8/8/3kK3/8/2Q5/8 w - - 0 1"),
        ("rooks that blow up castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        ("en passant explosion", "rnbqkbnr/pppp1ppp/8/3Pp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 3"),
    ],
    "racingkings": [
        ("kings near the goal", "8/3K1k2/8/8/8/8/rbn1NBR1/qr3BRQ b - - 5 9"),
        ("white on the goal, black may still draw", "4K3/6k1/8/8/8/8/1r6/R7 b - - 0 1"),
        ("white on the goal, black cannot follow", "4K3/8/6k1/8/8/8/1r6/R7 b - - 0 1"),
    ],
}


def python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth <= 1:
        return board.legal_moves.count() if depth == 1 else 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def perft(engine: str, variant: str, fen: str, depth: int) -> int:
    script = (
        f"uci\nsetoption name UCI_Variant value {variant}\n"
        f"position fen {fen}\ngo perft {depth}\nquit\n"
    )
    out = subprocess.run([engine], input=script, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])
    raise RuntimeError(f"no perft answer for {variant} {fen!r}: {out[-500:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="/usr/games/fairy-stockfish")
    parser.add_argument("--max-nodes", type=int, default=10_000_000)
    parser.add_argument("--only", nargs="*", help="variants to write (default: all)")
    args = parser.parse_args()
    hello = subprocess.run([args.engine], input="uci\nquit\n", capture_output=True, text=True)
    version = hello.stdout.splitlines()[0]
    out_dir = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "variants"
    out_dir.mkdir(parents=True, exist_ok=True)
    for variant in dict.fromkeys([*POSITIONS, *PYTHON_CHESS_POSITIONS]):
        positions = POSITIONS.get(variant, [])
        if args.only and variant not in args.only:
            continue
        lines = (
            [
                f"# {variant} perft counts from {version} (UCI_Variant {variant}, go perft N),",
                "# written by tools/variant_perft_reference.py. Format: tests/data/perft.epd.",
            ]
            if positions
            else [
                f"# {variant} perft counts, written by tools/variant_perft_reference.py.",
                "# Format: tests/data/perft.epd.",
            ]
        )
        for name, fen in positions:
            counts = []
            depth = 1
            while True:
                nodes = perft(args.engine, variant, fen, depth)
                counts.append(f";D{depth} {nodes}")
                if nodes > args.max_nodes or nodes == 0 or depth >= 12:
                    break
                depth += 1
            lines.append(f"# {name}")
            lines.append(f"{fen} {' '.join(counts)}")
            print(variant, name, counts[-1], flush=True)
        extra = PYTHON_CHESS_POSITIONS.get(variant, [])
        if extra:
            cls = chess.variant.find_variant(variant)
            lines.append(
                f"# Counted by python-chess {chess.__version__} instead"
                " (rules differ, see the tool):"
            )
            for name, fen in extra:
                counts = []
                for depth in range(1, 12):
                    nodes = python_chess_perft(cls(fen), depth)
                    counts.append(f";D{depth} {nodes}")
                    if nodes > args.max_nodes // 20 or nodes == 0:
                        break
                lines.append(f"# {name}")
                lines.append(f"{fen} {' '.join(counts)}")
                print(variant, name, counts[-1], flush=True)
        (out_dir / f"{variant}.epd").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
