"""Board: construction, FEN/EPD, the move stack, queries, move classification, hashing,
diagrams, equality, pickling, python-chess conversion, Chess960 and perft.

Expected values are hard facts (perft counts, Polyglot keys) or come from python-chess.
"""

from __future__ import annotations

import copy
import pickle
import threading
from pathlib import Path

import chess
import chess.polyglot
import pytest

import pychess_rs
from pychess_rs import perft_cli

DATA = Path(__file__).parent / "data"

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# Positions that exercise most of the move generator (checks, pins, en passant, castling,
# promotions), used for the differential checks against python-chess below.
TRICKY_FENS = [
    pychess_rs.STARTING_FEN,
    KIWIPETE,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",  # en passant would expose the king
    "4k3/8/8/8/8/8/8/r3K2R w K - 0 1",  # in check: no castling
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # mated
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemated
    "4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1",  # promotions both ways
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",  # en passant captures the checking pawn
    "8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1",  # en passant pinned on a diagonal
]


def uci_set(moves) -> set[str]:
    return {m.uci() for m in moves}


# --- construction and FEN -----------------------------------------------------------------


def test_default_board_is_the_starting_position():
    board = pychess_rs.Board()
    assert board.fen() == pychess_rs.STARTING_FEN
    assert board.turn == pychess_rs.WHITE
    assert board.castling_rights == (1 << pychess_rs.A1) | (1 << pychess_rs.H1) | (
        1 << pychess_rs.A8
    ) | (1 << pychess_rs.H8)
    assert board.ep_square is None
    assert board.halfmove_clock == 0
    assert board.fullmove_number == 1
    assert board.move_stack == []
    assert board.ply() == 0
    assert board.chess960 is False


@pytest.mark.parametrize("fen", TRICKY_FENS)
def test_fen_round_trip(fen):
    expected = chess.Board(fen).fen()
    board = pychess_rs.Board(fen)
    assert board.fen() == expected
    assert pychess_rs.Board(board.fen()).fen() == expected


@pytest.mark.parametrize("fen", TRICKY_FENS)
def test_epd_and_board_fen_match_python_chess(fen):
    oracle = chess.Board(fen)
    board = pychess_rs.Board(fen)
    assert board.epd() == oracle.epd()
    assert board.board_fen() == oracle.board_fen()
    assert board.board_fen() == fen.split()[0]


def test_state_fields_from_fen():
    board = pychess_rs.Board("r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 7 42")
    assert board.turn == pychess_rs.WHITE
    assert board.castling_rights == (1 << pychess_rs.H1) | (1 << pychess_rs.A8)
    assert board.ep_square == pychess_rs.D6
    assert board.halfmove_clock == 7
    assert board.fullmove_number == 42
    assert board.ply() == 82
    black = pychess_rs.Board("4k3/8/8/8/8/8/8/4K3 b - - 0 10")
    assert black.turn == pychess_rs.BLACK
    assert black.ply() == 19


def test_fen_writes_ep_square_only_when_capture_is_legal():
    board = pychess_rs.Board()
    board.push_san("e4")
    # python-chess keeps the raw ep square after a double step ...
    assert board.ep_square == pychess_rs.E3
    # ... but writes it to the FEN only when an en-passant capture is legal.
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    for san in ["d5", "e5", "f5"]:
        board.push_san(san)
    assert board.ep_square == pychess_rs.F6
    assert board.fen() == "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    assert board.epd() == "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6"


def test_fen_drops_ep_square_when_capture_is_pseudo_legal_only():
    fen = "8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1"
    board = pychess_rs.Board(fen)
    assert board.ep_square == pychess_rs.D6
    assert board.fen() == chess.Board(fen).fen() == "8/5bk1/8/2Pp4/8/1K6/8/8 w - - 0 1"


def test_set_fen_replaces_everything_and_clears_the_stack():
    board = pychess_rs.Board()
    board.push_san("e4")
    board.set_fen(KIWIPETE)
    assert board.fen() == KIWIPETE
    assert board.move_stack == []
    with pytest.raises(IndexError):
        board.pop()


def test_fullmove_number_zero_is_read_as_one():
    board = pychess_rs.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 0")
    assert board.fullmove_number == 1
    assert board.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


@pytest.mark.parametrize(
    "fen",
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5",
        "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w KQkq -  0 1 ",
    ],
)
def test_missing_trailing_fields_take_python_chess_defaults(fen):
    assert pychess_rs.Board(fen).fen() == chess.Board(fen).fen()


