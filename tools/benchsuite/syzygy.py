"""Workload ``syzygy``: Syzygy tablebase probes, ``probe_wdl`` and ``probe_dtz`` of a set of
positions, python-chess's ``chess.syzygy`` (the reference of the ratios) against
``pychess_rs.syzygy``.

The tables are the 3- and 4-piece ones of python-chess's cached sdist (``data/syzygy/regular``,
``tools/fetch-python-chess-tests`` prints where; the rows say so when they are not there),
opened once and probed once before the clock starts, so that the timed runs measure probing,
not mapping files. The positions: seeded random legal positions spread evenly over every
material of those tables, either colour stronger, either side to move (2000 in a full run),
built as each library's boards before the clock starts. Each run returns the list of answers,
which must be python-chess's.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from .config import Context
from .report import Row, log, set_ratios
from .timing import Candidate, interleaved

POSITIONS_SEED = 20221122
REFERENCE = "python-chess"


def tables_dir() -> Path:
    """Where ``tools/fetch-python-chess-tests`` keeps python-chess's Syzygy test tables."""
    named = os.environ.get("PYCHESS_RS_PYTHON_CHESS_SUITE")
    cache = os.environ.get("PYCHESS_RS_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pychess-rs"
    )
    suite = Path(named) if named else Path(cache) / "python-chess-1.11.2"
    return suite / "data" / "syzygy" / "regular"


def table_fens(chess: Any, directory: Path, count: int, seed: int) -> list[str]:
    """``count`` legal positions, round-robin over the materials of the tables (and their
    colour-swapped forms), no castling rights or en-passant square."""
    import chess.syzygy

    materials = sorted(
        {
            key
            for name in (p.stem for p in directory.glob("*.rtbw"))
            for key in (name, chess.syzygy.normalize_tablename(name, mirror=True))
        }
    )
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        material = materials[len(fens) % len(materials)]
        board = chess.Board(None)
        pieces = [(chess.WHITE, c) for c in material.split("v")[0]]
        pieces += [(chess.BLACK, c) for c in material.split("v")[1]]
        squares = rng.sample(range(64), len(pieces))
        for (color, letter), sq in zip(pieces, squares):
            board.set_piece_at(sq, chess.Piece.from_symbol(letter if color else letter.lower()))
        board.turn = rng.choice(chess.COLORS)
        if board.is_valid():
            fens.append(board.fen())
    return fens


def probes(tablebase: Any, method: str, boards: list[Any]) -> list[int]:
    """The timed loop: one probe of each board."""
    probe = getattr(tablebase, method)
    return [probe(board) for board in boards]


def rows(ctx: Context) -> list[Row]:
    import chess
    import chess.syzygy

    import pychess_rs
    import pychess_rs.syzygy

    directory = tables_dir()
    if not (directory / "KQvK.rtbw").is_file():
        note = f"tables not cached at {directory} (run tools/fetch-python-chess-tests)"
        log(f"[syzygy probes] {note}")
        return [
            Row(f"syzygy {method}", name, note=note)
            for method in ("probe_wdl", "probe_dtz")
            for name in (REFERENCE, "pychess-rs")
        ]
    theirs = chess.syzygy.open_tablebase(str(directory))
    ours = pychess_rs.syzygy.open_tablebase(str(directory))
    fens = table_fens(chess, directory, ctx.sizes.fens, POSITIONS_SEED)
    their_boards = [chess.Board(fen) for fen in fens]
    our_boards = [pychess_rs.Board(fen) for fen in fens]
    out: list[Row] = []
    for method in ("probe_wdl", "probe_dtz"):
        # Opens every table both libraries need before the clock starts.
        expected = probes(theirs, method, their_boards)
        probes(ours, method, our_boards)
        workload = f"syzygy {method} ({len(fens)} positions, 3-4 pieces)"
        log(f"[{workload}] expected sum = {sum(expected)}")
        timings = interleaved(
            [
                Candidate(REFERENCE, lambda m=method: probes(theirs, m, their_boards), expected),
                Candidate("pychess-rs", lambda m=method: probes(ours, m, our_boards), expected),
            ],
            ctx.repeat,
            time_wrong=ctx.time_wrong,
        )
        section: list[Row] = []
        reference: Row | None = None
        for timing in timings:
            row = Row(workload, timing.label, timing.seconds, len(fens), "probes", note=timing.note)
            section.append(row)
            if timing.label == REFERENCE and row.seconds is not None:
                reference = row
        set_ratios(section, reference)
        out += section
    theirs.close()
    ours.close()
    return out
