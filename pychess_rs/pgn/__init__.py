"""PGN at Rust speed.

Two faces over one Rust reader (tokenising and SAN resolution in Rust, python-chess 1.11.2's
reading semantics):

- python-chess's ``chess.pgn`` API: :func:`read_game`, :func:`read_headers`,
  :func:`skip_game`, :class:`Game`/:class:`GameNode`/:class:`ChildNode`, :class:`Headers`,
  visitors and exporters (``str(game)`` is python-chess's text);
- :func:`read_games`: the bulk reader for data work. Light records (tags, moves, result,
  errors, optionally a FEN per ply), ``.pgn``/``.gz``/``.bz2``/``.zst``, several threads, tag
  filters before move parsing, byte ranges (:func:`byte_ranges`) and Dask
  (:func:`to_dask_bag`, :func:`to_dask_dataframe`).
"""

from __future__ import annotations

from ._bulk import BadGame, GameStream, PgnGame, read_games
from ._game import *  # noqa: F403  (python-chess's flat chess.pgn namespace)
from ._game import LOGGER
from ._game import __all__ as _game_all
from ._ranges import byte_ranges, game_rows, to_dask_bag, to_dask_dataframe

__all__ = [
    "LOGGER",
    "BadGame",
    "GameStream",
    "PgnGame",
    "byte_ranges",
    "game_rows",
    "read_games",
    "to_dask_bag",
    "to_dask_dataframe",
    *_game_all,
]
