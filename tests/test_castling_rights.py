"""Castling rights written by hand whose rook is not on its square (issue 27).

python-chess trusts the castling rights once a move was played (``clean_castling_rights()``
returns them as they are) and lists castling with a right whose rook is gone; pushing it
creates a rook (or turns the piece standing there into one, or jumps the king). A board never
creates material: we list no such move and ``push`` refuses it, naming the missing rook, with
the board unchanged. What the board *says* about its rights (FEN, ``status()``,
``is_valid()``, ``clean_castling_rights()``, ``has_*_castling_rights()``) stays
python-chess's, compared below with python-chess 1.11.2 as the oracle (docs/python-chess.md, "What
differs").
"""

from __future__ import annotations

import chess
import pytest

import pychess_rs

STANDARD = "r3k2r/1pppppp1/p6p/8/8/P6P/1PPPPPP1/R3K2R w KQkq - 0 1"
CHESS960 = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"

# (start, Chess960, moves played first (the rook leaves its square: python-chess's
# remove_piece_at would clear the move stack), the right's square, castling as pushed, as
# SAN, the other side's castling and its rook, which stays).
CASES = [
    (STANDARD, False, "a1a2 e7e6", "a1", "e1c1", "O-O-O", "e1g1", "h1"),
    (STANDARD, False, "h1h2 e7e6", "h1", "e1g1", "O-O", "e1c1", "a1"),
    (STANDARD, False, "e2e3 a8a7 e3e4", "a8", "e8c8", "O-O-O", "e8g8", "h8"),
    (STANDARD, False, "e2e3 h8h7 e3e4", "h8", "e8g8", "O-O", "e8c8", "a8"),
    (CHESS960, True, "b1a1 e7e6", "b1", "e1b1", "O-O-O", "e1g1", "g1"),
    (CHESS960, True, "g1h1 e7e6", "g1", "e1g1", "O-O", "e1b1", "b1"),
    (CHESS960, True, "e2e3 b8a8 e3e4", "b8", "e8b8", "O-O-O", "e8g8", "g8"),
    (CHESS960, True, "e2e3 g8h8 e3e4", "g8", "e8g8", "O-O", "e8b8", "b8"),
]
CASE_IDS = [
    f"{'chess960-' if chess960 else ''}{'white' if gone[1] == '1' else 'black'}-{san}"
    for _, chess960, _, gone, _, san, _, _ in CASES
]


def edited(
    module: object, fen: str, chess960: bool, moves: str, rights: int, stack: bool
) -> object:
    """The board after `moves` (or a new board of that position without them), with
    `rights` written."""
    board = module.Board(fen, chess960=chess960)  # type: ignore[attr-defined]
    for uci in moves.split():
        board.push_uci(uci)
    if not stack:
        board = module.Board(board.fen(), chess960=chess960)  # type: ignore[attr-defined]
    board.castling_rights = rights
    return board


