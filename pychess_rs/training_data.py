"""Training data for chess networks, written in Rust from PGN games or the engine's self-play.

Three outputs, each with a reader that gives the positions back (layouts byte by byte, and
where each is specified, in ``docs/training-data.md``):

* :func:`write_nnue`: 32-byte NNUE records, bullet's ``ChessBoard`` (``format="bullet"``) or
  marlinflow's ``PackedBoard`` (``format="marlin"``): position, score, result. From PGN
  (scores from ``[%eval]`` comments, else from the built-in engine if ``engine_nodes`` or
  ``engine_depth`` is given, else 0) or from self-play at a fixed node budget after random
  opening plies, seeded and multithreaded. :func:`read_nnue` reads them back;
  :func:`filter_nnue` filters a record file after the fact; :func:`rescore_nnue` scores its
  positions again with another UCI engine (Stockfish, say).
* :func:`write_lc0`: Lc0 V6 training chunks (gzip) from PGN: history planes, the move
  played as a one-hot policy, the result. :func:`read_lc0` decodes a chunk.
* :func:`write_alphazero`: AlphaZero planes, legal-move masks, moves played and outcomes as
  ``.npy`` files in a directory (NumPy memory-maps them) or one ``.npz``;
  :func:`read_alphazero` loads either.

Every writer takes the filters trainers expect (``skip_plies``, ``skip_check``,
``skip_noisy``, ``max_score``), runs on ``threads`` threads with the GIL released, writes
games in the source's order whatever the thread count, and returns a :class:`Stats`.
``progress`` (a callable taking the :class:`Stats` so far and the fraction done, or
``None`` when unknown) is called between batches of games.

Errors: :exc:`TrainingDataError` (a :exc:`ValueError`) for bad records, sizes, options and
positions a format cannot hold; :exc:`OSError` (``FileNotFoundError``, ...) for files.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from . import _core
from ._core import Board, Move, TrainingDataError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "ALPHAZERO_FILES",
    "LC0_POLICY_SIZE",
    "LC0_RECORD_SIZE",
    "NNUE_FORMATS",
    "NNUE_RECORD_SIZE",
    "Lc0Record",
    "NnueRecord",
    "Stats",
    "TrainingDataError",
    "decode_nnue",
    "encode_nnue",
    "filter_nnue",
    "lc0_policy_index",
    "read_alphazero",
    "read_lc0",
    "read_nnue",
    "rescore_nnue",
    "write_alphazero",
    "write_lc0",
    "write_nnue",
]

#: The NNUE record layouts: bullet's ``ChessBoard``, marlinflow's ``PackedBoard``.
NNUE_FORMATS = ("bullet", "marlin")
#: Bytes in one NNUE record (either layout).
NNUE_RECORD_SIZE = 32
#: Bytes in one Lc0 ``V6TrainingData`` record.
LC0_RECORD_SIZE = 8356
#: Entries of Lc0's policy.
LC0_POLICY_SIZE = 1858
#: The arrays :func:`write_alphazero` writes, by file name.
ALPHAZERO_FILES = ("planes.npy", "legal_mask.npy", "action.npy", "outcome.npy")

_RESULTS = ("0-1", "1/2-1/2", "1-0")  # a record's result byte (0, 1, 2) as PGN writes it

PathLike = Union[str, "os.PathLike[str]"]
Progress = Callable[["Stats", "float | None"], None]


@dataclass(frozen=True)
class Stats:
    """What a run did: games, positions looked at, written, and left out (by reason)."""

    games: int = 0
    games_skipped: int = 0
    positions: int = 0
    written: int = 0
    skipped_opening: int = 0
    skipped_check: int = 0
    skipped_noisy: int = 0
    skipped_score: int = 0
    skipped_unencodable: int = 0
    scores_from_comments: int = 0
    scores_from_engine: int = 0
    bytes: int = 0
    seconds: float = 0.0
    #: A filter's run with ``children``: ``written`` counts children of ``positions`` records.
    children: bool = False

    @property
    def positions_per_second(self) -> float:
        """Positions written per second of the run."""
        return self.written / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> str:
        """One line: what was written, what was left out, how fast."""
        skipped = [
            f"{value} {f.name.removeprefix('skipped_')}"
            for f in fields(self)
            if f.name.startswith("skipped_") and (value := getattr(self, f.name))
        ]
        if self.children:
            text = f"{self.written} children of {self.positions} positions"
        elif self.games == 0 and self.positions:  # a filter's run: records, not games
            text = f"{self.written} of {self.positions} positions kept"
        else:
            text = f"{self.written} positions from {self.games - self.games_skipped} games"
        if self.games_skipped:
            text += f" ({self.games_skipped} games without a result or with errors skipped)"
        if skipped:
            text += f"; left out {', '.join(skipped)}"
        if self.scores_from_comments or self.scores_from_engine:
            text += (
                f"; scores: {self.scores_from_comments} from [%eval], "
                f"{self.scores_from_engine} from the engine"
            )
        return (
            f"{text}; {self.bytes / 1e6:.1f} MB in {self.seconds:.1f} s "
            f"({self.positions_per_second:,.0f} positions/s)"
        )


@dataclass(frozen=True)
class NnueRecord:
    """One NNUE record: the position as the record holds it, White's score, the result.

    A bullet record keeps the side to move's view: the position is White to move (a Black
    to move position comes back mirrored with colours swapped), with no castling rights, en
    passant or clocks. A marlin record keeps the whole position.
    """

    fen: str
    #: Centipawns from White's side of ``fen`` (mates are +-32000).
    score: int
    #: ``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``, from White's side of ``fen``.
    result: str
    chess960: bool = False

    def board(self) -> Board:
        """The record's position."""
        return Board(self.fen, chess960=self.chess960)


