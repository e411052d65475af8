"""A game of a chess variant in the browser: the same actions and page state as a chess
:class:`~pychess_rs.gui.games.Game`, the rules the Rust core's variant board (through
``_core.variant_position``: the position after the game's UCI moves, its legal moves in UCI
and SAN, the outcome), the engine's variant search behind the same :class:`EnginePlayer`.

Drops (Crazyhouse) are played from the pockets drawn beside the board, or typed in the move
box (``N@f3`` or ``@e4``); the pieces in hand are also in the status line. Draws: by
agreement, or claimed at a threefold repetition.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from .._core import Move, variant_position
from ..play.engine_player import EnginePlayer
from ..play.session import Ending, side_name
from ..types import Color
from .turns import GameError, Turns

__all__ = ["VARIANT_NAMES", "VariantGame"]

#: The variants the new-game form offers (Fairy-Stockfish's names) and their titles.
VARIANT_NAMES = {
    "chess": "Standard chess",
    "3check": "Three-check",
    "antichess": "Antichess",
    "atomic": "Atomic",
    "crazyhouse": "Crazyhouse",
    "giveaway": "Giveaway",
    "horde": "Horde",
    "kingofthehill": "King of the Hill",
    "racingkings": "Racing Kings",
    "suicide": "Suicide",
}

# The core's termination names in words.
_ENDINGS = {
    "Checkmate": "Checkmate",
    "Stalemate": "Stalemate",
    "InsufficientMaterial": "Insufficient material",
    "SeventyfiveMoves": "Seventy-five-move rule",
    "VariantWin": "Variant win",
    "VariantLoss": "Variant win",
    "VariantDraw": "Variant draw",
}

_SQUARES = [f + r for r in "12345678" for f in "abcdefgh"]


@dataclasses.dataclass
class _Position:
    """What :class:`EnginePlayer` hands to ``Engine.play``/``analyse``: a board that names
    its variant, its root and its moves (``Engine`` searches it by the variant's rules)."""

    uci_variant: str
    start: str
    move_stack: list[Move]
    turn: bool

    def root(self) -> _Position:
        return _Position(self.uci_variant, self.start, [], self.turn)

    def fen(self) -> str:
        return self.start


def _square(name: str) -> int:
    return _SQUARES.index(name)


def _pieces(fen: str) -> list[str | None]:
    """The 64 squares of ``fen``'s placement, a1 first (``None`` for empty)."""
    placement = fen.split()[0].split("[", 1)[0]
    pieces: list[str | None] = [None] * 64
    for row, rank in enumerate(placement.split("/")[:8]):
        file = 0
        for c in rank:
            if c.isdigit():
                file += int(c)
            elif c != "~":
                pieces[(7 - row) * 8 + file] = c
                file += 1
    return pieces


def _pockets(fen: str) -> dict[str, dict[str, int]] | None:
    """The pieces in hand of a Crazyhouse ``fen`` (``[QRp]`` after the placement), counted by
    uppercase letter for each side; None for a position without pockets."""
    placement = fen.split()[0]
    if "[" not in placement:
        return None
    pocket = placement.split("[", 1)[1].rstrip("]")
    counts: dict[str, dict[str, int]] = {"white": {}, "black": {}}
    for letter in "PNBRQK":
        for side, symbol in (("white", letter), ("black", letter.lower())):
            if pocket.count(symbol):
                counts[side][letter] = pocket.count(symbol)
    return counts


class VariantGame(Turns[_Position]):
    """One variant game; the interface of :class:`~pychess_rs.gui.games.Game` that the
    server uses (the turns: :class:`~pychess_rs.gui.turns.Turns`)."""

    def __init__(
        self,
        game_id: str,
        variant: str,
        fen: str | None,
        players: dict[bool, EnginePlayer | None],
        *,
        white_at_bottom: bool,
        spawn: Callable[[Callable[[], None]], None],
    ) -> None:
        super().__init__(game_id, players, white_at_bottom=white_at_bottom, spawn=spawn)
        self.variant = variant
        self.start_fen = fen
        self.moves: list[str] = []
        self.position = variant_position(variant, fen, [])
        self.ending = self._automatic_ending()

    # ---- the rules ----------------------------------------------------------------------

    def _turn(self) -> Color:
        return bool(self.position["turn"])

    def _automatic_ending(self) -> Ending | None:
        outcome = self.position["outcome"]
        if outcome is None:
            return None
        result, termination = outcome
        winner = {"1-0": True, "0-1": False}.get(result)
        return Ending(_ENDINGS.get(termination, termination), winner)

    def _view(self) -> _Position:
        return _Position(
            self.variant, self._start(), [Move.from_uci(m) for m in self.moves], self._turn()
        )

    def _start(self) -> str:
        return self.start_fen or str(variant_position(self.variant, None, [])["fen"])

    def _play(self, uci: str) -> None:
        self.moves.append(uci)
        self.position = variant_position(self.variant, self.start_fen, self.moves)
        self.ending = self._automatic_ending()

    def _play_engine_move(self, move: Move) -> str:
        uci = move.uci()
        san: str = self.position["legal_san"][self.position["legal_moves"].index(uci)]
        self._play(uci)
        return san

    # ---- the players' actions ----------------------------------------------------------

    def move(self, text: str) -> None:
        """Plays ``text`` (SAN or UCI, drops ``N@f3``) for the side to move."""
        with self.lock:
            self._require_human_turn()
            legal: list[str] = self.position["legal_moves"]
            sans = [san.rstrip("+#") for san in self.position["legal_san"]]
            if text in legal:
                uci = text
            elif text.rstrip("+#") in sans:
                uci = legal[sans.index(text.rstrip("+#"))]
            else:
                raise GameError(400, f"{text} is not a legal move in {VARIANT_NAMES[self.variant]}")
            self._play(uci)
            self._changed()

    def undo(self) -> None:
        """Takes back the last move between humans; against the engine, back to the human's
        previous turn."""
        with self.lock:
            if not any(self.is_human(c) for c in (True, False)):
                raise GameError(409, "no human plays in this game: there is nothing to undo")
            count = 1
            while count < len(self.moves) and not self.is_human(
                self._turn() if count % 2 == 0 else not self._turn()
            ):
                count += 1
            if len(self.moves) < count or not self.moves:
                raise GameError(409, "nothing to undo: no move of a human has been played")
            self._stop_thinking()
            taken = self.position["san"][-count:]
            del self.moves[-count:]
            self.position = variant_position(self.variant, self.start_fen, self.moves)
            self.offer = None
            self.ending = self._automatic_ending()
            self._changed(f"took back {' '.join(taken)}")
        self.start_engine()

    def claim(self, text: str | None) -> None:
        """A draw by threefold repetition, in the position (a move is not taken)."""
        with self.lock:
            self._require_human_turn()
            if text:
                raise GameError(409, "in a variant, play the move first, then claim")
            if self.position["repetitions"] >= 3:
                self.ending = Ending("Draw claimed: threefold repetition")
                self._changed(f"{side_name(self._turn())} claims a draw: threefold repetition.")
                return
            raise GameError(409, "no draw to claim: the position has not stood three times")

    # ---- the engine's turn -------------------------------------------------------------

    # ---- what the page shows -----------------------------------------------------------

    def pgn(self) -> str:
        """The game as PGN with python-chess's ``Variant`` tag."""
        with self.lock:
            ending = self.ending or Ending.unfinished("")
            headers = [
                '[Event "Casual game"]',
                '[Site "pychess-rs gui"]',
                f'[White "{self.player_name(True)}"]',
                f'[Black "{self.player_name(False)}"]',
                f'[Result "{ending.result}"]',
                f'[Variant "{VARIANT_NAMES[self.variant]}"]',
            ]
            if self.start_fen is not None:
                headers += [f'[FEN "{self.start_fen}"]', '[SetUp "1"]']
            start = variant_position(self.variant, self.start_fen, [])
            number = int(start["fen"].split()[-1])
            white = bool(start["turn"])
            body: list[str] = []
            for i, san in enumerate(self.position["san"]):
                if white:
                    body.append(f"{number}. {san}")
                else:
                    body.append(f"{number}... {san}" if i == 0 else san)
                    number += 1
                white = not white
            return "\n".join(headers) + "\n\n" + " ".join([*body, ending.result]) + "\n"

    def _state(self) -> dict[str, Any]:
        position = self.position
        fen: str = position["fen"]
        pieces = _pieces(fen)
        turn = self._turn()
        playing = self.ending is None
        legal = []
        if playing and self.is_human(turn) and not self.thinking and self.offer is None:
            for uci, san in zip(position["legal_moves"], position["legal_san"]):
                drop = "@" in uci
                to = _square(uci[-2:] if drop else uci[2:4])
                legal.append(
                    {
                        # A drop comes from the pocket: no square, the piece it puts down.
                        "from": None if drop else _square(uci[:2]),
                        "to": to,
                        "uci": uci,
                        "san": san,
                        "capture": "x" in san,
                        "promotion": uci[4] if len(uci) == 5 else None,
                        "drop": drop,
                        "piece": uci[0].upper() if drop else None,
                    }
                )
        last = None
        if self.moves:
            uci = self.moves[-1]
            target = _square(uci[-2:] if "@" in uci else uci[2:4])
            last = {"from": target if "@" in uci else _square(uci[:2]), "to": target}
        king = ("K" if turn else "k") if position["is_check"] else None
        check = next((i for i, p in enumerate(pieces) if king and p == king), None)
        start = variant_position(self.variant, self.start_fen, [])
        ending = self.ending
        return {
            "id": self.id,
            "version": self.version,
            "variant": self.variant,
            "fen": fen,
            "pieces": pieces,
            "pockets": _pockets(fen),
            "turn": "white" if turn else "black",
            "white_at_bottom": self.white_at_bottom,
            "legal": legal,
            "last_move": last,
            "check": check,
            "moves": list(position["san"]),
            "first_move_number": int(start["fen"].split()[-1]),
            "first_turn": "white" if start["turn"] else "black",
            "players": {
                "white": {"name": self.player_name(True), "human": self.is_human(True)},
                "black": {"name": self.player_name(False), "human": self.is_human(False)},
            },
            "thinking": self.thinking,
            "offer": None if self.offer is None else ("white" if self.offer else "black"),
            "claim": {
                "now": playing and position["repetitions"] >= 3,
                "rule": "threefold repetition" if position["repetitions"] >= 3 else None,
                "by_moving": [],
            },
            "status": self._status(fen, turn),
            "ending": None
            if ending is None
            else {
                "reason": ending.reason,
                "result": ending.result,
                "announcement": ending.announcement(),
            },
            "message": self.message,
        }

    def _status(self, fen: str, turn: Color) -> str:
        name = VARIANT_NAMES[self.variant]
        if self.ending is not None:
            return f"{name}. Game over. {self.ending.announcement()}"
        number = fen.split()[-1]
        side = side_name(turn)
        doing = f"{side} (engine) is thinking" if self.thinking else f"{side} to move"
        text = f"{name}. Move {number}: {doing}."
        pockets = _pockets(fen)
        if pockets is not None:
            white, black = (
                "".join(letter * n for letter, n in pockets[side].items()) or "-"
                for side in ("white", "black")
            )
            text += f" In hand: White {white}, Black {black.lower()}."
        if self.variant == "3check":
            checks = fen.split()[4] if "+" in fen.split()[4] else ""
            if checks:
                text += f" Checks left {checks}."
        if self.position["is_check"]:
            text += " Check!"
        return text
