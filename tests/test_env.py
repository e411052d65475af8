"""pychess_rs.env: the PettingZoo AEC environment passes PettingZoo's own API test and gives
the observations, masks, rewards and ends PettingZoo's chess_v6 gives on the same action
sequences; the Gymnasium vector environment steps the batch."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
with warnings.catch_warnings():
    # PettingZoo 1.25+ deprecates importing environments by module (its test imports one).
    warnings.simplefilter("ignore", DeprecationWarning)
    chess_v6 = pytest.importorskip("pettingzoo.classic.chess_v6")
    from pettingzoo.test import api_test

import pychess_rs  # noqa: E402
from pychess_rs import encode  # noqa: E402
from pychess_rs.env import env  # noqa: E402

FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]
SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2


# PettingZoo's test warns about the dict observation space, as it does for chess_v6.
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test() -> None:
    api_test(env(), num_cycles=300)


def snapshot(game: Any) -> list[Any]:
    """Everything an agent can see: both agents' observations and masks, rewards, ends."""
    seen: list[Any] = [game.agent_selection]
    for agent in game.possible_agents:
        obs = game.observe(agent)
        seen += [
            obs["observation"].astype(bool).tobytes(),
            obs["action_mask"].astype(np.int8).tobytes(),
            float(game.rewards[agent]),
            float(game._cumulative_rewards[agent]),
            bool(game.terminations[agent]),
            bool(game.truncations[agent]),
        ]
    return seen


def play_both(actions: Any, limit: int = 1000) -> list[str]:
    """Plays the same actions in chess_v6 and in ours, comparing everything after each step
    (``actions(mask, board)`` picks the next one); returns the moves played."""
    theirs, ours = chess_v6.env(), env()
    theirs.reset(seed=0)
    ours.reset(seed=0)
    assert snapshot(theirs) == snapshot(ours)
    board = pychess_rs.Board()
    for _ in range(limit):
        agent = theirs.agent_selection
        if theirs.terminations[agent] or theirs.truncations[agent]:
            break
        mask = theirs.observe(agent)["action_mask"]
        action = actions(mask, board)
        move = encode.move_of(board, action)
        if move is not None:
            board.push(move)
        theirs.step(action)
        ours.step(action)
        assert snapshot(theirs) == snapshot(ours), board.fen()
        assert ours.unwrapped.board.fen() == theirs.unwrapped.board.fen()
    return [m.uci() for m in board.move_stack]


def scripted(ucis: list[str], then: int | None = None) -> Any:
    moves = iter(ucis)

    def pick(mask: Any, board: pychess_rs.Board) -> int:
        uci = next(moves, None)
        if uci is None:
            assert then is not None
            return then
        return int(encode.action_of(board, pychess_rs.Move.from_uci(uci)))

    return pick


def test_same_as_chess_v6_on_scripted_ends() -> None:
    assert play_both(scripted(FOOLS_MATE)) == FOOLS_MATE
    # chess_v6 ends at the first claimable draw: when the next knight move could repeat.
    assert len(play_both(scripted(SHUFFLE))) == 7
    # An illegal action (here a1 to a2 for White, blocked by its own pawn) loses.
    played = play_both(scripted(["e2e4"], then=0))
    assert played == ["e2e4"]


@pytest.mark.once
@pytest.mark.parametrize("seed", [1, 2])
def test_same_as_chess_v6_on_random_games(seed: int) -> None:
    rng = random.Random(seed)

    def pick(mask: Any, board: pychess_rs.Board) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    played = play_both(pick)
    assert len(played) > 10


