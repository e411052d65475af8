"""Workloads ``engine-client`` and ``analyse``: the cost of talking to an engine.

``engine-client``: the client's own time per ``analyse(board, Limit(depth=1))`` call, ours
(:class:`pychess_rs.engine.SimpleEngine`, which drives a UCI engine on the calling thread)
against python-chess's (``chess.engine.SimpleEngine``, an asyncio loop in a thread of its
own), both on the same fake UCI engine, interleaved in one process. The fake
(:data:`FAKE_ENGINE`, written to a temporary file) answers each ``go`` at once with
``info depth 1 score cp 10 pv M`` and ``bestmove M``, ``M`` a legal move of the position it was
sent, looked up in a table the bench writes beside it. What is left after the fake's own work
and the pipes is the client's overhead: the raw client (:class:`RawClient`: one ``write`` of
the ``position``/``go`` lines, blocking reads of the raw pipe up to ``bestmove``, no
parsing) measures that floor, and the table's notes subtract it from every other row. Two
rows show what the design costs: the least a client on a loop thread can do
(:class:`LoopThreadClient`, a subprocess protocol that only looks for ``bestmove``, driven
through ``asyncio.run_coroutine_threadsafe``), and our own ``SimpleEngine`` made to run on
such a loop (started with a subclass of ``UciProtocol``, as before the blocking client).
Figures, with how much they move on a shared machine: ``docs/engine-client.md``.

``analyse``: ``pychess-rs analyse`` (run in process, its table discarded) on random games at a
fixed node count per position with the built-in engine, ``--workers 1`` against ``--workers 2``:
games per second and the speed-up.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .config import Context
from .report import Row, log, set_ratios
from .timing import Candidate, Measured, interleaved

#: Positions per round of the client workload (full run, ``--quick``).
CALLS = 500
QUICK_CALLS = 100
ROUNDS = 5
#: The games of the analyse workload: how many, plies each, nodes per position.
GAMES = 200
QUICK_GAMES = 20
GAME_PLIES = 40
NODES = 2000
POSITIONS_SEED = 20240613
GAMES_SEED = 20240614

#: The fake engine: ``python FAKE MOVES.json``. Positions are keyed by the first three fields
#: of their FEN (so that how each client writes the en passant field does not matter).
FAKE_ENGINE = """\
import json, sys
MOVES = json.load(open(sys.argv[1]))
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"
key = START
out = sys.stdout
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "go":
        move = MOVES[key]
        out.write("info depth 1 score cp 10 pv " + move + "\\nbestmove " + move + "\\n")
    elif words[0] == "position":
        key = " ".join(words[2:5]) if words[1] == "fen" else START
        continue
    elif words[0] == "isready":
        out.write("readyok\\n")
    elif words[0] == "uci":
        out.write("id name Fake\\nid author pychess-rs bench\\nuciok\\n")
    elif words[0] == "quit":
        break
    else:
        continue
    out.flush()
"""


def _key(fen: str) -> str:
    return " ".join(fen.split()[:3])


def positions(count: int, seed: int = POSITIONS_SEED) -> tuple[list[str], dict[str, str]]:
    """``count`` FENs from seeded random games (each with a legal move), and the fake's table:
    each FEN's key to the first of its legal moves in UCI order that is not en passant."""
    import pychess_rs as chess

    rng = random.Random(seed)
    fens: list[str] = []
    table: dict[str, str] = {}
    while len(fens) < count:
        board = chess.Board()
        for ply in range(120):
            moves = list(board.legal_moves)
            if not moves:
                break
            if ply % 3 == 1 and _key(board.fen()) not in table:
                quiet = sorted(m.uci() for m in moves if not board.is_en_passant(m))
                if quiet:
                    fens.append(board.fen())
                    table[_key(board.fen())] = quiet[0]
                    if len(fens) == count:
                        break
            board.push(rng.choice(moves))
    return fens, table


