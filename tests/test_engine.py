"""The in-process engine API (pychess_rs.Engine): limits, scores, stop, options, failures."""

from __future__ import annotations

import os
import signal
import threading
import time

import chess.engine
import pytest

import pychess_rs
from pychess_rs import Cp, Engine, Limit, Mate, MateGiven, PovScore
from pychess_rs._core import SearchControl, Searcher, bench

MATE_IN_2 = "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1"
MATE_IN_2_BLACK = "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1"
MATE_IN_3 = "r3q1kr/ppp5/3p2pQ/8/3PP1b1/5R2/PPP3P1/5RK1 w - - 0 1"
CHECKMATED = "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"
STALEMATED = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
CHESS960 = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w HAha - 0 1"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(hash_mb=8)


def assert_legal(board: pychess_rs.Board, move: pychess_rs.Move | None) -> None:
    assert move is not None
    assert move in board.legal_moves


# ---- scores -----------------------------------------------------------------------------------


def test_score_order_and_negation() -> None:
    ladder = [Mate(0), Mate(-1), Mate(-5), Cp(-300), Cp(0), Cp(25), Mate(7), Mate(2), MateGiven]
    assert ladder == sorted(ladder)
    assert -Cp(25) == Cp(-25)
    assert -Mate(3) == Mate(-3)
    assert -Mate(0) == MateGiven
    assert -MateGiven == Mate(0)
    assert Mate(3).score() is None
    assert Mate(3).score(mate_score=100_000) == 99_997
    assert Mate(-3).score(mate_score=100_000) == -99_997
    assert Cp(12).score(mate_score=100_000) == 12
    assert Mate(-2).is_mate() and not Cp(5).is_mate()


def test_pov_score() -> None:
    score = PovScore(Cp(40), pychess_rs.BLACK)
    assert score.relative == Cp(40)
    assert score.black() == Cp(40)
    assert score.white() == Cp(-40)
    assert score.pov(pychess_rs.WHITE) == Cp(-40)
    assert PovScore(Mate(2), pychess_rs.WHITE) == PovScore(Mate(-2), pychess_rs.BLACK)
    assert repr(score) == "PovScore(Cp(+40), BLACK)"
    for cp in (-40, 0, 40):
        assert (str(Cp(cp)), repr(Cp(cp))) == (str(chess.engine.Cp(cp)), repr(chess.engine.Cp(cp)))


# ---- limits -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "limit",
    [
        Limit(depth=4),
        Limit(nodes=2000),
        Limit(time=0.05),
        Limit(white_clock=1.0, black_clock=1.0, white_inc=0.05, black_inc=0.05),
        Limit(white_clock=2.0, black_clock=2.0, remaining_moves=20),
        Limit(depth=3, nodes=100_000, time=1.0),
    ],
    ids=["depth", "nodes", "time", "clock-inc", "movestogo", "combined"],
)
def test_play_with_each_limit(engine: Engine, limit: Limit) -> None:
    board = pychess_rs.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    start = time.monotonic()
    result = engine.play(board, limit)
    assert time.monotonic() - start < 3
    assert_legal(board, result.move)
    info = result.info
    assert info["depth"] >= 1
    assert info["pv"][0] == result.move
    assert isinstance(info["score"], PovScore)


def test_depth_and_nodes_are_respected(engine: Engine) -> None:
    board = pychess_rs.Board()
    assert engine.analyse(board, Limit(depth=3))["depth"] == 3
    info = engine.analyse(board, Limit(nodes=500))
    assert info["nodes"] <= 500 + 200  # node checks are batched


def test_time_limit_is_respected(engine: Engine) -> None:
    start = time.monotonic()
    engine.play(pychess_rs.Board(), Limit(time=0.2))
    assert 0.1 < time.monotonic() - start < 2.0  # generous: the machine may be busy


