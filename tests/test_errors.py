"""Every rejection: bad FENs, bad moves, empty stacks; and failed calls change nothing.

The FEN contract: ``pychess_rs.Board(fen)`` accepts a FEN exactly when python-chess
parses it, whatever position it describes (``status()`` then says what is wrong with it).
"""

from __future__ import annotations

import contextlib
import inspect
import os
from collections.abc import Callable

import chess
import pytest

import pychess_rs
from pychess_rs.fuzz import contract

START = pychess_rs.STARTING_FEN
START_BOARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def oracle_accepts(fen: str, chess960: bool = False) -> bool:
    board, _why = contract.oracle_board(fen, chess960)
    return board is not None


def assert_names(message: str, fen: str, field: str) -> None:
    """The message quotes the whole FEN or the offending field."""
    quoted = fen in message or repr(field) in message or f'"{field}"' in message
    # Very long input may be shortened in the message to its first 40 characters.
    assert quoted or (len(field) > 80 and field[:40] in message), message


# --- the exception types ------------------------------------------------------------------


@pytest.mark.parametrize(
    "exc",
    [
        pychess_rs.InvalidFenError,
        pychess_rs.IllegalMoveError,
        pychess_rs.AmbiguousMoveError,
        pychess_rs.InvalidMoveError,
    ],
)
def test_exceptions_are_value_errors(exc):
    assert issubclass(exc, ValueError)


def test_exception_types_are_distinct():
    assert not issubclass(pychess_rs.InvalidFenError, pychess_rs.InvalidMoveError)
    assert not issubclass(pychess_rs.IllegalMoveError, pychess_rs.AmbiguousMoveError)
    assert not issubclass(pychess_rs.AmbiguousMoveError, pychess_rs.IllegalMoveError)
    assert not issubclass(pychess_rs.InvalidMoveError, pychess_rs.IllegalMoveError)


# --- bad FENs -----------------------------------------------------------------------------

BOARD_PART = None  # the offending field is the piece-placement part

# (FEN, the offending field)
BAD_FENS = {
    # field count
    "extra-field": (f"{START} extra", "extra"),
    "extra-number": (f"{START} 0", START),
    # board part: ranks and squares
    "rank-7-squares": ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", BOARD_PART),
    "rank-9-squares": ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", BOARD_PART),
    "rank-9-empty": ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", BOARD_PART),
    "rank-7-plus-2": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN2 w KQkq - 0 1", BOARD_PART),
    "two-digits-in-a-row": (
        "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        BOARD_PART,
    ),
    "zero-digit": ("rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", BOARD_PART),
    "empty-rank": ("rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", BOARD_PART),
    "nine-ranks": ("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", BOARD_PART),
    "seven-ranks": ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", BOARD_PART),
    "one-rank": ("rnbqkbnr w KQkq - 0 1", BOARD_PART),
    "unknown-piece": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", BOARD_PART),
    "unicode-piece": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ♔BNR w KQkq - 0 1", BOARD_PART),
    "tilde-first": ("4k3/8/8/8/8/8/8/~Q3K3 w - - 0 1", BOARD_PART),
    # side to move
    "turn-x": (f"{START_BOARD} x KQkq - 0 1", "x"),
    "turn-W": (f"{START_BOARD} W KQkq - 0 1", "W"),
    "turn-white": (f"{START_BOARD} white KQkq - 0 1", "white"),
    # castling field syntax and meaning
    "castling-garbage": (f"{START_BOARD} w KQkqX - 0 1", "KQkqX"),
    "castling-lower-first": (f"{START_BOARD} w kQ - 0 1", "kQ"),
    "castling-three-white": (f"{START_BOARD} w KQK - 0 1", "KQK"),
    "castling-without-rook": ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "K"),
    "castling-without-black-rook": ("4k3/8/8/8/8/8/8/4K2R w Kk - 0 1", "Kk"),
    "castling-king-off-e1": ("4k3/8/8/8/8/8/8/3K3R w K - 0 1", "K"),
    "castling-rook-moved": ("r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1", "KQkq"),
    "castling-bad-shredder-file": ("4k3/8/8/8/8/8/8/4K2R w KA - 0 1", "KA"),
    # en passant
    "ep-wrong-rank-for-side": (f"{START_BOARD} w KQkq e3 0 1", "e3"),
    "ep-no-pawn-pushed": (f"{START_BOARD} w KQkq e6 0 1", "e6"),
    "ep-not-a-square": (f"{START_BOARD} w KQkq e9 0 1", "e9"),
    "ep-upper-case": (f"{START_BOARD} w KQkq E6 0 1", "E6"),
    "ep-double-dash": (f"{START_BOARD} w KQkq -- 0 1", "--"),
    # clocks
    "halfmove-not-a-number": (f"{START_BOARD} w KQkq - x 1", "x"),
    "halfmove-decimal": (f"{START_BOARD} w KQkq - 1.5 1", "1.5"),
    "halfmove-negative": (f"{START_BOARD} w KQkq - -1 1", "-1"),
    "fullmove-not-a-number": (f"{START_BOARD} w KQkq - 0 y", "y"),
    "fullmove-negative": (f"{START_BOARD} w KQkq - 0 -3", "-3"),
    # kings
    "no-black-king": ("8/8/8/8/8/8/8/4K3 w - - 0 1", "8/8/8/8/8/8/8/4K3"),
    "no-white-king": ("4k3/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/8"),
    "empty-board": ("8/8/8/8/8/8/8/8 w - - 0 1", "8/8/8/8/8/8/8/8"),
    "two-white-kings": ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "4k3/8/8/8/8/8/8/3KK3"),
    "two-black-kings": ("3kk3/8/8/8/8/8/8/4K3 w - - 0 1", "3kk3/8/8/8/8/8/8/4K3"),
    # position
    "side-not-to-move-in-check": ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "4k3/8/8/8/8/8/8/4R1K1"),
    "black-not-to-move-in-check": ("4k3/8/8/8/8/8/8/4r1K1 b - - 0 1", "4k3/8/8/8/8/8/8/4r1K1"),
    "white-pawn-on-rank-8": ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "4k2P/8/8/8/8/8/8/4K3"),
    "black-pawn-on-rank-1": ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "4k3/8/8/8/8/8/8/p3K3"),
    # nothing at all
    "empty-string": ("", ""),
    "only-spaces": ("   ", ""),
    "garbage": ("hello world", "hello"),
    "very-long": ("8/" * 2000 + "8 w - - 0 1", BOARD_PART),
}


