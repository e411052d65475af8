"""Positions and moves as NumPy arrays, built in Rust (``pip install 'pychess-rs[ml]'``).

Every function takes a :class:`pychess_rs.Board` (its move stack is the game's history), and
each has a ``*_batch`` form taking a sequence of boards, which returns the same arrays
stacked along a new first axis, computed with the GIL released on ``threads`` threads. The
arrays are fresh and writable; no per-square Python work happens anywhere.

The conventions of every format (orientation, plane order, whose view, dtype, flattening)
are in ``docs/encodings.md``, each with a worked example.

* :func:`compact`: ``uint64[17]``: 12 piece bitboards, side, castling, en passant, clocks.
* :func:`alphazero`: ``float32[8, 8, 119]``: AlphaZero's planes with 8 positions of history.
* :func:`alphazero_packed` / :func:`pettingzoo_packed`: the same planes as ``uint64``
  bitboards, one per plane (``docs/encodings.md`` shows how to unpack them).
* :func:`action_of` / :func:`move_of` / :func:`action_mask`: the 8x8x73 = 4,672 move index
  (PettingZoo ``chess_v6``'s numbering) both ways, and the ``int8[4672]`` legal-action mask.
* :func:`pettingzoo_observation`: ``bool[8, 8, 111]``, what PettingZoo ``chess_v6`` observes.
* :func:`lc0`: ``float32[112, 8, 8]``: Lc0's classical input planes.
* :func:`halfkp` / :func:`halfka_v2_hm`: ``int32[2, 32]`` NNUE feature indices (White's
  perspective, then Black's; -1 pads), as nnue-pytorch defines them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as _error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "pychess_rs.encode returns NumPy arrays, and NumPy is not installed. "
        "Install it with the 'ml' extra: pip install 'pychess-rs[ml]' (or pip install numpy)."
    ) from _error

from . import _core
from ._core import Board, Move

__all__ = [
    "ACTIONS",
    "ALPHAZERO_COUNTER_WORDS",
    "ALPHAZERO_SHAPE",
    "ALPHAZERO_WORDS",
    "COMPACT_LEN",
    "HALFKA_V2_HM_INPUTS",
    "HALFKP_INPUTS",
    "LC0_SHAPE",
    "MAX_FEATURES",
    "NO_SQUARE",
    "PETTINGZOO_SHAPE",
    "PETTINGZOO_WORDS",
    "action_mask",
    "action_mask_batch",
    "action_of",
    "actions_of",
    "alphazero",
    "alphazero_batch",
    "alphazero_packed",
    "alphazero_packed_batch",
    "compact",
    "compact_batch",
    "halfka_v2_hm",
    "halfka_v2_hm_batch",
    "halfkp",
    "halfkp_batch",
    "lc0",
    "lc0_batch",
    "move_of",
    "moves_of",
    "pettingzoo_observation",
    "pettingzoo_observation_batch",
    "pettingzoo_packed",
    "pettingzoo_packed_batch",
]

#: Number of actions: 8 x 8 origin squares x 73 move planes.
ACTIONS = 4672
#: Shape of :func:`alphazero`.
ALPHAZERO_SHAPE = (8, 8, 119)
#: Shape of :func:`pettingzoo_observation`.
PETTINGZOO_SHAPE = (8, 8, 111)
#: Words of :func:`alphazero_packed`: one ``uint64`` per plane.
ALPHAZERO_WORDS = 119
#: The words of :func:`alphazero_packed` that hold a number (the fullmove number, the
#: halfmove clock), not a bitboard.
ALPHAZERO_COUNTER_WORDS = (113, 118)
#: Words of :func:`pettingzoo_packed`.
PETTINGZOO_WORDS = 111
#: Shape of :func:`lc0`.
LC0_SHAPE = (112, 8, 8)
#: Length of :func:`compact`.
COMPACT_LEN = 17
#: :func:`compact`'s en-passant entry when no en-passant capture is legal.
NO_SQUARE = 64
#: Number of HalfKP inputs (feature indices are below it).
HALFKP_INPUTS = 41024
#: Number of HalfKAv2_hm inputs.
HALFKA_V2_HM_INPUTS = 22528
#: Features per perspective in :func:`halfkp` / :func:`halfka_v2_hm` rows (-1 pads).
MAX_FEATURES = 32

_U64 = npt.NDArray[np.uint64]
_F32 = npt.NDArray[np.float32]
_I8 = npt.NDArray[np.int8]
_I32 = npt.NDArray[np.int32]
_I64 = npt.NDArray[np.int64]
_BOOL = npt.NDArray[np.bool_]


def _array(
    buffer: bytearray, dtype: type[np.generic], shape: tuple[int, ...]
) -> npt.NDArray[np.generic]:
    """A writable array over ``buffer`` (no copy)."""
    return np.frombuffer(buffer, dtype=dtype).reshape(shape)


def _backing(out: npt.NDArray[Any], dtype: type[np.generic], shape: tuple[int, ...]) -> bytearray:
    """The bytearray behind ``out``, an array a batch function of this module returned for a
    batch of the same size, so that it can be refilled in place."""
    base = out.base
    while isinstance(base, (np.ndarray, memoryview)):
        base = base.base if isinstance(base, np.ndarray) else base.obj
    if (
        not isinstance(base, bytearray)
        or out.dtype != dtype
        or out.shape != shape
        or not out.flags.c_contiguous
        or out.nbytes != len(base)
    ):
        raise ValueError(
            f"out must be an array returned by this function for a batch of the same size "
            f"({np.dtype(dtype).name}{list(shape)})"
        )
    return base


def _batch(
    encoder: Any,
    boards: Iterable[Board],
    threads: int,
    dtype: type[np.generic],
    item_shape: tuple[int, ...],
    out: npt.NDArray[Any] | None,
    **options: Any,
) -> Any:
    boards = _boards(boards)
    shape = (len(boards), *item_shape)
    if out is not None:
        encoder(boards, threads, out=_backing(out, dtype, shape), **options)
        return out
    return _array(encoder(boards, threads, **options), dtype, shape)


def _boards(boards: Iterable[Board]) -> Sequence[Board]:
    return boards if isinstance(boards, (list, tuple)) else list(boards)


def compact(board: Board) -> _U64:
    """The compact encoding, ``uint64[17]``: White's pawns, knights, bishops, rooks, queens,
    king bitboards, Black's, side to move (0 White, 1 Black), castling rooks bitboard,
    legal en-passant square (64 if none), halfmove clock, fullmove number."""
    return _array(_core.encode_compact(board), np.uint64, (COMPACT_LEN,))  # type: ignore[return-value]


def compact_batch(boards: Iterable[Board], threads: int = 1, out: _U64 | None = None) -> _U64:
    """:func:`compact` of each board, ``uint64[N, 17]``.

    ``out``: an array this function returned for a batch of the same size, to be refilled in
    place (and returned) instead of allocating a new one.
    """
    result: _U64 = _batch(_core.encode_compact, boards, threads, np.uint64, (COMPACT_LEN,), out)
    return result


def alphazero(board: Board) -> _F32:
    """AlphaZero's input planes, ``float32[8, 8, 119]``, from the side to move's view, with
    the last 8 positions of the board's move stack."""
    return _array(_core.encode_alphazero(board), np.float32, ALPHAZERO_SHAPE)  # type: ignore[return-value]


