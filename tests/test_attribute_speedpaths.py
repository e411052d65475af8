"""The plain attributes CPython reads without calling Rust: ``Board.turn``, ``castling_rights``,
``ep_square``, ``halfmove_clock``, ``fullmove_number`` and ``chess960`` are shadow objects the
board refreshes after every change (``rust/python/src/board/shadows.rs``), and ``Move`` and
``Piece`` keep their fields as objects. These tests check that the shadows never go stale:
random sequences of moves, takebacks, FENs, edits, copies and attribute writes, in lockstep
with python-chess, then every other method that changes a board, and subclasses."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path
from typing import Any, Callable

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pychess_rs

DATA = Path(__file__).parent / "data"
FENS = [
    pychess_rs.STARTING_FEN,
    *(line.split(";")[0].strip() for line in (DATA / "perft.epd").read_text().splitlines()[:40]),
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 57 112",
]
SHADOWED = ("turn", "castling_rights", "ep_square", "halfmove_clock", "fullmove_number", "chess960")


def assert_attributes(
    board: pychess_rs.Board, oracle: chess.Board, notation_switched: bool = False
) -> None:
    for name in SHADOWED:
        assert getattr(board, name) == getattr(oracle, name), name
        assert type(getattr(board, name)) is type(getattr(oracle, name)), name
    # After `chess960` is switched, python-chess still shows castling moves as they were
    # pushed; we show them in the current notation (both are legal spellings).
    if not notation_switched:
        assert [m.uci() for m in board.move_stack] == [m.uci() for m in oracle.move_stack]
    assert type(board.move_stack) is list
    # The shadows and the Rust board agree with each other, not only with python-chess.
    fields = board.fen(en_passant="fen").split()
    assert board.turn == (fields[1] == "w")
    assert board.halfmove_clock == int(fields[4])
    assert board.fullmove_number == int(fields[5])


class Sub(pychess_rs.Board):
    """A subclass with attributes of its own, as users write them."""

    def __init__(self, fen: str | None = pychess_rs.STARTING_FEN, **kwargs: Any) -> None:
        # The board is built by `__new__` (from the same arguments).
        self.note = "mine"
        self._counter = 0

    @property
    def counter(self) -> int:
        return self._counter

    @counter.setter
    def counter(self, value: int) -> None:
        self._counter = value


EDIT_PIECES = [chess.Piece(t, c) for t in (2, 3, 4, 5) for c in (True, False)]


def step(data: Any, board: pychess_rs.Board, oracle: chess.Board) -> tuple[Any, Any]:
    """One random change applied to both boards; returns the boards to continue with."""
    kind = data.draw(
        st.sampled_from(
            [
                "push",
                "push",
                "push",
                "push_san",
                "pop",
                "set_fen",
                "copy",
                "edit",
                "remove",
                "write",
                "write",
                "mirror",
                "clear_stack",
                "castling_fen",
            ]
        )
    )
    moves = sorted(oracle.legal_moves, key=lambda m: m.uci())
    if kind in ("push", "push_san") and moves:
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        if kind == "push":
            board.push(pychess_rs.Move.from_uci(move.uci()))
        else:
            board.push_san(oracle.san(move))
        oracle.push(move)
    elif kind == "pop" and oracle.move_stack:
        assert board.pop().uci() == oracle.pop().uci()
    elif kind == "set_fen":
        fen = data.draw(st.sampled_from(FENS))
        board.set_fen(fen)
        oracle.set_fen(fen)
    elif kind == "copy":
        board, oracle = board.copy(), oracle.copy()
    elif kind == "edit":
        empty = sorted(set(range(64)) - set(oracle.piece_map()))
        square = data.draw(st.sampled_from(empty))
        piece = data.draw(st.sampled_from(EDIT_PIECES))
        board.set_piece_at(square, pychess_rs.Piece(piece.piece_type, piece.color))
        oracle.set_piece_at(square, piece)
        oracle.clear_stack()  # ours clears the stack on edits (a documented difference)
    elif kind == "remove":
        others = sorted(s for s, p in oracle.piece_map().items() if p.piece_type != chess.KING)
        if others:
            square = data.draw(st.sampled_from(others))
            board.remove_piece_at(square)
            oracle.remove_piece_at(square)
            oracle.clear_stack()
    elif kind == "write":
        name = data.draw(st.sampled_from(SHADOWED))
        value: Any
        if name in ("turn", "chess960"):
            value = data.draw(st.booleans())
        elif name == "castling_rights":
            value = data.draw(st.sampled_from([0, chess.BB_A1, chess.BB_H8, chess.BB_CORNERS]))
        elif name == "ep_square":
            value = data.draw(st.one_of(st.none(), st.integers(0, 63)))
        else:
            value = data.draw(st.integers(1, 150))
        setattr(board, name, value)
        setattr(oracle, name, value)
    elif kind == "mirror":
        board.apply_mirror()
        oracle.apply_mirror()
        oracle.clear_stack()
    elif kind == "clear_stack":
        board.clear_stack()
        oracle.clear_stack()
    elif kind == "castling_fen":
        text = data.draw(st.sampled_from(["KQkq", "Kq", "-", "k"]))
        board.set_castling_fen(text)
        oracle.set_castling_fen(text)
        oracle.clear_stack()
    return board, oracle


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.booleans())
def test_shadows_follow_random_changes(data: Any, subclass: bool) -> None:
    board: pychess_rs.Board = Sub() if subclass else pychess_rs.Board()
    oracle = chess.Board()
    assert_attributes(board, oracle)
    switched = False
    for _ in range(data.draw(st.integers(1, 40))):
        board, oracle = step(data, board, oracle)
        switched = (switched or board.chess960) and bool(oracle.move_stack)
        assert_attributes(board, oracle, switched)


def _played(board: Any) -> Any:
    board.push_uci("b1c3")
    board.push_san("Nc6")
    return board


MUTATORS: list[tuple[str, Callable[[Any], Any]]] = [
    ("push_uci", lambda b: b.push_uci("g1f3")),
    ("push_san", lambda b: b.push_san("a4")),
    ("san_and_push", lambda b: b.san_and_push(b.parse_san("d4"))),
    ("push null", lambda b: b.push(type(b.parse_san("a4")).null())),
    ("pop", lambda b: _played(b).pop()),
    ("reset", lambda b: (_played(b), b.reset())),
    ("clear", lambda b: b.clear()),
    ("clear_board", lambda b: b.clear_board()),
    ("reset_board", lambda b: (b.set_fen(FENS[1]), b.reset_board())),
    ("set_board_fen", lambda b: b.set_board_fen("8/8/8/4k3/8/8/8/4K3")),
    ("set_fen", lambda b: b.set_fen(FENS[-1])),
    ("set_epd", lambda b: b.set_epd("r3k2r/8/8/8/8/8/8/R3K2R b Kq - hmvc 7; fmvn 9;")),
    ("set_chess960_pos", lambda b: b.set_chess960_pos(100)),
    ("set_piece_map", lambda b: b.set_piece_map({4: b.piece_at(4), 60: b.piece_at(60)})),
    ("apply_transform", lambda b: b.apply_transform(chess.flip_horizontal)),
    ("apply_mirror", lambda b: (_played(b), b.apply_mirror())),
    ("clear_stack", lambda b: (_played(b), b.clear_stack())),
]


@pytest.mark.parametrize("name, mutate", MUTATORS, ids=[m[0] for m in MUTATORS])
def test_every_mutator_refreshes(name: str, mutate: Callable[[Any], Any]) -> None:
    for fen in (pychess_rs.STARTING_FEN, FENS[-2]):
        board, oracle = pychess_rs.Board(fen), chess.Board(fen)
        mutate(board)
        mutate(oracle)
        assert_attributes(board, oracle)


BUILDERS: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("copy", lambda m, b: b.copy()),
    ("copy(stack=False)", lambda m, b: b.copy(stack=False)),
    ("copy(stack=1)", lambda m, b: b.copy(stack=1)),
    ("copy.copy", lambda m, b: copy.copy(b)),
    ("copy.deepcopy", lambda m, b: copy.deepcopy(b)),
    ("root", lambda m, b: b.root()),
    ("mirror", lambda m, b: b.mirror()),
    ("transform", lambda m, b: b.transform(chess.flip_vertical)),
    ("pickle", lambda m, b: pickle.loads(pickle.dumps(b)) if m is pychess_rs else b.copy()),
    ("empty", lambda m, b: m.Board.empty()),
    ("from_chess960_pos", lambda m, b: m.Board.from_chess960_pos(300)),
    ("from_epd", lambda m, b: m.Board.from_epd("8/8/8/4k3/8/8/8/4K3 b - - hmvc 3;")[0]),
]


@pytest.mark.parametrize("name, build", BUILDERS, ids=[b[0] for b in BUILDERS])
def test_every_new_board_has_its_attributes(name: str, build: Callable[[Any, Any], Any]) -> None:
    board, oracle = pychess_rs.Board(FENS[-2]), chess.Board(FENS[-2])
    for b in (board, oracle):
        b.push_san("exf6")
        b.halfmove_clock = 9
    assert_attributes(build(pychess_rs, board), build(chess, oracle))


def test_from_python_chess_and_snapshot_boards() -> None:
    oracle = chess.Board(FENS[-2])
    oracle.push_san("Nf3")
    oracle.push_san("g5")
    assert_attributes(pychess_rs.Board.from_python_chess(oracle), oracle)
    board = pychess_rs.Board.from_python_chess(oracle)
    assert_attributes(board.snapshot().board(), chess.Board(oracle.fen(en_passant="fen")))


def test_writes_convert_and_validate_like_the_setters() -> None:
    board = pychess_rs.Board()
    with pytest.raises(TypeError):
        board.turn = "white"  # type: ignore[assignment]
    with pytest.raises(ValueError):
        board.ep_square = 64
    with pytest.raises(OverflowError):
        board.halfmove_clock = -1
    assert_attributes(board, chess.Board())
    with pytest.raises(AttributeError):
        del board.turn
    with pytest.raises(AttributeError):
        board.no_such_attribute = 1  # type: ignore[attr-defined]
    board.turn = chess.BLACK
    board.ep_square = chess.E3
    assert board.turn is False and board.ep_square == chess.E3
    # The move stack stays, as python-chess's plain attributes leave it.
    board.turn = chess.WHITE
    board.push_san("e4")
    board.fullmove_number = 40
    assert board.pop().uci() == "e2e4" and board.fullmove_number == 1


def test_subclass_keeps_its_own_attributes() -> None:
    board = Sub()
    assert board.note == "mine" and board.counter == 0
    board.counter = 5
    board.extra = [1, 2]
    assert board.counter == 5 and board._counter == 5 and board.extra == [1, 2]
    assert vars(board) == {"note": "mine", "_counter": 5, "extra": [1, 2]}
    del board.extra
    assert not hasattr(board, "extra")
    with pytest.raises(AttributeError):
        del board.extra
    board.turn = chess.BLACK
    assert board.turn is False and "turn" not in vars(board)
    board.push_san("e5")
    assert board.turn is True and board.fen().split()[1] == "w"


def test_subclass_with_slots_and_its_own_setattr() -> None:
    log: list[str] = []

    class Logged(pychess_rs.Board):
        def __setattr__(self, name: str, value: Any) -> None:
            log.append(name)
            super().__setattr__(name, value)

    board = Logged()
    board.turn = chess.BLACK
    board.mine = 1
    assert log == ["turn", "mine"] and board.turn is False and board.mine == 1


def test_attributes_are_read_only_members_with_docs() -> None:
    for name in SHADOWED:
        descriptor = vars(pychess_rs.Board)[name]
        assert type(descriptor).__name__ == "member_descriptor"
        assert descriptor.__doc__
    move = pychess_rs.Move.from_uci("e7e8q")
    assert (move.from_square, move.to_square, move.promotion, move.drop) == (52, 60, 5, None)
    assert pychess_rs.Move.from_uci("N@f3").drop == 2
    for name in ("from_square", "to_square", "promotion", "drop"):
        with pytest.raises(AttributeError):
            setattr(move, name, 1)
    piece = pychess_rs.Piece(chess.KNIGHT, chess.BLACK)
    assert (piece.piece_type, piece.color) == (2, False)
    with pytest.raises(AttributeError):
        piece.color = True  # type: ignore[misc]


def test_move_stack_is_the_boards_own_list() -> None:
    board = pychess_rs.Board()
    stack = board.move_stack
    board.push_san("e4")
    board.push_san("e5")
    board.pop()
    board.push_uci("c7c5")
    assert board.move_stack is stack and [m.uci() for m in stack] == ["e2e4", "c7c5"]
    other = board.copy()
    assert other.move_stack is not stack and other.move_stack == stack
    other.pop()
    assert len(stack) == 2 and len(other.move_stack) == 1
    # Reads bring the same list up to date after any pushes and pops in between.
    for _ in range(2):
        board.pop()
    for uci in ("d2d4", "d7d5", "c1f4"):
        board.push_uci(uci)
    board.pop()
    assert board.move_stack is stack and [m.uci() for m in stack] == ["d2d4", "d7d5"]
    # A list changed by its user is replaced by a correct one at the next read.
    board.move_stack.clear()
    board.push_uci("g1f3")
    assert [m.uci() for m in board.move_stack] == ["d2d4", "d7d5", "g1f3"]
    board.set_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    board.push_san("O-O")
    assert [m.uci() for m in board.move_stack] == ["e1g1"]


def test_shared_pieces_and_move_text() -> None:
    board = pychess_rs.Board()
    assert board.piece_at(chess.E1) is board.piece_at(chess.E1)
    assert board.piece_at(chess.E1) == pychess_rs.Piece(chess.KING, chess.WHITE)
    assert pychess_rs.Piece.from_symbol("k") is board.piece_at(chess.E8)
    assert board.piece_at(chess.E1) != board.piece_at(chess.E8)
    assert board.piece_at(chess.E1) != "K"
    assert hash(pychess_rs.Piece(6, True)) == hash(board.piece_at(chess.E1))
    for text in ("e2e4", "e7e8q", "0000", "P@e4"):
        move = pychess_rs.Move.from_uci(text)
        assert move.uci() == str(move) == chess.Move.from_uci(text).uci()
    assert pychess_rs.Move(12, 28).uci() == "e2e4"