@dataclass(frozen=True)
class Lc0Record:
    """One Lc0 V6 record, decoded: the position (no en-passant square, move number 1), the
    move played, the game's result from White's side, the plies left, and the policy."""

    fen: str
    move: str | None
    result: str | None
    plies_left: float
    policy_bytes: bytes

    def policy(self) -> npt.NDArray[np.float32]:
        """The 1858 policy values (1.0 on the move played, 0.0 other legal moves, -1.0
        illegal ones); needs NumPy."""
        import numpy as np

        return np.frombuffer(self.policy_bytes, dtype="<f4")


def _check_format(format: str) -> str:
    if format not in NNUE_FORMATS:
        raise TrainingDataError(f"unknown NNUE format {format!r} (expected one of {NNUE_FORMATS})")
    return format


def _result_byte(result: str) -> int:
    try:
        return _RESULTS.index(result)
    except ValueError:
        raise TrainingDataError(f"result {result!r} is not '1-0', '0-1' or '1/2-1/2'") from None


def encode_nnue(board: Board, score: int, result: str, format: str = "bullet") -> bytes:
    """The 32-byte record of ``board`` with ``score`` (centipawns, White's side) and the
    game's ``result`` (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``).

    :raises: :exc:`TrainingDataError` for an unknown format or result, a score outside
        -32768..32767, or a position the format cannot hold (more than 32 pieces; for
        bullet, not exactly one king a side).
    """
    if not -32768 <= score <= 32767:
        raise TrainingDataError(f"score {score} does not fit 16 bits")
    return _core.training_data_encode_nnue(
        board.fen(), score, _result_byte(result), _check_format(format), chess960=board.chess960
    )


def decode_nnue(data: bytes, format: str = "bullet") -> list[NnueRecord]:
    """Every record of ``data`` (a whole number of 32-byte records).

    :raises: :exc:`TrainingDataError` for a length that is not a multiple of 32 or a record
        no writer produces (its index and what is wrong are in the message).
    """
    return [
        NnueRecord(fen, score, _RESULTS[wdl], chess960)
        for fen, chess960, score, wdl in _core.training_data_decode_nnue(
            data, _check_format(format)
        )
    ]


def read_nnue(path: PathLike, format: str = "bullet") -> list[NnueRecord]:
    """Every record of the file at ``path`` (see :func:`decode_nnue`)."""
    return decode_nnue(Path(path).read_bytes(), format)


