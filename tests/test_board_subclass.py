"""Subclasses of ``Board`` and ``BaseBoard`` built and copied as python-chess builds them.

Each scenario runs twice, once with python-chess's classes (the oracle) and once with ours,
and the two runs must tell the same story: which class each operation returns, which of the
subclass's own attributes survive it, and which position it holds.
"""

from __future__ import annotations

import copy
import pickle
from types import ModuleType
from typing import Any

import chess
import pytest

import pychess_rs

KINGS = "8/8/8/8/8/8/8/K1k5 w - - 0 1"
LIBS = [pytest.param(chess, id="python-chess"), pytest.param(pychess_rs, id="pychess_rs")]


def importable(cls: type[Any], lib: ModuleType) -> type[Any]:
    """``cls`` made findable by pickle under a name of its own per library (``__name__``,
    which the transcripts compare, stays the same for both)."""
    cls.__qualname__ = f"{cls.__name__}_{lib.__name__}"
    globals()[cls.__qualname__] = cls
    return cls


def noted_board(lib: ModuleType) -> type[Any]:
    """A subclass with an extra keyword argument and an attribute set by its ``__init__``."""

    class NotedBoard(lib.Board):  # type: ignore[name-defined,misc]
        def __init__(
            self, fen: str | None = lib.STARTING_FEN, *, chess960: bool = False, note: str = ""
        ) -> None:
            super().__init__(fen, chess960=chess960)
            self.note = note

    return importable(NotedBoard, lib)


def plain_board(lib: ModuleType) -> type[Any]:
    """A subclass that changes nothing (inherits ``__init__``)."""

    class PlainBoard(lib.Board):  # type: ignore[name-defined,misc]
        pass

    return importable(PlainBoard, lib)


def story(lib: ModuleType, scenario: Any) -> list[Any]:
    return scenario(lib)  # type: ignore[no-any-return]


def both(scenario: Any) -> None:
    """Runs ``scenario`` with each library; the transcripts must be equal."""
    assert story(pychess_rs, scenario) == story(chess, scenario)


def describe(board: Any) -> tuple[str, str, bool, int, str | None]:
    return (
        type(board).__name__,
        board.fen(),
        board.chess960,
        len(board.move_stack),
        getattr(board, "note", None),
    )


def test_subclass_init_with_extra_keyword() -> None:
    def scenario(lib: ModuleType) -> list[Any]:
        cls = noted_board(lib)
        return [
            describe(cls(note="x")),
            describe(cls(KINGS)),
            describe(cls(KINGS, note="y")),
            describe(cls(None, chess960=True)),
            describe(cls(fen=KINGS, chess960=True, note="z")),
        ]

    both(scenario)


def test_plain_subclass_keeps_board_signature() -> None:
    def scenario(lib: ModuleType) -> list[Any]:
        cls = plain_board(lib)
        return [
            describe(cls()),
            describe(cls(KINGS, chess960=True)),
            describe(cls(fen=None)),
            isinstance(cls(), lib.Board),
        ]

    both(scenario)


@pytest.mark.parametrize("lib", LIBS)
def test_plain_subclass_rejects_wrong_arguments(lib: ModuleType) -> None:
    cls = plain_board(lib)
    for args, kwargs in [((KINGS, 1), {}), ((), {"colour": 1}), ((KINGS,), {"fen": KINGS})]:
        with pytest.raises(TypeError):
            cls(*args, **kwargs)
        with pytest.raises(TypeError):
            lib.Board(*args, **kwargs)


def test_invalid_fen_in_subclass_raises_our_value_error() -> None:
    for cls in (noted_board(pychess_rs), plain_board(pychess_rs)):
        with pytest.raises(pychess_rs.InvalidFenError):
            cls("not a fen")
    for cls in (noted_board(chess), plain_board(chess)):
        with pytest.raises(ValueError):
            cls("not a fen")
    assert issubclass(pychess_rs.InvalidFenError, ValueError)