@pytest.mark.parametrize(("fen", "moves"), [(MATE_IN_2, 2), (MATE_IN_2_BLACK, 2), (MATE_IN_3, 3)])
def test_mate_in_n(engine: Engine, fen: str, moves: int) -> None:
    board = pychess_rs.Board(fen)
    info = engine.analyse(board, Limit(mate=moves, time=5))
    assert info["score"].relative == Mate(moves)
    assert info["score"].pov(board.turn) == Mate(moves)
    # Play the line out: it mates on the last move.
    for move in info["pv"][: 2 * moves - 1]:
        board.push(move)
    assert board.is_checkmate()


@pytest.mark.parametrize("fen", [CHECKMATED, STALEMATED])
def test_no_legal_move(engine: Engine, fen: str) -> None:
    result = engine.play(pychess_rs.Board(fen), Limit(depth=3))
    assert result.move is None
    assert result.ponder is None


def test_multipv(engine: Engine) -> None:
    board = pychess_rs.Board()
    infos = engine.analyse(board, Limit(depth=4), multipv=3)
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3
    assert all(move in board.legal_moves for move in firsts)
    # The option is back to one line afterwards.
    assert engine.options["multipv"] == 1
    assert isinstance(engine.analyse(board, Limit(depth=2)), dict)


def test_root_moves(engine: Engine) -> None:
    board = pychess_rs.Board()
    only = [pychess_rs.Move.from_uci("a2a3"), pychess_rs.Move.from_uci("h2h3")]
    for _ in range(2):
        assert engine.play(board, Limit(depth=3), root_moves=only).move in only
    with pytest.raises(pychess_rs.IllegalMoveError):
        engine.play(board, Limit(depth=1), root_moves=[pychess_rs.Move.from_uci("e2e5")])


def test_history_counts_for_repetition(engine: Engine) -> None:
    # Queen against king: a1a2 would repeat a position for the third time (a draw), a1b1
    # keeps the win. Only the move stack tells them apart.
    board = pychess_rs.Board("6k1/8/8/8/8/8/8/Q5K1 w - - 0 1")
    for uci in ["a1a2", "g8h8", "a2a1", "h8g8"] * 2:
        board.push_uci(uci)
    choices = [pychess_rs.Move.from_uci("a1a2"), pychess_rs.Move.from_uci("a1b1")]
    result = engine.play(board, Limit(depth=6), root_moves=choices)
    assert result.move == pychess_rs.Move.from_uci("a1b1")
    assert result.info["score"].relative > Cp(300)
    drawn = engine.analyse(board, Limit(depth=6), root_moves=choices[:1])
    assert drawn["score"].relative == Cp(0)
    # Without the history, the queen move that repeats is as good as any other.
    fresh = pychess_rs.Board(board.fen())
    repeat = engine.analyse(fresh, Limit(depth=6), root_moves=choices[:1])
    assert repeat["score"].relative > Cp(300)


def test_chess960_castling(engine: Engine) -> None:
    # The king on f1: castling short is f1h1 (king takes rook), f1g1 is a plain king move.
    board = pychess_rs.Board(CHESS960, chess960=True)
    castle = board.parse_uci("f1h1")
    assert board.is_castling(castle)
    result = engine.play(board, Limit(depth=2), root_moves=[castle])
    assert result.move == castle
    assert result.move is not None and board.uci(result.move) == "f1h1"


def test_info_callback_and_fields(engine: Engine) -> None:
    seen: list[pychess_rs.InfoDict] = []
    info = engine.analyse(pychess_rs.Board(), Limit(depth=5), on_info=seen.append)
    assert [i["depth"] for i in seen if i["multipv"] == 1][-1] == 5
    for key in ("score", "pv", "depth", "seldepth", "nodes", "nps", "hashfull", "time"):
        assert key in info
    assert info["seldepth"] >= info["depth"]
    assert isinstance(info["time"], float)


def test_callback_error_stops_and_propagates(engine: Engine) -> None:
    def boom(_info: pychess_rs.InfoDict) -> None:
        raise KeyError("from the callback")

    start = time.monotonic()
    with pytest.raises(KeyError, match="from the callback"):
        engine.analyse(pychess_rs.Board(), Limit(), on_info=boom)  # infinite until the error
    assert time.monotonic() - start < 2


