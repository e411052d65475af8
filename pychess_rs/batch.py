"""Many games stepped together by arrays of actions, and random self-play rollouts.

Actions are the 4,672 AlphaZero/PettingZoo ``chess_v6`` move indices of
:mod:`pychess_rs.encode` (in the mover's view). The stepping runs in Rust with the GIL
released, optionally on several threads; the arrays are built in Rust and handed over as
NumPy arrays without a copy. Needs NumPy (``pip install pychess-rs[env]``)::

    >>> from pychess_rs.batch import BatchBoards
    >>> games = BatchBoards(4, observation="pettingzoo", seed=1)
    >>> observations, masks = games.reset()
    >>> observations.shape, masks.shape
    ((4, 8, 8, 111), (4, 4672))
    >>> obs, masks, rewards, terminated, truncated = games.step(games.random_actions())
    >>> rewards.shape, terminated.dtype
    ((4, 2), dtype('bool'))

Conventions:

* **Rewards are per colour**: ``rewards[i] == [white, black]``. +1 to the winner, -1 to the
  loser, 0 for draws, truncations and moves that end nothing (``chess_v6``'s rewards; White
  is its ``player_0``). With ``illegal="lose"`` an illegal action gives the mover -1 and the
  other side 0 (PettingZoo's ``TerminateIllegalWrapper``); with ``illegal="error"`` (the
  default) it raises :class:`pychess_rs.IllegalMoveError` and no game moves.
* **Ends**: checkmate, stalemate, insufficient material, the 75-move rule and fivefold
  repetition always; threefold repetition and the 50-move rule only with
  ``claim_draw=True`` (the side to move claims whenever it can, python-chess's
  ``outcome(claim_draw=True)``; ``chess_v6`` plays so). ``max_plies`` truncates a game
  (``truncated``, not ``terminated``). :attr:`BatchBoards.ends` holds the last step's end
  codes and :meth:`BatchBoards.terminations` the matching :class:`Termination` members.
* **Auto-reset** (default on): a game that terminates or truncates is restarted in the same
  step. That step's rewards and flags describe the game that ended; its observation and
  mask are already the new game's first ones, so every returned mask is one to choose the
  next action from. The ended game is :meth:`BatchBoards.final_board` until the next step.
  Without auto-reset an ended game keeps its final position: later steps ignore its action
  (pass any value, e.g. -1), report reward 0 and its flags again with an all-zero mask,
  until :meth:`BatchBoards.reset` or :meth:`BatchBoards.reset_game`.
* **Observations** are those of the side to move: ``"pettingzoo"`` is ``chess_v6``'s
  ``(8, 8, 111)`` bool observation, ``"alphazero"`` the ``(8, 8, 119)`` float32 planes
  (:mod:`pychess_rs.encode` documents both); ``None`` skips them. ``dtype`` picks another
  type: ``"uint8"``, ``"bool"`` (PettingZoo only), ``"float32"``, or ``"packed"``: one
  ``uint64`` bitboard per plane, ``(n, 111)`` or ``(n, 119)`` (docs/encodings.md, "Batched
  observations", shows how to unpack them on the GPU). Masks are int8, 1 where an action is
  legal (``chess_v6``'s ``action_mask``); ``mask="bool"``, ``"bits"`` (``(n, 73)`` uint64,
  action ``a`` is bit ``a % 64`` of word ``a // 64``) or ``"indices"`` (``(n, 256)`` int16,
  the legal actions ascending, then -1) pick another form.
* **Speed**: threads are started once per batch and parked between steps;
  :meth:`BatchBoards.step_random` draws the random actions in Rust; ``out=`` (arrays from an
  earlier step or :meth:`BatchBoards.outputs`) or ``ring=k`` refills arrays instead of
  allocating new ones every step (a batch of 4,096 AlphaZero float32 planes is 125 MB).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, NamedTuple

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as _error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "pychess_rs.batch needs NumPy: pip install 'pychess-rs[env]' (or numpy)"
    ) from _error

from ._core import Board, _BatchBoards
from ._core import board_from_actions as _board_from_actions
from ._core import rollouts as _rollouts
from .outcome import Termination

__all__ = [
    "ACTIONS",
    "ILLEGAL_ACTION",
    "MASK_WORDS",
    "MAX_LEGAL",
    "BatchBoards",
    "Rollouts",
    "Step",
    "rollouts",
]

ACTIONS = 4672
"""The number of actions (8 x 8 x 73)."""

ILLEGAL_ACTION = -1
"""The end code of a game lost by an illegal action (``illegal="lose"``)."""

MASK_WORDS = 73
"""Words of a mask in bits form (4,672 = 73 * 64)."""

MAX_LEGAL = 256
"""Width of a mask in indices form (no reachable position has more than 218 legal moves)."""

_SHAPES = {"pettingzoo": (8, 8, 111), "alphazero": (8, 8, 119)}
_WORDS = {"pettingzoo": 111, "alphazero": 119}
_DTYPES: dict[str, Any] = {"pettingzoo": np.bool_, "alphazero": np.float32}
_PLANE_DTYPES: dict[str, Any] = {
    "float32": np.float32,
    "uint8": np.uint8,
    "bool": np.bool_,
    "packed": np.uint64,
}
_MASKS: dict[str, tuple[Any, int]] = {
    "int8": (np.int8, ACTIONS),
    "bool": (np.bool_, ACTIONS),
    "bits": (np.uint64, MASK_WORDS),
    "indices": (np.int16, MAX_LEGAL),
}

ObservationName = Literal["pettingzoo", "alphazero"]
PlaneType = Literal["float32", "uint8", "bool", "packed"]
MaskForm = Literal["int8", "bool", "bits", "indices"]


class Step(NamedTuple):
    """What :meth:`BatchBoards.step` returns (unpacks as a 5-tuple)."""

    observations: npt.NDArray[Any] | None
    """``(n, 8, 8, 111)`` bool or ``(n, 8, 8, 119)`` float32 (or the ``dtype`` asked for;
    ``(n, 111)``/``(n, 119)`` uint64 when packed), or None."""
    masks: npt.NDArray[Any]
    """``(n, 4672)`` int8: 1 where an action is legal (or the ``mask`` form asked for)."""
    rewards: npt.NDArray[np.float32]
    """``(n, 2)``: ``[white, black]``."""
    terminated: npt.NDArray[np.bool_]
    """``(n,)``: the game ended (rules or illegal action)."""
    truncated: npt.NDArray[np.bool_]
    """``(n,)``: the game reached ``max_plies`` without ending."""


def _backing(array: npt.NDArray[Any] | None) -> bytearray | None:
    """The bytearray behind ``array``, an array a batch returned (whole and contiguous)."""
    if array is None:
        return None
    base = array.base
    while isinstance(base, (np.ndarray, memoryview)):
        base = base.base if isinstance(base, np.ndarray) else base.obj
    if (
        not isinstance(base, bytearray)
        or not array.flags.c_contiguous
        or not array.flags.writeable
        or array.nbytes != len(base)
    ):
        raise ValueError(
            "out must be a Step returned by this batch (or by its outputs()): "
            "arrays over whole bytearrays"
        )
    return base


def _termination(code: int) -> Termination | None:
    return Termination(code) if code > 0 else None


class BatchBoards:
    """``n`` games stepped together (see the module documentation for the conventions).

    :param n: the number of games.
    :param threads: threads to step on (results do not depend on it).
    :param observation: ``"pettingzoo"``, ``"alphazero"`` or None.
    :param seed: seeds :meth:`random_actions` and :meth:`rollouts`.
    :param fen: the start position of every game (the standard one by default).
    :param claim_draw: end games at claimable draws (threefold repetition, 50 moves).
    :param max_plies: truncate games after this many plies.
    :param auto_reset: restart ended games in the step that ends them.
    :param illegal: ``"error"`` (raise, nothing moves) or ``"lose"`` (the mover loses).
    :param dtype: the observations' type: ``"float32"``, ``"uint8"``, ``"bool"``
        (PettingZoo only) or ``"packed"`` (``uint64`` bitboards); None for the kind's own
        (bool for PettingZoo, float32 for AlphaZero). AlphaZero's two counter planes
        saturate at 255 in ``uint8``.
    :param mask: the legal-action masks' form: ``"int8"`` (the default), ``"bool"``,
        ``"bits"`` or ``"indices"``.
    :param ring: with ``k > 0``, steps write into ``k`` sets of arrays the batch allocates
        once and reuses in turn, so a step's arrays are overwritten ``k`` steps later (copy
        what you keep); 0 (the default) returns new arrays from every step.
    """

    def __init__(
        self,
        n: int,
        *,
        threads: int = 1,
        observation: ObservationName | None = None,
        seed: int = 0,
        fen: str | None = None,
        claim_draw: bool = False,
        max_plies: int | None = None,
        auto_reset: bool = True,
        illegal: Literal["error", "lose"] = "error",
        dtype: PlaneType | None = None,
        mask: MaskForm = "int8",
        ring: int = 0,
    ) -> None:
        if ring < 0:
            raise ValueError(f"ring must not be negative, got {ring}")
        if n < 0:
            raise ValueError(f"n must not be negative, got {n}")
        if threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        if observation is not None and observation not in _SHAPES:
            raise ValueError(
                f"observation must be 'pettingzoo', 'alphazero' or None, not {observation!r}"
            )
        self._inner = _BatchBoards(
            n,
            fen=fen,
            observation=observation,
            claim_draw=claim_draw,
            max_plies=max_plies,
            auto_reset=auto_reset,
            illegal=illegal,
            threads=threads,
            dtype=dtype,
            mask=mask,
        )
        self._n = n
        self._observation = observation
        self._dtype = dtype
        self._mask = mask
        self._ring = [self._inner.new_outputs() for _ in range(ring)]
        self._ring_steps = [self._arrays(raw, keep_ends=False) for raw in self._ring]
        self._ring_next = 0
        self._ends_buffer = bytearray(n)
        self._played = bytearray(8 * n)
        self.actions: npt.NDArray[np.int64] = np.frombuffer(self._played, dtype=np.int64)
        """The actions the last :meth:`step_random` played (-1 for games that were over);
        refilled by the next one."""
        self._seed = seed & (2**64 - 1)
        self._draws = 0
        self.fen = fen
        self.threads = threads
        self.claim_draw = claim_draw
        self.max_plies = max_plies
        self.ends: npt.NDArray[np.int8] = np.zeros(n, dtype=np.int8)
        """The last step's end codes: 0 ongoing (or truncated), a :class:`Termination`
        value, or :data:`ILLEGAL_ACTION`."""

    def __len__(self) -> int:
        return self._n

    def __repr__(self) -> str:
        return f"<BatchBoards n={self._n} observation={self._observation!r}>"

    def _arrays(self, raw: tuple[Any, ...], keep_ends: bool = True) -> Step:
        obs, masks, rewards, terminated, truncated, ends = raw
        n = self._n
        observations: npt.NDArray[Any] | None = None
        if self._observation is not None:
            if self._dtype == "packed":
                observations = np.frombuffer(obs, dtype=np.uint64).reshape(
                    n, _WORDS[self._observation]
                )
            else:
                dtype = _PLANE_DTYPES[self._dtype] if self._dtype else _DTYPES[self._observation]
                observations = np.frombuffer(obs, dtype=dtype).reshape(
                    (n, *_SHAPES[self._observation])
                )
        if keep_ends:
            self.ends = np.frombuffer(ends, dtype=np.int8)
        mask_dtype, mask_width = _MASKS[self._mask]
        return Step(
            observations,
            np.frombuffer(masks, dtype=mask_dtype).reshape(n, mask_width),
            np.frombuffer(rewards, dtype=np.float32).reshape(n, 2),
            np.frombuffer(terminated, dtype=np.bool_),
            np.frombuffer(truncated, dtype=np.bool_),
        )

    def outputs(self) -> Step:
        """New zeroed arrays for this batch, to pass as ``out=`` to :meth:`step`,
        :meth:`step_random`, :meth:`reset` or :meth:`observe`."""
        return self._arrays(self._inner.new_outputs(), keep_ends=False)

    def _target(self, out: Step | None) -> tuple[tuple[Any, ...] | None, Step | None]:
        """The bytearrays to write into (None: new ones) and the Step to return."""
        if out is not None:
            if not isinstance(out, Step):
                raise TypeError(f"out must be a Step this batch returned, not {type(out).__name__}")
            bases = tuple(_backing(a) for a in out)
            self.ends = np.frombuffer(self._ends_buffer, dtype=np.int8)
            return (*bases, self._ends_buffer), out
        if self._ring:
            k = self._ring_next
            self._ring_next = (k + 1) % len(self._ring)
            self.ends = np.frombuffer(self._ring[k][5], dtype=np.int8)
            return self._ring[k], self._ring_steps[k]
        return None, None

    def _run(self, call: Any, *args: Any, out: Step | None) -> Step:
        target, step = self._target(out)
        raw = call(*args, target)
        return step if step is not None else self._arrays(raw)

    def reset(self, out: Step | None = None) -> tuple[npt.NDArray[Any] | None, npt.NDArray[Any]]:
        """Restarts every game; returns the first ``(observations, masks)`` (written into
        ``out``'s arrays when given)."""
        step = self._run(self._inner.reset, out=out)
        return step.observations, step.masks

    def observe(self, out: Step | None = None) -> Step:
        """The current observations and masks, zero rewards, and the flags of games that
        are over, without moving (written into ``out`` when given)."""
        return self._run(self._inner.observe, out=out)

    def step(self, actions: npt.ArrayLike, out: Step | None = None) -> Step:
        """Plays ``actions[i]`` in game ``i`` (one int per game).

        ``out``: a :class:`Step` this batch returned before (or :meth:`outputs`), refilled
        in place and returned, instead of new arrays.

        :raises pychess_rs.IllegalMoveError: an action is illegal (``illegal="error"``);
            no game has moved.
        :raises ValueError: ``actions`` does not hold one integer per game, or ``out`` is
            not a Step of this batch.
        """
        array = np.asarray(actions)
        if array.shape != (self._n,) or not (
            np.issubdtype(array.dtype, np.integer) or array.size == 0
        ):
            raise ValueError(
                f"actions must be {self._n} integers, got shape {array.shape} of {array.dtype}"
            )
        data = np.ascontiguousarray(array, dtype=np.int64).tobytes()
        return self._run(self._inner.step, data, out=out)

    def _next_seed(self, seed: int | None) -> int:
        if seed is None:
            seed = (self._seed + 0x9E3779B97F4A7C15 * (self._draws + 1)) & (2**64 - 1)
            self._draws += 1
        return seed & (2**64 - 1)

    def step_random(self, seed: int | None = None, out: Step | None = None) -> Step:
        """Plays a uniformly random legal action in every game, drawn in Rust on the
        stepping threads: the same actions :meth:`random_actions` would draw for ``seed``
        (and, without ``seed``, the next ones of the batch's sequence), whatever
        ``threads``. The actions played are in :attr:`actions` until the next call.
        ``out`` as for :meth:`step`."""
        return self._run(self._inner.step_random, self._next_seed(seed), self._played, out=out)

    def random_actions(self, seed: int | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game (-1 for games that are over). Without
        ``seed``, successive calls draw from the batch's own seeded sequence."""
        raw = self._inner.random_actions(self._next_seed(seed))
        return np.frombuffer(raw, dtype=np.int64).copy()

    def threads_started(self) -> int:
        """Worker threads this batch has started (at most ``threads - 1``: the calling
        thread steps a share too). They are started on the first step that needs them,
        parked between steps and ended when the batch is garbage-collected."""
        return self._inner.threads_started()

    def terminations(self) -> list[Termination | None]:
        """The last step's terminations by the rules (None where no rule ended the game,
        including illegal actions and truncations)."""
        return [_termination(int(code)) for code in self.ends]

    def board(self, index: int) -> Board:
        """Game ``index`` as a :class:`pychess_rs.Board` (a copy, with its move stack)."""
        return self._inner.board(index)

    def boards(self) -> list[Board]:
        """Every game as a :class:`pychess_rs.Board`."""
        return [self._inner.board(i) for i in range(self._n)]

    def final_board(self, index: int) -> Board | None:
        """The game that ended at ``index`` in the last step and was auto-reset, if any."""
        return self._inner.final_board(index)

    def plies(self, index: int) -> int:
        """Plies played in game ``index`` since it (re)started."""
        return self._inner.plies(index)

    def is_over(self, index: int) -> bool:
        """Is game ``index`` over and waiting for a reset (only without auto-reset)?"""
        return self._inner.is_over(index)

    def pettingzoo_view(
        self, index: int, player: int
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int8]]:
        """PettingZoo ``chess_v6``'s observation of game ``index`` for ``player_0`` (White,
        ``player=0``) or ``player_1`` (Black, ``player=1``), whoever is to move, and the
        legal-action mask of the side to move (even in a game that is over: ``chess_v6``
        shows it to the agent selected, and all zeros to the other)."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        obs, mask = self._inner.pettingzoo_view(index, player == 0)
        return (
            np.frombuffer(obs, dtype=np.bool_).reshape(_SHAPES["pettingzoo"]),
            np.frombuffer(mask, dtype=np.int8),
        )

    def reset_game(self, index: int) -> None:
        """Restarts game ``index`` alone (its observation comes with the next step or
        :meth:`observe`)."""
        self._inner.reset_game(index)

    def rollouts(self, games: int, seed: int | None = None) -> Rollouts:
        """Random self-play games from this batch's start position, with its threads,
        ``claim_draw`` and ``max_plies`` (see :func:`rollouts`)."""
        return rollouts(
            games,
            seed=self._seed if seed is None else seed,
            fen=self.fen,
            claim_draw=self.claim_draw,
            max_plies=self.max_plies,
            threads=self.threads,
        )


@dataclasses.dataclass(frozen=True)
class Rollouts:
    """Random self-play games, their actions concatenated: game ``i`` played
    ``actions[offsets[i]:offsets[i + 1]]``."""

    actions: npt.NDArray[np.uint16]
    """Every game's actions, game after game."""
    offsets: npt.NDArray[np.int64]
    """``games + 1`` offsets into ``actions``."""
    ends: npt.NDArray[np.int8]
    """End codes: a :class:`Termination` value, or 0 for a truncated game."""
    winners: npt.NDArray[np.int8]
    """1 White won, -1 Black won, 0 drawn or truncated."""
    truncated: npt.NDArray[np.bool_]
    """Stopped at ``max_plies``."""
    fen: str | None = None
    """The start position (None: the standard one)."""

    def __len__(self) -> int:
        return len(self.ends)

    @property
    def plies(self) -> int:
        """Plies played in all games."""
        return len(self.actions)

    def game_actions(self, index: int) -> npt.NDArray[np.uint16]:
        """The actions of game ``index``."""
        return self.actions[self.offsets[index] : self.offsets[index + 1]]

    def board(self, index: int) -> Board:
        """Game ``index`` replayed, as a :class:`pychess_rs.Board` with its move stack."""
        if not -len(self) <= index < len(self):
            raise IndexError(f"no game {index} in {len(self)} rollouts")
        index %= len(self)
        data = np.ascontiguousarray(self.game_actions(index), dtype=np.uint16).tobytes()
        return _board_from_actions(data, self.fen)

    def terminations(self) -> list[Termination | None]:
        """Each game's termination (None for truncated games)."""
        return [_termination(int(code)) for code in self.ends]


def rollouts(
    games: int,
    seed: int = 0,
    *,
    fen: str | None = None,
    claim_draw: bool = False,
    max_plies: int | None = None,
    threads: int = 1,
) -> Rollouts:
    """Plays ``games`` games of uniformly random legal moves in Rust (GIL released).

    Game ``i`` draws from its own generator seeded by ``seed`` and ``i``, so the games do not
    depend on ``threads`` or on how many are played. Ends as :class:`BatchBoards` does
    (``claim_draw``, ``max_plies``).
    """
    if games < 0:
        raise ValueError(f"games must not be negative, got {games}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    actions, offsets, ends, winners, truncated = _rollouts(
        games,
        seed & (2**64 - 1),
        fen=fen,
        claim_draw=claim_draw,
        max_plies=max_plies,
        threads=threads,
    )
    return Rollouts(
        np.frombuffer(actions, dtype=np.uint16),
        np.frombuffer(offsets, dtype=np.int64),
        np.frombuffer(ends, dtype=np.int8),
        np.frombuffer(winners, dtype=np.int8),
        np.frombuffer(truncated, dtype=np.bool_),
        fen,
    )
