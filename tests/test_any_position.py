"""Positions of any kind, compared with python-chess 1.11.2 as the oracle.

python-chess lets a board hold anything: no king or several, pawns on the back ranks, the side
not to move in check, castling rights and en-passant squares that make no sense. Its answers on
such boards (moves, checks, SAN, outcome, ``status()``) are what pychess_rs must answer too, and
its ``push`` takes pseudo-legal moves, leaving ``was_into_check()`` to tell.
"""

from __future__ import annotations

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pychess_rs

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CASTLING_FIELDS = ["-", "KQkq", "K", "Qk", "kq", "Kq", "HAha", "Bb", "KQ", "GCgc", "Aa"]


@st.composite
def placements(draw: st.DrawFn) -> tuple[str, bool]:
    """A FEN with 0-3 kings, pawns anywhere, odd castling rights and en-passant squares."""
    board = chess.Board(None)
    for _ in range(draw(st.integers(0, 3))):
        square = draw(st.integers(0, 63))
        board.set_piece_at(square, chess.Piece(chess.KING, draw(st.booleans())))
    if draw(st.booleans()):
        # Kings and rooks where castling rights could apply.
        for square, color in [(chess.E1, True), (chess.E8, False)]:
            if draw(st.booleans()):
                board.set_piece_at(square, chess.Piece(chess.KING, color))
        for square in [chess.A1, chess.H1, chess.A8, chess.H8, chess.B1, chess.G8]:
            if draw(st.booleans()):
                board.set_piece_at(square, chess.Piece(chess.ROOK, square < 8))
    for _ in range(draw(st.integers(0, 14))):
        square = draw(st.integers(0, 63))
        piece = chess.Piece(draw(st.integers(1, 5)), draw(st.booleans()))
        board.set_piece_at(square, piece)
    turn = draw(st.booleans())
    castling = draw(st.sampled_from(CASTLING_FIELDS))
    ep_kind = draw(st.integers(0, 2))
    if ep_kind == 0:
        ep = "-"
    elif ep_kind == 1:
        ep = chess.SQUARE_NAMES[draw(st.integers(0, 63))]
    else:
        ep = chess.SQUARE_NAMES[draw(st.integers(0, 7)) + (40 if turn else 16)]
    halfmove = draw(st.integers(0, 160))
    fen = f"{board.board_fen()} {'w' if turn else 'b'} {castling} {ep} {halfmove} 7"
    return fen, draw(st.booleans())


def ucis(moves: object) -> list[str]:
    return sorted(m.uci() for m in moves)  # type: ignore[attr-defined]


def same_answers(ours: pychess_rs.Board, oracle: chess.Board) -> None:
    """Every question about the current position, answered alike."""
    assert ours.fen() == oracle.fen()
    assert ours.fen(en_passant="fen") == oracle.fen(en_passant="fen")
    assert ours.fen(en_passant="xfen", shredder=True) == oracle.fen(
        en_passant="xfen", shredder=True
    )
    assert int(ours.status()) == int(oracle.status())
    assert ours.is_valid() == oracle.is_valid()
    assert ours.castling_rights == oracle.castling_rights
    assert ours.clean_castling_rights() == oracle.clean_castling_rights()
    assert ours.ep_square == oracle.ep_square
    for color in chess.COLORS:
        assert ours.king(color) == oracle.king(color)
        assert ours.has_kingside_castling_rights(color) == oracle.has_kingside_castling_rights(
            color
        )
        assert ours.has_queenside_castling_rights(color) == oracle.has_queenside_castling_rights(
            color
        )
    assert ours.is_check() == oracle.is_check()
    assert ours.checkers_mask() == oracle.checkers_mask()
    assert ours.was_into_check() == oracle.was_into_check()
    assert ours.has_legal_en_passant() == oracle.has_legal_en_passant()
    assert ours.has_pseudo_legal_en_passant() == oracle.has_pseudo_legal_en_passant()
    assert ucis(ours.legal_moves) == ucis(oracle.legal_moves)
    assert ucis(ours.pseudo_legal_moves) == ucis(oracle.pseudo_legal_moves)
    assert sorted(ours.san(m) for m in ours.legal_moves) == sorted(
        oracle.san(m) for m in oracle.legal_moves
    )
    assert str(ours.outcome()) == str(oracle.outcome())
    assert ours.is_checkmate() == oracle.is_checkmate()
    assert ours.is_stalemate() == oracle.is_stalemate()
    assert ours.is_insufficient_material() == oracle.is_insufficient_material()
    for move in oracle.pseudo_legal_moves:
        ours_move = pychess_rs.Move.from_uci(move.uci())
        assert ours.is_into_check(ours_move) == oracle.is_into_check(move), move
        assert ours.is_legal(ours_move) == oracle.is_legal(move), move
        assert ours.is_pseudo_legal(ours_move)


