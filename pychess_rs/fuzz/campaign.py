"""A fuzzing campaign: the sources take turns, every position is checked, mismatches reported.

Runs are deterministic for a given seed (each game has its own ``random.Random``, seeded by
seed, source and index), apart from where ``minutes`` cuts them.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from random import Random
from typing import IO, TYPE_CHECKING, Any, Callable

from .._progress import Progress
from . import SOURCES
from .checks import Diff, Raised, ask, ask_method, check_position, show
from .contract import (
    ACCEPTANCE,
    ACCEPTANCE_ERROR,
    fen_error_problem,
    oracle_board,
    oracle_board_class,
    outside_contract,
    tolerated_rejection,
)
from .edits import apply_edit, edited_weight, random_edit
from .report import format_report, minimize
from .sources import (
    DATA_DIR,
    RARE_PLANS,
    choose_rare,
    load_epd_positions,
    mutate_fen,
    random_invalid_fen,
    random_placement_fen,
)

if TYPE_CHECKING:  # python-chess loads when the fuzzer runs: see the package docstring
    import chess

# Per source, how many items ``--games N`` allows: games, placements, mutated FENs.
ITEMS_PER_GAME = {
    "startpos": 1,
    "chess960": 1,
    "rare": 1,
    "placement": 10,
    "mutated": 50,
    "invalid": 10,
    "edited": 1,
}

MAX_PLIES = {"startpos": 300, "chess960": 300, "edited": 80}


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
    #: The ``*.epd`` files of the ``epd`` source (none there: the source has no items).
    epd_dir: Path = DATA_DIR
    #: Random plies played from each placement / EPD position.
    placement_plies: int = 12
    epd_plies: int = 3
    #: In ``invalid`` games, how often a ply is a pseudo-legal move that is not legal, and how
    #: often a null move (python-chess pushes both).
    pseudo_rate: float = 0.3
    null_rate: float = 0.05
    #: Pseudo-legal (not legal) pushes checked per position outside the ``invalid`` source.
    odd_pushes: int = 3
    #: In ``edited`` games, how often a step (after the first move) is a hand edit.
    edit_rate: float = 0.3


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
            load_epd_positions(config.epd_dir, only_chess960=config.chess960)
            if "epd" in self.sources
            else []
        )
        self._pool: list[tuple[str, bool, str]] | None = None
        self.progress = Progress(progress_stream, enabled=not config.quiet)
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
        if self.progress.due():
            self.progress.show(self._status(now), self.fraction_done(now))

    def _status(self, now: float) -> str:
        elapsed = now - self.started
        positions = sum(s.positions for s in self.stats.values())
        mismatches = sum(sum(s.mismatches.values()) for s in self.stats.values())
        return (
            f"{positions} positions, {positions / max(elapsed, 1e-9):.0f}/s, "
            f"{mismatches} mismatches, {elapsed:.0f}s"
        )

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
            "invalid": self._run_invalid,
            "edited": self._run_edited,
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
        self.progress.clear()
        return CampaignResult(self.stats, self.reports, elapsed)

    def _rng(self, source: str, index: int) -> Random:
        return Random(f"{self.config.seed}/{source}/{index}")

    # -- sources ------------------------------------------------------------------------------

    def _run_startpos(self, index: int) -> None:
        import chess

        rng = self._rng("startpos", index)
        ctx = Context("startpos", chess.STARTING_FEN, False, [], index)
        rb = ask(lambda: self.rs.Board())
        if isinstance(rb, Raised):
            self._report(ctx, Diff("Board()", rb, chess.STARTING_FEN))
            return
        self._play(ctx, oracle_board_class()(), rb, rng, MAX_PLIES["startpos"], None)

    def _run_chess960(self, index: int) -> None:
        rng = self._rng("chess960", index)
        scharnagl = rng.randrange(960)
        pb = oracle_board_class().from_chess960_pos(scharnagl)
        ctx = Context("chess960", pb.fen(), True, [], index, f"Chess960 position {scharnagl}")
        rb = self._construct(ctx)
        if rb is not None:
            self._play(ctx, pb, rb, rng, MAX_PLIES["chess960"], None)

    def _run_rare(self, index: int) -> None:

        rng = self._rng("rare", index)
        plan = RARE_PLANS[index % len(RARE_PLANS)]
        if self.config.chess960 or rng.random() < 0.2:
            scharnagl = rng.randrange(960)
            pb = oracle_board_class().from_chess960_pos(scharnagl)
            ctx = Context("rare", pb.fen(), True, [], index, f"{plan}, Chess960 #{scharnagl}")
        else:
            pb = oracle_board_class()()
            ctx = Context("rare", pb.fen(), False, [], index, plan)
        rb = self._construct(ctx)
        if rb is None:
            return
        opening = rng.randint(4, 16) if plan in ("shuffle", "repeat") else rng.randint(0, 6)
        max_plies = {"shuffle": 420, "repeat": 140}.get(plan, 200)

        def choose(pb: chess.Board, moves: list[chess.Move]) -> chess.Move:
            if len(ctx.moves) < opening:
                return rng.choice(moves)
            return choose_rare(rng, pb, moves, plan, ctx.moves)

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
        import chess

        rng = self._rng("mutated", index)
        chess960 = self.config.chess960 or rng.random() < 0.25
        base = rng.random()
        pool = self._epd_pool() if base >= 0.8 else []
        if base < 0.4:
            fen = random_placement_fen(rng, chess960)
        elif not pool:  # a position from a short random game (also where no EPD file is)
            board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
            for _ in range(rng.randint(0, 40)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            fen = board.fen()
        else:
            fen, chess960, _ = rng.choice(pool)
        ctx = Context("mutated", mutate_fen(rng, fen), chess960, [], index, f"mutated from {fen}")
        pb, rb = self._acceptance(ctx)
        if pb is not None and rb is not None:
            self._play(ctx, pb, rb, rng, 0, None)

    def _epd_pool(self) -> list[tuple[str, bool, str]]:
        if self._pool is None:
            only_chess960 = self.config.chess960
            self._pool = self.epd_positions or load_epd_positions(
                self.config.epd_dir, only_chess960=only_chess960
            )
        return self._pool

    def _run_epd(self, index: int) -> None:
        fen, chess960, where = self.epd_positions[index]
        rng = self._rng("epd", index)
        ctx = Context("epd", fen, chess960, [], index, where)
        pb, rb = self._acceptance(ctx)
        if pb is not None and rb is not None:
            self._play(ctx, pb, rb, rng, rng.randint(0, self.config.epd_plies), None)

    def _run_invalid(self, index: int) -> None:
        rng = self._rng("invalid", index)
        chess960 = self.config.chess960 or rng.random() < 0.25
        ctx = Context("invalid", random_invalid_fen(rng, chess960), chess960, [], index)
        pb, rb = self._acceptance(ctx)
        if pb is not None and rb is not None:
            plies = rng.randint(0, self.config.placement_plies)
            self._play(ctx, pb, rb, rng, plies, None, odd_moves=True)

    def _run_edited(self, index: int) -> None:

        rng = self._rng("edited", index)
        if self.config.chess960 or rng.random() < 0.25:
            scharnagl = rng.randrange(960)
            pb = oracle_board_class().from_chess960_pos(scharnagl)
            ctx = Context("edited", pb.fen(), True, [], index, f"Chess960 #{scharnagl}")
        else:
            pb = oracle_board_class()()
            ctx = Context("edited", pb.fen(), False, [], index)
        rb = self._construct(ctx)
        if rb is not None:

            def choose(pb: chess.Board, moves: list[chess.Move]) -> chess.Move:
                weights = [edited_weight(pb, move) for move in moves]
                return rng.choices(moves, weights=weights, k=1)[0]

            self._play(ctx, pb, rb, rng, MAX_PLIES["edited"], choose, edits=True)

    # -- the building blocks ------------------------------------------------------------------

    def _construct(self, ctx: Context) -> Any:
        """Our board for a start FEN python-chess produced itself (it must be accepted)."""
        rb = ask(lambda: self.rs.Board(ctx.start_fen, chess960=ctx.chess960))
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
        rb = ask(lambda: self.rs.Board(ctx.start_fen, chess960=ctx.chess960))
        outside = outside_contract(ctx.start_fen)
        if isinstance(rb, Raised):
            error = fen_error_problem(self.rs, rb.exc)
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

    def _play(
        self,
        ctx: Context,
        pb: chess.Board,
        rb: Any,
        rng: Random,
        max_plies: int,
        choose: Callable[[chess.Board, list[chess.Move]], chess.Move] | None,
        past_end: int = 0,
        odd_moves: bool = False,
        edits: bool = False,
    ) -> None:
        """Check the position, play a move on both boards, repeat (until mate, stalemate,
        *max_plies*, or *past_end* plies after an automatic draw). With *odd_moves*, some plies
        are pseudo-legal moves that are not legal, or null moves; with *edits*, some steps after
        the first move write the castling rights or the en-passant square of both boards."""
        stats = self.stats[ctx.source]
        extra_plies = None
        while True:
            self._tick()
            # Positions of games are many and alike: a few of their pseudo-legal pushes are
            # enough there; the positions of the ``invalid`` source get all of theirs.
            result = check_position(pb, rb, None if odd_moves else self.config.odd_pushes)
            stats.positions += 1
            stats.moves += len(result.oracle_moves)
            stats.coverage.update(result.events)
            for diff in result.diffs:
                self._report(ctx, diff)
            if result.diverged or len(ctx.moves) >= max_plies:
                return
            if odd_moves and self._odd_move(ctx, pb, rb, rng, result.pseudo_pairs):
                continue
            if edits and pb.move_stack and rng.random() < self.config.edit_rate:
                if not self._edit(ctx, pb, rb, rng):
                    return
                continue
            if not result.oracle_moves:
                return
            if result.outcome is not None:
                extra_plies = past_end if extra_plies is None else extra_plies - 1
                if extra_plies <= 0:
                    return
            move = choose(pb, result.oracle_moves) if choose else rng.choice(result.oracle_moves)
            pair = result.pairs.get(move.uci())
            if pair is None:
                return  # we do not generate it: reported as a legal_moves mismatch already
            pushed = ask(rb.push, pair[1])
            if isinstance(pushed, Raised):
                self._report(ctx, Diff("push", pushed, None, move.uci()))
                return
            pb.push(pair[0])
            ctx.moves.append(move.uci())

    # -- reporting ----------------------------------------------------------------------------

    def _odd_move(
        self,
        ctx: Context,
        pb: chess.Board,
        rb: Any,
        rng: Random,
        pseudo_pairs: dict[str, tuple[chess.Move, Any]],
    ) -> bool:
        """Maybe push a pseudo-legal (not legal) move or a null move on both boards."""
        import chess

        roll = rng.random()
        if roll < self.config.null_rate:
            pair: tuple[chess.Move, Any] | None = (
                chess.Move.null(),
                ask_method(rb, "parse_uci", "0000"),
            )
        elif roll < self.config.null_rate + self.config.pseudo_rate and pseudo_pairs:
            pair = pseudo_pairs[rng.choice(sorted(pseudo_pairs))]
        else:
            return False
        if pair is None or isinstance(pair[1], Raised):
            return False
        uci = pair[0].uci()
        pushed = ask(rb.push, pair[1])
        if isinstance(pushed, Raised):
            self._report(ctx, Diff("push", pushed, None, uci))
            return False
        pb.push(pair[0])
        ctx.moves.append(uci)
        return True

    def _edit(self, ctx: Context, pb: chess.Board, rb: Any, rng: Random) -> bool:
        """Write the castling rights or the en-passant square of both boards (False: ours
        refused, reported)."""
        step = random_edit(rng, pb)
        done = ask(apply_edit, rb, step)
        if isinstance(done, Raised):
            self._report(ctx, Diff(step.partition("=")[0] + " =", done, None, note=step))
            return False
        apply_edit(pb, step)
        ctx.moves.append(step)
        return True

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
            "ours": show(diff.ours),
            "oracle": show(diff.oracle),
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
            print(f"pychess-rs fuzz: cannot save reproducer: {exc}", file=sys.stderr)
            return None
        return path


def import_pychess_rs() -> Any:
    """The package under test (the default ``rs`` of :func:`run`)."""
    import pychess_rs

    return pychess_rs


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
