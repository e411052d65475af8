"""The engine package's plain types: scores and WDL models, limits and results, options, and
the reader of UCI ``info`` lines, each against python-chess 1.11.2's ``chess.engine`` as the
oracle where it has the same thing."""

from __future__ import annotations

import doctest
import pickle

import chess
import chess.engine
import pytest

import pychess_rs
import pychess_rs.engine as engine

MODELS = ["sf", "sf16.1", "sf16", "sf15.1", "sf15", "sf14", "sf12", "lichess"]


def _oracle_score(score: engine.Score) -> chess.engine.Score:
    if score is engine.MateGiven:
        return chess.engine.MateGiven
    if isinstance(score, engine.Mate):
        return chess.engine.Mate(score.moves)
    assert isinstance(score, engine.Cp)
    return chess.engine.Cp(score.cp)


SCORES = [
    engine.Mate(-0),
    engine.Mate(-1),
    engine.Mate(-30),
    *(engine.Cp(cp) for cp in range(-4500, 4600, 137)),
    engine.Mate(+30),
    engine.Mate(+1),
    engine.MateGiven,
]


@pytest.mark.parametrize("model", MODELS)
def test_wdl_models_equal_python_chess(model: str) -> None:
    for score in SCORES:
        for ply in (0, 1, 7, 30, 63, 64, 150, 239, 240, 400):
            ours = score.wdl(model=model, ply=ply)  # type: ignore[arg-type]
            theirs = _oracle_score(score).wdl(model=model, ply=ply)  # type: ignore[arg-type]
            assert tuple(ours) == (theirs.wins, theirs.draws, theirs.losses), (score, ply)


def test_unknown_wdl_model() -> None:
    with pytest.raises(ValueError, match="unknown WDL model 'sf99'"):
        engine.Cp(10).wdl(model="sf99")  # type: ignore[arg-type]


def test_scores_text_order_and_negation_equal_python_chess() -> None:
    for a in SCORES:
        oracle = _oracle_score(a)
        assert (repr(a), str(a)) == (repr(oracle), str(oracle))
        assert repr(-a) == repr(-oracle) and repr(abs(a)) == repr(abs(oracle))
        assert a.score(mate_score=10_000) == oracle.score(mate_score=10_000)
        assert a.mate() == oracle.mate()
        for b in SCORES:
            assert (a < b) == (oracle < _oracle_score(b)), (a, b)
            assert (a == b) == (oracle == _oracle_score(b)), (a, b)


def test_mate_given_is_one_value_and_pickles_as_itself() -> None:
    assert -engine.Mate(0) is engine.MateGiven
    assert pickle.loads(pickle.dumps(engine.MateGiven)) is engine.MateGiven
    assert pickle.loads(pickle.dumps(engine.PovScore(engine.Cp(7), False))) == engine.PovScore(
        engine.Cp(-7), True
    )


def test_wdl_and_pov_wdl() -> None:
    wdl = engine.Wdl(600, 300, 100)
    assert wdl.total() == 1000 and wdl.expectation() == 0.75
    assert -wdl == engine.Wdl(100, 300, 600) and list(reversed(wdl)) == [100, 300, 600]
    assert not engine.Wdl(0, 0, 0)
    pov = engine.PovWdl(wdl, pychess_rs.BLACK)
    assert pov.black() == wdl and pov.white() == -wdl
    # Compatible with the plain tuple engines report (its relative view).
    assert pov == (600, 300, 100) and tuple(pov) == (600, 300, 100) and pov[2] == 100
    assert pov == engine.PovWdl(-wdl, pychess_rs.WHITE)
    assert repr(pov) == "PovWdl(Wdl(wins=600, draws=300, losses=100), BLACK)"
    assert engine.PovScore(engine.Cp(0), True).wdl().relative.expectation() == 0.5


def test_limit_and_result_reprs_equal_python_chess() -> None:
    for kwargs in ({}, {"time": 1}, {"depth": 5, "white_clock": 3.5, "clock_id": "x"}):
        assert repr(engine.Limit(**kwargs)) == repr(chess.engine.Limit(**kwargs))  # type: ignore[arg-type]
    ours = repr(engine.PlayResult(None, None, draw_offered=True))
    theirs = repr(chess.engine.PlayResult(None, None, draw_offered=True))
    assert ours.split(" (")[1] == theirs.split(" (")[1]
    assert engine.PlayResult(None, None).info == {}


