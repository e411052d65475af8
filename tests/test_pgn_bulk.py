"""The bulk PGN reader (``pychess_rs.pgn.read_games``) against python-chess's ``read_game``.

Same games, tags, mainline moves, results and errors (class and message) on python-chess's
own PGN files, engine-match PGN, and hostile input generated here; plus compression, threads,
filters, bad-game reporting and byte ranges.
"""

from __future__ import annotations

import bz2
import gzip
import io
import logging
import random
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

from pychess_rs import pgn

DATA = Path(__file__).parent / "data" / "pgn"
# Variant games (Antichess, Crazyhouse from lichess), read with their variant's rules.
VARIANT_FILES = {
    "antichess-programfox.pgn": "Antichess",
    "knightvuillaume-jannlee-zh-lichess.pgn": "Crazyhouse",
    "saturs-jannlee-zh-lichess.pgn": "Crazyhouse",
}
PGN_FILES = sorted(p.name for p in DATA.glob("*.pgn"))
ROSTER = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)


def oracle_games(data: bytes) -> list[dict[str, Any]] | None:
    """python-chess's reading of ``data`` (decoded as ``open()`` would, invalid bytes
    replaced), or None when python-chess itself crashes on it."""
    handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace", newline=None)
    out = []
    try:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                return out
            out.append(summary_of_oracle(game))
    except (IndexError, AttributeError, AssertionError):
        return None


def summary_of_oracle(game: chess.pgn.Game) -> dict[str, Any]:
    return {
        "headers": dict(game.headers),
        "moves": [m.uci() for m in game.mainline_moves()],
        "result": game.headers.get("Result", "*"),
        "errors": [(type(e).__name__, str(e)) for e in game.errors],
    }


ERROR_NAMES = {
    "InvalidFenError": "ValueError",  # python-chess raises a plain ValueError
}


def summary_of_ours(game: pgn.PgnGame) -> dict[str, Any]:
    headers = dict(ROSTER)
    headers.update(game.headers)
    headers["Result"] = game.result
    return {
        "headers": headers,
        "moves": game.moves,
        "result": game.result,
        "errors": [
            (ERROR_NAMES.get(type(e).__name__, type(e).__name__), str(e)) for e in game.errors
        ],
    }


def ours(data: bytes, **options: Any) -> list[dict[str, Any]]:
    return [summary_of_ours(g) for g in pgn.read_games(io.BytesIO(data), **options)]


def same_errors(a: list[tuple[str, str]], b: list[tuple[str, str]]) -> bool:
    """Errors agree: same classes, same messages except for FEN errors (worded differently)."""
    if [k for k, _ in a] != [k for k, _ in b]:
        return False
    return all(k == "ValueError" or x == y for (k, x), (_, y) in zip(a, b))


def assert_same(data: bytes, **options: Any) -> None:
    expected = oracle_games(data)
    if expected is None:
        pytest.skip("python-chess crashes on this input")
    got = ours(data, **options)
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g["headers"] == e["headers"], i
        assert g["moves"] == e["moves"], i
        assert g["result"] == e["result"], i
        assert same_errors(g["errors"], e["errors"]), (i, g["errors"], e["errors"])


@pytest.mark.parametrize("name", PGN_FILES)
@pytest.mark.parametrize("threads", [1, 3])
def test_python_chess_files(name: str, threads: int) -> None:
    assert_same((DATA / name).read_bytes(), threads=threads)


@pytest.mark.parametrize("name", sorted(VARIANT_FILES))
def test_variant_files_are_read_with_their_rules(name: str) -> None:
    """Each game reports its variant; its SAN and every FEN are python-chess's, read with
    the variant board python-chess picks from the tag."""
    with open(DATA / name, encoding="utf-8") as handle:
        expected = []
        while (game := chess.pgn.read_game(handle)) is not None:
            board = game.board()
            fens, sans = [board.fen()], []
            for move in game.mainline_moves():
                sans.append(board.san(move))
                board.push(move)
                fens.append(board.fen())
            expected.append((fens, sans))
    games = list(pgn.read_games(DATA / name))
    assert len(games) == len(expected) > 0
    for game, (fens, sans) in zip(games, expected):
        assert game.variant == VARIANT_FILES[name]
        assert game.errors == []
        assert game.san == sans
        assert game.fens == fens
        assert game.start_fen == fens[0]
    with_fens = list(pgn.read_games(DATA / name, fens=True))
    assert [g.fens for g in with_fens] == [f for f, _ in expected]


