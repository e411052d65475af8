#!/usr/bin/env python3
"""Differential fuzzer: pychess_rs against python-chess, position by position.

python-chess (``chess`` 1.11.2) is the oracle. This script knows no chess rule of its own: it
asks python-chess which moves are legal, what their SAN is, whether the game is over, and so on,
asks pychess_rs the same questions, and reports every disagreement.

Sources of positions (each has its own counters in the summary):

``startpos``   random games from the standard starting position;
``chess960``   random games from Chess960 starting positions (``Board.from_chess960_pos(n)``);
``rare``       games biased towards the rare rules: long shuffles (50/75-move rule, three- and
               fivefold repetition), promotions and underpromotions, en passant (with pins),
               castling rights lost when a rook is captured on its corner;
``placement``  random piece placements with random castling/en-passant fields and clocks:
               the FEN acceptance contract, then a short random game from accepted positions;
``mutated``    near-miss mutations of valid FENs: the FEN acceptance contract (a position both
               sides accept is checked too);
``epd``        every position of ``tests/data/*.epd`` (``perft960.epd`` in Chess960 mode), then a
               few random plies from it.

At every position the legal move set (UCI), the SAN, LAN, ``gives_check``, ``is_capture``,
``is_castling``, ``is_en_passant`` and FEN/EPD-after of *every* legal move (no sampling), and
``parse_san`` of python-chess's SAN are compared, as are FEN, EPD, the Polyglot Zobrist hash,
``is_check/is_checkmate/is_stalemate/is_insufficient_material/has_insufficient_material(colour)/
is_seventyfive_moves/is_fivefold_repetition/can_claim_threefold_repetition/can_claim_fifty_moves``
and ``outcome(claim_draw=False/True)``.

FEN acceptance contract: ``pychess_rs.Board(fen)`` accepts a FEN exactly when ``chess.Board(fen)``
parses it and ``status()`` has no flag other than too many pieces/pawns, impossible check and too
many checkers; a rejection raises ``pychess_rs.InvalidFenError`` (a ``ValueError``) with a
message. Two exceptions (see ``tolerated_rejection`` and ``outside_contract``): pychess_rs may
reject a move counter that does not fit in 31 bits, which python-chess (Python ints) accepts; and
a FEN with a king marked promoted (``K~``, a crazyhouse marker python-chess also reads in standard
chess, after which it no longer sees that king as a king: never in check, no castling) is outside
the contract: pychess_rs may accept or reject it, and such positions are not compared.

Every mismatch is printed as a reproducer (start FEN, Chess960 flag, UCI moves, property, both
answers), shortened when a later start position reproduces it too, and saved as JSON under
``--out``; the run goes on and exits with status 1 at the end. ``--replay FILE`` re-checks saved
reproducers. Runs are deterministic for a given ``--seed`` (each game has its own
``random.Random``), apart from where ``--minutes`` cuts them.

Examples::

    tools/fuzz_diff.py --seed 1 --positions 20000
    tools/fuzz_diff.py --seed 7 --minutes 30 --chess960
    tools/fuzz_diff.py --sources rare,placement --games 200
    tools/fuzz_diff.py --replay fuzz-failures/rare-san-s1-000001.json

Exit status: 0 no mismatch, 1 mismatches found, 2 usage error or pychess_rs not importable.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import importlib
import json
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from random import Random
from typing import IO, Any, Callable

import chess
import chess.polyglot

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = REPO_ROOT / "tests" / "data"

SOURCES = ("startpos", "chess960", "rare", "placement", "mutated", "epd")

#: ``status()`` flags that do not make pychess_rs reject a FEN (positions no game reaches but the
#: rules still define; perft suites use them).
ALLOWED_STATUS = (
    chess.STATUS_TOO_MANY_WHITE_PIECES
    | chess.STATUS_TOO_MANY_BLACK_PIECES
    | chess.STATUS_TOO_MANY_WHITE_PAWNS
    | chess.STATUS_TOO_MANY_BLACK_PAWNS
    | chess.STATUS_IMPOSSIBLE_CHECK
    | chess.STATUS_TOO_MANY_CHECKERS
)

#: Move counters above this may be rejected by pychess_rs although python-chess accepts them.
COUNTER_LIMIT = 2**31 - 1

#: Mismatch kind of the FEN acceptance contract (its own row in the summary).
ACCEPTANCE = "fen_acceptance"
#: A rejection that is not a ValueError subclass named InvalidFenError, or has no message.
ACCEPTANCE_ERROR = "fen_error_type"

# Per source, how many items ``--games N`` allows: games, placements, mutated FENs.
ITEMS_PER_GAME = {"startpos": 1, "chess960": 1, "rare": 1, "placement": 10, "mutated": 50}

MAX_PLIES = {"startpos": 300, "chess960": 300}
RARE_PLANS = ("repeat", "shuffle", "en_passant", "promote", "rook_hunt")
CORNERS = (chess.A1, chess.H1, chess.A8, chess.H8)


# --------------------------------------------------------------------------------------------
# Oracle-side helpers: acceptance contract and value normalisation
# --------------------------------------------------------------------------------------------


def status_names(flags: int) -> list[str]:
    """Names of the ``chess.STATUS_*`` flags set in *flags*, e.g. ``["BAD_CASTLING_RIGHTS"]``."""
    return [flag.name or "" for flag in chess.Status if flag and flags & flag]


def oracle_board(fen: str, chess960: bool) -> tuple[chess.Board | None, str]:
    """python-chess's verdict under the acceptance contract: ``(board, "")`` or ``(None, why)``."""
    try:
        board = chess.Board(fen, chess960=chess960)
    except ValueError as exc:
        return None, f"parse error: {exc}"
    except Exception as exc:  # python-chess should only raise ValueError; keep the fuzzer alive
        return None, f"parse error ({type(exc).__name__}): {exc}"
    bad = board.status() & ~ALLOWED_STATUS
    if bad:
        return None, "status " + "|".join(status_names(bad))
    return board, ""


def _counter_values(fen: str) -> list[int]:
    """The move counters of a FEN as python-chess reads them (``int()`` of fields 5 and 6)."""
    values = []
    for part in fen.split()[4:6]:
        try:
            values.append(int(part))
        except ValueError:
            pass
    return values