# Well-formed FENs of positions no game reaches: boards, as in python-chess.
INVALID_POSITIONS = {name: case for name, case in BAD_FENS.items() if oracle_accepts(case[0])}
MALFORMED = {name: case for name, case in BAD_FENS.items() if name not in INVALID_POSITIONS}


def test_the_case_list_keeps_both_kinds():
    for name in [
        "no-black-king",
        "two-white-kings",
        "side-not-to-move-in-check",
        "ep-no-pawn-pushed",
        "castling-without-rook",
        "white-pawn-on-rank-8",
    ]:
        assert name in INVALID_POSITIONS
    for name in ["extra-field", "turn-x", "castling-garbage", "ep-not-a-square", "empty-string"]:
        assert name in MALFORMED


@pytest.mark.parametrize(
    ("fen", "field"), list(INVALID_POSITIONS.values()), ids=list(INVALID_POSITIONS)
)
def test_invalid_position_is_a_board(fen, field):
    board = pychess_rs.Board(fen)
    oracle = chess.Board(fen)
    assert board.status() == oracle.status() != chess.STATUS_VALID
    assert not board.is_valid()
    assert board.fen() == oracle.fen()
    assert board.castling_rights == oracle.castling_rights
    assert board.ep_square == oracle.ep_square
    assert {m.uci() for m in board.legal_moves} == {m.uci() for m in oracle.legal_moves}


@pytest.mark.parametrize(("fen", "field"), list(MALFORMED.values()), ids=list(MALFORMED))
def test_bad_fen_is_rejected(fen, field):
    assert not oracle_accepts(fen), "the case list agrees with the python-chess contract"
    with pytest.raises(pychess_rs.InvalidFenError) as info:
        pychess_rs.Board(fen)
    assert isinstance(info.value, ValueError)
    if fen.strip():
        if field is BOARD_PART:
            field = fen.split()[0]
        assert_names(str(info.value), fen.strip(), field)