@SETTINGS
@given(placements())
def test_random_placements_answer_like_python_chess(case: tuple[str, bool]) -> None:
    fen, chess960 = case
    same_answers(pychess_rs.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960))


@SETTINGS
@given(placements(), st.lists(st.integers(0, 10_000), min_size=1, max_size=6))
def test_pseudo_legal_pushes_and_pops(case: tuple[str, bool], picks: list[int]) -> None:
    fen, chess960 = case
    ours = pychess_rs.Board(fen, chess960=chess960)
    oracle = chess.Board(fen, chess960=chess960)
    fens = [oracle.fen(en_passant="fen")]
    for pick in picks:
        moves = list(oracle.pseudo_legal_moves)
        if not moves:
            break
        move = moves[pick % len(moves)]
        oracle.push(move)
        ours.push(pychess_rs.Move.from_uci(move.uci()))
        fens.append(oracle.fen(en_passant="fen"))
        same_answers(ours, oracle)
        assert ours.promoted == oracle.promoted
        assert [m.uci() for m in ours.move_stack] == [m.uci() for m in oracle.move_stack]
    while oracle.move_stack:
        assert ours.pop().uci() == oracle.pop().uci()
        fens.pop()
        assert ours.fen(en_passant="fen") == fens[-1]
    assert ours.fen(en_passant="fen") == chess.Board(fen, chess960=chess960).fen(en_passant="fen")
    same_answers(ours, oracle)


@SETTINGS
@given(placements(), st.integers(0, 63), st.integers(0, 63))
def test_generators_follow_python_chess_order(
    case: tuple[str, bool], from_square: int, to_square: int
) -> None:
    fen, chess960 = case
    ours = pychess_rs.Board(fen, chess960=chess960)
    oracle = chess.Board(fen, chess960=chess960)
    masks = [
        (chess.BB_ALL, chess.BB_ALL),
        (chess.BB_SQUARES[from_square] | chess.BB_RANK_1, chess.BB_ALL),
        (chess.BB_ALL, chess.BB_SQUARES[to_square] | chess.BB_FILE_A | chess.BB_RANK_8),
    ]
    for from_mask, to_mask in masks:
        for name in [
            "generate_pseudo_legal_moves",
            "generate_pseudo_legal_captures",
            "generate_pseudo_legal_ep",
            "generate_castling_moves",
            "generate_legal_ep",
        ]:
            got = [m.uci() for m in getattr(ours, name)(from_mask, to_mask)]
            want = [m.uci() for m in getattr(oracle, name)(from_mask, to_mask)]
            assert got == want, name
        for name in ["generate_legal_moves", "generate_legal_captures"]:
            got = sorted(m.uci() for m in getattr(ours, name)(from_mask, to_mask))
            want = sorted(m.uci() for m in getattr(oracle, name)(from_mask, to_mask))
            assert got == want, name


@pytest.mark.parametrize(
    ("fen", "status"),
    [
        ("8/8/8/8/8/8/8/8 w - - 0 1", chess.STATUS_EMPTY | chess.STATUS_NO_WHITE_KING
         | chess.STATUS_NO_BLACK_KING),
        ("4k3/8/8/8/8/8/8/4K2K w - - 0 1", chess.STATUS_TOO_MANY_KINGS),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", chess.STATUS_PAWNS_ON_BACKRANK),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", chess.STATUS_BAD_CASTLING_RIGHTS),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", chess.STATUS_INVALID_EP_SQUARE),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", chess.STATUS_OPPOSITE_CHECK),
        ("4k3/8/8/8/1b5b/8/4r3/4K3 w - - 0 1", chess.STATUS_TOO_MANY_CHECKERS
         | chess.STATUS_IMPOSSIBLE_CHECK),
        ("8/8/8/k6R/3Pp3/8/8/4K3 b - d3 0 1", chess.STATUS_IMPOSSIBLE_CHECK),
    ],
)  # fmt: skip
def test_status_flags(fen: str, status: int) -> None:
    assert chess.Board(fen).status() == status
    ours = pychess_rs.Board(fen).status()
    assert isinstance(ours, pychess_rs.Status)
    assert ours == status


def test_status_constants_are_exported() -> None:
    for flag in chess.Status:
        assert getattr(pychess_rs, f"STATUS_{flag.name}") == flag
    assert pychess_rs.Board().status() == pychess_rs.STATUS_VALID


def test_boards_without_kings() -> None:
    for ours, oracle in [
        (pychess_rs.Board(None), chess.Board(None)),
        (pychess_rs.Board.empty(), chess.Board.empty()),
        (pychess_rs.Board.empty(chess960=True), chess.Board.empty(chess960=True)),
    ]:
        assert ours.chess960 == oracle.chess960
        same_answers(ours, oracle)
    board = pychess_rs.Board(None)
    board.set_piece_at(chess.D4, pychess_rs.Piece(chess.QUEEN, chess.WHITE))
    assert board.legal_moves.count() == 27
    assert not board.is_check() and board.king(chess.WHITE) is None