def test_from_epd_returns_board_and_operations():
    board, ops = pychess_rs.Board.from_epd(
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "start"; hmvc 3;'
    )
    assert isinstance(board, pychess_rs.Board)
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 1"
    assert ops == {"id": "start", "hmvc": 3}


def test_epd_with_operations():
    assert pychess_rs.Board().epd(id="start") == (
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "start";'
    )


# --- the move stack -----------------------------------------------------------------------


def test_push_pop_peek_and_move_stack():
    board = pychess_rs.Board()
    moves = [pychess_rs.Move.from_uci(u) for u in ["e2e4", "e7e5", "g1f3"]]
    fens = [board.fen()]
    for move in moves:
        assert board.push(move) is None
        fens.append(board.fen())
    assert board.move_stack == moves
    assert board.peek() == moves[-1]
    assert board.ply() == 3
    assert board.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    for move in reversed(moves):
        assert board.pop() == move
        fens.pop()
        assert board.fen() == fens[-1]
    assert board.move_stack == []
    assert board.ply() == 0


def test_move_stack_is_a_list_of_moves():
    board = pychess_rs.Board()
    board.push_san("e4")
    stack = board.move_stack
    assert isinstance(stack, list)
    assert stack == [pychess_rs.Move.from_uci("e2e4")]


def test_push_uci_and_push_san_return_the_move():
    board = pychess_rs.Board()
    assert board.push_uci("e2e4") == pychess_rs.Move.from_uci("e2e4")
    assert board.push_san("e5") == pychess_rs.Move.from_uci("e7e5")
    assert board.parse_uci("g1f3") == pychess_rs.Move.from_uci("g1f3")
    assert board.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def test_pop_and_peek_on_empty_stack_raise_index_error():
    board = pychess_rs.Board()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()
    assert board.fen() == pychess_rs.STARTING_FEN


def test_null_move_push_and_pop():
    board = pychess_rs.Board()
    board.push_san("e4")
    board.push(pychess_rs.Move.null())
    expected = chess.Board()
    expected.push_san("e4")
    expected.push(chess.Move.null())
    assert board.fen() == expected.fen()
    assert board.turn == pychess_rs.WHITE
    assert board.ep_square is None
    assert board.pop() == pychess_rs.Move.null()
    assert board.ep_square == pychess_rs.E3


def test_copy_is_independent_and_keeps_the_stack():
    board = pychess_rs.Board()
    board.push_san("e4")
    clone = board.copy()
    assert clone.move_stack == board.move_stack
    assert clone.fen() == board.fen()
    clone.push_san("e5")
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert len(board.move_stack) == 1
    assert clone.pop() == pychess_rs.Move.from_uci("e7e5")
    assert clone.pop() == pychess_rs.Move.from_uci("e2e4")
    assert clone.fen() == pychess_rs.STARTING_FEN


def test_copy_without_stack():
    board = pychess_rs.Board()
    board.push_san("e4")
    clone = board.copy(stack=False)
    assert clone.move_stack == []
    assert clone.fen() == board.fen()


def test_reset():
    board = pychess_rs.Board(KIWIPETE)
    board.push_san("O-O")
    board.reset()
    assert board.fen() == pychess_rs.STARTING_FEN
    assert board.move_stack == []


def test_clear_stack_keeps_the_position():
    board = pychess_rs.Board()
    for san in ["e4", "d5", "e5", "f5"]:
        board.push_san(san)
    fen = board.fen()
    board.clear_stack()
    assert board.move_stack == []
    assert board.fen() == fen
    assert pychess_rs.Move.from_uci("e5f6") in board.legal_moves
    with pytest.raises(IndexError):
        board.pop()


# --- queries ------------------------------------------------------------------------------


@pytest.mark.parametrize("fen", TRICKY_FENS)
def test_piece_queries_match_python_chess(fen):
    board, oracle = pychess_rs.Board(fen), chess.Board(fen)
    ours = {sq: p.symbol() for sq, p in board.piece_map().items()}
    theirs = {sq: p.symbol() for sq, p in oracle.piece_map().items()}
    assert ours == theirs
    for sq in pychess_rs.SQUARES:
        piece = board.piece_at(sq)
        assert (piece.symbol() if piece else None) == (
            oracle.piece_at(sq).symbol() if oracle.piece_at(sq) else None
        )
        assert board.color_at(sq) == oracle.color_at(sq)
        assert board.piece_type_at(sq) == oracle.piece_type_at(sq)
    for color in pychess_rs.COLORS:
        assert board.king(color) == oracle.king(color)


