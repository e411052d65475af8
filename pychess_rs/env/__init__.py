"""Reinforcement-learning environments on pychess-rs (optional extra ``[env]``: numpy,
gymnasium, pettingzoo).

* :func:`env` / :class:`raw_env`: a PettingZoo AEC environment shaped like PettingZoo's
  ``chess_v6`` (same agents, spaces, observations, masks and rewards, the same wrappers), that
  passes ``pettingzoo.test.api_test``; its observations and masks are computed in Rust.
* :class:`ChessVectorEnv`: a Gymnasium vector environment over
  :class:`pychess_rs.batch.BatchBoards`, one self-play game per sub-environment (Gymnasium
  1.1 or later; imported on first use, so that the AEC environment works with older ones).

::

    >>> from pychess_rs.env import env
    >>> game = env()
    >>> game.reset(seed=0)
    >>> observation, reward, termination, truncation, info = game.last()
    >>> observation["observation"].shape, int(observation["action_mask"].sum())
    ((8, 8, 111), 20)
"""

from __future__ import annotations

from typing import Any

from .chess import env, raw_env

__all__ = ["ChessVectorEnv", "env", "raw_env"]


def __dir__() -> list[str]:
    # The lazy name too, so that dir() and the documentation's autodoc list every export.
    return sorted({*globals(), *__all__})


def __getattr__(name: str) -> Any:
    if name == "ChessVectorEnv":
        from .vector import ChessVectorEnv

        return ChessVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
