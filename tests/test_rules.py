"""The rules of chess, one scenario per test, each played for both colours.

Scenarios are written from White's point of view; the ``side`` fixture (conftest.py)
mirrors the FEN and the moves so each test also runs with the colours swapped.
"""

from __future__ import annotations

import pytest

import pychess_rs

LONE_PAWN = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
CASTLING = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def assert_legal(board: pychess_rs.Board, move: pychess_rs.Move) -> None:
    """Legal by every route: membership, is_legal and the generated list."""
    assert move in board.legal_moves
    assert board.is_legal(move)
    assert move in list(board.legal_moves)


def assert_illegal(board: pychess_rs.Board, move: pychess_rs.Move) -> None:
    assert move not in board.legal_moves
    assert not board.is_legal(move)
    assert move not in list(board.legal_moves)


def destinations(board: pychess_rs.Board, from_square: int) -> set[int]:
    return {m.to_square for m in board.legal_moves if m.from_square == from_square}


# --- pawns --------------------------------------------------------------------------------


def test_pawn_single_step(side):
    board = side.board(LONE_PAWN)
    assert_legal(board, side.move("e2e3"))
    side.play_uci(board, "e2e3")
    assert board.piece_at(side.sq("e3")) == side.piece("P")
    assert board.piece_at(side.sq("e2")) is None
    assert board.turn == side.them


def test_pawn_double_step_from_the_start_rank(side):
    board = side.board(LONE_PAWN)
    assert destinations(board, side.sq("e2")) == side.squares("e3 e4")
    side.play_uci(board, "e2e4")
    assert board.piece_at(side.sq("e4")) == side.piece("P")
    assert board.ep_square == side.sq("e3")


def test_pawn_double_step_only_on_its_first_move(side):
    board = side.board(LONE_PAWN)
    side.play_uci(board, "e2e3 e8e7")
    assert_illegal(board, side.move("e3e5"))
    assert destinations(board, side.sq("e3")) == side.squares("e4")
    # A pawn placed off its start rank never double-steps either.
    board = side.board("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1")
    assert destinations(board, side.sq("e3")) == side.squares("e4")


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", ""),  # blocked at once, by a foe
        ("4k3/8/8/8/8/4N3/4P3/4K3 w - - 0 1", ""),  # blocked at once, by a friend
        ("4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1", "e3"),  # second square blocked
    ],
    ids=["foe-in-front", "friend-in-front", "second-square-blocked"],
)
def test_pawn_cannot_move_into_or_jump_over_a_piece(side, fen, expected):
    board = side.board(fen)
    assert destinations(board, side.sq("e2")) == (side.squares(expected) if expected else set())


def test_pawn_diagonal_capture(side):
    board = side.board("4k3/8/8/8/8/3p1r2/4P3/4K3 w - - 0 1")
    assert destinations(board, side.sq("e2")) == side.squares("d3 f3 e3 e4")
    move = side.move("e2d3")
    assert board.is_capture(move)
    board.push(move)
    assert board.piece_at(side.sq("d3")) == side.piece("P")
    assert len(board.piece_map()) == 4


def test_pawn_no_diagonal_move_without_capture(side):
    board = side.board(LONE_PAWN)
    assert_illegal(board, side.move("e2d3"))
    assert_illegal(board, side.move("e2f3"))
    assert not board.is_pseudo_legal(side.move("e2d3"))
    # Nor onto a friendly piece.
    board = side.board("4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1")
    assert_illegal(board, side.move("e2d3"))


def test_pawn_never_moves_backwards_or_sideways(side):
    board = side.board("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1")
    assert destinations(board, side.sq("e4")) == side.squares("e5")
    for uci in ["e4e3", "e4d4", "e4f4", "e4d3"]:
        assert_illegal(board, side.move(uci))


EP_SETUP = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"


def test_en_passant_right_after_the_double_step(side):
    board = side.board(EP_SETUP)
    side.play_uci(board, "d7d5")
    move = side.move("e5d6")
    assert_legal(board, move)
    assert board.is_en_passant(move)
    assert board.is_capture(move)
    assert board.ep_square == side.sq("d6")
    board.push(move)
    assert board.piece_at(side.sq("d6")) == side.piece("P")
    assert board.piece_at(side.sq("d5")) is None, "the captured pawn leaves the board"
    assert board.piece_at(side.sq("e5")) is None
    assert len(board.piece_map()) == 3


