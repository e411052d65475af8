"""Repetitions on variant boards count positions by the variant's own key, as python-chess's
``_transposition_key`` does: Crazyhouse's pockets (and promoted pieces) and Three-check's
remaining checks are part of a position, so the same board with other pockets or counters is
another position; Crazyhouse ends a reversible sequence only with a loss of castling rights
(captured pieces and pawns may come back).

Random games from small positions, where the same board keeps coming back, compared ply by
ply with python-chess (``is_repetition`` for 2 and 3, ``is_fivefold_repetition``,
``can_claim_threefold_repetition``), after ``pop`` too, and on copies; and two lines in which
a board comes back with other pockets or counters, the case the variant key decides."""

from __future__ import annotations

import random

import chess
import chess.variant
import pytest

from pychess_rs import variant

# (variant, starting FEN): few pieces, so that boards repeat often.
CASES = [
    ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1"),
    ("crazyhouse", "4k3/8/8/8/8/8/8/R3K3[r] w Q - 0 1"),
    ("crazyhouse", "3qk3/8/8/8/8/8/8/3QK3[Pp] w - - 0 1"),
    ("3check", "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1"),
    ("3check", "3rk3/8/8/8/8/8/8/3RK3 w - - 3+3 0 1"),
]


def answers(board: object) -> tuple[bool, bool, bool, bool]:
    return (
        board.is_repetition(2),  # type: ignore[attr-defined]
        board.is_repetition(3),  # type: ignore[attr-defined]
        board.is_fivefold_repetition(),  # type: ignore[attr-defined]
        board.can_claim_threefold_repetition(),  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize(("name", "fen"), CASES)
def test_repetitions_match_python_chess(name: str, fen: str) -> None:
    rng = random.Random(f"repetition-{name}-{fen}")
    theirs_class = chess.variant.find_variant(name)
    ours_class = variant.find_variant(name)
    compared = 0
    for _ in range(6):
        theirs = theirs_class(fen)
        ours = ours_class(fen)
        for _ply in range(70):
            if theirs.is_game_over():
                break
            move = rng.choice(list(theirs.legal_moves))
            theirs.push(move)
            ours.push(ours.parse_uci(move.uci()))
            assert answers(ours) == answers(theirs), (
                ours.fen(),
                [m.uci() for m in theirs.move_stack],
            )
            compared += 1
            if rng.random() < 0.1:
                # Taking a move back and playing it again keeps the counts.
                theirs.pop()
                ours.pop()
                assert answers(ours) == answers(theirs)
                theirs.push(move)
                ours.push(ours.parse_uci(move.uci()))
            copy = ours.copy()
            assert answers(copy) == answers(theirs)
    assert compared > 100


def test_crazyhouse_pockets_tell_positions_apart() -> None:
    """The start's board comes back with other pockets (a knight dropped and taken), then
    twice more with those pockets: the second pockets' threefold, not the board's fourfold."""
    fen = "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1"
    theirs = chess.variant.CrazyhouseBoard(fen)
    ours = variant.CrazyhouseBoard(fen)
    expected = []
    line = ["Kf2", "Kf8", "Ke2", "N@e1", "Kxe1", "Ke8"] + ["Kf2", "Kf8", "Ke1", "Ke8"] * 2
    for san in line:
        theirs.push_san(san)
        ours.push_san(san)
        assert answers(ours) == answers(theirs), theirs.fen()
        expected.append(answers(theirs))
    assert ours.board_fen() == chess.variant.CrazyhouseBoard(fen).board_fen()
    assert str(ours.pockets[chess.WHITE]) == str(theirs.pockets[chess.WHITE]) == "nn"
    # After the capture (ply 6): the board and side to move as at the start, the pockets not.
    assert expected[5] == (False, False, False, False)
    assert expected[9][:2] == (True, False)
    assert expected[13][:2] == (True, True)
    # The start's board and side to move at plies 6, 10 and 14: four times in all, a
    # threefold repetition for a key without the pockets.
    assert theirs.board_fen() == chess.variant.CrazyhouseBoard(fen).board_fen()
    ours.pop()
    theirs.pop()
    assert answers(ours) == answers(theirs)


def test_crazyhouse_captures_do_not_end_the_sequence() -> None:
    """A knight dropped and taken on each side brings the start back, pockets and all:
    python-chess's Crazyhouse ends a reversible sequence only with a loss of castling rights,
    so the captures do not stop the count (threefold after the second round)."""
    fen = "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1"
    theirs = chess.variant.CrazyhouseBoard(fen)
    ours = variant.CrazyhouseBoard(fen)
    for round_ in range(2):
        for san in ["Kf2", "Kf8", "N@e8", "N@e1", "Kxe1", "Kxe8"]:
            theirs.push_san(san)
            ours.push_san(san)
            assert answers(ours) == answers(theirs), theirs.fen()
        assert ours.fen() == fen.replace("0 1", f"0 {4 + 3 * round_}")
        assert ours.is_repetition(2 + round_)
    assert ours.is_repetition(3) and ours.can_claim_threefold_repetition()
    assert not ours.is_fivefold_repetition()


def test_three_check_counters_tell_positions_apart() -> None:
    """The rook gives check and comes back twice: the board three times, never with the
    same counters, so no threefold repetition (python-chess: checks are irreversible)."""
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1"
    theirs = chess.variant.ThreeCheckBoard(fen)
    ours = variant.ThreeCheckBoard(fen)
    for uci in ["a1a8", "e8e7", "a8a1", "e7e8"] * 2:
        theirs.push_uci(uci)
        ours.push_uci(uci)
        assert answers(ours) == answers(theirs)
    assert ours.board_fen() == chess.variant.ThreeCheckBoard(fen).board_fen()
    assert answers(ours) == (False, False, False, False)
    assert ours.remaining_checks[chess.WHITE] == 1