def read_lc0(path: PathLike) -> list[Lc0Record]:
    """Every record of an Lc0 chunk file (gzip or plain V6 records, classical input).

    :raises: :exc:`TrainingDataError` for a size that is not a whole number of records, a
        version other than 6 or another input format; :exc:`OSError` for the file.
    """
    return [
        Lc0Record(fen, move, None if wdl is None else _RESULTS[wdl], plies_left, policy)
        for fen, move, wdl, plies_left, policy in _core.training_data_read_lc0(os.fspath(path))
    ]


def lc0_policy_index(board: Board, move: Move) -> int:
    """Lc0's policy index (0..1857) of the legal ``move`` in ``board``.

    :raises: :exc:`IllegalMoveError` if the move is not legal there.
    """
    return _core.training_data_lc0_policy_index(board.fen(), move.uci(), chess960=board.chess960)


def read_alphazero(path: PathLike) -> dict[str, npt.NDArray[Any]]:
    """The arrays :func:`write_alphazero` wrote, by name (``planes``, ``legal_mask``,
    ``action``, ``outcome``): memory-mapped from a directory, loaded from a ``.npz``.

    :raises: :exc:`TrainingDataError` if an array is missing or their lengths differ.
    """
    import numpy as np

    path = Path(path)
    arrays: dict[str, npt.NDArray[Any]] = {}
    if path.is_dir():
        for name in ALPHAZERO_FILES:
            file = path / name
            if not file.exists():
                raise TrainingDataError(f"{path}: {name} is missing")
            arrays[name.removesuffix(".npy")] = np.load(file, mmap_mode="r")
    else:
        with np.load(path) as npz:
            for name in ALPHAZERO_FILES:
                key = name.removesuffix(".npy")
                if key not in npz:
                    raise TrainingDataError(f"{path}: {name} is missing")
                arrays[key] = npz[key]
    lengths = {len(a) for a in arrays.values()}
    if len(lengths) != 1:
        raise TrainingDataError(f"{path}: the arrays have different lengths {sorted(lengths)}")
    return arrays


def _stats_since(counts: dict[str, int], started: float, *, children: bool = False) -> Stats:
    """The Rust core's counts of a run begun at ``started`` (``time.monotonic()``)."""
    return Stats(**counts, seconds=time.monotonic() - started, children=children)


def _run(job: Any, progress: Progress | None, total: int | None, step: int) -> Stats:
    started = time.monotonic()
    try:
        while not job.advance(step):
            if progress is not None:
                done = job.progress()
                fraction = min(done / total, 1.0) if total else None
                progress(_stats_since(job.stats(), started), fraction)
        counts = job.finish()
    finally:
        job.close()
    return _stats_since(counts, started)


def _pgn_size(path: PathLike) -> int | None:
    """The file's size when it is plain PGN (progress is measured in its bytes)."""
    with open(path, "rb") as file:
        magic = file.read(4)
    if magic[:2] == b"\x1f\x8b" or magic[:3] == b"BZh" or magic == b"\x28\xb5\x2f\xfd":
        return None
    return os.path.getsize(path)


def write_nnue(
    out: PathLike,
    *,
    pgn: PathLike | None = None,
    games: int | None = None,
    first_game: int = 0,
    append: bool = False,
    format: str = "bullet",
    nodes: int | None = 5000,
    depth: int | None = None,
    random_plies: int = 8,
    seed: int = 0,
    max_plies: int = 400,
    engine_nodes: int | None = None,
    engine_depth: int | None = None,
    skip_plies: int = 0,
    skip_check: bool = False,
    skip_noisy: bool = False,
    max_score: int | None = None,
    threads: int = 1,
    progress: Progress | None = None,
) -> Stats:
    """Writes NNUE records to ``out``: from the games of ``pgn``, or from ``games`` games of
    self-play (the engine at ``nodes`` nodes or ``depth`` plies a move, after
    ``random_plies`` random plies, game ``i`` seeded from ``seed`` and ``i``, a draw after
    ``max_plies``). ``first_game`` makes the run play games ``first_game`` to
    ``first_game + games - 1`` of the seed's sequence, and ``append`` adds the records to
    ``out`` instead of replacing it: a long run made in pieces (or resumed after the last
    piece that finished) gives the same file as one run.

    From PGN, a position's score is the ``[%eval]`` of the comment after the move that led
    to it; positions without one are searched by the engine to ``engine_nodes`` /
    ``engine_depth`` if given, else scored 0. Each written position is one before a move;
    games without a result (``*``) or with errors are skipped.

    :raises: :exc:`TrainingDataError` for options out of range, :exc:`OSError` for files.
    """
    if (pgn is None) == (games is None):
        raise TrainingDataError("give exactly one source: pgn= or games=")
    _check_format(format)
    source = "pgn" if pgn is not None else "selfplay"
    job = _core._TrainingDataJob(
        source,
        format,
        os.fspath(out),
        pgn=None if pgn is None else os.fspath(pgn),
        games=games or 0,
        first_game=first_game,
        nodes=nodes,
        depth=depth,
        random_plies=random_plies,
        seed=seed,
        max_plies=max_plies,
        engine_nodes=engine_nodes,
        engine_depth=engine_depth,
        skip_plies=skip_plies,
        skip_check=skip_check,
        skip_noisy=skip_noisy,
        max_score=max_score,
        append=append,
        threads=threads,
    )
    if pgn is not None:
        return _run(job, progress, _pgn_size(pgn), 64)
    return _run(job, progress, games, max(1, threads))


