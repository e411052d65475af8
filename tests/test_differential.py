"""A short fixed-seed differential campaign: pychess_rs against python-chess, one test per source.

Runs the fuzzer (``pychess_rs.fuzz``) through its importable API (a few thousand positions in
all, every legal move of every position checked) and asserts zero mismatches, so a failure names
its source and prints the reproducers. The long campaign is the command line tool itself, e.g.
``pychess-rs fuzz --seed 1 --positions 1000000``.

The last tests check the fuzzer itself with python-chess posing as pychess_rs: no mismatch when
the two agree, and a deliberately wrong SAN or FEN acceptance is caught and saved.
"""

from __future__ import annotations

import ast
import io
import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import chess
import chess.polyglot
import pytest

from pychess_rs import fuzz
from pychess_rs.fuzz import contract

SEED = 20240611

#: Positions per source (the campaign stops there); ``None`` runs the source to its end.
BUDGET = {
    "startpos": 600,
    "chess960": 600,
    "rare": 1200,
    "placement": 600,
    "mutated": 150,
    "epd": None,
    "invalid": 600,
}


@pytest.fixture(scope="module")
def rs() -> Any:
    try:
        return fuzz.import_pychess_rs()
    except ImportError as exc:
        pytest.fail(f"pychess_rs is not importable ({exc}); build it (maturin develop --release)")


def _campaign(rs: Any, source: str, tmp_path: Path, **overrides: Any) -> Any:
    config = fuzz.Config(
        seed=SEED,
        positions=BUDGET[source],
        sources=(source,),
        out=tmp_path / "fuzz-failures",
        quiet=True,
        epd_plies=0,
        **overrides,
    )
    return fuzz.run(config, rs=rs, progress_stream=sys.stderr)


def _assert_clean(result: Any, source: str) -> None:
    stats = result.stats[source]
    if result.mismatches:
        shown = "\n\n".join(fuzz.format_report(record) for record in result.reports[:10])
        kinds = dict(stats.mismatches.most_common())
        pytest.fail(f"{result.mismatches} mismatches against python-chess {kinds}:\n\n{shown}")
    assert stats.positions > 0, "the source produced no position"


@pytest.mark.once
@pytest.mark.parametrize("source", ["startpos", "chess960", "placement", "mutated", "invalid"])
def test_campaign(rs: Any, source: str, tmp_path: Path) -> None:
    result = _campaign(rs, source, tmp_path)
    _assert_clean(result, source)
    if source in ("placement", "mutated", "invalid"):
        assert result.stats[source].fen_checks > result.stats[source].positions / 20
    if source == "invalid":
        seen = result.stats[source].coverage
        assert seen["invalid position"] > 100 and seen["pseudo-legal push"] > 100, dict(seen)


@pytest.mark.once
def test_campaign_rare_rules(rs: Any, tmp_path: Path) -> None:
    result = _campaign(rs, "rare", tmp_path)
    _assert_clean(result, "rare")
    seen = result.stats["rare"].coverage
    for rule in (
        "can_claim_fifty_moves",
        "is_seventyfive_moves",
        "can_claim_threefold_repetition",
        "is_fivefold_repetition",
        "promotion",
        "underpromotion",
        "en passant move",
        "castling move",
        "rook capture on a corner",
    ):
        assert seen[rule] > 0, f"the rare-rules games never reached {rule!r}: {dict(seen)}"


@pytest.mark.once
def test_campaign_epd_files(rs: Any, tmp_path: Path) -> None:
    """Every position of tests/data/*.epd (perft960.epd in Chess960 mode)."""
    result = _campaign(rs, "epd", tmp_path)
    _assert_clean(result, "epd")
    assert result.stats["epd"].fen_checks == len(fuzz.load_epd_positions()) > 1000


