"""The variant fuzzer (``pychess-rs fuzz --variant NAME``): pychess_rs.variant's boards against
python-chess's ``chess.variant`` boards, position by position.

Two sources take turns, both knowing no rule of their own (python-chess answers, pychess_rs
answers, any difference is a mismatch):

- ``game``: random games from the variant's starting position, each ply a legal move that
  python-chess lists (captures and checks preferred now and then, so that games reach their
  variant endings), played on both boards;
- ``position``: a position of such a game edited by hand before it is compared: pieces taken
  off or added on empty squares, the side to move flipped, Crazyhouse's pockets and
  Three-check's counters changed; the FEN python-chess writes for it is read by both sides
  (positions python-chess calls invalid included), then a few random plies follow.

At every position: the legal move set (UCI), the SAN and LAN of every legal move, ``parse_san``
of python-chess's SAN, the position after every legal move (FEN), the FEN, ``is_check``,
``is_checkmate``, ``is_stalemate``, ``is_insufficient_material``,
``has_insufficient_material`` of both colours, ``is_variant_end/win/loss/draw``,
``is_game_over``, ``outcome()``, ``result()``, ``status()``, ``is_valid()`` and
``checkers()``; for every legal move ``is_capture``, ``is_zeroing``, ``is_irreversible`` and
``gives_check`` (methods a variant board inherits from the standard one); Crazyhouse's
pockets and legal drop squares, Three-check's remaining checks.

Runs are deterministic for a given ``--seed``. Every mismatch is printed as a reproducer (the
variant, the FEN the game started from, the UCI moves, the property, both answers) and saved as
JSON under ``--out``; the exit status is 1 when any was found.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .checks import Raised, agree, ask, ask_method

if TYPE_CHECKING:  # python-chess loads when the fuzzer runs: see the package docstring
    import chess
    import chess.variant

#: The variants, by the name ``--variant`` takes (python-chess's ``uci_variant``), in
#: python-chess's ``VARIANTS`` order.
VARIANT_NAMES = (
    "suicide",
    "giveaway",
    "antichess",
    "atomic",
    "kingofthehill",
    "racingkings",
    "horde",
    "3check",
    "crazyhouse",
)


def oracle_class(name: str) -> type[chess.Board]:
    """python-chess's board class of a variant, by any of its names."""
    import chess.variant

    return chess.variant.find_variant(name)


def our_class(rs: Any, name: str) -> Any:
    """pychess_rs's board class of a variant, by any of its names."""
    module = importlib.import_module(f"{rs.__name__}.variant")
    return module.find_variant(name)


def _outcome_key(outcome: Any) -> Any:
    if outcome is None or isinstance(outcome, Raised):
        return outcome
    return (outcome.termination.name, outcome.winner)


@dataclasses.dataclass
class Mismatch:
    """One disagreement at one position."""

    variant: str
    start_fen: str
    moves: list[str]
    prop: str
    ours: str
    oracle: str
    move: str | None = None

    def format(self) -> str:
        where = f" (move {self.move})" if self.move else ""
        return (
            f"[{self.variant}] {self.prop}{where}\n"
            f"  start: {self.start_fen}\n"
            f"  moves: {' '.join(self.moves) or '-'}\n"
            f"  pychess_rs:   {self.ours}\n"
            f"  python-chess: {self.oracle}"
        )


