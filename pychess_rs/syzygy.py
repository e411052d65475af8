"""Syzygy endgame tablebases, as ``chess.syzygy`` (python-chess 1.11) offers them.

Syzygy tables say, for every position with few pieces, whether the side to move wins, draws
or loses under the fifty-move rule (WDL, ``*.rtbw`` files) and how far the next capture or
pawn move is on the best line (DTZ, ``*.rtbz`` files). The prober is the Rust crate
``pychess-syzygy``: files are memory-mapped and opened on the first probe that needs them,
probes run with the GIL released, and one :class:`Tablebase` may be shared between threads.
The answers are python-chess's, cursed wins, blessed losses and en passant included::

    import pychess_rs as chess
    import pychess_rs.syzygy

    with chess.syzygy.open_tablebase("data/syzygy/regular") as tablebase:
        board = chess.Board("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1")
        print(tablebase.probe_wdl(board))  # -2
        print(tablebase.probe_dtz(board))  # -53

Boards may be pychess_rs boards or python-chess boards (read through their FEN). Standard
chess only: variant tables (suicide, atomic, ...) are not supported yet.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from types import TracebackType
from typing import Any, Union

from . import _core
from ._core import Board
from ._core import SyzygyMissingTableError as MissingTableError
from ._probe_board import AnyBoard, probe_board

__all__ = [
    "TBPIECES",
    "DtzTable",
    "MissingTableError",
    "Tablebase",
    "WdlTable",
    "all_dependencies",
    "calc_key",
    "dependencies",
    "dtz_before_zeroing",
    "is_tablename",
    "normalize_tablename",
    "open_tablebase",
    "tablenames",
]

#: The most pieces a Syzygy table holds.
TBPIECES = 7

StrOrBytesPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def _check_variant(VariantBoard: type[Any]) -> None:
    if getattr(VariantBoard, "uci_variant", "chess") != "chess":
        raise ValueError(
            f"pychess_rs.syzygy probes standard chess tables only, not {VariantBoard.__name__}"
        )


def calc_key(board: AnyBoard, *, mirror: bool = False) -> str:
    """The board's material as a table name, White's pieces first (``"KBNvK"``), or Black's
    first with ``mirror``."""
    return _core.syzygy_calc_key(probe_board(board), mirror)


def normalize_tablename(name: str, *, mirror: bool = False) -> str:
    """The name as the files spell it: each side ordered K, Q, R, B, N, P, the stronger side
    first (the other first with ``mirror``).

    :raises: :exc:`ValueError` if ``name`` is not two sides of piece letters around a ``v``.
    """
    return _core.syzygy_normalize_tablename(name, mirror)


def is_tablename(
    name: str,
    *,
    one_king: bool = True,
    piece_count: int | None = TBPIECES,
    normalized: bool = True,
) -> bool:
    """Is ``name`` a table name (of at most ``piece_count`` pieces, normalised)?"""
    return _core.syzygy_is_tablename(name, one_king, piece_count, normalized)


def tablenames(*, one_king: bool = True, piece_count: int = 6) -> Iterator[str]:
    """Every table name with up to ``piece_count`` pieces."""
    return iter(_core.syzygy_tablenames(one_king, piece_count))


def dependencies(target: str, *, one_king: bool = True) -> Iterator[str]:
    """The tables one capture or promotion away from ``target``, each once."""
    return iter(_core.syzygy_dependencies(target, one_king))


def all_dependencies(targets: Iterable[str], *, one_king: bool = True) -> Iterator[str]:
    """The ``targets`` and every table they reach, each once."""
    return iter(_core.syzygy_all_dependencies(list(targets), one_king))


def dtz_before_zeroing(wdl: int) -> int:
    """The DTZ of a position of WDL value ``wdl`` whose best move zeroes the clock: ±1 for a
    win or loss, ±101 for a cursed win or blessed loss, 0 for a draw."""
    return _core.syzygy_dtz_before_zeroing(wdl)


class _Table:
    def __init__(self, path: StrOrBytesPath, *, variant: type[Any] = Board) -> None:
        _check_variant(variant)
        self.path = os.fsdecode(path)
        self.variant = variant

    def close(self) -> None:
        """Unmaps the file; a later probe maps it again."""
        self._table.close()

    def __enter__(self) -> _Table:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    _table: _core.SyzygyWdlTable | _core.SyzygyDtzTable


class WdlTable(_Table):
    """One WDL file (``*.rtbw``), opened on the first probe (python-chess's ``WdlTable``)."""

    def __init__(self, path: StrOrBytesPath, *, variant: type[Any] = Board) -> None:
        super().__init__(path, variant=variant)
        self._table = self._wdl = _core.SyzygyWdlTable(self.path)

    def init_table_wdl(self) -> None:
        """Opens and reads the file now.

        :raises: :exc:`OSError` if it cannot be opened or is not a WDL table.
        """
        self._wdl.init()

    def probe_wdl_table(self, board: AnyBoard) -> int:
        """The stored value for ``board`` (of this table's material), no captures or en
        passant considered: -2 .. 2."""
        return self._wdl.probe(board)


class DtzTable(_Table):
    """One DTZ file (``*.rtbz``), opened on the first probe (python-chess's ``DtzTable``)."""

    def __init__(self, path: StrOrBytesPath, *, variant: type[Any] = Board) -> None:
        super().__init__(path, variant=variant)
        self._table = self._dtz = _core.SyzygyDtzTable(self.path)

    def init_table_dtz(self) -> None:
        """Opens and reads the file now.

        :raises: :exc:`OSError` if it cannot be opened or is not a DTZ table.
        """
        self._dtz.init()

    def probe_dtz_table(self, board: AnyBoard, wdl: int) -> tuple[int, int]:
        """The stored entry for ``board`` whose WDL value is ``wdl``: ``(entry, 1)``, or
        ``(0, -1)`` when the file stores the other side to move."""
        return self._dtz.probe(board, wdl)


class Tablebase(_core.SyzygyTablebase):
    """A collection of Syzygy tables (python-chess's ``Tablebase``). Tables open lazily and
    stay mapped until ``close()``; memory maps need no file descriptors, so ``max_fds`` is
    accepted and has nothing to limit.

    The probes, from the Rust base class:

    - ``probe_wdl(board)``: win/draw/loss under the fifty-move rule, assuming the clock was
      just reset: ``2`` the side to move wins, ``1`` cursed win (a win the fifty-move rule
      makes a draw), ``0`` draw, ``-1`` blessed loss, ``-2`` loss;
    - ``probe_dtz(board)``: distance to zeroing (DTZ50'' with rounding): ``1..100`` wins and
      ``-100..-1`` loses with the next capture or pawn move that far (in plies, possibly one
      more), beyond ±100 a cursed win or blessed loss, ``0`` a draw (needs the WDL tables too);
    - ``probe_wdl_table(board)``, ``probe_dtz_no_ep(board)``, ``probe_dtz_table(board, wdl)``,
      ``probe_ab(board, alpha, beta, threats=False)``: python-chess's steps of those;
    - ``close()``: forgets every table; probes afterwards raise :exc:`MissingTableError`.

    The probes raise :exc:`MissingTableError` when a table is missing, :exc:`KeyError` for a
    position with castling rights or too many pieces (use :meth:`get_wdl` and :meth:`get_dtz`
    for ``None`` instead), :exc:`OSError` for a file that is not a Syzygy table.

    :raises: :exc:`ValueError` for a ``VariantBoard`` other than standard chess.
    """

    def __init__(self, *, max_fds: int | None = 128, VariantBoard: type[Any] = Board) -> None:
        _check_variant(VariantBoard)
        self.variant = VariantBoard
        self.max_fds = max_fds

    def add_directory(
        self, directory: StrOrBytesPath, *, load_wdl: bool = True, load_dtz: bool = True
    ) -> int:
        """Adds the tables of a directory (files named like ``KQvKN.rtbw``, ``KRBvK.rtbz``);
        they open when first probed. Returns the number of table files found.

        :raises: :exc:`OSError` if the directory cannot be listed.
        """
        return self._add_directory(os.fsdecode(directory), load_wdl, load_dtz)

    def add_file(
        self, path: StrOrBytesPath, *, load_wdl: bool = True, load_dtz: bool = True
    ) -> int:
        """Adds one file if it is named as a table; returns 1 if added, else 0."""
        return self._add_file(os.fsdecode(path), load_wdl, load_dtz)

    def get_wdl(self, board: AnyBoard, default: int | None = None) -> int | None:
        """``probe_wdl(board)``, or ``default`` where it raises :exc:`KeyError`."""
        try:
            return self.probe_wdl(board)
        except KeyError:
            return default

    def get_dtz(self, board: AnyBoard, default: int | None = None) -> int | None:
        """``probe_dtz(board)``, or ``default`` where it raises :exc:`KeyError`."""
        try:
            return self.probe_dtz(board)
        except KeyError:
            return default

    def __enter__(self) -> Tablebase:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def open_tablebase(
    directory: StrOrBytesPath,
    *,
    load_wdl: bool = True,
    load_dtz: bool = True,
    max_fds: int | None = 128,
    VariantBoard: type[Any] = Board,
) -> Tablebase:
    """A :class:`Tablebase` with the tables of ``directory`` (add more with
    :meth:`Tablebase.add_directory`: probing needs the tables captures and promotions lead
    to as well).

    :raises: :exc:`OSError` if the directory cannot be listed.
    """
    tables = Tablebase(max_fds=max_fds, VariantBoard=VariantBoard)
    tables.add_directory(directory, load_wdl=load_wdl, load_dtz=load_dtz)
    return tables
