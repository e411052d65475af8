"""Positions as keys: ``Board.zobrist_hash_after(move)`` (the key after a move, without
playing it) and ``Board.snapshot()`` (an immutable, hashable ``Position`` whose equality is
python-chess's repetition identity, ``Board._transposition_key()``)."""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path

import chess
import chess.polyglot
import pytest

import pychess_rs

DATA = Path(__file__).parent / "data"


def _fens(filename: str) -> list[str]:
    """The positions of an EPD file (the clocks kept where the line has them)."""
    fens = []
    for line in (DATA / filename).read_text().splitlines():
        fields = line.split(";")[0].split()
        if fields:
            has_clocks = len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit()
            fens.append(" ".join(fields[:6] if has_clocks else fields[:4]))
    return fens


STANDARD = [*_fens("perft.epd"), *_fens("openings.epd"), *_fens("wac.epd")]
CHESS960 = _fens("perft960.epd")


def assert_keys_after_every_move(board: pychess_rs.Board) -> int:
    """Every legal move, every pseudo-legal one and the null move: the key after it equals
    pushing it and asking; the board is unchanged by the question."""
    fen = board.fen()
    key = board.zobrist_hash()
    moves = [*board.pseudo_legal_moves, pychess_rs.Move.null()]
    for move in moves:
        after = board.zobrist_hash_after(move)
        assert board.fen() == fen and board.zobrist_hash() == key
        board.push(move)
        assert after == board.zobrist_hash(), (fen, move.uci())
        board.pop()
    return len(moves)


@pytest.mark.parametrize(
    "fens, chess960", [(STANDARD, False), (CHESS960[::4], True)], ids=["standard", "chess960"]
)
def test_key_after_move_equals_push_then_hash(fens: list[str], chess960: bool) -> None:
    checked = 0
    for fen in fens:
        board = pychess_rs.Board(fen, chess960=chess960)
        checked += assert_keys_after_every_move(board)
        # And one level deeper on the first few moves, where castling rights and en-passant
        # squares of the replies change.
        for move in list(board.legal_moves)[:6]:
            board.push(move)
            checked += assert_keys_after_every_move(board)
            board.pop()
    assert checked > 10_000


def test_key_after_move_matches_python_chess_polyglot() -> None:
    """Independent of our own zobrist_hash: python-chess's Polyglot key after the push."""
    rng = random.Random(14)
    for fen in rng.sample(STANDARD, 40):
        board, oracle = pychess_rs.Board(fen), chess.Board(fen)
        for move in rng.sample(list(oracle.legal_moves), min(5, oracle.legal_moves.count())):
            expected = (oracle.push(move), chess.polyglot.zobrist_hash(oracle), oracle.pop())[1]
            assert board.zobrist_hash_after(pychess_rs.Move.from_uci(move.uci())) == expected


