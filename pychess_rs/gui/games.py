"""The games the browser plays: their state, the players' actions and the engine's turns.

Nothing here knows about HTTP. Every action either changes the game and returns, or raises
:exc:`GameError` (with the HTTP status the server answers with) and changes nothing. The
engine thinks on a thread of its own per move, so that a request never waits for a search;
a game's lock guards its state against that thread.
"""

from __future__ import annotations

import collections
import secrets
import threading
from typing import Any, Callable

from .._book import BookPath, random_seed
from .._core import Board, Move, variant_position
from ..engine import Limit
from ..play import record
from ..play.engine_player import LEVELS, EnginePlayer, Strength, parse_level
from ..play.render import landing_square, material_balance
from ..play.session import (
    Ending,
    automatic_ending,
    claim_rule,
    claimable_by_moving,
    no_claim_explanation,
    side_name,
)
from ..types import Color
from .turns import GameError, Turns
from .variant_games import VARIANT_NAMES, VariantGame

__all__ = ["MAX_GAMES", "Game", "GameError", "Games", "levels", "status_words", "variants"]

#: Games kept at once; past it the least recently used one is dropped (each engine player
#: holds a hash table, so the number is kept small).
MAX_GAMES = 24

_PROMOTION_LETTERS = {5: "q", 4: "r", 3: "b", 2: "n"}


# python-chess's STATUS_* bits (Board.status()), in words.
_STATUS_WORDS = {
    1 << 0: "no white king",
    1 << 1: "no black king",
    1 << 2: "too many kings",
    1 << 3: "too many white pawns",
    1 << 4: "too many black pawns",
    1 << 5: "pawns on the first or last rank",
    1 << 6: "too many white pieces",
    1 << 7: "too many black pieces",
    1 << 8: "bad castling rights",
    1 << 9: "invalid en passant square",
    1 << 10: "the side not to move is in check",
    1 << 11: "the board is empty",
    1 << 15: "too many checkers",
    1 << 16: "impossible check",
}


def status_words(status: int) -> str:
    """``Board.status()`` flags in words: ``no white king, the board is empty``."""
    words = [text for bit, text in _STATUS_WORDS.items() if status & bit]
    return ", ".join(words) or "an invalid position"


def _color_name(color: Color) -> str:
    return "white" if color else "black"