@pytest.mark.parametrize("fen", TRICKY_FENS)
def test_attack_queries_match_python_chess(fen):
    board, oracle = pychess_rs.Board(fen), chess.Board(fen)
    assert int(board.checkers()) == int(oracle.checkers())
    assert board.is_check() == oracle.is_check()
    for color in pychess_rs.COLORS:
        for sq in pychess_rs.SQUARES:
            assert int(board.attackers(color, sq)) == int(oracle.attackers(color, sq))
            assert board.is_attacked_by(color, sq) == oracle.is_attacked_by(color, sq)
            assert board.is_pinned(color, sq) == oracle.is_pinned(color, sq)
            assert int(board.pin(color, sq)) == int(oracle.pin(color, sq))


def test_piece_at_and_friends_on_the_start_position():
    board = pychess_rs.Board()
    assert board.piece_at(pychess_rs.E1) == pychess_rs.Piece(pychess_rs.KING, pychess_rs.WHITE)
    assert board.piece_at(pychess_rs.D8) == pychess_rs.Piece.from_symbol("q")
    assert board.piece_at(pychess_rs.E4) is None
    assert board.color_at(pychess_rs.A7) == pychess_rs.BLACK
    assert board.color_at(pychess_rs.A5) is None
    assert board.piece_type_at(pychess_rs.G1) == pychess_rs.KNIGHT
    assert board.piece_type_at(pychess_rs.G3) is None
    assert board.king(pychess_rs.WHITE) == pychess_rs.E1
    assert board.king(pychess_rs.BLACK) == pychess_rs.E8
    assert len(board.piece_map()) == 32


def test_pin_and_checkers():
    board = pychess_rs.Board("4k3/4r3/8/8/1b6/8/3N4/4K3 w - - 0 1")
    # The d2 knight is pinned by the b4 bishop; the pin ray is the whole a5-e1 diagonal.
    assert board.is_pinned(pychess_rs.WHITE, pychess_rs.D2)
    assert set(board.pin(pychess_rs.WHITE, pychess_rs.D2)) == {
        pychess_rs.E1,
        pychess_rs.D2,
        pychess_rs.C3,
        pychess_rs.B4,
        pychess_rs.A5,
    }
    assert not board.is_pinned(pychess_rs.WHITE, pychess_rs.E1)
    assert board.pin(pychess_rs.WHITE, pychess_rs.E1) == chess.BB_ALL
    # The e7 rook gives check.
    assert board.is_check()
    assert set(board.checkers()) == {pychess_rs.E7}
    assert board.is_attacked_by(pychess_rs.BLACK, pychess_rs.E1)
    assert not board.is_attacked_by(pychess_rs.BLACK, pychess_rs.F1)


# --- legal move views ---------------------------------------------------------------------


@pytest.mark.parametrize("fen", TRICKY_FENS)
def test_legal_moves_match_python_chess(fen):
    board, oracle = pychess_rs.Board(fen), chess.Board(fen)
    expected = uci_set(oracle.legal_moves)
    assert uci_set(board.legal_moves) == expected
    assert uci_set(board.generate_legal_moves()) == expected
    assert board.legal_moves.count() == len(expected)
    assert len(board.legal_moves) == len(expected)
    assert bool(board.legal_moves) == bool(expected)
    assert len(list(board.legal_moves)) == len(expected), "no duplicates"
    for uci in expected:
        assert pychess_rs.Move.from_uci(uci) in board.legal_moves
        assert board.is_legal(pychess_rs.Move.from_uci(uci))


@pytest.mark.parametrize("fen", TRICKY_FENS)
def test_pseudo_legal_moves_match_python_chess(fen):
    board, oracle = pychess_rs.Board(fen), chess.Board(fen)
    expected = uci_set(oracle.pseudo_legal_moves)
    assert uci_set(board.pseudo_legal_moves) == expected
    assert uci_set(board.generate_pseudo_legal_moves()) == expected
    assert board.pseudo_legal_moves.count() == len(expected)
    for uci in expected:
        assert board.is_pseudo_legal(pychess_rs.Move.from_uci(uci))
        assert pychess_rs.Move.from_uci(uci) in board.pseudo_legal_moves


@pytest.mark.parametrize("fen", TRICKY_FENS)
def test_legal_captures_match_python_chess(fen):
    board, oracle = pychess_rs.Board(fen), chess.Board(fen)
    assert uci_set(board.generate_legal_captures()) == uci_set(oracle.generate_legal_captures())


