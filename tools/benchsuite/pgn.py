"""Workload ``pgn``: reading a PGN corpus, timed from the path to the last game.

The corpus is the non-variant files of ``tests/data/pgn/`` (engine games, and python-chess's
test games with comments and variations), repeated to 2000 games (300 with ``--quick``).
Timed: python-chess's ``chess.pgn.read_game`` loop (the reference of the ratios), pychess-rs's
``pychess_rs.pgn.read_game`` loop, the bulk reader ``pychess_rs.pgn.read_games`` on 1 thread
and on all cores, and PGN-reading peers from PyPI when installed (``iron-pgn-parser``,
``esca``, both for Python >= 3.13 only; noted when not). A second table reads a corpus of
lichess-style annotated games (``annotated_corpus``: a ``[%clk]`` on every move, ``[%eval]`` on
most, NAGs, variations, a broken game now and then), a quarter as many games, without peers.
Each counts games and mainline plies,
which must match python-chess's; a peer, reading by its own rules, is checked against its own
count, which its note gives. Rates are games/s and MB/s; ratios are python-chess's time over
the implementation's.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import os
from typing import Any, Callable

from .config import Context
from .report import Row, log, set_ratios
from .timing import best_of

PGN_DATA = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data", "pgn"
)
# Variants python-chess plays and pychess-rs only reports.
PGN_VARIANT_FILES = (
    "antichess-programfox.pgn",
    "knightvuillaume-jannlee-zh-lichess.pgn",
    "saturs-jannlee-zh-lichess.pgn",
)


def make_pgn_corpus(games: int) -> tuple[str, int]:
    """Writes the benchmark corpus to a temporary file; returns its path and size."""
    import tempfile

    pieces = []
    for name in sorted(os.listdir(PGN_DATA)):
        if name.endswith(".pgn") and name not in PGN_VARIANT_FILES:
            with open(os.path.join(PGN_DATA, name), encoding="utf-8-sig") as f:
                pieces.append(f.read().strip() + "\n\n")
    unit = "".join(pieces)
    per_unit = unit.count("\n[Event ") + unit.startswith("[Event ")
    text = unit * max(1, -(-games // max(per_unit, 1)))
    fd, path = tempfile.mkstemp(suffix=".pgn", prefix="pychess-rs-bench-")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path, os.path.getsize(path)


def pgn_python_chess(path: str) -> tuple[int, int]:
    import chess.pgn

    games = plies = 0
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games += 1
            plies += sum(1 for _ in game.mainline_moves())
    return games, plies


def pgn_ours_read_game(path: str) -> tuple[int, int]:
    from pychess_rs import pgn

    games = plies = 0
    with open(path, encoding="utf-8") as handle:
        while (game := pgn.read_game(handle)) is not None:  # type: ignore[attr-defined]
            games += 1
            plies += sum(1 for _ in game.mainline_moves())
    return games, plies


def pgn_bulk(path: str, threads: int) -> tuple[int, int]:
    from pychess_rs import pgn

    games = plies = 0
    for game in pgn.read_games(path, threads=threads):
        games += 1
        plies += game.ply_count
    return games, plies


def pgn_esca(path: str) -> tuple[int, int]:
    """esca's PGN reader (it raises on a game it cannot read, so bad games are skipped)."""
    import esca.pgn

    games = plies = 0
    for game in esca.pgn.read(path, skip_errors=True):
        games += 1
        plies += len(game.mainline())
    return games, plies


def pgn_iron(path: str) -> tuple[int, int]:
    """iron-pgn-parser: it tokenizes one game's text (tags, SAN tokens, no move checked), so
    the file is cut into games at blank lines before a tag here."""
    from iron_pgn_parser import native

    games = plies = 0
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for chunk in text.split("\n\n["):
        if not chunk.strip():
            continue
        native.parse_headers(chunk if chunk.startswith("[") else "[" + chunk)
        games += 1
        plies += len(native.parse_san(chunk))
    return games, plies


