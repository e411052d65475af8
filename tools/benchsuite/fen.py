"""Workload ``fen-legal``: FENs collected from python-chess random games with a fixed seed
(:func:`.inputs.make_fens`; 2000 in a full run), each parsed into a board and its legal moves
counted, by every Python-level implementation."""

from __future__ import annotations

from .config import FENS_SEED, Context
from .inputs import make_fens
from .python_level import run_workload
from .report import Row, log


def rows(ctx: Context) -> list[Row]:
    import chess

    fens, total = make_fens(chess, ctx.sizes.fens, FENS_SEED)
    log(f"  collected {len(fens)} FENs; expected legal-move total {total}")
    return run_workload(
        ctx,
        f"FEN parse + legal count ({len(fens)})",
        "fen-legal",
        lambda adapter: adapter.fens_setup(fens),
        total,
        len(fens),
        "FENs",
    )
