"""Workload ``micro``: everyday calls, python-chess against pychess-rs, interleaved in one process.

Each row is one operation on the same position in both libraries (the same statement where
the APIs agree). A row is timed with ``timeit`` as python-chess, then pychess-rs, then
python-chess again and so on (``--rounds`` times each), so that both see the same machine
state; the best round of each is kept and reported in nanoseconds per call. The statement's
objects are local variables of the timed loop, so a row measures the call, not a global
lookup. Ratio is python-chess's time over ours (higher is faster; 1.0 is a tie).

Run from an environment with both installed (release build of pychess-rs)::

    python tools/bench_micro.py [--quick] [--markdown]

``tools/bench.py --only micro`` runs the same table.

Not in the table: the bitboard attributes (``board.occupied``, ``board.pawns``, ...) and
``board.move_stack``, which stay Rust getters (about 40 and 65 ns against python-chess's 12)
because keeping them as plain objects would cost every ``push`` (see
``rust/python/src/board/shadows.rs`` and ``move_stack.rs``).
"""

from __future__ import annotations

import argparse
import functools
import platform
import sys
import timeit
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .report import log, render
from .timing import Candidate, interleaved, loops_per_round, per_call

#: An Italian Game middlegame: castling rights on both sides, a pinned knight, captures,
#: checks and quiet moves to ask about.
FEN = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5"
#: A position with a double step just played (the en-passant square is set).
EP_FEN = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"

#: The objects each statement may use, made from the library bound to ``chess``.
SETUP = f"""
board = chess.Board({FEN!r})
other = chess.Board({FEN!r})
scratch = chess.Board({FEN!r})
ep_board = chess.Board({EP_FEN!r})
quiet = chess.Move.from_uci("e1g1")
capture = chess.Move.from_uci("f3e5")
check = chess.Move.from_uci("c4f7")
promo = chess.Move.from_uci("a7a8q")
quiet_again = chess.Move.from_uci("e1g1")
piece = board.piece_at(chess.E1)
piece_again = board.piece_at(chess.E1)
squares = board.attackers(chess.BLACK, chess.E4)
fen = {FEN!r}
WHITE = chess.WHITE
BLACK = chess.BLACK
E4 = chess.E4
E1 = chess.E1
F7 = chess.F7
"""


@dataclass(frozen=True)
class Op:
    """One row: a name and the statement for each library (``ours`` None: the same)."""

    name: str
    stmt: str
    ours: str | None = None


OPS: tuple[Op, ...] = (
    # Attributes.
    Op("board.turn", "board.turn"),
    Op("board.ep_square", "ep_board.ep_square"),
    Op("board.castling_rights", "board.castling_rights"),
    Op("board.halfmove_clock", "board.halfmove_clock"),
    Op("board.fullmove_number", "board.fullmove_number"),
    Op("board.chess960", "board.chess960"),
    Op("board.legal_moves (the view)", "board.legal_moves"),
    Op("move.from_square", "capture.from_square"),
    Op("move.to_square", "capture.to_square"),
    Op("move.promotion", "promo.promotion"),
    Op("piece.piece_type", "piece.piece_type"),
    Op("piece.color", "piece.color"),
    Op("len(squareset)", "len(squares)"),
    Op("square in squareset", "E4 in squares"),
    Op("list(squareset)", "list(squares)"),
    # Queries.
    Op("piece_at", "board.piece_at(E1)"),
    Op("piece_type_at", "board.piece_type_at(E1)"),
    Op("piece_map()", "board.piece_map()"),
    Op("king(WHITE)", "board.king(WHITE)"),
    Op("attackers(BLACK, E4)", "board.attackers(BLACK, E4)"),
    Op("is_attacked_by(BLACK, E4)", "board.is_attacked_by(BLACK, E4)"),
    Op("is_check()", "board.is_check()"),
    Op("is_checkmate()", "board.is_checkmate()"),
    Op("is_stalemate()", "board.is_stalemate()"),
    Op("is_insufficient_material()", "board.is_insufficient_material()"),
    Op("is_game_over()", "board.is_game_over()"),
    Op("outcome()", "board.outcome()"),
    Op("legal_moves.count()", "board.legal_moves.count()"),
    Op("list(legal_moves)", "list(board.legal_moves)"),
    Op("move in legal_moves", "capture in board.legal_moves"),
    Op("is_legal(move)", "board.is_legal(capture)"),
    Op("gives_check(move)", "board.gives_check(check)"),
    Op("is_capture(move)", "board.is_capture(capture)"),
    Op("is_castling(move)", "board.is_castling(quiet)"),
    Op("can_claim_threefold_repetition()", "board.can_claim_threefold_repetition()"),
    # Playing.
    Op("push(move) + pop()", "board.push(capture); board.pop()"),
    Op("push_san + pop()", "board.push_san('Nxe5'); board.pop()"),
    # Notation.
    Op("san(move)", "board.san(capture)"),
    Op("move.uci()", "capture.uci()"),
    Op("parse_san('Nxe5')", "board.parse_san('Nxe5')"),
    Op("Move.from_uci('f3e5')", "chess.Move.from_uci('f3e5')"),
    Op("fen()", "board.fen()"),
    Op("set_fen(fen)", "scratch.set_fen(fen)"),
    Op("Board(fen)", "chess.Board(fen)"),
    # Copies, equality, hashing.
    Op("copy()", "board.copy()"),
    Op("copy(stack=False)", "board.copy(stack=False)"),
    Op("board == board", "board == other"),
    Op("move == move", "quiet == quiet_again"),
    Op("piece == piece", "piece == piece_again"),
    Op("hash(move)", "hash(quiet)"),
    Op("hash(piece)", "hash(piece)"),
    Op("zobrist hash", "chess.polyglot.zobrist_hash(board)", "board.zobrist_hash()"),
)