def tolerated_rejection(fen: str) -> str | None:
    """Why pychess_rs may reject *fen* although python-chess accepts it, or None.

    The only tolerance: a move counter above ``COUNTER_LIMIT`` (python-chess stores Python ints).
    """
    if any(abs(value) > COUNTER_LIMIT for value in _counter_values(fen)):
        return f"move counter above {COUNTER_LIMIT}"
    return None


def outside_contract(fen: str) -> str | None:
    """Why *fen* is outside the acceptance contract (either answer is fine), or None."""
    board_part = fen.split()[0] if fen.split() else ""
    if "K~" in board_part or "k~" in board_part or "\u212a~" in board_part:
        return "a king marked promoted ('K~'): python-chess stops treating it as a king"
    return None


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


def _ours(fn: Callable[..., Any], *args: Any) -> Any:
    """Call into pychess_rs; an exception (even a Rust panic) becomes a ``Raised`` answer."""
    try:
        return fn(*args)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # pyo3's PanicException derives from BaseException
        return Raised(exc)


def _ours_method(obj: Any, name: str, *args: Any) -> Any:
    return _ours(lambda: getattr(obj, name)(*args))


def _show(value: Any) -> str:
    return repr(value)


# --------------------------------------------------------------------------------------------
# The per-position comparison
# --------------------------------------------------------------------------------------------


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
    compare("fen", _ours_method(rb, "fen"), p_fen)
    compare("epd", _ours_method(rb, "epd"), _epd_of(p_fen))
    compare("zobrist_hash", _ours_method(rb, "zobrist_hash"), polyglot_hash(pb))
    # Counted before anything here lists the moves (claiming threefold does), so that the
    # count is computed, not read off the listed moves.
    compare("legal_moves.count()", _ours(lambda: rb.legal_moves.count()), pb.legal_moves.count())
    for name in _BOOL_PROPERTIES:
        oracle = getattr(pb, name)()
        compare(name, _ours_method(rb, name), oracle)
        if oracle:
            events.add(name)
    for color in chess.COLORS:
        compare(
            f"has_insufficient_material({chess.COLOR_NAMES[color]})",
            _ours_method(rb, "has_insufficient_material", color),
            pb.has_insufficient_material(color),
        )
    p_outcome = pb.outcome()
    p_claimed = pb.outcome(claim_draw=True)
    compare("outcome", _outcome_key(_ours(lambda: rb.outcome())), _outcome_key(p_outcome))
    compare(
        "outcome(claim_draw=True)",
        _outcome_key(_ours(lambda: rb.outcome(claim_draw=True))),
        _outcome_key(p_claimed),
    )
    if p_claimed is not None:
        events.add(f"outcome {p_claimed.termination.name}")

    # The legal move set.
    oracle_moves = list(pb.legal_moves)
    oracle_ucis = [move.uci() for move in oracle_moves]
    ours_moves = _ours(lambda: list(rb.legal_moves))
    by_uci: dict[str, Any] = {}
    if isinstance(ours_moves, Raised):
        diffs.append(Diff("legal_moves", ours_moves, sorted(oracle_ucis)))
    else:
        ours_ucis = [_ours_method(move, "uci") for move in ours_moves]
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
        compare("san", _ours_method(rb, "san", rm), p_san, uci)
        compare("lan", _ours_method(rb, "lan", rm), pb.lan(pm), uci)
        compare("is_capture", _ours_method(rb, "is_capture", rm), p_capture, uci)
        compare("is_castling", _ours_method(rb, "is_castling", rm), p_castling, uci)
        compare("is_en_passant", _ours_method(rb, "is_en_passant", rm), p_en_passant, uci)
        parsed = _ours_method(rb, "parse_san", p_san)
        parsed_uci = parsed if isinstance(parsed, Raised) else _ours_method(parsed, "uci")
        if parsed_uci != uci:
            diffs.append(Diff("parse_san", parsed_uci, uci, uci, note=f"parse_san({p_san!r})"))
        r_gives_check = _ours_method(rb, "gives_check", rm)
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
        pushed = _ours_method(rb, "push", rm)
        if isinstance(pushed, Raised):
            diffs.append(Diff("push", pushed, None, uci))
            if _ours_method(rb, "fen") != p_fen:  # a failed push must leave the board unchanged
                diffs.append(Diff("fen after a failed push", _ours_method(rb, "fen"), p_fen, uci))
                return PositionResult(diffs, {}, oracle_moves, p_outcome, True, events)
            continue
        compare("fen after move", _ours_method(rb, "fen"), p_after, uci)
        compare("epd after move", _ours_method(rb, "epd"), _epd_of(p_after), uci)
        popped = _ours_method(rb, "pop")
        if isinstance(popped, Raised):
            diffs.append(Diff("pop", popped, uci, uci))
            return PositionResult(diffs, {}, oracle_moves, p_outcome, True, events)

    compare("fen after push/pop of every move", _ours_method(rb, "fen"), p_fen)
    diverged = any(
        diff.prop in _STATE_PROPERTIES or diff.prop.startswith("fen after push") for diff in diffs
    )
    return PositionResult(diffs, pairs, oracle_moves, p_outcome, diverged, events)


# --------------------------------------------------------------------------------------------
# Position generators (rules come from python-chess; these only pick squares and strings)
# --------------------------------------------------------------------------------------------

_PIECE_WEIGHTS = (
    (chess.PAWN, 8),
    (chess.KNIGHT, 2),
    (chess.BISHOP, 2),
    (chess.ROOK, 2),
    (chess.QUEEN, 1),
)


def _weighted_choice(rng: Random, items: Sequence[Any], weights: Sequence[float]) -> Any:
    return rng.choices(items, weights=weights, k=1)[0]


