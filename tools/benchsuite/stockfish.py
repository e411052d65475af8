"""Stockfish, the reference of the native workloads: ``go perft`` through python-chess's engine
client (``chess.engine.SimpleEngine``), and Stockfish's own ``bench`` command line.

``go perft`` is no standard UCI command, so it is sent as a custom engine command
(:class:`GoPerft`): the position, then ``isready``; the clock starts at ``readyok`` when
``go perft`` is sent and stops at the ``Nodes searched:`` line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from typing import Any

import chess.engine

from .timing import Measured


def find_stockfish(explicit: str | None) -> str | None:
    """``explicit`` if given, else ``stockfish`` on the PATH or Debian's /usr/games/stockfish."""
    if explicit:
        return explicit
    found = shutil.which("stockfish")
    if found:
        return found
    if os.access("/usr/games/stockfish", os.X_OK):
        return "/usr/games/stockfish"
    return None


class GoPerft(chess.engine.BaseCommand[Measured]):
    """``position fen FEN``, ``isready``, then ``go perft DEPTH`` timed from ``readyok`` to the
    total: ``Measured(nodes, seconds)``."""

    def __init__(self, engine: Any, fen: str, depth: int) -> None:
        super().__init__(engine)
        self.engine = engine
        self.fen, self.depth = fen, depth
        self.started: float | None = None

    def start(self) -> None:
        self.engine.send_line(f"position fen {self.fen}")
        self.engine.send_line("isready")

    def line_received(self, line: str) -> None:
        line = line.strip()
        if line == "readyok" and self.started is None:
            self.started = time.perf_counter()
            self.engine.send_line(f"go perft {self.depth}")
        elif line.startswith("Nodes searched:") and self.started is not None:
            elapsed = time.perf_counter() - self.started
            self.result.set_result(Measured(int(line.split(":")[1]), elapsed))
            self.set_finished()


class Stockfish:
    """A Stockfish process with ``Threads 1``, for ``go perft``; a context manager."""

    def __init__(self, path: str) -> None:
        self.engine = chess.engine.SimpleEngine.popen_uci(path, stderr=subprocess.DEVNULL)
        try:
            self.name = str(self.engine.id.get("name", os.path.basename(path)))
            self.engine.configure({"Threads": 1})
        except BaseException:
            self.engine.quit()
            raise

    def perft(self, fen: str, depth: int) -> Measured:
        """Nodes of ``go perft depth`` on ``fen``, with the seconds it took."""
        return self.engine.communicate(lambda protocol: GoPerft(protocol, fen, depth))

    def close(self) -> None:
        try:
            self.engine.quit()
        except Exception:
            self.engine.close()

    def __enter__(self) -> Stockfish:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def stockfish_bench(path: str, depth: int) -> Measured:
    """Stockfish's own ``bench`` (16 MB hash, one thread, its default positions) to ``depth``:
    its nodes, with the seconds Stockfish reports."""
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
    return Measured(int(report["Nodes searched"]), int(report["Total time (ms)"]) / 1000)