@pytest.mark.parametrize("stack", [True, False], ids=["with-stack", "without-stack"])
@pytest.mark.parametrize(
    ("fen", "chess960", "moves", "gone", "castle", "san", "other", "other_rook"),
    CASES,
    ids=CASE_IDS,
)
def test_castling_without_its_rook_is_never_listed_and_push_refuses_it(
    fen: str,
    chess960: bool,
    moves: str,
    gone: str,
    castle: str,
    san: str,
    other: str,
    other_rook: str,
    stack: bool,
) -> None:
    rights = (
        chess.BB_SQUARES[chess.parse_square(gone)]
        | chess.BB_SQUARES[chess.parse_square(other_rook)]
    )
    board = edited(pychess_rs, fen, chess960, moves, rights, stack)
    oracle = edited(chess, fen, chess960, moves, rights, stack)
    assert isinstance(board, pychess_rs.Board) and isinstance(oracle, chess.Board)
    assert board.fen() == oracle.fen()
    move = pychess_rs.Move.from_uci(castle)
    color = "white" if board.turn == chess.WHITE else "black"
    message = f"no {color} rook on {gone} to castle with"

    # Not listed, not legal, not even pseudo-legal.
    assert move not in board.legal_moves
    assert move not in board.pseudo_legal_moves
    assert not board.is_legal(move)
    assert not board.is_pseudo_legal(move)
    assert not any(m.to_square == chess.parse_square(gone) for m in board.generate_castling_moves())
    assert board.legal_moves.count() == len(list(board.legal_moves))

    # python-chess lists it once moves were played (in Chess960 only where the king's target
    # is not the right's square), and pushing it creates a rook or jumps the king.
    oracle_move = chess.Move.from_uci(castle)
    if not stack:
        assert oracle_move not in oracle.legal_moves
    elif not chess960:
        assert oracle_move in oracle.legal_moves
    if oracle_move in oracle.legal_moves:
        after = oracle.copy()
        rooks = len(after.pieces(chess.ROOK, after.turn))
        after.push(oracle_move)
        jumped = after.king(not after.turn) == chess.parse_square(gone)
        assert len(after.pieces(chess.ROOK, not after.turn)) > rooks or jumped

    # Refused everywhere, naming the rook, and nothing changes.
    fen_before, stack_before = board.fen(), list(board.move_stack)
    for attempt in (
        lambda: board.push(move),
        lambda: board.push_uci(castle),
        lambda: board.parse_uci(castle),
        lambda: board.push_san(san),
        lambda: board.parse_san(san),
        lambda: board.san(move),
        lambda: board.zobrist_hash_after(move),
    ):
        with pytest.raises(pychess_rs.IllegalMoveError, match=message):
            attempt()
        assert board.fen() == fen_before
        assert list(board.move_stack) == stack_before

    # The other side's right has its rook and still castles.
    assert pychess_rs.Move.from_uci(other) in board.legal_moves

    # What the board says about its rights is python-chess's (trusted once moves were played).
    assert board.status() == oracle.status()
    assert board.is_valid() == oracle.is_valid()
    assert board.clean_castling_rights() == oracle.clean_castling_rights()
    assert board.castling_rights == oracle.castling_rights
    for side in (chess.WHITE, chess.BLACK):
        for ask in ("has_castling_rights", "has_kingside_castling_rights"):
            assert getattr(board, ask)(side) == getattr(oracle, ask)(side)
        ask = "has_queenside_castling_rights"
        assert getattr(board, ask)(side) == getattr(oracle, ask)(side)
    assert bool(board.status() & chess.STATUS_BAD_CASTLING_RIGHTS) is not stack


def test_the_issue_position_keeps_its_material() -> None:
    """The position of issue 27, reached by play, then the a1 right written by hand."""
    board = pychess_rs.Board("3k4/8/8/2R5/8/8/8/4K3 b - - 45 2")
    board.push_uci("d8e8")
    board.castling_rights = chess.BB_A1
    assert board.fen() == "4k3/8/8/2R5/8/8/8/4K3 w Q - 46 3"
    oracle = chess.Board("3k4/8/8/2R5/8/8/8/4K3 b - - 45 2")
    oracle.push_uci("d8e8")
    oracle.castling_rights = chess.BB_A1
    assert chess.Move.from_uci("e1c1") in oracle.legal_moves
    assert pychess_rs.Move.from_uci("e1c1") not in board.legal_moves
    with pytest.raises(pychess_rs.IllegalMoveError, match="no white rook on a1 to castle with"):
        board.push(pychess_rs.Move.from_uci("e1c1"))
    assert board.fen() == "4k3/8/8/2R5/8/8/8/4K3 w Q - 46 3"
    assert len(board.move_stack) == 1
    # The king still moves, and the right goes with its first step as in python-chess.
    board.push_uci("e1d1")
    oracle.push_uci("e1d1")
    assert board.fen() == oracle.fen()


def test_a_piece_on_the_rook_square_does_not_castle() -> None:
    """python-chess castles with whatever of ours stands on the right's square (it becomes a
    rook); a knight there stays a knight and castling is refused."""
    fen = "r3k2r/1ppppppp/p7/8/8/1N6/1PPPPPPP/R3K2R w KQkq - 0 1"
    boards = (pychess_rs.Board(fen), chess.Board(fen))
    for board in boards:
        for uci in ("a1a2", "e7e6", "b3a1", "e6e5"):
            board.push_uci(uci)
        board.castling_rights = chess.BB_A1 | chess.BB_H1
    board, oracle = boards
    assert board.fen() == oracle.fen()
    assert chess.Move.from_uci("e1c1") in oracle.legal_moves
    move = pychess_rs.Move.from_uci("e1c1")
    assert move not in board.legal_moves
    with pytest.raises(pychess_rs.IllegalMoveError, match="no white rook on a1 to castle with"):
        board.push(move)
    assert board.piece_at(chess.A1) == pychess_rs.Piece(chess.KNIGHT, chess.WHITE)
    assert len(board.move_stack) == 4


def test_read_move_says_which_rook_is_missing() -> None:
    board = pychess_rs.Board("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    board.push_uci("a1a2")
    board.push_uci("e8e7")
    board.castling_rights = chess.BB_A1 | chess.BB_H1
    kind, moves, message = board.read_move("O-O-O")
    assert (kind, moves) == ("illegal", [])
    assert message == "O-O-O is illegal: there is no rook of yours on a1 to castle with"