class RawClient:
    """The floor: the fake engine driven with the fewest system calls a client can make, on
    raw pipes: one ``write`` of the ``position`` and ``go`` lines, then blocking ``read``s
    until the ``bestmove`` line (found by a byte search, the fake sending nothing else that
    holds the word). What any client must spend on the pipes and the fake itself."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin = self.process.stdin.fileno()
        self.stdout = self.process.stdout.fileno()
        self.pending = b""
        os.write(self.stdin, b"uci\n")
        self._line_after(b"uciok")

    def _line_after(self, word: bytes) -> bytes:
        """The rest of the first line that holds ``word`` (what precedes it is dropped)."""
        buffer = self.pending
        while True:
            start = buffer.find(word)
            if start >= 0:
                end = buffer.find(b"\n", start)
                if end >= 0:
                    self.pending = buffer[end + 1 :]
                    return buffer[start + len(word) : end]
            data = os.read(self.stdout, 1 << 16)
            if not data:
                raise RuntimeError("the fake engine ended")
            buffer += data

    def bestmove(self, fen: str) -> str:
        os.write(self.stdin, f"position fen {fen}\ngo depth 1\n".encode())
        return self._line_after(b"bestmove ").split()[0].decode()

    def close(self) -> None:
        with self.process:  # closes the pipes
            os.write(self.stdin, b"quit\n")
        self.process.wait(5)


class LoopThreadClient:
    """The floor of a client on an event loop in another thread: the hop between threads and
    asyncio's pipe transport, with no protocol work beyond finding ``bestmove``."""

    def __init__(self, command: list[str]) -> None:
        import asyncio
        import threading

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.waiting: asyncio.Future[str] | None = None
        self.buffer = b""

        client = self

        class _Pipe(asyncio.SubprocessProtocol):
            def pipe_data_received(self, fd: int, data: bytes) -> None:
                client.buffer += data
                while b"\n" in client.buffer:
                    line, client.buffer = client.buffer.split(b"\n", 1)
                    if line.startswith(b"bestmove") and client.waiting is not None:
                        client.waiting.set_result(line.split()[1].decode())

        async def start() -> Any:
            return await self.loop.subprocess_exec(_Pipe, *command)

        self.transport, _ = asyncio.run_coroutine_threadsafe(start(), self.loop).result()

    async def _bestmove(self, fen: str) -> str:
        self.waiting = self.loop.create_future()
        self.transport.get_pipe_transport(0).write(f"position fen {fen}\ngo depth 1\n".encode())
        return await self.waiting

    def bestmove(self, fen: str) -> str:
        import asyncio

        return asyncio.run_coroutine_threadsafe(self._bestmove(fen), self.loop).result()

    def close(self) -> None:
        import asyncio

        async def stop() -> None:
            self.transport.get_pipe_transport(0).write(b"quit\n")
            await self.transport._wait()  # the process's end
            self.transport.close()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


def _per_call(run: Any, fens: list[str]) -> Any:
    def timed() -> Measured:
        start = time.perf_counter()
        moves = run()
        return Measured(moves, (time.perf_counter() - start) / len(fens))

    return timed


def client_rows(ctx: Context, calls: int | None = None, rounds: int | None = None) -> list[Row]:
    import chess
    import chess.engine

    import pychess_rs
    import pychess_rs.engine

    calls = calls or (QUICK_CALLS if ctx.quick else CALLS)
    rounds = rounds or ctx.repeat_given or (1 if ctx.quick else ROUNDS)
    workload = f"engine analyse depth 1, fake UCI ({calls} positions)"
    log(f"[{workload}]")
    fens, table = positions(calls)
    expected = tuple(table[_key(fen)] for fen in fens)
    theirs_boards = [chess.Board(fen) for fen in fens]
    ours_boards = [pychess_rs.Board(fen) for fen in fens]
    limit_theirs = chess.engine.Limit(depth=1)
    limit_ours = pychess_rs.engine.Limit(depth=1)

    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "fake_uci.py"
        script.write_text(FAKE_ENGINE)
        moves = Path(tmp) / "moves.json"
        moves.write_text(json.dumps(table))
        command = [sys.executable, "-S", str(script), str(moves)]
        theirs = chess.engine.SimpleEngine.popen_uci(command)
        ours = pychess_rs.engine.SimpleEngine.popen_uci(command)
        ours_loop = pychess_rs.engine.SimpleEngine.popen(_LoopUciProtocol(), command)
        raw = RawClient(command)
        threaded = LoopThreadClient(command)
        try:

            def run_theirs() -> tuple[str, ...]:
                analyse = theirs.analyse
                return tuple(analyse(b, limit_theirs)["pv"][0].uci() for b in theirs_boards)

            def run_ours() -> tuple[str, ...]:
                analyse = ours.analyse
                return tuple(analyse(b, limit_ours)["pv"][0].uci() for b in ours_boards)

            def run_ours_loop() -> tuple[str, ...]:
                analyse = ours_loop.analyse
                return tuple(analyse(b, limit_ours)["pv"][0].uci() for b in ours_boards)

            def run_raw() -> tuple[str, ...]:
                return tuple(raw.bestmove(fen) for fen in fens)

            def run_threaded() -> tuple[str, ...]:
                return tuple(threaded.bestmove(fen) for fen in fens)

            candidates = [
                Candidate("python-chess", _per_call(run_theirs, fens), expected),
                Candidate("pychess-rs", _per_call(run_ours, fens), expected),
                Candidate("raw pipe client (floor)", _per_call(run_raw, fens), expected),
                Candidate(LOOP_THREAD, _per_call(run_threaded, fens), expected),
                Candidate(OURS_ON_LOOP, _per_call(run_ours_loop, fens), expected),
            ]
            for candidate in candidates:  # a warm-up round: the first call starts a game
                candidate.run()
            timings = interleaved(candidates, rounds, time_wrong=ctx.time_wrong)
        finally:
            theirs.quit()
            ours.quit()
            ours_loop.quit()
            raw.close()
            threaded.close()

    rows = [
        Row(workload, t.label, t.seconds, 1.0, "calls", note=t.note or _us(t.seconds))
        for t in timings
    ]
    set_ratios(rows, rows[0])
    add_overheads(rows)
    return rows


