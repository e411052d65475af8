"""The UCI client's promises beyond python-chess (pychess_rs.engine.SimpleEngine), tested
with misbehaving engines (tests/engines/fake_uci.py): no engine process is ever left
behind, no call waits forever, one engine is shared safely by threads, an engine pickles,
and our own UCI front plays the moves of the in-process engine.

SimpleEngine drives a UCI engine on the calling thread (the blocking client,
pychess_rs/engine/_uci_sync.py), or on an event loop in a thread of its own when started
with a subclass of UciProtocol; the tests of timeouts, threads and ends run on both
(the ``client`` fixture).

(python-chess's own EngineTestCase runs against pychess_rs.engine in
tests/test_python_chess_suite.py.)
"""

from __future__ import annotations

import concurrent.futures
import gc
import logging
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

import chess
import pytest

import pychess_rs
from pychess_rs.engine import (
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    SimpleEngine,
    UciProtocol,
)
from pychess_rs.engine._protocol import MAX_LINE_BYTES, LineBuffer
from pychess_rs.engine._uci_sync import SyncUciProtocol

FAKE = Path(__file__).parent / "engines" / "fake_uci.py"

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="counts processes through /proc"
)


def live_processes(marker: str) -> list[int]:
    """Processes (not zombies) whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if marker.encode() not in cmdline.read():
                    continue
            with open(f"/proc/{entry}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
        except OSError:
            continue
        found.append(int(entry))
    return found


def wait_gone(marker: str, seconds: float = 5.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := live_processes(marker)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left


@pytest.fixture
def marker() -> Iterator[str]:
    """A tag for this test's engine processes; none may be left at the end."""
    tag = f"pychess-rs-test-{uuid.uuid4().hex}"
    yield tag
    left = wait_gone(tag)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"engine processes left behind: {left}"


def fake(marker: str, *behaviours: str) -> list[str]:
    return [sys.executable, str(FAKE), marker, *behaviours]


class LoopUciProtocol(UciProtocol):
    """A subclass: SimpleEngine runs it on an event loop in a thread of its own."""


Popen = Callable[..., SimpleEngine]


@pytest.fixture(params=["blocking", "loop"])
def client(request: pytest.FixtureRequest) -> Popen:
    """``popen(command, **kwargs)`` starting a UCI engine on the blocking client or on the
    event loop's."""
    if request.param == "blocking":

        def blocking(command: list[str], **kwargs: Any) -> SimpleEngine:
            engine = SimpleEngine.popen_uci(command, **kwargs)
            assert isinstance(engine.protocol, SyncUciProtocol)
            return engine

        return blocking

    def loop(command: list[str], **kwargs: Any) -> SimpleEngine:
        engine = SimpleEngine.popen(LoopUciProtocol, command, **kwargs)
        assert isinstance(engine.protocol, LoopUciProtocol)
        return engine

    return loop


# ---- no process left behind ----------------------------------------------------------------


def test_close_ends_the_engine(marker: str) -> None:
    with SimpleEngine.popen_uci(fake(marker)) as engine:
        assert engine.play(pychess_rs.Board(), Limit(time=1)).move == pychess_rs.Move.from_uci(
            "e2e4"
        )
        assert live_processes(marker)
    assert not wait_gone(marker)
    with pytest.raises(EngineTerminatedError, match="closed"):
        engine.ping()


def test_garbage_collection_ends_the_engine(marker: str, client: Popen) -> None:
    engine = client(fake(marker))
    engine.ping()
    thread = engine._runner.thread if engine._runner is not None else None
    del engine
    gc.collect()
    assert not wait_gone(marker)
    if thread is not None:
        thread.join(5)
        assert not thread.is_alive(), "the engine's event loop thread outlived it"