@pytest.mark.parametrize(("fen", "field"), list(MALFORMED.values()), ids=list(MALFORMED))
def test_failed_set_fen_changes_nothing(fen, field):
    board = pychess_rs.Board()
    board.push_san("e4")
    before = board.fen()
    with pytest.raises(pychess_rs.InvalidFenError):
        board.set_fen(fen)
    assert board.fen() == before
    assert board.move_stack == [pychess_rs.Move.from_uci("e2e4")]
    assert board.pop() == pychess_rs.Move.from_uci("e2e4")
    assert board.fen() == START


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",  # no rook for the right
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgbA - 0 1",  # syntax
        "rk6/8/8/8/8/8/8/RK6 w B - 0 1",  # the right names the king's own file
    ],
)
def test_bad_chess960_fen_is_rejected_or_flagged(fen):
    if not oracle_accepts(fen, chess960=True):
        with pytest.raises(pychess_rs.InvalidFenError):
            pychess_rs.Board(fen, chess960=True)
        return
    # Well formed: a board whose rights python-chess calls bad, as we do.
    board = pychess_rs.Board(fen, chess960=True)
    oracle = chess.Board(fen, chess960=True)
    assert board.status() == oracle.status() == chess.STATUS_BAD_CASTLING_RIGHTS
    assert board.fen() == oracle.fen()


def test_shredder_castling_in_standard_mode_is_kept_raw():
    fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"
    assert pychess_rs.Board(fen, chess960=True).is_valid()
    board, oracle = pychess_rs.Board(fen), chess.Board(fen)
    assert board.status() == oracle.status() == chess.STATUS_BAD_CASTLING_RIGHTS
    assert board.castling_rights == oracle.castling_rights != 0
    assert board.clean_castling_rights() == oracle.clean_castling_rights() == 0


def test_bad_epd_is_rejected():
    with pytest.raises(pychess_rs.InvalidFenError):
        pychess_rs.Board.from_epd("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq -")
    board, operations = pychess_rs.Board.from_epd("4k3/8/8/8/8/8/8/8 w - -")
    assert board.status() == chess.STATUS_NO_WHITE_KING and operations == {}


# --- the FEN contract ---------------------------------------------------------------------

# (FEN, python-chess's verdict under the contract). Every row is also checked against
# python-chess itself, so the expectation cannot drift from the oracle.
CONTRACT = [
    # fewer fields than six are completed with defaults
    (START_BOARD, True),
    (f"{START_BOARD} b", True),
    (f"{START_BOARD} w KQkq", True),
    (f"{START_BOARD} w KQkq -", True),
    (f"{START_BOARD} w KQkq - 7", True),
    # any whitespace between and around fields
    (f"  {START_BOARD}   w KQkq -  0 1 ", True),
    (f"{START_BOARD}\tw\tKQkq\t-\t0\t1", True),
    # clocks
    (f"{START_BOARD} w KQkq - 0 0", True),  # fullmove 0 is read as 1
    (f"{START_BOARD} w KQkq - 500 1", True),
    (f"{START_BOARD} w KQkq - 0 -1", False),
    (f"{START_BOARD} w KQkq - -1 1", False),
    # castling: order, duplicates, Shredder letters in standard chess, impossible rights (kept
    # raw, status() flags them)
    (f"{START_BOARD} w qk - 0 1", True),
    (f"{START_BOARD} w Qk - 0 1", True),
    (f"{START_BOARD} w KK - 0 1", True),
    (f"{START_BOARD} w HAha - 0 1", True),
    (f"{START_BOARD} w kQ - 0 1", False),
    (f"{START_BOARD} w K-q - 0 1", False),
    ("4k2r/6K1/8/8/8/8/8/8 w k - 0 1", True),
    ("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1", True),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", True),
    ("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", True),
    # en passant: any square is kept as given (and written back only if a capture is legal)
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", True),
    ("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", True),
    (f"{START_BOARD} w KQkq e3 0 1", True),
    (f"{START_BOARD} b KQkq e3 0 1", True),
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", True),
    ("rnbqkbnr/pppppppp/8/8/4P3/4P3/PPP2PPP/RNBQKBNR b KQkq e3 0 1", True),
    # material no game reaches, pawns on the back rank, checks: positions of any kind
    ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", True),  # nine white pawns
    ("rnbqkbnr/pppppppp/p7/8/8/8/8/4K3 b kq - 0 1", True),  # nine black pawns
    ("4k3/8/8/8/8/7N/PPPPPPPP/NNNNKNNN w - - 0 1", True),  # seventeen white pieces
    ("4k3/8/8/8/8/8/PPPPPPPP/PPPPK3 w - - 0 1", True),  # pawns on the back rank
    # checks
    ("R3k2R/8/8/8/8/8/8/4K3 b - - 0 1", True),  # impossible double check
    ("R3k2R/8/8/8/8/8/8/4R1K1 b - - 0 1", True),  # triple check
    ("4k3/2N3N1/8/8/8/8/8/4K3 b - - 0 1", True),
    ("8/8/8/8/4pP2/8/8/k5RK b - f3 0 1", True),  # check the last double step cannot explain
    ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", True),
    # crazyhouse-style promoted marker after a piece
    ("4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1", True),
    ("4k3/8/8/8/8/8/8/~Q3K3 w - - 0 1", False),
]