def test_command_line(rs: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--seed", "3", "--positions", "40", "--quiet", "--out", str(tmp_path)]
    assert fuzz.main([*argv, "--sources", "startpos,placement"]) == 0
    out = capsys.readouterr().out
    assert "mismatches: 0" in out and "positions/s" in out


# --------------------------------------------------------------------------------------------
# The fuzzer itself, with python-chess posing as pychess_rs
# --------------------------------------------------------------------------------------------


class _InvalidFenError(ValueError):
    pass


class _Posing(chess.Board):
    """python-chess with pychess_rs's constructor error and ``zobrist_hash()``."""

    def __init__(self, fen: str | None = chess.STARTING_FEN, *, chess960: bool = False) -> None:
        try:
            super().__init__(fen, chess960=chess960)
        except ValueError as exc:
            raise _InvalidFenError(str(exc)) from None

    def zobrist_hash(self) -> int:
        return chess.polyglot.zobrist_hash(self)


class _WrongKnightSan(_Posing):
    def san(self, move: chess.Move) -> str:
        text = super().san(move)
        return text.lower() if text.startswith("N") else text


class _RejectsBackRankPawns(_Posing):
    def __init__(self, fen: str | None = chess.STARTING_FEN, *, chess960: bool = False) -> None:
        super().__init__(fen, chess960=chess960)
        if self.status() & chess.STATUS_PAWNS_ON_BACKRANK:
            raise _InvalidFenError(f"pawns on the back rank: {fen!r}")


def _posing(board: type) -> SimpleNamespace:
    return SimpleNamespace(Board=board, InvalidFenError=_InvalidFenError)


def _self_test(board: type, source: str, tmp_path: Path, **limits: Any) -> Any:
    config = fuzz.Config(
        seed=1, sources=(source,), out=tmp_path, quiet=True, max_reports=2, **limits
    )
    return fuzz.run(config, rs=_posing(board), progress_stream=sys.stderr)


@pytest.mark.parametrize("source", fuzz.SOURCES)
def test_fuzzer_finds_no_mismatch_between_equals(source: str, tmp_path: Path) -> None:
    result = _self_test(_Posing, source, tmp_path, positions=40)
    assert result.mismatches == 0, [fuzz.format_report(r) for r in result.reports]
    assert result.positions > 0
    assert not tmp_path.exists() or not list(tmp_path.iterdir())


def test_fuzzer_catches_a_wrong_san(tmp_path: Path) -> None:
    result = _self_test(_WrongKnightSan, "startpos", tmp_path, positions=30)
    assert result.stats["startpos"].mismatches["san"] > 0
    saved = sorted(tmp_path.glob("startpos-san-*.json"))
    assert len(saved) == 2  # max_reports
    record = json.loads(saved[0].read_text())
    assert record["property"] == "san" and record["move"]
    assert record["ours"] != record["oracle"]
    # A SAN mismatch needs no history: the reproducer was shortened to its position.
    assert record["moves"] == []
    board = chess.Board(record["start_fen"])
    assert board.san(chess.Move.from_uci(record["move"])) == ast.literal_eval(record["oracle"])
    assert fuzz.replay_reports(_posing(_WrongKnightSan), saved, io.StringIO()) == 2
    assert fuzz.replay_reports(_posing(_Posing), saved, io.StringIO()) == 0


def test_fuzzer_catches_a_wrong_fen_acceptance(tmp_path: Path) -> None:
    result = _self_test(_RejectsBackRankPawns, "invalid", tmp_path, positions=200)
    assert result.stats["invalid"].mismatches[contract.ACCEPTANCE] > 0
    saved = sorted(tmp_path.glob("invalid-fen_acceptance-*.json"))
    record = json.loads(saved[0].read_text())
    assert record["oracle"] == "'accepted'"
    assert "pawns on the back rank" in record["ours"]
    assert fuzz.replay_reports(_posing(_RejectsBackRankPawns), saved, io.StringIO()) == len(
        saved
    )
    assert fuzz.replay_reports(_posing(_Posing), saved, io.StringIO()) == 0


def test_fuzzer_catches_a_wrong_pseudo_legal_push(tmp_path: Path) -> None:
    class _RefusesIntoCheck(_Posing):
        def push(self, move: chess.Move) -> None:
            if move and not self.is_legal(move):
                raise chess.IllegalMoveError(f"not legal: {move.uci()}")
            super().push(move)

    result = _self_test(_RefusesIntoCheck, "invalid", tmp_path, positions=100)
    assert result.stats["invalid"].mismatches["push (not legal)"] > 0