def test_engine_outlives_the_thread_that_started_it(marker: str, client: Popen) -> None:
    """The kernel's parent-death signal follows the thread that started the engine: the
    clients start engines from threads that live on."""
    made: list[SimpleEngine] = []
    starter = threading.Thread(target=lambda: made.append(client(fake(marker))))
    starter.start()
    starter.join(30)
    with made[0] as engine:
        time.sleep(0.2)
        assert live_processes(marker)
        assert engine.play(pychess_rs.Board(), Limit(depth=1)).move.uci() == "e2e4"
    assert not wait_gone(marker)


@pytest.mark.parametrize("ending", ["exit", "sigkill", "os_exit"])
def test_engine_dies_with_the_python_process(marker: str, ending: str) -> None:
    """The parent exits normally (atexit), is SIGKILLed (PR_SET_PDEATHSIG), or leaves with
    os._exit (no atexit at all)."""
    script = textwrap.dedent(
        f"""
        import os, sys, time
        from pychess_rs.engine import SimpleEngine
        engine = SimpleEngine.popen_uci({fake(marker)!r})
        engine.ping()
        print("ready", flush=True)
        sys.stdin.readline()
        if {ending!r} == "os_exit":
            os._exit(0)
        if {ending!r} == "sigkill":
            time.sleep(60)
        """
    )
    with subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as parent:
        assert parent.stdin is not None and parent.stdout is not None
        try:
            assert parent.stdout.readline() == "ready\n"
            assert live_processes(marker)
            if ending == "sigkill":
                parent.send_signal(signal.SIGKILL)
            else:
                parent.stdin.write("go\n")
                parent.stdin.flush()
            parent.wait(10)
        finally:
            parent.kill()
    assert not wait_gone(marker)


def test_missing_program_raises_file_not_found(marker: str) -> None:
    with pytest.raises(FileNotFoundError):
        SimpleEngine.popen_uci(f"no-such-engine-{marker}")


# ---- every command has a timeout ------------------------------------------------------------


def test_engine_that_never_answers_uci(marker: str, client: Popen) -> None:
    start = time.monotonic()
    with pytest.raises(EngineTimeoutError) as error:
        client(fake(marker, "mute-uci"), timeout=0.5)
    assert time.monotonic() - start < 5
    assert "'uci'" in str(error.value) and str(FAKE) in str(error.value)
    assert not wait_gone(marker)


def test_engine_that_never_sends_bestmove(marker: str, client: Popen) -> None:
    with client(fake(marker, "no-bestmove")) as engine:
        engine.timeout = 0.5  # set after the start, which may be slow on a busy machine
        start = time.monotonic()
        with pytest.raises(EngineTimeoutError) as error:
            engine.play(pychess_rs.Board(), Limit(time=0.1))
        assert time.monotonic() - start < 5
        assert "'go movetime 100'" in str(error.value) and "(Fake)" in str(error.value)
        assert not wait_gone(marker), "a timed-out engine is killed"
        with pytest.raises(EngineTerminatedError):
            engine.ping()


def test_engine_that_talks_on_without_bestmove(marker: str, client: Popen) -> None:
    with client(fake(marker, "chatty")) as engine:
        engine.timeout = 0.3  # set after the start, which may be slow on a busy machine
        start = time.monotonic()
        with pytest.raises(EngineTimeoutError, match=r"did not finish play within 0\.4 s"):
            engine.play(pychess_rs.Board(), Limit(time=0.1))
        assert time.monotonic() - start < 3
        assert not wait_gone(marker)


def test_hung_engine_in_a_search_without_time_limit(marker: str, client: Popen) -> None:
    with client(fake(marker, "hang-on-go")) as engine:
        engine.timeout = 0.3  # set after the start, which may be slow on a busy machine
        start = time.monotonic()
        with pytest.raises(EngineTimeoutError, match="not even to 'isready'") as error:
            engine.play(pychess_rs.Board(), Limit(depth=30))
        assert 0.5 < time.monotonic() - start < 5
        assert "'isready'" in str(error.value) and "Fake" in str(error.value)
        assert not wait_gone(marker)