PGN_PEERS: dict[str, tuple[str, Callable[[str], tuple[int, int]]]] = {
    "esca": ("esca", pgn_esca),
    "iron-pgn-parser": ("iron_pgn_parser", pgn_iron),
}


REFERENCE = "python-chess read_game"


def rows(ctx: Context) -> list[Row]:
    import logging

    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    path, size = make_pgn_corpus(ctx.sizes.pgn_games)
    try:
        out = _rows(ctx, path, size, "PGN read", peers=True)
    finally:
        os.unlink(path)
    path, size = make_annotated_corpus(ctx.sizes.pgn_games // 4)
    try:
        return out + _rows(ctx, path, size, "PGN read, lichess-style annotated", peers=False)
    finally:
        os.unlink(path)


def make_annotated_corpus(games: int) -> tuple[str, int]:
    """Writes ``games`` lichess-style annotated games (``annotated_corpus``: a clock on every
    move, evals, NAGs, variations, a broken game now and then) to a temporary file."""
    import tempfile

    from . import annotated_corpus

    fd, path = tempfile.mkstemp(suffix=".pgn", prefix="pychess-rs-bench-annotated-")
    os.close(fd)
    annotated_corpus.write(path, max(games, 1), seed=1)
    return path, os.path.getsize(path)


def _rows(ctx: Context, path: str, size: int, title: str, *, peers: bool) -> list[Row]:
    expected = pgn_python_chess(path)
    games = expected[0]
    workload = f"{title} ({games} games, {size / 1e6:.1f} MB)"
    log(f"[{workload}] expected (games, plies) = {expected}")
    cores = os.cpu_count() or 1
    candidates: list[tuple[str, Callable[[], Any] | None, str]] = [
        (REFERENCE, lambda: pgn_python_chess(path), ""),
    ]
    from pychess_rs import pgn as ours

    if hasattr(ours, "read_game"):
        candidates.append(("pychess-rs read_game", lambda: pgn_ours_read_game(path), ""))
    else:
        candidates.append(("pychess-rs read_game", None, "not built yet"))
    candidates.append(("pychess-rs read_games, 1 thread", lambda: pgn_bulk(path, 1), ""))
    candidates.append(
        (f"pychess-rs read_games, {cores} threads", lambda: pgn_bulk(path, cores), "")
    )
    # Peers read by their own rules: each is timed against its own count, which the note
    # compares with python-chess's.
    own: dict[str, tuple[int, int]] = {}
    for name, (module, adapter) in PGN_PEERS.items() if peers else ():
        try:
            importlib.import_module(module)
            ctx.versions.append(f"{name} {importlib.metadata.version(name)}")
        except ImportError:
            candidates.append((name, None, "not installed (on PyPI for Python >= 3.13 only)"))
            continue
        try:
            own[name] = adapter(path)
        except Exception as exc:  # a peer's failure is a result
            candidates.append((name, None, f"error: {type(exc).__name__}: {exc}"[:80]))
            continue
        candidates.append((name, functools.partial(adapter, path), ""))
    out: list[Row] = []
    reference: Row | None = None
    for name, run, note in candidates:
        row = Row(workload, name, units=games, unit="games", note=note)
        out.append(row)
        if run is None:
            continue
        timing = best_of(run, ctx.repeat, name, own.get(name, expected))
        row.seconds, row.note = timing.seconds, timing.note
        if name in own and own[name] != expected:
            row.note = f"reads {own[name][0]} games, {own[name][1]} plies; " + (
                "skips games with null moves" if name == "esca" else "tokens only, no move checked"
            )
        if row.seconds is not None:
            mb_s = f"{size / 1e6 / row.seconds:.1f} MB/s"
            row.note = f"{mb_s}; {row.note}" if row.note else mb_s
            if name == REFERENCE:
                reference = row
    set_ratios(out, reference)
    return out