def test_standard_games_have_no_variant() -> None:
    game = next(iter(pgn.read_games(DATA / PGN_FILES[0])))
    assert game.variant is None


def test_path_gz_bz2_zst_and_text_files_agree(tmp_path: Path) -> None:
    data = b"".join((DATA / n).read_bytes() for n in PGN_FILES)
    plain = tmp_path / "all.pgn"
    plain.write_bytes(data)
    expected = [summary_of_ours(g) for g in pgn.read_games(plain)]
    assert len(expected) > 20
    (tmp_path / "all.pgn.gz").write_bytes(gzip.compress(data))
    (tmp_path / "all.pgn.bz2").write_bytes(bz2.compress(data))
    sources: list[Any] = [tmp_path / "all.pgn.gz", tmp_path / "all.pgn.bz2"]
    try:
        import zstandard

        (tmp_path / "all.pgn.zst").write_bytes(zstandard.ZstdCompressor().compress(data))
        sources.append(tmp_path / "all.pgn.zst")
    except ImportError:
        pass
    for source in sources:
        assert [summary_of_ours(g) for g in pgn.read_games(source, threads=2)] == expected
    with open(plain, encoding="utf-8") as text:
        assert [summary_of_ours(g) for g in pgn.read_games(text)] == expected


def test_offsets_point_at_each_game(tmp_path: Path) -> None:
    path = DATA / "kasparov-deep-blue-1997.pgn"
    data = path.read_bytes()
    offsets = [g.offset for g in pgn.read_games(path)]
    kasparov = [g.offset for g in pgn.read_games(path) if "Kasparov" in g.headers["White"]]
    assert kasparov == [0, 1436, 3067]  # python-chess's read_headers doctest
    for offset in offsets:
        assert data[offset : offset + 7] == b"[Event "


def test_filters_run_on_tags() -> None:
    data = (DATA / "kasparov-deep-blue-1997.pgn").read_bytes()
    every = list(pgn.read_games(io.BytesIO(data)))
    kasparov = list(pgn.read_games(io.BytesIO(data), where={"White": "Garry Kasparov"}))
    assert [g.offset for g in kasparov] == [
        g.offset for g in every if g.headers["White"] == "Garry Kasparov"
    ]
    elos = (
        b'[WhiteElo "2100"]\n\n1. e4 *\n\n[WhiteElo "1999.5"]\n\n1. d4 *\n\n'
        b'[WhiteElo "?"]\n\n1. c4 *\n\n1. Nf3 *\n'
    )

    def first_moves(**options: Any) -> list[str]:
        return [g.moves[0] for g in pgn.read_games(io.BytesIO(elos), **options)]

    assert first_moves(where={"WhiteElo": (">=", 2000)}) == ["e2e4"]
    assert first_moves(where=[("WhiteElo", "<", "2000")]) == ["d2d4"]
    assert first_moves(where={"WhiteElo": ("!=", 2100)}) == ["d2d4", "c2c4", "g1f3"]
    assert first_moves(where={"WhiteElo": "?"}) == ["c2c4"]
    contains = pgn.read_games(io.BytesIO(data), where={"Black": ("contains", "Blue")})
    assert len(list(contains)) == len(every) // 2
    games = (
        b'[TimeControl "60+0"]\n\n1. e4 *\n\n[TimeControl "180+2"]\n\n1. d4 *\n\n'
        b'[TimeControl "5400+30"]\n\n1. c4 *\n\n1. Nf3 *\n'
    )
    moves = [g.moves for g in pgn.read_games(io.BytesIO(games), time_control="blitz")]
    assert moves == [["d2d4"]]
    moves = [g.moves for g in pgn.read_games(io.BytesIO(games), time_control=["bullet", "unknown"])]
    assert moves == [["e2e4"], ["g1f3"]]
    with pytest.raises(ValueError, match="time-control class"):
        pgn.read_games(io.BytesIO(games), time_control="slow")
    with pytest.raises(ValueError, match="comparison"):
        pgn.read_games(io.BytesIO(games), where={"A": ("~", 1)})