class _Placement:
    """A piece placement being built; ``fen()`` renders it with the chosen fields."""

    def __init__(self, rng: Random, chess960: bool) -> None:
        self.rng = rng
        self.chess960 = chess960
        self.board = chess.BaseBoard.empty()
        self.free = set(chess.SQUARES)
        self.turn = rng.choice((chess.WHITE, chess.BLACK))
        self.castling = "-"
        self.ep = "-"
        self.backrank_pawns = rng.random() < 0.03

    def put(self, square: int, piece_type: int, color: bool) -> None:
        self.board.set_piece_at(square, chess.Piece(piece_type, color))
        self.free.discard(square)

    def put_random(self, piece_type: int, color: bool, exclude: Iterable[int] = ()) -> None:
        excluded = set(exclude)
        squares = [sq for sq in sorted(self.free) if sq not in excluded]
        if piece_type == chess.PAWN and not self.backrank_pawns:
            squares = [sq for sq in squares if chess.square_rank(sq) not in (0, 7)]
        if squares:
            self.put(self.rng.choice(squares), piece_type, color)

    def put_kings(self, exclude: Iterable[int] = ()) -> None:
        """Put each missing king on a random free square."""
        for color in chess.COLORS:
            if self.board.king(color) is None:
                self.put_random(chess.KING, color, exclude)

    def put_others(self, count: int, exclude: Iterable[int] = ()) -> None:
        types = [piece_type for piece_type, _ in _PIECE_WEIGHTS]
        weights = [weight for _, weight in _PIECE_WEIGHTS]
        for _ in range(count):
            piece_type = _weighted_choice(self.rng, types, weights)
            self.put_random(piece_type, self.rng.choice(chess.COLORS), exclude)

    def clocks(self) -> str:
        rng = self.rng
        halfmove = rng.choice(
            (
                0,
                0,
                0,
                1,
                rng.randint(0, 100),
                98,
                99,
                100,
                101,
                148,
                149,
                150,
                151,
                rng.randint(0, 400),
            )
        )
        fullmove = rng.choice((1, 1, rng.randint(1, 60), rng.randint(1, 400), 0))
        return f"{halfmove} {fullmove}"

    def fen(self) -> str:
        turn = "w" if self.turn else "b"
        return f"{self.board.board_fen()} {turn} {self.castling} {self.ep} {self.clocks()}"


def _castling_field(rng: Random, letters: Sequence[str]) -> str:
    chosen = "".join(letter for letter in letters if rng.random() < 0.6)
    return chosen or "-"


def _place_castling(p: _Placement) -> None:
    rng = p.rng
    letters: list[str] = []
    for color in chess.COLORS:
        rank = 0 if color == chess.WHITE else 7
        if p.chess960:
            king_file = rng.randint(1, 6)
            rook_files = [rng.randint(0, king_file - 1), rng.randint(king_file + 1, 7)]
        else:
            king_file = 4 if rng.random() < 0.85 else rng.randint(0, 7)
            rook_files = [0, 7]
        if chess.square(king_file, rank) in p.free:
            p.put(chess.square(king_file, rank), chess.KING, color)
        for file in rook_files:
            if rng.random() < 0.75 and chess.square(file, rank) in p.free:
                p.put(chess.square(file, rank), chess.ROOK, color)
        if p.chess960 and rng.random() < 0.6:  # Shredder-style letters naming the rook files
            side = [chess.FILE_NAMES[file] for file in sorted(rook_files, reverse=True)]
        elif rng.random() < 0.1:
            side = ["h", "a"]
        else:
            side = ["k", "q"]
        letters += [letter.upper() if color == chess.WHITE else letter for letter in side]
    p.put_kings()
    p.put_others(p.rng.randint(0, 14))
    p.castling = _castling_field(rng, letters)


def _place_en_passant(p: _Placement) -> None:
    """A pawn that just made a double step, capturers beside it, and sometimes a pin."""
    rng = p.rng
    us, them = p.turn, not p.turn
    forward = 1 if us == chess.WHITE else -1
    pawn_rank = 4 if us == chess.WHITE else 3
    file = rng.randint(0, 7)
    pawn = chess.square(file, pawn_rank)
    ep = chess.square(file, pawn_rank + forward)
    origin = chess.square(file, pawn_rank + 2 * forward)
    p.put(pawn, chess.PAWN, them)
    p.free -= {ep, origin}  # both must stay empty
    for side in (-1, 1):
        if 0 <= file + side <= 7 and rng.random() < 0.7:
            p.put(chess.square(file + side, pawn_rank), chess.PAWN, us)
    if rng.random() < 0.6:  # king and an enemy slider on the capture rank: the horizontal ep pin
        rank_squares = [chess.square(f, pawn_rank) for f in range(8)]
        free_on_rank = [sq for sq in rank_squares if sq in p.free]
        if len(free_on_rank) >= 2:
            king_sq, slider_sq = rng.sample(free_on_rank, 2)
            p.put(king_sq, chess.KING, us)
            p.put(slider_sq, rng.choice((chess.ROOK, chess.QUEEN)), them)
    elif rng.random() < 0.5:  # a diagonal pin or check through the ep square
        p.put_random(rng.choice((chess.BISHOP, chess.QUEEN)), them)
    p.put_kings()
    p.put_others(rng.randint(0, 10))
    p.ep = chess.SQUARE_NAMES[ep] if rng.random() < 0.9 else chess.SQUARE_NAMES[rng.randrange(64)]


def _place_promotion(p: _Placement) -> None:
    rng = p.rng
    p.put_kings()
    for color in chess.COLORS:
        rank = 6 if color == chess.WHITE else 1
        for _ in range(rng.randint(0, 3)):
            squares = [chess.square(f, rank) for f in range(8) if chess.square(f, rank) in p.free]
            if squares:
                p.put(rng.choice(squares), chess.PAWN, color)
        for _ in range(rng.randint(0, 3)):  # something to capture on the promotion rank
            back = 7 if color == chess.WHITE else 0
            squares = [chess.square(f, back) for f in range(8) if chess.square(f, back) in p.free]
            if squares:
                p.put(
                    rng.choice(squares),
                    rng.choice((chess.KNIGHT, chess.ROOK, chess.QUEEN)),
                    not color,
                )
    p.put_others(rng.randint(0, 6))


def _place_minor(p: _Placement) -> None:
    """Kings and a few minor pieces: the insufficient-material table."""
    p.put_kings()
    for _ in range(p.rng.randint(0, 4)):
        p.put_random(
            p.rng.choice((chess.KNIGHT, chess.BISHOP, chess.BISHOP)), p.rng.choice(chess.COLORS)
        )
    if p.rng.random() < 0.3:
        p.put_others(1)


