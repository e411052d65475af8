"""Property tests: random games played in lockstep with python-chess, FEN round trips,
make/unmake, hashing, pickling and the FEN acceptance contract on mutated FENs."""

from __future__ import annotations

import pickle
from pathlib import Path

import chess
import chess.polyglot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pychess_rs
from pychess_rs.fuzz import contract

DATA = Path(__file__).parent / "data"


def _fens(filename: str) -> list[str]:
    text = (DATA / filename).read_text()
    return [line.split(";")[0].strip() for line in text.splitlines() if line.strip()]


STANDARD_FENS = [pychess_rs.STARTING_FEN, *_fens("perft.epd"), *_fens("openings.epd")]
CHESS960_FENS = _fens("perft960.epd")


PROPERTY_SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def uci_set(moves) -> set[str]:
    return {m.uci() for m in moves}


def termination(outcome):
    return None if outcome is None else (outcome.termination.name, outcome.winner)


def choose_move(data, oracle: chess.Board) -> chess.Move | None:
    """Pick a legal move; often the reverse of our previous move, to make repetitions."""
    moves = sorted(oracle.legal_moves, key=lambda m: m.uci())
    if not moves:
        return None
    if len(oracle.move_stack) >= 2 and data.draw(st.integers(0, 2)) == 0:
        previous = oracle.move_stack[-2]
        back = chess.Move(previous.to_square, previous.from_square)
        if back in moves:
            return back
    return moves[data.draw(st.integers(0, len(moves) - 1))]


def assert_same_state(board: pychess_rs.Board, oracle: chess.Board) -> None:
    assert board.fen() == oracle.fen()
    assert board.turn == oracle.turn
    assert board.castling_rights == oracle.castling_rights
    assert board.ep_square == oracle.ep_square
    assert board.halfmove_clock == oracle.halfmove_clock
    assert board.fullmove_number == oracle.fullmove_number
    assert board.ply() == oracle.ply()
    assert uci_set(board.legal_moves) == uci_set(oracle.legal_moves)
    assert board.legal_moves.count() == oracle.legal_moves.count()
    assert board.zobrist_hash() == chess.polyglot.zobrist_hash(oracle)
    assert board.is_check() == oracle.is_check()
    assert int(board.checkers()) == int(oracle.checkers())
    assert board.is_checkmate() == oracle.is_checkmate()
    assert board.is_stalemate() == oracle.is_stalemate()
    assert board.is_insufficient_material() == oracle.is_insufficient_material()
    for color in (pychess_rs.WHITE, pychess_rs.BLACK):
        assert board.has_insufficient_material(color) == oracle.has_insufficient_material(color)
    assert board.is_seventyfive_moves() == oracle.is_seventyfive_moves()
    assert board.can_claim_fifty_moves() == oracle.can_claim_fifty_moves()
    for count in (2, 3):
        assert board.is_repetition(count) == oracle.is_repetition(count)
    assert board.is_fivefold_repetition() == oracle.is_fivefold_repetition()
    assert board.can_claim_threefold_repetition() == oracle.can_claim_threefold_repetition()
    assert termination(board.outcome()) == termination(oracle.outcome())
    assert board.result() == oracle.result()


def play_in_lockstep(data, fen: str, plies: int, chess960: bool = False):
    board = pychess_rs.Board(fen, chess960=chess960)
    oracle = chess.Board(fen, chess960=chess960)
    history = [(board.fen(), board.zobrist_hash())]
    for _ in range(plies):
        omove = choose_move(data, oracle)
        if omove is None:
            break
        move = pychess_rs.Move.from_uci(omove.uci())
        assert board.san(move) == oracle.san(omove)
        assert board.parse_san(oracle.san(omove)) == move
        assert board.is_capture(move) == oracle.is_capture(omove)
        assert board.is_castling(move) == oracle.is_castling(omove)
        assert board.is_en_passant(move) == oracle.is_en_passant(omove)
        assert board.gives_check(move) == oracle.gives_check(omove)
        assert board.is_zeroing(move) == oracle.is_zeroing(omove)
        board.push(move)
        oracle.push(omove)
        history.append((board.fen(), board.zobrist_hash()))
    return board, oracle, history