# ---- stopping from another thread -----------------------------------------------------------


def run_in_thread(function: object) -> tuple[threading.Thread, list[object]]:
    out: list[object] = []

    def target() -> None:
        out.append(function())  # type: ignore[operator]

    thread = threading.Thread(target=target)
    thread.start()
    return thread, out


def test_stop_infinite_analysis_from_another_thread(engine: Engine) -> None:
    board = pychess_rs.Board()
    started = threading.Event()
    thread, out = run_in_thread(
        lambda: engine.analyse(board, Limit(), on_info=lambda _i: started.set())
    )
    assert started.wait(5)
    time.sleep(0.05)
    stopped_at = time.monotonic()
    engine.stop()
    thread.join(5)
    assert not thread.is_alive()
    assert time.monotonic() - stopped_at < 1.5
    info = out[0]
    assert isinstance(info, dict) and info["pv"][0] in board.legal_moves


def test_ponder_waits_for_ponderhit(engine: Engine) -> None:
    board = pychess_rs.Board()
    started = threading.Event()
    thread, out = run_in_thread(
        lambda: engine.play(
            board, Limit(time=0.05), pondering=True, on_info=lambda _i: started.set()
        )
    )
    assert started.wait(5)
    time.sleep(0.3)
    assert thread.is_alive(), "a pondering search must not stop on its time limit"
    engine.ponderhit()
    thread.join(5)
    assert not thread.is_alive()
    result = out[0]
    assert isinstance(result, pychess_rs.PlayResult)
    assert_legal(board, result.move)


def test_ctrl_c_stops_a_search_in_the_main_thread(engine: Engine) -> None:
    assert threading.current_thread() is threading.main_thread()
    # Python's own Ctrl-C handler, whatever the test runner installed (pytest-xdist's
    # workers do not raise KeyboardInterrupt on SIGINT).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    watchdog = threading.Timer(5, engine.stop)  # without the Ctrl-C check: slow, not a hang
    timer.start()
    watchdog.start()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            engine.analyse(pychess_rs.Board(), Limit())  # until stopped
    finally:
        timer.cancel()
        watchdog.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 2
    assert_legal(pychess_rs.Board(), engine.play(pychess_rs.Board(), Limit(depth=2)).move)


def test_stop_when_idle_is_harmless(engine: Engine) -> None:
    engine.stop()
    engine.ponderhit()
    assert_legal(pychess_rs.Board(), engine.play(pychess_rs.Board(), Limit(depth=1)).move)


def test_searcher_is_shared_between_threads() -> None:
    searcher = Searcher(hash_mb=4)
    results: list[object] = []

    def search() -> None:
        results.append(searcher.search(pychess_rs.Board(), depth=4).best)

    threads = [threading.Thread(target=search) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert len(results) == 3 and all(r in pychess_rs.Board().legal_moves for r in results)


def test_stopped_control_still_gives_a_move() -> None:
    control = SearchControl()
    control.stop()
    result = Searcher(hash_mb=1).search(pychess_rs.Board(), infinite=True, control=control)
    assert result.best in pychess_rs.Board().legal_moves


# ---- options and bad input --------------------------------------------------------------------


def test_options_and_configure() -> None:
    engine = Engine(hash_mb=2, skill_level=10)
    assert engine.options["hash_mb"] == 2
    assert engine.options["skill_level"] == 10
    engine.configure(hash_mb=4, limit_elo=1500)
    assert engine.options["hash_mb"] == 4 and engine.options["limit_elo"] == 1500
    engine.configure(limit_elo=None)
    assert engine.options["limit_elo"] is None
    engine.clear()
    assert_legal(pychess_rs.Board(), engine.play(pychess_rs.Board(), Limit(depth=2)).move)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"hash_mb": 0}, "hash_mb must be in 1.."),
        ({"hash_mb": 10**9}, "hash_mb must be in"),
        ({"threads": "2"}, "threads must be an int"),
        ({"skill_level": 21}, "skill_level must be in 0..20"),
        ({"limit_elo": 10}, "limit_elo must be in"),
        ({"multipv": True}, "multipv must be an int"),
        ({"contempt": 3}, "unknown engine option 'contempt'"),
    ],
)
def test_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(pychess_rs.EngineOptionError, match=message):
        Engine(**options)  # type: ignore[arg-type]
    engine = Engine(hash_mb=1)
    with pytest.raises(ValueError, match=message):
        engine.configure(**options)  # type: ignore[arg-type]
    assert engine.options["hash_mb"] == 1


