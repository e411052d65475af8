"""pychess_rs.encode against each format's documented derivation, written plainly in Python
from python-chess here: the move index both ways over the perft and test positions, the
compact encoding, AlphaZero and Lc0 planes (history and repetitions included), and NNUE
feature indices from nnue-pytorch's definitions; batches equal singles; bad input is refused
cleanly. PettingZoo's observation is in test_encode_pettingzoo.py."""

from __future__ import annotations

import functools
import random
import subprocess
import sys
from pathlib import Path

import chess
import pytest

import pychess_rs

np = pytest.importorskip("numpy", reason="pychess_rs.encode needs NumPy (the 'ml' extra)")
encode = pytest.importorskip("pychess_rs.encode")

DATA = Path(__file__).parent / "data"


def _epd_boards(name: str, limit: int | None = None) -> list[str]:
    lines = (DATA / name).read_text().splitlines()[:limit]
    return [" ".join(line.split(";")[0].split()[:4]) + " 0 1" for line in lines if line.strip()]


@functools.cache
def _positions() -> list[tuple[str, bool]]:
    """The perft, WAC and opening positions, each also after one move (the other side to
    move), with the Chess960 flag they need."""
    out: list[tuple[str, bool]] = []
    for name, c960, limit in [
        ("perft.epd", False, None),
        ("wac.epd", False, None),
        ("openings.epd", False, None),
        ("perft960.epd", True, None),
    ]:
        for fen in _epd_boards(name, limit=limit):
            out.append((fen, c960))
            board = chess.Board(fen, chess960=c960)
            moves = list(board.legal_moves)
            if moves:
                board.push(moves[len(moves) // 2])
                out.append((board.fen(), c960))
    return out


# --- the move index, derived from its description (AlphaZero's 8x8x73, PettingZoo's order) ---

QUEEN_DIRECTIONS = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]
KNIGHT_JUMPS = [(x, y) for x in range(-2, 3) for y in range(-2, 3) if abs(x) + abs(y) == 3]
UNDER = {chess.KNIGHT: 0, chess.BISHOP: 1, chess.ROOK: 2}


def reference_action(board: chess.Board, move: chess.Move) -> int:
    uci = chess.Move.from_uci(board.uci(move))
    frm, to = uci.from_square, uci.to_square
    if board.turn == chess.BLACK:
        frm, to = chess.square_mirror(frm), chess.square_mirror(to)
    dx = chess.square_file(to) - chess.square_file(frm)
    dy = chess.square_rank(to) - chess.square_rank(frm)
    if (dx, dy) in KNIGHT_JUMPS:
        plane = 56 + KNIGHT_JUMPS.index((dx, dy))
    elif uci.promotion in UNDER:
        plane = 64 + 3 * (dx + 1) + UNDER[uci.promotion]
    else:
        sign = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
        plane = (max(abs(dx), abs(dy)) - 1) * 8 + QUEEN_DIRECTIONS.index(sign)
    return (chess.square_file(frm) * 8 + chess.square_rank(frm)) * 73 + plane


@pytest.mark.once
def test_move_index_round_trips_every_legal_move_of_the_test_positions() -> None:
    boards: list[pychess_rs.Board] = []
    moves: list[pychess_rs.Move] = []
    expected: list[int] = []
    for fen, c960 in _positions():
        oracle = chess.Board(fen, chess960=c960)
        board = pychess_rs.Board(fen, chess960=c960)
        legal = list(board.legal_moves)
        assert len(legal) == oracle.legal_moves.count()
        for move in legal:
            boards.append(board)
            moves.append(move)
            expected.append(reference_action(oracle, chess.Move.from_uci(move.uci())))
    actions = encode.actions_of(boards, moves)
    assert actions.tolist() == expected
    assert encode.moves_of(boards, actions) == moves
    # One position's actions are distinct, and the mask marks exactly them.
    start = 0
    for fen, c960 in _positions():
        board = pychess_rs.Board(fen, chess960=c960)
        count = board.legal_moves.count()
        mine = actions[start : start + count]
        start += count
        assert len(set(mine.tolist())) == count
        mask = encode.action_mask(board)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(mine.tolist())


def _fuzz_positions(count: int) -> list[tuple[str, bool]]:
    """Random valid positions from the differential fuzzer's generator (castling rights of
    every kind, en passant, promotions, checks), standard and Chess960."""
    from pychess_rs.fuzz.sources import random_placement_fen

    rng = random.Random(14)
    out: list[tuple[str, bool]] = []
    while len(out) < count:
        c960 = rng.random() < 0.3
        fen = random_placement_fen(rng, c960)
        try:
            oracle = chess.Board(fen, chess960=c960)
        except ValueError:
            continue
        if oracle.is_valid():
            out.append((fen, c960))
    return out


@pytest.mark.once
def test_move_index_round_trips_on_fuzz_positions() -> None:
    for fen, c960 in _fuzz_positions(400):
        oracle = chess.Board(fen, chess960=c960)
        board = pychess_rs.Board(fen, chess960=c960)
        moves = list(board.legal_moves)
        actions = encode.actions_of([board] * len(moves), moves)
        expected = [reference_action(oracle, chess.Move.from_uci(m.uci())) for m in moves]
        assert actions.tolist() == expected, fen
        assert encode.moves_of([board] * len(moves), actions) == moves, fen
        mask = encode.action_mask(board)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(expected), fen
        halfkp = encode.halfkp(board)
        halfka = encode.halfka_v2_hm(board)
        for row, pov in enumerate((chess.WHITE, chess.BLACK)):
            assert set(halfkp[row][halfkp[row] >= 0].tolist()) == reference_halfkp(oracle, pov)
            assert set(halfka[row][halfka[row] >= 0].tolist()) == reference_halfka_v2_hm(
                oracle, pov
            )
        assert encode.compact(board).tolist() == reference_compact(oracle), fen


def test_every_other_action_is_no_move() -> None:
    rng = random.Random(7)
    fens = _epd_boards("perft.epd") + _epd_boards("perft960.epd", limit=40)
    for fen in rng.sample(fens, 12):
        board = pychess_rs.Board(fen, chess960=fen in fens[-40:])
        mask = encode.action_mask(board)
        found = encode.moves_of([board] * encode.ACTIONS, range(encode.ACTIONS))
        assert [m is not None for m in found] == (mask == 1).tolist()
        for action in (-1, encode.ACTIONS, 10**12):
            assert encode.move_of(board, action) is None


def test_action_of_single_and_errors() -> None:
    board = pychess_rs.Board()
    assert encode.action_of(board, pychess_rs.Move.from_uci("e2e4")) == (4 * 8 + 1) * 73 + 12
    assert encode.move_of(board, (4 * 8 + 1) * 73 + 12) == pychess_rs.Move.from_uci("e2e4")
    with pytest.raises(ValueError, match="not a legal move"):
        encode.action_of(board, pychess_rs.Move.from_uci("e2e5"))
    with pytest.raises(ValueError, match="not a legal move"):
        encode.action_of(board, pychess_rs.Move.null())
    with pytest.raises(TypeError):
        encode.action_of(board, "e2e4")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2 boards but 1 moves"):
        encode.actions_of([board, board], [pychess_rs.Move.from_uci("e2e4")])
    with pytest.raises(TypeError, match=r"pychess_rs\.Board"):
        encode.compact_batch([board, "not a board"])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        encode.compact(42)  # type: ignore[arg-type]


# --- planes from python-chess, written as the formats describe them ---


def _random_game(seed: int, plies: int) -> pychess_rs.Board:
    """A random game with knight shuffles mixed in, so that positions repeat."""
    rng = random.Random(seed)
    board = pychess_rs.Board()
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    while board.ply() < plies and not board.is_game_over():
        wanted = shuffle[board.ply() % 4]
        if rng.random() < 0.4 and board.is_legal(pychess_rs.Move.from_uci(wanted)):
            board.push_uci(wanted)
        else:
            board.push(rng.choice(list(board.legal_moves)))
    return board


def _scripted(ucis: str, fen: str | None = None) -> pychess_rs.Board:
    board = pychess_rs.Board() if fen is None else pychess_rs.Board(fen)
    for uci in ucis.split():
        board.push_uci(uci)
    return board


GAMES = [_random_game(seed, 6 + 7 * seed) for seed in range(10)] + [
    # A position three times within the last 8 plies, another twice.
    _scripted("e2e4 e7e5 g1f3 b8c6 f3g1 c6b8 g1f3 b8c6 f3g1 c6b8 g1f3"),
    # Black to move from a FEN root: history filled with the root for Lc0.
    _scripted("e8d8 e1d1 d8e8", "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 3 40"),
    pychess_rs.Board("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 3 40"),
    pychess_rs.Board("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1"),
]


def _view(bb: int, black: bool) -> int:
    return chess.flip_vertical(bb) if black else bb


def _history(board: chess.Board, depth: int) -> list[chess.Board | None]:
    """The position now and the depth - 1 before it (None before the root), newest first,
    each with its move stack."""
    out: list[chess.Board | None] = []
    past = board.copy()
    while len(out) < depth:
        out.append(past.copy())
        if not past.move_stack:
            break
        past.pop()
    return out + [None] * (depth - len(out))


def reference_alphazero(board: chess.Board) -> np.ndarray:
    planes = np.zeros((8, 8, 119), np.float32)
    us = board.turn

    def put(channel: int, bb: int, value: float = 1.0) -> None:
        for sq in chess.SquareSet(_view(bb, us == chess.BLACK)):
            planes[7 - chess.square_rank(sq), chess.square_file(sq), channel] = value

    for t, past in enumerate(_history(board, 8)):
        if past is None:
            continue
        for side, color in enumerate([us, not us]):
            for piece in range(1, 7):
                put(14 * t + 6 * side + piece - 1, int(past.pieces(piece, color)))
        planes[:, :, 14 * t + 12] = past.is_repetition(2)
        planes[:, :, 14 * t + 13] = past.is_repetition(3)
    planes[:, :, 112] = us == chess.BLACK
    planes[:, :, 113] = board.fullmove_number
    planes[:, :, 114] = board.has_kingside_castling_rights(us)
    planes[:, :, 115] = board.has_queenside_castling_rights(us)
    planes[:, :, 116] = board.has_kingside_castling_rights(not us)
    planes[:, :, 117] = board.has_queenside_castling_rights(not us)
    planes[:, :, 118] = board.halfmove_clock
    return planes


def reference_lc0(board: chess.Board) -> np.ndarray:
    planes = np.zeros((112, 8, 8), np.float32).reshape(112, 64)
    us = board.turn
    root = board.root()
    fill = root.board_fen() != chess.STARTING_BOARD_FEN or root.turn != chess.WHITE
    fill = fill or root.castling_rights != chess.BB_CORNERS or root.ep_square is not None
    history = _history(board, 8)
    for slot, past in enumerate(history):
        reps = past.is_repetition(2) if past is not None else False
        if past is None:
            if not fill:
                break
            past = root.copy()
            if root.ep_square is not None:
                # The pawn that just moved two squares goes back where it came from.
                ep = root.ep_square
                now, start = (ep + 8, ep - 8) if chess.square_rank(ep) == 2 else (ep - 8, ep + 8)
                pawn = past.remove_piece_at(now)
                assert pawn is not None
                past.set_piece_at(start, pawn)
        for side, color in enumerate([us, not us]):
            for piece in range(1, 7):
                bb = _view(int(past.pieces(piece, color)), us == chess.BLACK)
                for sq in chess.SquareSet(bb):
                    planes[13 * slot + 6 * side + piece - 1, sq] = 1.0
        planes[13 * slot + 12] = reps
    planes[104] = board.has_queenside_castling_rights(us)
    planes[105] = board.has_kingside_castling_rights(us)
    planes[106] = board.has_queenside_castling_rights(not us)
    planes[107] = board.has_kingside_castling_rights(not us)
    planes[108] = us == chess.BLACK
    planes[109] = board.halfmove_clock
    planes[111] = 1.0
    return planes.reshape(112, 8, 8)


def reference_compact(board: chess.Board) -> list[int]:
    out = [int(board.pieces(p, c)) for c in (chess.WHITE, chess.BLACK) for p in range(1, 7)]
    ep = board.ep_square if board.has_legal_en_passant() else None
    out += [int(board.turn == chess.BLACK), board.clean_castling_rights()]
    out += [64 if ep is None else ep, board.halfmove_clock, board.fullmove_number]
    return out


@pytest.mark.parametrize(
    "index",
    # The longer random games are campaigns: run once, not on every installed Python.
    [pytest.param(i, marks=[pytest.mark.once] if 4 <= i < 10 else []) for i in range(len(GAMES))],
)
def test_planes_and_compact_follow_their_derivation(index: int) -> None:
    game = GAMES[index]
    # Every position of the game, each with its own history.
    board = game.root()
    boards = [board.copy()]
    for move in game.move_stack:
        board.push(move)
        boards.append(board.copy())
    for b in boards:
        oracle = b.to_python_chess()
        assert encode.compact(b).tolist() == reference_compact(oracle)
        np.testing.assert_array_equal(encode.alphazero(b), reference_alphazero(oracle))
        np.testing.assert_array_equal(encode.lc0(b), reference_lc0(oracle))


def test_repetition_planes_are_exercised() -> None:
    planes = encode.alphazero_batch(GAMES)
    assert planes[:, :, :, 12].any() and planes[:, :, :, 13].any()
    assert planes[:, :, :, 26::14].any() and planes[:, :, :, 27::14].any()


# --- NNUE, from nnue-pytorch's halfkp.py and halfka_v2_hm.py ---

KING_BUCKETS = [
    *[-1, -1, -1, -1, 31, 30, 29, 28],
    *[-1, -1, -1, -1, 27, 26, 25, 24],
    *[-1, -1, -1, -1, 23, 22, 21, 20],
    *[-1, -1, -1, -1, 19, 18, 17, 16],
    *[-1, -1, -1, -1, 15, 14, 13, 12],
    *[-1, -1, -1, -1, 11, 10, 9, 8],
    *[-1, -1, -1, -1, 7, 6, 5, 4],
    *[-1, -1, -1, -1, 3, 2, 1, 0],
]


def reference_halfkp(board: chess.Board, white_pov: bool) -> set[int]:
    def orient(sq: int) -> int:
        return (63 * (not white_pov)) ^ sq

    king = board.king(white_pov)
    assert king is not None
    out = set()
    for sq, p in board.piece_map().items():
        if p.piece_type == chess.KING:
            continue
        p_idx = (p.piece_type - 1) * 2 + (p.color != white_pov)
        out.add(1 + orient(sq) + p_idx * 64 + orient(king) * 641)
    return out


def reference_halfka_v2_hm(board: chess.Board, white_pov: bool) -> set[int]:
    king = board.king(white_pov)
    assert king is not None

    def orient(sq: int) -> int:
        return (7 * (chess.square_file(king) < 4)) ^ (56 * (not white_pov)) ^ sq

    out = set()
    for sq, p in board.piece_map().items():
        p_idx = (p.piece_type - 1) * 2 + (p.color != white_pov)
        p_idx = min(p_idx, 10)
        out.add(orient(sq) + p_idx * 64 + KING_BUCKETS[orient(king)] * 704)
    return out


@pytest.mark.once
def test_nnue_features_follow_nnue_pytorch() -> None:
    # Every third test position (the fuzz test covers more).
    boards = [pychess_rs.Board(fen, chess960=c960) for fen, c960 in _positions()[::3]]
    boards = [b for b in boards if b.king(True) is not None and b.king(False) is not None]
    halfkp = encode.halfkp_batch(boards, threads=2)
    halfka = encode.halfka_v2_hm_batch(boards)
    for i, b in enumerate(boards):
        oracle = b.to_python_chess()
        for row, pov in enumerate((chess.WHITE, chess.BLACK)):
            kp = [int(v) for v in halfkp[i, row] if v >= 0]
            ka = [int(v) for v in halfka[i, row] if v >= 0]
            assert set(kp) == reference_halfkp(oracle, pov) and len(kp) == len(set(kp))
            assert set(ka) == reference_halfka_v2_hm(oracle, pov) and len(ka) == len(set(ka))
            assert max(kp) < encode.HALFKP_INPUTS and max(ka) < encode.HALFKA_V2_HM_INPUTS
            # Padding only at the end.
            assert (halfka[i, row, len(ka) :] == -1).all()


def test_nnue_refuses_positions_without_features() -> None:
    kingless = pychess_rs.Board("8/8/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(ValueError, match="king"):
        encode.halfkp(kingless)
    crowded = pychess_rs.Board(
        "qqqqkqqq/qqqqqqqq/qqqqqqqq/8/8/QQQQQQQQ/QQQQQQQQ/QQQQKQQQ w - - 0 1"
    )
    with pytest.raises(ValueError, match="more pieces"):
        encode.halfka_v2_hm_batch([pychess_rs.Board(), crowded])


# --- batches, arrays ---


def test_batches_equal_singles_on_one_and_two_threads() -> None:
    boards = GAMES + [pychess_rs.Board(fen) for fen in _epd_boards("perft.epd", limit=40)]
    formats = [
        (encode.compact, encode.compact_batch),
        (encode.alphazero, encode.alphazero_batch),
        (encode.lc0, encode.lc0_batch),
        (encode.pettingzoo_observation, encode.pettingzoo_observation_batch),
        (encode.action_mask, encode.action_mask_batch),
        (encode.halfkp, encode.halfkp_batch),
        (encode.halfka_v2_hm, encode.halfka_v2_hm_batch),
    ]
    for single, batch in formats:
        singles = np.stack([single(b) for b in boards])  # type: ignore[operator]
        for threads in (1, 2, 5):
            together = batch(iter(boards), threads=threads)  # type: ignore[operator]
            assert together.dtype == singles.dtype
            np.testing.assert_array_equal(together, singles)
        assert batch([]).shape == (0, *singles.shape[1:])  # type: ignore[operator]


def test_arrays_are_fresh_writable_and_typed() -> None:
    board = pychess_rs.Board()
    cases = [
        (encode.compact(board), np.uint64, (17,)),
        (encode.alphazero(board), np.float32, (8, 8, 119)),
        (encode.lc0(board), np.float32, (112, 8, 8)),
        (encode.pettingzoo_observation(board), np.bool_, (8, 8, 111)),
        (encode.action_mask(board), np.int8, (4672,)),
        (encode.halfkp(board), np.int32, (2, 32)),
        (encode.halfka_v2_hm(board), np.int32, (2, 32)),
    ]
    for array, dtype, shape in cases:
        assert array.dtype == dtype and array.shape == shape
        assert array.flags.writeable
        array[...] = 0
    assert encode.compact(board)[0] == 0xFF00


def test_core_package_never_needs_numpy_and_encode_says_how_to_get_it() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import pychess_rs\n"
        "try:\n"
        "    import pychess_rs.encode\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "pip install 'pychess-rs[ml]'" in out


def test_batches_refill_their_out_array_in_place() -> None:
    boards = GAMES[:6]
    for batch in (encode.alphazero_batch, encode.pettingzoo_observation_batch, encode.halfkp_batch):
        first = batch(boards)
        expected = first.copy()
        first[...] = 7
        again = batch(boards, threads=2, out=first)  # type: ignore[operator]
        assert again is first
        np.testing.assert_array_equal(again, expected)
        with pytest.raises(ValueError, match="out must be"):
            batch(boards[:5], out=first)  # type: ignore[operator]
        with pytest.raises(ValueError, match="out must be"):
            batch(boards, out=np.zeros_like(first))  # type: ignore[operator]
    masks = encode.action_mask_batch(boards, observer=True)
    assert encode.action_mask_batch(boards, observer=False, out=masks) is masks
    np.testing.assert_array_equal(masks, encode.action_mask_batch(boards, observer=False))


def test_batches_large_enough_to_split_over_threads_equal_singles() -> None:
    # A batch is split only when each thread gets about 1 MB of output: make each batch
    # just big enough for two or three parts.
    formats = [
        (encode.compact, encode.compact_batch),
        (encode.alphazero, encode.alphazero_batch),
        (encode.lc0, encode.lc0_batch),
        (encode.pettingzoo_observation, encode.pettingzoo_observation_batch),
        (encode.action_mask, encode.action_mask_batch),
        (encode.halfkp, encode.halfkp_batch),
        (encode.halfka_v2_hm, encode.halfka_v2_hm_batch),
    ]
    for single, batch in formats:
        singles = np.stack([single(b) for b in GAMES])  # type: ignore[operator]
        count = 3 * max(16, 2**20 // singles[0].nbytes) + 1
        boards = [GAMES[i % len(GAMES)] for i in range(count)]
        expected = singles[np.arange(count) % len(GAMES)]
        for threads in (2, 3):
            np.testing.assert_array_equal(batch(boards, threads=threads), expected)  # type: ignore[operator]