def add_overheads(rows: list[Row]) -> None:
    """Notes each row's overhead, its time less the floor's (``rows[2]``), and on ours
    (``rows[1]``) how many times python-chess's (``rows[0]``) it is."""
    raw_row = rows[2]
    if raw_row.seconds is None:
        return
    floor = raw_row.seconds
    overheads = [None if r.seconds is None else r.seconds - floor for r in rows]
    for row, overhead in zip(rows, overheads):
        if row is not raw_row and overhead is not None:
            row.note += f"; overhead {overhead * 1e6:.0f} us"
    theirs, ours = overheads[0], overheads[1]
    if theirs is not None and ours is not None:
        if ours > 0:
            rows[1].note += f" ({theirs / ours:.1f}x less than python-chess)"
        else:
            rows[1].note += " (under the floor: the floor's run was slow, compare again)"


LOOP_THREAD = "loop-thread client (floor)"
OURS_ON_LOOP = "pychess-rs, event-loop client"


def _LoopUciProtocol() -> Any:
    """A subclass of ``UciProtocol``: ``SimpleEngine`` runs it on an event loop in a thread of
    its own, as before the blocking client (for comparison)."""
    from pychess_rs.engine import UciProtocol

    return type("LoopUciProtocol", (UciProtocol,), {})


def _us(seconds: float | None) -> str:
    return "" if seconds is None else f"{seconds * 1e6:.0f} us/call"


def write_games(path: Path, count: int, plies: int = GAME_PLIES, seed: int = GAMES_SEED) -> None:
    """``count`` seeded random games of up to ``plies`` plies, as plain PGN (tags, SAN)."""
    import pychess_rs as chess

    rng = random.Random(seed)
    out: list[str] = []
    for number in range(1, count + 1):
        board = chess.Board()
        sans: list[str] = []
        for ply in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            prefix = f"{ply // 2 + 1}. " if ply % 2 == 0 else ""
            sans.append(prefix + board.san(move))
            board.push(move)
        out.append(
            f'[Event "bench {number}"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "{number}"]\n'
            f'[White "A"]\n[Black "B"]\n[Result "*"]\n\n{" ".join(sans)} *\n\n'
        )
    path.write_text("".join(out))


def analyse_once(games: Path, out: Path, workers: int, nodes: int) -> int:
    """One ``pychess-rs analyse`` run in this process (its table swallowed); games written."""
    from pychess_rs import analyse_cli

    parser = argparse.ArgumentParser()
    analyse_cli.add_arguments(parser)
    options = ["--nodes", str(nodes), "--workers", str(workers), "--no-progress"]
    args = parser.parse_args([str(games), "--out", str(out), *options])
    out.unlink(missing_ok=True)
    with contextlib.redirect_stdout(io.StringIO()):
        status = analyse_cli.run(args)
    if status != 0:
        raise RuntimeError(f"pychess-rs analyse exited with {status}")
    return out.read_text().count("[Event ")


def analyse_rows(ctx: Context, games: int | None = None, nodes: int = NODES) -> list[Row]:
    games = games or (QUICK_GAMES if ctx.quick else GAMES)
    rounds = ctx.repeat_given or (1 if ctx.quick else 2)
    workload = f"pychess-rs analyse ({games} games x {GAME_PLIES} plies, {nodes} nodes)"
    log(f"[{workload}]")
    with tempfile.TemporaryDirectory() as tmp:
        pgn = Path(tmp) / "games.pgn"
        write_games(pgn, games)
        candidates = [
            Candidate(
                f"--workers {w}",
                lambda w=w: analyse_once(pgn, Path(tmp) / f"out{w}.pgn", w, nodes),
                games,
            )
            for w in (1, 2)
        ]
        timings = interleaved(candidates, rounds, time_wrong=ctx.time_wrong)
    rows = [Row(workload, t.label, t.seconds, games, "games", note=t.note) for t in timings]
    set_ratios(rows, rows[0])
    cores = os.cpu_count()
    rows[1].note = rows[1].note or f"speed-up over --workers 1 ({cores} logical cores)"
    return rows