def test_engine_that_dies_mid_search(marker: str, client: Popen) -> None:
    with client(fake(marker, "die-on-go")) as engine:
        with pytest.raises(EngineTerminatedError, match="exit code: 3"):
            engine.play(pychess_rs.Board(), Limit(depth=30))
        with pytest.raises(EngineTerminatedError):
            engine.play(pychess_rs.Board(), Limit(depth=30))


def test_garbage_between_lines_is_ignored(marker: str, client: Popen) -> None:
    with client(fake(marker, "garbage")) as engine:
        assert engine.id["name"] == "Fake"
        board = chess.Board()  # a python-chess board works as well
        info = engine.analyse(board, Limit(depth=1))
        e2e4, e7e5 = pychess_rs.Move.from_uci("e2e4"), pychess_rs.Move.from_uci("e7e5")
        assert info["pv"] == [e2e4, e7e5]
        assert engine.play(board, Limit(depth=1)).move == e2e4


def test_engine_that_ignores_quit(marker: str, client: Popen) -> None:
    engine = client(fake(marker, "ignore-quit"))
    engine.timeout = 0.3
    start = time.monotonic()
    with pytest.raises(EngineTimeoutError, match="'quit'"):
        engine.quit()
    assert time.monotonic() - start < 3
    assert not wait_gone(marker)


def test_close_of_an_engine_that_ignores_quit_is_bounded(marker: str, client: Popen) -> None:
    engine = client(fake(marker, "ignore-quit"))
    start = time.monotonic()
    engine.close()
    assert time.monotonic() - start < 3
    assert not wait_gone(marker)


def test_stop_of_an_engine_that_ignores_stop_is_bounded(marker: str, client: Popen) -> None:
    with client(fake(marker, "ignore-stop")) as engine:
        engine.timeout = 0.3  # set after the start, which may be slow on a busy machine
        analysis = engine.analysis(pychess_rs.Board())
        assert analysis.next() is not None
        start = time.monotonic()
        analysis.stop()
        with pytest.raises(EngineTimeoutError, match="did not answer 'stop'"):
            analysis.wait()
        assert time.monotonic() - start < 3
        assert not wait_gone(marker)


def test_timeout_none_waits(marker: str) -> None:
    with SimpleEngine.popen_uci(fake(marker, "slow"), timeout=None) as engine:
        assert engine.play(pychess_rs.Board(), Limit(depth=1)).move is not None


def test_ponderhit_takes_over_the_ponder_search(
    marker: str, caplog: pytest.LogCaptureFixture, client: Popen
) -> None:
    caplog.set_level(logging.DEBUG, logger="pychess_rs.engine")
    with client(fake(marker, "strict")) as engine:
        board = pychess_rs.Board()
        for expected in ("e2e4", "g1f3", "f1b5"):
            result = engine.play(board, Limit(time=1), ponder=True)
            assert result.move.uci() == expected
            board.push(result.move)
            board.push(result.ponder)
        # Something else than the expected position: the ponder search is stopped first.
        board.pop()
        assert engine.play(board, Limit(time=1)).move.uci() == "a7a6"
    sent = [r.getMessage().split(": << ")[1] for r in caplog.records if ": << " in r.getMessage()]
    assert sent.count("ponderhit") == 2 and sent.count("stop") == 1


# ---- threads, pickling ---------------------------------------------------------------------


def test_one_engine_shared_by_eight_threads(marker: str, client: Popen) -> None:
    with client(fake(marker, "strict", "slow")) as engine:
        barrier = threading.Barrier(8)

        def work(index: int) -> list[str]:
            barrier.wait()
            moves = []
            for n in range(5):
                board = pychess_rs.Board()
                if (index + n) % 3 == 0:
                    info = engine.analyse(board, Limit(depth=1))
                    moves.append(info["pv"][0].uci())
                else:
                    result = engine.play(board, Limit(time=1), ponder=(n % 2 == 0))
                    moves.append(result.move.uci())
            return moves

        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            results = list(pool.map(work, range(8)))
        assert results == [["e2e4"] * 5] * 8
        engine.ping()


