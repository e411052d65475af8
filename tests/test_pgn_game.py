"""python-chess's ``chess.pgn`` API in ``pychess_rs.pgn``: read_game/read_headers/skip_game,
node trees, ``Game.from_board``, visitors and exporters, compared with python-chess."""

from __future__ import annotations

import io
import logging
import random
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest
from test_pgn_bulk import HOSTILE, PGN_FILES

import pychess_rs
from pychess_rs import pgn

DATA = Path(__file__).parent / "data" / "pgn"
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
logging.getLogger("pychess_rs.pgn").setLevel(logging.CRITICAL)

ERROR_NAMES = {"InvalidFenError": "ValueError"}


def error_kinds(errors: list[Exception]) -> list[str]:
    return [ERROR_NAMES.get(type(e).__name__, type(e).__name__) for e in errors]


def text_handle(data: bytes) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace", newline=None)


def tree_is_legal(game: chess.pgn.Game) -> bool:
    """Whether every move of python-chess's tree is legal where it stands. After a bad move in
    a variation python-chess can hang later moves under the wrong node; it still prints such
    a tree (its boards take any move), pychess-rs's boards refuse to."""
    stack: list[chess.pgn.GameNode] = [game]
    while stack:
        node = stack.pop()
        board = node.board()
        for child in node.variations:
            if child.move not in board.legal_moves:
                return False
            stack.append(child)
    return True


def compare_streams(data: bytes) -> int:
    """Reads every game of ``data`` with both libraries; returns the number of games."""
    theirs, ours = text_handle(data), text_handle(data)
    games = 0
    while True:
        try:
            expected = chess.pgn.read_game(theirs)
        except (IndexError, AttributeError, AssertionError):
            pytest.skip("python-chess crashes on this input")
        got = pgn.read_game(ours)
        assert (got is None) == (expected is None)
        if expected is None or got is None:
            return games
        games += 1
        assert theirs.tell() == ours.tell()
        assert dict(got.headers) == dict(expected.headers)
        assert error_kinds(got.errors) == error_kinds(expected.errors)
        for g, e in zip(got.errors, expected.errors):
            if not isinstance(e, ValueError) or type(e).__name__ != "ValueError":
                assert str(g) == str(e)
        assert [m.uci() for m in got.mainline_moves()] == [
            m.uci() for m in expected.mainline_moves()
        ]
        fen_error = any(type(e).__name__ == "ValueError" for e in expected.errors)
        if not fen_error and tree_is_legal(expected):
            assert str(got) == str(expected)
            for columns in (80, 40):
                for options in ({}, {"comments": False}, {"variations": False}, {"headers": False}):
                    a = got.accept(pgn.StringExporter(columns=columns, **options))
                    b = expected.accept(chess.pgn.StringExporter(columns=columns, **options))
                    assert a == b, (columns, options)


@pytest.mark.parametrize("name", PGN_FILES)
def test_read_game_and_export_match_python_chess(name: str) -> None:
    assert compare_streams((DATA / name).read_bytes()) > 0


@pytest.mark.parametrize("name", sorted(set(HOSTILE) - {"huge-comment"}))
def test_hostile_read_game(name: str) -> None:
    compare_streams(HOSTILE[name])


def test_huge_comment_read_game() -> None:
    game = pgn.read_game(text_handle(HOSTILE["huge-comment"]))
    assert game is not None
    assert len(game.variations[0].comment) == 2_000_000
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5"]


def test_read_headers_and_skip_game_keep_python_chess_offsets() -> None:
    path = DATA / "kasparov-deep-blue-1997.pgn"
    with open(path) as theirs, open(path) as ours:
        while True:
            expected = chess.pgn.read_headers(theirs)
            got = pgn.read_headers(ours)
            assert (expected is None) == (got is None)
            if expected is None or got is None:
                break
            assert dict(got) == dict(expected)
            assert ours.tell() == theirs.tell()
            assert pgn.skip_game(ours) == chess.pgn.skip_game(theirs)
            assert ours.tell() == theirs.tell()
    assert pgn.read_game(io.StringIO("")) is None
    assert pgn.read_game(io.StringIO("\n\n% only a comment\n")) is None


def play_random(seed: int, fen: str | None = None, chess960: bool = False) -> tuple[Any, Any]:
    rng = random.Random(seed)
    ours = pychess_rs.Board(fen, chess960=chess960) if fen else pychess_rs.Board()
    theirs = chess.Board(fen, chess960=chess960) if fen else chess.Board()
    for _ in range(rng.randrange(0, 160)):
        moves = sorted(m.uci() for m in theirs.legal_moves)
        if not moves:
            break
        uci = rng.choice(moves)
        theirs.push_uci(uci)
        ours.push_uci(uci)
    return ours, theirs