def test_key_after_move_takes_what_push_takes() -> None:
    board = pychess_rs.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    # Castling written king-to-rook, as push accepts it.
    e1h1 = board.zobrist_hash_after(pychess_rs.Move.from_uci("e1h1"))
    assert e1h1 == board.zobrist_hash_after(pychess_rs.Move.from_uci("e1g1"))
    # Pseudo-legal into check.
    pinned = pychess_rs.Board("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")
    into_check = pychess_rs.Move.from_uci("e1e2")
    assert not pinned.is_legal(into_check)
    key = pinned.zobrist_hash_after(into_check)
    pinned.push(into_check)
    assert key == pinned.zobrist_hash()
    for text in ("e1e3", "a1a8q", "P@e4"):
        with pytest.raises(pychess_rs.IllegalMoveError):
            board.zobrist_hash_after(pychess_rs.Move.from_uci(text))
    with pytest.raises(TypeError):
        board.zobrist_hash_after("e1g1")  # type: ignore[arg-type]
    assert board.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def random_positions(seed: int, games: int) -> list[tuple[chess.Board, pychess_rs.Board]]:
    """Positions of random games, many of them repeated (moves taken back by the reverse
    move) or reached by other move orders, with their python-chess twins."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        oracle, board = chess.Board(), pychess_rs.Board()
        for _ in range(rng.randrange(0, 60)):
            moves = sorted(oracle.legal_moves, key=lambda m: m.uci())
            if not moves:
                break
            move = rng.choice(moves)
            if len(oracle.move_stack) >= 2 and rng.random() < 0.5:
                previous = oracle.move_stack[-2]
                back = chess.Move(previous.to_square, previous.from_square)
                move = back if back in moves else move
            oracle.push(move)
            board.push(pychess_rs.Move.from_uci(move.uci()))
            out.append((oracle.copy(), board.copy()))
    return out


EDGE_FENS = [
    # The same placement with and without a legal en-passant capture, and with an en-passant
    # square no capture can use.
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", False),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", False),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", False),
    ("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", False),
    ("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1", False),
    # A pinned en-passant capturer: not legal, so not counted.
    ("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", False),
    ("8/8/8/K2pP2r/8/8/8/7k w - - 0 1", False),
    # Castling rights that differ, clocks that differ, the side to move.
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", False),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", False),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 37 90", False),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", False),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", True),
]


def test_snapshot_equality_is_python_chess_repetition_identity() -> None:
    pairs = random_positions(seed=1414, games=30)
    for fen, chess960 in EDGE_FENS:
        twins = (chess.Board(fen, chess960=chess960), pychess_rs.Board(fen, chess960=chess960))
        pairs.append(twins)
    groups: dict[object, set[pychess_rs.Position]] = {}
    for oracle, board in pairs:
        groups.setdefault(oracle._transposition_key(), set()).add(board.snapshot())
    # One snapshot per python-chess key (equal and hashing alike), and no two keys sharing one.
    assert all(len(snapshots) == 1 for snapshots in groups.values())
    distinct = {next(iter(s)) for s in groups.values()}
    assert len(distinct) == len(groups)
    repeated = sum(1 for (o, _) in pairs if o.is_repetition(2))
    assert repeated > 20 and len(groups) < len(pairs)


def test_snapshot_is_immutable_and_self_contained() -> None:
    board = pychess_rs.Board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    board.halfmove_clock = 5
    snap = board.snapshot()
    board.push_san("exf6")
    assert snap.fen() == "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 5 3"
    assert snap.turn is True and repr(snap) == f"Position('{snap.fen()}')"
    assert snap.zobrist_hash() == chess.polyglot.zobrist_hash(chess.Board(snap.fen()))
    again = snap.board()
    assert isinstance(again, pychess_rs.Board) and again.move_stack == []
    assert again.fen() == snap.fen() and again.snapshot() == snap
    with pytest.raises(AttributeError):
        snap.turn = False  # type: ignore[misc]
    with pytest.raises(AttributeError):
        snap.anything = 1  # type: ignore[attr-defined]
    assert copy.copy(snap) is snap and copy.deepcopy(snap) is snap
    for restored in (pickle.loads(pickle.dumps(snap)), pychess_rs.Position(snap.fen())):
        assert restored == snap and hash(restored) == hash(snap)
    assert snap != board.snapshot() and snap != snap.fen() and snap != board
    lookup = {snap: "before"}
    board.pop()
    assert lookup[board.snapshot()] == "before"
    with pytest.raises(ValueError):
        pychess_rs.Position("not a fen")


def test_chess960_snapshot_pickles() -> None:
    board = pychess_rs.Board.from_chess960_pos(300)
    snap = board.snapshot()
    restored = pickle.loads(pickle.dumps(snap))
    assert restored == snap and restored.board().chess960


def test_key_after_move_on_fuzz_positions() -> None:
    """The differential fuzzer's generators: random placements (castling and en-passant fields
    included) and positions no game reaches (several kings, pawns on back ranks, the side not
    to move in check), where every pseudo-legal move takes the general path."""
    from pychess_rs.fuzz.sources import random_invalid_fen, random_placement_fen

    rng = random.Random(1414)
    boards = 0
    for make in (random_placement_fen, random_invalid_fen):
        for i in range(150):
            fen = make(rng, chess960=i % 5 == 0)
            try:
                board = pychess_rs.Board(fen, chess960=i % 5 == 0)
            except ValueError:
                continue
            assert_keys_after_every_move(board)
            # A snapshot survives the round trip through its FEN (pickling relies on it).
            snap = board.snapshot()
            assert pickle.loads(pickle.dumps(snap)) == snap, fen
            boards += 1
    assert boards > 200