@pytest.mark.parametrize("fen", TRICKY_FENS)
def test_is_legal_over_every_from_to_pair(fen):
    board, oracle = pychess_rs.Board(fen), chess.Board(fen)
    for a in pychess_rs.SQUARES:
        for b in pychess_rs.SQUARES:
            if a == b:
                continue
            promos = (
                (None, pychess_rs.QUEEN, pychess_rs.KNIGHT) if board.piece_type_at(a) else (None,)
            )
            for promo in promos:
                theirs = chess.Move(a, b, promo)
                ours = pychess_rs.Move(a, b, promo)
                assert board.is_legal(ours) == oracle.is_legal(theirs), ours.uci()
                assert board.is_pseudo_legal(ours) == oracle.is_pseudo_legal(theirs), ours.uci()


def test_legal_moves_view_is_live():
    board = pychess_rs.Board()
    view = board.legal_moves
    assert len(view) == 20
    board.push_san("e4")
    assert len(view) == 20  # 20 replies for Black too, but different ones:
    assert pychess_rs.Move.from_uci("e7e5") in view
    assert pychess_rs.Move.from_uci("e2e4") not in view


def test_legal_moves_of_mate_and_stalemate_are_empty():
    mate = pychess_rs.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert not mate.legal_moves
    assert len(mate.legal_moves) == 0
    assert list(mate.legal_moves) == []
    stale = pychess_rs.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stale.legal_moves.count() == 0


def test_null_move_and_garbage_are_not_legal():
    board = pychess_rs.Board()
    assert not board.is_legal(pychess_rs.Move.null())
    assert pychess_rs.Move.null() not in board.legal_moves
    assert not board.is_legal(pychess_rs.Move.from_uci("e2e5"))
    assert not board.is_pseudo_legal(pychess_rs.Move.from_uci("e2e5"))
    assert not board.is_legal(pychess_rs.Move.from_uci("e7e5")), "not the side to move"
    assert not board.is_legal(pychess_rs.Move.from_uci("e2e4q")), (
        "promotion on a non-promoting move"
    )


def test_python_chess_moves_are_taken_wherever_a_move_is():
    board = pychess_rs.Board(KIWIPETE)
    oracle = chess.Board(KIWIPETE)
    methods = ["is_legal", "is_pseudo_legal", "is_capture", "is_castling", "is_en_passant"]
    methods += ["is_zeroing", "is_irreversible", "gives_check", "is_into_check", "uci", "xboard"]
    for theirs in [*oracle.pseudo_legal_moves, chess.Move.from_uci("e2e5")]:
        ours = pychess_rs.Move.from_uci(theirs.uci())
        for method in methods:
            assert getattr(board, method)(theirs) == getattr(board, method)(ours), method
        assert (theirs in board.legal_moves) == (ours in board.legal_moves)
        assert (theirs in board.pseudo_legal_moves) == (ours in board.pseudo_legal_moves)
    castle = chess.Move.from_uci("e1g1")
    assert board.san(castle) == oracle.san(castle)
    assert board.lan(castle) == oracle.lan(castle)
    assert board.variation_san([castle, chess.Move.from_uci("a8b8")]) == "1. O-O Rb8"
    assert board.zobrist_hash_after(castle) == chess.polyglot.zobrist_hash(_pushed(oracle, castle))
    board.push(castle)
    assert board.peek() == pychess_rs.Move.from_uci("e1g1")
    board.push(chess.Move.null())
    assert board.pop() == pychess_rs.Move.null()
    assert board.san_and_push(chess.Move.from_uci("a8b8")) == "Rb8"
    assert board.epd(bm=chess.Move.from_uci("e5f7")).endswith(" bm Nxf7;")
    with pytest.raises(pychess_rs.IllegalMoveError, match="illegal move 'a1a8' in "):
        board.san(chess.Move.from_uci("a1a8"))
    with pytest.raises(pychess_rs.IllegalMoveError, match="P@e4"):
        board.push(chess.Move.from_uci("P@e4"))


def _pushed(board: chess.Board, move: chess.Move) -> chess.Board:
    after = board.copy()
    after.push(move)
    return after


def test_standard_castling_accepts_king_takes_rook_like_python_chess():
    board = pychess_rs.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert board.is_legal(pychess_rs.Move.from_uci("e1h1"))
    assert board.is_castling(pychess_rs.Move.from_uci("e1h1"))
    assert board.parse_uci("e1h1") == pychess_rs.Move.from_uci("e1g1")
    assert "e1g1" in uci_set(board.legal_moves)
    assert "e1h1" not in uci_set(board.legal_moves)
    board.push_uci("e1h1")
    assert board.move_stack == [pychess_rs.Move.from_uci("e1g1")]
    assert board.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"


# --- move classification ------------------------------------------------------------------


