"""The UCI loop: scripted sessions in process (fast), then the real thing as a subprocess,
driven by python-chess's UCI client and by raw bytes."""

from __future__ import annotations

import io
import os
import queue
import re
import shutil
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Iterator

import chess
import chess.engine
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pychess_rs
from pychess_rs.uci import UciSession

CHECKMATED = "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"
STALEMATED = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
MATE_IN_2 = "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1"
MATE_IN_3 = "r3q1kr/ppp5/3p2pQ/8/3PP1b1/5R2/PPP3P1/5RK1 w - - 0 1"
# The king on f1: castling short is f1h1 in Chess960 notation, f1g1 is a plain king move.
CHESS960 = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w HAha - 0 1"
CASTLING_READY = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"

INFO_LINE = re.compile(
    r"info depth \d+ seldepth \d+ multipv \d+ score (cp -?\d+|mate -?\d+)"
    r"( lowerbound| upperbound)? nodes \d+ nps \d+ hashfull \d+ tbhits \d+ time \d+"
    r"( pv( [a-h][1-8][a-h][1-8][qrbn]?)+)?"
)
# Everything the engine may print outside the debug commands.
PROTOCOL_LINE = re.compile(
    r"(id (name|author) .+|option name .+|uciok|readyok|bestmove \S+( ponder \S+)?"
    r"|info string .*|info depth .*)"
)


# ---- in-process sessions ----------------------------------------------------------------------


def session(commands: str | bytes) -> list[str]:
    """Runs a whole script (end of input stops any search) and returns the output lines."""
    out = io.StringIO()
    stdin: io.IOBase = (
        io.BytesIO(commands) if isinstance(commands, bytes) else io.StringIO(commands)
    )
    assert UciSession(stdin, out).run() == 0  # type: ignore[arg-type]
    return out.getvalue().splitlines()


class Output(io.TextIOBase):
    """A stdout that lets the test wait for a line."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._partial = ""
        self._changed = threading.Condition()

    def write(self, text: str) -> int:
        with self._changed:
            self._partial += text
            *complete, self._partial = self._partial.split("\n")
            self.lines.extend(complete)
            self._changed.notify_all()
        return len(text)

    def wait_for(self, prefix: str, timeout: float = 10, start: int = 0) -> int:
        """Index of the first line from ``start`` that begins with ``prefix``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for i in range(start, len(self.lines)):
                    if self.lines[i].startswith(prefix):
                        return i
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"no {prefix!r} within {timeout}s in {self.lines}")
                self._changed.wait(remaining)

    def count(self, prefix: str) -> int:
        with self._changed:
            return sum(line.startswith(prefix) for line in self.lines)


class LiveSession:
    """A session on its own thread; the test feeds lines while it runs."""

    def __init__(self) -> None:
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.out = Output()
        self.session = UciSession(self._input(), self.out)
        self.thread = threading.Thread(target=self.session.run, daemon=True)
        self.thread.start()

    def _input(self) -> Iterator[str]:
        while (line := self._lines.get()) is not None:
            yield line

    def send(self, *lines: str) -> None:
        for line in lines:
            self._lines.put(line + "\n")

    def close_input(self) -> None:
        self._lines.put(None)

    def ends_within(self, seconds: float) -> bool:
        self.thread.join(seconds)
        return not self.thread.is_alive()


@pytest.fixture
def live() -> Iterator[LiveSession]:
    s = LiveSession()
    yield s
    s.send("quit")
    assert s.ends_within(5)


def test_module_example() -> None:
    import doctest

    import pychess_rs.uci

    result = doctest.testmod(pychess_rs.uci)
    assert result.attempted > 0 and result.failed == 0