def random_placement_fen(rng: Random, chess960: bool = False) -> str:
    """A random FEN: piece placement, turn, castling, en passant and clocks.

    Many are rejected by python-chess (the acceptance contract is checked on those); the rest
    are legal positions with unusual features (rare castling fields, ep pins, checks, ...).
    """
    p = _Placement(rng, chess960)
    style = rng.choice(
        (
            "sparse",
            "dense",
            "castling",
            "castling",
            "en_passant",
            "en_passant",
            "promotion",
            "minor",
        )
    )
    if style == "sparse":
        p.put_kings()
        p.put_others(rng.randint(0, 6))
    elif style == "dense":
        p.put_kings()
        p.put_others(rng.randint(8, 30))
    elif style == "castling":
        _place_castling(p)
    elif style == "en_passant":
        _place_en_passant(p)
    elif style == "promotion":
        _place_promotion(p)
    else:
        _place_minor(p)
    if style != "castling" and rng.random() < 0.1:
        p.castling = _castling_field(rng, "KQkq")
    if style != "en_passant" and rng.random() < 0.1:
        rank = 5 if p.turn == chess.WHITE else 2
        p.ep = chess.SQUARE_NAMES[chess.square(rng.randint(0, 7), rank)]
    return p.fen()


_MUTATION_CHARS = "pnbrqkPNBRQK12345678/ -wbKQkqABCDEFGHabcdefgh09~"
_ODD_CHARS = ("\x00", "\t", "\n", "\u00a0", "\u3000", "\u212a", "é", "♔", "\uff11", "٣", "\ufeff")
_ODD_COUNTERS = (
    "-1",
    "-0",
    "+5",
    "1_0",
    "00",
    "99",
    "100",
    "150",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "9" * 30,
    "1e3",
    "0x10",
    "٣",
    "1.5",
    "",
)
_ODD_FIELDS = ("w", "b", "W", "B", "x", "-", "KQkq", "HAha", "KQkqK", "e3", "e6", "a1", "e9", "")


def mutate_fen(rng: Random, fen: str) -> str:
    """One to three near-miss edits of *fen*: characters, fields, ranks, counters."""
    for _ in range(rng.randint(1, 3)):
        fields = fen.split(" ")
        op = rng.randrange(12)
        pos = rng.randrange(len(fen) + 1)
        if op == 0 and fen:  # replace a character
            fen = fen[:pos] + rng.choice(_MUTATION_CHARS) + fen[pos + 1 :]
        elif op == 1 and fen:  # delete a character
            fen = fen[:pos] + fen[pos + 1 :]
        elif op == 2:  # insert a character
            fen = fen[:pos] + rng.choice(_MUTATION_CHARS) + fen[pos:]
        elif op == 3:  # insert something unusual
            fen = fen[:pos] + rng.choice(_ODD_CHARS) + fen[pos:]
        elif op == 4:  # replace a whole field
            index = rng.randrange(len(fields))
            fields[index] = rng.choice(_ODD_FIELDS + _ODD_COUNTERS)
            fen = " ".join(fields)
        elif op == 5:  # odd move counters
            while len(fields) < 6:
                fields.append("0")
            fields[rng.choice((4, 5))] = rng.choice(_ODD_COUNTERS)
            fen = " ".join(fields)
        elif op == 6:  # drop or duplicate a field
            index = rng.randrange(len(fields))
            if rng.random() < 0.5:
                del fields[index]
            else:
                fields.insert(index, fields[index])
            fen = " ".join(fields)
        elif op == 7:  # add or remove a rank
            ranks = fields[0].split("/")
            index = rng.randrange(len(ranks))
            if rng.random() < 0.5 and len(ranks) > 1:
                del ranks[index]
            else:
                ranks.insert(index, rng.choice(ranks))
            fields[0] = "/".join(ranks)
            fen = " ".join(fields)
        elif op == 8:  # add a piece (a second king, a pawn on a back rank, ...)
            ranks = fields[0].split("/")
            index = rng.choice((0, 7, rng.randrange(len(ranks))))
            if index < len(ranks):
                ranks[index] = _edit_rank(rng, ranks[index], rng.choice("KkPpQ"))
            fields[0] = "/".join(ranks)
            fen = " ".join(fields)
        elif op == 9:  # castling field
            if len(fields) > 2:
                letters = "KQkqABCDEFGHabcdefgh"
                fields[2] = "".join(rng.sample(letters, rng.randint(1, 4)))
            fen = " ".join(fields)
        elif op == 10:  # en passant field
            if len(fields) > 3:
                fields[3] = chess.SQUARE_NAMES[rng.randrange(64)]
            fen = " ".join(fields)
        else:  # whitespace
            fen = rng.choice((" ", "  ", "\t", "\n")).join(fields)
            if rng.random() < 0.3:
                fen = rng.choice((" ", "\n", "\x00")) + fen
    return fen


def _edit_rank(rng: Random, rank: str, symbol: str) -> str:
    """Put *symbol* on an empty square of a FEN rank when there is one, keeping 8 files."""
    cells: list[str] = []
    for char in rank:
        cells.extend("." * int(char) if char.isdigit() and char != "0" else char)
    empty = [i for i, cell in enumerate(cells) if cell == "."]
    if not empty:
        return rank
    cells[rng.choice(empty)] = symbol
    out, run = "", 0
    for cell in cells:
        if cell == ".":
            run += 1
            continue
        out += (str(run) if run else "") + cell
        run = 0
    return out + (str(run) if run else "")


def load_epd_positions(
    data_dir: Path = DATA_DIR, only_chess960: bool = False
) -> list[tuple[str, bool, str]]:
    """``(fen, chess960, "file:line")`` for every line of ``data_dir/*.epd``."""
    positions = []
    for path in sorted(data_dir.glob("*.epd")):
        chess960 = "960" in path.name
        if only_chess960 and not chess960:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            fen = line.split(";")[0].strip()
            if fen and not fen.startswith("#"):
                positions.append((fen, chess960, f"{path.name}:{number}"))
    return positions


# --------------------------------------------------------------------------------------------
# Move choice for the biased ("rare") games
# --------------------------------------------------------------------------------------------