def filter_nnue(
    src: PathLike,
    out: PathLike,
    *,
    format: str = "bullet",
    skip_check: bool = False,
    skip_noisy: bool = False,
    max_score: int | None = None,
    children: int = 0,
    seed: int = 0,
    progress: Progress | None = None,
) -> Stats:
    """Copies the records of the NNUE file ``src`` that pass the filters to ``out``, byte
    for byte, in order: ``skip_check`` leaves out positions whose side to move is in check,
    ``skip_noisy`` those that are not quiet, ``max_score`` those scored above it (in either
    direction). A record holds no best move, so "not quiet" is the engine's own test: the
    side to move has a capture or promotion that wins material by static exchange (the
    writers' ``skip_noisy`` asks instead whether the searched best move is one). The
    returned :class:`Stats` counts records read (``positions``), ``written`` and left out.

    ``children=K`` writes, in place of each record, the positions after up to ``K``
    distinct random legal moves of its position (the moves a search tries beside the one
    the game played), seeded by ``seed`` and the record's index: score 0 (score them with
    :func:`rescore_nnue`), the record's game result. ``max_score`` then applies to the
    record, ``skip_check`` and ``skip_noisy`` to each child; a child where the game is over
    (checkmate, stalemate, insufficient material) is not written.

    :raises: :exc:`TrainingDataError` for a file that is not whole records or a record no
        writer produces, :exc:`OSError` for files (``out`` may not be ``src``).
    """
    _check_format(format)
    if children < 0 or seed < 0:
        raise TrainingDataError(f"children and seed may not be negative, got {children}, {seed}")
    started = time.monotonic()
    run = _core._NnueFilter(
        os.fspath(src),
        os.fspath(out),
        format,
        skip_check=skip_check,
        skip_noisy=skip_noisy,
        max_score=max_score,
        children=children,
        seed=seed,
    )
    total = run.records()
    while not run.advance(1 << 16):
        if progress is not None:
            counts = run.stats()
            fraction = counts["positions"] / total if total else 1.0
            progress(_stats_since(counts, started, children=children > 0), fraction)
    return _stats_since(run.finish(), started, children=children > 0)