def test_handshake_lists_every_option() -> None:
    lines = session("uci\n")
    assert lines[0] == f"id name pychess-rs {pychess_rs.__version__}"
    assert lines[1].startswith("id author ")
    assert lines[-1] == "uciok"
    names = [re.match(r"option name (.+?) type", line) for line in lines[2:-1]]
    assert [m.group(1) for m in names if m] == [
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "Ponder",
        "UCI_Chess960",
        "Clear Hash",
        "UCI_LimitStrength",
        "UCI_Elo",
        "Skill Level",
        "OwnBook",
        "BookFile",
        "BookSeed",
        "SyzygyPath",
        "SyzygyProbeDepth",
        "Syzygy50MoveRule",
        "EvalFile",
        "Use NNUE",
        "UCI_Variant",
    ]
    assert "option name Skill Level type spin default 20 min 0 max 20" in lines
    assert "option name OwnBook type check default false" in lines
    assert "option name BookFile type string default <empty>" in lines
    assert "option name BookSeed type spin default 0 min 0 max 2147483647" in lines
    assert "option name SyzygyPath type string default <empty>" in lines
    assert "option name SyzygyProbeDepth type spin default 1 min 1 max 100" in lines
    assert "option name Syzygy50MoveRule type check default true" in lines
    assert "option name EvalFile type string default <empty>" in lines
    assert "option name Use NNUE type check default true" in lines
    assert "option name UCI_Chess960 type check default false" in lines
    assert "option name Clear Hash type button" in lines


def test_isready_position_go() -> None:
    # Output order is deterministic here: the search ends at depth 3 before end of input...
    lines = session("isready\nposition startpos moves e2e4 e7e5\n")
    assert lines == ["readyok"]
    live = LiveSession()
    live.send("position startpos moves e2e4 e7e5", "go depth 3")
    bestmove = live.out.lines[live.out.wait_for("bestmove")]
    move = bestmove.split()[1]
    board = pychess_rs.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert board.parse_uci(move) in board.legal_moves
    infos = [line for line in live.out.lines if line.startswith("info depth")]
    assert [int(line.split()[2]) for line in infos] == [1, 2, 3]
    assert all(INFO_LINE.fullmatch(line) for line in infos), infos
    live.send("quit")
    assert live.ends_within(5)


def test_go_before_position_searches_the_start(live: LiveSession) -> None:
    live.send("go depth 2")
    move = live.out.lines[live.out.wait_for("bestmove")].split()[1]
    assert pychess_rs.Board().parse_uci(move) in pychess_rs.Board().legal_moves


def test_isready_is_answered_while_searching(live: LiveSession) -> None:
    live.send("go infinite")
    live.out.wait_for("info depth")
    live.send("isready")
    ready = live.out.wait_for("readyok", timeout=2)
    time.sleep(0.2)
    assert live.out.count("bestmove") == 0, "infinite search must wait for stop"
    stop_sent = time.monotonic()
    live.send("stop")
    done = live.out.wait_for("bestmove", timeout=2)
    assert time.monotonic() - stop_sent < 2
    assert ready < done


def test_new_go_stops_the_old_search(live: LiveSession) -> None:
    live.send("go infinite")
    live.out.wait_for("info depth")
    live.send("position startpos moves d2d4", "go depth 2")
    first = live.out.wait_for("bestmove")
    second = live.out.wait_for("bestmove", start=first + 1)
    black_move = live.out.lines[second].split()[1]
    board = pychess_rs.Board()
    board.push_uci("d2d4")
    assert board.parse_uci(black_move) in board.legal_moves


def test_ponder_then_ponderhit(live: LiveSession) -> None:
    live.send("setoption name Ponder value true", "go ponder wtime 200 btime 200")
    live.out.wait_for("info depth")
    time.sleep(0.4)  # more than the whole clock: pondering ignores it
    assert live.out.count("bestmove") == 0
    live.send("ponderhit")
    live.out.wait_for("bestmove", timeout=2)


def test_ponder_then_stop(live: LiveSession) -> None:
    live.send("go ponder movetime 50")
    live.out.wait_for("info depth")
    live.send("stop")
    live.out.wait_for("bestmove", timeout=2)


