"""``pychess-rs play --variant NAME``: a game of a chess variant in the terminal.

The rules are the Rust core's variant board, reached through ``_core.variant_position`` (the
position after the game's UCI moves: FEN, legal moves in UCI and SAN, outcome); the engine
is :meth:`Engine.play_variant`. A smaller loop than chess's :mod:`.session`: moves (SAN or
UCI, drops as ``N@f3``), ``moves``, ``fen``, ``undo``, ``resign``, ``help`` and ``quit``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import IO, Any

from .._core import variant_position
from ..engine import Engine, Limit
from .engine_player import Strength

__all__ = ["VariantGame"]

_HELP = (
    "moves in SAN (Nf3, exd5, N@f3) or UCI (g1f3, N@f3); commands: moves (the legal ones),"
    " fen, undo, resign, help, quit"
)


def diagram(fen: str) -> str:
    """The placement of ``fen`` as eight lines of letters (White's pieces upper case), the
    eighth rank first, with the pockets of a Crazyhouse FEN below."""
    placement = fen.split()[0]
    pockets = ""
    if "[" in placement:
        placement, pockets = placement.rstrip("]").split("[", 1)
    rows = []
    for number, rank in zip(range(8, 0, -1), placement.split("/")[:8]):
        squares = "".join("." * int(c) if c.isdigit() else c for c in rank.replace("~", ""))
        rows.append(f"{number} {' '.join(squares)}")
    rows.append("  a b c d e f g h")
    if pockets or "[" in fen.split()[0]:
        rows.append(f"in hand: {pockets or '-'}")
    return "\n".join(rows)


@dataclasses.dataclass
class VariantGame:
    """One game of ``variant``: ``engines`` maps a colour (``True`` White) to the engine's
    strength, a colour missing from it is a human at ``stdin``."""

    variant: str
    engines: dict[bool, Strength]
    limit: Limit
    stdin: IO[str]
    stdout: IO[str]
    fen: str | None = None
    moves: list[str] = dataclasses.field(default_factory=list)
    save: Path | None = None
    result: str = "*"

    def __post_init__(self) -> None:
        self._engines = {
            color: Engine(hash_mb=16, limit_elo=strength.elo)
            for color, strength in self.engines.items()
        }
        self.state = variant_position(self.variant, self.fen, self.moves)

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def _play(self, move: str) -> None:
        self.moves.append(move)
        self.state = variant_position(self.variant, self.fen, self.moves)

    def _read(self, text: str) -> str | None:
        """The legal UCI move ``text`` names (UCI or SAN, check signs optional)."""
        legal: list[str] = self.state["legal_moves"]
        if text in legal:
            return text
        sans = [san.rstrip("+#") for san in self.state["legal_san"]]
        wanted = text.rstrip("+#")
        if wanted in sans:
            return legal[sans.index(wanted)]
        return None

    def _human(self) -> bool:
        """One human turn; ``False`` when the game is abandoned (quit, resign, end of input)."""
        while True:
            self.stdout.write("your move: ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                return False
            text = line.strip()
            if not text:
                continue
            if text in ("quit", "exit"):
                return False
            if text == "resign":
                self.result = "0-1" if self.state["turn"] else "1-0"
                self.say(f"{self.result} (resignation)")
                return False
            if text == "help":
                self.say(_HELP)
            elif text == "fen":
                self.say(self.state["fen"])
            elif text == "moves":
                self.say(" ".join(self.state["legal_san"]))
            elif text == "undo":
                # Back to the human's previous turn (the engine's reply goes too).
                drop = 2 if self._engines else 1
                if len(self.moves) >= drop:
                    del self.moves[-drop:]
                    self.state = variant_position(self.variant, self.fen, self.moves)
                    self.say(diagram(self.state["fen"]))
                else:
                    self.say("nothing to undo")
            else:
                move = self._read(text)
                if move is not None:
                    self._play(move)
                    return True
                self.say(f"illegal move {text!r} in {self.variant}; type moves for the legal ones")

    def pgn(self) -> str:
        """The game so far as PGN, with python-chess's ``Variant`` tag."""
        names = {"3check": "Three-check", "kingofthehill": "King of the Hill"}
        variant = names.get(self.variant, self.variant.capitalize())
        if self.variant == "racingkings":
            variant = "Racing Kings"
        headers = [f'[Variant "{variant}"]', f'[Result "{self.result}"]']
        if self.fen is not None:
            headers += [f'[FEN "{self.fen}"]', '[SetUp "1"]']
        state = variant_position(self.variant, self.fen, self.moves)
        black_first = self.fen is not None and self.fen.split()[1] == "b"
        number = int(self.fen.split()[-1]) if self.fen is not None else 1
        body: list[str] = []
        for i, san in enumerate(state["san"]):
            white_to_move = (i % 2 == 0) != black_first
            if white_to_move:
                body.append(f"{number}. {san}")
            else:
                body.append(f"{number}... {san}" if i == 0 else san)
                number += 1
        return "\n".join(headers) + "\n\n" + " ".join([*body, self.result]) + "\n"

    def run(self) -> int:
        """Plays until the game ends or a human leaves; returns the exit status (0)."""
        try:
            return self._loop()
        finally:
            if self.save is not None:
                self.save.write_text(self.pgn(), encoding="utf-8")

    def _loop(self) -> int:
        self.say(f"{self.variant}: {self.state['fen']}")
        while True:
            state: dict[str, Any] = self.state
            self.say(diagram(state["fen"]))
            if state["outcome"] is not None:
                self.result, termination = state["outcome"]
                self.say(f"{self.result} ({termination})")
                return 0
            if state["repetitions"] >= 3:
                self.result = "1/2-1/2"
                self.say("1/2-1/2 (threefold repetition)")
                return 0
            turn = bool(state["turn"])
            engine = self._engines.get(turn)
            if engine is None:
                if not self._human():
                    return 0
                continue
            played = engine.play_variant(self.variant, self.fen, self.moves, self.limit)
            if played.move is None:
                return 0
            uci = played.move.uci()
            san = self.state["legal_san"][self.state["legal_moves"].index(uci)]
            self.say(f"{'White' if turn else 'Black'} plays {san}")
            self._play(uci)