class Game(Turns[Board]):
    """One game of chess: the board, who plays each side, how it ended, a pending draw
    offer (the turns: :class:`~pychess_rs.gui.turns.Turns`)."""

    def __init__(
        self,
        game_id: str,
        board: Board,
        players: dict[bool, EnginePlayer | None],
        *,
        white_at_bottom: bool,
        spawn: Callable[[Callable[[], None]], None],
    ) -> None:
        super().__init__(game_id, players, white_at_bottom=white_at_bottom, spawn=spawn)
        self.board = board
        self.ending = automatic_ending(board)

    # ---- the rules ----------------------------------------------------------------------

    def _turn(self) -> Color:
        return self.board.turn

    def _view(self) -> Board:
        return self.board.copy()

    def _engine_claim(self, view: Board) -> str | None:
        return claim_rule(view)

    def _play_engine_move(self, move: Move) -> str:
        san = self.board.san(move)
        self.board.push(move)
        self.ending = automatic_ending(self.board)
        return san

    # ---- helpers ------------------------------------------------------------------------

    def _after_move(self, message: str = "") -> None:
        self.ending = automatic_ending(self.board)
        self._changed(message)

    # ---- the players' actions ----------------------------------------------------------

    def move(self, text: str) -> None:
        """Plays ``text`` (SAN or UCI) for the side to move.

        :raises: :exc:`GameError` 400 for a move that cannot be played (with the possible
            promotions as ``promotion`` when ``text`` did not say which piece), 409 when it
            is not a human's turn.
        """
        with self.lock:
            self._require_human_turn()
            kind, moves, message = self.board.read_move(text)
            if kind == "promotion":
                raise GameError(
                    400,
                    message,
                    promotion=[self.board.uci(m) for m in moves],
                )
            if kind != "move":
                raise GameError(400, message)
            self.board.push(moves[0])
            self._after_move()

    def undo(self) -> None:
        """Takes back moves until it is a human's turn again: the last move between humans;
        against the engine, its reply and the human's move before it (or only the human's
        move while the engine is still thinking about it). A finished game comes back to
        life.

        :raises: :exc:`GameError` 409 when there is nothing to take back.
        """
        with self.lock:
            board = self.board
            if not any(self.is_human(c) for c in (True, False)):
                raise GameError(409, "no human plays in this game: there is nothing to undo")
            if not board.move_stack:
                raise GameError(409, "nothing to undo: no move has been played")
            count = 1
            while count < len(board.move_stack) and not self.is_human(
                board.turn if count % 2 == 0 else not board.turn
            ):
                count += 1
            # The i-th ply from the end was played by the side not to move when i is odd.
            movers = [not board.turn if i % 2 else board.turn for i in range(1, count + 1)]
            if not any(self.is_human(c) for c in movers):
                raise GameError(409, "nothing to undo: the engine's move is the only one")
            self._stop_thinking()
            taken = [board.pop() for _ in range(count)][::-1]
            sans = []
            replay = board.copy()
            for move in taken:
                sans.append(replay.san(move))
                replay.push(move)
            self.offer = None
            self.ending = automatic_ending(board)
            self._changed(f"took back {' '.join(sans)}")
        # As after any change: should an engine be to move, it starts thinking.
        self.start_engine()

    def claim(self, text: str | None) -> None:
        """The side to move claims a draw, in the position or with the move ``text``.

        :raises: :exc:`GameError` 409 with the reason when no draw may be claimed, 400 for
            a move that cannot be played.
        """
        with self.lock:
            self._require_human_turn()
            board = self.board
            who = side_name(board.turn)
            if text:
                kind, found, message = board.read_move(text)
                if kind != "move":
                    raise GameError(400, message)
                san = board.san(found[0])
                rule = claim_rule(board, found[0])
                if rule is not None:
                    board.push(found[0])
                    self.ending = Ending(f"Draw claimed: {rule}")
                    self._changed(f"{who} claims a draw with {san}: {rule}.")
                    return
                raise GameError(
                    409,
                    f"no draw to claim with {san}: it neither repeats a position a third time "
                    "nor completes 50 moves without a capture or pawn move",
                )
            rule = claim_rule(board)
            if rule is not None:
                self.ending = Ending(f"Draw claimed: {rule}")
                self._changed(f"{who} claims a draw: {rule}.")
                return
            if moves := claimable_by_moving(board):
                raise GameError(
                    409,
                    f"a draw may be claimed with a move: {' or '.join(moves)} "
                    "(type it in the move box and press Claim)",
                    moves=moves,
                )
            raise GameError(409, no_claim_explanation(board))

    # ---- the engine's turn -------------------------------------------------------------

    # ---- what the page shows -----------------------------------------------------------

    def pgn(self) -> str:
        """The game so far as PGN, with its result and the reason as the final comment."""
        with self.lock:
            ending = self.ending or Ending.unfinished("")
            return record.game_pgn(
                self.board,
                white=self.player_name(True),
                black=self.player_name(False),
                result=ending.result,
                termination=ending.termination,
                comment=ending.announcement() if ending.reason else None,
            ).replace('[Site "pychess-rs play"]', '[Site "pychess-rs gui"]')

    def _state(self) -> dict[str, Any]:
        board = self.board
        pieces: list[str | None] = [None] * 64
        for square, piece in board.piece_map().items():
            pieces[square] = piece.symbol()
        playing = self.ending is None
        legal = []
        if playing and self.is_human(board.turn) and not self.thinking and self.offer is None:
            for move in board.legal_moves:
                legal.append(
                    {
                        "from": move.from_square,
                        "to": landing_square(board, move),
                        "uci": board.uci(move),
                        "san": board.san(move),
                        "capture": board.is_capture(move),
                        "promotion": _PROMOTION_LETTERS.get(move.promotion or 0),
                    }
                )
        root = board.root()
        sans = []
        replay = root.copy()
        for move in board.move_stack:
            sans.append(replay.san(move))
            replay.push(move)
        last = board.peek() if board.move_stack else None
        check = board.king(board.turn) if board.is_check() else None
        ending = self.ending
        claim_now = claim_rule(board) if playing else None
        return {
            "id": self.id,
            "version": self.version,
            "fen": board.fen(),
            "pieces": pieces,
            "pockets": None,
            "turn": _color_name(board.turn),
            "white_at_bottom": self.white_at_bottom,
            "legal": legal,
            "last_move": None
            if last is None
            else {"from": last.from_square, "to": _display_target_after(board, last)},
            "check": check,
            "moves": sans,
            "first_move_number": root.fullmove_number,
            "first_turn": _color_name(root.turn),
            "players": {
                "white": {"name": self.player_name(True), "human": self.is_human(True)},
                "black": {"name": self.player_name(False), "human": self.is_human(False)},
            },
            "thinking": self.thinking,
            "offer": None if self.offer is None else _color_name(self.offer),
            "claim": {
                "now": claim_now is not None,
                "rule": claim_now,
                "by_moving": claimable_by_moving(board) if playing and claim_now is None else [],
            },
            "status": self._status(),
            "ending": None
            if ending is None
            else {
                "reason": ending.reason,
                "result": ending.result,
                "announcement": ending.announcement(),
            },
            "message": self.message,
        }

    def _status(self) -> str:
        board = self.board
        if self.ending is not None:
            return f"Game over. {self.ending.announcement()}"
        side = side_name(board.turn)
        parts = [f"Move {board.fullmove_number}: {side} to move"]
        if self.thinking:
            parts = [f"Move {board.fullmove_number}: {side} (engine) is thinking"]
        balance = material_balance(board)
        if balance:
            parts.append(f"material {side_name(balance > 0)} +{abs(balance)}")
        if board.halfmove_clock >= 20:
            parts.append(f"halfmove clock {board.halfmove_clock} (a draw may be claimed at 100)")
        text = ", ".join(parts) + "."
        if board.is_check():
            text += " Check!"
        return text