def test_option_parse() -> None:
    spin = engine.Option("Hash", "spin", 16, 1, 1024, [])
    assert spin.parse("32") == 32
    with pytest.raises(engine.EngineError, match="at most 1024 for option 'Hash'"):
        spin.parse(2048)
    with pytest.raises(engine.EngineError, match="expected an integer"):
        spin.parse(True)
    check = engine.Option("Ponder", "check", False, None, None, None)
    assert check.parse("true") is True and check.parse(False) is False
    assert check.is_managed() and not spin.is_managed()
    for kind in ("button", "reset", "save"):
        assert engine.Option("Clear", kind, None, None, None, None).is_action()
    assert not check.is_action() and not spin.is_action()
    combo = engine.Option("Style", "combo", "Normal", None, None, ["Solid", "Normal", "Risky"])
    assert combo.parse("risky") == "Risky"
    with pytest.raises(engine.EngineError, match="choices: Solid, Normal, Risky"):
        combo.parse("Wild")
    text = engine.Option("Path", "string", "", None, None, None)
    assert text.parse(42) == "42"
    with pytest.raises(engine.EngineError, match="line break"):
        text.parse("a\nsetoption name Hash value 1")


def test_uci_option_map() -> None:
    options = engine.UciOptionMap(Hash=16)
    options["HASH"] = 32
    assert list(options) == ["Hash"] and options["hash"] == 32
    assert options == {"hAsh": 32} and options != {"hash": 33}
    copy = options.copy()
    del copy["hash"]
    assert len(copy) == 0 and len(options) == 1
    assert repr(options) == "UciOptionMap({'Hash': 32})"


INFO_LINES = [
    "depth 12 seldepth 18 multipv 1 score cp 31 upperbound nodes 9000 nps 45000 hashfull 3 "
    "tbhits 0 time 200 pv e2e4 e7e5 g1f3",
    "depth 3 score mate -2 wdl 0 0 1000 currmove d2d4 currmovenumber 2 pv d2d4 e9e5",
    "string  two  spaces kept score cp 4",
    "refutation e2e4 d7d5 currline 1 e2e4",
    "depth x nodes 5 ebf 1.5 cpuload 900",
    "depth 3 score cp 5 lowerbound wdl 0 0 1000 currmove d2d4 string hi pv e2e4",
    "score lowerbound cp 3",
]


@pytest.mark.parametrize("line", INFO_LINES)
@pytest.mark.parametrize(
    "selector",
    [engine.INFO_ALL, engine.INFO_BASIC | engine.INFO_PV, engine.INFO_SCORE, engine.INFO_CURRLINE],
)
def test_uci_info_equals_python_chess(line: str, selector: engine.Info) -> None:
    ours = engine._parse_uci_info(line, pychess_rs.Board(), selector)
    theirs = chess.engine._parse_uci_info(line, chess.Board(), chess.engine.Info(int(selector)))
    assert _plain(ours) == _plain(theirs)


def _plain(info: object) -> object:
    if isinstance(info, dict):
        return {_plain(k): _plain(v) for k, v in info.items()}
    if isinstance(info, list):
        return [_plain(v) for v in info]
    if hasattr(info, "uci"):
        return info.uci()  # type: ignore[union-attr]
    if hasattr(info, "relative"):
        return (repr(info.relative), info.turn)  # type: ignore[attr-defined]
    return info


def test_info_moves_are_pychess_rs_moves_for_any_board() -> None:
    info = engine._parse_uci_info("pv e2e4 e7e5 currmove e2e4", chess.Board())
    assert info["pv"] == [pychess_rs.Move.from_uci("e2e4"), pychess_rs.Move.from_uci("e7e5")]
    assert info["currmove"] == pychess_rs.Move.from_uci("e2e4")
    oracle = chess.Board()
    oracle.push(info["pv"][0])  # python-chess boards take them
    assert oracle.peek().uci() == "e2e4" and oracle.turn == chess.BLACK
    assert engine._parse_uci_info("pv e2e4", pychess_rs.Board(), engine.INFO_NONE) == {}


def test_module_examples() -> None:
    for module in (engine._score, engine._info, engine._options):  # type: ignore[attr-defined]
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_engine_module_is_reached_as_in_python_chess() -> None:
    import subprocess
    import sys

    script = (
        "import pychess_rs as chess\n"
        "assert chess.engine.SimpleEngine.popen_uci and chess.engine.Engine\n"
        "import pychess_rs.engine\n"
        "assert pychess_rs.engine is chess.engine\n"
        "from pychess_rs.engine import popen_uci, popen_xboard, INFO_ALL, Cp\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)
