"""The per-position comparison: every question asked of both boards, every answer compared.

At every position the legal move set (UCI), the SAN, LAN, ``gives_check``, ``is_capture``,
``is_castling``, ``is_en_passant`` and FEN/EPD-after of *every* legal move (no sampling), and
``parse_san`` of python-chess's SAN are compared, as are FEN, EPD, the Polyglot Zobrist hash,
``is_check/is_checkmate/is_stalemate/is_insufficient_material/has_insufficient_material(colour)/
is_seventyfive_moves/is_fivefold_repetition/can_claim_threefold_repetition/can_claim_fifty_moves``
and ``outcome(claim_draw=False/True)``.

This module knows no chess rule of its own: python-chess answers, pychess_rs answers, and any
difference becomes a :class:`Diff`. A call into pychess_rs that raises (even a Rust panic)
becomes a :class:`Raised` answer, which never equals the oracle's.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import chess
import chess.polyglot

#: The corner squares: a rook captured there takes a castling right with it.
CORNERS = (chess.A1, chess.H1, chess.A8, chess.H8)


def polyglot_hash(board: chess.Board) -> int:
    return chess.polyglot.zobrist_hash(board)


def _outcome_key(outcome: Any) -> Any:
    """``(termination name, winner)`` or None, for python-chess and pychess_rs outcomes."""
    if outcome is None or isinstance(outcome, Raised):
        return outcome
    termination = getattr(outcome, "termination", outcome)
    name = getattr(termination, "name", str(termination))
    return (name, getattr(outcome, "winner", "<no winner attribute>"))


class Raised:
    """What pychess_rs raised instead of answering; never equal to an oracle answer."""

    __slots__ = ("exc",)

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<raised {type(self.exc).__name__}: {self.exc}>"


def ask(fn: Callable[..., Any], *args: Any) -> Any:
    """Call into pychess_rs; an exception (even a Rust panic) becomes a ``Raised`` answer."""
    try:
        return fn(*args)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # pyo3's PanicException derives from BaseException
        return Raised(exc)


def ask_method(obj: Any, name: str, *args: Any) -> Any:
    """``obj.name(*args)`` through :func:`ask`."""
    return ask(lambda: getattr(obj, name)(*args))


def show(value: Any) -> str:
    """An answer as reports print and save it."""
    return repr(value)


@dataclasses.dataclass
class Diff:
    """One disagreement at one position (``move`` set for per-move properties)."""

    prop: str
    ours: Any
    oracle: Any
    move: str | None = None
    note: str = ""


@dataclasses.dataclass
class PositionResult:
    diffs: list[Diff]
    #: UCI -> (python-chess move, pychess_rs move), for moves legal on both sides, oracle order.
    pairs: dict[str, tuple[chess.Move, Any]]
    #: The oracle's legal moves, in python-chess's generation order.
    oracle_moves: list[chess.Move]
    #: python-chess's ``outcome()`` (automatic endings only).
    outcome: chess.Outcome | None
    #: The two boards disagree on the position itself: stop playing this game.
    diverged: bool
    #: Rare rules python-chess saw here (coverage: "is_checkmate", "underpromotion", ...).
    events: set[str]


_BOOL_PROPERTIES = (
    "is_check",
    "is_checkmate",
    "is_stalemate",
    "is_insufficient_material",
    "is_seventyfive_moves",
    "is_fivefold_repetition",
    "can_claim_threefold_repetition",
    "can_claim_fifty_moves",
)

#: Properties whose mismatch means the two boards no longer hold the same position.
_STATE_PROPERTIES = ("fen", "legal_moves")


def _epd_of(fen: str) -> str:
    """python-chess's ``epd()`` is ``fen()`` without its two counters (``fen()`` is built so)."""
    return fen.rsplit(" ", 2)[0]


