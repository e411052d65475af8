"""One game from its first move to its announced end: turns, commands and the result."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

from .._core import Board, Move, outcome_result
from ..engine import Limit
from ..outcome import Termination
from ..types import PIECE_NAMES, SQUARE_NAMES, Color, parse_square
from . import record
from .commands import HELP, Command, parse_command
from .console import Console
from .engine_player import EnginePlayer, format_score, hint_engine
from .render import Marks, Style, diagram, landing_square, status_line

__all__ = [
    "Ending",
    "Session",
    "automatic_ending",
    "claim_rule",
    "claimable",
    "claimable_by_moving",
    "no_claim_explanation",
    "side_name",
]

_AUTOMATIC_ENDS = {
    Termination.CHECKMATE: "Checkmate",
    Termination.STALEMATE: "Stalemate",
    Termination.INSUFFICIENT_MATERIAL: "Draw by insufficient material",
    Termination.SEVENTYFIVE_MOVES: "Draw by the 75-move rule",
    Termination.FIVEFOLD_REPETITION: "Draw by fivefold repetition",
}

# The rule a draw claim rests on, as a claim names it and as the prompt announces it.
_CLAIM_RULES = {
    Termination.FIFTY_MOVES: "the 50-move rule",
    Termination.THREEFOLD_REPETITION: "threefold repetition",
}
_CLAIM_REASONS = {
    Termination.FIFTY_MOVES: "Fifty moves without a capture or pawn move",
    Termination.THREEFOLD_REPETITION: "Threefold repetition",
}

_PROMOTIONS = {"q": 5, "r": 4, "b": 3, "n": 2, "queen": 5, "rook": 4, "bishop": 3, "knight": 2}


def side_name(color: Color) -> str:
    """``White`` or ``Black``."""
    return "White" if color else "Black"


@dataclasses.dataclass(frozen=True)
class Ending:
    """How the game ended: the announcement, the winner (``None`` for a draw) and the PGN
    ``Termination`` tag. A game left ``unterminated`` (interrupted, abandoned) has no
    result yet: ``*``."""

    reason: str
    winner: Color | None = None
    termination: str = "normal"

    @classmethod
    def unfinished(cls, reason: str) -> Ending:
        """A game that stops without a result (PGN ``*``, Termination ``unterminated``)."""
        return cls(reason, None, "unterminated")

    @property
    def result(self) -> str:
        """The PGN result: ``1-0``, ``0-1``, ``1/2-1/2`` (the core's text) or ``*``."""
        if self.termination == "unterminated":
            return "*"
        return outcome_result(self.winner)

    def announcement(self) -> str:
        """``Checkmate: White wins (1-0).``"""
        if self.termination == "unterminated":
            return f"{self.reason}."
        if self.winner is None:
            return f"{self.reason} ({self.result})."
        return f"{self.reason}: {side_name(self.winner)} wins ({self.result})."


def automatic_ending(board: Board) -> Ending | None:
    """The ending the rules impose on ``board`` with no claim (mate, stalemate,
    insufficient material, the 75-move rule, fivefold repetition), or ``None``."""
    outcome = board.outcome()
    if outcome is None:
        return None
    reason = _AUTOMATIC_ENDS.get(outcome.termination, outcome.termination.name.lower())
    return Ending(reason, outcome.winner)


def claimable(board: Board) -> bool:
    """A draw may be claimed in the position on the board itself (python-chess's
    ``can_claim_*`` also count a move that would make the claim: see ``claim MOVE``)."""
    return board._draw_claim() is not None


def claimable_by_moving(board: Board) -> list[str]:
    """The moves (SAN) that let the side to move claim a draw by announcing them, when none
    may be claimed now."""
    if claimable(board):
        return []
    return [board.san(move) for move in board._draw_claim_moves()]


def claim_rule(board: Board, move: Move | None = None) -> str | None:
    """The rule a draw claim on ``board`` rests on, in the position or by announcing
    ``move``: ``the 50-move rule`` or ``threefold repetition``; ``None`` when no draw may
    be claimed so."""
    termination = board._draw_claim(move)
    return None if termination is None else _CLAIM_RULES[termination]


def no_claim_explanation(board: Board) -> str:
    """Why no draw may be claimed on ``board`` (neither now nor with a move)."""
    seen = max(n for n in range(1, 6) if n == 1 or board.is_repetition(n))
    times = "once" if seen == 1 else "twice" if seen == 2 else f"{seen} times"
    return (
        f"no draw to claim: this position has occurred {times} (a claim needs 3, or a move "
        f"that makes 3) and the halfmove clock is {board.halfmove_clock} (it needs 100)"
    )


class Session:
    """A game on ``board`` between ``players`` (``None`` for a human) of each colour."""

    def __init__(
        self,
        board: Board,
        players: dict[bool, EnginePlayer | None],
        console: Console,
        style: Style,
        *,
        limit: Limit,
        white_at_bottom: bool = True,
        save: Path | None = None,
    ) -> None:
        self.board = board
        self.players = players
        self.console = console
        self.style = style
        self.limit = limit
        self.white_at_bottom = white_at_bottom
        self.save = save
        self._hinter: EnginePlayer | None = None

    # ---- the loop ---------------------------------------------------------------------

    def run(self) -> int:
        """Plays until the game ends or a player leaves; writes the PGN; returns 0."""
        self.console.say(self._introduction())
        ending: Ending | None = None
        try:
            while ending is None:
                ending = self._automatic_ending()
                if ending is not None:
                    break
                player = self.players[self.board.turn]
                if player is None:
                    ending = self._human_turn()
                else:
                    ending = self._engine_turn(player)
        except KeyboardInterrupt:
            self.console.say()
            ending = Ending.unfinished("Game interrupted")
        self._finish(ending)
        return 0

    def _introduction(self) -> str:
        names = [f"{side_name(c)}: {self._player_name(c)}" for c in (True, False)]
        return f"{', '.join(names)}. Type help for commands."

    def _player_name(self, color: Color) -> str:
        player = self.players[color]
        return "Human" if player is None else player.name

    def _automatic_ending(self) -> Ending | None:
        return automatic_ending(self.board)

    def _finish(self, ending: Ending) -> None:
        if ending.result != "*":
            self.console.say(self._diagram())
        self.console.say(f"Game over. {ending.announcement()}")
        pgn = self._pgn(ending)
        self.console.say()
        self.console.say(pgn.rstrip("\n"))
        if self.save is not None:
            try:
                self.save.write_text(pgn, encoding="utf-8")
                self.console.say(f"\nPGN saved to {self.save}")
            except OSError as e:
                self.console.say(f"\ncannot save the PGN to {self.save}: {e.strerror}")

    def _pgn(self, ending: Ending | None = None) -> str:
        ending = ending or Ending.unfinished("")
        return record.game_pgn(
            self.board,
            white=self._player_name(True),
            black=self._player_name(False),
            result=ending.result,
            termination=ending.termination,
            comment=ending.announcement() if ending.reason else None,
        )

    # ---- the engine's turn ------------------------------------------------------------

    def _engine_turn(self, player: EnginePlayer) -> Ending | None:
        board = self.board
        rule = claim_rule(board)
        if rule is not None and player.accepts_draw(board, board.turn):
            return self._claim_ending(f"{side_name(board.turn)} claims a draw", rule)
        move = self._think(player)
        if move is None:  # only with no legal move, which the outcome check excludes
            return Ending.unfinished("The engine found no move")
        self.console.say(f"{side_name(board.turn)} plays {board.san(move)}")
        board.push(move)
        if self.console.interactive and self.players[board.turn] is not None:
            # Engine against engine on a terminal: show each position as it comes.
            self.console.say(self._diagram())
            self.console.say(status_line(board))
        return None

    def _think(self, player: EnginePlayer) -> Move | None:
        """The engine's move, searched on a thread: the main thread stays free for Ctrl-C
        and, on a terminal, for a typed ``stop``."""
        board = self.board.copy()
        found: list[Move | None] = []
        failure: list[BaseException] = []

        def search() -> None:
            try:
                found.append(player.think(board))
            except BaseException as e:  # handed to the main thread below
                failure.append(e)

        thread = threading.Thread(target=search, name="pychess-rs-play-engine", daemon=True)
        thread.start()
        told = False
        try:
            # Announced inside the try: a Ctrl-C that answers the announcement at once must
            # make the engine move, not end the game.
            if self.console.interactive:
                self.console.say(
                    f"{side_name(self.board.turn)} is thinking... (type stop or press Ctrl-C to "
                    "make it move now)"
                )
            while thread.is_alive():
                if self.console.can_poll():
                    line = self.console.poll(0.1)
                    if line is None:
                        continue
                    if line.strip().lower() == "stop":
                        player.stop()
                    elif not told:
                        self.console.say("(the engine is thinking: type stop to make it move now)")
                        told = True
                else:
                    thread.join(0.1)
        except KeyboardInterrupt:
            player.stop()
            self.console.say()
        finally:
            if thread.is_alive():
                player.stop()
            thread.join()
        if failure:
            raise failure[0]
        return found[0] if found else None

    # ---- the human's turn -------------------------------------------------------------

    def _marks(self, **extra: Any) -> Marks:
        board = self.board
        last = board.peek() if board.move_stack else None
        check = board.king(board.turn) if board.is_check() else None
        return dataclasses.replace(Marks(last_move=last, check=check), **extra)

    def _diagram(self, marks: Marks | None = None) -> str:
        return diagram(
            self.board,
            self.style,
            white_at_bottom=self.white_at_bottom,
            marks=marks or self._marks(),
        )

    def _prompt(self) -> str:
        board = self.board
        dots = "." if board.turn else "..."
        return f"{board.fullmove_number}{dots} {side_name(board.turn)}> "

    def _claimable_by_moving(self) -> list[str]:
        return claimable_by_moving(self.board)

    def _human_turn(self) -> Ending | None:
        self.console.say(self._diagram())
        self.console.say(status_line(self.board))
        side = side_name(self.board.turn)
        if (claim := self.board._draw_claim()) is not None:
            self.console.say(f"{_CLAIM_REASONS[claim]}: {side} may claim a draw (type claim).")
        elif moves := self._claimable_by_moving():
            self.console.say(
                f"{side} may claim a draw with the move that makes it: "
                f"type claim {moves[0]}" + (f" (or {', '.join(moves[1:])})" if moves[1:] else "")
            )
        while True:
            try:
                line = self.console.ask(self._prompt())
            except KeyboardInterrupt:
                self.console.say()
                return Ending.unfinished("Game interrupted")
            if line is None:
                return Ending.unfinished("Game left unfinished")
            line = line.strip()
            if not line:
                continue
            command = parse_command(line)
            if command is not None:
                ending = self._command(command)
                if ending is not None:
                    return ending
                continue
            if self._human_move(line):
                return None

    def _human_move(self, text: str) -> bool:
        """Plays the move ``text`` stands for, asking which piece for a bare promotion;
        says why not and returns False when it cannot."""
        kind, moves, message = self.board.read_move(text)
        if kind == "promotion":
            move = self._ask_promotion(moves)
            if move is None:
                self.console.say("move cancelled")
                return False
        elif kind == "move":
            move = moves[0]
        elif kind == "invalid":
            self.console.say(f"{message}; type help for the commands")
            return False
        else:
            self.console.say(message)
            return False
        self.console.say(f"{side_name(self.board.turn)} plays {self.board.san(move)}")
        self.board.push(move)
        return True

    def _ask_promotion(self, moves: list[Move]) -> Move | None:
        by_piece = {m.promotion: m for m in moves}
        while True:
            answer = self.console.ask("Promote to which piece? (Q/R/B/N) ")
            if answer is None or not answer.strip():
                return None
            piece = _PROMOTIONS.get(answer.strip().lower().lstrip("="))
            if piece is not None and piece in by_piece:
                return by_piece[piece]
            self.console.say("answer Q (queen), R (rook), B (bishop) or N (knight)")

    # ---- commands ---------------------------------------------------------------------

    def _command(self, command: Command) -> Ending | None:
        handler = getattr(self, f"_cmd_{command.name}")
        result: Ending | None = handler(command.argument)
        return result

    def _cmd_help(self, argument: str) -> None:
        self.console.say(HELP)

    def _cmd_quit(self, argument: str) -> Ending:
        return Ending.unfinished("Game abandoned")

    def _cmd_stop(self, argument: str) -> None:
        self.console.say("nothing to stop: it is your move")

    def _cmd_fen(self, argument: str) -> None:
        self.console.say(self.board.fen())

    def _cmd_pgn(self, argument: str) -> None:
        self.console.say(self._pgn().rstrip("\n"))

    def _cmd_flip(self, argument: str) -> None:
        self.white_at_bottom = not self.white_at_bottom
        self.console.say(self._diagram())

    def _cmd_resign(self, argument: str) -> Ending:
        loser = self.board.turn
        return Ending(f"{side_name(loser)} resigns", not loser)

    def _cmd_draw(self, argument: str) -> Ending | None:
        board = self.board
        offerer, opponent = board.turn, not board.turn
        player = self.players[opponent]
        if player is None:
            answer = self.console.ask(
                f"{side_name(offerer)} offers a draw. {side_name(opponent)}, do you accept? (y/n) "
            )
            accepted = answer is not None and answer.strip().lower() in ("y", "yes")
        else:
            accepted = player.accepts_draw(board, opponent)
        if accepted:
            self.console.say(f"{side_name(opponent)} accepts the draw.")
            return Ending("Draw by agreement")
        self.console.say(f"{side_name(opponent)} declines the draw. Play on.")
        return None

    def _claim_ending(self, who: str, rule: str) -> Ending:
        self.console.say(f"{who}: {rule}.")
        return Ending(f"Draw claimed: {rule}")

    def _cmd_claim(self, argument: str) -> Ending | None:
        board = self.board
        side = side_name(board.turn)
        if argument.strip():
            # A claim through a move: the move is played and written down, then claimed.
            text = argument.strip()
            kind, found, message = board.read_move(text)
            if kind != "move":
                self.console.say(message)
                return None
            san = board.san(found[0])
            rule = claim_rule(board, found[0])
            if rule is not None:
                board.push(found[0])
                self.console.say(f"{side} plays {san}")
                return self._claim_ending(f"{side} claims a draw with {san}", rule)
            self.console.say(
                f"no draw to claim with {san}: it neither repeats a position a "
                "third time nor completes 50 moves without a capture or pawn move"
            )
            return None
        rule = claim_rule(board)
        if rule is not None:
            return self._claim_ending(f"{side} claims a draw", rule)
        if moves := self._claimable_by_moving():
            self.console.say(f"a draw may be claimed with a move: type claim {moves[0]}")
            return None
        self.console.say(no_claim_explanation(board))
        return None

    def _cmd_undo(self, argument: str) -> None:
        board = self.board
        against_engine = self.players[not board.turn] is not None
        count = 2 if against_engine else 1
        if len(board.move_stack) < count:
            self.console.say("nothing to undo")
            return
        taken: list[str] = []
        for _ in range(count):
            move = board.pop()
            taken.insert(0, board.san(move))
        self.console.say(f"took back {' '.join(taken)}")
        self.console.say(self._diagram())
        self.console.say(status_line(board))

    def _cmd_hint(self, argument: str) -> None:
        player = self.players[not self.board.turn] or self.players[self.board.turn]
        if player is None:
            if self._hinter is None:
                self._hinter = hint_engine(self.limit)
            player = self._hinter
        hint = player.hint(self.board, self.limit)
        if hint is None:
            self.console.say("no move to hint at")
            return
        move, score = hint
        evaluation = f" (evaluation {format_score(score)})" if score is not None else ""
        if score is not None and not score.is_mate():
            evaluation = f" (evaluation {format_score(score)} from White's side)"
        self.console.say(f"hint: {self.board.san(move)}{evaluation}")

    def _cmd_moves(self, argument: str) -> None:
        board = self.board
        if not argument:
            sans = sorted(board.san(m) for m in board.legal_moves)
            self.console.say(f"{len(sans)} legal moves: {' '.join(sans)}")
            return
        try:
            square = parse_square(argument.strip().lower())
        except ValueError:
            self.console.say(f"moves: {argument!r} is not a square (try moves e2)")
            return
        piece = board.piece_at(square)
        name = SQUARE_NAMES[square]
        if piece is None:
            self.console.say(f"there is no piece on {name}")
            return
        piece_name = PIECE_NAMES[piece.piece_type]
        if piece.color != board.turn:
            self.console.say(f"the {piece_name} on {name} is {side_name(piece.color)}'s")
            return
        moves = [m for m in board.legal_moves if m.from_square == square]
        if not moves:
            self.console.say(f"the {piece_name} on {name} has no legal moves")
            return
        captures = frozenset(m.to_square for m in moves if board.is_capture(m))
        targets = frozenset(landing_square(board, m) for m in moves)
        marks = self._marks(selected=square, targets=targets, captures=captures)
        self.console.say(self._diagram(marks))
        listed = " ".join(sorted({board.san(m) for m in moves}))
        self.console.say(f"{piece_name} on {name}: {listed}")