def test_editing_follows_python_chess() -> None:
    ours, oracle = pychess_rs.Board(), chess.Board()
    ours.push_san("e4")
    oracle.push_san("e4")

    def both(name: str, *args: object) -> None:
        ours_args = [
            pychess_rs.Piece(a.piece_type, a.color) if isinstance(a, chess.Piece) else a
            for a in args
        ]
        got = getattr(ours, name)(*ours_args)
        want = getattr(oracle, name)(*args)
        assert str(got) == str(want), name
        assert len(ours.move_stack) == len(oracle.move_stack), name
        same_answers(ours, oracle)

    both("remove_piece_at", chess.E1)
    both("remove_piece_at", chess.E3)
    both("set_piece_at", chess.E1, chess.Piece(chess.KING, chess.WHITE))
    both("set_piece_at", chess.A8, chess.Piece(chess.PAWN, chess.WHITE))
    both("set_piece_at", chess.D8, None)
    both("set_piece_at", chess.C3, chess.Piece(chess.QUEEN, chess.BLACK), True)
    assert ours.promoted == oracle.promoted == chess.BB_C3
    both("set_castling_fen", "Kq")
    both("set_castling_fen", "-")
    both("set_board_fen", "4k3/8/8/8/8/8/8/R3K2R")
    both("set_castling_fen", "KQ")
    both("set_piece_map", {chess.E1: chess.Piece(chess.KING, True), chess.E7: chess.Piece(5, True)})
    both("reset_board")
    both("clear_board")
    both("reset")
    both("set_chess960_pos", 123)
    both("clear")
    with pytest.raises(ValueError):
        ours.set_castling_fen("KQX")
    with pytest.raises(ValueError):
        ours.set_board_fen("8/8/8/8/8/8/8/8 w")
    with pytest.raises(ValueError):
        ours.set_chess960_pos(960)


def test_setters_keep_the_move_stack() -> None:
    ours, oracle = pychess_rs.Board(), chess.Board()
    for board in (ours, oracle):
        board.push_san("e4")
        board.push_san("c5")
        board.turn = chess.BLACK
        board.castling_rights = chess.BB_A1 | chess.BB_H8 | chess.BB_C3
        board.ep_square = chess.C6
        board.halfmove_clock = 42
        board.fullmove_number = 9
    same_answers(ours, oracle)
    assert len(ours.move_stack) == 2
    for board in (ours, oracle):
        board.pop()
    same_answers(ours, oracle)


def test_null_and_pseudo_legal_pushes() -> None:
    board = pychess_rs.Board()
    for uci in ["e2e4", "d7d5", "f1b5"]:
        board.push_uci(uci)
    board.push(pychess_rs.Move.null())  # Black passes while in check
    assert board.was_into_check() and board.status() == pychess_rs.STATUS_OPPOSITE_CHECK
    board.pop()
    board.push(pychess_rs.Move.from_uci("a7a6"))  # ignores the check: pseudo-legal
    assert board.was_into_check()
    assert board.is_legal(pychess_rs.Move.from_uci("b5e8"))  # the king can be taken
    board.push_uci("b5e8")
    assert board.king(chess.BLACK) is None
    assert board.status() == pychess_rs.STATUS_NO_BLACK_KING
    assert board.outcome() is None
    before = board.fen()
    with pytest.raises(pychess_rs.IllegalMoveError, match="pseudo-legal"):
        board.push(pychess_rs.Move.from_uci("a6a4"))  # not even pseudo-legal
    assert board.fen() == before
    for _ in range(5):
        board.pop()
    assert board.fen() == chess.STARTING_FEN


def test_drops_are_never_pushed() -> None:
    try:
        drop = pychess_rs.Move.from_uci("P@e4")
    except ValueError:
        pytest.skip("Move.from_uci does not read drops yet")
    board = pychess_rs.Board()
    with pytest.raises(pychess_rs.IllegalMoveError):
        board.push(drop)
    assert not board.is_pseudo_legal(drop) and not board.is_legal(drop)
    assert board.fen() == chess.STARTING_FEN


def test_repetitions_survive_pseudo_legal_pushes() -> None:
    # Two white kings: the one on e1 may step into the rook's file (python-chess only keeps the
    # highest king safe), so the shuffle below mixes legal and merely pseudo-legal moves.
    fen = "4k3/8/8/8/7K/8/8/4K2r w - - 0 1"
    ours, oracle = pychess_rs.Board(fen), chess.Board(fen)
    shuffle = ["e1f1", "h1h2", "f1e1", "h2h1"] * 3 + ["h4g4", "e8d8", "g4h4", "d8e8"] * 2
    for uci in shuffle:
        ours.push(pychess_rs.Move.from_uci(uci))
        oracle.push(chess.Move.from_uci(uci))
        assert ours.was_into_check() == oracle.was_into_check()
        assert ours.is_repetition(2) == oracle.is_repetition(2)
        assert ours.is_repetition(3) == oracle.is_repetition(3)
        assert ours.can_claim_threefold_repetition() == oracle.can_claim_threefold_repetition()


