"""Hand edits between moves: ``board.castling_rights = ...`` and ``board.ep_square = ...``.

The ``edited`` source plays games and, now and then, writes the castling rights or the
en-passant square of both boards by hand, as a user of python-chess's API may, on a board with a
move stack (where python-chess no longer filters the castling rights: see ``contract``). An edit
is recorded among the reproducer's moves as a step of its own, ``castling_rights=0x...`` or
``ep_square=e6`` (``ep_square=None``), and :func:`apply_edit` replays it on either library's
board.

The values are chosen to hit what a game never reaches: rights on corners whose rook has left or
was captured, on other back-rank squares, on a rank with no king, on arbitrary squares; en-passant
squares with no pawn behind them, on the wrong rank, or anywhere.
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING, Any

from .checks import CORNERS

if TYPE_CHECKING:  # python-chess loads when the fuzzer runs: see the package docstring
    import chess

CASTLING_RIGHTS = "castling_rights="
EP_SQUARE = "ep_square="


def is_edit(step: str) -> bool:
    """Whether a reproducer step is an edit (not a UCI move)."""
    return step.startswith((CASTLING_RIGHTS, EP_SQUARE))


def apply_edit(board: Any, step: str) -> None:
    """Apply the edit *step* to *board* (python-chess's or pychess_rs's: the same attributes)."""
    import chess

    name, _, value = step.partition("=")
    if name == "castling_rights":
        board.castling_rights = int(value, 16)
    elif name == "ep_square":
        board.ep_square = None if value == "None" else chess.parse_square(value)
    else:
        raise ValueError(f"not an edit: {step!r}")


def castling_rights_step(mask: int) -> str:
    return f"{CASTLING_RIGHTS}{mask:#018x}"


def ep_square_step(square: int | None) -> str:
    import chess

    return f"{EP_SQUARE}{'None' if square is None else chess.square_name(square)}"


def random_castling_rights(rng: Random, board: chess.Board) -> int:
    """A castling-rights mask: mostly rook squares (corners with or without their rook, other
    back-rank squares), sometimes the current rights with a square toggled, or 64 random bits."""
    import chess

    roll = rng.random()
    if roll < 0.5:  # corners, whether a rook is there or not
        return sum(chess.BB_SQUARES[sq] for sq in CORNERS if rng.random() < 0.6)
    if roll < 0.75:  # any back-rank squares (Chess960-style rook squares, kings' squares...)
        mask = 0
        for rank in (0, 7):
            for file in rng.sample(range(8), rng.randint(0, 3)):
                mask |= chess.BB_SQUARES[chess.square(file, rank)]
        return mask
    if roll < 0.9:  # one square more or less than now
        square = rng.choice((*CORNERS, rng.randrange(64)))
        return int(board.castling_rights) ^ chess.BB_SQUARES[square]
    return rng.getrandbits(64)


def random_ep_square(rng: Random, board: chess.Board) -> int | None:
    """An en-passant square: none, one on the rank a double step of the side not to move would
    leave (mostly beside a pawn that could capture, with or without a pawn to capture), or any
    square at all."""
    import chess

    roll = rng.random()
    if roll < 0.15:
        return None
    ep_rank = 5 if board.turn == chess.WHITE else 2
    if roll < 0.8:
        capturers = board.pieces(chess.PAWN, board.turn) & chess.BB_RANKS[4 if board.turn else 3]
        files = sorted(
            {chess.square_file(sq) + side for sq in capturers for side in (-1, 1)} & set(range(8))
        )
        file = rng.choice(files) if files and rng.random() < 0.8 else rng.randrange(8)
        return chess.square(file, ep_rank)
    return rng.randrange(64)


def random_edit(rng: Random, board: chess.Board) -> str:
    """One edit step for *board* (castling rights 60%, en-passant square 40%)."""
    if rng.random() < 0.6:
        return castling_rights_step(random_castling_rights(rng, board))
    return ep_square_step(random_ep_square(rng, board))


def edited_weight(board: chess.Board, move: chess.Move) -> float:
    """Move choice of the ``edited`` games: empty the back rank and move the rooks away from
    their corners (so that rights without their rook and free castling paths come up), keep the
    kings at home, push pawns to the ranks where en passant happens."""
    import chess

    piece = board.piece_type_at(move.from_square)
    back = 0 if board.turn == chess.WHITE else 7
    if piece == chess.KING:
        return 0.2
    if piece == chess.ROOK and move.from_square in CORNERS:
        return 8
    if chess.square_rank(move.from_square) == back:
        return 5
    if piece == chess.PAWN and abs(move.to_square - move.from_square) == 16:
        return 3
    return 1
