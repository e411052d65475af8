"""Bit-packed planes (``encode.alphazero_packed``, ``encode.pettingzoo_packed`` and
``BatchBoards(dtype="packed")``): unpacked with NumPy as docs/encodings.md describes, they
equal the dense planes bit for bit, on the test EPD positions, the differential fuzzer's
random positions, and games with history and repetitions."""

from __future__ import annotations

import random

import chess
import pytest

import pychess_rs

np = pytest.importorskip("numpy", reason="pychess_rs.encode needs NumPy (the 'ml' extra)")
encode = pytest.importorskip("pychess_rs.encode")

from test_encode import _fuzz_positions, _positions  # noqa: E402

from pychess_rs.batch import BatchBoards  # noqa: E402


def unpack(words: np.ndarray, counters: tuple[int, ...] = ()) -> np.ndarray:
    """``(..., C)`` uint64 words -> ``(..., 8, 8, C)`` float32 planes: bit ``row * 8 +
    column`` of word ``c`` is cell ``(row, column)`` of plane ``c``; a counter word's number
    fills its whole plane. Little-endian bytes, so byte ``k`` holds bits ``8k .. 8k + 7``."""
    little = words.astype("<u8")
    bits = np.unpackbits(little.view(np.uint8), bitorder="little")
    planes = bits.reshape(*words.shape, 8, 8).astype(np.float32)  # [..., c, row, column]
    for c in counters:
        planes[..., c, :, :] = words[..., c, None, None].astype(np.float32)
    return np.moveaxis(planes, -3, -1)


def _with_history(fen: str, c960: bool, rng: random.Random, plies: int) -> pychess_rs.Board:
    board = pychess_rs.Board(fen, chess960=c960)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    return board


def _boards() -> list[pychess_rs.Board]:
    rng = random.Random(5)
    positions = _positions() + _fuzz_positions(300)
    boards = [pychess_rs.Board(fen, chess960=c960) for fen, c960 in positions]
    # And with history: a few random plies from every third position.
    boards += [_with_history(fen, c960, rng, rng.randrange(1, 12)) for fen, c960 in positions[::3]]
    return boards


# Both forms of the test read every position: once, not on every installed wheel.
@pytest.mark.once
def test_alphazero_packed_unpacks_to_the_dense_planes() -> None:
    boards = _boards()
    packed = encode.alphazero_packed_batch(boards, threads=2)
    assert packed.shape == (len(boards), 119) and packed.dtype == np.uint64
    dense = encode.alphazero_batch(boards)
    unpacked = unpack(packed, encode.ALPHAZERO_COUNTER_WORDS)
    assert unpacked.tobytes() == dense.tobytes()
    assert (encode.alphazero_packed(boards[-1]) == packed[-1]).all()


@pytest.mark.once
def test_pettingzoo_packed_unpacks_to_the_dense_observation() -> None:
    boards = _boards()
    for observer in (None, chess.WHITE, chess.BLACK):
        packed = encode.pettingzoo_packed_batch(boards, observer=observer)
        dense = encode.pettingzoo_observation_batch(boards, observer=observer)
        assert unpack(packed).astype(np.bool_).tobytes() == dense.tobytes()
        assert (encode.pettingzoo_packed(boards[0], observer) == packed[0]).all()


def test_repetitions_and_counters_survive_packing() -> None:
    board = pychess_rs.Board("7k/8/8/8/8/8/R7/7K w - - 140 300")
    for uci in ["a2a3", "h8g8", "a3a2", "g8h8", "a2a3", "h8g8", "a3a2", "g8h8"]:
        board.push_uci(uci)
    words = encode.alphazero_packed(board)
    assert words[113] == 304 and words[118] == 148
    assert words[12] == words[13] == 2**64 - 1  # the position occurs a third time
    assert (unpack(words, encode.ALPHAZERO_COUNTER_WORDS) == encode.alphazero(board)).all()


def test_batch_packed_observations_equal_dense_ones_for_any_thread_count() -> None:
    for kind in ("alphazero", "pettingzoo"):
        counters = encode.ALPHAZERO_COUNTER_WORDS if kind == "alphazero" else ()
        dense = BatchBoards(6, observation=kind, dtype="float32", max_plies=60, seed=4)  # type: ignore[arg-type]
        packed = BatchBoards(
            6,
            observation=kind,
            dtype="packed",
            max_plies=60,
            seed=4,
            threads=2,  # type: ignore[arg-type]
        )
        d_obs, _ = dense.reset()
        p_obs, _ = packed.reset()
        assert p_obs is not None and d_obs is not None
        for _ in range(90):
            assert unpack(p_obs, counters).tobytes() == d_obs.tobytes()
            d_obs = dense.step_random().observations
            p_obs = packed.step_random().observations
            assert p_obs is not None and d_obs is not None
            assert (dense.actions == packed.actions).all()


def test_the_documented_torch_and_jax_recipes_unpack_the_same() -> None:
    """docs/encodings.md's PyTorch and JAX unpacking, written with NumPy's same operations
    (int64 words with arithmetic shifts; two uint32 halves), give the dense planes."""
    rng = random.Random(9)
    boards = [_with_history(fen, c960, rng, 6) for fen, c960 in _positions()[:60]]
    words = encode.alphazero_packed_batch(boards)
    dense = encode.alphazero_batch(boards).tobytes()
    signed = words.view(np.int64)
    planes = ((signed[..., None] >> np.arange(64)) & 1).astype(np.float32).reshape(-1, 119, 8, 8)
    planes[:, 113] = signed[:, 113, None, None]
    planes[:, 118] = signed[:, 118, None, None]
    assert np.moveaxis(planes, 1, -1).tobytes() == dense
    halves = words.view(np.uint32)
    bits = (halves[..., None] >> np.arange(32, dtype=np.uint32)) & 1
    planes = bits.reshape(-1, 119, 8, 8).astype(np.float32)
    planes[:, 113] = halves[:, 226, None, None]
    planes[:, 118] = halves[:, 236, None, None]
    assert np.moveaxis(planes, 1, -1).tobytes() == dense
