"""The per-position comparison: every question asked of both boards, every answer compared.

At every position the legal move set (UCI), the SAN, LAN, ``gives_check``, ``is_capture``,
``is_castling``, ``is_en_passant`` and FEN/EPD-after of *every* legal move (no sampling), and
``parse_san`` of python-chess's SAN are compared, as are FEN, EPD, the Polyglot Zobrist hash,
``is_check/is_checkmate/is_stalemate/is_insufficient_material/has_insufficient_material(colour)/
is_seventyfive_moves/is_fivefold_repetition/can_claim_threefold_repetition/can_claim_fifty_moves``
and ``outcome(claim_draw=False/True)``. Positions of any kind are compared (no king, several
kings, pawns on a back rank, the side not to move in check, unclean castling rights, odd
en-passant squares), so ``status()``, ``is_valid()``, the kings, the checkers, the raw and the
clean castling rights, ``has_(kingside_|queenside_|chess960_)castling_rights``,
``was_into_check()`` and the pseudo-legal move set are compared too; every pseudo-legal move
that is not legal, and the null move, is pushed on both boards (FEN, status and
``was_into_check()`` after it) and popped again.

This module knows no chess rule of its own: python-chess answers, pychess_rs answers, and any
difference becomes a :class:`Diff`. A call into pychess_rs that raises (even a Rust panic)
becomes a :class:`Raised` answer, which never equals the oracle's; where python-chess itself
raises (an :class:`OracleRaised` answer), pychess_rs must raise too.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable

from .contract import ROOKLESS_CASTLING, rookless_castling_moves

if TYPE_CHECKING:  # python-chess loads when the fuzzer runs: see the package docstring
    import chess
    import chess.polyglot

#: The corner squares: a rook captured there takes a castling right with it.
CORNERS = (0, 7, 56, 63)  # a1, h1, a8, h8 in python-chess's numbering (a1 = 0, h8 = 63)


def polyglot_hash(board: chess.Board) -> int:
    import chess.polyglot

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


class OracleRaised:
    """What python-chess raised instead of answering: pychess_rs must raise as well."""

    __slots__ = ("exc",)

    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    def __repr__(self) -> str:
        return f"<python-chess raised {type(self.exc).__name__}: {self.exc}>"


def oracle(fn: Callable[..., Any], *args: Any) -> Any:
    """Call into python-chess; an exception becomes an ``OracleRaised`` answer."""
    try:
        return fn(*args)
    except Exception as exc:
        return OracleRaised(exc)


def agree(ours: Any, theirs: Any) -> bool:
    """Do the two answers agree (both raising counts as agreeing)?"""
    if isinstance(theirs, OracleRaised):
        return isinstance(ours, Raised)
    return bool(ours == theirs)


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
    #: UCI -> pychess_rs move, for pseudo-legal moves that are not legal (both sides agree).
    pseudo_pairs: dict[str, tuple[chess.Move, Any]] = dataclasses.field(default_factory=dict)


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

_CASTLING_SIDES = (
    "has_castling_rights",
    "has_kingside_castling_rights",
    "has_queenside_castling_rights",
)

#: Properties whose mismatch means the two boards no longer hold the same position.
_STATE_PROPERTIES = ("fen", "legal_moves")


def _epd_of(fen: str) -> str:
    """python-chess's ``epd()`` is ``fen()`` without its two counters (``fen()`` is built so)."""
    return fen.rsplit(" ", 2)[0]