EP_FEN = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"


@pytest.mark.parametrize(
    ("fen", "uci", "capture", "en_passant", "castling", "check", "zeroing"),
    [
        (EP_FEN, "e5f6", True, True, False, False, True),
        (EP_FEN, "g1f3", False, False, False, False, False),
        (EP_FEN, "d1h5", False, False, False, True, False),
        (KIWIPETE, "e1g1", False, False, True, False, False),
        (KIWIPETE, "e1c1", False, False, True, False, False),
        (KIWIPETE, "e5f7", True, False, False, False, True),
        (KIWIPETE, "d5e6", True, False, False, False, True),
        (KIWIPETE, "a2a3", False, False, False, False, True),
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", False, False, True, True, False),
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", False, False, False, True, False),
        ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", False, False, False, True, True),
        ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", False, False, False, False, True),
    ],
)
def test_move_classification(fen, uci, capture, en_passant, castling, check, zeroing):
    board, oracle = pychess_rs.Board(fen), chess.Board(fen)
    move, omove = pychess_rs.Move.from_uci(uci), chess.Move.from_uci(uci)
    assert (capture, en_passant, castling, zeroing) == (
        oracle.is_capture(omove),
        oracle.is_en_passant(omove),
        oracle.is_castling(omove),
        oracle.is_zeroing(omove),
    )
    assert board.is_capture(move) == capture
    assert board.is_en_passant(move) == en_passant
    assert board.is_castling(move) == castling
    assert board.is_zeroing(move) == zeroing
    if oracle.is_legal(omove):
        assert oracle.gives_check(omove) == check
        assert board.gives_check(move) == check


def test_en_passant_capture_removes_the_pawn():
    board = pychess_rs.Board(EP_FEN)
    board.push_uci("e5f6")
    assert board.piece_at(pychess_rs.F5) is None
    assert board.piece_at(pychess_rs.F6) == pychess_rs.Piece.from_symbol("P")
    assert board.halfmove_clock == 0


def test_halfmove_clock_and_fullmove_number():
    board = pychess_rs.Board()
    board.push_san("Nf3")
    assert (board.halfmove_clock, board.fullmove_number) == (1, 1)
    board.push_san("Nf6")
    assert (board.halfmove_clock, board.fullmove_number) == (2, 2)
    board.push_san("e4")
    assert (board.halfmove_clock, board.fullmove_number) == (0, 2)
    board.push_san("Nxe4")
    assert (board.halfmove_clock, board.fullmove_number) == (0, 3)
    board.pop()
    assert (board.halfmove_clock, board.fullmove_number) == (0, 2)


def test_castling_rights_bitmask_follows_the_game():
    board = pychess_rs.Board(KIWIPETE)
    board.push_san("Rb1")  # a1 rook leaves
    assert board.castling_rights == (1 << pychess_rs.H1) | (1 << pychess_rs.A8) | (
        1 << pychess_rs.H8
    )
    board.push_san("Kf8")  # black king leaves
    assert board.castling_rights == 1 << pychess_rs.H1
    board.push_san("Bxa6")
    board.pop()
    board.push_san("O-O")
    assert board.castling_rights == 0
    board.pop()
    board.pop()
    board.pop()
    assert board.castling_rights == chess.Board(KIWIPETE).castling_rights


# --- Zobrist hash (Polyglot keys) ---------------------------------------------------------

# Reference keys from the Polyglot book format specification.
POLYGLOT_KEYS = [
    ("", 0x463B96181691FC9C),
    ("e2e4", 0x823C9B50FD114196),
    ("e2e4 d7d5", 0x0756B94461C50FB0),
    ("e2e4 d7d5 e4e5", 0x662FAFB965DB29D4),
    ("e2e4 d7d5 e4e5 f7f5", 0x22A48B5A8E47FF78),
    ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652A607CA3F242C1),
    ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00FDD303C946BDD9),
    ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3C8123EA7B067637),
    ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5C3F9B829B279560),
]


@pytest.mark.parametrize(("ucis", "key"), POLYGLOT_KEYS)
def test_zobrist_hash_matches_polyglot_reference(ucis, key):
    board = pychess_rs.Board()
    for uci in ucis.split():
        board.push_uci(uci)
    assert board.zobrist_hash() == key
    assert pychess_rs.Board(board.fen()).zobrist_hash() == key, "incremental == from scratch"


@pytest.mark.parametrize("fen", TRICKY_FENS)
def test_zobrist_hash_matches_python_chess_polyglot(fen):
    assert pychess_rs.Board(fen).zobrist_hash() == chess.polyglot.zobrist_hash(chess.Board(fen))


