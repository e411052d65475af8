"""Byte ranges of a PGN file read independently, and the optional Dask integration.

A range ``[start, end)`` owns the games whose first line is a *game start* at or after
``start`` and before ``end``: a line beginning with ``[`` at the start of the file or right
after a blank line. Adjacent ranges therefore read every game exactly once, in any process,
as long as every game begins with a tag pair after a blank line (database exports do; a tag
line after a blank line inside a comment, or a blank line between two tags of one game,
would mislead the split). Compressed files cannot be split: they are one range each.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any, Callable

from ._bulk import PgnGame, read_games

__all__ = ["byte_ranges", "game_rows", "to_dask_bag", "to_dask_dataframe"]

_MAGIC = (b"\x1f\x8b", b"BZh", b"\x28\xb5\x2f\xfd")


def _optional(name: str, what: str) -> ModuleType:
    """Imports an optional dependency (typed as a plain module: dask has no stubs here)."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise ImportError(f"{what} needs {name}: pip install 'pychess-rs[dask]'") from e


def _compressed(path: str) -> bool:
    with open(path, "rb") as f:
        return f.read(4).startswith(_MAGIC)


def byte_ranges(path: str | os.PathLike[str], parts: int) -> list[tuple[int, int]]:
    """Splits ``path`` into about ``parts`` byte ranges of equal size, for
    ``read_games(path, start=..., end=...)``; one range for a compressed file."""
    if parts < 1:
        raise ValueError(f"parts must be at least 1, got {parts}")
    path = os.fspath(path)
    size = os.path.getsize(path)
    if _compressed(path) or size == 0:
        return [(0, size)]
    parts = min(parts, size)
    bounds = [size * k // parts for k in range(parts + 1)]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def game_rows(game: PgnGame) -> dict[str, Any]:
    """A game as a flat row: offset, the seven-tag roster, result, plies, UCI moves, errors."""
    headers = game.headers
    row: dict[str, Any] = {"offset": game.offset}
    for tag in ("Event", "Site", "Date", "Round", "White", "Black"):
        row[tag.lower()] = headers.get(tag, "?")
    row["result"] = game.result
    row["plies"] = game.ply_count
    row["moves"] = " ".join(game.moves)
    row["errors"] = len(game.errors)
    return row


def _read_range(
    path: str, start: int, end: int, convert: Callable[[PgnGame], Any], options: dict[str, Any]
) -> list[Any]:
    if _compressed(path):
        return [convert(g) for g in read_games(path, threads=1, **options)]
    return [convert(g) for g in read_games(path, threads=1, start=start, end=end, **options)]


def _partitions(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], parts_per_file: int
) -> Iterator[tuple[str, int, int]]:
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    for p in paths:
        path = os.fspath(p)
        for start, end in byte_ranges(path, parts_per_file):
            yield path, start, end


def to_dask_bag(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    parts_per_file: int = 8,
    convert: Callable[[PgnGame], Any] = game_rows,
    **options: Any,
) -> Any:
    """A ``dask.bag.Bag`` of ``convert(game)`` for every game of ``paths``, one partition per byte
    range (``options`` go to :func:`read_games`, e.g. ``where=``). Needs ``dask[bag]``
    (``pip install pychess-rs[dask]``)."""
    dask = _optional("dask", "to_dask_bag")
    db = _optional("dask.bag", "to_dask_bag")
    tasks = [
        dask.delayed(_read_range)(path, start, end, convert, options)
        for path, start, end in _partitions(paths, parts_per_file)
    ]
    return db.from_delayed(tasks)


def to_dask_dataframe(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    parts_per_file: int = 8,
    **options: Any,
) -> Any:
    """A ``dask.dataframe.DataFrame`` with one row per game (the columns of :func:`game_rows`), one
    partition per byte range. Needs ``dask[dataframe]`` (``pip install pychess-rs[dask]``)."""
    dask = _optional("dask", "to_dask_dataframe")
    dd = _optional("dask.dataframe", "to_dask_dataframe")
    pd = _optional("pandas", "to_dask_dataframe")
    columns = {
        "offset": "int64",
        "event": "object",
        "site": "object",
        "date": "object",
        "round": "object",
        "white": "object",
        "black": "object",
        "result": "object",
        "plies": "int64",
        "moves": "object",
        "errors": "int64",
    }
    meta = pd.DataFrame({k: pd.Series(dtype=v) for k, v in columns.items()})

    def frame(rows: list[dict[str, Any]]) -> Any:
        return pd.DataFrame(rows, columns=list(columns)).astype(columns)

    parts = [
        dask.delayed(frame)(dask.delayed(_read_range)(path, start, end, game_rows, options))
        for path, start, end in _partitions(paths, parts_per_file)
    ]
    return dd.from_delayed(parts, meta=meta)
