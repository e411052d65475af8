"""What the workloads run on: the perft positions and their node counts, the seeds, the sizes
of a full and a ``--quick`` run, and the :class:`Context` handed to every section."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .peers import Impl

STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PERFT_COUNTS = {
    STARTPOS: (1, 20, 400, 8902, 197281, 4865609, 119060324),
    KIWIPETE: (1, 48, 2039, 97862, 4085603, 193690690),
}
POSITION_NAMES = {STARTPOS: "startpos", KIWIPETE: "Kiwipete"}

GAMES_SEED = 20240611
FENS_SEED = 20240612
MAX_PLIES = 300


@dataclass(frozen=True)
class Sizes:
    native_perft: tuple[tuple[str, int], ...]
    python_perft: tuple[tuple[str, int], ...]
    games: int
    fens: int
    pgn_games: int
    repeat: int
    # Depth of the engine's fixed bench positions (`pychess-rs bench`) and of Stockfish's own
    # `bench` (its default position set), for the search-speed workload.
    search_depth: int
    stockfish_bench_depth: int


FULL = Sizes(
    native_perft=((STARTPOS, 6), (KIWIPETE, 5)),
    python_perft=((STARTPOS, 4), (KIWIPETE, 3)),
    games=300,
    fens=2000,
    pgn_games=2000,
    repeat=3,
    search_depth=10,
    stockfish_bench_depth=13,
)
QUICK = Sizes(
    native_perft=((STARTPOS, 5), (KIWIPETE, 4)),
    python_perft=((STARTPOS, 3), (KIWIPETE, 2)),
    games=30,
    fens=200,
    pgn_games=300,
    repeat=1,
    search_depth=7,
    stockfish_bench_depth=9,
)


@dataclass
class Context:
    """One run's settings, and what the sections report back (the versions line)."""

    sizes: Sizes
    repeat: int
    quick: bool = False
    #: Repeat count the user gave (``--repeat``), None for each section's default.
    repeat_given: int | None = None
    time_wrong: bool = False
    stockfish: str | None = None  # the Stockfish binary, if found
    impls: list[Impl] = field(default_factory=list)  # the Python-level implementations
    versions: list[str] = field(default_factory=list)  # "name version" of each one timed
