"""The one PGN reader driving python-chess's visitors: the same calls, boards, ``SKIP``
answers, errors and exported text as python-chess 1.11.2, on a corpus of lichess-style
annotated games (``tools/benchsuite/annotated_corpus.py``: clocks, evals, NAGs, nested
variations and broken games) and on hand-made cases."""

from __future__ import annotations

import functools
import io
from typing import Any

import chess
import chess.pgn
import pytest
from benchsuite.annotated_corpus import generate
from test_pgn_bulk import assert_same
from test_pgn_game import compare_streams, error_kinds, recording_visitor, text_handle

import pychess_rs
from pychess_rs import pgn

# Every third game broken: an illegal SAN, garbage tokens, a game cut off, in turn.
CORPUS = generate(24, seed=7, broken_every=3).encode()


def read_all(module: Any, data: bytes, visitor: Any) -> list[Any]:
    """Every game's result; the error a visitor raised ends the list (the handle is then
    left mid-game by python-chess and after it by pychess-rs)."""
    handle = text_handle(data)
    out: list[Any] = []
    while True:
        try:
            result = module.read_game(handle, Visitor=visitor)
        except ValueError as error:
            return [*out, ("raised", error_kinds([error])[0], str(error))]
        if result is None:
            return out
        out.append(result)


def test_corpus_is_deterministic_and_has_what_it_promises() -> None:
    assert generate(24, seed=7, broken_every=3).encode() == CORPUS
    text = CORPUS.decode()
    assert text.count("[%clk ") > 24 * 10 and text.count("[%eval #") > 0
    assert "( " in text and "?!" in text and "$" in text and "xyzzy" in text
    games = read_all(chess.pgn, CORPUS, chess.pgn.GameBuilder)
    kinds = {type(e).__name__ for g in games for e in g.errors}
    assert kinds == {"IllegalMoveError"}
    # The illegal SANs, and garbage read as a move where it is not legal.
    assert sum(1 for g in games if g.errors) >= 3
    nested = [g for g in games if "( " in str(g) and str(g).count("(") > str(g).count("( 1")]
    assert nested


def test_corpus_visitor_calls_match_python_chess() -> None:
    ours = read_all(pgn, CORPUS, recording_visitor(pgn))
    theirs = read_all(chess.pgn, CORPUS, recording_visitor(chess.pgn))
    assert len(ours) == len(theirs) == 24
    for got, expected in zip(ours, theirs):
        assert got == expected


def test_corpus_games_and_exports_match_python_chess() -> None:
    assert compare_streams(CORPUS) == 24


@pytest.mark.parametrize("threads", [1, 2])
def test_corpus_bulk_reader_matches_python_chess(threads: int) -> None:
    assert_same(CORPUS, threads=threads)


def test_corpus_clocks_and_evals_match_python_chess() -> None:
    for got, expected in zip(
        read_all(pgn, CORPUS, pgn.GameBuilder), read_all(chess.pgn, CORPUS, chess.pgn.GameBuilder)
    ):
        ours = [(n.clock(), n.eval(), n.nags, n.starting_comment) for n in got.mainline()]
        theirs = [(n.clock(), n.eval(), n.nags, n.starting_comment) for n in expected.mainline()]
        assert [(c, str(e), n, s) for c, e, n, s in ours] == [
            (c, str(e), n, s) for c, e, n, s in theirs
        ]


@pytest.mark.parametrize(
    ("visitor", "options"),
    [
        ("StringExporter", {}),
        ("StringExporter", {"columns": None, "comments": False}),
        ("StringExporter", {"variations": False}),
        ("BoardBuilder", {}),
        ("HeadersBuilder", {}),
        ("SkipVisitor", {}),
    ],
)
def test_corpus_read_with_library_visitors(visitor: str, options: dict[str, Any]) -> None:
    ours = read_all(pgn, CORPUS, functools.partial(getattr(pgn, visitor), **options))
    theirs = read_all(chess.pgn, CORPUS, functools.partial(getattr(chess.pgn, visitor), **options))

    def plain(result: Any) -> Any:
        if visitor == "BoardBuilder" and not isinstance(result, tuple):
            return (result.fen(), [m.uci() for m in result.move_stack])
        if visitor == "HeadersBuilder":
            return dict(result)
        return result

    ours, theirs = [plain(r) for r in ours], [plain(r) for r in theirs]
    assert ours == theirs


def test_file_exporter_while_reading() -> None:
    ours, theirs = io.StringIO(), io.StringIO()
    written = read_all(pgn, CORPUS, lambda: pgn.FileExporter(ours))
    assert written == read_all(chess.pgn, CORPUS, lambda: chess.pgn.FileExporter(theirs))
    assert ours.getvalue() == theirs.getvalue()


def steering_visitor(module: Any) -> Any:
    """A recording visitor that skips some tokens and variations and parses SAN itself."""

    base = recording_visitor(module)

    class Steering(base):  # type: ignore[misc, valid-type]
        def begin_parse_san(self, board: Any, san: str) -> Any:
            super().begin_parse_san(board, san)
            return module.SKIP if san == "Nf3" else None

        def parse_san(self, board: Any, san: str) -> Any:
            self.events.append(("parse_san", san))
            if san == "Qh4":
                raise ValueError("no queen sorties here")
            return board.parse_san("d4" if san == "e4" else san)

        def begin_variation(self) -> Any:
            super().begin_variation()
            return module.SKIP if len(self.events) % 2 else None

    return Steering