def test_reinit_resets_position_and_stack() -> None:
    def scenario(lib: ModuleType) -> list[Any]:
        out = []
        for cls in (lib.Board, noted_board(lib), plain_board(lib)):
            board = cls()
            board.push_san("e4")
            board.push_san("e5")
            board.__init__(KINGS)
            out.append(describe(board))
            board.push_san("Ka2")
            board.__init__()
            out.append(describe(board))
            board.__init__(None, chess960=True)
            out.append(describe(board))
        return out

    both(scenario)


def test_failed_reinit_leaves_board_unchanged() -> None:
    board = noted_board(pychess_rs)(note="n")
    board.push_san("e4")
    with pytest.raises(pychess_rs.InvalidFenError):
        board.__init__("8/8/8/8 w - - 0 1")
    assert describe(board) == (
        "NotedBoard",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        False,
        1,
        "n",
    )


def played(cls: type[Any]) -> Any:
    board = cls(note="original")
    board.push_san("e4")
    board.push_san("c5")
    board.note = "changed"
    board.extra = [1, 2]
    return board


def test_copies_are_the_subclass() -> None:
    def scenario(lib: ModuleType) -> list[Any]:
        board = played(noted_board(lib))
        copies = [
            board.copy(),
            board.copy(stack=False),
            board.copy(stack=1),
            copy.copy(board),
            copy.deepcopy(board),
            board.mirror(),
            board.transform(lib.flip_horizontal),
            board.root(),
        ]
        return [(describe(c), getattr(c, "extra", None)) for c in copies]

    both(scenario)


def test_pickle_keeps_class_and_attributes() -> None:
    def scenario(lib: ModuleType) -> list[Any]:
        board = played(noted_board(lib))
        board.turn = not board.turn
        again = pickle.loads(pickle.dumps(board))
        plain = pickle.loads(pickle.dumps(plain_board(lib)(KINGS)))
        return [describe(again), again.extra, describe(plain), again == board]

    both(scenario)


# Pickled classes must be importable by name.
class PickledBoard(pychess_rs.Board):
    def __init__(self, required: int) -> None:
        super().__init__(KINGS)
        self.required = required


class ChessPickledBoard(chess.Board):
    def __init__(self, required: int) -> None:
        super().__init__(KINGS)
        self.required = required


def test_pickle_does_not_call_subclass_init() -> None:
    ours = pickle.loads(pickle.dumps(PickledBoard(7)))
    theirs = pickle.loads(pickle.dumps(ChessPickledBoard(7)))
    assert (type(ours), ours.required, ours.fen()) == (PickledBoard, 7, KINGS)
    assert (theirs.required, theirs.fen()) == (7, KINGS)


def test_plain_board_pickle_format_unchanged() -> None:
    board = pychess_rs.Board()
    board.push_san("e4")
    rebuild, args = board.__reduce__()
    assert rebuild == pychess_rs.Board._from_moves
    assert len(args) == 5
    assert pickle.loads(pickle.dumps(board)) == board
    assert type(pickle.loads(pickle.dumps(board))) is pychess_rs.Board


def test_alternative_constructors_return_the_subclass() -> None:
    def scenario(lib: ModuleType) -> list[Any]:
        cls = noted_board(lib)
        board, operations = cls.from_epd('8/8/8/8/8/8/8/K1k5 w - - bm Ka2; id "x";')
        return [
            describe(cls.empty()),
            describe(cls.empty(chess960=True)),
            describe(board),
            {k: str(v) for k, v in operations.items()},
            describe(cls.from_chess960_pos(3)),
            describe(plain_board(lib).from_chess960_pos(518)),
        ]

    both(scenario)