def check_variant_position(pb: chess.Board, rb: Any) -> list[tuple[str, Any, Any, str | None]]:
    """Compare pychess_rs variant board *rb* with python-chess variant board *pb* (the same
    position and history): a list of ``(property, ours, oracle, move)`` disagreements."""
    import chess.variant

    diffs: list[tuple[str, Any, Any, str | None]] = []

    def compare(prop: str, ours: Any, theirs: Any, move: str | None = None) -> None:
        if not agree(ours, theirs):
            diffs.append((prop, ours, theirs, move))

    compare("fen", ask_method(rb, "fen"), pb.fen())
    compare("status", ask(lambda: int(rb.status())), int(pb.status()))
    compare("is_valid", ask_method(rb, "is_valid"), pb.is_valid())
    for name in (
        "is_check",
        "is_checkmate",
        "is_stalemate",
        "is_insufficient_material",
        "is_variant_end",
        "is_variant_win",
        "is_variant_loss",
        "is_variant_draw",
        "is_game_over",
        "result",
    ):
        compare(name, ask_method(rb, name), getattr(pb, name)())
    for color in chess.COLORS:
        compare(
            f"has_insufficient_material({chess.COLOR_NAMES[color]})",
            ask_method(rb, "has_insufficient_material", color),
            pb.has_insufficient_material(color),
        )
    compare("outcome", _outcome_key(ask_method(rb, "outcome")), _outcome_key(pb.outcome()))
    compare("checkers", ask(lambda: sorted(rb.checkers())), sorted(pb.checkers()))
    if isinstance(pb, chess.variant.CrazyhouseBoard):
        for color in chess.COLORS:
            compare(
                f"pockets({chess.COLOR_NAMES[color]})",
                ask(lambda c=color: str(rb.pockets[c])),
                str(pb.pockets[color]),
            )
        # python-chess answers ``~occupied`` (a negative int) when not in check: its
        # ``legal_drop_squares()`` masks it to the board, as ours is.
        compare(
            "legal_drop_squares",
            ask(lambda: int(rb.legal_drop_squares_mask())),
            pb.legal_drop_squares_mask() & chess.BB_ALL,
        )
    if isinstance(pb, chess.variant.ThreeCheckBoard):
        compare(
            "remaining_checks", ask(lambda: list(rb.remaining_checks)), list(pb.remaining_checks)
        )

    oracle_moves = list(pb.legal_moves)
    ours = ask(lambda: sorted(m.uci() for m in rb.legal_moves))
    compare("legal_moves", ours, sorted(m.uci() for m in oracle_moves))
    if isinstance(ours, Raised):
        return diffs
    theirs_set = {m.uci() for m in oracle_moves}
    for move in oracle_moves:
        uci = move.uci()
        if uci not in theirs_set or uci not in ours:
            continue
        ours_move = ask(lambda u=uci: rb.parse_uci(u))
        if isinstance(ours_move, Raised):
            compare("parse_uci", ours_move, uci, uci)
            continue
        san = pb.san(move)
        compare("san", ask_method(rb, "san", ours_move), san, uci)
        compare("lan", ask_method(rb, "lan", ours_move), pb.lan(move), uci)
        for name in ("is_capture", "is_zeroing", "is_irreversible", "gives_check"):
            compare(name, ask_method(rb, name, ours_move), getattr(pb, name)(move), uci)
        parsed = ask(lambda s=san: rb.parse_san(s).uci())
        compare("parse_san", parsed, uci, uci)
        pb.push(move)
        after = pb.fen()
        pb.pop()
        pushed = ask(lambda m=ours_move: rb.push(m))
        if isinstance(pushed, Raised):
            compare("push", pushed, None, uci)
            continue
        compare("fen after", ask_method(rb, "fen"), after, uci)
        compare("pop", ask(lambda: rb.pop().uci()), uci, uci)
    return diffs


@dataclasses.dataclass
class VariantResult:
    """What a variant campaign found."""

    positions: dict[str, int] = dataclasses.field(default_factory=dict)
    games: dict[str, int] = dataclasses.field(default_factory=dict)
    mismatches: list[Mismatch] = dataclasses.field(default_factory=list)
    seconds: float = 0.0


def _choose(rng: random.Random, board: chess.Board, moves: list[chess.Move]) -> chess.Move:
    """A random move, a capture or check now and then (games then reach their endings)."""
    if rng.random() < 0.3:
        forcing = [m for m in moves if board.is_capture(m) or m.drop is not None]
        if forcing:
            return rng.choice(forcing)
    return rng.choice(moves)