def test_zobrist_hash_includes_pseudo_legal_en_passant_like_polyglot():
    # The d5 pawn can only be taken en passant by a pinned pawn: the FEN drops the ep
    # square, but Polyglot (and python-chess's polyglot.zobrist_hash) still hashes it.
    fen = "8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1"
    with_ep = pychess_rs.Board(fen).zobrist_hash()
    without_ep = pychess_rs.Board("8/5bk1/8/2Pp4/8/1K6/8/8 w - - 0 1").zobrist_hash()
    assert with_ep == chess.polyglot.zobrist_hash(chess.Board(fen))
    assert with_ep != without_ep


def test_zobrist_hash_restored_by_pop():
    board = pychess_rs.Board(KIWIPETE)
    start = board.zobrist_hash()
    for uci in ["e1g1", "h3g2", "e5f7", "g2f1q"]:
        board.push_uci(uci)
    assert board.zobrist_hash() != start
    for _ in range(4):
        board.pop()
    assert board.zobrist_hash() == start


# --- mirror, diagrams, equality -----------------------------------------------------------


@pytest.mark.parametrize("fen", [*TRICKY_FENS, EP_FEN])
def test_mirror_matches_python_chess(fen):
    board = pychess_rs.Board(fen)
    mirrored = board.mirror()
    oracle = chess.Board(fen).mirror()
    assert mirrored.fen() == oracle.fen()
    assert mirrored.ep_square == oracle.ep_square
    assert mirrored.turn == (not board.turn)
    assert mirrored.move_stack == []
    assert mirrored.mirror().fen() == board.fen()
    assert board.fen() == chess.Board(fen).fen(), "mirror() does not mutate"


@pytest.mark.parametrize("fen", TRICKY_FENS)
def test_str_and_unicode_diagrams_match_python_chess(fen):
    board, oracle = pychess_rs.Board(fen), chess.Board(fen)
    assert str(board) == str(oracle)
    assert board.unicode() == oracle.unicode()
    assert board.unicode(invert_color=True) == oracle.unicode(invert_color=True)
    assert board.unicode(empty_square=".") == oracle.unicode(empty_square=".")
    assert board.unicode(borders=True) == oracle.unicode(borders=True)


def test_str_of_start_position():
    assert str(pychess_rs.Board()) == (
        "r n b q k b n r\n"
        "p p p p p p p p\n"
        ". . . . . . . .\n"
        ". . . . . . . .\n"
        ". . . . . . . .\n"
        ". . . . . . . .\n"
        "P P P P P P P P\n"
        "R N B Q K B N R"
    )
    assert pychess_rs.Board().unicode().splitlines()[0] == "♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜"
    assert pychess_rs.Board().unicode().splitlines()[3] == "⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘"


def test_repr_names_the_fen():
    assert pychess_rs.STARTING_FEN in repr(pychess_rs.Board())


def test_equality():
    a = pychess_rs.Board()
    b = pychess_rs.Board()
    assert a == b
    assert not (a != b)
    a.push_san("Nf3")
    assert a != b
    # Same position, reached by different move orders: equal (the move stack is ignored).
    for san in ["Nc6", "Nc3", "Nf6"]:
        a.push_san(san)
    for san in ["Nc3", "Nf6", "Nf3", "Nc6"]:
        b.push_san(san)
    assert a == b
    # Equal to a fresh board from the FEN.
    assert a == pychess_rs.Board(a.fen())
    # Clocks matter.
    assert pychess_rs.Board(KIWIPETE) != pychess_rs.Board(KIWIPETE.replace(" 0 1", " 1 1"))
    assert pychess_rs.Board(KIWIPETE) != pychess_rs.Board(KIWIPETE.replace(" 0 1", " 0 2"))
    # Not equal to other types.
    assert pychess_rs.Board() != pychess_rs.STARTING_FEN
    assert pychess_rs.Board() != object()


def test_equality_ignores_an_ep_square_that_cannot_be_used():
    played = pychess_rs.Board()
    played.push_san("e4")
    assert played.ep_square == pychess_rs.E3
    assert played == pychess_rs.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")


# --- pickle, copy, deepcopy ---------------------------------------------------------------

KNIGHT_SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]


def _shuffled_board() -> pychess_rs.Board:
    board = pychess_rs.Board()
    for uci in KNIGHT_SHUFFLE:
        board.push_uci(uci)
    return board