def check_position(pb: chess.Board, rb: Any, odd_pushes: int | None = None) -> PositionResult:
    """Compare pychess_rs board *rb* with python-chess board *pb* (same position and history).

    *odd_pushes* caps how many pseudo-legal moves that are not legal are pushed and popped
    (spread over the list; None: all of them). The null move is always pushed."""
    import chess

    diffs: list[Diff] = []
    events: set[str] = set()

    def compare(prop: str, ours: Any, theirs: Any, move: str | None = None) -> None:
        if not agree(ours, theirs):
            diffs.append(Diff(prop, ours, theirs, move))

    # Position-level properties.
    p_fen = pb.fen()
    p_status = int(pb.status())
    compare("status", ask(lambda: int(rb.status())), p_status)
    compare("is_valid", ask_method(rb, "is_valid"), pb.is_valid())
    if p_status:
        events.add("invalid position")
    for color in chess.COLORS:
        compare(f"king({chess.COLOR_NAMES[color]})", ask_method(rb, "king", color), pb.king(color))
    compare("checkers_mask", ask_method(rb, "checkers_mask"), pb.checkers_mask())
    compare("castling_rights", ask(lambda: rb.castling_rights), pb.castling_rights)
    compare(
        "clean_castling_rights", ask_method(rb, "clean_castling_rights"), pb.clean_castling_rights()
    )
    for color in chess.COLORS:
        for name in _CASTLING_SIDES:
            compare(
                f"{name}({chess.COLOR_NAMES[color]})",
                ask_method(rb, name, color),
                getattr(pb, name)(color),
            )
    compare(
        "has_chess960_castling_rights",
        ask_method(rb, "has_chess960_castling_rights"),
        pb.has_chess960_castling_rights(),
    )
    compare("was_into_check", ask_method(rb, "was_into_check"), pb.was_into_check())
    compare("fen", ask_method(rb, "fen"), p_fen)
    compare("epd", ask_method(rb, "epd"), _epd_of(p_fen))
    compare("zobrist_hash", ask_method(rb, "zobrist_hash"), polyglot_hash(pb))
    # Counted before anything here lists the moves (claiming threefold does), so that the
    # count is computed, not read off the listed moves.
    compare("legal_moves.count()", ask(lambda: rb.legal_moves.count()), pb.legal_moves.count())
    for name in _BOOL_PROPERTIES:
        theirs = oracle(getattr(pb, name))
        compare(name, ask_method(rb, name), theirs)
        if theirs is True:
            events.add(name)
    for color in chess.COLORS:
        compare(
            f"has_insufficient_material({chess.COLOR_NAMES[color]})",
            ask_method(rb, "has_insufficient_material", color),
            oracle(pb.has_insufficient_material, color),
        )
    p_outcome = oracle(pb.outcome)
    p_claimed = oracle(lambda: pb.outcome(claim_draw=True))
    compare("outcome", _outcome_key(ask(lambda: rb.outcome())), _outcome_key(p_outcome))
    compare(
        "outcome(claim_draw=True)",
        _outcome_key(ask(lambda: rb.outcome(claim_draw=True))),
        _outcome_key(p_claimed),
    )
    if isinstance(p_claimed, chess.Outcome):
        events.add(f"outcome {p_claimed.termination.name}")
    if isinstance(p_outcome, OracleRaised):
        p_outcome = None

    # The legal and the pseudo-legal move sets (python-chess's, as the contract corrects them).
    if rookless_castling_moves(pb):
        events.add(ROOKLESS_CASTLING)
    oracle_moves = list(pb.legal_moves)
    oracle_ucis = [move.uci() for move in oracle_moves]
    by_uci = _compare_move_set("legal_moves", lambda: list(rb.legal_moves), oracle_ucis, diffs)
    oracle_pseudo = list(pb.pseudo_legal_moves)
    pseudo_by_uci = _compare_move_set(
        "pseudo_legal_moves",
        lambda: list(rb.pseudo_legal_moves),
        [move.uci() for move in oracle_pseudo],
        diffs,
    )

    # Every legal move (no sampling).
    pairs: dict[str, tuple[chess.Move, Any]] = {}
    for pm, uci in zip(oracle_moves, oracle_ucis):
        rm = by_uci.get(uci)
        if rm is None:
            continue
        pairs[uci] = (pm, rm)
        p_san = oracle(pb.san, pm)
        p_capture = pb.is_capture(pm)
        p_castling = pb.is_castling(pm)
        p_en_passant = pb.is_en_passant(pm)
        compare("san", ask_method(rb, "san", rm), p_san, uci)
        compare("lan", ask_method(rb, "lan", rm), oracle(pb.lan, pm), uci)
        compare("is_capture", ask_method(rb, "is_capture", rm), p_capture, uci)
        compare("is_castling", ask_method(rb, "is_castling", rm), p_castling, uci)
        compare("is_en_passant", ask_method(rb, "is_en_passant", rm), p_en_passant, uci)
        parsed = ask_method(rb, "parse_san", p_san)
        parsed_uci = parsed if isinstance(parsed, Raised) else ask_method(parsed, "uci")
        if isinstance(p_san, str) and parsed_uci != uci:
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

    # Pseudo-legal moves that are not legal, and the null move: python-chess pushes them too.
    legal = set(oracle_ucis)
    pseudo_pairs: dict[str, tuple[chess.Move, Any]] = {}
    extra_pushes = [move for move in oracle_pseudo if move.uci() not in legal]
    if odd_pushes is not None and len(extra_pushes) > odd_pushes:
        step = len(extra_pushes) / max(odd_pushes, 1)
        extra_pushes = [extra_pushes[int(i * step)] for i in range(odd_pushes)]
    extra_pushes.append(chess.Move.null())
    for pm in extra_pushes:
        uci = pm.uci()
        rm = pseudo_by_uci.get(uci) if pm else ask_method(rb, "parse_uci", "0000")
        if rm is None or isinstance(rm, Raised):
            continue
        if pm:
            pseudo_pairs[uci] = (pm, rm)
            events.add("pseudo-legal push")
        pb.push(pm)
        p_state = (pb.fen(), int(pb.status()), pb.was_into_check(), pb.is_check())
        pb.pop()
        pushed = ask_method(rb, "push", rm)
        if isinstance(pushed, Raised):
            diffs.append(Diff("push (not legal)", pushed, None, uci))
            continue
        ours_after = (
            ask_method(rb, "fen"),
            ask(lambda: int(rb.status())),
            ask_method(rb, "was_into_check"),
            ask_method(rb, "is_check"),
        )
        compare("fen, status, was_into_check, is_check after push", ours_after, p_state, uci)
        popped = ask_method(rb, "pop")
        if isinstance(popped, Raised):
            diffs.append(Diff("pop", popped, uci, uci))
            return PositionResult(diffs, {}, oracle_moves, p_outcome, True, events)

    compare("fen after push/pop of every move", ask_method(rb, "fen"), p_fen)
    diverged = any(
        diff.prop in _STATE_PROPERTIES or diff.prop.startswith("fen after push") for diff in diffs
    )
    return PositionResult(diffs, pairs, oracle_moves, p_outcome, diverged, events, pseudo_pairs)


