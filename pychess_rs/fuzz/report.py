"""Reproducers and summaries: how a mismatch is shortened, printed, replayed, and counted.

A reproducer (one JSON file per reported mismatch) holds the start FEN, the Chess960 flag, the
UCI moves, the property and both answers; ``--replay`` re-checks saved ones.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .checks import Diff, Raised, ask, check_position, show
from .contract import (
    ACCEPTANCE,
    ACCEPTANCE_ERROR,
    COUNTER_LIMIT,
    ROOKLESS_CASTLING,
    oracle_board,
    oracle_board_class,
    outside_contract,
)
from .edits import apply_edit, is_edit

if TYPE_CHECKING:  # python-chess loads when the fuzzer runs (see the package docstring); the
    # campaign calls into this module, so only its types come back
    import chess

    from .campaign import CampaignResult, Config


def format_report(record: dict[str, Any], path: Path | None = None) -> str:
    """A saved or printed reproducer (see ``Campaign._report``) as text."""
    move = f" move={record['move']}" if record.get("move") else ""
    lines = [
        f"MISMATCH [{record['source']}] {record['property']}{move}"
        + (f"  ({record['label']})" if record.get("label") else ""),
        f"  start:  {record['start_fen']!r} chess960={record['chess960']}",
        f"  moves:  {' '.join(record['moves']) or '(none)'}",
        f"  ours:   {record['ours']}",
        f"  oracle: {record['oracle']}",
    ]
    if record.get("note"):
        lines.append(f"  note:   {record['note']}")
    if record.get("original"):
        lines.append(f"  (shortened from {len(record['original']['moves'])} plies)")
    if path is not None:
        lines.append(f"  saved:  {path}")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Replay and minimisation
# --------------------------------------------------------------------------------------------


def replay(
    rs: Any, start_fen: str, chess960: bool, moves: Sequence[str]
) -> tuple[chess.Board, Any]:
    """Both boards after *moves* from *start_fen*: legal, pseudo-legal and null moves (``0000``)
    are pushed as python-chess pushes them, edits (``castling_rights=...``) applied to both."""
    import chess

    pb = oracle_board_class()(start_fen, chess960=chess960)
    rb = rs.Board(start_fen, chess960=chess960)
    for step in moves:
        if is_edit(step):
            apply_edit(pb, step)
            apply_edit(rb, step)
            continue
        pb.push(chess.Move.from_uci(step))
        rb.push(rs.Move.from_uci(step))
    return pb, rb


def _reproduces(rs: Any, start_fen: str, chess960: bool, moves: Sequence[str], diff: Diff) -> bool:
    try:
        pb, rb = replay(rs, start_fen, chess960, moves)
    except Exception:
        return False
    return any(d.prop == diff.prop and d.move == diff.move for d in check_position(pb, rb).diffs)


def minimize(
    rs: Any, start_fen: str, chess960: bool, moves: Sequence[str], diff: Diff
) -> tuple[str, list[str]] | None:
    """A shorter ``(start_fen, moves)`` showing *diff*, or None.

    Tries, shortest first: the position's own FEN with no moves (history-free properties), then
    the position before the last capture or pawn move (repetition and clock properties only
    depend on the moves after it, the polyglot ep key on the move before), then the original.
    """
    import chess

    try:
        board = oracle_board_class()(start_fen, chess960=chess960)
        fens = [board.fen()]
        last_zeroing = 0
        for index, step in enumerate(moves):
            if is_edit(step):
                apply_edit(board, step)
            else:
                move = chess.Move.from_uci(step)
                if board.is_zeroing(move):
                    last_zeroing = index
                board.push(move)
            fens.append(board.fen())
    except ValueError:
        return None
    for start in sorted({len(moves), last_zeroing}, reverse=True):
        if _reproduces(rs, fens[start], chess960, moves[start:], diff):
            return fens[start], list(moves[start:])
    return None


def replay_reports(rs: Any, paths: Sequence[str], stream: IO[str]) -> int:
    """Re-check saved reproducers; returns the number that still fail."""
    failing = 0
    for name in paths:
        record = json.loads(Path(name).read_text())
        print(f"{name}: [{record['source']}] {record['property']}", file=stream)
        outside = outside_contract(record["start_fen"])
        if outside:
            print(f"  outside the acceptance contract ({outside}): not compared", file=stream)
            continue
        if record["property"] in (ACCEPTANCE, ACCEPTANCE_ERROR) and not record["moves"]:
            pb, why = oracle_board(record["start_fen"], record["chess960"])
            rb = ask(lambda r=record: rs.Board(r["start_fen"], chess960=r["chess960"]))
            ours = "rejected" if isinstance(rb, Raised) else "accepted"
            oracle = "accepted" if pb is not None else f"rejected ({why})"
            bad = (ours == "accepted") != (pb is not None)
            print(
                f"  ours {ours}{' ' + repr(rb) if isinstance(rb, Raised) else ''}; "
                f"oracle {oracle}: {'MISMATCH' if bad else 'agree'}",
                file=stream,
            )
            failing += bad
            continue
        try:
            pb, rb = replay(rs, record["start_fen"], record["chess960"], record["moves"])
        except Exception as exc:
            print(f"  replay failed: {type(exc).__name__}: {exc}", file=stream)
            failing += 1
            continue
        diffs = check_position(pb, rb).diffs
        for diff in diffs:
            move = f" move={diff.move}" if diff.move else ""
            print(
                f"  {diff.prop}{move}: ours {show(diff.ours)} oracle {show(diff.oracle)}"
                + (f" ({diff.note})" if diff.note else ""),
                file=stream,
            )
        print("  no mismatch left" if not diffs else f"  {len(diffs)} mismatch(es)", file=stream)
        failing += bool(diffs)
    return failing


COVERAGE_EVENTS = (
    "is_check",
    "is_checkmate",
    "is_stalemate",
    "is_insufficient_material",
    "can_claim_fifty_moves",
    "is_seventyfive_moves",
    "can_claim_threefold_repetition",
    "is_fivefold_repetition",
    "castling move",
    "en passant move",
    "promotion",
    "underpromotion",
    "rook capture on a corner",
    ROOKLESS_CASTLING,
)


def format_coverage(result: CampaignResult) -> str:
    """Positions, per source, at which python-chess saw each rare rule."""
    sources = list(result.stats)
    header = f"{'rule seen at a position':<31}" + "".join(f"{s:>10}" for s in sources)
    lines = [header]
    extra = sorted(
        {e for stats in result.stats.values() for e in stats.coverage} - set(COVERAGE_EVENTS)
    )
    for event in (*COVERAGE_EVENTS, *extra):
        counts = "".join(f"{result.stats[s].coverage[event]:>10}" for s in sources)
        lines.append(f"{event:<31}{counts}")
    return "\n".join(lines)


def format_summary(result: CampaignResult, config: Config) -> str:
    """The table printed at the end of a run: per source, totals, coverage, mismatch kinds."""
    header = (
        f"{'source':<10} {'items':>7} {'positions':>10} {'moves':>10} {'fen checks':>10} "
        f"{'pos/s':>8} {'mismatches':>10}"
    )
    lines = [header, "-" * len(header)]
    kinds: collections.Counter[str] = collections.Counter()
    tolerated = 0
    for source, stats in result.stats.items():
        count = sum(stats.mismatches.values())
        rate = stats.positions / stats.seconds if stats.seconds else 0.0
        lines.append(
            f"{source:<10} {stats.items:>7} {stats.positions:>10} {stats.moves:>10} "
            f"{stats.fen_checks:>10} {rate:>8.0f} {count:>10}"
        )
        tolerated += stats.tolerated
        kinds.update(stats.mismatches)
    rate = result.positions / result.elapsed if result.elapsed else 0.0
    lines.append("-" * len(header))
    items = sum(stats.items for stats in result.stats.values())
    fen_checks = sum(stats.fen_checks for stats in result.stats.values())
    lines.append(
        f"{'total':<10} {items:>7} {result.positions:>10} {result.moves:>10} "
        f"{fen_checks:>10} {rate:>8.0f} {result.mismatches:>10}"
    )
    lines.append("")
    lines.append(
        f"seed {config.seed}, elapsed {result.elapsed:.1f} s, {rate:.0f} positions/s, "
        f"{result.moves / result.elapsed if result.elapsed else 0:.0f} moves/s; "
        "every legal move of every position checked (no sampling)"
    )
    if tolerated:
        lines.append(
            f"FENs outside the contract (move counter above {COUNTER_LIMIT} rejected, or a king "
            f"marked promoted): {tolerated}"
        )
    lines.append("")
    lines.append(format_coverage(result))
    lines.append("")
    if kinds:
        lines.append("mismatches by property:")
        width = max(len(kind) for kind in kinds)
        for kind, count in sorted(kinds.items(), key=lambda item: (-item[1], item[0])):
            where = ", ".join(
                f"{source} {stats.mismatches[kind]}"
                for source, stats in result.stats.items()
                if stats.mismatches[kind]
            )
            lines.append(f"  {kind:<{width}} {count:>8}  ({where})")
        lines.append(
            f"reproducers ({len(result.reports)} saved, at most {config.max_reports} "
            f"per property): {config.out}"
        )
    else:
        lines.append("mismatches: 0")
    return "\n".join(lines)