def rescore_nnue(
    src: PathLike,
    out: PathLike,
    engine: str | list[str],
    *,
    depth: int | None = None,
    nodes: int | None = None,
    threads: int = 1,
    options: dict[str, Any] | None = None,
    format: str = "bullet",
    resume: bool = False,
    progress: Progress | None = None,
) -> Stats:
    """Copies the NNUE records of ``src`` to ``out`` in order, each with its score replaced
    by a UCI engine's (``engine``: its command, e.g. ``"/usr/games/stockfish"``, or a list
    of program and arguments) search of the record's position to ``depth`` and/or
    ``nodes``; position and result are kept. ``threads`` engine processes (``options``
    set on each; ``True`` and ``False`` as ``true`` and ``false``) score blocks of records
    side by side, each driven by a thread of the Rust core, so a run scales with the cores.
    A mate scores +-32000, as the writers record it. ``resume=True`` keeps the whole
    records an earlier, interrupted run left in ``out`` and scores the rest; the returned
    :class:`Stats` count this run's records.

    Why: a record's position and its label need not come from the same engine. Positions
    from this engine's self-play scored by a stronger engine give a network a better target
    than this engine's own search (rust/engine/TUNING.md, issue 25).

    :raises: :exc:`TrainingDataError` for a record no writer produces, a missing limit, an
        option the engine does not have, or an engine that fails its handshake or exits;
        :exc:`OSError` for files (:exc:`FileNotFoundError` for an engine that is not there).
    """
    _check_format(format)
    if threads < 1:
        raise TrainingDataError(f"threads must be at least 1, got {threads}")
    if depth is None and nodes is None:
        raise TrainingDataError("rescoring needs a limit: depth, nodes or both")
    command = [engine] if isinstance(engine, str) else list(engine)
    settings = [(name, _uci_value(value)) for name, value in (options or {}).items()]
    started = time.monotonic()
    run = _core._NnueRescore(
        os.fspath(src),
        os.fspath(out),
        format,
        command,
        options=settings,
        depth=depth,
        nodes=nodes,
        processes=threads,
        resume=resume,
    )
    total, resumed = run.records(), run.resumed()
    step = 2048 * threads  # about a second of Stockfish at depth 1 for each process
    done = False
    while not done:
        done = run.advance(step)
        if progress is not None:
            counts = run.stats()
            fraction = (resumed + counts["positions"]) / total if total else 1.0
            progress(_stats_since(counts, started), fraction)
    return _stats_since(run.finish(), started)


def _uci_value(value: Any) -> str:
    """An option's value as a ``setoption`` line spells it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def write_lc0(
    pgn: PathLike,
    out_dir: PathLike,
    *,
    games_per_chunk: int = 1,
    skip_plies: int = 0,
    skip_check: bool = False,
    skip_noisy: bool = False,
    threads: int = 1,
    progress: Progress | None = None,
) -> Stats:
    """Writes Lc0 V6 training chunks (``training.<n>.gz``, ``games_per_chunk`` games each,
    one as Lc0 writes them) of the games of ``pgn`` into ``out_dir`` (created if missing).

    :raises: :exc:`TrainingDataError` for options out of range, :exc:`OSError` for files.
    """
    job = _core._TrainingDataJob(
        "pgn",
        "lc0",
        os.fspath(out_dir),
        pgn=os.fspath(pgn),
        games_per_chunk=games_per_chunk,
        skip_plies=skip_plies,
        skip_check=skip_check,
        skip_noisy=skip_noisy,
        threads=threads,
    )
    return _run(job, progress, _pgn_size(pgn), 64)


def write_alphazero(
    pgn: PathLike,
    out: PathLike,
    *,
    compress: bool = False,
    skip_plies: int = 0,
    skip_check: bool = False,
    skip_noisy: bool = False,
    threads: int = 1,
    progress: Progress | None = None,
) -> Stats:
    """Writes AlphaZero tensors of the games of ``pgn``: for each position before a move,
    the ``float32[8, 8, 119]`` planes, the ``bool[4672]`` legal-move mask, the move played
    (``int16``, the same 4,672 index) and the game's outcome for the side to move (``int8``:
    1, 0, -1). ``out`` is a directory of ``.npy`` files, or, when it ends in ``.npz``, one
    NumPy archive (deflated when ``compress``).

    :raises: :exc:`TrainingDataError` for options out of range, :exc:`OSError` for files.
    """
    out = Path(out)
    target = out
    if out.suffix == ".npz":
        target = Path(tempfile.mkdtemp(prefix=".npy-", dir=out.parent))
    try:
        job = _core._TrainingDataJob(
            "pgn",
            "alphazero",
            os.fspath(target),
            pgn=os.fspath(pgn),
            skip_plies=skip_plies,
            skip_check=skip_check,
            skip_noisy=skip_noisy,
            threads=threads,
        )
        stats = _run(job, progress, _pgn_size(pgn), 64)
        if target != out:
            method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
            with zipfile.ZipFile(out, "w", compression=method, allowZip64=True) as archive:
                for name in ALPHAZERO_FILES:
                    archive.write(target / name, arcname=name)
    finally:
        if target != out:
            shutil.rmtree(target, ignore_errors=True)
    return stats