def _rare_weight(pb: chess.Board, move: chess.Move, plan: str) -> float:
    piece = pb.piece_type_at(move.from_square)
    zeroing = pb.is_zeroing(move)
    if plan == "shuffle":  # no capture, no pawn move: the 50/75-move rules
        return 1 if zeroing else 200
    if plan == "promote":
        if move.promotion:
            return 80  # each promotion piece is its own move: underpromotions 3 times in 4
        if piece == chess.PAWN:
            return 12 if chess.square_rank(move.to_square) in (1, 2, 5, 6) else 6
        return 4 if pb.is_capture(move) else 1
    if plan == "en_passant":
        if pb.is_en_passant(move):
            return 400
        if piece == chess.PAWN:
            to_rank = chess.square_rank(move.to_square)
            if abs(move.to_square - move.from_square) == 16:
                beside = [
                    move.to_square + d
                    for d in (-1, 1)
                    if 0 <= move.to_square + d < 64
                    and chess.square_distance(move.to_square, move.to_square + d) == 1
                ]
                enemy = chess.Piece(chess.PAWN, not pb.turn)
                return 150 if any(pb.piece_at(sq) == enemy for sq in beside) else 10
            if to_rank == (4 if pb.turn == chess.WHITE else 3):
                return 30  # a pawn on its fifth rank, waiting for a double step beside it
            return 2 if pb.is_capture(move) else 6
        if piece in (chess.ROOK, chess.QUEEN, chess.KING) and chess.square_rank(move.to_square) in (
            3,
            4,
        ):
            return 6  # sliders and kings on the capture ranks: ep pins and discovered checks
        return 1
    if plan == "rook_hunt":  # castling rights lost by rook captures (and rook/king moves)
        if move.to_square in CORNERS and pb.piece_type_at(move.to_square) == chess.ROOK:
            return 500
        if pb.is_castling(move):
            return 10
        if piece == chess.ROOK and move.from_square in CORNERS:
            return 8
        if pb.is_capture(move):
            return 5
        if piece in (chess.BISHOP, chess.QUEEN, chess.KNIGHT):
            return 3
        if piece == chess.PAWN and chess.square_file(move.from_square) in (1, 6):
            return 4  # open the long diagonals
        return 1
    return 1


def _choose_rare(
    rng: Random, pb: chess.Board, moves: list[chess.Move], plan: str, history: list[str]
) -> chess.Move:
    if plan == "repeat":  # undo our previous move when we can: three/fivefold repetition
        if len(history) >= 2 and rng.random() < 0.8:
            last = chess.Move.from_uci(history[-2])
            back = chess.Move(last.to_square, last.from_square)
            for move in moves:
                if move == back and not pb.is_zeroing(move):
                    return move
        quiet = [move for move in moves if not pb.is_zeroing(move)]
        return rng.choice(quiet or moves)
    weights = [_rare_weight(pb, move, plan) for move in moves]
    return _weighted_choice(rng, moves, weights)


# --------------------------------------------------------------------------------------------
# Campaign
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Config:
    seed: int = 0
    games: int | None = None
    positions: int | None = None
    minutes: float | None = None
    chess960: bool = False
    out: Path = Path("fuzz-failures")
    quiet: bool = False
    sources: Sequence[str] = SOURCES
    #: Reproducers printed and saved per property (all mismatches are counted).
    max_reports: int = 5
    #: Random plies played from each placement / EPD position.
    placement_plies: int = 12
    epd_plies: int = 3


@dataclasses.dataclass
class SourceStats:
    items: int = 0  # games, placements, FENs or EPD positions started
    positions: int = 0
    moves: int = 0
    fen_checks: int = 0
    tolerated: int = 0
    seconds: float = 0.0
    mismatches: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    #: Positions at which each rare rule was seen (see ``PositionResult.events``).
    coverage: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)

    @property
    def work(self) -> float:
        return self.positions + self.fen_checks / 4


@dataclasses.dataclass
class Context:
    """Where a position came from: enough to replay it."""

    source: str
    start_fen: str
    chess960: bool
    moves: list[str]
    item: int
    label: str = ""


@dataclasses.dataclass
class CampaignResult:
    stats: dict[str, SourceStats]
    reports: list[dict[str, Any]]
    elapsed: float

    @property
    def mismatches(self) -> int:
        return sum(sum(stats.mismatches.values()) for stats in self.stats.values())

    @property
    def positions(self) -> int:
        return sum(stats.positions for stats in self.stats.values())

    @property
    def moves(self) -> int:
        return sum(stats.moves for stats in self.stats.values())


class _Stop(Exception):
    """The campaign reached --positions or --minutes."""