def test_vector_env_steps_self_play_games() -> None:
    vector = pytest.importorskip("gymnasium.vector")
    if not hasattr(vector, "AutoresetMode"):
        pytest.skip("ChessVectorEnv needs gymnasium 1.1 or later")
    from pychess_rs.env import ChessVectorEnv

    vec = ChessVectorEnv(3, max_plies=40, threads=2)
    observations, infos = vec.reset(seed=0)
    assert observations.shape == (3, 8, 8, 111) and infos["action_mask"].shape == (3, 4672)
    assert vec.single_action_space.n == 4672
    # Fool's mate in game 1: the mover (Black) is rewarded, the game restarts.
    masks = infos["action_mask"]
    for ply, uci in enumerate(FOOLS_MATE):
        actions = [int(np.flatnonzero(m)[0]) for m in masks]
        actions[1] = int(encode.action_of(vec.games.board(1), pychess_rs.Move.from_uci(uci)))
        observations, rewards, terminated, truncated, infos = vec.step(actions)
        masks = infos["action_mask"]
        assert rewards.tolist() == ([0, 1, 0] if ply == 3 else [0, 0, 0])
    assert terminated.tolist() == [False, True, False] and not truncated.any()
    assert vec.games.board(1).move_stack == [] and masks[1].sum() == 20
    # An illegal action costs the mover; truncation at 40 plies gives nothing.
    _, rewards, terminated, _, _ = vec.step([0, 0, 0])
    assert terminated.all() and rewards.tolist() == [-1, -1, -1]
    for _ in range(40):
        _, rewards, terminated, truncated, _ = vec.step(vec.games.random_actions())
    assert truncated.all() and not rewards.any()


@pytest.mark.parametrize(
    ("observation", "dtype"),
    [
        ("alphazero", "uint8"),
        ("alphazero", "float32"),
        ("pettingzoo", "uint8"),
        ("pettingzoo", "bool"),
        ("pettingzoo", "float32"),
    ],
)
def test_vector_env_dtype_and_ring_give_the_default_planes(observation: str, dtype: str) -> None:
    """The same games with other plane types and a ring of reused arrays: the same planes,
    masks and rewards as the default environment, step by step, in the space's dtype."""
    vector = pytest.importorskip("gymnasium.vector")
    if not hasattr(vector, "AutoresetMode"):
        pytest.skip("ChessVectorEnv needs gymnasium 1.1 or later")
    from pychess_rs.env import ChessVectorEnv

    plain = ChessVectorEnv(4, observation=observation, max_plies=30)  # type: ignore[arg-type]
    other = ChessVectorEnv(4, observation=observation, max_plies=30, dtype=dtype, ring=2)  # type: ignore[arg-type]
    assert other.single_observation_space.dtype == np.dtype(dtype)
    obs_a, info_a = plain.reset()
    obs_b, info_b = other.reset()
    rng = random.Random(7)
    seen = []
    ended = 0
    for _ in range(70):
        assert obs_b.dtype == np.dtype(dtype) and other.observation_space.contains(obs_b)
        np.testing.assert_array_equal(obs_a.astype(np.float32), obs_b.astype(np.float32))
        np.testing.assert_array_equal(info_a["action_mask"], info_b["action_mask"])
        actions = [rng.choice(np.flatnonzero(m)) for m in info_a["action_mask"]]
        obs_a, rew_a, term_a, trunc_a, info_a = plain.step(actions)
        obs_b, rew_b, term_b, trunc_b, info_b = other.step(actions)
        np.testing.assert_array_equal(rew_a, rew_b)
        assert (term_a == term_b).all() and (trunc_a == trunc_b).all()
        ended += int((term_b | trunc_b).sum())
        seen.append(obs_b)
    # A ring of two: each step refills the arrays of the step before last, never the last's.
    assert np.shares_memory(seen[-1], seen[-3]) and not np.shares_memory(seen[-1], seen[-2])
    assert ended >= 4  # the 70 plies crossed game ends (max_plies=30)


def test_vector_env_rejects_packed_planes() -> None:
    pytest.importorskip("gymnasium.vector")
    from pychess_rs.env import ChessVectorEnv

    with pytest.raises(ValueError, match="dtype must be"):
        ChessVectorEnv(2, dtype="packed")  # type: ignore[arg-type]