def test_searcher_checks_options_with_the_engines_table() -> None:
    # The Searcher itself (no Python check in front of it) raises the same errors.
    with pytest.raises(pychess_rs.EngineOptionError, match=r"hash_mb must be in 1\.\.4096, got 0"):
        Searcher(hash_mb=0)
    with pytest.raises(pychess_rs.EngineOptionError, match=r"got 10{40}$"):
        Searcher(threads=10**40)
    searcher = Searcher(hash_mb=2)
    searcher.configure(skill_level=5)
    assert searcher.options == {**Searcher.default_options(), "hash_mb": 2, "skill_level": 5}
    # A refused change changes nothing, even the options given before the bad one.
    with pytest.raises(pychess_rs.EngineOptionError, match="multipv must be in"):
        searcher.configure(threads=2, multipv=0)
    assert searcher.options["threads"] == 1
    ranges = pychess_rs.engine.option_ranges()
    assert set(ranges) == set(Searcher.default_options())
    assert ranges["skill_level"] == (0, 20)


def test_analyse_multipv_is_an_engine_option(engine: Engine) -> None:
    for bad in [0, True, "2"]:
        with pytest.raises(pychess_rs.EngineOptionError, match="engine option multipv"):
            engine.analyse(pychess_rs.Board(), Limit(depth=1), multipv=bad)  # type: ignore[call-overload]
    assert engine.options["multipv"] == 1


def test_root_moves_may_be_python_chess_moves(engine: Engine) -> None:
    chess = pytest.importorskip("chess")
    only = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
    move = engine.play(pychess_rs.Board(), Limit(depth=2), root_moves=only).move
    assert move is not None and move.uci() in ("a2a3", "h2h3")


@pytest.mark.parametrize(
    "limit",
    [
        Limit(depth=0),
        Limit(depth=-3),
        Limit(nodes=2.5),  # type: ignore[arg-type]
        Limit(time=-1),
        Limit(time=float("nan")),
        Limit(white_clock=float("inf")),
        Limit(mate=0),
    ],
)
def test_bad_limits(engine: Engine, limit: Limit) -> None:
    with pytest.raises(pychess_rs.LimitError):
        engine.play(pychess_rs.Board(), limit)


def test_bad_arguments(engine: Engine) -> None:
    with pytest.raises(pychess_rs.LimitError):
        engine.play(pychess_rs.Board(), {"depth": 3})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        engine.play("startpos", Limit(depth=1))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Searcher(hash_mb=1).search(pychess_rs.Board(), movetime=-0.5)
    with pytest.raises(TypeError):
        Searcher(hash_mb=1).search(pychess_rs.Board(), depth=1, searchmoves=["e2e4"])  # type: ignore[list-item]


def test_invalid_position_is_refused(engine: Engine) -> None:
    board = pychess_rs.Board()
    for uci in ["e2e4", "d7d5", "f1b5"]:
        board.push_uci(uci)
    board.push(pychess_rs.Move.null())  # Black passes while in check
    with pytest.raises(ValueError, match="side not to move is in check"):
        engine.play(board, Limit(depth=3))
    board.pop()
    assert_legal(board, engine.play(board, Limit(depth=3)).move)


def test_module_examples() -> None:
    import doctest

    import pychess_rs.engine._inprocess

    result = doctest.testmod(pychess_rs.engine._inprocess)
    assert result.attempted > 0 and result.failed == 0


def test_bench_is_deterministic() -> None:
    first = bench(2)
    second = bench(2)
    assert first[0] == second[0] > 0
    with pytest.raises(ValueError):
        bench(0)