def alphazero_batch(boards: Iterable[Board], threads: int = 1, out: _F32 | None = None) -> _F32:
    """:func:`alphazero` of each board, ``float32[N, 8, 8, 119]``.

    ``out``: an array this function returned for a batch of the same size, to be refilled in
    place (and returned) instead of allocating a new one.
    """
    result: _F32 = _batch(_core.encode_alphazero, boards, threads, np.float32, ALPHAZERO_SHAPE, out)
    return result


def alphazero_packed(board: Board) -> _U64:
    """:func:`alphazero` bit-packed, ``uint64[119]``: bit ``row * 8 + column`` of word ``c``
    is ``alphazero(board)[row, column, c]``, except words 113 and 118
    (:data:`ALPHAZERO_COUNTER_WORDS`), which hold the fullmove number and the halfmove clock
    themselves."""
    buffer = _core.encode_alphazero_packed(board)
    return _array(buffer, np.uint64, (ALPHAZERO_WORDS,))  # type: ignore[return-value]


def alphazero_packed_batch(
    boards: Iterable[Board], threads: int = 1, out: _U64 | None = None
) -> _U64:
    """:func:`alphazero_packed` of each board, ``uint64[N, 119]`` (``out`` as for
    :func:`alphazero_batch`)."""
    encoder = _core.encode_alphazero_packed
    result: _U64 = _batch(encoder, boards, threads, np.uint64, (ALPHAZERO_WORDS,), out)
    return result