def _display_target_after(board: Board, move: Move) -> int:
    # The last move is shown on the squares its piece left and reached: for castling, the
    # king's landing square (the move was played, so ask the position before it).
    before = board.copy(stack=1)
    before.pop()
    return landing_square(before, move)


class Games:
    """The server's games by id, at most :data:`MAX_GAMES` of them (least recently used
    dropped first), with the engine limit, the thread starter and the opening book every game
    shares (each game draws its own book seed unless ``book_seed`` is given)."""

    def __init__(
        self,
        limit: Limit,
        spawn: Callable[[Callable[[], None]], None],
        *,
        book: BookPath | None = None,
        book_seed: int | None = None,
        syzygy: str | None = None,
    ) -> None:
        self.limit = limit
        self.spawn = spawn
        self.book = book
        self.book_seed = book_seed
        self.syzygy = syzygy
        self._games: collections.OrderedDict[str, Game | VariantGame] = collections.OrderedDict()
        self._lock = threading.Lock()

    def new(
        self,
        *,
        white: str,
        black: str,
        level: str,
        fen: str | None,
        white_at_bottom: bool | None = None,
        variant: str = "chess",
    ) -> Game | VariantGame:
        """A new game (of ``variant``, a name of :data:`VARIANT_NAMES`); the engine starts at
        once when it has the first move.

        :raises: :exc:`GameError` 400 for a bad player, level, variant or FEN.
        """
        if variant not in VARIANT_NAMES:
            raise GameError(
                400, f"variant must be one of {', '.join(VARIANT_NAMES)}, got {variant!r}"
            )
        for name, who in (("white", white), ("black", black)):
            if who not in ("human", "engine"):
                raise GameError(400, f"{name} must be 'human' or 'engine', got {who!r}")
        try:
            strength: Strength = parse_level(level)
        except ValueError as e:
            raise GameError(400, str(e)) from None
        board = Board()
        if fen is not None and variant != "chess":
            try:
                variant_position(variant, fen, [])
            except ValueError as e:
                raise GameError(400, f"bad FEN: {e}") from None
        elif fen is not None:
            try:
                board = Board(fen)
            except ValueError as e:
                raise GameError(400, f"bad FEN: {e}") from None
            status = int(board.status())
            if status or not board.is_valid():
                raise GameError(
                    400, f"bad FEN: the position cannot be played: {status_words(status)}"
                )
        seed = self.book_seed if self.book_seed is not None else random_seed()

        def engine() -> EnginePlayer:
            try:
                return EnginePlayer(
                    strength, self.limit, book=self.book, book_seed=seed, syzygy=self.syzygy
                )
            except OSError as e:
                raise GameError(500, f"cannot read the opening book or tables: {e}") from None

        players: dict[bool, EnginePlayer | None] = {
            True: engine() if white == "engine" else None,
            False: engine() if black == "engine" else None,
        }
        if white_at_bottom is None:
            white_at_bottom = not (black == "human" and white == "engine")
        game: Game | VariantGame
        if variant != "chess":
            game = VariantGame(
                secrets.token_hex(8),
                variant,
                fen,
                players,
                white_at_bottom=white_at_bottom,
                spawn=self.spawn,
            )
        else:
            game = Game(
                secrets.token_hex(8),
                board,
                players,
                white_at_bottom=white_at_bottom,
                spawn=self.spawn,
            )
        with self._lock:
            self._games[game.id] = game
            while len(self._games) > MAX_GAMES:
                _, old = self._games.popitem(last=False)
                old.shutdown()
        game.start_engine()
        return game

    def get(self, game_id: str) -> Game | VariantGame:
        """The game ``game_id``.

        :raises: :exc:`GameError` 404 when there is none.
        """
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                raise GameError(
                    404, f"no game {game_id!r} on this server (it was restarted?): start a new one"
                )
            self._games.move_to_end(game_id)
            return game

    def shutdown(self) -> None:
        """Stops every search."""
        with self._lock:
            games = list(self._games.values())
        for game in games:
            game.shutdown()


def levels() -> list[dict[str, str]]:
    """The named engine levels for the new-game form: ``{"value": "3", "name": ...}``."""
    return [{"value": str(n), "name": parse_level(str(n)).name} for n in range(1, LEVELS + 1)]


def variants() -> list[dict[str, str]]:
    """The variants for the new-game form: ``{"value": "atomic", "name": "Atomic"}``."""
    return [{"value": value, "name": name} for value, name in VARIANT_NAMES.items()]
