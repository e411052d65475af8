"""A Gymnasium vector environment over :class:`pychess_rs.batch.BatchBoards`: ``num_envs``
self-play games stepped in one Rust call.

One policy plays both sides of every game. Each step takes one action per game, for the
side to move, and returns:

* observations of the side now to move (``"pettingzoo"``: ``chess_v6``'s ``(8, 8, 111)``
  bool; ``"alphazero"``: ``(8, 8, 119)`` float32; ``dtype`` picks ``"uint8"``, ``"bool"`` or
  ``"float32"`` planes instead), shape ``(num_envs, ...)``;
* rewards **for the player who just moved**: +1 if its move won, -1 if it lost by an illegal
  action (``illegal="lose"``, the default here), 0 otherwise (a move cannot lose by the
  rules, and draws give 0);
* ``terminated``, ``truncated`` (``max_plies``), and ``infos["action_mask"]``,
  ``(num_envs, 4672)`` int8, the legal actions of the side now to move.

Games reset in the step that ends them (Gymnasium's ``AutoresetMode.SAME_STEP``): that
step's reward and flags are the ended game's, its observation and mask the new game's.

By default every step returns new arrays. With ``ring=k`` the steps write into ``k`` sets of
arrays the environment keeps, in turn (:class:`~pychess_rs.batch.BatchBoards`'s ``ring``): no
allocation per step, and a step's arrays stay valid for the next ``k - 1`` steps, so a
learner that keeps them longer (a replay buffer) copies them.
"""

from __future__ import annotations

from typing import Any, Literal

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as _error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "pychess_rs.env.ChessVectorEnv needs numpy and gymnasium 1.1 or later (autoreset "
        "modes): pip install 'pychess-rs[env]'"
    ) from _error

from .._core import Board
from ..batch import ACTIONS, BatchBoards
from ..encode import ALPHAZERO_COUNTER_WORDS as ALPHAZERO_COUNTER_PLANES

__all__ = ["ChessVectorEnv"]

_SPACES: dict[str, tuple[tuple[int, ...], Any]] = {
    "pettingzoo": ((8, 8, 111), np.bool_),
    "alphazero": ((8, 8, 119), np.float32),
}
#: The plane types a Box space can describe (BatchBoards's "packed" words are not planes).
_DTYPES: dict[str, Any] = {"float32": np.float32, "uint8": np.uint8, "bool": np.bool_}


def _highs(observation: str, shape: tuple[int, ...], plane_type: Any) -> Any:
    """The planes' upper bounds: 1, but AlphaZero's counter planes (the fullmove number and
    the halfmove clock) count on, up to what the type holds."""
    highs = np.ones(shape, dtype=plane_type)
    if observation == "alphazero" and plane_type is not np.bool_:
        top = np.iinfo(plane_type).max if plane_type is np.uint8 else np.finfo(plane_type).max
        highs[..., list(ALPHAZERO_COUNTER_PLANES)] = top
    return highs


class ChessVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` self-play chess games (see the module documentation).

    :param num_envs: the number of games.
    :param observation: ``"pettingzoo"`` or ``"alphazero"``.
    :param threads: threads to step on.
    :param claim_draw: end games at claimable draws (``chess_v6`` does; the default).
    :param max_plies: truncate games after this many plies.
    :param illegal: ``"lose"`` (the default: -1 for the mover, the game ends) or ``"error"``.
    :param fen: the start position of every game.
    :param dtype: the observations' type, ``"float32"``, ``"uint8"`` or ``"bool"`` (default:
        the observation's own, see the module documentation).
    :param ring: with ``k > 0``, steps refill ``k`` sets of arrays in turn instead of
        allocating new ones.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        num_envs: int,
        *,
        observation: Literal["pettingzoo", "alphazero"] = "pettingzoo",
        threads: int = 1,
        claim_draw: bool = True,
        max_plies: int | None = None,
        illegal: Literal["error", "lose"] = "lose",
        fen: str | None = None,
        dtype: Literal["float32", "uint8", "bool"] | None = None,
        ring: int = 0,
    ) -> None:
        if observation not in _SPACES:
            raise ValueError(
                f"observation must be 'pettingzoo' or 'alphazero', not {observation!r}"
            )
        if dtype is not None and dtype not in _DTYPES:
            raise ValueError(f"dtype must be 'float32', 'uint8' or 'bool', not {dtype!r}")
        self._games = BatchBoards(
            num_envs,
            observation=observation,
            threads=threads,
            claim_draw=claim_draw,
            max_plies=max_plies,
            illegal=illegal,
            fen=fen,
            dtype=dtype,
            ring=ring,
        )
        self.num_envs = num_envs
        shape, plane_type = _SPACES[observation]
        if dtype is not None:
            plane_type = _DTYPES[dtype]
        self.single_observation_space = spaces.Box(
            low=0, high=_highs(observation, shape, plane_type), shape=shape, dtype=plane_type
        )
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._first_mover = Board(fen).turn if fen is not None else True
        # 0 where White is to move, 1 where Black is: the column of the mover's reward.
        self._movers = np.zeros(num_envs, dtype=np.intp)

    @property
    def games(self) -> BatchBoards:
        """The batch underneath (boards, final boards, end codes)."""
        return self._games

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        del seed, options  # every game starts from the same position
        observations, masks = self._games.reset()
        self._movers[:] = 0 if self._first_mover else 1
        return observations, {"action_mask": masks}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Any, npt.NDArray[np.float32], Any, Any, dict[str, Any]]:
        observations, masks, rewards, terminated, truncated = self._games.step(actions)
        reward = rewards[np.arange(self.num_envs), self._movers]
        ended = terminated | truncated
        self._movers = np.where(ended, 0 if self._first_mover else 1, 1 - self._movers)
        return observations, reward, terminated, truncated, {"action_mask": masks}