def test_quit_during_search_ends_the_session() -> None:
    live = LiveSession()
    live.send("go infinite")
    live.out.wait_for("info depth")
    live.send("quit")
    assert live.ends_within(2)
    assert live.out.count("bestmove") == 1


def test_end_of_input_during_search_ends_the_session() -> None:
    live = LiveSession()
    live.send("go infinite")
    live.out.wait_for("info depth")
    live.close_input()
    assert live.ends_within(2)


@pytest.mark.parametrize("fen", [CHECKMATED, STALEMATED])
def test_no_legal_move(fen: str) -> None:
    lines = session(f"position fen {fen}\ngo depth 3\n")
    assert lines[-1] == "bestmove 0000"


def test_mate_score() -> None:
    live = LiveSession()
    live.send(f"position fen {MATE_IN_2}", "go mate 2")
    live.out.wait_for("bestmove")
    infos = [line for line in live.out.lines if line.startswith("info depth")]
    assert "score mate 2" in infos[-1]
    live.send("quit")
    assert live.ends_within(5)


def test_multipv_lines(live: LiveSession) -> None:
    live.send("setoption name multipv value 3", "go depth 3")
    live.out.wait_for("bestmove")
    depth3 = [line for line in live.out.lines if line.startswith("info depth 3 ")]
    assert [line.split()[6] for line in depth3] == ["1", "2", "3"]


@pytest.mark.parametrize(
    ("setup", "move"),
    [
        (f"position fen {CHESS960}", "f1h1"),  # king takes rook
        (CASTLING_READY, "e1g1"),
    ],
)
def test_castling_notation(live: LiveSession, setup: str, move: str) -> None:
    if move == "f1h1":
        live.send("setoption name UCI_Chess960 value true")
    live.send(setup, f"go depth 2 searchmoves {move}")
    assert live.out.lines[live.out.wait_for("bestmove")].split()[1] == move


def test_chess960_moves_in_position(live: LiveSession) -> None:
    live.send(
        "setoption name UCI_Chess960 value true",
        f"position fen {CHESS960} moves f1h1 e8h8",
        "d",
    )
    fen_line = live.out.lines[live.out.wait_for("Fen: ")]
    assert fen_line == "Fen: r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2"


def test_options_are_the_engines_table() -> None:
    lines = session("uci\nsetoption name skill level value 21\nsetoption name UCI_Elo value 1\n")
    ranges = pychess_rs.engine.option_ranges()
    defaults = pychess_rs.Engine().options
    low, high = ranges["hash_mb"]
    assert f"option name Hash type spin default {defaults['hash_mb']} min {low} max {high}" in lines
    elo_low, elo_high = ranges["limit_elo"]
    assert f"option name UCI_Elo type spin default {elo_low} min {elo_low} max {elo_high}" in lines
    # Out of range: the engine's check, naming the option as UCI does, quoting the value.
    assert _info_strings(lines) == [
        "info string setoption: engine option Skill Level must be in 0..20, got 21",
        f"info string setoption: engine option UCI_Elo must be in {elo_low}..{elo_high}, got 1",
    ]


def test_setoption_names_are_case_insensitive_and_multi_word(live: LiveSession) -> None:
    live.send(
        "setoption name move overhead value 100",
        "setoption name SKILL LEVEL value 15",
        "setoption name uci_limitstrength value TRUE",
        "setoption name UCI_Elo value 1500",
        "setoption name Hash value 4",
        "setoption name Clear Hash",
        "ucinewgame",
        "isready",
    )
    live.out.wait_for("readyok")
    options = live.session._searcher.options
    assert options["move_overhead_ms"] == 100
    assert options["skill_level"] == 15
    assert options["limit_elo"] == 1500
    assert options["hash_mb"] == 4
    assert live.out.count("info string") == 0


