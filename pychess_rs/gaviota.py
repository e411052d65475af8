"""Gaviota endgame tablebases, as ``chess.gaviota`` (python-chess 1.11) offers them.

Gaviota tables hold the depth to mate (DTM) of every position of up to five pieces without
castling rights, in ``*.gtb.cp4`` files. The prober is the Rust crate ``pychess-gaviota``:
tables are opened on the first probe that needs them, blocks are decompressed once and
cached, probes release the GIL, and one tablebase may be shared between threads::

    import pychess_rs as chess
    import pychess_rs.gaviota

    with chess.gaviota.open_tablebase("data/gaviota") as tablebase:
        board = chess.Board("8/8/8/8/8/8/8/K2kr3 w - - 0 1")
        print(tablebase.probe_dtm(board))  # -10: White is mated in 10 plies
        print(tablebase.probe_wdl(board))  # -1

The answers are those of python-chess's pure-Python ``PythonTablebase``. python-chess can also
probe through the C library libgtb (``NativeTablebase``); here both names, and both
``open_tablebase`` and ``open_tablebase_native``, are served by the same Rust prober, which
needs no shared library: ``libgtb`` and ``LibraryLoader`` are accepted and not used.

Boards may be pychess_rs boards or python-chess boards (read through their FEN).
"""

from __future__ import annotations

import ctypes
import os
from types import TracebackType

from . import _core
from ._probe_board import AnyBoard

__all__ = [
    "MissingTableError",
    "NativeTablebase",
    "PythonTablebase",
    "open_tablebase",
    "open_tablebase_native",
]

#: Raised when the tables for a position's material are not there; a :exc:`KeyError`.
MissingTableError = _core.GaviotaMissingTableError


class PythonTablebase:
    """Gaviota tables for probing (python-chess's ``PythonTablebase``): add directories with
    :meth:`add_directory`, then probe. Safe to share between threads."""

    def __init__(self) -> None:
        self._tables = _core.GaviotaTablebase()

    @property
    def available_tables(self) -> dict[str, str]:
        """The tables found, by name (``"kqk"``), with their paths; empty once closed."""
        return dict(self._tables.available_tables())

    def add_directory(self, directory: str) -> None:
        """Adds the ``*.gtb.cp4`` tables of ``directory``. They are opened on the first probe
        that needs them.

        :raises: :exc:`OSError` if ``directory`` is not a directory.
        """
        self._tables.add_directory(os.path.abspath(directory))

    def probe_dtm(self, board: AnyBoard) -> int:
        """The depth to mate in half-moves: positive if the side to move mates, negative if it
        gets mated, ``0`` in a drawn position or one where the side to move is checkmated.
        A legal en-passant capture counts as a move.

        :raises: :exc:`KeyError` (or specifically :exc:`MissingTableError`) if the position
            cannot be probed: castling rights, more than five pieces, or no table for its
            material. Use :meth:`get_dtm` to get ``None`` instead. :exc:`OSError` if a table
            file cannot be read or is corrupt.
        """
        return self._tables.probe_dtm(board)

    def get_dtm(self, board: AnyBoard, default: int | None = None) -> int | None:
        """:meth:`probe_dtm`, or ``default`` where that raises :exc:`KeyError`."""
        try:
            return self.probe_dtm(board)
        except KeyError:
            return default

    def probe_wdl(self, board: AnyBoard) -> int:
        """``1`` if the side to move wins, ``0`` for a draw, ``-1`` if it loses.

        :raises: as :meth:`probe_dtm`; :meth:`get_wdl` returns ``None`` instead of a
            :exc:`KeyError`.
        """
        return self._tables.probe_wdl(board)

    def get_wdl(self, board: AnyBoard, default: int | None = None) -> int | None:
        """:meth:`probe_wdl`, or ``default`` where that raises :exc:`KeyError`."""
        try:
            return self.probe_wdl(board)
        except KeyError:
            return default

    def close(self) -> None:
        """Forgets all tables (closing their files) and cached blocks."""
        self._tables.close()

    def __enter__(self) -> PythonTablebase:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class NativeTablebase(PythonTablebase):
    """python-chess's libgtb-backed tablebase, here the same Rust prober as
    :class:`PythonTablebase` with the same answers. ``libgtb`` is accepted and not used."""

    def __init__(self, libgtb: object = None) -> None:
        super().__init__()

    def add_directory(self, directory: str) -> None:
        """Adds the ``*.gtb.cp4`` tables of ``directory``.

        :raises: :exc:`OSError` if ``directory`` is not a directory.
        """
        if not os.path.isdir(directory):
            raise OSError(f"not a directory: {directory!r}")
        super().add_directory(directory)

    def __enter__(self) -> NativeTablebase:
        return self


def open_tablebase_native(
    directory: str,
    *,
    libgtb: str | None = None,
    LibraryLoader: ctypes.LibraryLoader[ctypes.CDLL] | None = ctypes.cdll,
) -> NativeTablebase:
    """Opens the tables of ``directory`` (python-chess's libgtb-backed opener; here the Rust
    prober, so ``libgtb`` and ``LibraryLoader`` are not used).

    :raises: :exc:`OSError` if ``directory`` is not a directory.
    """
    tables = NativeTablebase()
    tables.add_directory(directory)
    return tables


def open_tablebase(
    directory: str,
    *,
    libgtb: str | None = None,
    LibraryLoader: ctypes.LibraryLoader[ctypes.CDLL] | None = ctypes.cdll,
) -> NativeTablebase | PythonTablebase:
    """Opens the tables of ``directory`` for probing. python-chess tries libgtb first and
    falls back to pure Python; here the Rust prober serves both, and this returns a
    :class:`PythonTablebase`.

    :raises: :exc:`OSError` if ``directory`` is not a directory.
    """
    tables = PythonTablebase()
    tables.add_directory(directory)
    return tables