class Campaign:
    def __init__(
        self,
        config: Config,
        rs: Any,
        stream: IO[str] = sys.stdout,
        progress_stream: IO[str] = sys.stderr,
    ) -> None:
        unknown = set(config.sources) - set(SOURCES)
        if unknown:
            raise ValueError(f"unknown source(s): {sorted(unknown)}; known: {list(SOURCES)}")
        self.config = config
        self.rs = rs
        self.stream = stream
        self.sources = [
            s for s in SOURCES if s in config.sources and not (config.chess960 and s == "startpos")
        ]
        self.stats = {source: SourceStats() for source in self.sources}
        self.reports: list[dict[str, Any]] = []
        self.reported: collections.Counter[str] = collections.Counter()
        self.epd_positions = (
            load_epd_positions(only_chess960=config.chess960) if "epd" in self.sources else []
        )
        self._pool: list[tuple[str, bool, str]] | None = None
        self.progress = _Progress(progress_stream, enabled=not config.quiet)
        self.started = 0.0
        self.deadline: float | None = None

    # -- scheduling ---------------------------------------------------------------------------

    def _cap(self, source: str) -> int | None:
        if source == "epd":
            return len(self.epd_positions)
        if self.config.games is None:
            return None
        return self.config.games * ITEMS_PER_GAME[source]

    def _active(self) -> list[str]:
        active = []
        for source in self.sources:
            cap = self._cap(source)
            if cap is None or self.stats[source].items < cap:
                active.append(source)
        return active

    def _limit_reached(self, now: float) -> bool:
        total = sum(stats.positions for stats in self.stats.values())
        if self.config.positions is not None and total >= self.config.positions:
            return True
        return self.deadline is not None and now >= self.deadline

    def _tick(self) -> None:
        """Called before each position: enforce --positions / --minutes, draw the progress bar."""
        now = time.monotonic()
        if self._limit_reached(now):
            raise _Stop
        self.progress.update(now, self)

    def fraction_done(self, now: float) -> float | None:
        fractions = []
        if self.config.positions:
            total = sum(stats.positions for stats in self.stats.values())
            fractions.append(total / self.config.positions)
        if self.deadline is not None and self.config.minutes:
            fractions.append((now - self.started) / (self.config.minutes * 60))
        caps = {source: self._cap(source) for source in self.sources}
        if all(cap is not None for cap in caps.values()):
            done = sum(min(self.stats[s].items, caps[s] or 0) for s in self.sources)
            fractions.append(done / max(1, sum(cap or 0 for cap in caps.values())))
        return min(1.0, max(fractions)) if fractions else None

    def run(self) -> CampaignResult:
        self.started = time.monotonic()
        if self.config.minutes is not None:
            self.deadline = self.started + self.config.minutes * 60
        runners = {
            "startpos": self._run_startpos,
            "chess960": self._run_chess960,
            "rare": self._run_rare,
            "placement": self._run_placement,
            "mutated": self._run_mutated,
            "epd": self._run_epd,
        }
        try:
            while True:
                active = self._active()
                if not active or self._limit_reached(time.monotonic()):
                    break
                source = min(active, key=lambda s: (self.stats[s].work, self.sources.index(s)))
                stats = self.stats[source]
                index = stats.items
                stats.items += 1
                began = time.monotonic()
                try:
                    runners[source](index)
                finally:
                    stats.seconds += time.monotonic() - began
        except _Stop:
            pass
        elapsed = time.monotonic() - self.started
        self.progress.finish()
        return CampaignResult(self.stats, self.reports, elapsed)

    def _rng(self, source: str, index: int) -> Random:
        return Random(f"{self.config.seed}/{source}/{index}")

    # -- sources ------------------------------------------------------------------------------

    def _run_startpos(self, index: int) -> None:
        rng = self._rng("startpos", index)
        ctx = Context("startpos", chess.STARTING_FEN, False, [], index)
        rb = _ours(lambda: self.rs.Board())
        if isinstance(rb, Raised):
            self._report(ctx, Diff("Board()", rb, chess.STARTING_FEN))
            return
        self._play(ctx, chess.Board(), rb, rng, MAX_PLIES["startpos"], None)

    def _run_chess960(self, index: int) -> None:
        rng = self._rng("chess960", index)
        scharnagl = rng.randrange(960)
        pb = chess.Board.from_chess960_pos(scharnagl)
        ctx = Context("chess960", pb.fen(), True, [], index, f"Chess960 position {scharnagl}")
        rb = self._construct(ctx)
        if rb is not None:
            self._play(ctx, pb, rb, rng, MAX_PLIES["chess960"], None)

    def _run_rare(self, index: int) -> None:
        rng = self._rng("rare", index)
        plan = RARE_PLANS[index % len(RARE_PLANS)]
        if self.config.chess960 or rng.random() < 0.2:
            scharnagl = rng.randrange(960)
            pb = chess.Board.from_chess960_pos(scharnagl)
            ctx = Context("rare", pb.fen(), True, [], index, f"{plan}, Chess960 #{scharnagl}")
        else:
            pb = chess.Board()
            ctx = Context("rare", pb.fen(), False, [], index, plan)
        rb = self._construct(ctx)
        if rb is None:
            return
        opening = rng.randint(4, 16) if plan in ("shuffle", "repeat") else rng.randint(0, 6)
        max_plies = {"shuffle": 420, "repeat": 140}.get(plan, 200)

        def choose(pb: chess.Board, moves: list[chess.Move]) -> chess.Move:
            if len(ctx.moves) < opening:
                return rng.choice(moves)
            return _choose_rare(rng, pb, moves, plan, ctx.moves)

        self._play(ctx, pb, rb, rng, max_plies, choose, past_end=rng.randint(0, 8))

    def _run_placement(self, index: int) -> None:
        rng = self._rng("placement", index)
        chess960 = self.config.chess960 or rng.random() < 0.25
        fen = random_placement_fen(rng, chess960)
        ctx = Context("placement", fen, chess960, [], index)
        pb, rb = self._acceptance(ctx)
        if pb is not None and rb is not None:
            self._play(ctx, pb, rb, rng, rng.randint(0, self.config.placement_plies), None)

    def _run_mutated(self, index: int) -> None:
        rng = self._rng("mutated", index)
        chess960 = self.config.chess960 or rng.random() < 0.25
        base = rng.random()
        if base < 0.4:
            fen = random_placement_fen(rng, chess960)
        elif base < 0.8:  # a position from a short random game
            board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
            for _ in range(rng.randint(0, 40)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            fen = board.fen()
        else:
            fen, chess960, _ = rng.choice(self._epd_pool())
        ctx = Context("mutated", mutate_fen(rng, fen), chess960, [], index, f"mutated from {fen}")
        pb, rb = self._acceptance(ctx)
        if pb is not None and rb is not None:
            self._play(ctx, pb, rb, rng, 0, None)

    def _epd_pool(self) -> list[tuple[str, bool, str]]:
        if self._pool is None:
            only_chess960 = self.config.chess960
            self._pool = self.epd_positions or load_epd_positions(only_chess960=only_chess960)
        return self._pool

    def _run_epd(self, index: int) -> None:
        fen, chess960, where = self.epd_positions[index]
        rng = self._rng("epd", index)
        ctx = Context("epd", fen, chess960, [], index, where)
        pb, rb = self._acceptance(ctx)
        if pb is not None and rb is not None:
            self._play(ctx, pb, rb, rng, rng.randint(0, self.config.epd_plies), None)

    # -- the building blocks ------------------------------------------------------------------

    def _construct(self, ctx: Context) -> Any:
        """Our board for a start FEN python-chess produced itself (it must be accepted)."""
        rb = _ours(lambda: self.rs.Board(ctx.start_fen, chess960=ctx.chess960))
        if isinstance(rb, Raised):
            self._report(ctx, Diff(ACCEPTANCE, rb, "accepted"))
            return None
        return rb

    def _acceptance(self, ctx: Context) -> tuple[chess.Board | None, Any]:
        """Check the FEN acceptance contract on ``ctx.start_fen``; both boards if accepted."""
        self._tick()
        stats = self.stats[ctx.source]
        stats.fen_checks += 1
        pb, why = oracle_board(ctx.start_fen, ctx.chess960)
        rb = _ours(lambda: self.rs.Board(ctx.start_fen, chess960=ctx.chess960))
        outside = outside_contract(ctx.start_fen)
        if isinstance(rb, Raised):
            error = self._fen_error_problem(rb.exc)
            tolerated = pb is not None and (outside or tolerated_rejection(ctx.start_fen))
            stats.tolerated += bool(tolerated)
            if pb is not None and not tolerated:
                self._report(ctx, Diff(ACCEPTANCE, rb, "accepted"), acceptance=True)
            elif error:
                self._report(
                    ctx,
                    Diff(ACCEPTANCE_ERROR, rb, f"InvalidFenError ({why})", note=error),
                    acceptance=True,
                )
            return None, None
        if outside:
            stats.tolerated += 1
            return None, None
        if pb is None:
            self._report(ctx, Diff(ACCEPTANCE, "accepted", f"rejected: {why}"), acceptance=True)
            return None, None
        return pb, rb

    def _fen_error_problem(self, exc: BaseException) -> str:
        """What is wrong with a FEN rejection: not InvalidFenError, not a ValueError, no message."""
        invalid_fen_error = getattr(self.rs, "InvalidFenError", None)
        if invalid_fen_error is None or not isinstance(exc, invalid_fen_error):
            return f"expected pychess_rs.InvalidFenError, got {type(exc).__name__}"
        if not isinstance(exc, ValueError):
            return "InvalidFenError is not a ValueError subclass"
        if not str(exc).strip():
            return "empty error message"
        return ""

    def _play(
        self,
        ctx: Context,
        pb: chess.Board,
        rb: Any,
        rng: Random,
        max_plies: int,
        choose: Callable[[chess.Board, list[chess.Move]], chess.Move] | None,
        past_end: int = 0,
    ) -> None:
        """Check the position, play a move on both boards, repeat (until mate, stalemate,
        *max_plies*, or *past_end* plies after an automatic draw)."""
        stats = self.stats[ctx.source]
        extra_plies = None
        while True:
            self._tick()
            result = check_position(pb, rb)
            stats.positions += 1
            stats.moves += len(result.oracle_moves)
            stats.coverage.update(result.events)
            for diff in result.diffs:
                self._report(ctx, diff)
            if result.diverged or not result.oracle_moves or len(ctx.moves) >= max_plies:
                return
            if result.outcome is not None:
                extra_plies = past_end if extra_plies is None else extra_plies - 1
                if extra_plies <= 0:
                    return
            move = choose(pb, result.oracle_moves) if choose else rng.choice(result.oracle_moves)
            pair = result.pairs.get(move.uci())
            if pair is None:
                return  # we do not generate it: reported as a legal_moves mismatch already
            pushed = _ours(rb.push, pair[1])
            if isinstance(pushed, Raised):
                self._report(ctx, Diff("push", pushed, None, move.uci()))
                return
            pb.push(pair[0])
            ctx.moves.append(move.uci())

    # -- reporting ----------------------------------------------------------------------------

    def _report(self, ctx: Context, diff: Diff, acceptance: bool = False) -> None:
        stats = self.stats[ctx.source]
        stats.mismatches[diff.prop] += 1
        if self.reported[diff.prop] >= self.config.max_reports:
            return
        self.reported[diff.prop] += 1
        record: dict[str, Any] = {
            "source": ctx.source,
            "property": diff.prop,
            "move": diff.move,
            "ours": _show(diff.ours),
            "oracle": _show(diff.oracle),
            "note": diff.note,
            "start_fen": ctx.start_fen,
            "chess960": ctx.chess960,
            "moves": list(ctx.moves),
            "seed": self.config.seed,
            "item": ctx.item,
            "label": ctx.label,
        }
        if not acceptance and ctx.moves:
            shorter = minimize(self.rs, ctx.start_fen, ctx.chess960, ctx.moves, diff)
            if shorter is not None and (shorter[0], shorter[1]) != (ctx.start_fen, ctx.moves):
                record["original"] = {"start_fen": ctx.start_fen, "moves": list(ctx.moves)}
                record["start_fen"], record["moves"] = shorter
        self.reports.append(record)
        path = self._save(record)
        if not self.config.quiet:
            self.progress.clear()
            print(format_report(record, path), file=self.stream, flush=True)

    def _save(self, record: dict[str, Any]) -> Path | None:
        out = Path(self.config.out)
        try:
            out.mkdir(parents=True, exist_ok=True)
            slug = "".join(c if c.isalnum() else "_" for c in record["property"]).strip("_")
            name = f"{record['source']}-{slug}-s{self.config.seed}-{len(self.reports):06d}.json"
            path = out / name
            path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            print(f"fuzz_diff: cannot save reproducer: {exc}", file=sys.stderr)
            return None
        return path


def format_report(record: dict[str, Any], path: Path | None = None) -> str:
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
    """Both boards after *moves* from *start_fen* (our move objects come from our legal_moves)."""
    pb = chess.Board(start_fen, chess960=chess960)
    rb = rs.Board(start_fen, chess960=chess960)
    for uci in moves:
        ours = {move.uci(): move for move in rb.legal_moves}
        if uci not in ours:
            raise ValueError(f"pychess_rs does not generate {uci} in {rb.fen()}")
        pb.push_uci(uci)
        rb.push(ours[uci])
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
    try:
        board = chess.Board(start_fen, chess960=chess960)
        fens = [board.fen()]
        last_zeroing = 0
        for index, uci in enumerate(moves):
            move = board.parse_uci(uci)
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
            rb = _ours(lambda r=record: rs.Board(r["start_fen"], chess960=r["chess960"]))
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
                f"  {diff.prop}{move}: ours {_show(diff.ours)} oracle {_show(diff.oracle)}"
                + (f" ({diff.note})" if diff.note else ""),
                file=stream,
            )
        print("  no mismatch left" if not diffs else f"  {len(diffs)} mismatch(es)", file=stream)
        failing += bool(diffs)
    return failing


