"""What every game in the browser does the same way, whatever its rules: who plays each side,
whose turn it is, draw offers and resignation, and the engine's turns on a thread of their own.

:class:`~pychess_rs.gui.games.Game` (chess, on a :class:`Board`) and
:class:`~pychess_rs.gui.variant_games.VariantGame` (a variant, through the core's variant
positions) build on :class:`Turns` and supply the rules: the side to move, what an engine
searches, playing the engine's move, and the page's state.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from typing import Any, Callable, Generic, TypeVar

from .._core import Move
from ..play.engine_player import EnginePlayer
from ..play.session import Ending, side_name
from ..types import Color

__all__ = ["GameError", "Turns"]

#: What an engine searches: a copy of the board, or a variant position.
View = TypeVar("View")


class GameError(Exception):
    """A request the game refuses, with the HTTP status that says why (400 malformed, 404
    unknown, 409 not now) and a message for the player."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


class Turns(ABC, Generic[View]):
    """One game's players and turns. A subclass gives the rules (the abstract methods) and
    sets ``ending`` once its position is built."""

    def __init__(
        self,
        game_id: str,
        players: dict[bool, EnginePlayer | None],
        *,
        white_at_bottom: bool,
        spawn: Callable[[Callable[[], None]], None],
    ) -> None:
        self.id = game_id
        self.spawn = spawn
        self.players = players
        self.white_at_bottom = white_at_bottom
        self.ending: Ending | None = None
        #: The colour whose draw offer waits for a human opponent's answer.
        self.offer: Color | None = None
        #: The last thing the game has to tell the players (a declined offer, say).
        self.message = ""
        #: Counts every change; the page polls and redraws when it moves.
        self.version = 0
        #: Bumped by whatever makes a running search stale (undo, resign, ...).
        self.generation = 0
        self.thinking = False
        self.lock = threading.RLock()
        # One search at a time per game: a stale search may still be winding down.
        self.engine_lock = threading.Lock()

    # ---- the rules, from the subclass --------------------------------------------------

    @abstractmethod
    def _turn(self) -> Color:
        """The side to move."""

    @abstractmethod
    def _view(self) -> View:
        """The position as an engine searches it (taken under the lock)."""

    def _engine_claim(self, view: View) -> str | None:
        """The draw the engine may claim before moving in ``view`` (its rule), if any."""
        return None

    @abstractmethod
    def _play_engine_move(self, move: Move) -> str:
        """Plays the engine's ``move`` (legal in the current position) and returns its SAN."""

    @abstractmethod
    def _state(self) -> dict[str, Any]:
        """Everything the page draws (taken under the lock)."""

    # ---- helpers ------------------------------------------------------------------------

    def _changed(self, message: str = "") -> None:
        self.version += 1
        self.message = message

    def player_name(self, color: Color) -> str:
        """``Human`` or the engine's name with its level."""
        player = self.players[color]
        return "Human" if player is None else player.name

    def is_human(self, color: Color) -> bool:
        """Whether a person plays ``color``."""
        return self.players[color] is None

    def _require_playing(self) -> None:
        if self.ending is not None:
            raise GameError(409, f"the game is over: {self.ending.announcement()}")

    def _require_human_turn(self) -> None:
        self._require_playing()
        if self.thinking or not self.is_human(self._turn()):
            raise GameError(409, "it is the engine's move: wait for it to play")
        if self.offer is not None:
            raise GameError(
                409,
                f"{side_name(self.offer)} has offered a draw: "
                f"{side_name(not self.offer)} must accept or decline it first",
            )

    # ---- the players' actions ----------------------------------------------------------

    def resign(self, color: Color | None) -> None:
        """``color`` resigns (default: the human, or the side to move between humans).

        :raises: :exc:`GameError` 400 when an engine is named, 409 when the game is over.
        """
        with self.lock:
            self._require_playing()
            if color is None:
                turn = self._turn()
                humans = [c for c in (turn, not turn) if self.is_human(c)]
                if not humans:
                    raise GameError(409, "no human plays in this game: nobody can resign")
                color = humans[0]
            elif not self.is_human(color):
                raise GameError(400, f"{side_name(color)} is the engine: only a human resigns")
            self._stop_thinking()
            self.offer = None
            self.ending = Ending(f"{side_name(color)} resigns", not color)
            self._changed()

    def offer_draw(self) -> Color | None:
        """The side to move offers a draw. A human opponent is asked (see :meth:`answer`);
        for an engine opponent the offering colour is returned, and the caller asks
        :meth:`engine_answer` (a search) off the event loop.

        :raises: :exc:`GameError` 409 when it is not a human's turn or an offer waits.
        """
        with self.lock:
            self._require_human_turn()
            offerer = self._turn()
            if self.is_human(not offerer):
                self.offer = offerer
                self._changed(
                    f"{side_name(offerer)} offers a draw: {side_name(not offerer)}, "
                    "accept or decline"
                )
                return None
            # The engine's answer is a search: the game waits for it like for a move.
            self.thinking = True
            self._changed(f"{side_name(offerer)} offers a draw; the engine is deciding...")
            return offerer

    def engine_answer(self, offerer: Color) -> None:
        """The engine opponent of ``offerer`` answers the draw offer from its evaluation
        (blocking: run it on a worker thread)."""
        opponent = not offerer
        player = self.players[opponent]
        if player is None:
            raise GameError(409, "the opponent is a human: they answer the offer")
        with self.lock:
            view = self._view()
            generation = self.generation
        try:
            with self.engine_lock:
                accepted = player.accepts_draw(view, opponent)  # type: ignore[arg-type]
        finally:
            with self.lock:
                if generation == self.generation:
                    self.thinking = False
        with self.lock:
            if generation != self.generation or self.ending is not None:
                raise GameError(409, "the game changed while the engine was deciding")
            if accepted:
                self.ending = Ending("Draw by agreement")
                self._changed(f"{side_name(opponent)} accepts the draw.")
            else:
                self._changed(f"{side_name(opponent)} declines the draw. Play on.")

    def answer(self, accept: bool) -> None:
        """The human opponent answers the pending draw offer.

        :raises: :exc:`GameError` 409 when no offer waits.
        """
        with self.lock:
            self._require_playing()
            if self.offer is None:
                raise GameError(409, "there is no draw offer to answer")
            opponent = not self.offer
            self.offer = None
            if accept:
                self.ending = Ending("Draw by agreement")
                self._changed(f"{side_name(opponent)} accepts the draw.")
            else:
                self._changed(f"{side_name(opponent)} declines the draw. Play on.")

    def flip(self) -> None:
        """Turns the board round (kept with the game, so a reload shows it the same way)."""
        with self.lock:
            self.white_at_bottom = not self.white_at_bottom
            self._changed(self.message)

    # ---- the engine's turn -------------------------------------------------------------

    def _stop_thinking(self) -> None:
        self.generation += 1
        if self.thinking:
            for player in self.players.values():
                if player is not None:
                    player.stop()
            self.thinking = False

    def engine_to_move(self) -> EnginePlayer | None:
        """The engine that must move now and is not yet thinking, if any."""
        with self.lock:
            if self.ending is not None or self.thinking:
                return None
            return self.players[self._turn()]

    def start_engine(self) -> None:
        """Starts the engine's search on a thread (``spawn``) when it is its turn."""
        with self.lock:
            player = self.engine_to_move()
            if player is None:
                return
            self.thinking = True
            self._changed(self.message)
            view = self._view()
            color = self._turn()
            generation = self.generation

        def search() -> None:
            self._search(player, view, color, generation)

        self.spawn(search)

    def _search(self, player: EnginePlayer, view: View, color: Color, generation: int) -> None:
        claim: str | None = None
        move: Move | None = None
        failure = ""
        try:
            with self.engine_lock:
                with self.lock:
                    if generation != self.generation:
                        return
                claim = self._engine_claim(view)
                if claim is not None and not player.accepts_draw(view, color):  # type: ignore[arg-type]
                    claim = None
                if claim is None:
                    move = player.think(view)  # type: ignore[arg-type]
        except Exception as e:  # reported to the players, never kills the server
            failure = f"the engine failed: {e}"
        with self.lock:
            if generation != self.generation:
                return
            self.thinking = False
            if failure:
                self._changed(failure)
                return
            if claim is not None:
                self.ending = Ending(f"Draw claimed: {claim}")
                self._changed(f"{side_name(color)} claims a draw: {claim}.")
                return
            if move is None:
                self.ending = Ending.unfinished("The engine found no move")
                self._changed()
                return
            san = self._play_engine_move(move)
            self._changed(f"{side_name(color)} plays {san}")
        # Engine against engine: the next move starts at once.
        self.start_engine()

    def shutdown(self) -> None:
        """Stops a running search (the server is going away)."""
        with self.lock:
            self._stop_thinking()

    # ---- what the page shows -----------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything the page draws, as JSON-ready data."""
        with self.lock:
            return self._state()