def lc0(board: Board) -> _F32:
    """Lc0's classical 112-plane input, ``float32[112, 8, 8]``, from the side to move's view."""
    return _array(_core.encode_lc0(board), np.float32, LC0_SHAPE)  # type: ignore[return-value]


def lc0_batch(boards: Iterable[Board], threads: int = 1, out: _F32 | None = None) -> _F32:
    """:func:`lc0` of each board, ``float32[N, 112, 8, 8]``.

    ``out``: an array this function returned for a batch of the same size, to be refilled in
    place (and returned) instead of allocating a new one.
    """
    result: _F32 = _batch(_core.encode_lc0, boards, threads, np.float32, LC0_SHAPE, out)
    return result


def pettingzoo_observation(board: Board, observer: bool | None = None) -> _BOOL:
    """PettingZoo ``chess_v6``'s observation, ``bool[8, 8, 111]``, identical to
    ``env.observe(agent)["observation"]`` after the board's moves were stepped from
    ``env.reset()``. ``observer``: ``chess.WHITE`` (``player_0``), ``chess.BLACK``
    (``player_1``), or None for the side to move."""
    buffer = _core.encode_pettingzoo(board, 1, observer)
    return _array(buffer, np.bool_, PETTINGZOO_SHAPE)  # type: ignore[return-value]


def pettingzoo_observation_batch(
    boards: Iterable[Board],
    threads: int = 1,
    observer: bool | None = None,
    out: _BOOL | None = None,
) -> _BOOL:
    """:func:`pettingzoo_observation` of each board, ``bool[N, 8, 8, 111]``.

    ``out``: an array this function returned for a batch of the same size, to be refilled in
    place (and returned) instead of allocating a new one.
    """
    encoder = _core.encode_pettingzoo
    result: _BOOL = _batch(
        encoder, boards, threads, np.bool_, PETTINGZOO_SHAPE, out, observer=observer
    )
    return result


def pettingzoo_packed(board: Board, observer: bool | None = None) -> _U64:
    """:func:`pettingzoo_observation` bit-packed, ``uint64[111]``: bit ``row * 8 + column``
    of word ``c`` is ``pettingzoo_observation(board, observer)[row, column, c]``."""
    buffer = _core.encode_pettingzoo_packed(board, 1, observer)
    return _array(buffer, np.uint64, (PETTINGZOO_WORDS,))  # type: ignore[return-value]


def pettingzoo_packed_batch(
    boards: Iterable[Board],
    threads: int = 1,
    observer: bool | None = None,
    out: _U64 | None = None,
) -> _U64:
    """:func:`pettingzoo_packed` of each board, ``uint64[N, 111]`` (``out`` as for
    :func:`pettingzoo_observation_batch`)."""
    encoder = _core.encode_pettingzoo_packed
    result: _U64 = _batch(
        encoder, boards, threads, np.uint64, (PETTINGZOO_WORDS,), out, observer=observer
    )
    return result


