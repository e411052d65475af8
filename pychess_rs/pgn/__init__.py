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

from ._annotations import (
    NAG_ACTIVE_POSITION,
    NAG_BLACK_DECISIVE_ADVANTAGE,
    NAG_BLACK_DECISIVE_COUNTERPLAY,
    NAG_BLACK_MODERATE_ADVANTAGE,
    NAG_BLACK_MODERATE_COUNTERPLAY,
    NAG_BLACK_MODERATE_TIME_PRESSURE,
    NAG_BLACK_SEVERE_TIME_PRESSURE,
    NAG_BLACK_SLIGHT_ADVANTAGE,
    NAG_BLACK_ZUGZWANG,
    NAG_BLUNDER,
    NAG_BRILLIANT_MOVE,
    NAG_DRAWISH_POSITION,
    NAG_DUBIOUS_MOVE,
    NAG_FORCED_MOVE,
    NAG_GOOD_MOVE,
    NAG_MISTAKE,
    NAG_NOVELTY,
    NAG_NULL,
    NAG_QUIET_POSITION,
    NAG_SINGULAR_MOVE,
    NAG_SPECULATIVE_MOVE,
    NAG_UNCLEAR_POSITION,
    NAG_WHITE_DECISIVE_ADVANTAGE,
    NAG_WHITE_DECISIVE_COUNTERPLAY,
    NAG_WHITE_MODERATE_ADVANTAGE,
    NAG_WHITE_MODERATE_COUNTERPLAY,
    NAG_WHITE_MODERATE_TIME_PRESSURE,
    NAG_WHITE_SEVERE_TIME_PRESSURE,
    NAG_WHITE_SLIGHT_ADVANTAGE,
    NAG_WHITE_ZUGZWANG,
    NAG_WORST_MOVE,
)
from ._builders import LOGGER, BoardBuilder, GameBuilder, HeadersBuilder, SkipVisitor
from ._bulk import BadGame, GameStream, PgnGame, read_games
from ._headers import (
    TAG_ROSTER,
    Headers,
    TimeControl,
    TimeControlPart,
    TimeControlType,
    parse_time_control,
)
from ._nodes import ChildNode, Game, GameNode, Mainline
from ._ranges import byte_ranges, game_rows, to_dask_bag, to_dask_dataframe
from ._reading import read_game, read_headers, skip_game
from ._visitors import (
    SKIP,
    BaseVisitor,
    FileExporter,
    SkipType,
    StringExporter,
    StringExporterMixin,
)

__all__ = [
    "LOGGER",
    "NAG_ACTIVE_POSITION",
    "NAG_BLACK_DECISIVE_ADVANTAGE",
    "NAG_BLACK_DECISIVE_COUNTERPLAY",
    "NAG_BLACK_MODERATE_ADVANTAGE",
    "NAG_BLACK_MODERATE_COUNTERPLAY",
    "NAG_BLACK_MODERATE_TIME_PRESSURE",
    "NAG_BLACK_SEVERE_TIME_PRESSURE",
    "NAG_BLACK_SLIGHT_ADVANTAGE",
    "NAG_BLACK_ZUGZWANG",
    "NAG_BLUNDER",
    "NAG_BRILLIANT_MOVE",
    "NAG_DRAWISH_POSITION",
    "NAG_DUBIOUS_MOVE",
    "NAG_FORCED_MOVE",
    "NAG_GOOD_MOVE",
    "NAG_MISTAKE",
    "NAG_NOVELTY",
    "NAG_NULL",
    "NAG_QUIET_POSITION",
    "NAG_SINGULAR_MOVE",
    "NAG_SPECULATIVE_MOVE",
    "NAG_UNCLEAR_POSITION",
    "NAG_WHITE_DECISIVE_ADVANTAGE",
    "NAG_WHITE_DECISIVE_COUNTERPLAY",
    "NAG_WHITE_MODERATE_ADVANTAGE",
    "NAG_WHITE_MODERATE_COUNTERPLAY",
    "NAG_WHITE_MODERATE_TIME_PRESSURE",
    "NAG_WHITE_SEVERE_TIME_PRESSURE",
    "NAG_WHITE_SLIGHT_ADVANTAGE",
    "NAG_WHITE_ZUGZWANG",
    "NAG_WORST_MOVE",
    "SKIP",
    "TAG_ROSTER",
    "BadGame",
    "BaseVisitor",
    "BoardBuilder",
    "ChildNode",
    "FileExporter",
    "Game",
    "GameBuilder",
    "GameNode",
    "GameStream",
    "Headers",
    "HeadersBuilder",
    "Mainline",
    "PgnGame",
    "SkipType",
    "SkipVisitor",
    "StringExporter",
    "StringExporterMixin",
    "TimeControl",
    "TimeControlPart",
    "TimeControlType",
    "byte_ranges",
    "game_rows",
    "parse_time_control",
    "read_game",
    "read_games",
    "read_headers",
    "skip_game",
    "to_dask_bag",
    "to_dask_dataframe",
]