@pytest.mark.parametrize(("fen", "accepted"), CONTRACT)
def test_fen_contract(fen, accepted):
    assert oracle_accepts(fen) == accepted, "python-chess disagrees with the table"
    if accepted:
        board = pychess_rs.Board(fen)
        oracle = chess.Board(fen)
        assert board.fen() == oracle.fen()
        assert board.status() == oracle.status()
        assert {m.uci() for m in board.legal_moves} == {m.uci() for m in oracle.legal_moves}
    else:
        with pytest.raises(pychess_rs.InvalidFenError):
            pychess_rs.Board(fen)


@pytest.mark.parametrize(
    "fen",
    [
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1",
        "rkr5/8/8/8/8/8/8/RKR5 w CAca - 0 1",
        "rkr5/8/8/8/8/8/8/RKR5 w KQkq - 0 1",
        START,
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "rk6/8/8/8/8/8/8/RK6 w A - 0 1",
    ],
)
def test_fen_contract_chess960(fen):
    accepted = oracle_accepts(fen, chess960=True)
    if accepted:
        board = pychess_rs.Board(fen, chess960=True)
        assert board.fen() == chess.Board(fen, chess960=True).fen()
    else:
        with pytest.raises(pychess_rs.InvalidFenError):
            pychess_rs.Board(fen, chess960=True)


# --- bad moves ----------------------------------------------------------------------------


def test_push_of_an_illegal_move_raises_and_changes_nothing():
    board = pychess_rs.Board()
    board.push_san("e4")
    before, stack, key = board.fen(), board.move_stack, board.zobrist_hash()
    for uci in ["e2e4", "e4e5", "d7d3", "e8e7", "a7a8q"]:
        with pytest.raises(pychess_rs.IllegalMoveError):
            board.push(pychess_rs.Move.from_uci(uci))
        assert board.fen() == before
        assert board.move_stack == stack
        assert board.zobrist_hash() == key


def test_push_of_a_non_move_or_wrong_arity_raises_type_error_and_changes_nothing():
    # push is a METH_O method (see rust/python/src/single_arg.rs): its argument checks and
    # error paths are ours, not PyO3's, so they are pinned here.
    board = pychess_rs.Board()
    before = board.fen()
    for bad_call in [
        lambda: board.push("e2e4"),  # type: ignore[arg-type]
        lambda: board.push(None),  # type: ignore[arg-type]
        lambda: board.push(),  # type: ignore[call-arg]
        lambda: board.push(pychess_rs.Move.from_uci("e2e4"), pychess_rs.Move.from_uci("e7e5")),  # type: ignore[call-arg]
        lambda: board.push(move=pychess_rs.Move.from_uci("e2e4")),  # type: ignore[call-arg]
    ]:
        with pytest.raises(TypeError):
            bad_call()
        assert board.fen() == before
    assert "expected a Move, got str" in _message(lambda: board.push("e2e4"))  # type: ignore[arg-type]
    assert inspect.signature(pychess_rs.Board.push).parameters.keys() == {"self", "move"}


def test_pop_on_an_empty_stack_or_with_arguments_raises_and_changes_nothing():
    # pop is a METH_NOARGS method of ours (rust/python/src/fast_methods.rs).
    board = pychess_rs.Board()
    with pytest.raises(IndexError, match="pop from empty list"):
        board.pop()
    board.push_san("e4")
    with pytest.raises(TypeError):
        board.pop(0)  # type: ignore[call-arg]
    assert board.move_stack == [pychess_rs.Move.from_uci("e2e4")]
    assert board.pop() == pychess_rs.Move.from_uci("e2e4")
    assert board.fen() == pychess_rs.STARTING_FEN


