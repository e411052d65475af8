"""pychess_rs.training_data: every writer round-trips through its reader.

NNUE records (bullet's and marlinflow's layouts) on the EPD files of tests/data and the
differential fuzzer's random positions, and from PGN games and self-play; Lc0 V6 chunks and
AlphaZero tensors from PGN games, checked position by position against pychess_rs's own
PGN reader and encoders; record sizes; errors on bad input; the CLI end to end.
"""

from __future__ import annotations

import gzip
import struct
import sys
from pathlib import Path
from random import Random

import pytest

import pychess_rs
from pychess_rs import Board
from pychess_rs import pgn as rs_pgn
from pychess_rs import training_data as td
from pychess_rs.cli import main

DATA = Path(__file__).parent / "data"
PGNS = [
    "kasparov-deep-blue-1997.pgn",
    "engine-gauntlet.pgn",
    "nepomniachtchi-liren-game1.pgn",
    "cutechess-fischerrandom.pgn",
]
EVAL_PGN = """[Event "evals"]
[Result "0-1"]

1. e4 { [%eval 0.31] } e5 { [%eval 0.2,20] } 2. Nf3 { [%eval #4] } Nc6 { book } 3. Bb5
{ [%clk 0:01:00] [%eval -1.5] } a6 0-1

[Event "unfinished"]
[Result "*"]

1. d4 d5 *
"""


def _epd_positions() -> list[tuple[str, bool]]:
    chess = pytest.importorskip("chess")
    del chess
    from pychess_rs.fuzz.sources import load_epd_positions

    return [(fen, c960) for fen, c960, _ in load_epd_positions(DATA)]


def _fuzz_positions(count: int) -> list[tuple[str, bool]]:
    pytest.importorskip("chess")
    from pychess_rs.fuzz.sources import random_placement_fen

    rng = Random(24)
    out = []
    while len(out) < count:
        c960 = rng.random() < 0.2
        fen = random_placement_fen(rng, c960)
        try:
            Board(fen, chess960=c960)
        except ValueError:
            continue
        out.append((fen, c960))
    return out


def _boards(positions: list[tuple[str, bool]]) -> list[Board]:
    boards = []
    for fen, c960 in positions:
        try:
            boards.append(Board(fen, chess960=c960))
        except ValueError:
            continue
    return boards


def _bullet_view(board: Board) -> str:
    """What a bullet record keeps: the side to move's view as White, placement only."""
    view = board if board.turn else board.mirror()
    return f"{view.board_fen()} w - - 0 1"


def _flip(result: str) -> str:
    return {"1-0": "0-1", "0-1": "1-0"}.get(result, result)


def _fits(board: Board) -> bool:
    return len(board.piece_map()) <= 32


def _one_king_each(board: Board) -> bool:
    return all(len(board.pieces(pychess_rs.KING, color)) == 1 for color in (True, False))


# --- NNUE records --------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["epd", "fuzz"])
def test_marlin_records_round_trip_whole_positions(source: str) -> None:
    positions = _epd_positions() if source == "epd" else _fuzz_positions(1500)
    boards = [b for b in _boards(positions) if _fits(b)]
    assert len(boards) > 1000
    results = ["1-0", "0-1", "1/2-1/2"]
    data = b"".join(
        td.encode_nnue(b, i * 37 % 4001 - 2000, results[i % 3], "marlin")
        for i, b in enumerate(boards)
    )
    assert len(data) == td.NNUE_RECORD_SIZE * len(boards)
    records = td.decode_nnue(data, "marlin")
    for i, (board, record) in enumerate(zip(boards, records)):
        expected = board.copy(stack=False)
        expected.halfmove_clock = min(expected.halfmove_clock, 255)
        expected.fullmove_number = min(expected.fullmove_number, 65535)
        assert record.board() == expected, (board.fen(), record.fen)
        assert (record.score, record.result) == (i * 37 % 4001 - 2000, results[i % 3])


@pytest.mark.parametrize("source", ["epd", "fuzz"])
def test_bullet_records_round_trip_the_side_to_move_view(source: str) -> None:
    positions = _epd_positions() if source == "epd" else _fuzz_positions(1500)
    boards = [b for b in _boards(positions) if _fits(b) and _one_king_each(b)]
    assert len(boards) > 1000
    data = b"".join(td.encode_nnue(b, 100 + i, "1-0", "bullet") for i, b in enumerate(boards))
    for i, (board, record) in enumerate(zip(boards, td.decode_nnue(data, "bullet"))):
        assert record.fen == _bullet_view(board)
        white = board.turn
        assert record.score == (100 + i if white else -(100 + i))
        assert record.result == ("1-0" if white else "0-1")


