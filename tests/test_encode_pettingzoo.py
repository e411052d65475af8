"""pychess_rs.encode's PettingZoo chess_v6 observation and action mask against PettingZoo's own
environment (the oracle): the same games played in both, compared for both players after
every step, including the reset position, Black to move, castling, en passant, promotions
and repetitions."""

from __future__ import annotations

import random

import pytest

import pychess_rs

np = pytest.importorskip("numpy", reason="pychess_rs.encode needs NumPy (the 'ml' extra)")
chess_v6 = pytest.importorskip(
    "pettingzoo.classic.chess_v6",
    reason="PettingZoo (pip install pettingzoo gymnasium pygame) is the oracle of these tests",
)
encode = pytest.importorskip("pychess_rs.encode")

AGENTS = {"player_0": True, "player_1": False}

# Openings that reach the rules an observation has to show, then random play continues.
SCRIPTS = [
    # En passant both ways, then castling kingside for both.
    "e2e4 a7a6 e4e5 d7d5 e5d6 c7c5 g1f3 c5c4 b2b4 c4b3 f1e2 g8f6 e1g1 e7e6 d2d4 f8e7 c1e3 e8g8",
    # A knight shuffle: the start position twice and three times (PettingZoo stops there).
    "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1",
    # Queenside castling, a double step nobody can take.
    "d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7 e1c1 e8c8 h2h4",
    # Under-promotion and promotion with capture.
    "b2b4 g7g5 b4b5 g5g4 b5b6 g4g3 b6a7 g3h2 a7b8n h2g1r h1g1 d7d6 b8c6",
]


def _step(env: object, board: pychess_rs.Board, action: int) -> None:
    move = encode.move_of(board, action)
    assert move is not None
    env.step(action)  # type: ignore[attr-defined]
    assert move.uci() == env.unwrapped.board.peek().uci()  # type: ignore[attr-defined]
    board.push(move)


def _compare(env: object, board: pychess_rs.Board) -> None:
    for agent, color in AGENTS.items():
        expected = env.observe(agent)  # type: ignore[attr-defined]
        observation = encode.pettingzoo_observation(board, observer=color)
        assert observation.dtype == expected["observation"].dtype
        assert observation.shape == expected["observation"].shape
        if not np.array_equal(observation, expected["observation"]):
            differ = np.argwhere(observation != expected["observation"])
            pytest.fail(
                f"{agent} after {board.move_stack}: differ at (row, col, channel) {differ[:8]}"
            )
        mask = encode.action_mask(board, observer=color)
        assert mask.dtype == expected["action_mask"].dtype
        assert np.array_equal(mask, expected["action_mask"]), (agent, board.fen())
    # The side to move's defaults are that player's.
    mover = env.agent_selection  # type: ignore[attr-defined]
    assert np.array_equal(encode.pettingzoo_observation(board), env.observe(mover)["observation"])  # type: ignore[attr-defined]


def _play(script: str, seed: int, max_plies: int) -> int:
    rng = random.Random(seed)
    env = chess_v6.env()
    env.reset(seed=seed)
    board = pychess_rs.Board()
    _compare(env, board)
    for uci in script.split():
        _step(env, board, encode.action_of(board, pychess_rs.Move.from_uci(uci)))
        _compare(env, board)
        if env.terminations[env.agent_selection]:
            return board.ply()
    while board.ply() < max_plies and not env.terminations[env.agent_selection]:
        legal = np.flatnonzero(encode.action_mask(board))
        # Promotions and captures now and then keep random games eventful.
        _step(env, board, int(rng.choice(legal)))
        _compare(env, board)
    return board.ply()


@pytest.mark.parametrize("script", SCRIPTS)
def test_scripted_openings_then_random_play(script: str) -> None:
    _play(script, seed=len(script), max_plies=len(script.split()) + 40)


@pytest.mark.once
@pytest.mark.parametrize("seed", range(4))
def test_random_games_to_the_end(seed: int) -> None:
    _play("", seed=seed, max_plies=400)


def test_batch_equals_singles_for_both_observers() -> None:
    boards = []
    board = pychess_rs.Board()
    for uci in SCRIPTS[0].split():
        board.push_uci(uci)
        boards.append(board.copy())
    for observer in (None, True, False):
        batch = encode.pettingzoo_observation_batch(boards, threads=2, observer=observer)
        masks = encode.action_mask_batch(boards, threads=2, observer=observer)
        for i, b in enumerate(boards):
            assert np.array_equal(batch[i], encode.pettingzoo_observation(b, observer=observer))
            assert np.array_equal(masks[i], encode.action_mask(b, observer=observer))