def _message(call: Callable[[], object]) -> str:
    try:
        call()
    except TypeError as error:
        return str(error)
    raise AssertionError("no TypeError")


def test_push_works_on_subclasses_and_rejects_other_selves():
    class MyBoard(pychess_rs.Board):
        pass

    board = MyBoard()
    board.push(pychess_rs.Move.from_uci("g1f3"))
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
    assert board.pop() == pychess_rs.Move.from_uci("g1f3")
    assert board.fen() == pychess_rs.STARTING_FEN
    with pytest.raises(TypeError):
        pychess_rs.Board.push(object(), pychess_rs.Move.from_uci("e2e4"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        pychess_rs.Board.pop(object())  # type: ignore[arg-type]


def test_push_uci_errors_change_nothing():
    board = pychess_rs.Board()
    with pytest.raises(pychess_rs.IllegalMoveError) as info:
        board.push_uci("e2e5")
    assert "e2e5" in str(info.value)
    with pytest.raises(pychess_rs.InvalidMoveError) as info:
        board.push_uci("e2e")
    assert "e2e" in str(info.value)
    assert board.fen() == START
    assert board.move_stack == []


def test_push_san_errors_change_nothing():
    board = pychess_rs.Board("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    before = board.fen()
    for san, exc in [
        ("Nd2", pychess_rs.AmbiguousMoveError),
        ("Nd4", pychess_rs.IllegalMoveError),
        ("Nd9", pychess_rs.InvalidMoveError),
        ("", pychess_rs.InvalidMoveError),
    ]:
        with pytest.raises(exc):
            board.push_san(san)
        assert board.fen() == before
        assert board.move_stack == []


def test_move_errors_are_value_errors_with_the_input_in_the_message():
    board = pychess_rs.Board()
    for call, text in [
        (lambda: board.parse_uci("e2e5"), "e2e5"),
        (lambda: board.parse_san("Ke2"), "Ke2"),
        (lambda: board.parse_san("Zz9"), "Zz9"),
        (lambda: pychess_rs.Move.from_uci("zz99"), "zz99"),
    ]:
        with pytest.raises(ValueError) as info:
            call()
        assert text in str(info.value)


def test_illegal_uci_message_names_the_position():
    # python-chess style: "illegal uci: 'e2e5' in <fen>"
    with pytest.raises(pychess_rs.IllegalMoveError) as info:
        pychess_rs.Board().parse_uci("e2e5")
    assert START in str(info.value)


def test_pop_and_peek_on_an_empty_stack_raise_index_error():
    board = pychess_rs.Board()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()
    board.push_san("e4")
    board.pop()
    with pytest.raises(IndexError):
        board.pop()
    assert board.fen() == START


def test_set_fen_after_moves_then_pop_raises():
    board = pychess_rs.Board()
    board.push_san("e4")
    board.set_fen(START)
    with pytest.raises(IndexError):
        board.pop()


def test_errors_leave_the_board_usable():
    board = pychess_rs.Board()
    for bad in ["", "garbage", "8/8/8/8/8/8/8/8 x - - 0 1"]:
        with pytest.raises(pychess_rs.InvalidFenError):
            board.set_fen(bad)
    with pytest.raises(pychess_rs.IllegalMoveError):
        board.push_uci("e2e5")
    board.push_san("e4")
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert board.legal_moves.count() == 20


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux /proc")
def test_failed_push_and_pop_release_their_exceptions_at_once():
    # push and pop bypass PyO3's wrappers (fast_methods.rs); their error path must still
    # release the exception's objects at once, not defer them to a later PyO3 call (a loop
    # of only failing push/pop calls once grew by ~230 bytes per call).
    board = pychess_rs.Board()
    illegal = pychess_rs.Move.from_uci("e2e5")

    def fail_many(n: int) -> None:
        for _ in range(n):
            with contextlib.suppress(pychess_rs.IllegalMoveError):
                board.push(illegal)
            with contextlib.suppress(IndexError):
                board.pop()

    fail_many(10_000)  # warm up allocator pools
    before = _resident_bytes()
    fail_many(100_000)
    assert _resident_bytes() - before < 5_000_000