def test_bullet_layout_field_by_field() -> None:
    board = Board("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1")
    record = td.encode_nnue(board, 250, "1/2-1/2", "bullet")
    occ, pcs, score, result, ksq, opp_ksq = struct.unpack("<Q16shBBB3x", record)
    # Black to move: mirrored with colours swapped; Black's king e8 -> e1 is "ours" (code 5),
    # White's pawn e2 -> e7 and king e1 -> e8 are "theirs" (8 | piece).
    assert occ == 1 << 4 | 1 << 52 | 1 << 60
    assert pcs[:2] == bytes([5 | 8 << 4, 8 | 5])
    assert (score, result, ksq, opp_ksq) == (-250, 1, 4, 60 ^ 56)


def test_marlin_layout_field_by_field() -> None:
    board = Board("r3k3/8/8/3pP3/8/8/8/4K2R w Kq d6 3 41")
    record = td.encode_nnue(board, -75, "0-1", "marlin")
    occ, pcs, stm_ep, halfmove, fullmove, score, wdl, extra = struct.unpack("<Q16sBBHhBB", record)
    squares = [sq for sq in range(64) if occ >> sq & 1]
    assert squares == [4, 7, 35, 36, 56, 60]
    nibbles = [pcs[i // 2] >> (4 * (i % 2)) & 15 for i in range(len(squares))]
    # King, unmoved rook (6: a castling right), Black's d5 pawn, White's e5 pawn, Black's unmoved
    # rook and king.
    assert nibbles == [5, 6, 8 | 0, 0, 8 | 6, 8 | 5]
    assert (stm_ep, halfmove, fullmove, score, wdl, extra) == (43, 3, 41, -75, 0, 0)


def test_positions_a_format_cannot_hold() -> None:
    crowded = Board("qqqqkqqq/qqqqqqqq/q7/8/8/8/QQQQQQQQ/QQQQKQQQ w - - 0 1")
    for fmt in td.NNUE_FORMATS:
        with pytest.raises(td.TrainingDataError, match="more than 32 pieces"):
            td.encode_nnue(crowded, 0, "1-0", fmt)
    no_king = Board.empty()
    no_king.set_fen("8/8/8/8/8/8/8/K7 w - - 0 1")
    with pytest.raises(td.TrainingDataError, match="one king"):
        td.encode_nnue(no_king, 0, "1-0", "bullet")
    assert len(td.encode_nnue(no_king, 0, "1-0", "marlin")) == 32


def test_bad_records_and_arguments_are_refused() -> None:
    good = td.encode_nnue(Board(), 0, "1-0", "marlin")
    with pytest.raises(td.TrainingDataError, match="33 bytes"):
        td.decode_nnue(good + b"\0", "marlin")
    with pytest.raises(td.TrainingDataError, match="record 1: result 7"):
        td.decode_nnue(good + good[:30] + b"\x07\0", "marlin")
    with pytest.raises(td.TrainingDataError, match="record 0: en-passant square 70"):
        td.decode_nnue(good[:24] + b"\x46" + good[25:], "marlin")
    bullet = td.encode_nnue(Board(), 0, "1-0", "bullet")
    with pytest.raises(td.TrainingDataError, match="piece code 7"):
        td.decode_nnue(bullet[:8] + b"\x07" + bullet[9:], "bullet")
    with pytest.raises(td.TrainingDataError, match="king squares"):
        td.decode_nnue(bullet[:27] + b"\x05" + bullet[28:], "bullet")
    with pytest.raises(td.TrainingDataError, match="unknown NNUE format 'plain'"):
        td.decode_nnue(good, "plain")
    with pytest.raises(td.TrainingDataError, match="result '1-1'"):
        td.encode_nnue(Board(), 0, "1-1")
    with pytest.raises(td.TrainingDataError, match="16 bits"):
        td.encode_nnue(Board(), 40000, "1-0")
    assert issubclass(td.TrainingDataError, ValueError)


# --- NNUE from PGN and self-play -----------------------------------------------------------


def _pgn_positions(path: Path) -> list[tuple[Board, str, pychess_rs.Move, int]]:
    """(position, result, move played, ply in the game) before every mainline move of the
    games with a result and no errors, as pychess_rs's own PGN reader sees them."""
    out = []
    with open(path, encoding="utf-8-sig") as handle:
        while (game := rs_pgn.read_game(handle)) is not None:
            result = game.headers.get("Result", "*")
            if game.errors or result not in ("1-0", "0-1", "1/2-1/2"):
                continue
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                out.append((board.copy(stack=False), result, move, ply))
                board.push(move)
    return out


@pytest.mark.parametrize("name", PGNS)
def test_nnue_from_pgn_round_trips(tmp_path: Path, name: str) -> None:
    expected = _pgn_positions(DATA / "pgn" / name)
    for fmt in td.NNUE_FORMATS:
        out = tmp_path / f"{fmt}.bin"
        stats = td.write_nnue(out, pgn=DATA / "pgn" / name, format=fmt, threads=2)
        assert stats.written == stats.positions == len(expected)
        assert out.stat().st_size == stats.bytes == 32 * len(expected)
        for (board, result, _, _), record in zip(expected, td.read_nnue(out, fmt)):
            assert record.score == 0
            if fmt == "marlin":
                assert record.board() == board
                assert record.result == result
            else:
                assert record.fen == _bullet_view(board)
                assert record.result == (result if board.turn else _flip(result))


def test_nnue_scores_from_eval_comments(tmp_path: Path) -> None:
    pgn = tmp_path / "evals.pgn"
    pgn.write_text(EVAL_PGN)
    stats = td.write_nnue(tmp_path / "x.bin", pgn=pgn, format="marlin")
    assert (stats.games, stats.games_skipped, stats.written) == (2, 1, 6)
    assert stats.scores_from_comments == 4
    records = td.read_nnue(tmp_path / "x.bin", "marlin")
    # The start has no eval; each later position takes the eval after the move before it.
    assert [r.score for r in records] == [0, 31, 20, 32000, 0, -150]
    assert {r.result for r in records} == {"0-1"}
    stats = td.write_nnue(tmp_path / "y.bin", pgn=pgn, format="marlin", max_score=1000)
    assert (stats.written, stats.skipped_score) == (5, 1)


def test_nnue_engine_scores_and_filters(tmp_path: Path) -> None:
    pgn = tmp_path / "evals.pgn"
    pgn.write_text(EVAL_PGN)
    stats = td.write_nnue(tmp_path / "x.bin", pgn=pgn, format="marlin", engine_nodes=300)
    assert (stats.scores_from_comments, stats.scores_from_engine) == (4, 2)
    records = td.read_nnue(tmp_path / "x.bin", "marlin")
    assert records[0].score != 0 or records[4].score != 0
    name = DATA / "pgn" / "kasparov-deep-blue-1997.pgn"
    expected = _pgn_positions(name)
    stats = td.write_nnue(
        tmp_path / "f.bin",
        pgn=name,
        format="marlin",
        skip_plies=10,
        skip_check=True,
        skip_noisy=True,
    )
    kept = [
        board
        for board, _, move, ply in expected
        if ply >= 10
        and not board.is_check()
        and not board.is_capture(move)
        and move.promotion is None
    ]
    records = td.read_nnue(tmp_path / "f.bin", "marlin")
    assert [r.fen for r in records] == [b.fen() for b in kept]
    assert stats.skipped_opening and stats.skipped_check and stats.skipped_noisy
    assert (
        stats.positions
        == len(expected)
        == stats.written + stats.skipped_opening + (stats.skipped_check + stats.skipped_noisy)
    )


def test_positions_no_game_reaches(tmp_path: Path) -> None:
    """A FEN tag without a black king: written where the format can hold it, never searched."""
    pgn = tmp_path / "odd.pgn"
    pgn.write_text(
        '[Result "1-0"]\n[SetUp "1"]\n[FEN "8/8/8/8/8/8/8/K7 w - - 0 1"]\n\n1. Ka2 1-0\n\n'
        '[Result "0-1"]\n\n1. e4 e5 0-1\n'
    )
    bullet = td.write_nnue(tmp_path / "b.bin", pgn=pgn, engine_nodes=100)
    assert (bullet.written, bullet.skipped_unencodable, bullet.scores_from_engine) == (2, 1, 2)
    marlin = td.write_nnue(tmp_path / "m.bin", pgn=pgn, format="marlin", engine_nodes=100)
    assert marlin.written == 3 and marlin.scores_from_engine == 2
    assert td.read_nnue(tmp_path / "m.bin", "marlin")[0].score == 0
    assert td.write_lc0(pgn, tmp_path / "c", games_per_chunk=2).written == 3
    assert td.read_lc0(tmp_path / "c" / "training.0.gz")[0].move == "a1a2"


def test_selfplay_is_seeded_and_independent_of_threads(tmp_path: Path) -> None:
    runs = {}
    calls: list[float | None] = []
    for threads, seed in [(1, 5), (2, 5), (2, 6)]:
        out = tmp_path / f"{threads}-{seed}.bin"
        stats = td.write_nnue(
            out,
            games=3,
            nodes=200,
            seed=seed,
            max_plies=40,
            threads=threads,
            format="marlin",
            progress=lambda stats, fraction: calls.append(fraction),
        )
        assert stats.games == 3 and stats.written == stats.positions > 0
        runs[threads, seed] = out.read_bytes()
    assert runs[1, 5] == runs[2, 5] != runs[2, 6]
    assert calls and all(f is not None and 0 < f <= 1 for f in calls)
    records = td.decode_nnue(runs[1, 5], "marlin")
    assert records[0].board().ply() == 8  # after the 8 random plies
    assert all(abs(r.score) <= 32000 for r in records)


def test_selfplay_in_pieces_equals_one_run(tmp_path: Path) -> None:
    whole, pieces = tmp_path / "whole.bin", tmp_path / "pieces.bin"
    common = dict(nodes=150, seed=3, max_plies=30, format="marlin")
    td.write_nnue(whole, games=4, **common)  # type: ignore[arg-type]
    td.write_nnue(pieces, games=1, **common)  # type: ignore[arg-type]
    stats = td.write_nnue(pieces, games=3, first_game=1, append=True, **common)  # type: ignore[arg-type]
    assert stats.games == 3
    assert pieces.read_bytes() == whole.read_bytes()
    pieces.write_bytes(whole.read_bytes()[:-1])
    with pytest.raises(td.TrainingDataError, match="not a whole number of 32-byte records"):
        td.write_nnue(pieces, games=1, append=True, **common)  # type: ignore[arg-type]


def _selfplay_then(path: Path, fmt: str, boards: list[tuple[Board, int]], **play: int) -> None:
    """Self-play records at 250 nodes, then one record (White won) per given board."""
    td.write_nnue(path, nodes=250, format=fmt, **play)  # type: ignore[arg-type]
    with path.open("ab") as f:
        f.write(b"".join(td.encode_nnue(board, score, "1-0", fmt) for board, score in boards))


@pytest.mark.parametrize("fmt", ["bullet", "marlin"])
def test_filter_keeps_the_records_that_pass(tmp_path: Path, fmt: str) -> None:
    chess = pytest.importorskip("chess")
    src, out = tmp_path / "all.bin", tmp_path / "kept.bin"
    # Two records whose verdict is known: a queen hanging to a pawn, and a quiet pawn ending.
    hanging = Board("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1")
    quiet = Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    _selfplay_then(src, fmt, [(hanging, 900), (quiet, 40)], games=6, seed=11, max_plies=80)
    seen: list[float | None] = []
    stats = td.filter_nnue(
        src,
        out,
        format=fmt,
        skip_check=True,
        skip_noisy=True,
        max_score=600,
        progress=lambda s, fraction: seen.append(fraction),
    )
    everything = td.read_nnue(src, fmt)
    kept = td.read_nnue(out, fmt)
    assert stats.positions == len(everything)
    assert stats.written == len(kept) > 0
    skipped = stats.skipped_check + stats.skipped_noisy + stats.skipped_score
    assert stats.written + skipped == stats.positions
    assert stats.skipped_noisy > 0 and stats.skipped_check > 0
    # Kept records are the input's, byte for byte and in order.
    raw_in, raw_out = src.read_bytes(), out.read_bytes()
    records_in = [raw_in[i : i + 32] for i in range(0, len(raw_in), 32)]
    records_out = [raw_out[i : i + 32] for i in range(0, len(raw_out), 32)]
    position = iter(records_in)
    assert all(any(r == q for q in position) for r in records_out)
    # The oracle: no kept position is in check; every one in check was left out.
    in_check = sum(chess.Board(r.fen).is_check() for r in everything)
    assert in_check == stats.skipped_check
    assert not any(chess.Board(r.fen).is_check() for r in kept)
    assert all(abs(r.score) <= 600 for r in kept)
    fens = [r.fen for r in kept]
    assert quiet.fen() in fens and hanging.fen() not in fens
    assert "kept" in stats.summary()
    # Errors: the output may not be the input; a file cut mid-record.
    with pytest.raises(OSError, match="is also the input"):
        td.filter_nnue(out, out)
    src.write_bytes(raw_in[:-5])
    with pytest.raises(td.TrainingDataError, match="not a whole number of 32-byte records"):
        td.filter_nnue(src, out, format=fmt)


@pytest.mark.parametrize("fmt", ["bullet", "marlin"])
def test_filter_children_are_one_legal_move_on(
    tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    chess = pytest.importorskip("chess")
    src, out = tmp_path / "games.bin", tmp_path / "children.bin"
    td.write_nnue(src, games=3, nodes=200, seed=5, max_plies=40, format=fmt)
    stats = td.filter_nnue(src, out, format=fmt, children=3, seed=9, skip_check=True)
    parents, children = td.read_nnue(src, fmt), td.read_nnue(out, fmt)
    assert stats.positions == len(parents) and stats.written == len(children)
    assert 2 * len(parents) < len(children) <= 3 * len(parents)
    assert stats.summary().startswith(f"{len(children)} children of {len(parents)} positions")
    # The oracle: each child is a parent's position after one of its legal moves (the
    # children of a record in a row, record after record), score 0, the parent's result,
    # never in check; no parent gives the same child twice.
    raw = out.read_bytes()
    records = [raw[i : i + 32] for i in range(0, len(raw), 32)]
    parent = iter(parents)
    expected: dict[bytes, str] = {}
    seen: set[bytes] = set()
    for record, child in zip(records, children):
        while record not in expected:
            p = next(parent)
            board = chess.Board(p.fen)
            expected.clear()
            seen.clear()
            for move in board.legal_moves:
                board.push(move)
                if not board.is_check():
                    expected[td.encode_nnue(Board(board.fen()), 0, p.result, fmt)] = p.result
                board.pop()
        assert record not in seen
        seen.add(record)
        assert child.score == 0 and child.result == expected[record]
        assert not chess.Board(child.fen).is_check()
    # Seeded: the CLI gives the same bytes; another seed other children.
    again = tmp_path / "again.bin"
    args = ["training-data", "filter", src, again, "--children", "3", "--seed", "9"]
    assert main([*map(str, args), "--skip-check", "--format", fmt, "--no-progress"]) == 0
    assert "children of" in capsys.readouterr().out
    assert again.read_bytes() == raw
    td.filter_nnue(src, again, format=fmt, children=3, seed=10, skip_check=True)
    assert again.read_bytes() != raw
    with pytest.raises(td.TrainingDataError, match="may not be negative"):
        td.filter_nnue(src, again, children=-1)


def test_writer_errors(tmp_path: Path) -> None:
    with pytest.raises(td.TrainingDataError, match="exactly one source"):
        td.write_nnue(tmp_path / "x.bin")
    with pytest.raises(FileNotFoundError, match="missing\\.pgn"):
        td.write_nnue(tmp_path / "x.bin", pgn=tmp_path / "missing.pgn")
    with pytest.raises(td.TrainingDataError, match="nodes"):
        td.write_nnue(tmp_path / "x.bin", games=1, nodes=None, depth=None)
    with pytest.raises(td.TrainingDataError, match="games_per_chunk"):
        td.write_lc0(DATA / "pgn" / PGNS[0], tmp_path / "c", games_per_chunk=0)
    with pytest.raises(OSError):
        td.write_nnue(tmp_path / "no" / "such" / "dir" / "x.bin", games=1)


# --- Lc0 chunks ----------------------------------------------------------------------------


def test_lc0_chunks_round_trip(tmp_path: Path) -> None:
    name = DATA / "pgn" / "kasparov-deep-blue-1997.pgn"
    expected = _pgn_positions(name)
    stats = td.write_lc0(name, tmp_path / "chunks", games_per_chunk=4, threads=2)
    chunks = sorted((tmp_path / "chunks").glob("training.*.gz"), key=lambda p: int(p.stem[9:]))
    assert len(chunks) == 2 and stats.written == len(expected)
    raw = b"".join(gzip.decompress(c.read_bytes()) for c in chunks)
    assert len(raw) == td.LC0_RECORD_SIZE * len(expected)
    version, input_format = struct.unpack_from("<II", raw)
    assert (version, input_format) == (6, 1)
    np = pytest.importorskip("numpy")
    # Planes as Lc0 stores them: NumPy's unpackbits gives the squares in order (the first
    # record is the start position: our pawns on a2-h2, their king on e8).
    planes = np.unpackbits(np.frombuffer(raw, np.uint8, 104 * 8, 7440)).reshape(104, 64)
    assert np.flatnonzero(planes[0]).tolist() == list(range(8, 16))
    assert np.flatnonzero(planes[11]).tolist() == [60]
    records = [r for c in chunks for r in td.read_lc0(c)]
    for (board, result, move, _), record in zip(expected, records):
        fields = record.fen.split()
        want = board.fen().split()
        assert fields[:5] == want[:5]
        assert record.move == move.uci()
        assert record.result == result
        policy = record.policy()
        assert policy.shape == (td.LC0_POLICY_SIZE,)
        assert int(policy.argmax()) == td.lc0_policy_index(board, move)
        assert (policy >= 0).sum() == board.legal_moves.count()
        assert policy.max() == 1.0 and policy.sum() == 1.0 - (policy < 0).sum()
    # plies_left counts down to each game's end: the first game has it at its length.
    first_game = next(i for i, (*_, ply) in enumerate(expected[1:], 1) if ply == 0)
    assert [r.plies_left for r in records[:first_game]] == list(range(first_game, 0, -1))


def test_lc0_policy_index_follows_lc0() -> None:
    board = Board()
    first = [td.lc0_policy_index(board, m) for m in board.legal_moves]
    assert len(set(first)) == 20 and max(first) < td.LC0_POLICY_SIZE
    promo = Board("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    index = {m.uci(): td.lc0_policy_index(promo, m) for m in promo.legal_moves}
    assert index["a7a8q"] == 1792 and index["a7a8r"] == 1793 and index["a7a8b"] == 1794
    assert index["a7b8q"] == 1795
    # A knight promotion takes the plain move's index (a7a8 is listed with the queen moves).
    assert index["a7a8n"] < 1792
    castle = Board("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
    short = td.lc0_policy_index(castle, pychess_rs.Move.from_uci("e8g8"))
    long = td.lc0_policy_index(castle, pychess_rs.Move.from_uci("e8c8"))
    white = Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert (short, long) == (103, 97)  # Lc0's indices of e1h1 and e1a1: king takes rook
    assert short == td.lc0_policy_index(white, pychess_rs.Move.from_uci("e1g1"))
    assert long == td.lc0_policy_index(white, pychess_rs.Move.from_uci("e1c1"))
    with pytest.raises(pychess_rs.IllegalMoveError):
        td.lc0_policy_index(board, pychess_rs.Move.from_uci("e2e5"))


def test_lc0_bad_chunks(tmp_path: Path) -> None:
    name = DATA / "pgn" / "molinari-bordais-1979.pgn"
    td.write_lc0(name, tmp_path / "c", games_per_chunk=10)
    raw = gzip.decompress((tmp_path / "c" / "training.0.gz").read_bytes())
    (tmp_path / "short.gz").write_bytes(gzip.compress(raw[:-1]))
    with pytest.raises(td.TrainingDataError, match="not a whole number of 8356-byte records"):
        td.read_lc0(tmp_path / "short.gz")
    (tmp_path / "v5.gz").write_bytes(gzip.compress(b"\x05" + raw[1:]))
    with pytest.raises(td.TrainingDataError, match="record 0: version 5"):
        td.read_lc0(tmp_path / "v5.gz")
    (tmp_path / "format.gz").write_bytes(gzip.compress(raw[:4] + b"\x03" + raw[5:]))
    with pytest.raises(td.TrainingDataError, match="input format 3"):
        td.read_lc0(tmp_path / "format.gz")
    (tmp_path / "broken.gz").write_bytes(b"\x1f\x8b garbage")
    with pytest.raises(OSError):
        td.read_lc0(tmp_path / "broken.gz")


def _double_stepped(board: Board) -> bool:
    """Is the pawn that the en-passant square says just moved two squares there?"""
    assert board.ep_square is not None
    victim = board.ep_square - 8 if board.turn else board.ep_square + 8
    return board.piece_at(victim) == pychess_rs.Piece(pychess_rs.PAWN, not board.turn)


def _one_move_games(tmp_path: Path, positions: list[tuple[str, bool]]) -> Path:
    """A PGN file of one game per position: its FEN, one legal move, a result."""
    rng = Random(7)
    games = []
    for i, board in enumerate(_boards(positions)):
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        if not moves:
            continue
        move = rng.choice(moves)
        result = ("1-0", "0-1", "1/2-1/2")[i % 3]
        variant = '[Variant "Chess960"]\n' if board.chess960 else ""
        games.append(
            f'[Event "{i}"]\n[Result "{result}"]\n{variant}[SetUp "1"]\n'
            f'[FEN "{board.fen()}"]\n\n{board.san(move)} {result}\n'
        )
    path = tmp_path / "positions.pgn"
    path.write_text("\n".join(games))
    return path


@pytest.mark.parametrize("source", ["epd", "fuzz"])
def test_lc0_records_round_trip_epd_and_fuzz_positions(tmp_path: Path, source: str) -> None:
    positions = _epd_positions() if source == "epd" else _fuzz_positions(300)
    standard = [(fen, c960) for fen, c960 in positions if not c960]
    pgn = _one_move_games(tmp_path, standard)
    expected = _pgn_positions(pgn)
    assert len(expected) > 200
    stats = td.write_lc0(pgn, tmp_path / "c", games_per_chunk=100_000)
    assert stats.written == len(expected)
    records = td.read_lc0(tmp_path / "c" / "training.0.gz")
    for (board, result, move, _), record in zip(expected, records):
        want = board.fen().split()
        want[4] = str(min(board.halfmove_clock, 255))
        if board.ep_square is not None and not _double_stepped(board):
            want[3] = "-"  # python-chess allows an en-passant square with no pawn to take
        assert record.fen.split()[:5] == want[:5]
        assert record.move == move.uci() and record.result == result
        assert record.plies_left == 1.0


# --- AlphaZero tensors ---------------------------------------------------------------------


def test_alphazero_round_trips_epd_and_fuzz_positions(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    encode = pytest.importorskip("pychess_rs.encode")
    positions = _epd_positions()[::5] + _fuzz_positions(100)
    pgn = _one_move_games(tmp_path, positions)
    expected = _pgn_positions(pgn)
    td.write_alphazero(pgn, tmp_path / "az.npz")
    arrays = td.read_alphazero(tmp_path / "az.npz")
    assert len(arrays["action"]) == len(expected) > 300
    for i, (board, result, move, _) in enumerate(expected):
        np.testing.assert_array_equal(arrays["planes"][i], encode.alphazero(board))
        np.testing.assert_array_equal(arrays["legal_mask"][i], encode.action_mask(board) != 0)
        assert arrays["action"][i] == encode.action_of(board, move)
        white = {"1-0": 1, "0-1": -1}.get(result, 0)
        assert arrays["outcome"][i] == (white if board.turn else -white)


@pytest.mark.parametrize("suffix", ["", ".npz"])
def test_alphazero_tensors_round_trip(tmp_path: Path, suffix: str) -> None:
    np = pytest.importorskip("numpy")
    encode = pytest.importorskip("pychess_rs.encode")
    name = DATA / "pgn" / "nepomniachtchi-liren-game1.pgn"
    out = tmp_path / f"az{suffix}"
    stats = td.write_alphazero(name, out, compress=bool(suffix), threads=2)
    arrays = td.read_alphazero(out)
    assert set(arrays) == {"planes", "legal_mask", "action", "outcome"}
    assert arrays["planes"].shape == (stats.written, 8, 8, 119)
    assert arrays["legal_mask"].dtype == np.bool_ and arrays["action"].dtype == np.int16
    if not suffix:
        assert isinstance(arrays["planes"], np.memmap)
    with open(name, encoding="utf-8") as handle:
        game = rs_pgn.read_game(handle)
    assert game is not None
    result = game.headers["Result"]
    board = game.board()
    for i, move in enumerate(game.mainline_moves()):
        np.testing.assert_array_equal(arrays["planes"][i], encode.alphazero(board))
        np.testing.assert_array_equal(arrays["legal_mask"][i], encode.action_mask(board) != 0)
        assert arrays["action"][i] == encode.action_of(board, move)
        white = {"1-0": 1, "0-1": -1}.get(result, 0)
        assert arrays["outcome"][i] == (white if board.turn else -white)
        board.push(move)
    assert i + 1 == stats.written


def test_alphazero_reader_errors(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    td.write_alphazero(DATA / "pgn" / "molinari-bordais-1979.pgn", tmp_path / "az")
    (tmp_path / "az" / "outcome.npy").unlink()
    with pytest.raises(td.TrainingDataError, match=r"outcome\.npy is missing"):
        td.read_alphazero(tmp_path / "az")


# --- the CLI -------------------------------------------------------------------------------


def test_cli_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pgn = str(DATA / "pgn" / "kasparov-deep-blue-1997.pgn")
    out = str(tmp_path / "x.bin")
    assert main(["training-data", "nnue", out, "--pgn", pgn, "--skip-check", "--threads", "2"]) == 0
    summary = capsys.readouterr().out
    assert summary.startswith(f"wrote {out}: ") and "positions/s" in summary
    assert "check" in summary
    assert main(["training-data", "read", out, "--limit", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0].endswith("| 0 | 1-0")
    chunks = str(tmp_path / "chunks")
    assert main(["training-data", "lc0", pgn, chunks, "--no-progress"]) == 0
    assert "wrote" in capsys.readouterr().out
    assert main(["training-data", "read", f"{chunks}/training.0.gz", "--limit", "1"]) == 0
    assert capsys.readouterr().out.split(" | ")[1] == "g1f3"
    sp = str(tmp_path / "sp.bin")
    args = ["training-data", "nnue", sp, "--selfplay", "2", "--nodes", "100", "--max-plies", "20"]
    assert main([*args, "--format", "marlin", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["training-data", "read", sp, "--format", "bullet"]) == 1
    assert "bullet record 0" in capsys.readouterr().err
    assert main(["training-data", "nnue", out, "--pgn", str(tmp_path / "none.pgn")]) == 1
    assert "none.pgn" in capsys.readouterr().err
    quiet = str(tmp_path / "quiet.bin")
    filtering = ["training-data", "filter", sp, quiet, "--format", "marlin", "--no-progress"]
    assert main([*filtering, "--skip-noisy", "--max-score", "100"]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {quiet}: ")
    assert main(["training-data", "filter", sp, sp]) == 1
    assert "is also the input" in capsys.readouterr().err
    pytest.importorskip("numpy")
    az = str(tmp_path / "az.npz")
    assert main(["training-data", "alphazero", pgn, az, "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["training-data", "read", az, "--limit", "1"]) == 0
    assert "planes: float32 (" in capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["bullet", "marlin"])
def test_rescore_replaces_scores_with_a_uci_engines(tmp_path: Path, fmt: str) -> None:
    chess = pytest.importorskip("chess")
    import chess.engine as chess_engine

    src, out = tmp_path / "all.bin", tmp_path / "rescored.bin"
    mate_in_one = Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    _selfplay_then(src, fmt, [(mate_in_one, 0)], games=3, seed=5, max_plies=60)
    command = [sys.executable, "-m", "pychess_rs", "uci"]
    seen: list[float | None] = []
    stats = td.rescore_nnue(
        src,
        out,
        command,
        depth=2,
        threads=2,
        options={"Hash": 1},
        format=fmt,
        progress=lambda s, fraction: seen.append(fraction),
    )
    before, after = td.read_nnue(src, fmt), td.read_nnue(out, fmt)
    assert stats.positions == stats.written == len(after) == len(before) > 40
    assert seen and seen[-1] == 1.0
    assert [(r.fen, r.result) for r in after] == [(r.fen, r.result) for r in before]
    assert after[-1].score == 32000
    assert [r.score for r in after] != [r.score for r in before]
    # The oracle: python-chess's engine client asks the same engine the same questions in
    # the same order (one process: its hash table carries over from position to position).
    td.rescore_nnue(src, out, command, depth=2, options={"Hash": 1}, format=fmt)
    after = td.read_nnue(out, fmt)
    with chess_engine.SimpleEngine.popen_uci(command) as engine:
        engine.configure({"Hash": 1})
        for record in after[:-1]:
            info = engine.analyse(chess.Board(record.fen), chess_engine.Limit(depth=2))
            white = info["score"].white()
            # The records keep a mate at any distance as +-32000 (the writers' MATE_SCORE).
            mated = 32000 if white > chess_engine.Cp(0) else -32000
            assert record.score == (mated if white.is_mate() else white.score())
    with pytest.raises(td.TrainingDataError, match="needs a limit"):
        td.rescore_nnue(src, out, command)
    with pytest.raises(OSError, match="is also the input"):
        td.rescore_nnue(src, src, command, depth=1)
    with pytest.raises(FileNotFoundError):
        td.rescore_nnue(src, out, str(tmp_path / "no-such-engine"), depth=1, format=fmt)
    with pytest.raises(td.TrainingDataError, match="no option 'Bogus'"):
        td.rescore_nnue(src, out, command, depth=1, options={"Bogus": True}, format=fmt)


def test_rescore_resumes_an_interrupted_run(tmp_path: Path) -> None:
    src, out, whole = tmp_path / "all.bin", tmp_path / "rescored.bin", tmp_path / "whole.bin"
    td.write_nnue(src, games=2, nodes=200, seed=4, max_plies=40)
    command = [sys.executable, "-m", "pychess_rs", "uci"]
    td.rescore_nnue(src, whole, command, depth=1)
    records = len(td.read_nnue(src))
    # Cut off in the middle of a record, as a killed run leaves its output.
    out.write_bytes(whole.read_bytes()[: 10 * 32 + 7])
    seen: list[float | None] = []
    stats = td.rescore_nnue(
        src, out, command, depth=1, resume=True, progress=lambda s, f: seen.append(f)
    )
    assert stats.written == records - 10
    assert seen[-1] == 1.0
    # The kept records are untouched; the rest are the input's positions, scored (the
    # scores may differ from the whole run's: a fresh engine's hash table is empty).
    resumed = out.read_bytes()
    assert resumed[: 10 * 32] == whole.read_bytes()[: 10 * 32]
    scored = td.read_nnue(out)
    assert [(r.fen, r.result) for r in scored] == [(r.fen, r.result) for r in td.read_nnue(src)]
    # Nothing left: a resumed run of a finished output scores nothing.
    assert td.rescore_nnue(src, out, command, depth=1, resume=True).written == 0
    assert out.read_bytes() == resumed


def test_rescore_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, out = tmp_path / "all.bin", tmp_path / "rescored.bin"
    td.write_nnue(src, games=1, nodes=200, seed=3, max_plies=30)
    engine = f"{sys.executable} -m pychess_rs uci"
    argv = ["training-data", "rescore", str(src), str(out), "--engine", engine]
    assert main([*argv, "--depth", "1", "--option", "Hash=1", "--no-progress"]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert len(td.read_nnue(out)) == len(td.read_nnue(src))
    assert main([*argv, "--no-progress"]) == 1
    assert "needs --depth or --nodes" in capsys.readouterr().err
    assert main([*argv, "--depth", "1", "--option", "Bogus=1", "--no-progress"]) == 1
    assert "no option 'Bogus'" in capsys.readouterr().err