@pytest.mark.parametrize("seed", range(12))
def test_from_board_exports_like_python_chess(seed: int) -> None:
    fen = None
    chess960 = False
    if seed % 3 == 1:
        fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 3 17"
    elif seed % 3 == 2:
        fen = chess.Board.from_chess960_pos(seed * 37 % 960).fen()
        chess960 = True
    ours, theirs = play_random(seed, fen, chess960)
    got = pgn.Game.from_board(ours)
    expected = chess.pgn.Game.from_board(theirs)
    for game in (got, expected):
        game.headers["Event"] = "Terminal game"
        game.headers["White"] = "You"
        game.headers["Black"] = "pychess-rs (depth 4)"
        game.headers["TimeControl"] = "300+2"
    assert str(got) == str(expected)
    assert got.accept(pgn.StringExporter(columns=80)) == expected.accept(
        chess.pgn.StringExporter(columns=80)
    )
    assert got.end().board().fen() == expected.end().board().fen()
    assert got.headers["Result"] == theirs.result()


def test_file_exporter_and_board_builder() -> None:
    ours, theirs = play_random(99)
    a, b = io.StringIO(), io.StringIO()
    written = pgn.Game.from_board(ours).accept(pgn.FileExporter(a))
    assert written == chess.pgn.Game.from_board(theirs).accept(chess.pgn.FileExporter(b))
    assert a.getvalue() == b.getvalue()
    path = DATA / "kasparov-deep-blue-1997.pgn"
    with open(path) as h1, open(path) as h2:
        board = pgn.read_game(h1, Visitor=pgn.BoardBuilder)
        expected = chess.pgn.read_game(h2, Visitor=chess.pgn.BoardBuilder)
    assert board is not None and expected is not None
    assert board.fen() == expected.fen()
    assert [m.uci() for m in board.move_stack] == [m.uci() for m in expected.move_stack]


def test_node_tree_api() -> None:
    text = "1. e4 { best } $1 ( 1. d4 d5 ) 1... e5 2. Nf3 [%clk 0:01:02] { [%clk 0:00:59.5] } *"
    game = pgn.read_game(io.StringIO(text))
    oracle = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and oracle is not None
    node = game.variations[0]
    assert node.comment == "best" and node.nags == {1}
    assert node.san() == "e4" and node.uci() == "e2e4"
    assert [v.move.uci() for v in game.variations] == ["e2e4", "d2d4"]
    assert game.variations[1].starts_variation() and not node.starts_variation()
    assert node.is_mainline() and not game.variations[1].is_mainline()
    assert game.end().clock() == oracle.end().clock() == 59.5
    game.end().set_clock(61.25)
    oracle.end().set_clock(61.25)
    assert game.end().comment == oracle.end().comment
    game.promote_to_main(game.variations[1].move)
    oracle.promote_to_main(oracle.variations[1].move)
    assert str(game) == str(oracle)
    game.end().set_eval(pychess_rs.PovScore(pychess_rs.Cp(-35), chess.WHITE), depth=12)
    oracle.end().set_eval(chess.engine.PovScore(chess.engine.Cp(-35), chess.WHITE), depth=12)
    assert game.end().comment == oracle.end().comment
    ev = game.end().eval()
    assert ev is not None and ev.white().score() == -35
    assert game.end().eval_depth() == 12
    added = game.add_line([pychess_rs.Move.from_uci(u) for u in ("g1f3", "g8f6")], comment="x")
    assert added.ply() == 2 and added.comment == "x"
    assert repr(game).startswith("<Game at ")
    assert pgn.parse_time_control("40/7200:3600").type == pgn.TimeControlType.STANDARD
    blitz = chess.pgn.parse_time_control("180+2").type.name
    assert pgn.parse_time_control("180+2").type.name == blitz


def recording_visitor(module: Any) -> Any:
    """A visitor class of ``module`` that records every call, boards as FEN."""

    class Recorder(module.BaseVisitor):
        def __init__(self) -> None:
            self.events: list[Any] = []

        def begin_game(self) -> None:
            self.events.append("begin_game")

        def visit_header(self, tagname: str, tagvalue: str) -> None:
            self.events.append(("header", tagname, tagvalue))

        def end_headers(self) -> None:
            self.events.append("end_headers")

        def visit_board(self, board: Any) -> None:
            self.events.append(("board", board.fen()))

        def begin_parse_san(self, board: Any, san: str) -> None:
            self.events.append(("begin_parse_san", board.fen(), san))

        def visit_move(self, board: Any, move: Any) -> None:
            self.events.append(("move", board.fen(), move.uci()))

        def visit_comment(self, comment: str) -> None:
            self.events.append(("comment", comment))

        def visit_nag(self, nag: int) -> None:
            self.events.append(("nag", nag))

        def begin_variation(self) -> None:
            self.events.append("(")

        def end_variation(self) -> None:
            self.events.append(")")

        def visit_result(self, result: str) -> None:
            self.events.append(("result", result))

        def handle_error(self, error: Exception) -> None:
            self.events.append(("error", error_kinds([error])[0]))

        def end_game(self) -> None:
            self.events.append("end_game")

        def result(self) -> list[Any]:
            return self.events

    return Recorder