@PROPERTY_SETTINGS
@given(data=st.data(), fen=st.sampled_from(STANDARD_FENS), plies=st.integers(0, 60))
def test_random_games_agree_with_python_chess(data, fen, plies):
    board, oracle, _ = play_in_lockstep(data, fen, plies)
    assert_same_state(board, oracle)
    assert board.move_stack == [pychess_rs.Move.from_uci(m.uci()) for m in oracle.move_stack]


@PROPERTY_SETTINGS
@given(data=st.data(), fen=st.sampled_from(STANDARD_FENS), plies=st.integers(1, 40))
def test_every_ply_agrees_with_python_chess(data, fen, plies):
    board = pychess_rs.Board(fen)
    oracle = chess.Board(fen)
    for _ in range(plies):
        assert_same_state(board, oracle)
        omove = choose_move(data, oracle)
        if omove is None:
            break
        board.push(pychess_rs.Move.from_uci(omove.uci()))
        oracle.push(omove)


@PROPERTY_SETTINGS
@given(data=st.data(), fen=st.sampled_from(CHESS960_FENS), plies=st.integers(0, 40))
def test_random_chess960_games_agree_with_python_chess(data, fen, plies):
    board, oracle, _ = play_in_lockstep(data, fen, plies, chess960=True)
    assert board.fen() == oracle.fen()
    assert board.fen(shredder=True) == oracle.fen(shredder=True)
    assert board.castling_rights == oracle.castling_rights
    assert uci_set(board.legal_moves) == uci_set(oracle.legal_moves)
    assert board.zobrist_hash() == chess.polyglot.zobrist_hash(oracle)
    assert termination(board.outcome()) == termination(oracle.outcome())


@PROPERTY_SETTINGS
@given(data=st.data(), fen=st.sampled_from(STANDARD_FENS), plies=st.integers(0, 60))
def test_pop_restores_fen_and_hash(data, fen, plies):
    board, _, history = play_in_lockstep(data, fen, plies)
    for expected_fen, expected_hash in reversed(history[1:]):
        assert board.fen() == expected_fen
        assert board.zobrist_hash() == expected_hash
        board.pop()
    assert (board.fen(), board.zobrist_hash()) == history[0]
    assert board.move_stack == []


@PROPERTY_SETTINGS
@given(data=st.data(), fen=st.sampled_from(STANDARD_FENS), plies=st.integers(0, 60))
def test_fen_round_trip_and_fresh_hash(data, fen, plies):
    board, _, _ = play_in_lockstep(data, fen, plies)
    fresh = pychess_rs.Board(board.fen())
    assert fresh.fen() == board.fen()
    # Not necessarily board.zobrist_hash(): Polyglot hashes an en-passant square that a
    # pinned pawn could only pseudo-legally use, which the FEN does not carry.
    assert fresh.zobrist_hash() == chess.polyglot.zobrist_hash(chess.Board(board.fen()))
    assert uci_set(fresh.legal_moves) == uci_set(board.legal_moves)
    assert fresh == board
    epd_board, ops = pychess_rs.Board.from_epd(board.epd())
    assert ops == {}
    assert epd_board.epd() == board.epd()


@PROPERTY_SETTINGS
@given(data=st.data(), fen=st.sampled_from(STANDARD_FENS), plies=st.integers(0, 40))
def test_is_legal_agrees_with_legal_moves(data, fen, plies):
    board, _, _ = play_in_lockstep(data, fen, plies)
    legal = uci_set(board.legal_moves)
    pseudo = uci_set(board.pseudo_legal_moves)
    assert legal <= pseudo
    captures = uci_set(board.generate_legal_captures())
    assert captures == {u for u in legal if board.is_capture(pychess_rs.Move.from_uci(u))}
    for _ in range(30):
        a = data.draw(st.integers(0, 63))
        b = data.draw(st.integers(0, 63))
        if a == b:
            continue
        promo = data.draw(
            st.sampled_from(
                [None, pychess_rs.QUEEN, pychess_rs.ROOK, pychess_rs.BISHOP, pychess_rs.KNIGHT]
            )
        )
        move = pychess_rs.Move(a, b, promo)
        assert board.is_legal(move) == (move.uci() in legal)
        assert (move in board.legal_moves) == (move.uci() in legal)
        assert board.is_pseudo_legal(move) == (move.uci() in pseudo)


