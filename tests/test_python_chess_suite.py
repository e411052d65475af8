"""python-chess 1.11.2's own test suite, run against pychess_rs.

python-chess's ``test.py`` (from its sdist, fetched and cached by
``tools/fetch-python-chess-tests``; ``tools/test`` does that and passes the directory in
``PYCHESS_RS_PYTHON_CHESS_SUITE``) is loaded with its module-level name ``chess`` bound to
pychess_rs, and each test method of the test cases below becomes one pytest test. Nothing is
downloaded here: without the cached suite the whole module is skipped, saying why.

The binding is made for ``test.py`` alone: ``sys.modules["chess"]`` is python-chess again as
soon as the file is loaded, so the oracle the other tests import is untouched.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
import unittest
from pathlib import Path
from typing import Any

import pytest

import pychess_rs

#: The test cases that must pass whole (issue 11: the python-chess drop-in).
DROP_IN_CASES = (
    "SquareTestCase",
    "MoveTestCase",
    "PieceTestCase",
    "BoardTestCase",
    "LegalMoveGeneratorTestCase",
    "BaseBoardTestCase",
    "SquareSetTestCase",
    "SvgTestCase",
)

#: The PGN reader and writer (issue 12), whose test case needs the drop-in Board and Move.
PGN_CASES = ("PgnTestCase",)

#: Polyglot opening books (issue 22), read from the suite's data/polyglot/*.bin.
POLYGLOT_CASES = ("PolyglotTestCase",)

#: Gaviota tablebases (issue 22), read from the suite's data/gaviota/ (3-piece tables only:
#: the tests that need 4- and 5-piece tables skip on MissingTableError, as they do for
#: python-chess itself here). NativeGaviotaTestCase, libgtb's in python-chess, is served by
#: the same Rust prober.
GAVIOTA_CASES = ("GaviotaTestCase", "NativeGaviotaTestCase")

#: The Gaviota tests that need tables the sdist does not carry; any other may not skip.
GAVIOTA_NEEDS_BIGGER_TABLES = {
    "GaviotaTestCase.test_dm_4",
    "GaviotaTestCase.test_dm_5",
    "GaviotaTestCase.test_ep_is_best",
    "GaviotaTestCase.test_ep_is_mate",
    "GaviotaTestCase.test_two_ep",
    "NativeGaviotaTestCase.test_two_ep",
}

#: Syzygy tablebases (issue 22), probing the suite's data/syzygy/regular tables (3 and 4 pieces:
#: the two tests on 5-piece positions skip with MissingTableError in python-chess too).
SYZYGY_CASES = ("SyzygyTestCase",)

#: The engine client (issue 21): pychess_rs.engine standing in for chess.engine. The tests
#: that need Stockfish or Fairy-Stockfish find them on PATH or in /usr/games (Debian's place;
#: tools/test installs them) and skip without them, as do the Crafty ones.
ENGINE_CASES = ("EngineTestCase",)

#: Where Debian puts the engines EngineTestCase starts by name.
ENGINE_DIRS = ("/usr/games",)

#: python-chess's variant test cases (issue 23), against pychess_rs.variant.
VARIANT_CASES = (
    "SuicideTestCase",
    "AtomicTestCase",
    "RacingKingsTestCase",
    "HordeTestCase",
    "ThreeCheckTestCase",
    "CrazyhouseTestCase",
    "GiveawayTestCase",
)

#: Tests that need what pychess-rs does not have yet: Syzygy tables of the variants.
NEEDS_VARIANTS = {
    "AtomicTestCase.test_lone_king_wdl": (
        "probes with a Tablebase(VariantBoard=AtomicBoard); pychess_rs.syzygy reads standard "
        "chess tables only"
    ),
    **{
        f"SyzygyTestCase.{test}": (
            "probes suicide/antichess tables with chess.variant boards; pychess_rs.syzygy "
            "reads standard chess tables only (variants are issue 23)"
        )
        for test in (
            "test_suicide_dtm",
            "test_suicide_dtz",
            "test_suicide_stats",
            "test_antichess_kvk",
        )
    },
}

#: ``test.py`` imports these submodules at its top; the ones pychess_rs has are bound to
#: ours, the rest to stand-ins whose attributes are inert exception classes, enough for
#: decorators such as ``@catchAndSkip(chess.gaviota.MissingTableError)`` that run when the
#: file is loaded. No test listed above uses a stand-in.
SUBMODULES = ("engine", "gaviota", "pgn", "polyglot", "svg", "syzygy", "variant")

#: Submodules bound to python-chess's own (none now: EngineTestCase hands our
#: ``chess.variant.AtomicBoard`` to the XBoard client).
ORACLE_SUBMODULES: tuple[str, ...] = ()

VERSION = "1.11.2"


def _suite_dir() -> Path | None:
    named = os.environ.get("PYCHESS_RS_PYTHON_CHESS_SUITE")
    if named:
        return Path(named)
    cache = os.environ.get("PYCHESS_RS_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pychess-rs"
    )
    return Path(cache) / f"python-chess-{VERSION}"


def _stand_in(name: str) -> types.ModuleType:
    module = types.ModuleType(f"chess.{name}")
    module.__getattr__ = lambda attr: type(attr, (Exception,), {})  # type: ignore[method-assign]
    return module


def _load_test_module(suite: Path) -> types.ModuleType:
    """``test.py`` with ``chess`` (and ``chess.*``) meaning pychess_rs while it loads."""
    alias = types.ModuleType("chess")
    alias.__dict__.update(
        {k: v for k, v in vars(pychess_rs).items() if k not in ("__name__", "__spec__")}
    )
    bindings: dict[str, types.ModuleType] = {"chess": alias}
    for name in ORACLE_SUBMODULES:
        module = importlib.import_module(f"chess.{name}")  # python-chess's, before the swap
        setattr(alias, name, module)
        bindings[f"chess.{name}"] = module
    for name in SUBMODULES:
        try:
            module = importlib.import_module(f"pychess_rs.{name}")
        except ImportError:
            module = _stand_in(name)
        setattr(alias, name, module)
        bindings[f"chess.{name}"] = module
    saved = {name: sys.modules.get(name) for name in (*bindings, "test")}
    sys.modules.update(bindings)
    sys.path.insert(0, str(suite))
    try:
        sys.modules.pop("test", None)
        return importlib.import_module("test")
    finally:
        sys.path.remove(str(suite))
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


SUITE = _suite_dir()
if SUITE is None or not (SUITE / "test.py").is_file():
    pytest.skip(
        f"python-chess {VERSION}'s test.py is not cached at {SUITE} (tools/test fetches it with "
        "tools/fetch-python-chess-tests; run that once with network access)",
        allow_module_level=True,
    )
TEST_MODULE = _load_test_module(SUITE)


def _test_ids(case_names: tuple[str, ...]) -> list[str]:
    loader = unittest.TestLoader()
    return [
        f"{case}.{method}"
        for case in case_names
        for method in loader.getTestCaseNames(getattr(TEST_MODULE, case))
    ]


def _run_one(test_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    case_name, method = test_id.split(".")
    # Some tests open files under data/ relative to the suite's directory.
    monkeypatch.chdir(SUITE)
    result = unittest.TestResult()
    getattr(TEST_MODULE, case_name)(method).run(result)
    problems = result.errors + result.failures
    if problems:
        pytest.fail("\n".join(traceback for _, traceback in problems), pytrace=False)
    if result.skipped:
        pytest.skip(result.skipped[0][1])
    assert result.testsRun == 1


@pytest.mark.parametrize("test_id", _test_ids(DROP_IN_CASES))
def test_python_chess_drop_in(test_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if test_id in NEEDS_VARIANTS:
        pytest.skip(f"needs variants: {NEEDS_VARIANTS[test_id]}")
    _run_one(test_id, monkeypatch)


@pytest.mark.parametrize("test_id", _test_ids(PGN_CASES))
def test_python_chess_pgn(test_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if test_id in NEEDS_VARIANTS:
        pytest.skip(f"needs variants: {NEEDS_VARIANTS[test_id]}")
    _run_one(test_id, monkeypatch)


@pytest.mark.parametrize("test_id", _test_ids(POLYGLOT_CASES))
def test_python_chess_polyglot(test_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _run_one(test_id, monkeypatch)


@pytest.mark.parametrize("test_id", _test_ids(GAVIOTA_CASES))
def test_python_chess_gaviota(test_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        _run_one(test_id, monkeypatch)
    except pytest.skip.Exception:
        if test_id not in GAVIOTA_NEEDS_BIGGER_TABLES:
            pytest.fail(f"{test_id} skipped, yet the 3-piece tables should answer it")
        raise


@pytest.mark.parametrize("test_id", _test_ids(SYZYGY_CASES))
def test_python_chess_syzygy(test_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if test_id in NEEDS_VARIANTS:
        pytest.skip(f"needs variants: {NEEDS_VARIANTS[test_id]}")
    _run_one(test_id, monkeypatch)


@pytest.mark.parametrize("test_id", _test_ids(VARIANT_CASES))
def test_python_chess_variant(test_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if test_id in NEEDS_VARIANTS:
        pytest.skip(f"needs variants: {NEEDS_VARIANTS[test_id]}")
    _run_one(test_id, monkeypatch)


@pytest.mark.parametrize("test_id", _test_ids(ENGINE_CASES))
def test_python_chess_engine(test_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    extra = [d for d in ENGINE_DIRS if os.path.isdir(d)]
    monkeypatch.setenv("PATH", os.pathsep.join([os.environ.get("PATH", ""), *extra]))
    _run_one(test_id, monkeypatch)


def test_the_suite_loaded_against_pychess_rs() -> None:
    """The harness itself: ``chess`` inside test.py is pychess_rs, outside it is the oracle."""
    chess_in_suite: Any = TEST_MODULE.chess
    assert chess_in_suite.Board is pychess_rs.Board
    assert chess_in_suite.engine is pychess_rs.engine
    import chess

    assert chess.Board is not pychess_rs.Board
    assert len(_test_ids(DROP_IN_CASES)) > 100
    assert TEST_MODULE.chess.polyglot is pychess_rs.polyglot
    assert len(_test_ids(POLYGLOT_CASES)) == 12
    assert TEST_MODULE.chess.gaviota is pychess_rs.gaviota
    assert len(_test_ids(GAVIOTA_CASES)) == 10
    assert TEST_MODULE.chess.syzygy is pychess_rs.syzygy
    assert len(_test_ids(SYZYGY_CASES)) == 21
    assert TEST_MODULE.chess.variant is pychess_rs.variant
    assert len(_test_ids(VARIANT_CASES)) == 45