def test_bad_games_are_reported_with_offset_and_reason() -> None:
    data = b"1. e4 e5 *\n\n1. e4 e5 2. Qxe7 *\n\n1. d4 *\n"
    stream = pgn.read_games(io.BytesIO(data), skip_errors=True)
    assert [g.moves for g in stream] == [["e2e4", "e7e5"], ["d2d4"]]
    assert [b.offset for b in stream.bad] == [12]
    assert "illegal san: 'Qxe7'" in stream.bad[0].reason
    assert stream.count == 2


def test_san_fens_and_repr() -> None:
    game = next(pgn.read_games(DATA / "molinari-bordais-1979.pgn"))
    with open(DATA / "molinari-bordais-1979.pgn") as handle:
        oracle = chess.pgn.read_game(handle)
    assert oracle is not None
    board = oracle.board()
    sans, fens = [], [board.fen()]
    for move in oracle.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
        fens.append(board.fen())
    assert game.san == sans
    assert game.fens == fens
    assert next(pgn.read_games(DATA / "molinari-bordais-1979.pgn", fens=True)).fens == fens
    assert game.start_fen == chess.STARTING_FEN
    assert game.ply_count == len(sans)
    assert repr(game).startswith("<PgnGame at 0 (")


# ---- hostile input ---------------------------------------------------------------------------

HOSTILE = {
    "truncated": (DATA / "kasparov-deep-blue-1997.pgn").read_bytes()[:2000],
    "truncated-in-comment": b'[Event "x"]\n\n1. e4 { unfinished\n comment',
    "unbalanced-braces": b"1. e4 } e5 { a { b } } 2. Nf3 } Nc6 *\n\n1. d4 {{{ *\n",
    "unbalanced-parens": (
        b"1. e4 ((( e5 ) 2. Nf3 *\n\n1. e4 ) ) e5 ( d5 *\n\n1. d4 (1. e4) ) d5 *\n"
    ),
    "illegal-and-ambiguous": (
        b'[FEN "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"]\n\n1. Nd2 Kd7 *\n\n1. e5 e4 *\n\n'
        b"1. e4 (1. Ke2 d5) e5 2. Nf3 Nc6 3. Zz9 Nf6 *\n\n1. e4 e5 2. 1-0 Nf3 *\n"
    ),
    "bad-fen": b'[FEN "8/8/8 w - - 0 1"]\n\n1. e4 *\n\n[FEN "junk"]\n\n1. e4 *\n',
    "huge-comment": b"1. e4 {" + b"x" * 2_000_000 + b"} e5 *\n",
    "boms": '\ufeff\ufeff[Event "a"]\n\n1. e4 *\n\n\ufeff[Event "b"]\n\n1. d4 *\n'.encode(),
    "crlf-and-cr": (
        b'[Event "a"]\r\n[Site "b"]\r\n\r\n1. e4 {x\r\ny} e5 *\r\n\r\n[Event "c"]\r\r1. d4 *\r'
    ),
    "escapes-and-semicolons": (
        b'% escape line\n[Event "a"]\n; comment line\n\n1. e4 ; rest {\n% e5\n2. Nf3 *\n'
    ),
    "nags-and-suffixes": b"1. e4!! $1 e5?! $255 2. Nf3 !? ?? $99999999999 *\n",
    "headers-only-and-odd-tags": (
        b'[Event "a"]\n\n\n[Weird tag "x"]\n[A "x"y"]\n[B "c" ]\n[ C "d"]\n[D ""]\n\n1. e4 *\n'
    ),
    "nulls-and-drops": b"1. e4 -- 2. d4 Z0 3. N@f3 e5 *\n",
    "promotions": b'[FEN "8/P6k/8/8/8/8/6pK/8 w - - 0 1"]\n\n1. a8=Q g1=N+ 2. Kxg1 *\n',
    "castling-960": (
        b'[Variant "Chess960"]\n'
        b'[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]\n\n'
        b"9. O-O O-O *\n"
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile(name: str) -> None:
    assert_same(HOSTILE[name])
    assert_same(HOSTILE[name], threads=2)


def test_binary_garbage() -> None:
    rng = random.Random(1)
    alphabet = b'[]{}();%$!?"\n\r e4Nf3O-xd5=Q1/2*\x00\xff\xef\xbb\xbfKQRB'
    for _ in range(60):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 400)))
        expected = oracle_games(data)
        if expected is None:
            continue
        got = ours(data)
        assert [g["moves"] for g in got] == [e["moves"] for e in expected], data
        assert [g["headers"] for g in got] == [e["headers"] for e in expected], data
        assert [[k for k, _ in g["errors"]] for g in got] == [
            [k for k, _ in e["errors"]] for e in expected
        ], data
    random_bytes = bytes(rng.randrange(256) for _ in range(200_000))
    list(pgn.read_games(io.BytesIO(random_bytes), threads=2))