def _compare_move_set(
    prop: str, ours_fn: Callable[[], list[Any]], oracle_ucis: list[str], diffs: list[Diff]
) -> dict[str, Any]:
    """Compare a generated move set by UCI; our moves by UCI (those that have one)."""
    ours_moves = ask(ours_fn)
    if isinstance(ours_moves, Raised):
        diffs.append(Diff(prop, ours_moves, sorted(oracle_ucis)))
        return {}
    ours_ucis = [ask_method(move, "uci") for move in ours_moves]
    raised = [uci for uci in ours_ucis if isinstance(uci, Raised)]
    if raised:
        diffs.append(Diff(prop, raised[0], sorted(oracle_ucis), note="Move.uci()"))
    by_uci = {uci: move for uci, move in zip(ours_ucis, ours_moves) if isinstance(uci, str)}
    missing = sorted(set(oracle_ucis) - set(by_uci))
    extra = sorted(set(by_uci) - set(oracle_ucis))
    duplicates = len(ours_ucis) - len(by_uci) - len(raised)
    if missing or extra or duplicates:
        note = f"missing {missing}, extra {extra}"
        if duplicates:
            note += f", {duplicates} duplicate(s)"
        diffs.append(Diff(prop, sorted(by_uci), sorted(oracle_ucis), note=note))
    return by_uci
