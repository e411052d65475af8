#!/usr/bin/env python3
"""Benchmark pychess-rs against Stockfish and against python-chess and its peers.

This is a benchmark, not a test: it prints a table and exits 0 unless it could not run at all.
Run it from an environment where pychess-rs is installed (``tools/test`` builds one in
``.venv``; ``.venv/bin/python tools/bench.py``).

Workloads (``--only`` takes these names):

native-perft
    ``pychess_rs.Board(fen).perft(depth)`` on the start position (depth 6) and Kiwipete
    (depth 5), single thread, against Stockfish's ``go perft`` on the same positions with
    ``Threads 1`` (wall clock around the whole ``go perft``, after ``isready``). Skipped with
    a note when no Stockfish binary is found. Ratio: our nodes/s over Stockfish's.
python-perft
    Perft through each library's Python API, no bulk counting: ``for m in
    list(board.legal_moves): board.push(m); recurse; board.pop()`` down to depth 0 (start
    position depth 4, Kiwipete depth 3). Libraries without ``pop()`` copy the board instead.
random-games
    300 games of at most 300 plies. The games are drawn once with python-chess from a fixed
    seed (uniform choice among the legal moves, stopping when ``is_game_over()``), so every
    library replays the same games. At every ply (and the final position) each library lists
    the legal moves and evaluates checkmate, stalemate, insufficient material, the 75-move
    rule and fivefold repetition, then plays the game's next move (converted to the
    library's move type before timing). Libraries without one of these rules get it
    emulated in Python on top of their own primitives (noted in the table).
fen-legal
    2000 FENs collected from python-chess random games with a fixed seed; each is parsed
    into a board and its legal moves are counted.
pgn
    Reading a PGN corpus (the non-variant files of ``tests/data/pgn/``, engine games and
    python-chess's test games with comments and variations, repeated to 2000 games), timed
    from the path to the last game: python-chess's ``chess.pgn.read_game`` loop, pychess-rs's
    ``pychess_rs.pgn.read_game`` loop when it exists, the bulk reader
    ``pychess_rs.pgn.read_games`` on 1 thread and on all cores, and PGN-reading peers from
    PyPI when installed (``iron-pgn-parser``, ``esca``, both for Python >= 3.13 only; noted
    when not). Each counts games and mainline plies, which must match python-chess's; a peer,
    reading by its own rules, is checked against its own count, which its note gives. Rates
    are games/s and MB/s; ratios are python-chess's time over the implementation's.
env
    ``pychess_rs.env`` and ``pychess_rs.batch`` against PettingZoo's ``chess_v6``, rust-chess's
    ``BoardBatch`` and pgx (``tools/bench_env.py`` documents the rows; ratios there are over
    PettingZoo's plies/s).
micro
    Everyday calls (attribute reads, queries, notation, copies, equality, hashing), python-chess
    and pychess-rs interleaved on the same position: ``tools/bench_micro.py``, whose table is
    printed after the main one.

Every result is checked against python-chess (node counts, the sum of legal-move counts and
the count of each game-end flag); an implementation whose result differs is reported as
"wrong result" and not timed. Times are the best of ``--repeat`` runs (3, or 1 with
``--quick``), measured with ``time.perf_counter``. Ratios for the Python workloads are
python-chess's time over the implementation's time (higher is faster).
"""

from __future__ import annotations

import abc
import argparse
import functools
import gc
import importlib
import importlib.metadata
import os
import platform
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

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
WORKLOADS = (
    "native-perft",
    "search-speed",
    "python-perft",
    "random-games",
    "fen-legal",
    "pgn",
    "micro",
    "encode",
    # Batched games and the RL environment against PettingZoo, rust-chess and pgx.
    "env",
)


@dataclass(frozen=True)
class Sizes:
    native_perft: tuple[tuple[str, int], ...]
    python_perft: tuple[tuple[str, int], ...]
    games: int
    fens: int
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
    repeat=3,
    search_depth=10,
    stockfish_bench_depth=13,
)
QUICK = Sizes(
    native_perft=((STARTPOS, 5), (KIWIPETE, 4)),
    python_perft=((STARTPOS, 3), (KIWIPETE, 2)),
    games=30,
    fens=200,
    repeat=1,
    search_depth=7,
    stockfish_bench_depth=9,
)


# --------------------------------------------------------------------------------------------
# Results and output
# --------------------------------------------------------------------------------------------


@dataclass
class Row:
    workload: str
    impl: str
    seconds: float | None = None  # best time; None when not timed
    units: float = 0.0  # work done per run (nodes, plies, FENs)
    unit: str = ""
    ratio: float | None = None
    ratio_ref: str = ""
    note: str = ""

    @property
    def rate(self) -> float | None:
        if self.seconds is None or self.seconds <= 0:
            return None
        return self.units / self.seconds


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def fmt_rate(rate: float | None, unit: str) -> str:
    if rate is None:
        return ""
    for factor, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if rate >= factor:
            return f"{rate / factor:.2f} {prefix}{unit}/s"
    return f"{rate:.1f} {unit}/s"