def test_exact_board_constructors_unchanged() -> None:
    def scenario(lib: ModuleType) -> list[Any]:
        board = lib.Board(KINGS)
        return [
            describe(lib.Board()),
            describe(board),
            describe(board.copy()),
            describe(lib.Board.from_chess960_pos(3)),
            describe(lib.Board.from_epd(KINGS[:-4])[0]),
            describe(lib.Board(None, chess960=True)),
        ]

    both(scenario)


def test_subclass_methods_and_attribute_writes() -> None:
    def scenario(lib: ModuleType) -> list[Any]:
        cls = noted_board(lib)
        board = cls(note="n")
        board.push_san("Nf3")
        board.halfmove_clock = 7
        board.turn = lib.WHITE
        board.note = "m"
        return [describe(board), board.halfmove_clock, str(board.legal_moves.count())]

    both(scenario)


def noted_base_board(lib: ModuleType) -> type[Any]:
    class NotedBaseBoard(lib.BaseBoard):  # type: ignore[name-defined,misc]
        def __init__(self, board_fen: str | None = lib.STARTING_BOARD_FEN, note: str = "") -> None:
            super().__init__(board_fen)
            self.note = note

    return importable(NotedBaseBoard, lib)


def describe_base(board: Any) -> tuple[str, str, str | None]:
    return type(board).__name__, board.board_fen(), getattr(board, "note", None)


def test_base_board_subclass() -> None:
    def scenario(lib: ModuleType) -> list[Any]:
        cls = noted_base_board(lib)
        board = cls("8/8/8/8/8/8/8/K1k5", note="x")
        out = [describe_base(board), describe_base(cls())]
        board.note = "y"
        out += [
            describe_base(c)
            for c in (
                board.copy(),
                copy.copy(board),
                copy.deepcopy(board),
                board.mirror(),
                board.transform(lib.flip_vertical),
                cls.empty(),
                cls.from_chess960_pos(3),
                pickle.loads(pickle.dumps(board)),
            )
        ]
        board.__init__()
        out.append(describe_base(board))
        return out

    both(scenario)


class PickledBaseBoard(pychess_rs.BaseBoard):
    def __init__(self, required: int) -> None:
        super().__init__("8/8/8/8/8/8/8/K1k5")
        self.required = required


def test_base_board_pickle_does_not_call_init() -> None:
    again = pickle.loads(pickle.dumps(PickledBaseBoard(3)))
    assert describe_base(again) == ("PickledBaseBoard", "8/8/8/8/8/8/8/K1k5", None)
    assert again.required == 3
    plain = pychess_rs.BaseBoard("8/8/8/8/8/8/8/K1k5")
    assert pickle.loads(pickle.dumps(plain)) == plain


def test_base_board_subclass_invalid_fen() -> None:
    with pytest.raises(ValueError):
        noted_base_board(pychess_rs)("not/a/fen")
    with pytest.raises(ValueError):
        noted_base_board(chess)("not/a/fen")


def test_subclass_init_without_super_keeps_position_from_new() -> None:
    """Subclasses written before ``Board`` had an ``__init__`` relied on ``__new__``."""

    class Legacy(pychess_rs.Board):
        def __init__(self, fen: str | None = pychess_rs.STARTING_FEN, **kwargs: Any) -> None:
            self.note = "legacy"

    board = Legacy(KINGS, chess960=True)
    assert (board.fen(), board.chess960, board.note) == (KINGS, True, "legacy")
    assert Legacy().fen() == pychess_rs.STARTING_FEN
    # Arguments that are not a valid Board's leave an empty board to the subclass.
    assert Legacy("not a fen").fen() == "8/8/8/8/8/8/8/8 w - - 0 1"


def test_repr_names_the_subclass() -> None:
    def scenario(lib: ModuleType) -> list[Any]:
        noted, plain = noted_board(lib), plain_board(lib)
        return [
            repr(noted(KINGS, note="x")),
            repr(plain()),
            repr(plain.from_chess960_pos(518)),
            repr(lib.Board(KINGS)),
        ]

    both(scenario)