@pytest.mark.parametrize("name", sorted(set(HOSTILE) - {"huge-comment"}) + PGN_FILES)
def test_visitor_calls_match_python_chess(name: str) -> None:
    data = HOSTILE[name] if name in HOSTILE else (DATA / name).read_bytes()
    theirs, ours = text_handle(data), text_handle(data)
    ours_class, theirs_class = recording_visitor(pgn), recording_visitor(chess.pgn)
    while True:
        try:
            expected = chess.pgn.read_game(theirs, Visitor=theirs_class)
        except (IndexError, AttributeError, AssertionError):
            return  # python-chess crashes on the rest
        got = pgn.read_game(ours, Visitor=ours_class)
        assert got == expected
        if expected is None:
            return


def test_read_nodes_behave_like_plain_objects() -> None:
    """Nodes the reader makes keep their fields in slots and get their NAG set when first
    read; to a user they are python-chess's nodes: any attribute can be set, NAGs added, and
    trees copy, pickle, take weak references and are collected."""
    import copy
    import gc
    import pickle
    import weakref

    text = '[Foo "bar"]\n\n1. e4 $1 e5 ( 1... c5 ) 2. Nf3 *'
    game = pgn.read_game(io.StringIO(text))
    oracle = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and oracle is not None
    assert dict(game.headers) == dict(oracle.headers)
    end = game.end()
    assert end.nags == set()
    assert end.nags is end.nags
    end.nags.add(3)
    assert "$3" in str(game)
    assert game.variations[0].nags == {1}
    end.note = "mine"
    assert end.note == "mine"
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        end.missing  # noqa: B018
    for twin in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert str(twin) == str(game)
        assert twin.end().note == "mine" and twin.end().nags == {3}
    fresh = pgn.read_game(io.StringIO(text))
    assert fresh is not None
    assert pickle.loads(pickle.dumps(fresh.end())).nags == set()
    ref = weakref.ref(fresh.end())
    del fresh
    gc.collect()
    assert ref() is None


def test_game_lines_are_read_like_python_chess() -> None:
    """The game's lines are taken from the handle in Rust: the same lines as python-chess
    (BOMs, comment and blank lines, a brace comment over a blank line), the handle left where
    python-chess leaves it, lone surrogates kept, and a binary handle refused."""
    data = (
        '\ufeff\ufeff% escape\n\n;x\n[A "1"]\n\n[B "\udcff"]\n1. e4 { a\n\n b } e5\n\n'
        '  \n1. d4 d5 ; c {\n\n% z\n[C "3"]\n1. c4\n'
    )
    theirs, ours = io.StringIO(data), io.StringIO(data)
    while True:
        expected = chess.pgn.read_game(theirs)
        got = pgn.read_game(ours)
        assert theirs.tell() == ours.tell()
        if expected is None or got is None:
            assert expected is None and got is None
            break
        assert [m.uci() for m in got.mainline_moves()] == [
            m.uci() for m in expected.mainline_moves()
        ]
        assert set(got.headers) == set(expected.headers)
    with pytest.raises(TypeError):
        pgn.read_game(io.BytesIO(b"1. e4 *\n"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        chess.pgn.read_game(io.BytesIO(b"1. e4 *\n"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "fen",
    [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",  # standard rights
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",  # rooks off the corners
        "r2k3r/8/8/8/8/8/8/R2K3R w HAha - 0 1",  # kings off the e-file
    ],
)
def test_chess960_rights_turn_chess960_on_as_python_chess(fen: str) -> None:
    ours, theirs = pgn.Game(), chess.pgn.Game()
    ours.setup(fen)
    theirs.setup(fen)
    assert dict(ours.headers) == dict(theirs.headers)
    assert ours.board().chess960 == theirs.board().chess960
    text = f'[FEN "{fen}"]\n[SetUp "1"]\n\n1. O-O *'
    got, expected = pgn.read_game(io.StringIO(text)), chess.pgn.read_game(io.StringIO(text))
    assert got is not None and expected is not None
    assert [m.uci() for m in got.mainline_moves()] == [m.uci() for m in expected.mainline_moves()]
    assert got.board().chess960 == expected.board().chess960
