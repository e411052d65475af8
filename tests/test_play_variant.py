"""`pychess-rs play --variant NAME`: scripted games through a pipe, the rules the core's."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import chess.pgn
import chess.variant
import pytest

from pychess_rs.cli import main


def run(args: list[str], lines: list[str], *, status: int = 0) -> str:
    stdin = io.StringIO("\n".join(lines) + "\n")
    stdout = io.StringIO()
    saved = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = stdin, stdout
    try:
        code = main(["play", *args])
    finally:
        sys.stdin, sys.stdout = saved
    out = stdout.getvalue()
    assert code == status, out
    return out


def test_king_of_the_hill_won_by_a_human_in_san() -> None:
    out = run(
        ["--variant", "kingofthehill", "--fen", "8/8/8/8/8/3K4/8/7k w - - 0 1", "--depth", "1"],
        ["Kd5", "Kd4"],
    )
    assert "illegal move 'Kd5'" in out
    assert out.rstrip().endswith("1-0 (VariantLoss)")


def test_engine_mates_with_a_drop(tmp_path: Path) -> None:
    save = tmp_path / "zh.pgn"
    out = run(
        [
            "--variant",
            "crazyhouse",
            "--white",
            "engine",
            "--black",
            "human",
            "--fen",
            "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1",
            "--depth",
            "3",
            "--level",
            "max",
            "--save",
            str(save),
        ],
        [],
    )
    assert "White plays Q@b7#" in out or "White plays Q@a7#" in out
    assert "1-0 (Checkmate)" in out
    game = chess.pgn.read_game(io.StringIO(save.read_text()))
    assert game is not None and isinstance(game.board(), chess.variant.CrazyhouseBoard)
    assert game.end().board().is_checkmate()


def test_atomic_refuses_an_illegal_move_and_plays_on() -> None:
    out = run(["--variant", "atomic", "--depth", "1", "--level", "1"], ["e2e5", "e4", "quit"])
    assert "illegal move 'e2e5' in atomic" in out
    assert "Black plays" in out


@pytest.mark.parametrize("variant", ["antichess", "racingkings", "3check"])
def test_engine_against_itself_for_a_few_moves_is_a_legal_game(
    variant: str, tmp_path: Path
) -> None:
    save = tmp_path / "g.pgn"
    run(
        [
            "--variant",
            variant,
            "--white",
            "engine",
            "--black",
            "engine",
            "--nodes",
            "300",
            "--level",
            "1",
            "--save",
            str(save),
        ],
        [],
    )
    game = chess.pgn.read_game(io.StringIO(save.read_text()))
    assert game is not None and not game.errors
    board = game.end().board()
    assert board.uci_variant == variant
    assert board.is_game_over(claim_draw=True) or len(board.move_stack) >= 1


def test_unknown_variant_is_refused() -> None:
    run(["--variant", "shogi"], [], status=2)