def test_ten_megabyte_line() -> None:
    line = b"1. e4 {" + b"long comment " * 800_000 + b"} e5 " + b"2. Nf3 Nc6 " * 1000 + b"*"
    assert len(line) > 10_000_000
    data = b'[Event "big"]\n\n' + line + b'\n\n[Event "next"]\n\n1. d4 *\n'
    games = list(pgn.read_games(io.BytesIO(data), threads=2))
    assert [g.headers["Event"] for g in games] == ["big", "next"]
    assert games[0].moves[:4] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert len(games[0].errors) == 1  # the repeated "2. Nf3" is illegal the second time


# ---- byte ranges -----------------------------------------------------------------------------


def test_byte_ranges_read_every_game_once(tmp_path: Path) -> None:
    data = b"".join((DATA / n).read_bytes() for n in PGN_FILES if n != "utf8-bom.pgn")
    path = tmp_path / "all.pgn"
    path.write_bytes(data)
    whole = [(g.offset, g.moves) for g in pgn.read_games(path)]
    for parts in (1, 2, 5, 17, 100):
        ranges = pgn.byte_ranges(path, parts)
        assert ranges[0][0] == 0 and ranges[-1][1] == len(data)
        got = [
            (g.offset, g.moves)
            for start, end in ranges
            for g in pgn.read_games(path, start=start, end=end, threads=1)
        ]
        assert got == whole, parts
    gz = tmp_path / "all.pgn.gz"
    gz.write_bytes(gzip.compress(data))
    assert pgn.byte_ranges(gz, 4) == [(0, gz.stat().st_size)]
    with pytest.raises(OSError, match="uncompressed"):
        pgn.read_games(gz, start=0, end=10)


def test_leaving_early_does_not_hang(tmp_path: Path) -> None:
    data = (DATA / "kasparov-deep-blue-1997.pgn").read_bytes() * 200
    for source in (io.BytesIO(data), io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")):
        stream = pgn.read_games(source, threads=2)
        assert next(stream).headers["White"] == "Garry Kasparov"
        del stream  # the worker threads end on their own; nothing waits for them


def test_core_boundary_functions(tmp_path: Path) -> None:
    from pychess_rs import _core

    data = b'[Event "a"]\n\n1. e4 { x\n\ny } *\n\n[Event "b"]\n\n1. d4 *\n'
    end = _core.pgn_game_end(data)
    assert end is not None and data[end:].startswith(b'[Event "b"]')
    assert _core.pgn_game_end(b"\n\n% nothing\n") is None
    path = tmp_path / "two.pgn"
    path.write_bytes(data)
    second = data.index(b'[Event "b"]')
    assert _core.pgn_next_game_start(str(path), 0) == 0
    assert _core.pgn_next_game_start(str(path), 1) == second
    assert _core.pgn_next_game_start(str(path), second + 1) is None


class _Calls:
    """Records the calls the reader makes (any method it is told to call)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *args: self.calls.append((name, *args))


def test_the_reader_calls_only_the_methods_named() -> None:
    from pychess_rs import _core

    data = b'[Event "a"]\n\n1. e4 { x\n\ny } $3 ( 1. d4 ) *\n\n[Event "b"]\n\n1. d4 *\n'
    visitor = _Calls()
    names = ("visit_header", "visit_comment", "visit_nag", "begin_variation", "visit_result")
    assert _core.visit_pgn_game(data, visitor, names, pgn.SKIP)
    assert visitor.calls == [
        ("visit_header", "Event", "a"),
        ("visit_comment", "x\n\ny"),
        ("visit_nag", 3),
        ("begin_variation",),
        ("visit_result", "*"),
    ]
    assert not _core.visit_pgn_game(b"\n% none\n", visitor, names, pgn.SKIP)
    with pytest.raises(ValueError, match="not a visitor method"):
        _core.visit_pgn_game(data, visitor, ("visit_everything",), pgn.SKIP)
