"""tools/match.py: statistics, opening files, the clock, the game loop and real short matches.

The matches are played between tiny UCI engines written below as a Python script (run with
``sys.executable``, using python-chess): one plays random legal moves, the others misbehave on
purpose at a given move (illegal move, crash, sleep past the time, hang, no move), so every
failure kind is counted. No real engine is needed. ``tools/`` is on ``sys.path`` (pyproject's
pytest ``pythonpath``), so ``match`` is the package ``tools/match/``.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import chess
import chess.engine
import pytest
from match import cli, engines, stats
from match.clock import Clock, TimeControl
from match.game import (
    CRASH,
    ILLEGAL_MOVE,
    NO_ANSWER,
    TIME_FORFEIT,
    GameRecord,
    Limits,
    play_game,
)
from match.openings import Opening, load_openings, opening_order, parse_opening, parse_openings

DATA = Path(__file__).resolve().parent / "data"

# ---- statistics --------------------------------------------------------------------------------


def test_elo_of_a_score() -> None:
    # -400 log10(1/0.75 - 1) = 400 log10(3) = 190.848...
    assert stats.elo_from_score(0.75) == pytest.approx(190.85, abs=0.005)
    assert stats.elo_from_score(0.25) == pytest.approx(-190.85, abs=0.005)
    assert stats.elo_from_score(0.5) == 0.0
    assert stats.elo_from_score(1.0) == math.inf
    assert stats.elo_from_score(0.0) == -math.inf
    for elo in (-500.0, -35.0, 0.0, 5.0, 240.0):
        assert stats.elo_from_score(stats.expected_score(elo)) == pytest.approx(elo)


def test_trinomial_interval_by_hand() -> None:
    # W-D-L 30-20-10: mean 2/3; variance (30 (1/3)^2 + 20 (1/6)^2 + 10 (2/3)^2) / 60 = 5/36;
    # standard error sqrt(5/36/60) = 0.048113; +-1.96 se gives scores 0.57236 and 0.76097.
    est = stats.trinomial_elo(30, 20, 10)
    assert est.score == pytest.approx(2 / 3)
    assert est.elo == pytest.approx(120.41, abs=0.01)
    assert est.low == pytest.approx(stats.elo_from_score(2 / 3 - 1.959964 * 0.0481125), abs=0.05)
    assert est.low == pytest.approx(50.64, abs=0.05)
    assert est.high == pytest.approx(201.16, abs=0.05)
    assert est.samples == 60


def test_pentanomial_interval_by_hand() -> None:
    # Pairs scoring 0, 1/2, 1, 3/2, 2: 1, 3, 10, 5, 1 times. Mean (3/4 + 5 + 15/4 + 1) / 20
    # = 0.525; variance sum c (a - 0.525)^2 / 20 = 0.9875 / 20 = 0.049375; standard error
    # sqrt(0.049375 / 20) = 0.049687.
    est = stats.pentanomial_elo([1, 3, 10, 5, 1])
    assert est.score == pytest.approx(0.525)
    assert est.elo == pytest.approx(stats.elo_from_score(0.525))
    half = 1.959964 * 0.049687
    assert est.low == pytest.approx(stats.elo_from_score(0.525 - half), abs=0.01)
    assert est.high == pytest.approx(stats.elo_from_score(0.525 + half), abs=0.01)
    assert est.samples == 20


def test_intervals_shrink_with_more_games() -> None:
    errors = [stats.trinomial_elo(3 * k, 4 * k, 2 * k).error for k in (1, 4, 16, 64)]
    assert errors == sorted(errors, reverse=True)
    # The standard error goes like 1/sqrt(n): 4x the games, about half the interval.
    assert errors[3] / errors[2] == pytest.approx(0.5, rel=0.02)
    penta = [stats.pentanomial_elo([k, 2 * k, 5 * k, 2 * k, k]).error for k in (1, 10, 100)]
    assert penta == sorted(penta, reverse=True)


def test_los() -> None:
    assert stats.los(0, 0) == 0.5
    assert stats.los(7, 7) == 0.5
    # Phi(10 / sqrt(10)) = Phi(3.1623) = 0.99922
    assert stats.los(10, 0) == pytest.approx(0.99922, abs=1e-5)
    assert stats.los(0, 10) == pytest.approx(1 - 0.99922, abs=1e-5)


def test_sprt_bounds() -> None:
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944, abs=1e-3)
    assert upper == pytest.approx(2.944, abs=1e-3)
    with pytest.raises(ValueError):
        stats.Sprt(elo0=5, elo1=0)
    with pytest.raises(ValueError):
        stats.Sprt(alpha=0.0)


def test_sprt_llr_sign_and_normal_approximation() -> None:
    sprt = stats.Sprt(0, 5, 0.05, 0.05)
    tri = stats.TRINOMIAL_SCORES
    assert sprt.llr([0, 0, 0], tri) == 0.0
    assert sprt.llr([100, 200, 130], tri) > 0  # score 53.5%, above s1 = 50.7%
    assert sprt.llr([130, 200, 100], tri) < 0
    # Halfway between H0 and H1 neither is favoured.
    s_mid = (stats.expected_score(0) + stats.expected_score(5)) / 2
    w = round(1000 * s_mid - 250)  # (W + D/2) / 1000 = s_mid with D = 500
    llr_mid = sprt.llr([500 - w, 500, w], tri)
    assert abs(llr_mid) < 0.05
    # For many games the GSPRT LLR agrees with its normal approximation
    # N (s1 - s0) (2 mean - s0 - s1) / (2 var).
    wins, draws, losses = 1200, 2000, 1000
    n = wins + draws + losses
    mean, var = stats.mean_and_variance([losses, draws, wins], tri)
    s0, s1 = stats.expected_score(0), stats.expected_score(5)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert sprt.llr([losses, draws, wins], tri) == pytest.approx(approx, rel=0.01)
    penta = [30, 200, 500, 240, 30]
    mean, var = stats.mean_and_variance(penta, stats.PENTANOMIAL_SCORES)
    approx = sum(penta) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert sprt.llr(penta, stats.PENTANOMIAL_SCORES) == pytest.approx(approx, rel=0.01)


def _games_to_verdict(sprt: stats.Sprt, counts_for: object) -> tuple[int, str]:
    assert callable(counts_for)
    for n in range(1, 5000):
        counts, scores = counts_for(n)
        verdict = sprt.verdict(sprt.llr(counts, scores))
        if verdict is not None:
            return n, verdict
    raise AssertionError("no verdict")


def test_sprt_all_wins_accepts_h1_and_all_losses_h0() -> None:
    sprt = stats.Sprt(0, 5, 0.05, 0.05)
    # Each win adds about log(s1/s0) = log(0.50719/0.5) = 0.01429 to the LLR, so the upper
    # bound 2.944 is crossed after about 206 wins; each loss adds log((1-s1)/(1-s0)).
    n, verdict = _games_to_verdict(sprt, lambda n: ([0, 0, n], stats.TRINOMIAL_SCORES))
    assert verdict == "H1 accepted"
    assert 195 <= n <= 215
    n, verdict = _games_to_verdict(sprt, lambda n: ([n, 0, 0], stats.TRINOMIAL_SCORES))
    assert verdict == "H0 accepted"
    assert 190 <= n <= 215
    # A big difference is decided in a few pairs.
    big = stats.Sprt(0, 200, 0.05, 0.05)
    n, verdict = _games_to_verdict(big, lambda n: ([0, 0, 0, 0, n], stats.PENTANOMIAL_SCORES))
    assert verdict == "H1 accepted" and n <= 10
    n, verdict = _games_to_verdict(big, lambda n: ([n, 0, 0, 0, 0], stats.PENTANOMIAL_SCORES))
    assert verdict == "H0 accepted" and n <= 10
    # Even results (the score of H0) lean to H0, by about (s1 - s0)^2 / (2 var) a game.
    assert sprt.llr([250, 500, 250], stats.TRINOMIAL_SCORES) < 0
    assert sprt.verdict(sprt.llr([5000, 10000, 5000], stats.TRINOMIAL_SCORES)) == "H0 accepted"


# ---- openings ----------------------------------------------------------------------------------


def test_opening_files_of_the_repository() -> None:
    openings = load_openings(DATA / "openings.epd")
    assert len(openings) == 200
    assert openings[0].index == 1 and not openings[0].chess960
    assert all(o.board().turn == chess.WHITE for o in openings)
    wac = load_openings(DATA / "wac.epd")
    assert len(wac) == 300
    assert wac[1].fen.startswith("8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - -")


def test_opening_lines() -> None:
    text = [
        "# a comment",
        "",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "x";',
        # Chess960 start position 518 is the standard one; this one (Shredder castling) is not.
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ]
    openings = parse_openings(text)
    assert [o.index for o in openings] == [3, 4, 5]
    assert [o.chess960 for o in openings] == [False, False, True]
    assert openings[0].board().turn == chess.BLACK
    assert openings[2].board().chess960
    forced = parse_openings(text, force_chess960=True)
    assert all(o.chess960 for o in forced)
    with pytest.raises(ValueError, match="line 2"):
        parse_openings(["8/8/8/8/8/8/p7/k6K w - - 0 1", "not a fen at all"])
    with pytest.raises(ValueError, match="game is already over"):
        parse_opening("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")  # stalemate
    with pytest.raises(ValueError, match="legal position"):
        parse_opening("8/8/8/8/8/8/8/K7 w - - 0 1")  # no black king
    with pytest.raises(ValueError, match="no opening"):
        parse_openings(["# nothing", ""])


def test_opening_order() -> None:
    assert opening_order(3, 7, False, None) == [0, 1, 2, 0, 1, 2, 0]
    shuffled = opening_order(10, 10, True, 42)
    assert sorted(shuffled) == list(range(10))
    assert shuffled == opening_order(10, 10, True, 42)
    assert shuffled != opening_order(10, 10, True, 43)


# ---- clock -------------------------------------------------------------------------------------


def test_time_control_parsing() -> None:
    assert TimeControl.parse("10+0.1") == TimeControl(10.0, 0.1, None)
    assert TimeControl.parse("40/60") == TimeControl(60.0, 0.0, 40)
    assert TimeControl.parse("0.5") == TimeControl(0.5, 0.0, None)
    assert str(TimeControl.parse("40/60+0.5")) == "40/60+0.5"
    for bad in ("", "abc", "10+", "+1", "0+1", "0/10"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)


def test_clock_charges_increments_and_flags() -> None:
    clock = Clock(TimeControl(1.0, 0.1), margin=0.05)
    assert clock.budget(chess.WHITE) == pytest.approx(1.05)
    assert not clock.charge(chess.WHITE, 0.5)
    assert clock.remaining[chess.WHITE] == pytest.approx(0.6)
    assert clock.remaining[chess.BLACK] == pytest.approx(1.0)
    # 0.63 s with 0.6 left is within the margin: no forfeit, the clock stays at 0 + increment.
    assert not clock.charge(chess.WHITE, 0.63)
    assert clock.remaining[chess.WHITE] == pytest.approx(0.1)
    kwargs = clock.limit_kwargs(chess.BLACK)
    assert kwargs["white_clock"] == pytest.approx(0.1)
    assert kwargs["black_clock"] == pytest.approx(1.0)
    assert kwargs["white_inc"] == kwargs["black_inc"] == pytest.approx(0.1)
    assert clock.charge(chess.WHITE, 0.16)  # 0.1 left, margin 0.05: flag falls


def test_clock_movetime_and_periods() -> None:
    clock = Clock(None, movetime=0.2, margin=0.05)
    assert clock.limit_kwargs(chess.WHITE) == {"time": 0.2}
    assert clock.budget(chess.WHITE) == pytest.approx(0.25)
    assert not clock.charge(chess.WHITE, 0.25)
    assert clock.charge(chess.WHITE, 0.26)
    assert Clock(None, None).budget(chess.WHITE) is None
    periods = Clock(TimeControl(10.0, 0.0, 2), margin=0.0)
    assert periods.limit_kwargs(chess.WHITE)["remaining_moves"] == 2
    periods.charge(chess.WHITE, 3.0)
    assert periods.limit_kwargs(chess.WHITE)["remaining_moves"] == 1
    periods.charge(chess.WHITE, 3.0)  # end of the period: the base time comes back
    assert periods.remaining[chess.WHITE] == pytest.approx(14.0)
    assert periods.limit_kwargs(chess.WHITE)["remaining_moves"] == 2


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakePlayer:
    """Plays scripted moves (None: the first legal move), each taking a scripted time on a
    fake clock; a script entry may instead be an exception to raise or "hang"."""

    def __init__(self, clock: FakeTime, script: Sequence[tuple[float, object]]) -> None:
        self.clock = clock
        self.script = list(script)
        self.broken = False
        self.limits: list[chess.engine.Limit] = []

    @property
    def go_sent_at(self) -> float | None:
        return None

    async def play(
        self, board: chess.Board, limit: chess.engine.Limit, game: object
    ) -> chess.engine.PlayResult:
        self.limits.append(limit)
        seconds, action = self.script.pop(0) if self.script else (0.0, None)
        if action == "hang":
            await asyncio.sleep(60)
        self.clock.now += seconds
        if isinstance(action, BaseException):
            raise action
        move = chess.Move.from_uci(action) if isinstance(action, str) else None
        if move is None:
            move = next(iter(board.legal_moves))
        return chess.engine.PlayResult(move, None)


START = Opening(1, chess.STARTING_FEN, False)


def _play(
    white: FakePlayer, black: FakePlayer, limits: Limits, fake: FakeTime, opening: Opening = START
) -> GameRecord:
    return asyncio.run(play_game(white, black, "w", "b", opening, limits, clock_fn=fake))


def test_game_loop_time_forfeit_on_the_fake_clock() -> None:
    fake = FakeTime()
    limits = Limits(tc=TimeControl(1.0, 0.0), margin=0.05)
    white = FakePlayer(fake, [(0.6, None), (0.6, None)])
    black = FakePlayer(fake, [(0.01, None)] * 5)
    record = _play(white, black, limits, fake)
    assert record.termination == TIME_FORFEIT and record.culprit == chess.WHITE
    assert record.result == "0-1" and record.plies == 2
    # The clocks passed to the engines are the runner's.
    assert white.limits[0].white_clock == pytest.approx(1.0)
    assert white.limits[1].white_clock == pytest.approx(0.4)
    assert black.limits[0].black_clock == pytest.approx(1.0)
    assert black.limits[0].white_clock == pytest.approx(0.4)
    # With an increment the same moves are in time.
    fake = FakeTime()
    white = FakePlayer(fake, [(0.6, None)] * 3 + [(2.0, None)])
    black = FakePlayer(fake, [(0.01, None)] * 5)
    record = _play(white, black, Limits(tc=TimeControl(1.0, 0.5), margin=0.05), fake)
    assert record.termination == TIME_FORFEIT and record.plies == 6


def test_time_forfeit_against_a_bare_king_is_a_draw() -> None:
    # Black flags while White has a pawn: White could still mate, so White wins.
    fake = FakeTime()
    opening = Opening(1, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", False)
    white = FakePlayer(fake, [(0.0, None)] * 5)
    black = FakePlayer(fake, [(5.0, "e8d8")])
    record = _play(white, black, Limits(tc=TimeControl(1.0)), fake, opening)
    assert record.termination == TIME_FORFEIT and record.culprit == chess.BLACK
    assert record.result == "1-0"
    # White flags against a bare king, which cannot mate: a draw (FIDE Laws 6.9).
    fake = FakeTime()
    opening = Opening(1, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", False)
    white = FakePlayer(fake, [(5.0, "e2e3")])
    black = FakePlayer(fake, [(0.0, "e8d8")])
    record = _play(white, black, Limits(tc=TimeControl(1.0)), fake, opening)
    assert record.termination == TIME_FORFEIT and record.culprit == chess.WHITE
    assert record.result == "1/2-1/2"


def test_game_loop_failures() -> None:
    fake = FakeTime()
    limits = Limits(movetime=0.1)
    ok = FakePlayer(fake, [])
    record = _play(FakePlayer(fake, [(0.0, "e2e5")]), ok, limits, fake)
    assert record.termination == ILLEGAL_MOVE and record.result == "0-1"
    record = _play(ok, FakePlayer(fake, [(0.0, "e7e4")]), limits, fake)
    assert record.termination == ILLEGAL_MOVE and record.result == "1-0"
    dead = FakePlayer(fake, [(0.0, chess.engine.EngineTerminatedError("gone"))])
    record = _play(dead, ok, limits, fake)
    assert record.termination == CRASH and dead.broken and record.culprit == chess.WHITE
    garbled = FakePlayer(fake, [(0.0, chess.engine.EngineError("unexpected output"))])
    record = _play(ok, garbled, limits, fake)
    assert record.termination == CRASH and garbled.broken
    illegal_uci = chess.engine.EngineError(chess.IllegalMoveError("illegal uci: 'e2e5'"))
    record = _play(FakePlayer(fake, [(0.0, illegal_uci)]), ok, limits, fake)
    assert record.termination == ILLEGAL_MOVE
    # Real time: a player that never answers is stopped after budget + hang timeout.
    hung = FakePlayer(fake, [(0.0, "hang")])
    record = _play(hung, ok, Limits(movetime=0.01, margin=0.0, hang_timeout=0.05), fake)
    assert record.termination == TIME_FORFEIT and hung.broken
    hung = FakePlayer(fake, [(0.0, "hang")])
    record = _play(hung, ok, Limits(nodes=100, hang_timeout=0.05), fake)
    assert record.termination == NO_ANSWER and hung.broken


def test_game_loop_ends_by_the_rules() -> None:
    fake = FakeTime()
    fools_mate = ["f2f3", "e7e5", "g2g4", "d8h4"]
    white = FakePlayer(fake, [(0.0, m) for m in fools_mate[0::2]])
    black = FakePlayer(fake, [(0.0, m) for m in fools_mate[1::2]])
    record = _play(white, black, Limits(depth=1), fake)
    assert (record.termination, record.result, record.plies) == ("checkmate", "0-1", 4)
    # Knights shuffling: the threefold repetition is claimed as soon as the side to move can
    # claim it, i.e. with its next move (python-chess semantics): after 7 plies.
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    white = FakePlayer(fake, [(0.0, m) for m in shuffle[0::2]])
    black = FakePlayer(fake, [(0.0, m) for m in shuffle[1::2]])
    record = _play(white, black, Limits(depth=1), fake)
    assert (record.termination, record.result, record.plies) == (
        "threefold_repetition",
        "1/2-1/2",
        7,
    )


# ---- engine specs ------------------------------------------------------------------------------


def test_engine_spec_parsing() -> None:
    spec = engines.parse_engine_spec(
        ["cmd=python3 -m pychess_rs uci", "name=new", "option.Hash=64", "arg=--x"]
    )
    assert spec.cmd[1:] == ("-m", "pychess_rs", "uci", "--x")
    assert (spec.name, spec.proto, spec.options) == ("new", "uci", (("Hash", "64"),))
    assert engines.parse_engine_spec(["cmd=/usr/games/toga2"]).name == "toga2"
    for bad in (["name=x"], ["cmd=a", "colour=red"], ["cmd=a", "proto=cecp"], ["cmd=a", "x"]):
        with pytest.raises(ValueError):
            engines.parse_engine_spec(bad)
    with pytest.raises(ValueError, match="set by the runner"):
        engines.parse_engine_spec(["cmd=a", "option.UCI_Chess960=true"])
    a = engines.parse_engine_spec(["cmd=a"])
    assert [s.name for s in engines.unique_names([a, a, a])] == ["a", "a-2", "a-3"]


# ---- real matches between fake engines ---------------------------------------------------------

FAKE_ENGINE = textwrap.dedent(
    """
    import os, random, sys, time
    import chess

    mode = sys.argv[1]
    at = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if len(sys.argv) > 3:
        with open(sys.argv[3], "a") as pids:
            pids.write(f"{os.getpid()}\\n")
    rng = random.Random(1)
    board = chess.Board()
    chess960 = False
    moves = 0

    def say(text):
        sys.stdout.write(text + "\\n")
        sys.stdout.flush()

    for line in sys.stdin:
        tokens = line.split()
        if not tokens:
            continue
        cmd = tokens[0]
        if cmd == "uci":
            say("id name fake-" + mode)
            say("option name Threads type spin default 2 min 1 max 8")
            if mode != "no960":
                say("option name UCI_Chess960 type check default false")
            say("uciok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "setoption" and tokens[2] == "UCI_Chess960":
            chess960 = tokens[4] == "true"
        elif cmd == "setoption" and tokens[2] == "Threads" and tokens[4] != "1":
            sys.exit("Threads must be 1")
        elif cmd == "ucinewgame":
            moves = 0
        elif cmd == "position":
            if tokens[1] == "startpos":
                board = chess.Board(chess960=chess960)
                rest = tokens[2:]
            else:
                board = chess.Board(" ".join(tokens[2:8]), chess960=chess960)
                rest = tokens[8:]
            for uci in rest[1:]:
                board.push_uci(uci)
        elif cmd == "go":
            moves += 1
            legal = list(board.legal_moves)
            move = rng.choice(legal).uci()
            if moves == at:
                if mode == "illegal":
                    own = list(board.occupied_co[board.turn] and chess.SquareSet(
                        board.occupied_co[board.turn]))
                    move = chess.Move(own[0], own[1]).uci()
                elif mode == "crash":
                    sys.exit(3)
                elif mode == "sleep":
                    time.sleep(0.7)
                elif mode == "hang":
                    time.sleep(60)
                elif mode == "nomove":
                    move = "(none)"
            if mode == "slow":
                time.sleep(0.02)
            say("bestmove " + move)
        elif cmd == "quit":
            break
    """
)


@pytest.fixture
def fake_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)
    # A hung fake engine ignores "quit"; do not wait the full two seconds to kill it.
    monkeypatch.setattr(engines, "QUIT_TIMEOUT", 0.2)
    return f"{sys.executable} {script}"


def _run_cli(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str, Any]:
    out_json = tmp_path / "summary.json"
    status = cli.main([*argv, "--json", str(out_json)])
    captured = capsys.readouterr()
    summary = json.loads(out_json.read_text()) if out_json.exists() else None
    return status, captured.out, captured.err, summary


def test_gauntlet_counts_each_failure_apart(
    fake_engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def engine(flag: str, mode: str, *extra: str) -> list[str]:
        return [flag, f"cmd={fake_engine} {mode} {' '.join(extra)}", f"name={mode}"]

    pgn = tmp_path / "games.pgn"
    argv = [
        *engine("--engine", "random"),
        *engine("--opponent", "illegal", "2"),
        *engine("--opponent", "crash", "2"),
        *engine("--opponent", "sleep", "2"),
        *engine("--opponent", "nomove", "2"),
        "--movetime", "0.05", "--margin", "0.45", "--hang-timeout", "0.3",
        "--games", "2", "--concurrency", "2", "--pgn", str(pgn),
    ]  # fmt: skip
    status, out, err, summary = _run_cli(argv, tmp_path, capsys)
    assert status == 0, err
    assert summary["finished"] and summary["games_played"] == 8
    rows = {p["opponent"]: p for p in summary["pairings"]}
    expected = {
        "illegal": ILLEGAL_MOVE,
        "crash": CRASH,
        "sleep": TIME_FORFEIT,
        "nomove": ILLEGAL_MOVE,
    }
    for opponent, kind in expected.items():
        row = rows[opponent]
        assert (row["wins"], row["draws"], row["losses"]) == (2, 0, 0), row
        assert row["terminations"] == {kind: 2}
        assert row["failures"][opponent][kind] == 2
        assert sum(row["failures"][opponent].values()) == 2
        assert sum(row["failures"]["random"].values()) == 0
        assert row["pentanomial"] == [0, 0, 0, 0, 1]
    engines_json = summary["engines"]
    assert engines_json["crash"]["restarts"] == 2
    assert engines_json["illegal"]["restarts"] == 0 and engines_json["random"]["restarts"] == 0
    assert engines_json["random"]["id_name"] == "fake-random"
    # Progress on stderr (a line per game), the summary table on stdout.
    assert err.count("] ") >= 8 and "[8/8]" in err
    assert "Match summary (finished): 8 of 8 games" in out
    assert "Failures by engine:" in out and "Terminations:" in out
    pgn_text = pgn.read_text()
    assert pgn_text.count('[Event "pychess-rs match"]') == 8
    assert '[Termination "time forfeit"]' in pgn_text
    assert '[Termination "rules infraction"]' in pgn_text
    assert '[Termination "abandoned"]' in pgn_text
    assert '[PlyCount "3"]' in pgn_text and '[SetUp "1"]' in pgn_text


def test_hang_without_a_time_limit_is_a_crash(
    fake_engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "--engine", f"cmd={fake_engine} hang 1", "name=hang",
        "--engine", f"cmd={fake_engine} random", "name=random",
        "--nodes", "10", "--hang-timeout", "0.6", "--games", "2", "--sprt", "elo0=0", "elo1=5",
    ]  # fmt: skip
    status, out, _err, summary = _run_cli(argv, tmp_path, capsys)
    assert status == 0
    # The games ran out long before the SPRT could decide.
    assert summary["finished"] and summary["sprt"]["verdict"] == "inconclusive"
    assert summary["sprt"]["llr"] < 0
    assert "verdict: inconclusive (games ran out)" in out
    row = summary["pairings"][0]
    assert row["terminations"] == {NO_ANSWER: 2}
    assert row["losses"] == 2 and row["failures"]["hang"][NO_ANSWER] == 2
    assert "0-0-2" in out


def test_sprt_stops_at_a_verdict(
    fake_engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "--engine", f"cmd={fake_engine} random", "name=random",
        "--engine", f"cmd={fake_engine} illegal 1", "name=illegal",
        "--movetime", "0.05", "--margin", "0.45", "--games", "200", "--concurrency", "2",
        "--sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05",
    ]  # fmt: skip
    status, out, err, summary = _run_cli(
        [*argv, "--progress", "status", "--status-interval", "0.1"], tmp_path, capsys
    )
    assert status == 0, err
    assert summary["sprt"]["verdict"] == "H1 accepted"
    assert summary["sprt"]["llr"] >= summary["sprt"]["upper"]
    assert summary["games_played"] < 30
    assert "verdict: H1 accepted" in out
    assert f"[{summary['games_played']}/200 games, " in err and "LLR +" in err


def test_chess960_openings(
    fake_engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openings = tmp_path / "960.epd"
    openings.write_text("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n")
    base = ["--openings", str(openings), "--movetime", "0.05", "--margin", "0.45"]
    argv = [
        "--engine", f"cmd={fake_engine} random", "name=a",
        "--engine", f"cmd={fake_engine} illegal 6", "name=b", *base, "--games", "2",
    ]  # fmt: skip
    status, _out, err, summary = _run_cli(argv, tmp_path, capsys)
    assert status == 0, err
    assert summary["chess960"] and summary["pairings"][0]["terminations"] == {ILLEGAL_MOVE: 2}
    argv = [
        "--engine", f"cmd={fake_engine} random", "name=a",
        "--engine", f"cmd={fake_engine} no960", "name=b", *base, "--games", "2",
    ]  # fmt: skip
    status, out, err, summary = _run_cli(argv, tmp_path, capsys)
    assert status == 1 and "no UCI_Chess960" in err
    assert summary["games_played"] == 0 and "Match summary" in out


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["--engine", "cmd=a", "--movetime", "1"],
        ["--engine", "cmd=a", "--engine", "cmd=b"],
        ["--engine", "cmd=a", "--engine", "cmd=b", "--tc", "1+x"],
        ["--engine", "cmd=a", "--engine", "cmd=b", "--depth", "2", "--games", "3"],
        ["--engine", "cmd=a", "--engine", "cmd=b", "--depth", "2", "--sprt", "elo0=5", "elo1=0"],
    ):
        with pytest.raises(SystemExit) as exc:
            cli.main(argv)
        assert exc.value.code == 2
    capsys.readouterr()


def test_engine_that_does_not_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, err, summary = _run_cli(
        ["--engine", "cmd=/nonexistent/engine", "--engine", "cmd=/nonexistent/other",
         "--depth", "1"],
        tmp_path,
        capsys,
    )  # fmt: skip
    assert status == 1 and "cannot start" in err
    assert summary["games_played"] == 0


def test_interrupt_stops_cleanly(fake_engine: str, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    tool = Path(__file__).resolve().parent.parent / "tools" / "match.py"
    argv = [
        sys.executable, str(tool),
        "--engine", f"cmd={fake_engine} slow 0 {pids}", "name=a",
        "--engine", f"cmd={fake_engine} slow 0 {pids}", "name=b",
        "--nodes", "1", "--games", "20", "--concurrency", "2",
    ]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # Wait until the workers' engines are up (2 from the preflight, 2 for the second
        # worker), then interrupt in the middle of the games.
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if pids.exists() and len(pids.read_text().split()) >= 4:
                break
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=15)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "Match summary (stopped: interrupted)" in out
    assert "SIGINT" in err
    # Every engine the runner started has been closed.
    for pid in map(int, pids.read_text().split()):
        for _ in range(50):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.02)
        else:
            raise AssertionError(f"engine {pid} still running")
