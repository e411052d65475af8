"""Writes rust/gaviota/tests/data/indices.txt: entry numbers python-chess 1.11's
``chess.gaviota`` computes for random placements of every Gaviota table's material, the
oracle of the Rust index schemes for the 4- and 5-piece tables (whose files are too big to
ship or to fetch for tests).

Each line: ``name white-squares black-squares index``, squares in the table's order (king
first, then by kind strongest first, like pieces by rising square), comma-separated.

Usage: .venv/bin/python tools/gaviota_indices.py  (needs chess==1.11.2; deterministic)
"""

from __future__ import annotations

import random
from pathlib import Path

import chess
import chess.gaviota as gaviota

PER_TABLE = 16
SEED = 22
OUT = Path(__file__).resolve().parent.parent / "rust" / "gaviota" / "tests" / "data" / "indices.txt"
TYPES = {"k": chess.KING, "q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP}
TYPES.update({"n": chess.KNIGHT, "p": chess.PAWN})


def placement(name: str, rng: random.Random) -> tuple[list[int], list[int]]:
    """Squares for the table's pieces: distinct, kings apart, pawns on ranks 2-7, like pieces
    by rising square."""
    second_king = name.index("k", 1)
    while True:
        taken: list[int] = []
        for letter in name:
            squares = range(8, 56) if letter == "p" else range(64)
            taken.append(rng.choice([s for s in squares if s not in taken]))
        wk, bk = taken[0], taken[second_king]
        if chess.square_distance(wk, bk) > 1:
            break
    sides = [(name[:second_king], taken[:second_king]), (name[second_king:], taken[second_king:])]
    ordered = []
    for letters, squares in sides:
        pairs = sorted(zip(letters, squares), key=lambda p: ("kqrbnp".index(p[0]), p[1]))
        ordered.append([s for _, s in pairs])
    return ordered[0], ordered[1]


def index(name: str, white: list[int], black: list[int]) -> int:
    types = [TYPES[c] for c in name]
    second_king = name.index("k", 1)
    req = gaviota.Request(white, types[:second_king], black, types[second_king:], 0)
    req.egkey = name
    req.white_piece_squares = white
    req.white_piece_types = types[:second_king]
    req.black_piece_squares = black
    req.black_piece_types = types[second_king:]
    req.is_reversed = False
    return gaviota.EGKEY[name].pctoi(req)


def main() -> None:
    rng = random.Random(SEED)
    lines = []
    for name in sorted(gaviota.EGKEY):
        for _ in range(PER_TABLE):
            white, black = placement(name, rng)
            i = index(name, white, black)
            w = ",".join(map(str, white))
            b = ",".join(map(str, black))
            lines.append(f"{name} {w} {b} {i}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} lines to {OUT}")


if __name__ == "__main__":
    main()
