"""The game record: PGN out (one function, :func:`game_pgn`) and the mainline of a PGN in
(:func:`read_mainline`, for ``--pgn``)."""

from __future__ import annotations

import datetime
import re

from .._core import Board
from ..types import STARTING_FEN

__all__ = ["PgnError", "game_pgn", "read_mainline"]


class PgnError(ValueError):
    """A PGN whose mainline cannot be replayed."""


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(text: str, width: int = 79) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def game_pgn(
    board: Board,
    *,
    white: str,
    black: str,
    result: str,
    termination: str,
    comment: str | None = None,
    date: datetime.date | None = None,
) -> str:
    """The game that led to ``board`` (from ``board.root()`` along its move stack) as PGN:
    the Seven Tag Roster, ``Termination``, ``SetUp``/``FEN`` when it did not start from the
    standard position and ``Variant`` for Chess960; ``comment`` closes the movetext."""
    root = board.root()
    day = date or datetime.date.today()
    tags = [
        ("Event", "Casual game"),
        ("Site", "pychess-rs play"),
        ("Date", day.strftime("%Y.%m.%d")),
        ("Round", "-"),
        ("White", white),
        ("Black", black),
        ("Result", result),
        ("Termination", termination),
    ]
    if board.chess960:
        tags.append(("Variant", "Chess960"))
    if board.chess960 or root.fen() != STARTING_FEN:
        tags += [("SetUp", "1"), ("FEN", root.fen())]
    movetext = root.variation_san(board.move_stack)
    if comment:
        movetext = f"{movetext} {{{comment}}}" if movetext else f"{{{comment}}}"
    movetext = f"{movetext} {result}" if movetext else result
    header = "\n".join(f'[{name} "{_quote(value)}"]' for name, value in tags)
    return header + "\n\n" + "\n".join(_wrap(movetext)) + "\n"


_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_COMMENT = re.compile(r"\{[^}]*\}|;[^\n]*")
_NOISE = re.compile(r"\$\d+|\d+\.(\.\.)?|\.\.\.|1-0|0-1|1/2-1/2|\*")


def _strip_variations(text: str) -> str:
    out = []
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(char)
    return "".join(out)


def read_mainline(text: str) -> Board:
    """The position after the mainline of the first game in ``text``, with its moves on
    the board's stack (``FEN`` and ``Variant`` tags honoured).

    :raises: :exc:`PgnError` naming the first move that cannot be played.
    """
    tags: dict[str, str] = {}
    body: list[str] = []
    seen_moves = False
    for line in text.splitlines():
        match = _TAG.match(line.strip())
        if match and not seen_moves:
            tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
        elif line.strip():
            if match:  # the tags of a second game
                break
            seen_moves = True
            body.append(line)
    chess960 = tags.get("Variant", "").lower() in ("chess960", "chess 960", "fischerandom")
    try:
        board = Board(tags.get("FEN", STARTING_FEN), chess960=chess960)
    except ValueError as e:
        raise PgnError(f"bad FEN tag: {e}") from None
    movetext = _strip_variations(_COMMENT.sub(" ", "\n".join(body)))
    for token in _NOISE.sub(" ", movetext).split():
        kind, moves, message = board.read_move(token)
        if kind != "move":
            raise PgnError(f"move {len(board.move_stack) + 1} of the PGN: {message}")
        board.push(moves[0])
    return board