def test_en_passant_not_one_move_later(side):
    board = side.board(EP_SETUP)
    side.play_uci(board, "d7d5 e1e2 e8e7")
    assert_illegal(board, side.move("e5d6"))
    assert not board.is_pseudo_legal(side.move("e5d6"))


def test_en_passant_only_after_a_double_step(side):
    board = side.board(EP_SETUP)
    side.play_uci(board, "d7d6 e1e2 d6d5")
    assert_illegal(board, side.move("e5d6"))


@pytest.mark.parametrize("piece", ["Q", "R", "B", "N"])
def test_promotion_to_each_piece(side, piece):
    board = side.board("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    for target in ("a8", "b8"):  # straight ahead, and capturing the b8 knight
        trial = board.copy()
        move = side.move(f"a7{target}{piece.lower()}")
        assert_legal(trial, move)
        trial.push(move)
        assert trial.piece_at(side.sq(target)) == side.piece(piece)
        assert trial.piece_at(side.sq("a7")) is None
        assert trial.halfmove_clock == 0


def test_promotion_is_mandatory_and_only_to_q_r_b_n(side):
    board = side.board("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    pawn_moves = {m.uci() for m in board.legal_moves if m.from_square == side.sq("a7")}
    assert pawn_moves == {side.text(f"a7a8{p}") for p in "qrbn"}
    assert_illegal(board, side.move("a7a8"))
    assert_illegal(board, side.move("a7a8k"))
    assert_illegal(board, pychess_rs.Move(side.sq("a7"), side.sq("a8"), pychess_rs.PAWN))


# --- castling -----------------------------------------------------------------------------


def test_short_castling_with_a_clear_path(side):
    board = side.board(CASTLING)
    move = side.move("e1g1")
    assert_legal(board, move)
    assert board.is_castling(move)
    board.push(move)
    assert board.piece_at(side.sq("g1")) == side.piece("K")
    assert board.piece_at(side.sq("f1")) == side.piece("R")
    assert board.piece_at(side.sq("e1")) is None
    assert board.piece_at(side.sq("h1")) is None
    assert board.castling_rights & side_rank_mask(side) == 0


def test_long_castling_with_a_clear_path(side):
    board = side.board(CASTLING)
    move = side.move("e1c1")
    assert_legal(board, move)
    assert board.is_castling(move)
    board.push(move)
    assert board.piece_at(side.sq("c1")) == side.piece("K")
    assert board.piece_at(side.sq("d1")) == side.piece("R")
    assert board.piece_at(side.sq("a1")) is None
    assert board.piece_at(side.sq("b1")) is None
    assert board.piece_at(side.sq("e1")) is None


@pytest.mark.parametrize(
    ("fen", "chess960", "move", "target"),
    [
        (CASTLING, False, "e1g1", "g1"),
        (CASTLING, False, "e1h1", "g1"),
        (CASTLING, False, "e1c1", "c1"),
        (CASTLING, False, "e1a1", "c1"),
        (CASTLING, False, "e1f1", None),
        (CASTLING, False, "a1a8", None),
        # Chess960: the king on b1 castles towards a1 and lands on c1, to its right.
        ("1r2k3/8/8/8/8/8/8/RK5R w AH - 0 1", True, "b1a1", "c1"),
        ("1r2k3/8/8/8/8/8/8/RK5R w AH - 0 1", True, "b1h1", "g1"),
    ],
)
def test_castling_king_target(side, fen, chess960, move, target):
    # The square boards and move lists show a castling move on, however it is spelled.
    board = pychess_rs.Board(side.fen(fen), chess960=chess960)
    expected = None if target is None else side.sq(target)
    assert board._castling_king_target(side.move(move)) == expected


def side_rank_mask(side) -> int:
    """Bitmask of our back rank."""
    return 0xFF if side.color else 0xFF << 56


def test_castling_refused_after_the_king_moved_and_came_back(side):
    board = side.board(CASTLING)
    side.play_uci(board, "e1f1 a8b8 f1e1 b8a8")
    assert_illegal(board, side.move("e1g1"))
    assert_illegal(board, side.move("e1c1"))
    assert board.castling_rights & side_rank_mask(side) == 0


@pytest.mark.parametrize(
    ("rook_trip", "lost", "kept"),
    [("h1h2 a8b8 h2h1 b8a8", "e1g1", "e1c1"), ("a1a2 h8g8 a2a1 g8h8", "e1c1", "e1g1")],
    ids=["h-rook", "a-rook"],
)
def test_castling_refused_after_the_rook_moved_and_came_back(side, rook_trip, lost, kept):
    board = side.board(CASTLING)
    side.play_uci(board, rook_trip)
    assert_illegal(board, side.move(lost))
    assert_legal(board, side.move(kept))


def test_castling_right_lost_when_the_rook_is_captured(side):
    board = side.board("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1")
    side.play_uci(board, "g2h1")
    assert board.castling_rights & side_rank_mask(side) == 1 << side.sq("a1")


@pytest.mark.parametrize(
    ("back_rank", "refused", "allowed"),
    [
        ("R3KB1R", "e1g1", "e1c1"),
        ("R3K1NR", "e1g1", "e1c1"),
        ("R3Kn1R", "e1g1", "e1c1"),  # an enemy piece blocks as well
        ("R2QK2R", "e1c1", "e1g1"),
        ("R1B1K2R", "e1c1", "e1g1"),
        ("RN2K2R", "e1c1", "e1g1"),  # b1 must be empty although the king never crosses it
    ],
)
def test_castling_refused_through_a_blocked_path(side, back_rank, refused, allowed):
    board = side.board(f"r3k2r/8/8/8/8/8/8/{back_rank} w KQkq - 0 1")
    assert_illegal(board, side.move(refused))
    assert_legal(board, side.move(allowed))


def test_castling_refused_while_in_check(side):
    board = side.board("r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1")
    assert board.is_check()
    assert_illegal(board, side.move("e1g1"))
    assert_illegal(board, side.move("e1c1"))
    assert_legal(board, side.move("e1f1"))


@pytest.mark.parametrize(
    ("attacker", "refused", "allowed"),
    [
        ("5r2", "e1g1", "e1c1"),  # f1 is crossed under attack
        ("3r4", "e1c1", "e1g1"),  # d1 is crossed under attack
    ],
    ids=["through-f1", "through-d1"],
)
def test_castling_refused_through_an_attacked_square(side, attacker, refused, allowed):
    board = side.board(f"r3k2r/8/8/8/{attacker}/8/8/R3K2R w KQkq - 0 1")
    assert_illegal(board, side.move(refused))
    assert_legal(board, side.move(allowed))


@pytest.mark.parametrize(
    ("attacker", "refused", "allowed"),
    [("6r1", "e1g1", "e1c1"), ("2r5", "e1c1", "e1g1")],
    ids=["into-g1", "into-c1"],
)
def test_castling_refused_into_an_attacked_square(side, attacker, refused, allowed):
    board = side.board(f"r3k2r/8/8/8/{attacker}/8/8/R3K2R w KQkq - 0 1")
    assert_illegal(board, side.move(refused))
    assert_legal(board, side.move(allowed))


def test_long_castling_allowed_when_only_b1_is_attacked(side):
    board = side.board("r3k2r/8/8/8/1r6/8/8/R3K2R w KQkq - 0 1")
    assert_legal(board, side.move("e1c1"))


def test_castling_allowed_when_the_rook_is_attacked(side):
    # In the base position both White rooks stand on open files facing Black's rooks.
    board = side.board(CASTLING)
    assert board.is_attacked_by(side.them, side.sq("h1"))
    assert board.is_attacked_by(side.them, side.sq("a1"))
    assert_legal(board, side.move("e1g1"))
    assert_legal(board, side.move("e1c1"))


# --- the king -----------------------------------------------------------------------------


def test_king_steps_one_square_in_every_direction(side):
    board = side.board("4k3/8/8/8/3K4/8/8/8 w - - 0 1")
    assert destinations(board, side.sq("d4")) == side.squares("c3 c4 c5 d3 d5 e3 e4 e5")


def test_king_never_steps_two_squares_except_castling(side):
    board = side.board("4k3/8/8/8/3K4/8/8/8 w - - 0 1")
    for uci in ["d4d6", "d4d2", "d4f4", "d4b4", "d4f6", "d4b2", "d4e6"]:
        assert_illegal(board, side.move(uci))
        assert not board.is_pseudo_legal(side.move(uci))
    # Without castling rights the two-square king move does not exist.
    board = side.board("4k3/8/8/8/8/8/8/R3K2R w - - 0 1")
    assert_illegal(board, side.move("e1g1"))
    assert_illegal(board, side.move("e1c1"))


def test_king_captures(side):
    board = side.board("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1")
    move = side.move("e1d2")
    assert_legal(board, move)
    assert board.is_capture(move)
    board.push(move)
    assert board.piece_at(side.sq("d2")) == side.piece("K")
    assert board.is_insufficient_material()


def test_king_cannot_capture_a_defended_piece(side):
    board = side.board("4k3/8/8/8/8/2p5/3n4/4K3 w - - 0 1")
    assert_illegal(board, side.move("e1d2"))


def test_king_cannot_step_into_check(side):
    board = side.board("4k3/8/8/8/8/8/r7/4K3 w - - 0 1")
    assert destinations(board, side.sq("e1")) == side.squares("d1 f1")


def test_king_cannot_retreat_along_the_checking_ray(side):
    board = side.board("4k3/8/8/8/8/8/8/r3K3 w - - 0 1")
    assert board.is_check()
    assert destinations(board, side.sq("e1")) == side.squares("d2 e2 f2")


def test_kings_never_touch(side):
    board = side.board("8/8/8/3k4/8/3K4/8/8 w - - 0 1")
    assert destinations(board, side.sq("d3")) == side.squares("c2 d2 e2 c3 e3")


# --- sliders and knights ------------------------------------------------------------------

# Our piece on d4, friends on d6 and f6, foes on d2 and b2.
SLIDER_FEN = "4k3/8/3P1P2/8/3{}4/8/1p1p4/7K w - - 0 1"
SLIDER_MOVES = {
    "B": "e5 c5 b6 a7 e3 f2 g1 c3 b2",
    "R": "d5 d3 d2 e4 f4 g4 h4 c4 b4 a4",
    "Q": "e5 c5 b6 a7 e3 f2 g1 c3 b2 d5 d3 d2 e4 f4 g4 h4 c4 b4 a4",
}


@pytest.mark.parametrize("piece", ["B", "R", "Q"])
def test_slider_blocked_by_friend_and_foe_and_captures_at_ray_end(side, piece):
    board = side.board(SLIDER_FEN.format(piece))
    assert destinations(board, side.sq("d4")) == side.squares(SLIDER_MOVES[piece])
    for uci in ["d4f6", "d4g7", "d4d6", "d4d7", "d4a1", "d4d1"]:  # friends and beyond foes
        assert_illegal(board, side.move(uci))
    for uci in ["d4b2", "d4d2"]:
        if side.move(uci) in board.legal_moves:
            assert board.is_capture(side.move(uci))


def test_rook_cannot_move_diagonally(side):
    board = side.board("4k3/8/8/8/3R4/8/8/7K w - - 0 1")
    for uci in ["d4e5", "d4c3", "d4a7", "d4g1"]:
        assert_illegal(board, side.move(uci))
        assert not board.is_pseudo_legal(side.move(uci))
    assert len(destinations(board, side.sq("d4"))) == 14


def test_bishop_cannot_move_straight(side):
    board = side.board("4k3/8/8/8/3B4/8/8/7K w - - 0 1")
    for uci in ["d4d5", "d4e4", "d4d1", "d4a4"]:
        assert_illegal(board, side.move(uci))
    assert len(destinations(board, side.sq("d4"))) == 13


def test_knight_jumps_over_pieces(side):
    board = side.board(pychess_rs.STARTING_FEN)
    assert destinations(board, side.sq("g1")) == side.squares("f3 h3")
    assert destinations(board, side.sq("b1")) == side.squares("a3 c3")
    board = side.board("4k3/8/8/2ppp3/2pNp3/2ppp3/8/4K3 w - - 0 1")
    assert destinations(board, side.sq("d4")) == side.squares("b3 b5 c2 c6 e2 e6 f3 f5")


def test_knight_cannot_land_on_a_friend(side):
    board = side.board("4k3/8/2P1p3/8/3N4/8/8/4K3 w - - 0 1")
    assert_illegal(board, side.move("d4c6"))
    assert_legal(board, side.move("d4e6"))


# --- own king safety: pins, discovered attacks, checks ------------------------------------


def test_pinned_piece_cannot_leave_the_pin_line(side):
    board = side.board("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")
    assert board.is_pinned(side.us, side.sq("e2"))
    assert destinations(board, side.sq("e2")) == set()
    assert board.is_pseudo_legal(side.move("e2c3"))
    assert not board.is_legal(side.move("e2c3"))


def test_pinned_rook_moves_along_the_pin_line(side):
    board = side.board("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1")
    assert destinations(board, side.sq("e2")) == side.squares("e3 e4 e5 e6 e7")


def test_diagonally_pinned_pawn_may_only_capture_the_pinner(side):
    board = side.board("4k3/8/8/8/8/5b2/4P3/3K4 w - - 0 1")
    assert destinations(board, side.sq("e2")) == side.squares("f3")


def test_en_passant_that_exposes_the_king_is_illegal(side):
    board = side.board("8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1")
    side.play_uci(board, "c7c5")
    move = side.move("b5c6")
    assert board.is_pseudo_legal(move)
    assert_illegal(board, move)
    assert_legal(board, side.move("b5b6"))


def test_move_that_ignores_a_check_is_illegal(side):
    board = side.board("4k3/4r3/8/8/8/8/P2B4/4K3 w - - 0 1")
    assert board.is_check()
    legal = {m.uci() for m in board.legal_moves}
    assert legal == {side.text(u) for u in ["e1d1", "e1f1", "e1f2", "d2e3"]}
    assert_illegal(board, side.move("a2a3"))


def test_double_check_allows_only_king_moves(side):
    board = side.board("4k3/8/8/8/1b5R/8/8/r3K3 w - - 0 1")
    assert len(board.checkers()) == 2
    assert all(m.from_square == side.sq("e1") for m in board.legal_moves)
    assert destinations(board, side.sq("e1")) == side.squares("e2 f2")


def test_discovered_check_is_given_and_reported(side):
    board = side.board("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1")
    move = side.move("e4c5")
    assert board.gives_check(move)
    board.push(move)
    assert board.is_check()
    assert set(board.checkers()) == side.squares("e1")


def test_check_is_reported(side):
    board = side.board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert not board.is_check()
    assert not board.checkers()
    move = side.move("a1a8")
    assert board.gives_check(move)
    assert not board.gives_check(side.move("a1a7"))
    board.push(move)
    assert board.is_check()
    assert set(board.checkers()) == side.squares("a8")
    assert not board.is_checkmate()
    assert board.outcome() is None


# --- checkmate and stalemate --------------------------------------------------------------


def _assert_mated(board: pychess_rs.Board, side) -> None:
    assert board.is_check()
    assert board.is_checkmate()
    assert not board.is_stalemate()
    assert not board.legal_moves
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome.termination == pychess_rs.Termination.CHECKMATE
    assert outcome.winner == side.us
    expected = "1-0" if side.color else "0-1"
    assert outcome.result() == expected
    assert board.result() == expected


@pytest.mark.parametrize(("winner", "result"), [(True, "1-0"), (False, "0-1"), (None, "1/2-1/2")])
def test_outcome_result_made_by_hand(winner, result):
    # python-chess users build outcomes themselves; their text is the core's.
    outcome = pychess_rs.Outcome(pychess_rs.Termination.CHECKMATE, winner)
    assert outcome.result() == result == pychess_rs._core.outcome_result(winner)


def test_scholars_mate(side):
    board = side.board(pychess_rs.STARTING_FEN)
    side.play_san(board, "e4 e5 Bc4 Nc6 Qh5 Nf6")
    assert not board.is_checkmate()
    side.play_san(board, "Qxf7#")
    _assert_mated(board, side)


def test_back_rank_mate(side):
    board = side.board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    side.play_uci(board, "a1a8")
    _assert_mated(board, side)


def test_back_rank_escape_square_is_not_mate(side):
    board = side.board("6k1/5pp1/7p/8/8/8/8/R5K1 w - - 0 1")
    side.play_uci(board, "a1a8")
    assert board.is_check()
    assert not board.is_checkmate()
    assert board.outcome() is None


def test_smothered_mate(side):
    board = side.board("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1")
    side.play_uci(board, "g5f7")
    _assert_mated(board, side)


def _assert_stalemate(board: pychess_rs.Board) -> None:
    assert board.is_stalemate()
    assert not board.is_check()
    assert not board.is_checkmate()
    assert not board.legal_moves
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome.termination == pychess_rs.Termination.STALEMATE
    assert outcome.winner is None
    assert outcome.result() == "1/2-1/2"
    assert board.result() == "1/2-1/2"


def test_stalemate(side):
    board = side.board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    _assert_stalemate(board)


def test_fastest_known_stalemate_game(side):
    # Sam Loyd's ten-move stalemate.
    board = side.board(pychess_rs.STARTING_FEN)
    side.play_san(
        board,
        "e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6",
    )
    assert not board.is_game_over()
    side.play_san(board, "Qe6")
    _assert_stalemate(board)
    assert (
        board.board_fen()
        == side.board("5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR b KQ - 2 10").board_fen()
    )


def test_stalemate_with_all_pieces_on_the_board(side):
    board = side.board(pychess_rs.STARTING_FEN)
    side.play_san(
        board,
        "d4 e5 Qd2 e4 Qf4 f5 h3 Bb4+ Nd2 d6 Qh2 Be6 a4 Qh4 Ra3 c5 Rg3 f4 f3 Bb3 d5 Ba5 c4 e3",
    )
    assert len(board.piece_map()) == 32
    _assert_stalemate(board)


def test_stalemate_with_insufficient_material_reports_insufficient_material(side):
    # python-chess checks insufficient material before stalemate.
    board = side.board("k7/2K5/8/8/8/4B3/8/8 b - - 0 1")
    assert board.is_stalemate()
    assert board.is_insufficient_material()
    assert board.outcome().termination == pychess_rs.Termination.INSUFFICIENT_MATERIAL


# --- insufficient material ----------------------------------------------------------------

# (FEN, drawn, White cannot win, Black cannot win), with python-chess's semantics.
MATERIAL = [
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", True, True, True),  # K v K
    ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", True, True, True),  # KB v K
    ("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", True, True, True),  # KN v K
    ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", True, True, True),  # KB v KB, same colour
    ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", False, False, False),  # KB v KB, opposite colour
    ("4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1", True, True, True),  # KBB v K, same colour
    ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", False, False, True),  # KBB v K, opposite colour
    ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", False, False, True),  # KNN v K
    ("4k1n1/8/8/8/8/8/8/2B1K3 w - - 0 1", False, False, False),  # KB v KN
    ("q3k3/8/8/8/8/8/8/1N2K3 w - - 0 1", False, True, False),  # KN v KQ
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", False, False, True),  # KP v K
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", False, False, True),  # KR v K
    ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", False, False, True),  # KQ v K
]


@pytest.mark.parametrize(("fen", "drawn", "white_cannot", "black_cannot"), MATERIAL)
def test_insufficient_material(side, fen, drawn, white_cannot, black_cannot):
    board = side.board(fen)
    assert board.is_insufficient_material() == drawn
    assert board.has_insufficient_material(side.us) == white_cannot
    assert board.has_insufficient_material(side.them) == black_cannot
    if drawn:
        assert board.is_game_over()
        outcome = board.outcome()
        assert outcome.termination == pychess_rs.Termination.INSUFFICIENT_MATERIAL
        assert outcome.winner is None
        assert board.result() == "1/2-1/2"
    else:
        assert board.outcome() is None


# --- fifty and seventy-five moves ---------------------------------------------------------

QUIET = "4k3/8/8/8/8/8/4P3/R3K3 w - - {} 80"


def test_fifty_move_claim(side):
    board = side.board(QUIET.format(98))
    assert not board.can_claim_fifty_moves()
    side.play_uci(board, "a1a2")
    # 99 half-moves: the next quiet move reaches 100, so the claim is already available.
    assert board.halfmove_clock == 99
    assert board.can_claim_fifty_moves()
    side.play_uci(board, "e8d8")
    assert board.halfmove_clock == 100
    assert board.can_claim_fifty_moves()
    assert board.can_claim_draw()
    assert not board.is_game_over()
    assert board.outcome() is None
    assert board.result() == "*"
    assert board.is_game_over(claim_draw=True)
    outcome = board.outcome(claim_draw=True)
    assert outcome.termination == pychess_rs.Termination.FIFTY_MOVES
    assert outcome.winner is None
    assert board.result(claim_draw=True) == "1/2-1/2"


def test_fifty_move_claim_reset_by_a_pawn_move(side):
    board = side.board(QUIET.format(99))
    assert board.can_claim_fifty_moves()
    side.play_uci(board, "e2e4")
    assert board.halfmove_clock == 0
    assert not board.can_claim_fifty_moves()


def test_fifty_move_claims_now_and_by_move(side):
    board = side.board(QUIET.format(99))
    assert board._draw_claim() is None
    claiming = board._draw_claim_moves()
    # Every quiet move completes the hundred plies; the pawn's moves reset the count.
    assert set(claiming) == {m for m in board.legal_moves if not board.is_zeroing(m)}
    assert board._draw_claim(side.move("a1a2")) == pychess_rs.Termination.FIFTY_MOVES
    assert board._draw_claim(side.move("e2e4")) is None
    assert board._draw_claim(side.move("a1b2")) is None, "not a legal move here"
    side.play_uci(board, "a1a2")
    assert board._draw_claim() == pychess_rs.Termination.FIFTY_MOVES


def test_no_fifty_move_claim_by_a_mating_move(side):
    # 99 plies, and the 100th mates: the game ends by mate, no draw may be claimed with it.
    board = side.board("7k/8/6K1/8/8/8/8/R7 w - - 99 80")
    mate = side.move("a1a8")
    assert board._draw_claim(mate) is None
    assert mate not in board._draw_claim_moves()
    assert board._draw_claim(side.move("a1a2")) == pychess_rs.Termination.FIFTY_MOVES
    oracle = side.oracle("7k/8/6K1/8/8/8/8/R7 w - - 99 80")
    oracle.push_uci(side.text("a1a8"))
    assert oracle.is_checkmate() and not oracle.is_fifty_moves()


def test_seventy_five_moves_end_the_game(side):
    board = side.board(QUIET.format(148))
    side.play_uci(board, "a1a2")
    assert board.halfmove_clock == 149
    assert not board.is_seventyfive_moves()
    assert not board.is_game_over()
    side.play_uci(board, "e8d8")
    assert board.halfmove_clock == 150
    assert board.is_seventyfive_moves()
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome.termination == pychess_rs.Termination.SEVENTYFIVE_MOVES
    assert outcome.winner is None
    assert board.result() == "1/2-1/2"
    board.pop()
    assert not board.is_seventyfive_moves()


def test_checkmate_beats_the_seventy_five_move_rule(side):
    board = side.board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 120")
    side.play_uci(board, "a1a8")
    assert board.halfmove_clock == 150
    assert not board.is_seventyfive_moves(), "no legal moves: the rule does not apply"
    assert board.outcome().termination == pychess_rs.Termination.CHECKMATE


# --- repetition ---------------------------------------------------------------------------

KNIGHTS_OUT_AND_BACK = "g1f3 g8f6 f3g1 f6g8"


def test_threefold_repetition_claim(side):
    board = side.board(pychess_rs.STARTING_FEN)
    side.play_uci(board, KNIGHTS_OUT_AND_BACK)  # start position, second time
    assert board.is_repetition(2)
    assert not board.is_repetition(3)
    assert not board.can_claim_threefold_repetition()
    side.play_uci(board, "g1f3 g8f6 f3g1")
    # The reply f6g8 would bring the start position a third time: claimable now.
    assert not board.is_repetition(3)
    assert board.can_claim_threefold_repetition()
    assert board.can_claim_draw()
    assert not board.is_game_over()
    assert board.is_game_over(claim_draw=True)
    assert board.outcome(claim_draw=True).termination == pychess_rs.Termination.THREEFOLD_REPETITION
    side.play_uci(board, "f6g8")
    assert board.is_repetition()
    assert board.is_repetition(3)
    assert not board.is_repetition(4)
    assert board.can_claim_threefold_repetition()
    assert board.outcome() is None, "threefold must be claimed"
    assert board.result() == "*"
    assert board.result(claim_draw=True) == "1/2-1/2"
    board.pop()
    assert not board.is_repetition(3)
    board.pop()
    assert not board.can_claim_threefold_repetition()


def test_threefold_repetition_claims_now_and_by_move(side):
    board = side.board(pychess_rs.STARTING_FEN)
    assert board._draw_claim() is None and board._draw_claim_moves() == []
    side.play_uci(board, KNIGHTS_OUT_AND_BACK + " g1f3 g8f6 f3g1")
    # Not in the position itself; by announcing f6g8 (the third time), and only so.
    assert board._draw_claim() is None
    assert board._draw_claim_moves() == [side.move("f6g8")]
    assert board._draw_claim(side.move("f6g8")) == pychess_rs.Termination.THREEFOLD_REPETITION
    assert board._draw_claim(side.move("f6h5")) is None
    side.play_uci(board, "f6g8")
    assert board._draw_claim() == pychess_rs.Termination.THREEFOLD_REPETITION
    # The claims are exactly what python-chess's can_claim_draw counts.
    for _ in range(4):
        claims = board._draw_claim() is not None or bool(board._draw_claim_moves())
        assert claims == board.can_claim_draw()
        board.pop()


def test_fivefold_repetition_ends_the_game(side):
    board = side.board(pychess_rs.STARTING_FEN)
    for _ in range(3):
        side.play_uci(board, KNIGHTS_OUT_AND_BACK)
    side.play_uci(board, "g1f3 g8f6 f3g1")
    assert not board.is_fivefold_repetition()
    assert not board.is_game_over()
    side.play_uci(board, "f6g8")
    assert board.is_repetition(5)
    assert board.is_fivefold_repetition()
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome.termination == pychess_rs.Termination.FIVEFOLD_REPETITION
    assert outcome.winner is None
    assert board.result() == "1/2-1/2"


def test_repetition_takes_castling_rights_into_account(side):
    board = side.board(CASTLING)
    shuffle = "a1b1 a8b8 b1a1 b8a8"
    side.play_uci(board, shuffle)
    # Same placement as at the start, but the queen-side castling rights are gone.
    assert board.board_fen() == side.board(CASTLING).board_fen()
    assert board != side.board(CASTLING)
    assert not board.is_repetition(2)
    side.play_uci(board, shuffle)
    assert board.is_repetition(2)
    assert not board.is_repetition(3)
    side.play_uci(board, shuffle)
    assert board.is_repetition(3)


EP_REPETITION = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"


def test_repetition_takes_a_legal_en_passant_into_account(side):
    board = side.board(EP_REPETITION)
    side.play_uci(board, "e2e4")  # d4xe3 en passant is legal here ...
    assert_legal(board, side.move("d4e3"))
    side.play_uci(board, "e8e7 e1e2 e7e8 e2e1")  # ... and no longer once we are back
    assert_illegal(board, side.move("d4e3"))
    assert not board.is_repetition(2)
    side.play_uci(board, "e8e7 e1e2 e7e8 e2e1")
    assert board.is_repetition(2)
    assert not board.is_repetition(3)
    side.play_uci(board, "e8e7 e1e2 e7e8 e2e1")
    assert board.is_repetition(3)


def test_repetition_ignores_an_en_passant_nobody_can_play(side):
    board = side.board("4k3/8/8/8/p7/8/4P3/4K3 w - - 0 1")
    side.play_uci(board, "e2e4 e8e7 e1e2 e7e8 e2e1")
    assert board.is_repetition(2)
    side.play_uci(board, "e8e7 e1e2 e7e8 e2e1")
    assert board.is_repetition(3)


def test_repetition_ignores_an_en_passant_that_would_expose_the_king(side):
    # d4xe3 e.p. would uncover the a4 rook's attack on the h4 king: not a legal move, so
    # the position after e2e4 repeats, although the Polyglot hash includes the ep file.
    board = side.board("8/8/8/8/R2p3k/8/4P3/4K3 w - - 0 1")
    side.play_uci(board, "e2e4")
    assert board.is_pseudo_legal(side.move("d4e3"))
    assert_illegal(board, side.move("d4e3"))
    first_hash = board.zobrist_hash()
    side.play_uci(board, "h4h5 e1d1 h5h4 d1e1")
    assert board.zobrist_hash() != first_hash
    assert board.is_repetition(2)
    side.play_uci(board, "h4h5 e1d1 h5h4 d1e1")
    assert board.is_repetition(3)


# --- outcome and result -------------------------------------------------------------------


def test_termination_names():
    names = {t.name for t in pychess_rs.Termination}
    assert {
        "CHECKMATE",
        "STALEMATE",
        "INSUFFICIENT_MATERIAL",
        "SEVENTYFIVE_MOVES",
        "FIVEFOLD_REPETITION",
        "FIFTY_MOVES",
        "THREEFOLD_REPETITION",
    } <= names


def test_game_in_progress():
    board = pychess_rs.Board()
    assert board.outcome() is None
    assert board.outcome(claim_draw=True) is None
    assert board.result() == "*"
    assert not board.is_game_over()
    assert not board.is_game_over(claim_draw=True)
    assert not board.is_checkmate()
    assert not board.is_stalemate()
    assert not board.is_insufficient_material()
    assert not board.can_claim_draw()
