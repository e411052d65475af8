"""Every castling-rights query against python-chess on castling rights written by hand.

``board.castling_rights = mask`` takes any bitmask. Before the first move python-chess filters
it (``clean_castling_rights()``); once a move was pushed it takes the mask as it is, so rights
can sit on a king's own square, on a back rank the king has left, beside two kings, or off the
back ranks altogether. A seeded loop builds thousands of such boards (random games from the
standard and Chess960 starts, and random placements with zero to two kings per side anywhere),
with and without a move stack, writes a random mask on both libraries' boards and compares
each query that reads the rights.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import chess
import chess.polyglot
import pytest

import pychess_rs
import pychess_rs.polyglot

SEED = 20240527
CASES = 2500

BACK_RANKS = [*range(0, 8), *range(56, 64)]


def random_mask(rng: random.Random, board: chess.Board) -> int:
    """Mostly back-rank squares (rook squares, king squares, empty ones), sometimes the rights
    now with one square toggled, sometimes 64 random bits."""
    roll = rng.random()
    if roll < 0.6:
        return sum(1 << sq for sq in BACK_RANKS if rng.random() < 0.25)
    if roll < 0.75:
        kings = board.kings & chess.BB_BACKRANKS
        return kings | sum(1 << sq for sq in BACK_RANKS if rng.random() < 0.2)
    if roll < 0.9:
        return int(board.castling_rights) ^ (1 << rng.choice([*BACK_RANKS, rng.randrange(64)]))
    return rng.getrandbits(64)


def random_placement(rng: random.Random) -> str:
    """A FEN with zero to two kings per side (mostly one, mostly on its back rank), rooks
    mostly on the back ranks and a few other pieces anywhere."""
    board = chess.Board.empty()
    free = set(range(64))

    def put(piece: str, squares: list[int]) -> None:
        choices = [sq for sq in squares if sq in free] or sorted(free)
        square = rng.choice(choices)
        free.discard(square)
        board.set_piece_at(square, chess.Piece.from_symbol(piece))

    for color in chess.COLORS:
        back = list(range(0, 8)) if color == chess.WHITE else list(range(56, 64))
        kings = rng.choices([0, 1, 2], weights=[1, 8, 3])[0]
        for _ in range(kings):
            put("K" if color else "k", back if rng.random() < 0.8 else list(range(64)))
        for _ in range(rng.randint(0, 3)):
            put("R" if color else "r", back if rng.random() < 0.8 else list(range(64)))
        for _ in range(rng.randint(0, 3)):
            put(rng.choice("NBQ") if color else rng.choice("nbq"), list(range(64)))
    board.turn = rng.random() < 0.5
    return board.fen()


def boards(rng: random.Random) -> Iterator[tuple[chess.Board, pychess_rs.Board]]:
    """Pairs of equal boards, with or without a move stack, rights not yet edited."""
    for _ in range(CASES):
        roll = rng.random()
        if roll < 0.6:
            chess960 = rng.random() < 0.4
            if chess960:
                n = rng.randrange(960)
                oracle = chess.Board.from_chess960_pos(n)
                board = pychess_rs.Board.from_chess960_pos(n)
            else:
                oracle, board = chess.Board(), pychess_rs.Board()
            plies = rng.randint(0, 40)
        else:
            chess960 = rng.random() < 0.5
            fen = random_placement(rng)
            oracle = chess.Board(fen, chess960=chess960)
            board = pychess_rs.Board(fen, chess960=chess960)
            plies = rng.choice([0, 0, 1, 2])
        for _ in range(plies):
            moves = list(oracle.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            board.push_uci(move.uci())
            oracle.push(move)
        if oracle.move_stack and rng.random() < 0.3:
            # The same position without its stack: python-chess filters the mask now.
            oracle = chess.Board(oracle.fen(), chess960=oracle.chess960)
            board = pychess_rs.Board(board.fen(), chess960=board.chess960)
        yield oracle, board


def python_chess_answers(board: chess.Board) -> dict[str, Any]:
    """python-chess's answers, but for one slip: when the clean rights are not empty yet none of
    them is on a back rank (a mask written after moves), its Shredder-FEN castling field is
    empty, and ``fen(shredder=True)`` has an empty field that no FEN reader takes back; ours
    writes ``-`` there (see ``test_shredder_fen_of_rights_off_the_back_ranks``)."""
    out = answers(board, chess.polyglot.zobrist_hash)
    if out["castling_shredder_fen"] == "":
        out["castling_shredder_fen"] = "-"
        out["shredder_fen"] = out["shredder_fen"].replace("  ", " - ", 1)
    return out


def answers(board: Any, polyglot_hash: Any) -> dict[str, Any]:
    """Every castling-rights query of *board* (either library's)."""
    out: dict[str, Any] = {
        "castling_rights": int(board.castling_rights),
        "clean_castling_rights": int(board.clean_castling_rights()),
        "has_chess960_castling_rights": board.has_chess960_castling_rights(),
        "castling_xfen": board.castling_xfen(),
        "castling_shredder_fen": board.castling_shredder_fen(),
        "fen": board.fen(),
        "shredder_fen": board.fen(shredder=True),
        "zobrist_hash": polyglot_hash(board),
        "status": int(board.status()),
        "is_valid": board.is_valid(),
    }
    for color in chess.COLORS:
        name = "white" if color else "black"
        out[f"has_castling_rights({name})"] = board.has_castling_rights(color)
        out[f"has_kingside_castling_rights({name})"] = board.has_kingside_castling_rights(color)
        out[f"has_queenside_castling_rights({name})"] = board.has_queenside_castling_rights(color)
    return out


def test_castling_queries_agree_with_python_chess_on_any_mask() -> None:
    rng = random.Random(SEED)
    seen = {"stack": 0, "no stack": 0, "right on a king": 0, "king off its rights' rank": 0}
    for oracle, board in boards(rng):
        mask = random_mask(rng, oracle)
        oracle.castling_rights = mask
        board.castling_rights = mask
        expected = python_chess_answers(oracle)
        got = answers(board, pychess_rs.polyglot.zobrist_hash)
        context = (oracle.fen(), [m.uci() for m in oracle.move_stack], hex(mask), oracle.chess960)
        assert got == expected, context

        # python-chess's repetition identity follows the clean rights: a second mask on the same
        # position gives an equal key exactly when ours says the snapshots are equal.
        other_mask = random_mask(rng, oracle)
        other_oracle, other_board = oracle.copy(), board.copy()
        other_oracle.castling_rights = other_mask
        other_board.castling_rights = other_mask
        same_key = oracle._transposition_key() == other_oracle._transposition_key()
        assert (board.snapshot() == other_board.snapshot()) == same_key, (*context, other_mask)

        clean = oracle.clean_castling_rights()
        seen["stack" if oracle.move_stack else "no stack"] += 1
        seen["right on a king"] += bool(clean & oracle.kings)
        for color in chess.COLORS:
            backrank = chess.BB_RANK_1 if color else chess.BB_RANK_8
            if clean & backrank and not oracle.kings & oracle.occupied_co[color] & backrank:
                seen["king off its rights' rank"] += 1
    assert min(seen.values()) > 100, seen


@pytest.mark.parametrize(
    "moves, mask, expected",
    [
        # A right on the king's own square is neither kingside nor queenside.
        (["a1a2", "e8d8"], chess.BB_E1, (True, False, False)),
        # The king left the back rank: a right there is still a right, on neither side.
        (["e1e2", "e8d8"], chess.BB_H1, (True, False, False)),
        (["a1a2", "e8d8"], chess.BB_H1 | chess.BB_A1, (True, True, True)),
    ],
)
def test_hand_written_rights_after_moves(
    moves: list[str], mask: int, expected: tuple[bool, bool, bool]
) -> None:
    """The two queries python-chess answers differently from what a king-relative reading of
    the rights would suggest, as named examples."""
    for library in (chess, pychess_rs):
        board: Any = library.Board("4k3/8/8/8/8/8/8/R3K2R w - - 0 1")
        for uci in moves:
            board.push_uci(uci)
        board.castling_rights = mask
        assert (
            board.has_castling_rights(chess.WHITE),
            board.has_kingside_castling_rights(chess.WHITE),
            board.has_queenside_castling_rights(chess.WHITE),
        ) == expected, library.__name__


def test_shredder_fen_of_rights_off_the_back_ranks() -> None:
    """A right written on e4 after moves is kept (python-chess takes such rights as they are)
    but has no letter: python-chess writes an empty castling field, we write ``-`` so that the
    FEN reads back."""
    oracle, board = chess.Board(), pychess_rs.Board()
    for b in (oracle, board):
        b.push_uci("g1f3")
        b.castling_rights = chess.BB_E4
    assert oracle.castling_shredder_fen() == ""
    assert oracle.fen(shredder=True).endswith(" b  - 1 1")
    assert int(board.clean_castling_rights()) == chess.BB_E4
    assert board.castling_shredder_fen() == board.castling_xfen() == "-"
    fen = board.fen(shredder=True)
    assert fen == "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b - - 1 1"
    assert pychess_rs.Board(fen).fen(shredder=True) == fen
