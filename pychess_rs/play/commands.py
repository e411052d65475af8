"""The words a player can type besides moves."""

from __future__ import annotations

import dataclasses

__all__ = ["COMMANDS", "HELP", "Command", "parse_command"]

#: Command name -> (argument, one-line description), in the order ``help`` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "moves": ("[square]", "list the legal moves, or show where the piece on a square can go"),
    "undo": ("", "take back your last move (and the engine's reply)"),
    "hint": ("", "the engine's best move and its evaluation"),
    "flip": ("", "turn the board around"),
    "fen": ("", "print the position as FEN"),
    "pgn": ("", "print the game so far as PGN"),
    "resign": ("", "give up the game"),
    "draw": ("", "offer a draw"),
    "claim": (
        "[move]",
        "claim a draw by threefold repetition or the 50-move rule (with a move: play it, "
        "then claim)",
    ),
    "stop": ("", "while the engine thinks: make it move now (Ctrl-C does the same)"),
    "help": ("", "this list"),
    "quit": ("", "leave (the game is written as PGN)"),
}

_ALIASES = {"exit": "quit", "q": "quit", "?": "help", "h": "help", "move": "moves"}

HELP = (
    "Type a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q); `x`, `+`, `#` and "
    "`=` may be left out.\nCommands:\n"
    + "\n".join(
        f"  {(name + ' ' + argument).strip():<16}{text}"
        for name, (argument, text) in COMMANDS.items()
    )
)


@dataclasses.dataclass(frozen=True)
class Command:
    """A command and its argument (empty when none was given)."""

    name: str
    argument: str


def parse_command(line: str) -> Command | None:
    """The command ``line`` gives, or ``None`` when it is not one (a move, or garbage for
    the move reader to explain)."""
    words = line.split()
    if not words:
        return None
    name = words[0].lower()
    name = _ALIASES.get(name, name)
    if name not in COMMANDS:
        return None
    return Command(name, " ".join(words[1:]))