def test_go_perft_divides() -> None:
    lines = session("go perft 3\n")
    assert len([line for line in lines if re.fullmatch(r"[a-h][1-8][a-h][1-8]: \d+", line)]) == 20
    assert "e2e4: 600" in lines
    assert lines[-1] == "Nodes searched: 8902"


def test_d_shows_diagram_and_fen() -> None:
    lines = session("position startpos moves e2e4\nd\n")
    assert lines[0] == "r n b q k b n r"
    assert "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" in lines


def test_bench_reports_nodes() -> None:
    lines = session("bench 1\n")
    assert re.fullmatch(r"Nodes searched\s*: \d+", lines[1])


def test_bench_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    from pychess_rs.cli import main

    assert main(["bench", "1"]) == 0
    first = capsys.readouterr().out
    assert main(["bench", "1"]) == 0
    assert first.splitlines()[1] == capsys.readouterr().out.splitlines()[1]  # deterministic
    assert re.search(r"^Nodes searched\s*: \d+$", first, re.MULTILINE)
    assert main(["bench", "0"]) == 2
    assert "pychess-rs bench: depth must be in 1..30, got 0" in capsys.readouterr().err


def _info_strings(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string ")]


@pytest.mark.parametrize(
    "command",
    [
        "xyzzy",
        "position",
        "position fen",
        "position fen not/a/fen w - - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position startpos moves e2e4 e7e5 e1e2 e8e7 e2e3 z9z9",
        "position startpos moves e2e5",
        "position startpos moves e1g1",
        "position startpos moves e2e4 d7d5 f1b5 0000",
        "position sideways",
        "setoption",
        "setoption Hash value 4",
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "setoption name Threads value 100000",
        "setoption name Ponder value maybe",
        "setoption name Nonsense value 1",
        "setoption name Skill Level",
        "bench 0",
        "bench x",
        "go perft 99",
        "go perft x",
    ],
)
def test_bad_command_is_reported_and_changes_nothing(command: str) -> None:
    before = "position startpos moves d2d4\n"
    lines = session(f"{before}{command}\nd\nisready\n")
    assert len(_info_strings(lines)) == 1, lines
    assert "Fen: rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1" in lines
    assert lines[-1] == "readyok"


def test_bad_go_arguments_still_search(live: LiveSession) -> None:
    live.send("go depth x nodes -5 wtime -100 btime 100 frobnicate searchmoves e2e4 e9e9 depth 2")
    line = live.out.lines[live.out.wait_for("bestmove")]
    assert line.split()[1] == "e2e4"
    assert live.out.count("info string") == 4


def test_garbage_bytes_are_survived() -> None:
    script = (
        b"\xff\xfe\x00\n"
        b"\n   \n\t\n"
        b"position startpos moves \xc3\x28\n"
        b"\x00\x01\x02 go\n"
        b"uci\xff\n"
        b"isready\n"
        b"position startpos moves e2e4\n"
        b"go depth 2\n"
    )
    live = LiveSession()
    for line in script.decode("utf-8", "replace").splitlines():
        live.send(line)
    move = live.out.lines[live.out.wait_for("bestmove")].split()[1]
    board = pychess_rs.Board()
    board.push_uci("e2e4")
    assert board.parse_uci(move) in board.legal_moves
    assert "readyok" in live.out.lines
    assert all(PROTOCOL_LINE.fullmatch(line) for line in live.out.lines), live.out.lines
    live.send("quit")
    assert live.ends_within(5)
    # The same bytes through a binary stream.
    lines = session(script)
    assert "readyok" in lines and lines[-1].startswith("bestmove ")


_WORDS = [
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "ponderhit",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "Move",
    "Overhead",
    "UCI_Chess960",
    "Ponder",
    "Clear",
    "Skill",
    "Level",
    "UCI_Elo",
    "UCI_LimitStrength",
    "true",
    "false",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
    "ponder",
    "infinite",
    "searchmoves",
    "e2e4",
    "e7e5",
    "e1g1",
    "g1f3",
    "0000",
    "a7a8q",
    "8/8/8/8/8/8/8/8",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "b",
    "KQkq",
    "-",
    "0",
    "1",
    "3",
    "-5",
    "99999",
    "x",
    "\x00",
    "\ufffd",
    "debug",
    "on",
]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.lists(st.sampled_from(_WORDS), min_size=0, max_size=8).map(" ".join),
        max_size=12,
    )
)
def test_random_commands_never_break_the_session(commands: list[str]) -> None:
    # Searches stay short: every limit word is followed by a small number or nothing.
    script = "\n".join(c for c in commands if "infinite" not in c or "go" not in c)
    lines = session(script + "\nisready\n")
    assert "readyok" in lines
    assert all(PROTOCOL_LINE.fullmatch(line) for line in lines), lines
    # Bad input is expected; an exception the session did not expect (a bug) is not.
    assert not [
        line
        for line in lines
        if line.startswith(("info string error in", "info string search failed"))
    ], lines