def fmt_seconds(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


def fmt_ratio(row: Row) -> str:
    if row.ratio is None:
        return ""
    return f"{row.ratio:.2f}x {row.ratio_ref}".rstrip()


def render_table(rows: Sequence[Row], markdown: bool) -> str:
    header = ("Workload", "Implementation", "Time", "Rate", "Ratio", "Note")
    cells = [
        (r.workload, r.impl, fmt_seconds(r.seconds), fmt_rate(r.rate, r.unit), fmt_ratio(r), r.note)
        for r in rows
    ]
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        right = {2, 3, 4}
        lines[1] = "|" + "|".join("---:" if i in right else "---" for i in range(len(header))) + "|"
        for c in cells:
            lines.append("| " + " | ".join(x.replace("|", "\\|") for x in c) + " |")
        return "\n".join(lines)
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(header)]
    sep = "  "
    out = [sep.join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
    out.append(sep.join("-" * w for w in widths))
    for c in cells:
        out.append(
            sep.join(
                x.rjust(w) if i in (2, 3, 4) else x.ljust(w)
                for i, (x, w) in enumerate(zip(c, widths))
            ).rstrip()
        )
    return "\n".join(out)


TIME_WRONG = False  # --time-wrong: time implementations whose result differs, too


def best_of(
    run: Callable[[], Any], repeat: int, expected: Any, label: str
) -> tuple[float | None, str]:
    """Time ``run`` ``repeat`` times; return (best seconds, note). Checks the result each run."""
    best: float | None = None
    note = ""
    for i in range(repeat):
        gc.collect()
        start = time.perf_counter()
        try:
            result = run()
        except Exception as exc:  # a peer's bug is a result, not a crash of the benchmark
            message = f"{type(exc).__name__}: {exc}".replace("\n", " ")
            log(f"    {label}: error: {message[:200]}")
            return None, f"error: {message[:80]}"
        elapsed = time.perf_counter() - start
        if result != expected:
            log(f"    {label}: WRONG RESULT: got {result!r}, expected {expected!r}")
            note = f"wrong result (got {result!r}, expected {expected!r})"
            if not TIME_WRONG:
                return None, note
        log(f"    {label}: run {i + 1}/{repeat}: {fmt_seconds(elapsed)}")
        best = elapsed if best is None else min(best, elapsed)
    return best, note


# --------------------------------------------------------------------------------------------
# Inputs, drawn with python-chess from fixed seeds
# --------------------------------------------------------------------------------------------


@dataclass
class GameScripts:
    """Random games: per game the moves in standard UCI and in king-takes-rook UCI."""

    uci: list[list[str]] = field(default_factory=list)
    uci960: list[list[str]] = field(default_factory=list)
    expected: tuple[int, ...] = ()


def game_checksum_fields() -> str:
    return "(games, plies, legal moves, mates, stalemates, insufficient, 75-move, fivefold)"


def make_games(chess: Any, n_games: int, seed: int) -> GameScripts:
    rng = random.Random(seed)
    scripts = GameScripts()
    plies = legal = mate = stale = insuff = seventy = five = 0
    for _ in range(n_games):
        board = chess.Board()
        uci: list[str] = []
        uci960: list[str] = []
        while True:
            moves = list(board.legal_moves)
            legal += len(moves)
            flags = (
                board.is_checkmate(),
                board.is_stalemate(),
                board.is_insufficient_material(),
                board.is_seventyfive_moves(),
                board.is_fivefold_repetition(),
            )
            mate += flags[0]
            stale += flags[1]
            insuff += flags[2]
            seventy += flags[3]
            five += flags[4]
            if any(flags) or len(uci) >= MAX_PLIES:
                break
            move = rng.choice(moves)
            uci.append(move.uci())
            uci960.append(board.uci(move, chess960=True))
            board.push(move)
            plies += 1
        scripts.uci.append(uci)
        scripts.uci960.append(uci960)
    scripts.expected = (n_games, plies, legal, mate, stale, insuff, seventy, five)
    return scripts


def make_fens(chess: Any, count: int, seed: int) -> tuple[list[str], int]:
    """``count`` FENs sampled every few plies from random games; and their legal-move total.

    Positions whose halfmove clock is past 100 are skipped: cozy-chess rejects those FENs.
    """
    rng = random.Random(seed)
    fens: list[str] = []
    total = 0
    while len(fens) < count:
        board = chess.Board()
        for ply in range(MAX_PLIES):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
            if ply % 5 == 2 and board.halfmove_clock <= 100:
                fens.append(board.fen())
                total += board.legal_moves.count()
                if len(fens) == count:
                    break
    return fens, total


# --------------------------------------------------------------------------------------------
# Adapters: one object per implementation, one method pair per workload
# --------------------------------------------------------------------------------------------

BB_LIGHT = 0x55AA55AA55AA55AA
BB_DARK = 0xAA55AA55AA55AA55


def insufficient_from_bitboards(
    white: int, black: int, pawns: int, knights: int, bishops: int, rooks: int, queens: int
) -> bool:
    """python-chess's ``is_insufficient_material`` on plain integer bitboards."""
    if pawns or rooks or queens:
        return False
    # only kings, knights and bishops remain
    for own, other in ((white, black), (black, white)):
        if own & knights:
            if bin(own).count("1") > 2 or (other & ~queens & (knights | bishops)):
                return False
        elif own & bishops:
            same_colour = not (bishops & BB_DARK) or not (bishops & BB_LIGHT)
            if not (same_colour and not knights):
                return False
    return True


class Adapter(abc.ABC):
    """One implementation's way of doing each workload.

    Each ``*_setup`` method does the untimed preparation and returns the timed callable.
    """

    notes: ClassVar[dict[str, str]] = {}  # workload key -> how this adapter differs

    def __init__(self, module: Any) -> None:
        self.m = module

    @abc.abstractmethod
    def perft_setup(self, fen: str, depth: int) -> Callable[[], int]: ...

    def native_perft_setup(self, fen: str, depth: int) -> Callable[[], int] | None:
        return None

    @abc.abstractmethod
    def games_setup(self, scripts: GameScripts) -> Callable[[], tuple[int, ...]]: ...

    @abc.abstractmethod
    def fens_setup(self, fens: list[str]) -> Callable[[], int]: ...


class PythonChessLike(Adapter):
    """python-chess's own API: python-chess, pychess-rs, pyrust-chess."""

    def perft_setup(self, fen: str, depth: int) -> Callable[[], int]:
        board_type = self.m.Board

        def perft(board: Any, depth: int) -> int:
            if depth == 0:
                return 1
            nodes = 0
            for move in list(board.legal_moves):
                board.push(move)
                nodes += perft(board, depth - 1)
                board.pop()
            return nodes

        return lambda: perft(board_type(fen), depth)

    def native_perft_setup(self, fen: str, depth: int) -> Callable[[], int] | None:
        board = self.m.Board(fen)
        if not hasattr(board, "perft"):
            return None
        return lambda: board.perft(depth)

    def games_setup(self, scripts: GameScripts) -> Callable[[], tuple[int, ...]]:
        board_type = self.m.Board
        from_uci = self.m.Move.from_uci
        games = [[from_uci(u) for u in game] for game in scripts.uci]

        def run() -> tuple[int, ...]:
            plies = legal = mate = stale = insuff = seventy = five = 0
            for game in games:
                board = board_type()
                for move in [*game, None]:
                    legal += len(list(board.legal_moves))
                    mate += board.is_checkmate()
                    stale += board.is_stalemate()
                    insuff += board.is_insufficient_material()
                    seventy += board.is_seventyfive_moves()
                    five += board.is_fivefold_repetition()
                    if move is None:
                        break
                    board.push(move)
                    plies += 1
            return (len(games), plies, legal, mate, stale, insuff, seventy, five)

        return run

    def fens_setup(self, fens: list[str]) -> Callable[[], int]:
        board_type = self.m.Board

        def run() -> int:
            total = 0
            for fen in fens:
                total += board_type(fen).legal_moves.count()
            return total

        return run


class CozyChess(Adapter):
    """cozy-chess-py: copy-make boards, no undo, no game history."""

    notes: ClassVar[dict[str, str]] = {
        "random-games": "insufficient material, 75-move and fivefold emulated in Python",
        "python-perft": "copy-make (no pop)",
    }

    def perft_setup(self, fen: str, depth: int) -> Callable[[], int]:
        board_type = self.m.Board

        def perft(board: Any, depth: int) -> int:
            if depth == 0:
                return 1
            nodes = 0
            for move in board.generate_moves():
                child = board.__copy__()
                child.play_unchecked(move)
                nodes += perft(child, depth - 1)
            return nodes

        return lambda: perft(board_type.from_fen(fen), depth)

    def games_setup(self, scripts: GameScripts) -> Callable[[], tuple[int, ...]]:
        cc = self.m
        # cozy-chess encodes castling as king-takes-rook, as python-chess's chess960 UCI does.
        games = [[cc.Move.from_str(u) for u in game] for game in scripts.uci960]
        pawn, knight, bishop, rook, queen = (
            cc.Piece.Pawn,
            cc.Piece.Knight,
            cc.Piece.Bishop,
            cc.Piece.Rook,
            cc.Piece.Queen,
        )
        white, black = cc.Color.White, cc.Color.Black
        rank6, rank3 = cc.Rank.Sixth, cc.Rank.Third
        new_square = cc.Square.new

        def insufficient(board: Any) -> bool:
            if board.pieces(pawn) or board.pieces(rook) or board.pieces(queen):
                return False
            return insufficient_from_bitboards(
                int(board.colors(white)),
                int(board.colors(black)),
                0,
                int(board.pieces(knight)),
                int(board.pieces(bishop)),
                0,
                0,
            )

        def run() -> tuple[int, ...]:
            plies = legal = mate = stale = insuff = seventy = five = 0
            for game in games:
                board = cc.Board()
                seen: dict[int, int] = {}
                for move in [*game, None]:
                    moves = board.generate_moves()
                    n = len(moves)
                    legal += n
                    in_check = bool(board.checkers())
                    mate += n == 0 and in_check
                    stale += n == 0 and not in_check
                    insuff += insufficient(board)
                    seventy += board.halfmove_clock >= 150 and n > 0
                    # python-chess keys repetitions on the en-passant square only when an
                    # en-passant capture is legal.
                    ep_file = board.en_passant()
                    key = board.hash_without_ep()
                    if ep_file is not None:
                        rank = rank6 if board.side_to_move() == white else rank3
                        target = new_square(ep_file, rank)
                        if any(
                            m.to_square == target and board.piece_on(m.from_square) == pawn
                            for m in moves
                        ):
                            key = board.hash()
                    count = seen.get(key, 0) + 1
                    seen[key] = count
                    five += count >= 5
                    if move is None:
                        break
                    board.play_unchecked(move)
                    plies += 1
            return (len(games), plies, legal, mate, stale, insuff, seventy, five)

        return run

    def fens_setup(self, fens: list[str]) -> Callable[[], int]:
        from_fen = self.m.Board.from_fen

        def run() -> int:
            total = 0
            for fen in fens:
                total += len(from_fen(fen).generate_moves())
            return total

        return run


class RustChess(Adapter):
    """rust-chess: in-place ``make_move`` plus copying ``make_move_new``; no undo."""

    notes: ClassVar[dict[str, str]] = {"python-perft": "copy-make (make_move_new, no pop)"}

    def perft_setup(self, fen: str, depth: int) -> Callable[[], int]:
        board_type = self.m.Board

        def perft(board: Any, depth: int) -> int:
            if depth == 0:
                return 1
            nodes = 0
            for move in list(board.generate_legal_moves()):
                nodes += perft(board.make_move_new(move, False), depth - 1)
            return nodes

        return lambda: perft(board_type(fen), depth)

    def games_setup(self, scripts: GameScripts) -> Callable[[], tuple[int, ...]]:
        rc = self.m
        games = [[rc.Move.from_uci(u) for u in game] for game in scripts.uci]

        def run() -> tuple[int, ...]:
            plies = legal = mate = stale = insuff = seventy = five = 0
            for game in games:
                board = rc.Board()
                for move in [*game, None]:
                    # the move generator is stateful; make_move (and a new board) restart it
                    legal += len(list(board.generate_legal_moves()))
                    mate += board.is_checkmate()
                    stale += board.is_stalemate()
                    insuff += board.is_insufficient_material()
                    seventy += board.is_seventy_five_moves()
                    five += board.is_fivefold_repetition()
                    if move is None:
                        break
                    board.make_move(move, False)
                    plies += 1
            return (len(games), plies, legal, mate, stale, insuff, seventy, five)

        return run

    def fens_setup(self, fens: list[str]) -> Callable[[], int]:
        board_type = self.m.Board

        def run() -> int:
            total = 0
            for fen in fens:
                total += len(board_type(fen).generate_legal_moves())
            return total

        return run


class FastChess(Adapter):
    """fastchess: moves are UCI strings; copy + ``push_uci``; few rules beyond ``is_check``."""

    notes: ClassVar[dict[str, str]] = {
        "random-games": "stalemate, mate, insufficient material, 75-move and fivefold "
        "emulated in Python",
        "python-perft": "copy-make (no pop), moves as UCI strings",
    }

    def perft_setup(self, fen: str, depth: int) -> Callable[[], int]:
        board_type = self.m.Board

        def perft(board: Any, depth: int) -> int:
            if depth == 0:
                return 1
            nodes = 0
            for move in board.legal_moves_uci():
                child = board.copy()
                child.push_uci(move)
                nodes += perft(child, depth - 1)
            return nodes

        return lambda: perft(board_type(fen), depth)

    def games_setup(self, scripts: GameScripts) -> Callable[[], tuple[int, ...]]:
        board_type = self.m.Board
        games = scripts.uci

        def insufficient(placement: str) -> bool:
            if any(c in placement for c in "PpRrQq"):
                return False
            white = black = knights = bishops = 0
            square = 56
            for c in placement:
                if c == "/":
                    square -= 16
                elif c.isdigit():
                    square += int(c)
                else:
                    bit = 1 << square
                    if c.isupper():
                        white |= bit
                    else:
                        black |= bit
                    if c in "Nn":
                        knights |= bit
                    elif c in "Bb":
                        bishops |= bit
                    square += 1
            return insufficient_from_bitboards(white, black, 0, knights, bishops, 0, 0)

        def run() -> tuple[int, ...]:
            plies = legal = mate = stale = insuff = seventy = five = 0
            for game in games:
                board = board_type()
                seen: dict[str, int] = {}
                for move in [*game, None]:
                    n = len(board.legal_moves_uci())
                    legal += n
                    in_check = board.is_check()
                    mate += n == 0 and in_check
                    stale += n == 0 and not in_check
                    fields = board.fen().split(" ")
                    insuff += insufficient(fields[0])
                    seventy += int(fields[4]) >= 150 and n > 0
                    if fields[3] != "-" and not board.has_legal_en_passant():
                        fields[3] = "-"
                    key = " ".join(fields[:4])
                    count = seen.get(key, 0) + 1
                    seen[key] = count
                    five += count >= 5
                    if move is None:
                        break
                    board.push_uci(move)
                    plies += 1
            return (len(games), plies, legal, mate, stale, insuff, seventy, five)

        return run

    def fens_setup(self, fens: list[str]) -> Callable[[], int]:
        board_type = self.m.Board

        def run() -> int:
            total = 0
            for fen in fens:
                total += len(board_type(fen).legal_moves_uci())
            return total

        return run


@dataclass
class Impl:
    name: str  # as shown in the table
    module: str  # import name
    dist: str  # distribution name on PyPI, for the version
    adapter_type: type[Adapter]
    adapter: Adapter | None = None
    status: str = ""  # why it is unavailable, if it is
    version: str = ""


def load_impls() -> list[Impl]:
    impls = [
        Impl("python-chess", "chess", "chess", PythonChessLike),
        Impl("pychess-rs", "pychess_rs", "pychess-rs", PythonChessLike),
        Impl("cozy-chess-py", "cozy_chess", "cozy-chess-py", CozyChess),
        Impl("rust-chess", "rust_chess", "rust-chess", RustChess),
        Impl("pyrust-chess", "pyrust_chess", "pyrust-chess", PythonChessLike),
        Impl("fastchess", "fastchess", "fastchess", FastChess),
    ]
    for impl in impls:
        try:
            module = importlib.import_module(impl.module)
        except ModuleNotFoundError as exc:
            impl.status = "not installed" if exc.name == impl.module else f"import failed: {exc}"
        except Exception as exc:  # an extension that fails to load is "not importable"
            impl.status = f"import failed: {type(exc).__name__}: {exc}"
        else:
            impl.adapter = impl.adapter_type(module)
            try:
                impl.version = importlib.metadata.version(impl.dist)
            except importlib.metadata.PackageNotFoundError:
                impl.version = getattr(module, "__version__", "?")
        if impl.status:
            log(f"  {impl.name}: {impl.status}")
    return impls


# --------------------------------------------------------------------------------------------
# Stockfish over UCI
# --------------------------------------------------------------------------------------------


class Stockfish:
    """A Stockfish process spoken to over UCI, for ``go perft``."""

    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.name = ""
        self.send("uci")
        for line in self.read_until("uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name ") :]
        self.send("setoption name Threads value 1")
        self.sync()

    def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"stockfish exited while we waited for {prefix!r}")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def sync(self) -> None:
        self.send("isready")
        self.read_until("readyok")

    def perft(self, fen: str, depth: int) -> tuple[int, float]:
        """``go perft depth`` on ``fen``: (nodes, seconds from the command to the total)."""
        self.send(f"position fen {fen}")
        self.sync()
        start = time.perf_counter()
        self.send(f"go perft {depth}")
        last = self.read_until("Nodes searched:")[-1]
        elapsed = time.perf_counter() - start
        return int(last.split(":")[1]), elapsed

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def stockfish_bench(path: str, depth: int) -> tuple[int, float]:
    """Stockfish's own ``bench`` (16 MB hash, one thread, its default positions) to ``depth``:
    (nodes, seconds as Stockfish reports them)."""
    done = subprocess.run(
        [path, "bench", "16", "1", str(depth), "default", "depth"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    report = {}
    for line in (done.stderr + done.stdout).splitlines():
        key, sep, value = line.partition(":")
        if sep:
            report[key.strip()] = value.strip()
    return int(report["Nodes searched"]), int(report["Total time (ms)"]) / 1000


def find_stockfish(explicit: str | None) -> str | None:
    if explicit:
        return explicit
    found = shutil.which("stockfish")
    if found:
        return found
    if os.access("/usr/games/stockfish", os.X_OK):
        return "/usr/games/stockfish"
    return None


# --------------------------------------------------------------------------------------------
# Workloads
# --------------------------------------------------------------------------------------------


def bench_native_perft(
    impls: list[Impl],
    sizes: Sizes,
    repeat: int,
    stockfish_path: str | None,
    versions: list[str],
) -> list[Row]:
    rows: list[Row] = []
    ours = next(i for i in impls if i.name == "pychess-rs")
    stockfish: Stockfish | None = None
    sf_note = ""
    if stockfish_path is None:
        sf_note = "stockfish not found (apt-get install stockfish)"
    else:
        try:
            stockfish = Stockfish(stockfish_path)
            log(f"  stockfish: {stockfish.name} ({stockfish_path})")
            versions.append(stockfish.name)
        except Exception as exc:
            sf_note = f"stockfish failed to start: {exc}"
    try:
        for fen, depth in sizes.native_perft:
            workload = f"native perft {POSITION_NAMES[fen]} d{depth}"
            nodes = PERFT_COUNTS[fen][depth]
            log(f"[{workload}] {nodes:,} nodes")
            sf_row = Row(workload, "stockfish", units=nodes, unit="nodes")
            if stockfish is None:
                sf_row.note = sf_note
            else:
                best: float | None = None
                for i in range(repeat):
                    result, elapsed = stockfish.perft(fen, depth)
                    if result != nodes:
                        sf_row.note = f"wrong result (got {result}, expected {nodes})"
                        best = None
                        break
                    log(f"    stockfish: run {i + 1}/{repeat}: {fmt_seconds(elapsed)}")
                    best = elapsed if best is None else min(best, elapsed)
                sf_row.seconds = best
                if best is not None:
                    sf_row.ratio, sf_row.ratio_ref = 1.0, "(ref)"
            row = Row(workload, "pychess-rs", units=nodes, unit="nodes")
            runner = ours.adapter.native_perft_setup(fen, depth) if ours.adapter else None
            if ours.adapter is None:
                row.note = ours.status
            elif runner is None:
                row.note = "Board.perft missing"
            else:
                row.seconds, row.note = best_of(runner, repeat, nodes, "pychess-rs")
            if row.seconds and sf_row.seconds:
                row.ratio, row.ratio_ref = sf_row.seconds / row.seconds, "vs stockfish"
            rows += [row, sf_row]
    finally:
        if stockfish is not None:
            stockfish.close()
    return rows


def bench_search_speed(
    sizes: Sizes, repeat: int, stockfish_path: str | None, versions: list[str]
) -> list[Row]:
    """Nodes per second of a fixed-depth search over fixed positions, one thread: our
    engine's bench set beside Stockfish's (different engines and positions, so the ratio
    compares speed of search, not strength)."""
    from pychess_rs import _core

    depth = sizes.search_depth
    workload = f"search speed (bench d{depth}, 1 thread)"
    log(f"[{workload}]")
    ours = Row(workload, "pychess-rs", unit="nodes")
    for i in range(repeat):
        nodes, seconds, _ = _core.bench(depth)
        log(f"    pychess-rs: run {i + 1}/{repeat}: {nodes:,} nodes in {fmt_seconds(seconds)}")
        if ours.seconds is None or seconds < ours.seconds:
            ours.seconds, ours.units = seconds, float(nodes)
    ours.note = f"{int(ours.units):,} nodes (the bench signature)"
    reference = Row(workload, "stockfish", unit="nodes")
    if stockfish_path is None:
        reference.note = "stockfish not found (apt-get install stockfish)"
    else:
        sf_depth = sizes.stockfish_bench_depth
        try:
            for i in range(repeat):
                nodes, seconds = stockfish_bench(stockfish_path, sf_depth)
                took = fmt_seconds(seconds)
                log(f"    stockfish: run {i + 1}/{repeat}: {nodes:,} nodes in {took}")
                if reference.seconds is None or seconds < reference.seconds:
                    reference.seconds, reference.units = seconds, float(nodes)
            reference.ratio, reference.ratio_ref = 1.0, "(ref)"
            reference.note = f"its own bench, depth {sf_depth}"
        except (OSError, subprocess.SubprocessError, KeyError, ValueError) as exc:
            reference.note = f"stockfish bench failed: {exc}"
    if ours.rate and reference.rate:
        ours.ratio, ours.ratio_ref = ours.rate / reference.rate, "nps vs stockfish"
    return [ours, reference]


def run_python_workload(
    impls: list[Impl],
    workload: str,
    key: str,
    setup: Callable[[Adapter], Callable[[], Any]],
    expected: Any,
    units: float,
    unit: str,
    repeat: int,
) -> list[Row]:
    log(f"[{workload}]")
    rows: list[Row] = []
    ref_seconds: float | None = None
    for impl in impls:
        row = Row(workload, impl.name, units=units, unit=unit)
        rows.append(row)
        if impl.adapter is None:
            row.note = impl.status
            continue
        try:
            runner = setup(impl.adapter)
        except Exception as exc:
            row.note = f"setup failed: {type(exc).__name__}: {exc}"[:100]
            log(f"    {impl.name}: {row.note}")
            continue
        row.seconds, row.note = best_of(runner, repeat, expected, impl.name)
        if row.seconds is not None and not row.note:
            row.note = impl.adapter.notes.get(key, "")
            if impl.name == "python-chess":
                ref_seconds = row.seconds
    for row in rows:
        if row.seconds is not None and ref_seconds is not None:
            row.ratio = ref_seconds / row.seconds
            row.ratio_ref = "(ref)" if row.impl == "python-chess" else ""
    return rows


def bench_python_perft(impls: list[Impl], sizes: Sizes, repeat: int) -> list[Row]:
    rows: list[Row] = []
    for fen, depth in sizes.python_perft:
        nodes = PERFT_COUNTS[fen][depth]
        workload = f"python perft {POSITION_NAMES[fen]} d{depth}"

        rows += run_python_workload(
            impls,
            workload,
            "python-perft",
            lambda adapter, fen=fen, depth=depth: adapter.perft_setup(fen, depth),
            nodes,
            nodes,
            "nodes",
            repeat,
        )
    return rows


def bench_random_games(impls: list[Impl], chess: Any, sizes: Sizes, repeat: int) -> list[Row]:
    start = time.perf_counter()
    scripts = make_games(chess, sizes.games, GAMES_SEED)
    log(
        f"  drew {sizes.games} games with python-chess in {time.perf_counter() - start:.1f} s; "
        f"expected {game_checksum_fields()} = {scripts.expected}"
    )
    plies = scripts.expected[1]
    workload = f"random games ({sizes.games} x <={MAX_PLIES} plies)"
    return run_python_workload(
        impls,
        workload,
        "random-games",
        lambda adapter: adapter.games_setup(scripts),
        scripts.expected,
        plies,
        "plies",
        repeat,
    )


def bench_fens(impls: list[Impl], chess: Any, sizes: Sizes, repeat: int) -> list[Row]:
    fens, total = make_fens(chess, sizes.fens, FENS_SEED)
    log(f"  collected {len(fens)} FENs; expected legal-move total {total}")
    workload = f"FEN parse + legal count ({len(fens)})"
    return run_python_workload(
        impls,
        workload,
        "fen-legal",
        lambda adapter: adapter.fens_setup(fens),
        total,
        len(fens),
        "FENs",
        repeat,
    )


# --------------------------------------------------------------------------------------------
# PGN reading
# --------------------------------------------------------------------------------------------

PGN_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "pgn")
# Variants python-chess plays and pychess-rs only reports.
PGN_VARIANT_FILES = ("antichess-programfox.pgn", "knightvuillaume-jannlee-zh-lichess.pgn",
                     "saturs-jannlee-zh-lichess.pgn")


def make_pgn_corpus(games: int) -> tuple[str, int]:
    """Writes the benchmark corpus to a temporary file; returns its path and size."""
    import tempfile

    pieces = []
    for name in sorted(os.listdir(PGN_DATA)):
        if name.endswith(".pgn") and name not in PGN_VARIANT_FILES:
            with open(os.path.join(PGN_DATA, name), encoding="utf-8-sig") as f:
                pieces.append(f.read().strip() + "\n\n")
    unit = "".join(pieces)
    per_unit = unit.count("\n[Event ") + unit.startswith("[Event ")
    text = unit * max(1, -(-games // max(per_unit, 1)))
    fd, path = tempfile.mkstemp(suffix=".pgn", prefix="pychess-rs-bench-")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path, os.path.getsize(path)


def pgn_python_chess(path: str) -> tuple[int, int]:
    import chess.pgn

    games = plies = 0
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games += 1
            plies += sum(1 for _ in game.mainline_moves())
    return games, plies


def pgn_ours_read_game(path: str) -> tuple[int, int]:
    from pychess_rs import pgn

    games = plies = 0
    with open(path, encoding="utf-8") as handle:
        while (game := pgn.read_game(handle)) is not None:  # type: ignore[attr-defined]
            games += 1
            plies += sum(1 for _ in game.mainline_moves())
    return games, plies


def pgn_bulk(path: str, threads: int) -> tuple[int, int]:
    from pychess_rs import pgn

    games = plies = 0
    for game in pgn.read_games(path, threads=threads):
        games += 1
        plies += game.ply_count
    return games, plies


def pgn_esca(path: str) -> tuple[int, int]:
    """esca's PGN reader (it raises on a game it cannot read, so bad games are skipped)."""
    import esca.pgn

    games = plies = 0
    for game in esca.pgn.read(path, skip_errors=True):
        games += 1
        plies += len(game.mainline())
    return games, plies


def pgn_iron(path: str) -> tuple[int, int]:
    """iron-pgn-parser: it tokenizes one game's text (tags, SAN tokens, no move checked), so
    the file is cut into games at blank lines before a tag here."""
    from iron_pgn_parser import native

    games = plies = 0
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for chunk in text.split("\n\n["):
        if not chunk.strip():
            continue
        native.parse_headers(chunk if chunk.startswith("[") else "[" + chunk)
        games += 1
        plies += len(native.parse_san(chunk))
    return games, plies


PGN_PEERS: dict[str, tuple[str, Callable[[str], tuple[int, int]]]] = {
    "esca": ("esca", pgn_esca),
    "iron-pgn-parser": ("iron_pgn_parser", pgn_iron),
}


def bench_pgn(sizes: Sizes, repeat: int, versions: list[str]) -> list[Row]:
    import logging

    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    n_games = 2000 if sizes is FULL else 300
    path, size = make_pgn_corpus(n_games)
    try:
        expected = pgn_python_chess(path)
        games = expected[0]
        workload = f"PGN read ({games} games, {size / 1e6:.1f} MB)"
        log(f"[{workload}] expected (games, plies) = {expected}")
        cores = os.cpu_count() or 1
        candidates: list[tuple[str, Callable[[], Any] | None, str]] = [
            ("python-chess read_game", lambda: pgn_python_chess(path), ""),
        ]
        from pychess_rs import pgn as ours

        if hasattr(ours, "read_game"):
            candidates.append(("pychess-rs read_game", lambda: pgn_ours_read_game(path), ""))
        else:
            candidates.append(("pychess-rs read_game", None, "not built yet"))
        candidates.append(("pychess-rs read_games, 1 thread", lambda: pgn_bulk(path, 1), ""))
        candidates.append(
            (f"pychess-rs read_games, {cores} threads", lambda: pgn_bulk(path, cores), "")
        )
        # Peers read by their own rules: each is timed against its own count, which the
        # note compares with python-chess's.
        own: dict[str, tuple[int, int]] = {}
        for name, (module, adapter) in PGN_PEERS.items():
            try:
                importlib.import_module(module)
                versions.append(f"{name} {importlib.metadata.version(name)}")
            except ImportError:
                candidates.append((name, None, "not installed (on PyPI for Python >= 3.13 only)"))
                continue
            try:
                own[name] = adapter(path)
            except Exception as exc:  # a peer's failure is a result
                candidates.append((name, None, f"error: {type(exc).__name__}: {exc}"[:80]))
                continue
            candidates.append((name, functools.partial(adapter, path), ""))
        rows: list[Row] = []
        ref: float | None = None
        for name, run, note in candidates:
            row = Row(workload, name, units=games, unit="games", note=note)
            rows.append(row)
            if run is None:
                continue
            row.seconds, row.note = best_of(run, repeat, own.get(name, expected), name)
            if name in own and own[name] != expected:
                row.note = f"reads {own[name][0]} games, {own[name][1]} plies; " + (
                    "skips games with null moves"
                    if name == "esca"
                    else "tokens only, no move checked"
                )
            if row.seconds is not None:
                mb_s = f"{size / 1e6 / row.seconds:.1f} MB/s"
                row.note = f"{mb_s}; {row.note}" if row.note else mb_s
                if name == "python-chess read_game":
                    ref = row.seconds
        for row in rows:
            if row.seconds is not None and ref is not None:
                row.ratio = ref / row.seconds
                row.ratio_ref = "(ref)" if row.impl == "python-chess read_game" else ""
        return rows
    finally:
        os.unlink(path)


def bench_encode(quick: bool, repeat: int) -> list[Row]:
    """Encodings per second: tools/bench_encode.py (every format, 1 and 2 threads, and
    PettingZoo chess_v6's own encoder as the reference of the ratios)."""
    try:
        import bench_encode as encodings
    except ImportError as error:  # pychess_rs.encode needs NumPy
        log(f"[encode] skipped: {error}")
        return []
    rows = []
    for r in encodings.run(quick=quick, repeat=repeat):
        row = Row(f"encode: {r.workload}", r.impl, units=r.positions, unit="positions")
        row.seconds = r.seconds if r.positions else None
        row.ratio, row.note = r.ratio, r.note
        row.ratio_ref = "(ref)" if "PettingZoo" in r.impl else ""
        rows.append(row)
    return rows


def machine_line() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical cores, Python {platform.python_version()}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Benchmark pychess-rs against Stockfish (native perft) and python-chess "
        "and its peers (Python-level workloads).",
        epilog="Workloads: " + ", ".join(WORKLOADS),
    )
    parser.add_argument("--quick", action="store_true", help="smaller sizes, one run each")
    parser.add_argument(
        "--only", action="append", choices=WORKLOADS, help="run only this workload (repeatable)"
    )
    parser.add_argument("--markdown", action="store_true", help="print the table as markdown")
    parser.add_argument("--repeat", type=int, help="runs per measurement (best is kept)")
    parser.add_argument("--stockfish", help="path of the Stockfish binary")
    parser.add_argument(
        "--time-wrong",
        action="store_true",
        help="also time implementations whose result differs from python-chess's (marked)",
    )
    args = parser.parse_args(argv)
    global TIME_WRONG
    TIME_WRONG = args.time_wrong

    sizes = QUICK if args.quick else FULL
    repeat = args.repeat or sizes.repeat
    selected = args.only or list(WORKLOADS)

    try:
        import chess
    except ImportError:
        print("bench.py needs python-chess: pip install chess==1.11.2", file=sys.stderr)
        return 2

    log(f"machine: {machine_line()}")
    impls = load_impls()
    versions = [f"{i.name} {i.version}" for i in impls if i.adapter]
    log("versions: " + ", ".join(versions))

    rows: list[Row] = []
    if "native-perft" in selected:
        stockfish = find_stockfish(args.stockfish)
        rows += bench_native_perft(impls, sizes, repeat, stockfish, versions)
    if "search-speed" in selected:
        rows += bench_search_speed(sizes, repeat, find_stockfish(args.stockfish), versions)
    if "python-perft" in selected:
        rows += bench_python_perft(impls, sizes, repeat)
    if "random-games" in selected:
        rows += bench_random_games(impls, chess, sizes, repeat)
    if "fen-legal" in selected:
        rows += bench_fens(impls, chess, sizes, repeat)
    if "pgn" in selected:
        rows += bench_pgn(sizes, repeat, versions)
    if "encode" in selected:
        rows += bench_encode(args.quick, repeat)
    if "env" in selected:
        from bench_env import bench_env

        rows += bench_env(args.quick, args.repeat)
    micro_table = None
    if "micro" in selected:
        import bench_micro  # next to this file

        log("[micro: everyday calls, interleaved]")
        micro_table = bench_micro.run(quick=args.quick, markdown=args.markdown)

    print()
    print(f"Machine: {machine_line()}")
    runs = f"best of {repeat} run{'s' if repeat > 1 else ''}"
    print(f"Versions: {', '.join(versions)}; {runs}.")
    print()
    if rows:
        print(render_table(rows, args.markdown))
    if micro_table is not None:
        print()
        print(micro_table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
