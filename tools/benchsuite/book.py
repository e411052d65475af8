"""Workload ``book``: Polyglot opening-book lookups, ``find_all`` listed whole for each of a set
of positions, python-chess's ``chess.polyglot`` (the reference of the ratios) against
``pychess_rs.polyglot``.

The book is python-chess's own test book ``data/polyglot/performance.bin`` (1.4 MB, 93k entries)
from its cached sdist (``tools/fetch-python-chess-tests`` prints where; the row says so when it is
not there). The positions, built as each library's boards before the clock starts: those of
seeded walks through the book (each ply a weighted choice, so every position has entries) and
as many again from seeded random games (:func:`.inputs.make_fens`, mostly out of the book);
1000 + 1000 in a full run. Each run counts the entries found and adds up their weights and raw
moves, which must match python-chess's.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from .config import FENS_SEED, Context
from .inputs import make_fens
from .report import Row, log, set_ratios
from .timing import Candidate, interleaved

BOOK_SEED = 20240622
REFERENCE = "python-chess"


def book_path() -> Path:
    """Where ``tools/fetch-python-chess-tests`` keeps python-chess's test book."""
    named = os.environ.get("PYCHESS_RS_PYTHON_CHESS_SUITE")
    cache = os.environ.get("PYCHESS_RS_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pychess-rs"
    )
    suite = Path(named) if named else Path(cache) / "python-chess-1.11.2"
    return suite / "data" / "polyglot" / "performance.bin"


def book_fens(chess: Any, reader: Any, count: int, seed: int) -> list[str]:
    """``count`` positions of weighted walks through the book, each walk from the start until
    the book has nothing more."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        board = chess.Board()
        while len(fens) < count and reader.get(board) is not None:
            fens.append(board.fen())
            board.push(reader.weighted_choice(board, random=rng).move)
    return fens


def lookups(reader: Any, boards: list[Any]) -> tuple[int, int, int]:
    """The timed loop: every entry of every position; (entries, sum of weights, of raw moves)."""
    entries = weights = raw_moves = 0
    for board in boards:
        for entry in reader.find_all(board):
            entries += 1
            weights += entry.weight
            raw_moves += entry.raw_move
    return entries, weights, raw_moves


def rows(ctx: Context) -> list[Row]:
    import chess
    import chess.polyglot

    import pychess_rs
    import pychess_rs.polyglot

    path = book_path()
    half = ctx.sizes.fens // 2
    if not path.is_file():
        note = f"book not cached at {path} (run tools/fetch-python-chess-tests)"
        log(f"[book lookups] {note}")
        return [
            Row("book lookups (find_all)", name, note=note) for name in (REFERENCE, "pychess-rs")
        ]
    theirs = chess.polyglot.open_reader(path)
    ours = pychess_rs.polyglot.open_reader(path)
    fens = book_fens(chess, theirs, half, BOOK_SEED) + make_fens(chess, half, FENS_SEED)[0]
    their_boards = [chess.Board(fen) for fen in fens]
    our_boards = [pychess_rs.Board(fen) for fen in fens]
    expected = lookups(theirs, their_boards)
    workload = f"book lookups (find_all, {len(fens)} positions)"
    log(f"[{workload}] expected (entries, weights, raw moves) = {expected}")
    timings = interleaved(
        [
            Candidate(REFERENCE, lambda: lookups(theirs, their_boards), expected),
            Candidate("pychess-rs", lambda: lookups(ours, our_boards), expected),
        ],
        ctx.repeat,
        time_wrong=ctx.time_wrong,
    )
    out: list[Row] = []
    reference: Row | None = None
    for timing in timings:
        row = Row(workload, timing.label, timing.seconds, len(fens), "positions", note=timing.note)
        out.append(row)
        if timing.label == REFERENCE and row.seconds is not None:
            reference = row
    set_ratios(out, reference)
    theirs.close()
    ours.close()
    return out