def check_position(pb: chess.Board, rb: Any) -> PositionResult:
    """Compare pychess_rs board *rb* with python-chess board *pb* (same position and history)."""
    diffs: list[Diff] = []
    events: set[str] = set()

    def compare(prop: str, ours: Any, oracle: Any, move: str | None = None) -> None:
        if ours != oracle:
            diffs.append(Diff(prop, ours, oracle, move))

    # Position-level properties.
    p_fen = pb.fen()
    compare("fen", ask_method(rb, "fen"), p_fen)
    compare("epd", ask_method(rb, "epd"), _epd_of(p_fen))
    compare("zobrist_hash", ask_method(rb, "zobrist_hash"), polyglot_hash(pb))
    # Counted before anything here lists the moves (claiming threefold does), so that the
    # count is computed, not read off the listed moves.
    compare("legal_moves.count()", ask(lambda: rb.legal_moves.count()), pb.legal_moves.count())
    for name in _BOOL_PROPERTIES:
        oracle = getattr(pb, name)()
        compare(name, ask_method(rb, name), oracle)
        if oracle:
            events.add(name)
    for color in chess.COLORS:
        compare(
            f"has_insufficient_material({chess.COLOR_NAMES[color]})",
            ask_method(rb, "has_insufficient_material", color),
            pb.has_insufficient_material(color),
        )
    p_outcome = pb.outcome()
    p_claimed = pb.outcome(claim_draw=True)
    compare("outcome", _outcome_key(ask(lambda: rb.outcome())), _outcome_key(p_outcome))
    compare(
        "outcome(claim_draw=True)",
        _outcome_key(ask(lambda: rb.outcome(claim_draw=True))),
        _outcome_key(p_claimed),
    )
    if p_claimed is not None:
        events.add(f"outcome {p_claimed.termination.name}")

    # The legal move set.
    oracle_moves = list(pb.legal_moves)
    oracle_ucis = [move.uci() for move in oracle_moves]
    ours_moves = ask(lambda: list(rb.legal_moves))
    by_uci: dict[str, Any] = {}
    if isinstance(ours_moves, Raised):
        diffs.append(Diff("legal_moves", ours_moves, sorted(oracle_ucis)))
    else:
        ours_ucis = [ask_method(move, "uci") for move in ours_moves]
        raised = [uci for uci in ours_ucis if isinstance(uci, Raised)]
        if raised:
            diffs.append(Diff("legal_moves", raised[0], sorted(oracle_ucis), note="Move.uci()"))
        by_uci = {uci: move for uci, move in zip(ours_ucis, ours_moves) if isinstance(uci, str)}
        missing = sorted(set(oracle_ucis) - set(by_uci))
        extra = sorted(set(by_uci) - set(oracle_ucis))
        duplicates = len(ours_ucis) - len(by_uci) - len(raised)
        if missing or extra or duplicates:
            note = f"missing {missing}, extra {extra}"
            if duplicates:
                note += f", {duplicates} duplicate(s)"
            diffs.append(Diff("legal_moves", sorted(by_uci), sorted(oracle_ucis), note=note))

    # Every legal move (no sampling).
    pairs: dict[str, tuple[chess.Move, Any]] = {}
    for pm, uci in zip(oracle_moves, oracle_ucis):
        rm = by_uci.get(uci)
        if rm is None:
            continue
        pairs[uci] = (pm, rm)
        p_san = pb.san(pm)
        p_capture = pb.is_capture(pm)
        p_castling = pb.is_castling(pm)
        p_en_passant = pb.is_en_passant(pm)
        compare("san", ask_method(rb, "san", rm), p_san, uci)
        compare("lan", ask_method(rb, "lan", rm), pb.lan(pm), uci)
        compare("is_capture", ask_method(rb, "is_capture", rm), p_capture, uci)
        compare("is_castling", ask_method(rb, "is_castling", rm), p_castling, uci)
        compare("is_en_passant", ask_method(rb, "is_en_passant", rm), p_en_passant, uci)
        parsed = ask_method(rb, "parse_san", p_san)
        parsed_uci = parsed if isinstance(parsed, Raised) else ask_method(parsed, "uci")
        if parsed_uci != uci:
            diffs.append(Diff("parse_san", parsed_uci, uci, uci, note=f"parse_san({p_san!r})"))
        r_gives_check = ask_method(rb, "gives_check", rm)
        if p_en_passant:
            events.add("en passant move")
        if p_castling:
            events.add("castling move")
        if pm.promotion:
            events.add("promotion" if pm.promotion == chess.QUEEN else "underpromotion")
        if p_capture and pm.to_square in CORNERS and pb.piece_type_at(pm.to_square) == chess.ROOK:
            events.add("rook capture on a corner")

        # python-chess's gives_check() is push + is_check() + pop.
        pb.push(pm)
        p_after = pb.fen()
        p_check = pb.is_check()
        pb.pop()
        compare("gives_check", r_gives_check, p_check, uci)
        pushed = ask_method(rb, "push", rm)
        if isinstance(pushed, Raised):
            diffs.append(Diff("push", pushed, None, uci))
            if ask_method(rb, "fen") != p_fen:  # a failed push must leave the board unchanged
                diffs.append(Diff("fen after a failed push", ask_method(rb, "fen"), p_fen, uci))
                return PositionResult(diffs, {}, oracle_moves, p_outcome, True, events)
            continue
        compare("fen after move", ask_method(rb, "fen"), p_after, uci)
        compare("epd after move", ask_method(rb, "epd"), _epd_of(p_after), uci)
        popped = ask_method(rb, "pop")
        if isinstance(popped, Raised):
            diffs.append(Diff("pop", popped, uci, uci))
            return PositionResult(diffs, {}, oracle_moves, p_outcome, True, events)

    compare("fen after push/pop of every move", ask_method(rb, "fen"), p_fen)
    diverged = any(
        diff.prop in _STATE_PROPERTIES or diff.prop.startswith("fen after push") for diff in diffs
    )
    return PositionResult(diffs, pairs, oracle_moves, p_outcome, diverged, events)
