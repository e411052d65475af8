"""Workload ``gaviota``: Gaviota DTM probes, python-chess's pure-Python ``chess.gaviota``
(``open_tablebase(..., LibraryLoader=None)``, the reference of the ratios) against
``pychess_rs.gaviota`` (the Rust prober).

The tables are python-chess's own test tables ``data/gaviota/`` (KQvK, KRvK, KBvK, KNvK,
KPvK) from its cached sdist (``tools/fetch-python-chess-tests`` prints where; the row says so
when they are not there). The positions: seeded random legal placements of each table's
material, the extra piece White's or Black's, each side to move where legal; 2000 in a full
run, built as each library's boards before the clock starts. Two rows:

* ``cached``: both tablebases are opened once, so after the first run every block is in
  either cache: the probe itself.
* ``cold``: each run opens the tables afresh and probes the same positions, so each of the 28
  blocks these five tables have is read and decompressed once (python-chess decodes a block
  with the C ``lzma`` module and unpacks it in Python; ours is lzma-rs).

Each run adds up the DTMs (and their absolute values), which must match python-chess's.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from .config import Context
from .report import Row, log, set_ratios
from .timing import Candidate, interleaved

SEED = 20261126
REFERENCE = "python-chess"
TABLES = ("kqk", "krk", "kbk", "knk", "kpk")


def tables_dir() -> Path:
    """Where ``tools/fetch-python-chess-tests`` keeps python-chess's test tables."""
    named = os.environ.get("PYCHESS_RS_PYTHON_CHESS_SUITE")
    cache = os.environ.get("PYCHESS_RS_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pychess-rs"
    )
    suite = Path(named) if named else Path(cache) / "python-chess-1.11.2"
    return suite / "data" / "gaviota"


def table_fens(chess: Any, count: int, seed: int) -> list[str]:
    """``count`` legal positions, spread evenly over the tables and both colours."""
    rng = random.Random(seed)
    roles = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}
    roles["p"] = chess.PAWN
    fens: list[str] = []
    while len(fens) < count:
        for name in TABLES:
            strong = rng.choice([chess.WHITE, chess.BLACK])
            board = chess.Board.empty()
            for color, role in [
                (strong, chess.KING),
                (not strong, chess.KING),
                (strong, roles[name[1]]),
            ]:
                squares = range(8, 56) if role == chess.PAWN else range(64)
                free = [s for s in squares if board.piece_type_at(s) is None]
                board.set_piece_at(rng.choice(free), chess.Piece(role, color))
            board.turn = rng.choice([chess.WHITE, chess.BLACK])
            if board.is_valid() and len(fens) < count:
                fens.append(board.fen())
    return fens


def probes(tablebase: Any, boards: list[Any]) -> tuple[int, int]:
    """The timed loop: the DTM of every board; (sum, sum of absolute values)."""
    total = magnitude = 0
    for board in boards:
        dtm = tablebase.probe_dtm(board)
        total += dtm
        magnitude += abs(dtm)
    return total, magnitude


def rows(ctx: Context) -> list[Row]:
    import chess
    import chess.gaviota

    import pychess_rs
    import pychess_rs.gaviota

    directory = tables_dir()
    if not all((directory / f"{name}.gtb.cp4").is_file() for name in TABLES):
        note = f"tables not cached at {directory} (run tools/fetch-python-chess-tests)"
        log(f"[gaviota probes] {note}")
        return [Row("gaviota DTM probes", name, note=note) for name in (REFERENCE, "pychess-rs")]
    theirs = chess.gaviota.open_tablebase(str(directory), LibraryLoader=None)
    ours = pychess_rs.gaviota.open_tablebase(str(directory))
    fens = table_fens(chess, ctx.sizes.fens, SEED)
    their_boards = [chess.Board(fen) for fen in fens]
    our_boards = [pychess_rs.Board(fen) for fen in fens]
    expected = probes(theirs, their_boards)
    log(f"[gaviota DTM probes] expected (sum, sum of |dtm|) = {expected}")

    def cold_theirs() -> tuple[int, int]:
        with chess.gaviota.open_tablebase(str(directory), LibraryLoader=None) as tables:
            return probes(tables, their_boards)

    def cold_ours() -> tuple[int, int]:
        with pychess_rs.gaviota.open_tablebase(str(directory)) as tables:
            return probes(tables, our_boards)

    out: list[Row] = []
    for kind, candidates in [
        (
            "cached",
            [
                Candidate(REFERENCE, lambda: probes(theirs, their_boards), expected),
                Candidate("pychess-rs", lambda: probes(ours, our_boards), expected),
            ],
        ),
        (
            "cold",
            [
                Candidate(REFERENCE, cold_theirs, expected),
                Candidate("pychess-rs", cold_ours, expected),
            ],
        ),
    ]:
        workload = f"gaviota DTM probes ({len(fens)} positions, 3-piece, {kind})"
        rows_of_kind: list[Row] = []
        reference: Row | None = None
        for timing in interleaved(candidates, ctx.repeat, time_wrong=ctx.time_wrong):
            row = Row(workload, timing.label, timing.seconds, len(fens), "probes", note=timing.note)
            rows_of_kind.append(row)
            if timing.label == REFERENCE and row.seconds is not None:
                reference = row
        set_ratios(rows_of_kind, reference)
        out.extend(rows_of_kind)
    theirs.close()
    ours.close()
    return out