@dataclass
class Result:
    """One row's best times, in nanoseconds per call."""

    op: Op
    theirs: float
    ours: float

    @property
    def ratio(self) -> float:
        return self.theirs / self.ours


def measure(op: Op, theirs: Any, ours: Any, rounds: int, target: float) -> Result:
    """Best ns per call of ``op`` in each library, rounds interleaved."""
    timers = []
    for module, stmt in ((theirs, op.stmt), (ours, op.ours or op.stmt)):
        namespace = {"chess": module}
        timers.append(timeit.Timer(stmt, setup=SETUP, globals=namespace))
    # Calibrate on the slower library so that each round of it takes about `target` s.
    number, slower_per_call = loops_per_round(timers, target)
    # The cheapest rows (attribute reads, about 12 ns in both libraries) are the noisiest
    # relative to their size: more rounds let the minimum settle.
    if slower_per_call < 100e-9:
        rounds *= 3
    candidates = [
        Candidate(name, functools.partial(per_call, timer, number))
        for name, timer in zip(("python-chess", "pychess-rs"), timers)
    ]
    # timeit switches the collector off itself; a progress line per row, not per round.
    theirs_best, ours_best = interleaved(candidates, rounds, progress=False, collect=False)
    if theirs_best.seconds is None or ours_best.seconds is None:
        raise RuntimeError(f"{op.name}: {theirs_best.note or ours_best.note}")
    return Result(op, theirs_best.seconds * 1e9, ours_best.seconds * 1e9)


def fmt_ns(ns: float) -> str:
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


def render_results(results: Sequence[Result], markdown: bool) -> str:
    header = ("operation", "python-chess ns", "pychess-rs ns", "ratio")
    name = (lambda n: f"`{n}`") if markdown else (lambda n: n)
    cells = [
        (name(r.op.name), fmt_ns(r.theirs), fmt_ns(r.ours), f"{r.ratio:.2f}x") for r in results
    ]
    return render(header, cells, markdown, right={1, 2, 3})


def check_same_answers(theirs: Any, ours: Any, ops: Sequence[Op] = OPS) -> list[str]:
    """Rows whose statement is an expression and answers differently in the two libraries
    (a benchmark of a wrong answer would be meaningless)."""
    differing = []
    for op in ops:
        if op.name.startswith("hash("):  # hash values are the library's own
            continue
        answers = []
        for module, stmt in ((theirs, op.stmt), (ours, op.ours or op.stmt)):
            namespace: dict[str, Any] = {"chess": module}
            exec(SETUP, namespace)
            try:
                answers.append(eval(stmt, namespace))
            except SyntaxError:  # a statement, not an expression: nothing to compare
                answers = []
                break
        if answers and normalise(answers[0]) != normalise(answers[1]):
            differing.append(f"{op.name}: {answers[0]!r} != {answers[1]!r}")
    return differing


def normalise(value: Any) -> Any:
    """A library-neutral form of an answer (moves and pieces as text, sets as masks, move
    lists in any order)."""
    if isinstance(value, (bool, int, str, type(None))):
        return value
    if isinstance(value, list):
        return sorted(str(normalise(v)) for v in value)
    if isinstance(value, dict):
        return {k: normalise(v) for k, v in value.items()}
    if hasattr(value, "mask"):
        return int(value.mask)
    if hasattr(value, "count") and hasattr(value, "__iter__"):  # a legal-move view
        return sorted(str(normalise(v)) for v in value)
    if hasattr(value, "winner"):
        return (str(value.termination), value.winner)
    if hasattr(value, "fen"):
        return value.fen()
    return str(value)


def table(
    quick: bool = False,
    markdown: bool = False,
    rounds: int | None = None,
    ops: Sequence[Op] = OPS,
) -> str:
    """Times every row of ``ops`` (progress on stderr); returns the table with its header lines.

    :raises: :exc:`ImportError` without python-chess, :exc:`RuntimeError` if a row answers
        differently in the two libraries.
    """
    import chess
    import chess.polyglot  # the zobrist row uses it

    import pychess_rs

    differing = check_same_answers(chess, pychess_rs, ops)
    if differing:
        raise RuntimeError("answers differ, not timed:\n  " + "\n  ".join(differing))
    rounds = rounds or (3 if quick else 7)
    target = 0.01 if quick else 0.03
    results = []
    for i, op in enumerate(ops, 1):
        result = measure(op, chess, pychess_rs, rounds, target)
        results.append(result)
        log(
            f"[micro {i}/{len(ops)}] {op.name}: python-chess {fmt_ns(result.theirs)} ns, "
            f"pychess-rs {fmt_ns(result.ours)} ns, {result.ratio:.2f}x"
        )
    slower = [r.op.name for r in results if r.ratio < 1.0]
    return "\n".join(
        [
            f"Python {platform.python_version()}, python-chess {chess.__version__}, "
            f"pychess-rs {pychess_rs.__version__}; best of {rounds} interleaved rounds "
            "(rows under 100 ns: three times as many).",
            "",
            render_results(results, markdown),
            "",
            f"rows slower than python-chess: {', '.join(slower) if slower else 'none'}",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``tools/bench_micro.py``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter rounds (noisier)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds per row (default 7)")
    parser.add_argument("--markdown", action="store_true", help="print the table as markdown")
    args = parser.parse_args(argv)
    try:
        text = table(args.quick, args.markdown, args.rounds)
    except ImportError:
        print("bench_micro.py needs python-chess: pip install chess==1.11.2", file=sys.stderr)
        return 2
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 1
    print()
    print(text)
    return 0