def action_mask(board: Board, observer: bool | None = None) -> _I8:
    """The legal-action mask, ``int8[4672]``: 1 at :func:`action_of` of every legal move.
    With ``observer`` given it is PettingZoo's mask for that player: all zeros when it is
    not that player's turn."""
    buffer = _core.encode_action_mask(board, 1, observer)
    return _array(buffer, np.int8, (ACTIONS,))  # type: ignore[return-value]


def action_mask_batch(
    boards: Iterable[Board], threads: int = 1, observer: bool | None = None, out: _I8 | None = None
) -> _I8:
    """:func:`action_mask` of each board, ``int8[N, 4672]``.

    ``out``: an array this function returned for a batch of the same size, to be refilled in
    place (and returned) instead of allocating a new one.
    """
    encoder = _core.encode_action_mask
    result: _I8 = _batch(encoder, boards, threads, np.int8, (ACTIONS,), out, observer=observer)
    return result


def action_of(board: Board, move: Move) -> int:
    """The action (0..4671) of a legal move, from the mover's view (PettingZoo ``chess_v6``'s
    numbering). Raises ``ValueError`` for a move that is not legal on the board."""
    return _core.encode_action_of(board, move)


def actions_of(boards: Iterable[Board], moves: Iterable[Move]) -> _I64:
    """:func:`action_of` of each move in the matching board, ``int64[N]``."""
    boards = _boards(boards)
    buffer = _core.encode_actions_of(boards, moves)
    return _array(buffer, np.int64, (len(boards),))  # type: ignore[return-value]


def move_of(board: Board, action: int) -> Move | None:
    """The legal move ``action`` stands for on the board, or None if no legal move has it
    (including actions outside 0..4671)."""
    return _core.encode_move_of(board, int(action))


def moves_of(boards: Iterable[Board], actions: Iterable[int]) -> list[Move | None]:
    """:func:`move_of` of each action in the matching board."""
    values = actions.tolist() if isinstance(actions, np.ndarray) else [int(a) for a in actions]
    return _core.encode_moves_of(_boards(boards), values)


def halfkp(board: Board) -> _I32:
    """HalfKP's active feature indices, ``int32[2, 32]``: row 0 White's perspective, row 1
    Black's, in the order of the pieces' squares (a1 first), padded with -1. Raises
    ``ValueError`` unless each side has one king and at most 32 pieces stand."""
    return _array(_core.encode_halfkp(board), np.int32, (2, MAX_FEATURES))  # type: ignore[return-value]


def halfkp_batch(boards: Iterable[Board], threads: int = 1, out: _I32 | None = None) -> _I32:
    """:func:`halfkp` of each board, ``int32[N, 2, 32]``.

    ``out``: an array this function returned for a batch of the same size, to be refilled in
    place (and returned) instead of allocating a new one.
    """
    result: _I32 = _batch(_core.encode_halfkp, boards, threads, np.int32, (2, MAX_FEATURES), out)
    return result


def halfka_v2_hm(board: Board) -> _I32:
    """HalfKAv2_hm's active feature indices, laid out as :func:`halfkp`'s."""
    buffer = _core.encode_halfka_v2_hm(board)
    return _array(buffer, np.int32, (2, MAX_FEATURES))  # type: ignore[return-value]


def halfka_v2_hm_batch(boards: Iterable[Board], threads: int = 1, out: _I32 | None = None) -> _I32:
    """:func:`halfka_v2_hm` of each board, ``int32[N, 2, 32]``.

    ``out``: an array this function returned for a batch of the same size, to be refilled in
    place (and returned) instead of allocating a new one.
    """
    result: _I32 = _batch(
        _core.encode_halfka_v2_hm, boards, threads, np.int32, (2, MAX_FEATURES), out
    )
    return result