@PROPERTY_SETTINGS
@given(data=st.data(), fen=st.sampled_from(STANDARD_FENS), plies=st.integers(0, 40))
def test_pickle_and_copy_keep_the_game(data, fen, plies):
    board, oracle, _ = play_in_lockstep(data, fen, plies)
    for clone in (pickle.loads(pickle.dumps(board)), board.copy()):
        assert clone.fen() == board.fen()
        assert clone.move_stack == board.move_stack
        # Continue both games the same way: repetition history must have travelled along.
        omove = choose_move(data, oracle)
        if omove is not None:
            clone.push(pychess_rs.Move.from_uci(omove.uci()))
            probe = oracle.copy()
            probe.push(omove)
            assert clone.is_repetition(2) == probe.is_repetition(2)
            assert clone.can_claim_threefold_repetition() == probe.can_claim_threefold_repetition()
            assert clone.fen() == probe.fen()


@PROPERTY_SETTINGS
@given(data=st.data(), fen=st.sampled_from(STANDARD_FENS), plies=st.integers(0, 40))
def test_mirror_matches_python_chess(data, fen, plies):
    board, oracle, _ = play_in_lockstep(data, fen, plies)
    mirrored = board.mirror()
    assert mirrored.fen() == oracle.mirror().fen()
    assert mirrored.legal_moves.count() == board.legal_moves.count()
    assert mirrored.mirror().fen() == board.fen()


@PROPERTY_SETTINGS
@given(data=st.data(), fen=st.sampled_from(STANDARD_FENS), plies=st.integers(0, 30))
def test_python_chess_conversion_round_trip(data, fen, plies):
    board, oracle, _ = play_in_lockstep(data, fen, plies)
    exported = board.to_python_chess()
    assert type(exported) is chess.Board
    assert exported.fen() == oracle.fen()
    assert [m.uci() for m in exported.move_stack] == [m.uci() for m in oracle.move_stack]
    imported = pychess_rs.Board.from_python_chess(oracle)
    assert imported.fen() == board.fen()
    assert imported.move_stack == board.move_stack
    assert imported.is_repetition(2) == oracle.is_repetition(2)


# --- FEN acceptance contract on mutated FENs ----------------------------------------------

FEN_ALPHABET = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0"


def oracle_accepts(fen: str) -> bool:
    board, _why = contract.oracle_board(fen, False)
    return board is not None


@st.composite
def mutated_fens(draw):
    fen = draw(st.sampled_from(STANDARD_FENS))
    for _ in range(draw(st.integers(1, 3))):
        pos = draw(st.integers(0, len(fen)))
        kind = draw(st.sampled_from(["insert", "delete", "replace"]))
        char = draw(st.sampled_from(FEN_ALPHABET))
        if kind == "insert":
            fen = fen[:pos] + char + fen[pos:]
        elif kind == "delete":
            fen = fen[:pos] + fen[pos + 1 :]
        else:
            fen = fen[:pos] + char + fen[pos + 1 :]
    return fen


@settings(max_examples=200, deadline=None)
@given(fen=mutated_fens())
def test_mutated_fens_follow_the_contract(fen):
    if oracle_accepts(fen):
        board = pychess_rs.Board(fen)
        oracle = chess.Board(fen)
        assert board.fen() == oracle.fen()
        assert uci_set(board.legal_moves) == uci_set(oracle.legal_moves)
    else:
        try:
            pychess_rs.Board(fen)
        except pychess_rs.InvalidFenError:
            pass
        else:
            raise AssertionError(f"accepted a FEN python-chess rejects: {fen!r}")


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=80))
def test_arbitrary_text_never_crashes(text):
    try:
        board = pychess_rs.Board(text)
    except pychess_rs.InvalidFenError:
        assert not oracle_accepts(text)
    else:
        assert oracle_accepts(text)
        assert board.fen() == chess.Board(text).fen()