def _assert_same_game(restored: pychess_rs.Board, original: pychess_rs.Board) -> None:
    assert type(restored) is type(original)
    assert restored.fen() == original.fen()
    assert restored.move_stack == original.move_stack
    assert restored.zobrist_hash() == original.zobrist_hash()
    assert restored.chess960 == original.chess960
    # Repetition history travels too: the start position occurs twice, one more move
    # makes it three.
    assert restored.can_claim_threefold_repetition()
    assert not restored.is_repetition(3)
    restored.push_uci("f6g8")
    assert restored.is_repetition(3)
    assert restored.can_claim_threefold_repetition()
    restored.pop()
    # And the stack unwinds to the start.
    for _ in KNIGHT_SHUFFLE:
        restored.pop()
    assert restored.fen() == pychess_rs.STARTING_FEN


@pytest.mark.parametrize(
    "clone",
    [
        lambda b: pickle.loads(pickle.dumps(b)),
        lambda b: pickle.loads(pickle.dumps(b, protocol=pickle.HIGHEST_PROTOCOL)),
        lambda b: pickle.loads(pickle.dumps(b, protocol=2)),
        copy.copy,
        copy.deepcopy,
        lambda b: b.copy(),
    ],
    ids=["pickle", "pickle-highest", "pickle-2", "copy", "deepcopy", "method"],
)
def test_board_clones_keep_stack_and_repetition_history(clone):
    original = _shuffled_board()
    restored = clone(original)
    assert restored is not original
    _assert_same_game(restored, original)
    # The original is untouched by what happened to the clone.
    assert original.fen() == _shuffled_board().fen()
    assert len(original.move_stack) == len(KNIGHT_SHUFFLE)


def test_pickled_board_keeps_raw_ep_square_and_chess960():
    board = pychess_rs.Board(
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", chess960=True
    )
    board.push_uci("e2e4")
    restored = pickle.loads(pickle.dumps(board))
    assert restored.chess960
    assert restored.ep_square == pychess_rs.E3
    assert restored.fen() == board.fen()
    assert restored.fen(shredder=True) == board.fen(shredder=True)
    restored.pop()
    assert restored.fen(shredder=True) == "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"


@pytest.mark.parametrize("uci", ["e2e4", "a7a8q", "0000"])
def test_move_pickle_and_copy(uci):
    move = pychess_rs.Move.from_uci(uci)
    for clone in (pickle.loads(pickle.dumps(move)), copy.copy(move), copy.deepcopy(move)):
        assert clone == move
        assert hash(clone) == hash(move)
        assert clone.uci() == uci


def test_piece_pickle():
    piece = pychess_rs.Piece.from_symbol("n")
    assert pickle.loads(pickle.dumps(piece)) == piece


# --- python-chess conversion --------------------------------------------------------------


def test_from_python_chess_keeps_position_and_stack():
    oracle = chess.Board()
    for uci in KNIGHT_SHUFFLE:
        oracle.push_uci(uci)
    board = pychess_rs.Board.from_python_chess(oracle)
    assert isinstance(board, pychess_rs.Board)
    _assert_same_game(board, _shuffled_board())
    assert len(oracle.move_stack) == len(KNIGHT_SHUFFLE), "the source is not modified"


def test_from_python_chess_from_a_fen_with_ep():
    oracle = chess.Board(EP_FEN)
    board = pychess_rs.Board.from_python_chess(oracle)
    assert board.fen() == EP_FEN
    assert pychess_rs.Move.from_uci("e5f6") in board.legal_moves


def test_to_python_chess_keeps_position_and_stack():
    board = pychess_rs.Board(KIWIPETE)
    for uci in ["e1g1", "e8c8", "d5e6"]:
        board.push_uci(uci)
    oracle = board.to_python_chess()
    assert type(oracle) is chess.Board
    assert oracle.fen() == board.fen()
    assert [m.uci() for m in oracle.move_stack] == ["e1g1", "e8c8", "d5e6"]
    for _ in range(3):
        oracle.pop()
    assert oracle.fen() == KIWIPETE


def test_python_chess_round_trip_chess960():
    fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"
    board = pychess_rs.Board(fen, chess960=True)
    board.push_san("O-O")
    oracle = board.to_python_chess()
    assert oracle.chess960
    assert [m.uci() for m in oracle.move_stack] == ["e1g1"]
    assert oracle.fen(shredder=True) == board.fen(shredder=True)
    back = pychess_rs.Board.from_python_chess(oracle)
    assert back.chess960
    assert back.fen() == board.fen()
    assert back.move_stack == board.move_stack


# --- Chess960 -----------------------------------------------------------------------------

C960 = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"


