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
from pychess_rs.fuzz import contract, edits

SEED = 20240611
#: The EPD files of the ``epd`` source: the checkout's, also when the package is installed.
DATA = Path(__file__).resolve().parent / "data"

#: Positions per source (the campaign stops there); ``None`` runs the source to its end.
BUDGET = {
    "startpos": 600,
    "chess960": 600,
    "rare": 1200,
    "placement": 600,
    "mutated": 150,
    "epd": None,
    "invalid": 600,
    "edited": 600,
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
        epd_dir=DATA,
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
def test_campaign_hand_edited_castling_and_en_passant(rs: Any, tmp_path: Path) -> None:
    result = _campaign(rs, "edited", tmp_path)
    _assert_clean(result, "edited")
    seen = result.stats["edited"].coverage
    for rule in (contract.ROOKLESS_CASTLING, "castling move", "en passant move"):
        assert seen[rule] > 0, f"the edited games never reached {rule!r}: {dict(seen)}"


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
    assert result.stats["epd"].fen_checks == len(fuzz.load_epd_positions(DATA)) > 1000


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


class _Posing(contract.oracle_board_class()):
    """python-chess as the contract corrects it, with pychess_rs's constructor error and
    ``zobrist_hash()``."""

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
    return SimpleNamespace(Board=board, Move=chess.Move, InvalidFenError=_InvalidFenError)


def _self_test(board: type, source: str, tmp_path: Path, **limits: Any) -> Any:
    config = fuzz.Config(
        seed=1, sources=(source,), out=tmp_path, quiet=True, max_reports=2, epd_dir=DATA, **limits
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
    assert fuzz.replay_reports(_posing(_RejectsBackRankPawns), saved, io.StringIO()) == len(saved)
    assert fuzz.replay_reports(_posing(_Posing), saved, io.StringIO()) == 0


def test_fuzzer_catches_a_wrong_pseudo_legal_push(tmp_path: Path) -> None:
    class _RefusesIntoCheck(_Posing):
        def push(self, move: chess.Move) -> None:
            if move and not self.is_legal(move):
                raise chess.IllegalMoveError(f"not legal: {move.uci()}")
            super().push(move)

    result = _self_test(_RefusesIntoCheck, "invalid", tmp_path, positions=100)
    assert result.stats["invalid"].mismatches["push (not legal)"] > 0


def test_fuzzer_catches_castling_without_its_rook(tmp_path: Path) -> None:
    """A pychess_rs that lists python-chess's castling moves whose rook is missing (as the core
    did before issue 27) is caught by the ``edited`` source and its reproducers replay."""

    class _ListsRooklessCastling(_Posing):
        def generate_castling_moves(
            self, from_mask: int = chess.BB_ALL, to_mask: int = chess.BB_ALL
        ) -> Any:
            return chess.Board.generate_castling_moves(self, from_mask, to_mask)

    result = _self_test(_ListsRooklessCastling, "edited", tmp_path, positions=400)
    stats = result.stats["edited"]
    assert stats.coverage[contract.ROOKLESS_CASTLING] > 0
    assert stats.mismatches["legal_moves"] == stats.coverage[contract.ROOKLESS_CASTLING]
    saved = sorted(tmp_path.glob("edited-legal_moves-*.json"))
    record = json.loads(saved[0].read_text())
    assert any(step.startswith("castling_rights=") for step in record["moves"])
    assert record["note"].startswith("missing [], extra ['")
    assert fuzz.replay_reports(_posing(_ListsRooklessCastling), saved, io.StringIO()) == len(saved)
    assert fuzz.replay_reports(_posing(_Posing), saved, io.StringIO()) == 0


# --------------------------------------------------------------------------------------------
# The contract's castling rule and the hand edits, on python-chess boards
# --------------------------------------------------------------------------------------------

# White's h1 rook has gone to h3; then castling rights are written by hand (a move stack, so
# python-chess keeps them as written).
_ROOK_GONE = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 h2h4 a7a6 h1h3 a6a5"


def _edited(board: chess.Board, moves: str, *steps: str) -> chess.Board:
    for uci in moves.split():
        board.push_uci(uci)
    for step in steps:
        edits.apply_edit(board, step)
    return board


def test_python_chess_castles_without_its_rook_and_the_oracle_does_not() -> None:
    step = edits.castling_rights_step(chess.BB_H1 | chess.BB_A8 | chess.BB_H8)
    plain = _edited(chess.Board(), _ROOK_GONE, step)
    oracle = _edited(contract.oracle_board_class()(), _ROOK_GONE, step)
    assert plain.fen() == oracle.fen() and plain.castling_rights == oracle.castling_rights
    castle = chess.Move.from_uci("e1g1")
    # python-chess lists e1g1 for the empty h1, and its push walks the king to h1.
    assert castle in plain.legal_moves and plain.is_castling(castle)
    assert contract.rookless_castling_moves(plain) == [castle]
    assert contract.rookless_castling_moves(oracle) == [castle]
    corrupted = plain.copy()
    corrupted.push(castle)
    assert corrupted.king(chess.WHITE) == chess.H1
    # The oracle leaves it out of everything generated from the castling moves.
    assert castle not in oracle.legal_moves and castle not in oracle.pseudo_legal_moves
    assert oracle.legal_moves.count() == plain.legal_moves.count() - 1
    assert not oracle.is_legal(castle) and not oracle.is_pseudo_legal(castle)
    with pytest.raises(chess.IllegalMoveError):
        oracle.parse_san("O-O")
    # A castling right whose rook is there is kept, with or without a move stack.
    home = _edited(contract.oracle_board_class()(), "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6", step)
    assert home.parse_san("O-O") == castle and contract.rookless_castling_moves(home) == []


def test_a_rights_square_with_another_piece_is_not_a_rook_square() -> None:
    """Black's king e8, knight g8, rook h8, rights on g8 and h8: python-chess generates e8g8 for
    the knight's square, and its push castles with the h8 rook over the knight, which vanishes;
    the h8 castling itself is blocked by the knight. The oracle lists no castling move."""
    board = "rnbqk1nr/pppp1ppp/8/2b1p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    step = edits.castling_rights_step(chess.BB_G8 | chess.BB_H8)
    plain = _edited(chess.Board(board), "b1c3", step)
    oracle = _edited(contract.oracle_board_class()(board), "b1c3", step)
    castle = chess.Move.from_uci("e8g8")
    assert castle in plain.legal_moves
    assert contract.rookless_castling_moves(plain) == [castle]
    corrupted = plain.copy()
    corrupted.push(castle)
    assert len(corrupted.pieces(chess.KNIGHT, chess.BLACK)) == 1  # the g8 knight is gone
    assert castle not in oracle.legal_moves
    assert not any(oracle.is_castling(move) for move in oracle.pseudo_legal_moves)


def test_the_oracle_keeps_a_hand_edit_through_its_repetition_queries() -> None:
    """python-chess's repetition queries pop and push the moves again, which forgets rights
    written after the last move; the oracle's answer is python-chess's, its board unchanged."""
    step = edits.castling_rights_step(chess.BB_A1 | chess.BB_H8)
    for board_class, kept in ((chess.Board, False), (contract.oracle_board_class(), True)):
        board = _edited(board_class(), "g1f3 g8f6 f3g1 f6g8 g1f3", step)
        assert not board.can_claim_threefold_repetition()
        assert not board.is_fivefold_repetition()
        assert (board.castling_rights == chess.BB_A1 | chess.BB_H8) is kept
    # On an unedited board the answers are python-chess's own.
    for board_class in (chess.Board, contract.oracle_board_class()):
        board = _edited(board_class(), "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1")
        assert board.can_claim_threefold_repetition() and not board.is_repetition(3)
        board.push_uci("f6g8")
        assert board.is_repetition(3) and board.outcome(claim_draw=True) is not None


def test_edit_steps_replay_on_both_libraries() -> None:
    steps = [
        edits.castling_rights_step(chess.BB_A1 | chess.BB_H8),
        edits.ep_square_step(chess.E6),
        edits.ep_square_step(None),
        edits.castling_rights_step(0),
    ]
    assert steps == [
        "castling_rights=0x8000000000000001",
        "ep_square=e6",
        "ep_square=None",
        "castling_rights=0x0000000000000000",
    ]
    assert all(edits.is_edit(step) for step in steps) and not edits.is_edit("e2e4")
    board = chess.Board()
    board.push_uci("e2e4")
    edits.apply_edit(board, steps[0])
    assert board.castling_rights == chess.BB_A1 | chess.BB_H8
    edits.apply_edit(board, steps[1])
    assert board.ep_square == chess.E6
    with pytest.raises(ValueError):
        edits.apply_edit(board, "turn=1")
    pb, rb = fuzz.replay(_posing(_Posing), chess.STARTING_FEN, False, ["e2e4", *steps[:2]])
    assert isinstance(pb, contract.oracle_board_class())
    assert (pb.castling_rights, pb.ep_square) == (rb.castling_rights, rb.ep_square)