def _edited_fen(rng: random.Random, board: chess.Board) -> str:
    """A hand edit of *board*'s position, as the FEN python-chess writes for it."""
    import chess.variant

    edited = board.copy(stack=False)
    squares = list(chess.SquareSet(edited.occupied))
    for _ in range(rng.randint(1, 3)):
        action = rng.random()
        if action < 0.45 and squares:
            square = rng.choice(squares)
            edited.remove_piece_at(square)
            squares.remove(square)
        elif action < 0.8:
            empty = [s for s in chess.SQUARES if not edited.piece_at(s)]
            if empty:
                piece_type = rng.choice(
                    (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
                )
                if piece_type == chess.PAWN:
                    empty = [s for s in empty if chess.square_rank(s) not in (0, 7)] or empty
                edited.set_piece_at(rng.choice(empty), chess.Piece(piece_type, rng.random() < 0.5))
        else:
            edited.turn = not edited.turn
            edited.ep_square = None
    if isinstance(edited, chess.variant.CrazyhouseBoard):
        for color in chess.COLORS:
            for _ in range(rng.randint(0, 2)):
                edited.pockets[color].add(rng.choice(chess.PIECE_TYPES[:5]))
    if isinstance(edited, chess.variant.ThreeCheckBoard):
        edited.remaining_checks[chess.WHITE] = rng.randint(1, 3)
        edited.remaining_checks[chess.BLACK] = rng.randint(1, 3)
    edited.castling_rights = edited.clean_castling_rights()
    return edited.fen()


class VariantCampaign:
    """Random games and edited positions of one variant, compared on both sides."""

    def __init__(
        self,
        rs: Any,
        name: str,
        rng: random.Random,
        result: VariantResult,
        *,
        max_plies: int = 300,
        max_reports: int = 5,
    ) -> None:

        self.rs = rs
        self.name = name
        self.oracle_cls = oracle_class(name)
        self.our_cls = our_class(rs, name)
        self.rng = rng
        self.result = result
        self.max_plies = max_plies
        self.max_reports = max_reports
        self.reported: dict[str, int] = {}
        self.last_game: chess.Board | None = None

    def _record(
        self, pb: chess.Board, start: str, diffs: list[tuple[str, Any, Any, str | None]]
    ) -> None:
        moves = [m.uci() for m in pb.move_stack]
        for prop, ours, theirs, move in diffs:
            self.result.mismatches.append(
                Mismatch(self.name, start, moves, prop, repr(ours), repr(theirs), move)
            )

    def play(self, start_fen: str | None, budget: int, plies: int | None = None) -> int:
        """Plays one game from *start_fen* (None: the variant's start); returns the positions
        compared (at most *budget*)."""
        try:
            pb = self.oracle_cls(start_fen) if start_fen is not None else self.oracle_cls()
        except ValueError:
            return 0
        # Both boards read the same text (python-chess's own FEN of it may say less: a
        # castling right it does not count as clean, for one).
        start = start_fen if start_fen is not None else pb.fen()
        rb = ask(lambda: self.our_cls(start))
        if isinstance(rb, Raised):
            self.result.mismatches.append(
                Mismatch(self.name, start, [], "construct", repr(rb), "a board")
            )
            return 1
        checked = 0
        limit = self.max_plies if plies is None else plies
        for _ply in range(limit + 1):
            if checked >= budget:
                break
            diffs = check_variant_position(pb, rb)
            checked += 1
            if diffs:
                self._record(pb, start, diffs)
                if any(d[0] in ("fen", "legal_moves") for d in diffs):
                    break
            moves = list(pb.legal_moves)
            if not moves or pb.is_game_over() or _ply == limit:
                break
            move = _choose(self.rng, pb, moves)
            pb.push(move)
            uci = move.uci()
            pushed = ask_method(rb, "push_uci", uci)
            if isinstance(pushed, Raised):
                self._record(pb, start, [("push_uci", pushed, uci, uci)])
                break
        self.last_game = pb
        return checked

    def step(self, budget: int) -> int:
        """One item: a game from the start, or an edited position of the last game."""
        if self.last_game is not None and self.last_game.move_stack and self.rng.random() < 0.5:
            game = self.last_game.copy()
            for _ in range(self.rng.randint(0, len(game.move_stack) - 1)):
                game.pop()
            fen = _edited_fen(self.rng, game)
            return self.play(fen, budget, plies=self.rng.randint(0, 8))
        return self.play(None, budget)


def run_variants(
    rs: Any,
    names: list[str],
    *,
    seed: int = 0,
    positions: int | None = None,
    games: int | None = None,
    minutes: float | None = None,
    max_reports: int = 5,
    quiet: bool = False,
    out: Path | None = None,
    stream: TextIO = sys.stderr,
) -> VariantResult:
    """Fuzzes each variant of *names* in turn up to *positions* positions, *games* items or
    *minutes* minutes each (without any of them: 20 items each)."""
    if positions is None and games is None and minutes is None:
        games = 20
    result = VariantResult()
    started = time.monotonic()
    for name in names:
        rng = random.Random(f"{seed}-{name}")
        campaign = VariantCampaign(rs, name, rng, result, max_reports=max_reports)
        count = items = 0
        begun = time.monotonic()
        while True:
            if positions is not None and count >= positions:
                break
            if games is not None and items >= games:
                break
            if minutes is not None and time.monotonic() - begun > minutes * 60:
                break
            budget = positions - count if positions is not None else 10**9
            count += campaign.step(budget)
            items += 1
            if not quiet:
                print(f"\r{name}: {count} positions, {items} items", end="", file=stream)
        if not quiet:
            print(file=stream)
        result.positions[name] = count
        result.games[name] = items
    result.seconds = time.monotonic() - started
    if out is not None and result.mismatches:
        out.mkdir(parents=True, exist_ok=True)
        for index, mismatch in enumerate(result.mismatches[: max_reports * len(names)]):
            prop = mismatch.prop.split("(")[0].replace(" ", "-")
            path = out / f"variant-{mismatch.variant}-{prop}-s{seed}-{index:06d}.json"
            path.write_text(json.dumps(dataclasses.asdict(mismatch), indent=2) + "\n")
    return result


def format_variant_summary(result: VariantResult, seed: int) -> str:
    """The summary printed at the end of a run."""
    lines = [f"variant fuzzing, seed {seed}, {result.seconds:.1f} s"]
    for name, count in result.positions.items():
        found = sum(1 for m in result.mismatches if m.variant == name)
        lines.append(
            f"  {name:<14} {count:>8} positions  {result.games[name]:>6} items  {found} mismatches"
        )
    lines.append(f"mismatches: {len(result.mismatches)}")
    return "\n".join(lines)