@pytest.mark.parametrize(
    "text",
    [
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 *",
        "1. e4 (1. c4 c5 (1... e5 2. Nc3) 2. Nf3) 1... d5 (1... Qh4 2. g3) 2. exd5 *",
        "1. e4 e5 2. Qh5 Qh4 3. Qxf7+ *\n\n1. d4 ( 1. e4 ) ( 1. c4 ) 1... d5 *",
        "1. e4 e5 2. Nf3 ( 2. Nc3 Nf6 ( 2... Nc6 ) ( ( 2. d4 ) 2... d6 ) ) 2... Nc6 *",
    ],
)
def test_skip_answers_and_parse_san_as_python_chess(text: str) -> None:
    data = text.encode()
    assert read_all(pgn, data, steering_visitor(pgn)) == read_all(
        chess.pgn, data, steering_visitor(chess.pgn)
    )


def test_exceptions_from_visitors_propagate() -> None:
    class Raising(pgn.BaseVisitor[None]):
        def visit_comment(self, comment: str) -> None:
            raise RuntimeError(comment)

        def result(self) -> None:
            return None

    with pytest.raises(RuntimeError, match="boom"):
        pgn.read_game(io.StringIO("1. e4 { boom } e5 *"), Visitor=Raising)

    class Silent(pgn.BaseVisitor[bool]):
        def result(self) -> bool:
            return True

    # BaseVisitor's handle_error raises the error, as python-chess's does.
    for module, visitor in ((pgn, Silent), (chess.pgn, None)):
        handle = io.StringIO("1. e4 Ke7 *")
        if visitor is None:

            class Theirs(chess.pgn.BaseVisitor[bool]):
                def result(self) -> bool:
                    return True

            visitor = Theirs
        with pytest.raises(ValueError, match="illegal san: 'Ke7'"):
            module.read_game(handle, Visitor=visitor)


def test_custom_game_classes_build_through_their_own_methods() -> None:
    made: list[str] = []

    class Node(pgn.ChildNode):
        pass

    class MyGame(pgn.Game):
        def add_variation(self, move: Any, **kwargs: Any) -> Any:
            made.append(move.uci())
            return Node(self, move, **kwargs)

    game = pgn.read_game(io.StringIO("1. e4 e5 { x } 2. Nf3 *"), Visitor=MyGame.builder)
    assert isinstance(game, MyGame) and made == ["e2e4"]
    assert isinstance(game.next(), Node)
    assert game.accept(pgn.StringExporter(headers=False)) == "1. e4 e5 { x } 2. Nf3 *"

    class Loud(pgn.GameBuilder[pgn.Game]):
        def handle_error(self, error: Exception) -> None:
            raise error

    with pytest.raises(pychess_rs.IllegalMoveError):
        pgn.read_game(io.StringIO("1. e4 Ke7 *"), Visitor=Loud)
    game = pgn.read_game(io.StringIO('[White "A"]\n\n1. e4 { y } e5 *'), Visitor=Loud)
    assert game is not None and game.headers["White"] == "A"
    assert str(game.mainline()) == "1. e4 { y } 1... e5"


def test_text_keeps_lone_surrogates_as_python_chess() -> None:
    text = '[White "\udcff"]\n\n{ a\udcfe } 1. e4 { \udcfd } *'
    ours, theirs = pgn.read_game(io.StringIO(text)), chess.pgn.read_game(io.StringIO(text))
    assert ours is not None and theirs is not None
    assert ours.headers["White"] == theirs.headers["White"] == "\udcff"
    assert ours.comment == theirs.comment
    assert ours.variations[0].comment == theirs.variations[0].comment == "\udcfd"
    events = pgn.read_game(io.StringIO(text), Visitor=recording_visitor(pgn))
    assert events == chess.pgn.read_game(io.StringIO(text), Visitor=recording_visitor(chess.pgn))
    assert events is not None and ("comment", "\udcfd") in events
    assert error_kinds(ours.errors) == error_kinds(theirs.errors) == []


def test_parse_san_answers_the_reader_checks() -> None:
    """A move from an overridden parse_san is played only if it is legal there (python-chess
    would push anything and corrupt its board); otherwise handle_error gets why."""
    errors: list[Exception] = []

    class Wrong(pgn.BaseVisitor[list[str]]):
        def __init__(self) -> None:
            self.moves: list[str] = []

        def parse_san(self, board: Any, san: str) -> Any:
            return pychess_rs.Move.from_uci("e2e5") if san == "d4" else board.parse_san(san)

        def visit_move(self, board: Any, move: Any) -> None:
            self.moves.append(board.san(move))

        def handle_error(self, error: Exception) -> None:
            errors.append(error)

        def result(self) -> list[str]:
            return self.moves

    assert pgn.read_game(io.StringIO("1. e4 e5 2. d4 exd4 *"), Visitor=Wrong) == ["e4", "e5"]
    assert isinstance(errors[0], pychess_rs.IllegalMoveError)
    assert "parse_san returned e2e5" in str(errors[0])

    class NotAMove(Wrong):
        def parse_san(self, board: Any, san: str) -> Any:
            return san

    with pytest.raises(TypeError, match="not a Move"):
        pgn.read_game(io.StringIO("1. e4 *"), Visitor=NotAMove)