def _use_pickled_engine(engine: SimpleEngine) -> tuple[list[str], dict[str, object], str]:
    with engine:
        info = engine.analyse(pychess_rs.Board(), Limit(depth=1))
        argv = engine.protocol._argv
        return argv, dict(engine.protocol.config), info["string"]


def test_engine_pickles_into_another_process(marker: str) -> None:
    with SimpleEngine.popen_uci(fake(marker)) as engine:
        engine.configure({"Hash": 64, "style": "risky"})
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
            argv, config, reported = pool.submit(_use_pickled_engine, engine).result(60)
    assert argv == fake(marker)
    assert config == {"Hash": 64, "Style": "Risky"}
    assert "Hash=64" in reported and "Style=Risky" in reported


def test_unpicklable_when_not_started_by_popen() -> None:
    import pickle

    engine = SimpleEngine.__new__(SimpleEngine)
    engine._spawn = None
    with pytest.raises(TypeError, match="popen_uci"):
        pickle.dumps(engine)


# ---- the blocking client's own risks --------------------------------------------------------


def test_line_buffer_joins_pieces_and_drops_runaway_lines() -> None:
    buffer = LineBuffer()
    assert buffer.feed(b"info dep") == [] and buffer
    assert buffer.feed(b"th 1\r\nbest") == ["info depth 1"]
    assert buffer.feed(b"move e2e4\nreadyok\n") == ["bestmove e2e4", "readyok"]
    assert not buffer
    assert buffer.feed("caf\u00e9 \xff\n".encode("latin-1")) == ["caf\ufffd \ufffd"]
    assert buffer.feed(b"x" * (MAX_LINE_BYTES + 1)) == [] and not buffer, "dropped"
    assert buffer.feed(b"tail\nuciok\n") == ["tail", "uciok"]


def test_lines_split_across_reads(marker: str) -> None:
    with SimpleEngine.popen_uci(fake(marker, "split-lines")) as engine:
        assert engine.id == {"name": "Fake", "author": "pychess-rs tests"}
        info = engine.analyse(pychess_rs.Board(), Limit(depth=1))
        assert [m.uci() for m in info["pv"]] == ["e2e4", "e7e5"]
        assert "Hash=16" in info["string"]


def test_a_line_longer_than_one_read(marker: str) -> None:
    with SimpleEngine.popen_uci(fake(marker, "long-info")) as engine:
        analysis = engine.analysis(pychess_rs.Board(), Limit(depth=1))
        reports = list(analysis)
        assert reports[0]["string"] == "x" * 300_000
        assert analysis.wait().move.uci() == "e2e4"
        assert engine.analyse(pychess_rs.Board(), Limit(depth=1))["pv"][0].uci() == "e2e4"


def test_the_next_call_ends_an_analysis_nobody_reads(marker: str) -> None:
    with SimpleEngine.popen_uci(fake(marker, "strict"), timeout=2) as engine:
        analysis = engine.analysis(pychess_rs.Board())  # infinite: runs until stopped
        # Another call stops it and reads it to its end; its reports stay with the handle.
        info = engine.analyse(pychess_rs.Board(), Limit(depth=1))
        assert info["pv"][0].uci() == "e2e4"
        assert analysis.wait().move.uci() == "e2e4"
        assert analysis.info["pv"][0].uci() == "e2e4"
        assert any(r.get("depth") == 1 and "pv" in r for r in list(analysis))
        assert analysis.next() is None and not analysis.would_block()


def test_close_from_another_thread_ends_a_running_call(marker: str) -> None:
    engine = SimpleEngine.popen_uci(fake(marker, "no-bestmove"), timeout=None)
    failure: list[BaseException] = []

    def search() -> None:
        try:
            engine.play(pychess_rs.Board(), Limit(depth=30))
        except BaseException as error:
            failure.append(error)

    searcher = threading.Thread(target=search)
    searcher.start()
    time.sleep(0.3)
    start = time.monotonic()
    engine.close()
    searcher.join(10)
    assert not searcher.is_alive() and time.monotonic() - start < 5
    assert isinstance(failure[0], EngineTerminatedError)
    assert not wait_gone(marker)


