"""Workload ``variants``: the nine variants of python-chess's ``chess.variant``.

``variant python perft NAME dN``
    Perft through the Python API of each library's variant board (``for m in
    list(board.legal_moves): board.push(m); recurse; board.pop()``): pychess_rs.variant against
    python-chess's chess.variant, from the variant's starting position.
``variant playouts NAME``
    Random games drawn once with python-chess from a fixed seed (at most 200 plies each),
    replayed by each library: at every ply the legal moves are listed and counted, the game
    end is asked (``is_game_over()``), then the game's next move is played. The checksum (legal
    moves seen, plies) must be python-chess's.
``variant native perft NAME dN``
    ``VariantBoard.perft(depth)`` (bulk counting at the last ply) against Fairy-Stockfish's
    ``go perft`` after ``setoption name UCI_Variant value NAME`` and ``position startpos``,
    timed from the ``go`` command to the total. Fairy-Stockfish counts Racing Kings by other
    rules (docs/variants.md): its row then says so, and the ratio still compares the times. A
    variant its build does not list (Debian's 11.1 has no Atomic) is timed on our side only.

Ratios are python-chess's (or Fairy-Stockfish's) time over ours: higher is faster. The Python
workloads time python-chess and pychess-rs in alternating rounds (best of each), so that both
meet the same machine state.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import time
from typing import Any, Callable

from .config import Context
from .report import Row, log, set_ratios
from .timing import Candidate, Measured, best_of, interleaved

#: python-chess's uci_variant names, in its VARIANTS order.
NAMES = (
    "suicide",
    "giveaway",
    "antichess",
    "atomic",
    "kingofthehill",
    "racingkings",
    "horde",
    "3check",
    "crazyhouse",
)
#: Native perft depths (full run; --quick takes one less), about 10^6-10^7 nodes each.
NATIVE_DEPTH = {
    "suicide": 5,
    "giveaway": 5,
    "antichess": 5,
    "atomic": 5,
    "kingofthehill": 5,
    "racingkings": 5,
    "horde": 6,
    "3check": 5,
    "crazyhouse": 5,
}
#: Python-level perft depths (full run; --quick takes one less): 8,000-11,000 nodes each, and
#: Horde one deeper (its d3 has 1,274 nodes, timed in under a millisecond; d4 has 23,310).
PYTHON_DEPTH = {name: 4 if name == "horde" else 3 for name in NAMES}
PLAYOUT_SEED = 20261127
PLAYOUT_PLIES = 200


def _perft(board: Any, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += _perft(board, depth - 1)
        board.pop()
    return total


def _games(chess_variant: Any, name: str, count: int) -> list[list[str]]:
    rng = random.Random(f"{PLAYOUT_SEED}-{name}")
    games = []
    for _ in range(count):
        board = chess_variant.find_variant(name)()
        moves = []
        while len(moves) < PLAYOUT_PLIES and not board.is_game_over():
            move = rng.choice(list(board.legal_moves))
            board.push(move)
            moves.append(move.uci())
        games.append(moves)
    return games


def _playouts(cls: Any, move_class: Any, games: list[list[str]]) -> Callable[[], Any]:
    scripts = [[move_class.from_uci(uci) for uci in game] for game in games]

    def run() -> tuple[int, int]:
        seen = plies = 0
        for moves in scripts:
            board = cls()
            for move in moves:
                seen += len(list(board.legal_moves))
                board.is_game_over()
                board.push(move)
                plies += 1
            seen += len(list(board.legal_moves))
            board.is_game_over()
        return seen, plies

    return run


def find_fairy_stockfish() -> str | None:
    found = shutil.which("fairy-stockfish")
    if found:
        return found
    if os.access("/usr/games/fairy-stockfish", os.X_OK):
        return "/usr/games/fairy-stockfish"
    return None


class FairyStockfish:
    """A Fairy-Stockfish process driven line by line for ``go perft``."""

    def __init__(self, path: str) -> None:
        self.process = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.send("uci")
        self.name = "fairy-stockfish"
        #: The variants its UCI_Variant option lists (a build may lack some: Debian's 11.1
        #: has no atomic).
        self.variants: set[str] = set()
        for line in self._lines("uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name ") :]
            elif line.startswith("option name UCI_Variant "):
                words = line.split()
                self.variants = {w for v, w in zip(words, words[1:]) if v == "var"}

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def _lines(self, until: str) -> list[str]:
        assert self.process.stdout is not None
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("fairy-stockfish exited")
            line = line.strip()
            lines.append(line)
            if line.startswith(until):
                return lines

    def perft(self, variant: str, depth: int) -> Measured:
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("position startpos")
        self.send("isready")
        self._lines("readyok")
        start = time.perf_counter()
        self.send(f"go perft {depth}")
        last = self._lines("Nodes searched")[-1]
        elapsed = time.perf_counter() - start
        return Measured(int(last.split(":")[1]), elapsed)

    def close(self) -> None:
        try:
            self.send("quit")
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()
            self.process.wait()
        finally:
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    stream.close()


def _rows(
    workload: str, unit: str, units: int, candidates: list[Candidate], ctx: Context
) -> list[Row]:
    """python-chess's and our rows of one workload, timed in alternating rounds (a shared
    machine's speed changes within seconds: back-to-back runs of one side, then the other,
    could catch them in different states); ours, some 30x shorter, runs three times a round."""
    rows_here = []
    timings = interleaved(candidates, ctx.repeat, time_wrong=ctx.time_wrong, runs=[1, 3])
    for timing in timings:
        row = Row(workload, timing.label, units=units, unit=unit)
        row.seconds, row.note = timing.seconds, timing.note
        rows_here.append(row)
    set_ratios(rows_here, rows_here[0])
    return rows_here


def rows(ctx: Context) -> list[Row]:
    import chess
    import chess.variant

    from pychess_rs import Move
    from pychess_rs import variant as ours

    out: list[Row] = []
    quick = 1 if ctx.quick else 0
    games_count = 5 if ctx.quick else 20
    for name in NAMES:
        depth = PYTHON_DEPTH[name] - quick
        theirs_cls = chess.variant.find_variant(name)
        ours_cls = ours.find_variant(name)
        expected = ours_cls().perft(depth)
        workload = f"variant python perft {name} d{depth}"
        log(f"[{workload}] {expected:,} nodes")
        candidates = [
            Candidate(impl, lambda cls=cls, depth=depth: _perft(cls(), depth), expected)
            for impl, cls in (("python-chess", theirs_cls), ("pychess-rs", ours_cls))
        ]
        out += _rows(workload, "nodes", expected, candidates, ctx)

        games = _games(chess.variant, name, games_count)
        reference = _playouts(theirs_cls, chess.Move, games)
        expected_games = reference()
        workload = f"variant playouts {name} ({games_count} x <={PLAYOUT_PLIES} plies)"
        log(f"[{workload}] {expected_games[1]} plies")
        candidates = [
            Candidate("python-chess", reference, expected_games),
            Candidate("pychess-rs", _playouts(ours_cls, Move, games), expected_games),
        ]
        out += _rows(workload, "plies", expected_games[1], candidates, ctx)

    path = find_fairy_stockfish()
    engine = None
    note = "fairy-stockfish not found (apt-get install fairy-stockfish)"
    if path is not None:
        try:
            engine = FairyStockfish(path)
            ctx.versions.append(engine.name)
        except Exception as exc:
            note = f"fairy-stockfish failed to start: {exc}"
    try:
        for name in NAMES:
            depth = NATIVE_DEPTH[name] - quick
            board = ours.find_variant(name)()
            nodes = board.perft(depth)
            workload = f"variant native perft {name} d{depth}"
            log(f"[{workload}] {nodes:,} nodes")
            fsf = Row(workload, "fairy-stockfish", units=nodes, unit="nodes")
            if engine is None:
                fsf.note = note
            elif name not in engine.variants:
                fsf.note = f"{engine.name} has no {name} (UCI_Variant)"
            else:
                timing = best_of(lambda n=name, d=depth: engine.perft(n, d), ctx.repeat, "fsf")
                fsf.seconds = timing.seconds
                if timing.result is not None and timing.result != nodes:
                    fsf.note = f"counts {timing.result:,} (its rules differ)"
                    fsf.units = timing.result
                fsf.ratio, fsf.ratio_ref = 1.0, "(ref)"
            row = Row(workload, "pychess-rs", units=nodes, unit="nodes")
            timing = best_of(lambda b=board, d=depth: b.perft(d), ctx.repeat, "pychess-rs", nodes)
            row.seconds, row.note = timing.seconds, timing.note
            if row.seconds and fsf.seconds:
                row.ratio, row.ratio_ref = fsf.seconds / row.seconds, "vs fairy-stockfish"
            out += [row, fsf]
    finally:
        if engine is not None:
            engine.close()
    return out
