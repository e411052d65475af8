"""A PettingZoo AEC chess environment shaped like PettingZoo's ``chess_v6``.

Same as ``chess_v6``: agents ``player_0`` (White) and ``player_1`` (Black); actions
``Discrete(4672)`` (the AlphaZero 8x8x73 move index of :mod:`pychess_rs.encode`, in the
mover's view); observations ``{"observation": Box(0, 1, (8, 8, 111), bool), "action_mask":
Box(0, 1, (4672,), int8)}``, each agent seeing the board from its own side, the mask all
zero for the agent not to move; rewards +1/-1 at a win, 0 at a draw. A game ends at
checkmate, stalemate, insufficient material and at every *claimable* draw (threefold
repetition, fifty moves), as ``chess_v6`` ends it. :func:`env` adds ``chess_v6``'s wrappers:
an illegal action ends the game with -1 for its player and 0 for the other.

The differences: the rules, observations and masks run in Rust (one call per step and per
``observe``), and rendering is ``"ansi"`` only (no pygame).
"""

from __future__ import annotations

from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo.utils import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        wrappers,
    )
    from pettingzoo.utils.agent_selector import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        AgentSelector,
    )
except ImportError as _error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "pychess_rs.env needs numpy, gymnasium and pettingzoo: pip install 'pychess-rs[env]'"
    ) from _error

from .._core import Board
from ..batch import ACTIONS, BatchBoards

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> Any:
    """The environment with ``chess_v6``'s wrappers: an illegal action loses (-1), actions
    out of range fail an assertion, and calls out of order raise."""
    wrapped: Any = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc, unused-ignore]
    """The unwrapped environment (assumes legal actions, as ``chess_v6``'s ``raw_env``)."""

    metadata = {  # noqa: RUF012 (PettingZoo reads it as a plain class attribute)
        "render_modes": ["ansi"],
        "name": "pychess_rs_chess_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.agents = ["player_0", "player_1"]
        self.possible_agents = self.agents[:]
        self.action_spaces = {name: spaces.Discrete(ACTIONS) for name in self.agents}
        self.observation_spaces = {
            name: spaces.Dict(
                {
                    "observation": spaces.Box(low=0, high=1, shape=(8, 8, 111), dtype=bool),
                    "action_mask": spaces.Box(low=0, high=1, shape=(ACTIONS,), dtype=np.int8),
                }
            )
            for name in self.agents
        }
        self._games = BatchBoards(1, claim_draw=True, auto_reset=False)
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection: str = self.agents[0]
        self.rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {name: {} for name in self.agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def board(self) -> Board:
        """The game as a :class:`pychess_rs.Board` (a copy, with its move stack)."""
        return self._games.board(0)

    def observe(self, agent: str) -> dict[str, Any]:
        observation, mask = self._games.pettingzoo_view(0, self.possible_agents.index(agent))
        if agent != self.agent_selection:
            mask = np.zeros(ACTIONS, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        del seed, options  # chess from the standard position has no randomness
        self.agents = self.possible_agents[:]
        self._games.reset()
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {name: {} for name in self.agents}

    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        _, _, rewards, terminated, _ = self._games.step(np.array([int(action)], dtype=np.int64))
        if terminated[0]:
            for index, name in enumerate(self.agents):
                self.terminations[name] = True
                self.rewards[name] = float(rewards[0, index])
                self.infos[name] = {"legal_moves": []}
        self._accumulate_rewards()
        self.agent_selection = self._agent_selector.next()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.board)
        return None

    def close(self) -> None:
        pass