@pytest.mark.parametrize(
    "fen",
    [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "4k3/8/8/2pP4/8/8/8/4K2R w K c6 0 1",
        "4k3/8/8/8/8/8/8/P3K2K b - - 3 9",
    ],
)
def test_mirror_and_transform(fen: str) -> None:
    ours, oracle = pychess_rs.Board(fen), chess.Board(fen)
    same_answers(ours.mirror(), oracle.mirror())
    for f in [chess.flip_vertical, chess.flip_horizontal, chess.flip_diagonal, chess.shift_down]:
        same_answers(ours.transform(f), oracle.transform(f))
    ours.push(next(iter(ours.legal_moves)))
    ours.apply_mirror()
    assert ours.move_stack == []
    ours.apply_transform(chess.flip_horizontal)
    assert ours.move_stack == []


def test_chess960_positions() -> None:
    ours, oracle = pychess_rs.Board(), chess.Board()
    assert ours.chess960_pos() == oracle.chess960_pos() == 518
    for n in [0, 123, 959]:
        ours.set_chess960_pos(n)
        oracle.set_chess960_pos(n)
        same_answers(ours, oracle)
        assert ours.chess960_pos() == n
    ours.turn = oracle.turn = chess.BLACK
    assert ours.chess960_pos() is oracle.chess960_pos() is None
    assert ours.chess960_pos(ignore_turn=True) == oracle.chess960_pos(ignore_turn=True) == 959
    for fen in ["1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", chess.STARTING_FEN]:
        assert (
            pychess_rs.Board(fen).has_chess960_castling_rights()
            == chess.Board(fen).has_chess960_castling_rights()
        )


def test_strict_uses_still_refuse_invalid_positions() -> None:
    board = pychess_rs.Board("4k3/8/8/8/8/8/8/8 w - - 0 1")
    assert board._position_error() == "there is no white king"
    assert pychess_rs.Board()._position_error() is None


def test_promoted_marks_are_kept_and_written_on_request() -> None:
    fen = "4k3/1P6/8/8/8/8/8/4K2Q~ w - - 0 1"
    ours, oracle = pychess_rs.Board(fen), chess.Board(fen)
    assert ours.promoted == oracle.promoted == chess.BB_H1
    for kwargs in [{}, {"promoted": True}, {"promoted": False}]:
        assert ours.fen(**kwargs) == oracle.fen(**kwargs)  # type: ignore[arg-type]
        assert ours.epd(**kwargs) == oracle.epd(**kwargs)  # type: ignore[arg-type]
    assert ours.board_fen(promoted=True) == oracle.board_fen(promoted=True)
    for board in (ours, oracle):
        board.push_uci("b7b8n")
    assert ours.promoted == oracle.promoted == chess.BB_H1 | chess.BB_B8
    assert ours.fen(promoted=True) == oracle.fen(promoted=True)


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1",  # rights kept raw
        "4k3/8/8/8/8/8/8/4K~2R w K - 0 1",  # a promoted king
        "8/8/8/8/8/8/8/R7 w - e6 0 1",  # no kings, an odd en-passant square
    ],
)
def test_pickling_keeps_positions_of_any_kind(fen: str) -> None:
    import pickle

    board = pychess_rs.Board(fen)
    move = next(iter(board.pseudo_legal_moves))
    board.push(move)
    again = pickle.loads(pickle.dumps(board))
    assert again.move_stack == board.move_stack
    assert again.fen(promoted=True, en_passant="fen") == board.fen(promoted=True, en_passant="fen")
    assert again.castling_rights == board.castling_rights
    again.pop()
    board.pop()
    assert again.castling_rights == board.castling_rights == chess.Board(fen).castling_rights
    assert again.promoted == board.promoted
    assert again.ep_square == board.ep_square


def test_notation_switch_after_pseudo_legal_pushes() -> None:
    ours, oracle = pychess_rs.Board(), chess.Board()
    for uci in ["e2e4", "d7d5", "f1b5", "a7a6"]:  # Black ignores the check
        ours.push(pychess_rs.Move.from_uci(uci))
        oracle.push(chess.Move.from_uci(uci))
    ours.chess960 = oracle.chess960 = True
    same_answers(ours, oracle)
    copy = ours.copy(stack=1)
    assert copy.was_into_check() and copy.status() == chess.STATUS_OPPOSITE_CHECK