# --------------------------------------------------------------------------------------------
# Progress bar and summary
# --------------------------------------------------------------------------------------------


class _Progress:
    """One ``\\r``-updated line on a terminal; a line every 30 s otherwise."""

    def __init__(self, stream: IO[str], enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self.tty = enabled and hasattr(stream, "isatty") and stream.isatty()
        self.last = 0.0
        self.width = 0

    def update(self, now: float, campaign: Campaign) -> None:
        if not self.enabled or now - self.last < (0.25 if self.tty else 30.0):
            return
        if not self.last and not self.tty:  # no line before the first 30 s
            self.last = now
            return
        self.last = now
        elapsed = now - campaign.started
        positions = sum(s.positions for s in campaign.stats.values())
        mismatches = sum(sum(s.mismatches.values()) for s in campaign.stats.values())
        fraction = campaign.fraction_done(now)
        bar = ""
        if fraction is not None:
            filled = int(fraction * 20)
            bar = f"[{'#' * filled}{'.' * (20 - filled)}] {fraction:4.0%} "
        text = (
            f"{bar}{positions} positions, {positions / max(elapsed, 1e-9):.0f}/s, "
            f"{mismatches} mismatches, {elapsed:.0f}s"
        )
        if self.tty:
            self.stream.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def clear(self) -> None:
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()

    def finish(self) -> None:
        self.clear()
        self.width = 0


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
    header = (
        f"{'source':<10} {'items':>7} {'positions':>10} {'moves':>10} {'fen checks':>10} "
        f"{'pos/s':>8} {'mismatches':>10}"
    )
    lines = [header, "-" * len(header)]
    total = SourceStats()
    kinds: collections.Counter[str] = collections.Counter()
    tolerated = 0
    for source, stats in result.stats.items():
        count = sum(stats.mismatches.values())
        rate = stats.positions / stats.seconds if stats.seconds else 0.0
        lines.append(
            f"{source:<10} {stats.items:>7} {stats.positions:>10} {stats.moves:>10} "
            f"{stats.fen_checks:>10} {rate:>8.0f} {count:>10}"
        )
        total.items += stats.items
        total.positions += stats.positions
        total.moves += stats.moves
        total.fen_checks += stats.fen_checks
        tolerated += stats.tolerated
        kinds.update(stats.mismatches)
    rate = result.positions / result.elapsed if result.elapsed else 0.0
    lines.append("-" * len(header))
    lines.append(
        f"{'total':<10} {total.items:>7} {total.positions:>10} {total.moves:>10} "
        f"{total.fen_checks:>10} {rate:>8.0f} {result.mismatches:>10}"
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


# --------------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------------


def import_pychess_rs() -> Any:
    return importlib.import_module("pychess_rs")


def run(
    config: Config,
    rs: Any = None,
    stream: IO[str] = sys.stdout,
    progress_stream: IO[str] = sys.stderr,
) -> CampaignResult:
    """Run a campaign (the importable API; ``rs`` defaults to ``import pychess_rs``)."""
    if rs is None:
        rs = import_pychess_rs()
    return Campaign(config, rs, stream, progress_stream).run()


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="fuzz_diff.py",
        description="Differential fuzzing of pychess_rs against python-chess.",
        epilog=(
            f"Sources: {', '.join(SOURCES)}. Without --games/--positions/--minutes, "
            "--games 20 is used. Exit status 1 when a mismatch was found."
        ),
    )
    parser.add_argument("--seed", type=int, default=0, help="campaign seed (default 0)")
    parser.add_argument(
        "--games",
        type=int,
        help="games per game source (placement: 10x that "
        "many placements, mutated: 50x FENs; epd: every position once)",
    )
    parser.add_argument("--positions", type=int, help="stop after N positions checked")
    parser.add_argument("--minutes", type=float, help="stop after M minutes")
    parser.add_argument(
        "--chess960",
        action="store_true",
        help="Chess960 only: skip startpos, play every other source in "
        "Chess960 mode, only perft960.epd",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("fuzz-failures"),
        help="directory for JSON reproducers (default ./fuzz-failures)",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar and no printed reproducers (still saved)",
    )
    parser.add_argument(
        "--sources",
        default=",".join(SOURCES),
        help="comma-separated subset of the sources (default: all)",
    )
    parser.add_argument(
        "--max-reports",
        type=int,
        default=5,
        help="reproducers printed and saved per property (default 5)",
    )
    parser.add_argument(
        "--replay", nargs="+", metavar="FILE", help="re-check saved reproducers instead of fuzzing"
    )
    args = parser.parse_args(argv)
    sources = [s.strip() for s in args.sources.split(",") if s.strip()]
    unknown = [s for s in sources if s not in SOURCES]
    if unknown:
        parser.error(f"unknown source(s) {unknown}; choose from {', '.join(SOURCES)}")
    args.sources = sources
    for name in ("games", "positions", "minutes"):
        value = getattr(args, name)
        if value is not None and value < 0:
            parser.error(f"--{name} must not be negative")
    if args.games is None and args.positions is None and args.minutes is None:
        args.games = 20
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(argv)
    try:
        rs = import_pychess_rs()
    except ImportError as exc:
        print(
            f"fuzz_diff: cannot import pychess_rs ({exc}); build it first "
            "(e.g. maturin develop --release)",
            file=sys.stderr,
        )
        return 2
    if args.replay:
        return 1 if replay_reports(rs, args.replay, sys.stdout) else 0
    config = Config(
        seed=args.seed,
        games=args.games,
        positions=args.positions,
        minutes=args.minutes,
        chess960=args.chess960,
        out=args.out,
        quiet=args.quiet,
        sources=args.sources,
        max_reports=args.max_reports,
    )
    try:
        result = run(config, rs)
    except KeyboardInterrupt:
        print("\nfuzz_diff: interrupted", file=sys.stderr)
        return 130
    print(format_summary(result, config))
    return 1 if result.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