def test_closed_stdout_ends_the_session_quietly() -> None:
    out = io.StringIO()
    out.close()
    assert UciSession(io.StringIO("uci\nisready\ngo depth 1\n"), out).run() == 0


# ---- the real engine, as GUIs and match runners start it --------------------------------------

UCI_COMMAND = [sys.executable, "-m", "pychess_rs", "uci"]


@pytest.fixture(scope="module")
def engine() -> Iterator[chess.engine.SimpleEngine]:
    with chess.engine.SimpleEngine.popen_uci(UCI_COMMAND, timeout=20) as e:
        yield e


def test_identifies_itself(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"] == f"pychess-rs {pychess_rs.__version__}"
    assert engine.options["Hash"].default == 16
    assert engine.options["UCI_Elo"].type == "spin"


@pytest.mark.parametrize(
    "limit",
    [
        chess.engine.Limit(depth=4),
        chess.engine.Limit(nodes=3000),
        chess.engine.Limit(time=0.05),
        chess.engine.Limit(white_clock=1, black_clock=1, white_inc=0.1, black_inc=0.1),
        chess.engine.Limit(white_clock=3, black_clock=3, remaining_moves=30),
    ],
    ids=["depth", "nodes", "time", "clock-inc", "movestogo"],
)
def test_play_and_analyse_each_limit(
    engine: chess.engine.SimpleEngine, limit: chess.engine.Limit
) -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    result = engine.play(board, limit)
    assert result.move in board.legal_moves
    info = engine.analyse(board, limit)
    assert info["depth"] >= 1
    assert info["pv"][0] in board.legal_moves
    assert isinstance(info["score"], chess.engine.PovScore)
    if limit.depth is not None:
        assert info["depth"] == limit.depth


@pytest.mark.parametrize(("fen", "moves"), [(MATE_IN_2, 2), (MATE_IN_3, 3)])
def test_mate_in_n(engine: chess.engine.SimpleEngine, fen: str, moves: int) -> None:
    board = chess.Board(fen)
    info = engine.analyse(board, chess.engine.Limit(mate=moves, time=10))
    assert info["score"].relative == chess.engine.Mate(moves)
    for move in info["pv"][: 2 * moves - 1]:
        board.push(move)
    assert board.is_checkmate()


@pytest.mark.parametrize("fen", [CHECKMATED, STALEMATED])
def test_play_without_legal_moves(engine: chess.engine.SimpleEngine, fen: str) -> None:
    # `bestmove 0000`: python-chess reads the null move (falsy); `(none)` would read as None.
    move = engine.play(chess.Board(fen), chess.engine.Limit(depth=2)).move
    assert move == chess.Move.null() and not move


def test_stop_infinite_analysis(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 3:
                break
        stopped = time.monotonic()
        analysis.stop()
        best = analysis.wait()
        assert time.monotonic() - stopped < 2
    assert best.move in board.legal_moves


def test_ponder_and_ponderhit(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    first = engine.play(board, chess.engine.Limit(time=0.1), ponder=True)
    assert first.move is not None and first.ponder is not None
    board.push(first.move)
    board.push(first.ponder)
    # The same position the engine ponders on: python-chess sends `ponderhit`.
    second = engine.play(board, chess.engine.Limit(time=0.1))
    assert second.move in board.legal_moves


def test_multipv_through_python_chess(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    assert len({info["pv"][0] for info in infos}) == 3


def test_chess960_castling(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board(CHESS960, chess960=True)
    castle = board.parse_uci("f1h1")
    assert board.is_castling(castle)
    result = engine.play(board, chess.engine.Limit(depth=2), root_moves=[castle])
    assert result.move == castle
    assert board.uci(castle) == "f1h1"


def test_standard_castling(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"]:
        board.push_san(san)
    castle = board.parse_uci("e1g1")
    result = engine.play(board, chess.engine.Limit(depth=2), root_moves=[castle])
    assert result.move == castle


class RawEngine:
    """The engine as a bare subprocess, with a reader thread so reads can time out."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read_until(self, prefix: bytes, timeout: float = 10) -> list[bytes]:
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def close(self) -> tuple[int, bytes]:
        """Waits for the exit; returns the status and what went to stderr."""
        try:
            status = self.process.wait(5)
        finally:
            self.process.kill()
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None and not stream.closed:
                    stream.close()
        assert self.process.stderr is not None
        with self.process.stderr:
            return status, self.process.stderr.read()


def test_garbage_session_in_a_subprocess() -> None:
    raw = RawEngine(UCI_COMMAND)
    raw.send(
        b"uci\n\xff\xfe\x00\n\n  \nhello world\nposition fen rnbqkbnr/ppp w\n"
        b"position startpos moves e2e4 e7e4\nposition startpos moves e2e4 \xff\n"
        b"setoption name Hash value -1\nsetoption name MultiPV value many\n"
        b"setoption name Imaginary value 1\ngo perft\ngo depth\n"
    )
    # A `go` whose limit is unreadable searches until `stop`.
    seen = raw.read_until(b"info depth")
    raw.send(b"stop\n")
    seen += raw.read_until(b"bestmove")
    raw.send(b"isready\n")
    seen += raw.read_until(b"readyok", timeout=5)
    raw.send(b"position startpos moves e2e4 e7e5\ngo nodes 2000\n")
    seen += raw.read_until(b"bestmove")
    move = seen[-1].split()[1].decode()
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(move) in board.legal_moves
    text = [line.decode().rstrip("\n") for line in seen]
    assert all(PROTOCOL_LINE.fullmatch(line) for line in text), text
    assert sum(line.startswith("info string") for line in text) == 10
    raw.send(b"go infinite\n")
    raw.read_until(b"info depth")
    raw.process.stdin.close()  # type: ignore[union-attr]  # end of input while searching
    status, stderr = raw.close()
    assert status == 0
    assert b"Traceback" not in stderr


def _script(name: str) -> str | None:
    path = os.path.join(sysconfig.get_path("scripts"), name)
    return path if os.path.exists(path) else shutil.which(name)


@pytest.mark.parametrize("command", [["pychess-rs-uci"], ["pychess-rs", "uci"]])
def test_console_scripts(command: list[str]) -> None:
    script = _script(command[0])
    if script is None:
        pytest.skip(f"{command[0]} is not installed (pip install -e . / maturin develop)")
    raw = RawEngine([script, *command[1:]])
    raw.send(b"uci\nisready\nposition startpos\ngo depth 3\n")
    assert raw.read_until(b"uciok")[0].startswith(b"id name pychess-rs")
    raw.read_until(b"readyok")
    raw.read_until(b"bestmove")
    raw.send(b"quit\n")
    assert raw.close() == (0, b"")