def test_chess960_flag_and_default_position():
    board = pychess_rs.Board(chess960=True)
    assert board.chess960 is True
    assert board.fen() == pychess_rs.STARTING_FEN
    assert pychess_rs.Board().chess960 is False


def test_chess960_castling_is_king_takes_rook():
    board = pychess_rs.Board(C960, chess960=True)
    castles = {m.uci() for m in board.legal_moves if board.is_castling(m)}
    assert castles == {"e1g1", "e1b1"}
    assert board.san(pychess_rs.Move.from_uci("e1g1")) == "O-O"
    assert board.san(pychess_rs.Move.from_uci("e1b1")) == "O-O-O"
    short = board.copy()
    short.push_san("O-O")
    assert short.board_fen() == "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1"
    long_ = board.copy()
    long_.push_san("O-O-O")
    assert long_.board_fen() == "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1"
    assert long_.peek() == pychess_rs.Move.from_uci("e1b1")


def test_chess960_castling_where_the_king_stays():
    board = pychess_rs.Board("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", chess960=True)
    assert board.parse_san("O-O") == pychess_rs.Move.from_uci("f1g1")
    board.push_san("O-O")
    assert board.fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"


@pytest.mark.parametrize(
    "fen",
    [
        C960,
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1",
        "qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 3 9",
    ],
)
def test_chess960_fen_xfen_and_shredder(fen):
    board = pychess_rs.Board(fen, chess960=True)
    oracle = chess.Board(fen, chess960=True)
    assert board.fen() == oracle.fen()
    assert board.fen(shredder=True) == oracle.fen(shredder=True)
    assert board.castling_rights == oracle.castling_rights
    assert uci_set(board.legal_moves) == uci_set(oracle.legal_moves)
    assert pychess_rs.Board(board.fen(shredder=True), chess960=True).fen() == oracle.fen()


def test_standard_fen_with_shredder_castling_field():
    board = pychess_rs.Board("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")
    assert board.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    assert board.fen(shredder=True) == "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"


def test_standard_castling_in_chess960_mode_is_king_takes_rook():
    board = pychess_rs.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", chess960=True)
    castles = {m.uci() for m in board.legal_moves if board.is_castling(m)}
    assert castles == {"e1h1", "e1a1"}


# --- perft --------------------------------------------------------------------------------

PERFT_NODE_CAP = 20_000


def _perft_cases(filename: str, every: int, chess960: bool):
    """Every ``every``-th position of a suite at its deepest count within the cap (else D1)."""
    cases = []
    for index, entry in enumerate(perft_cli.load_suite(DATA / filename)):
        if index % every:
            continue
        within = [d for d in sorted(entry.counts) if entry.counts[d] <= PERFT_NODE_CAP]
        depth = within[-1] if within else min(entry.counts)
        case_id = f"{filename}:{entry.lineno}"
        cases.append(pytest.param(entry.fen, depth, entry.counts[depth], chess960, id=case_id))
    return cases


@pytest.mark.parametrize(
    ("fen", "depth", "nodes", "chess960"),
    _perft_cases("perft.epd", 1, False) + _perft_cases("perft960.epd", 10, True),
)
def test_perft_suites(fen, depth, nodes, chess960):
    board = pychess_rs.Board(fen, chess960=chess960)
    assert board.perft(depth) == nodes
    assert board.fen() == pychess_rs.Board(fen, chess960=chess960).fen(), "perft leaves the board"


@pytest.mark.parametrize(
    ("fen", "depth", "nodes"),
    [
        (pychess_rs.STARTING_FEN, 0, 1),
        (pychess_rs.STARTING_FEN, 1, 20),
        (pychess_rs.STARTING_FEN, 2, 400),
        (pychess_rs.STARTING_FEN, 3, 8902),
        (KIWIPETE, 1, 48),
        (KIWIPETE, 2, 2039),
        (KIWIPETE, 3, 97862),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379),
        ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 89890),
    ],
)
def test_perft_known_counts(fen, depth, nodes):
    assert pychess_rs.Board(fen).perft(depth) == nodes


def test_perft_from_threads_agrees():
    results: dict[int, int] = {}

    def work(i: int) -> None:
        results[i] = pychess_rs.Board(KIWIPETE).perft(2)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: 2039 for i in range(4)}


def test_chess960_start_positions_match_python_chess() -> None:
    for n in range(960):
        ours = pychess_rs.Board.from_chess960_pos(n)
        theirs = chess.Board.from_chess960_pos(n)
        assert ours.fen() == theirs.fen(), n
        assert ours.chess960
    with pytest.raises(ValueError):
        pychess_rs.Board.from_chess960_pos(960)