def test_custom_commands_need_the_event_loop(marker: str) -> None:
    with SimpleEngine.popen_uci(fake(marker)) as engine:
        with pytest.raises(EngineError, match="subclass of UciProtocol"):
            engine.communicate(lambda protocol: None)  # type: ignore[arg-type,return-value]


# ---- options through the client -------------------------------------------------------------


def test_configure_checks_options(marker: str) -> None:
    with SimpleEngine.popen_uci(fake(marker)) as engine:
        with pytest.raises(EngineError, match="no option 'Nope'"):
            engine.configure({"Nope": 1})
        with pytest.raises(EngineError, match="managed automatically"):
            engine.configure({"MultiPV": 2})
        with pytest.raises(EngineError, match="at most 1024"):
            engine.configure({"Hash": 5000})
        infos = engine.analyse(pychess_rs.Board(), Limit(depth=1), multipv=2)
        assert "MultiPV=2" in infos[0]["string"]
        info = engine.analyse(pychess_rs.Board(), Limit(depth=1), options={"Hash": 8})
        assert "Hash=8" in info["string"] and "MultiPV=1" in info["string"]
        info = engine.analyse(pychess_rs.Board(), Limit(depth=1))
        assert "Hash=16" in info["string"], "a call's own options hold for that call only"


# ---- our own UCI engine ---------------------------------------------------------------------

FENS = [
    pychess_rs.STARTING_FEN,
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]


def test_our_uci_front_plays_the_in_process_engines_moves() -> None:
    program = shutil.which("pychess-rs-uci") or shutil.which(
        "pychess-rs-uci", path=os.path.dirname(sys.executable)
    )
    if program is None:
        pytest.skip("the pychess-rs-uci console script is not installed")
    with SimpleEngine.popen_uci([program]) as engine:
        engine.configure({"Hash": 16, "Threads": 1})
        for fen in FENS:
            board = pychess_rs.Board(fen)
            theirs = engine.play(board, Limit(depth=5), game=object()).move
            ours = Engine(hash_mb=16, threads=1).play(board, Limit(depth=5)).move
            assert theirs == ours, fen


# ---- XBoard ---------------------------------------------------------------------------------


def _fairy_stockfish() -> str:
    program = shutil.which("fairy-stockfish") or shutil.which("fairy-stockfish", path="/usr/games")
    if program is None:
        pytest.skip("needs fairy-stockfish (it speaks XBoard too)")
    return program


def test_xboard_engine_plays_a_game_and_analyses() -> None:
    with SimpleEngine.popen_xboard(_fairy_stockfish()) as engine:
        assert engine.id["name"] == "Fairy-Stockfish"
        board = pychess_rs.Board()
        game = object()
        for _ in range(4):
            result = engine.play(board, Limit(depth=4), game=game)
            assert result.move in board.legal_moves
            board.push(result.move)
        board.pop()  # a takeback: the engine's game follows (remove/undo)
        assert engine.play(board, Limit(depth=4), game=game).move in board.legal_moves
        info = engine.analyse(board, Limit(depth=6))
        assert info["depth"] >= 6 and info["pv"][0] in board.legal_moves
        assert info["score"].turn == board.turn
        engine.send_game_result(board, game_complete=False)


def test_xboard_engine_that_never_speaks(marker: str) -> None:
    silent = [sys.executable, "-c", "import sys, time; time.sleep(60)", marker]
    with SimpleEngine.popen_xboard(silent, timeout=0.3) as engine:
        # Taken for a protover 1 engine (no features within 2 s), then it hangs.
        with pytest.raises(EngineTimeoutError, match="'go'"):
            engine.play(pychess_rs.Board(), Limit(time=0.1))
        assert not wait_gone(marker)
