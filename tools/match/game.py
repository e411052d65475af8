"""One game between two engines, refereed only by the rules of chess.

A game ends by checkmate, stalemate, insufficient material, the 75-move rule, fivefold
repetition, or a threefold-repetition / 50-move claim (python-chess's
``board.outcome(claim_draw=True)``: the runner claims every draw the rules allow), or by a
player's failure: a time forfeit, an illegal move (or no move where moves exist), a crash, or
no answer within the hang deadline. Nothing is adjudicated by score.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import chess
import chess.engine

from .clock import TIME_MARGIN, Clock, TimeControl
from .openings import Opening

#: Default seconds an engine may go past its time budget without any answer (or, for moves
#: limited only by nodes/depth, may think at all) before it is declared hung and restarted.
HANG_TIMEOUT = 30.0

# Termination kinds. The rules' kinds are python-chess's ``chess.Termination`` names in lower
# case; the failure kinds follow.
TIME_FORFEIT = "time_forfeit"
ILLEGAL_MOVE = "illegal_move"
CRASH = "crash"
NO_ANSWER = "no_answer"
RESIGNATION = "resignation"
#: Failure kinds that are counted against the engine that failed.
FAILURES = (TIME_FORFEIT, ILLEGAL_MOVE, CRASH, NO_ANSWER)

#: PGN ``Termination`` tag values (PGN standard 9.8.1) for each kind.
PGN_TERMINATION = {
    TIME_FORFEIT: "time forfeit",
    ILLEGAL_MOVE: "rules infraction",
    CRASH: "abandoned",
    NO_ANSWER: "abandoned",
}


@dataclass(frozen=True)
class Limits:
    """Per-move search limits and the clock settings shared by every game."""

    tc: TimeControl | None = None
    movetime: float | None = None
    nodes: int | None = None
    depth: int | None = None
    margin: float = TIME_MARGIN
    hang_timeout: float = HANG_TIMEOUT

    def __post_init__(self) -> None:
        if self.tc is None and self.movetime is None and self.nodes is None and not self.depth:
            raise ValueError("no limit: give a time control, movetime, nodes or depth")

    def pgn_time_control(self) -> str:
        """PGN TimeControl tag: ``base+inc`` / ``moves/base``; ``-`` when moves are not timed
        by a clock (fixed movetime, nodes or depth go in the Limits tag)."""
        return str(self.tc) if self.tc is not None else "-"

    def describe(self) -> str:
        parts = []
        if self.tc is not None:
            parts.append(f"tc={self.tc}")
        if self.movetime is not None:
            parts.append(f"movetime={self.movetime:g}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        return " ".join(parts)


class Player(Protocol):
    """What the game loop needs of an engine (an ``EngineProcess``, or a test double)."""

    broken: bool

    @property
    def go_sent_at(self) -> float | None: ...

    async def play(
        self, board: chess.Board, limit: chess.engine.Limit, game: object
    ) -> chess.engine.PlayResult: ...


@dataclass
class GameRecord:
    """The course and result of one finished game."""

    white: str
    black: str
    opening: Opening
    moves: list[chess.Move] = field(default_factory=list)
    result: str = "*"
    #: A ``chess.Termination`` name in lower case, or one of the failure kinds above.
    termination: str = ""
    #: Human-readable account of how the game ended (the PGN's final comment).
    detail: str = ""
    #: The side whose failure ended the game, if a failure did.
    culprit: chess.Color | None = None
    seconds: float = 0.0

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def failure(self) -> str | None:
        return self.termination if self.termination in FAILURES else None

    def end_board(self) -> chess.Board:
        board = self.opening.board()
        for move in self.moves:
            board.push(move)
        return board


def _side(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def _loss_for(color: chess.Color) -> str:
    return "0-1" if color == chess.WHITE else "1-0"


async def play_game(
    white: Player,
    black: Player,
    white_name: str,
    black_name: str,
    opening: Opening,
    limits: Limits,
    clock_fn: Callable[[], float] = time.monotonic,
) -> GameRecord:
    """Play one game from ``opening``; failures end the game, they do not raise.

    ``clock_fn`` is the wall clock (tests pass a fake one). The time of a move runs from the
    engine's ``go`` (``go_sent_at``, if the player reports one) to its answer.
    """
    started = clock_fn()
    record = GameRecord(white_name, black_name, opening)
    board = opening.board()
    clock = Clock(limits.tc, limits.movetime, limits.margin)
    game_key = object()

    def fail(kind: str, side: chess.Color, why: str, result: str | None = None) -> GameRecord:
        record.termination = kind
        record.culprit = side
        record.result = result or _loss_for(side)
        record.detail = f"{_side(side)} ({white_name if side else black_name}) {why}"
        record.seconds = clock_fn() - started
        return record

    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            record.result = outcome.result()
            record.termination = outcome.termination.name.lower()
            record.detail = outcome.termination.name.lower().replace("_", " ")
            record.seconds = clock_fn() - started
            return record

        side = board.turn
        player = white if side == chess.WHITE else black
        limit = chess.engine.Limit(nodes=limits.nodes, depth=limits.depth)
        for key, value in clock.limit_kwargs(side).items():
            setattr(limit, key, value)
        budget = clock.budget(side)
        deadline = (budget or 0.0) + limits.hang_timeout
        t0 = clock_fn()
        try:
            result = await asyncio.wait_for(player.play(board, limit, game_key), deadline)
        except asyncio.TimeoutError:
            player.broken = True
            waited = clock_fn() - t0
            if budget is not None:
                return _time_forfeit(fail, board, side, f"gave no move in {waited:.1f} s")
            return fail(NO_ANSWER, side, f"gave no move in {waited:.1f} s")
        except chess.engine.EngineTerminatedError as err:
            player.broken = True
            return fail(CRASH, side, f"crashed: {err}")
        except chess.engine.EngineError as err:
            # python-chess raises EngineError(ValueError) for a bestmove that does not parse
            # or is not legal here; anything else is a protocol error.
            if err.args and isinstance(err.args[0], ValueError):
                return fail(ILLEGAL_MOVE, side, f"played an illegal move: {err}")
            player.broken = True
            return fail(CRASH, side, f"broke the protocol: {err}")
        t1 = clock_fn()
        go_at = player.go_sent_at
        start = go_at if go_at is not None and t0 <= go_at <= t1 else t0
        elapsed = t1 - start
        if clock.charge(side, elapsed):
            allowed = (budget or 0.0) - limits.margin
            why = f"lost on time: took {elapsed:.3f} s of {allowed:.3f} s"
            return _time_forfeit(fail, board, side, why)
        move = result.move
        if move is None:
            if result.resigned:
                record.termination = RESIGNATION
                record.result = _loss_for(side)
                record.detail = f"{_side(side)} resigns"
                record.seconds = clock_fn() - started
                return record
            return fail(ILLEGAL_MOVE, side, "gave no move in a position with legal moves")
        if not board.is_legal(move):
            return fail(ILLEGAL_MOVE, side, f"played an illegal move: {move.uci()}")
        board.push(move)
        record.moves.append(move)


def _time_forfeit(
    fail: Callable[[str, chess.Color, str, str | None], GameRecord],
    board: chess.Board,
    side: chess.Color,
    why: str,
) -> GameRecord:
    """A flag fall loses, unless the opponent could not mate by any legal series of moves
    (FIDE Laws 6.9): then it is a draw."""
    if board.has_insufficient_material(not side):
        return fail(TIME_FORFEIT, side, why + "; draw: opponent cannot mate", "1/2-1/2")
    return fail(TIME_FORFEIT, side, why, None)
