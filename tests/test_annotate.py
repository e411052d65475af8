"""pychess_rs.annotate: lichess's winning chances, judgements and accuracy, and the
annotations they write into a game (engine reports made by hand here; the engine runs in
tests/test_analyse_cli.py)."""

from __future__ import annotations

import io
import math

import pytest

import pychess_rs
from pychess_rs import pgn
from pychess_rs.annotate import (
    NAG_BLUNDER,
    NAG_DUBIOUS_MOVE,
    NAG_MISTAKE,
    annotate_game,
    game_accuracy,
    judgement,
    move_accuracy,
    win_percent,
    winning_chances,
)
from pychess_rs.engine import Cp, InfoDict, Mate, PovScore
from pychess_rs.engine._pool import final_info, game_boards

WHITE, BLACK = True, False


def test_winning_chances_follow_lichess() -> None:
    assert winning_chances(Cp(0)) == 0
    assert winning_chances(Cp(100)) == pytest.approx(2 / (1 + math.exp(-0.368208)) - 1)
    assert winning_chances(Cp(100)) == pytest.approx(0.1820, abs=1e-4)
    assert winning_chances(Cp(5000)) == winning_chances(Cp(1000))  # held to 1000 cp
    assert winning_chances(Mate(3)) == winning_chances(Cp(1000))
    assert winning_chances(Mate(-2)) == pytest.approx(-winning_chances(Cp(1000)))
    assert win_percent(Cp(-100)) == pytest.approx(50 - 50 * 0.1820, abs=1e-2)


def test_move_accuracy_and_judgements() -> None:
    assert move_accuracy(50, 50) == pytest.approx(100, abs=1e-3)
    assert move_accuracy(60, 50) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669)
    assert move_accuracy(100, 0) == 0
    assert move_accuracy(40, 60) == 100  # a "gain" is held to 100
    assert [judgement(d) for d in (0.09, 0.1, 0.19, 0.2, 0.29, 0.3, 1.5)] == [
        None,
        NAG_DUBIOUS_MOVE,
        NAG_DUBIOUS_MOVE,
        NAG_MISTAKE,
        NAG_MISTAKE,
        NAG_BLUNDER,
        NAG_BLUNDER,
    ]


def test_game_accuracy() -> None:
    steady = game_accuracy([50.0] * 11)
    assert steady[WHITE] == pytest.approx(100, abs=1e-3)
    assert steady[BLACK] == pytest.approx(100, abs=1e-3)
    # Black throws the game away on its second move; White plays on perfectly.
    swing = game_accuracy([50, 50, 50, 50, 95, 95, 95, 95])
    assert swing[WHITE] == pytest.approx(100, abs=1e-3)
    black = swing[BLACK]
    assert black is not None and black < 50
    assert game_accuracy([50.0]) == {WHITE: None, BLACK: None}


def _scholars_mate() -> pgn.Game:
    game = pgn.read_game(io.StringIO("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"))
    assert game is not None
    return game


def _infos(game: pgn.Game) -> list[InfoDict]:
    move = pychess_rs.Move.from_uci
    infos = []
    for board in game_boards(game):
        final = final_info(board)
        infos.append(final or InfoDict(score=PovScore(Cp(20), board.turn), depth=5, pv=[]))
    # Before 3...Nf6 the engine wanted 3...g6, and after it White mates at once.
    infos[5] = InfoDict(score=PovScore(Cp(-30), BLACK), depth=5, pv=[move("g7g6"), move("h5f3")])
    infos[6] = InfoDict(score=PovScore(Mate(1), WHITE), depth=5, pv=[move("h5f7")])
    return infos


def test_annotate_game_marks_the_blunder_and_gives_the_best_line() -> None:
    game = _scholars_mate()
    report = annotate_game(game, _infos(game))
    nodes = list(game.mainline())
    assert all(node.eval() is not None for node in nodes[:-1])
    assert nodes[-1].eval() is None  # no [%eval] after mate, as in python-chess
    blunder = nodes[5]
    assert blunder.san() == "Nf6"
    assert blunder.nags == {NAG_BLUNDER}
    assert blunder.comment == "[%eval #1,5] Blunder. g6 was best."
    assert [v.move.uci() for v in blunder.parent.variations] == ["g8f6", "g7g6"]
    assert blunder.parent.variations[1].variations[0].move.uci() == "h5f3"
    assert (report.black.blunders, report.black.mistakes, report.white.blunders) == (1, 0, 0)
    assert report.white.accuracy is not None and report.black.accuracy is not None
    assert report.white.accuracy > 80 > 50 > report.black.accuracy
    text = str(game)
    assert "1. e4 { [%eval -0.20,5] } 1... e5 { [%eval 0.20,5] }" in text
    assert "3... Nf6 $4 { [%eval #1,5] Blunder. g6 was best. } ( 3... g6 4. Qf3 )" in text


def test_the_engines_own_move_is_never_judged() -> None:
    game = _scholars_mate()
    infos = _infos(game)
    infos[5]["pv"] = [pychess_rs.Move.from_uci("g8f6")]
    annotate_game(game, infos)
    assert not list(game.mainline())[5].nags


def test_reports_must_match_the_game() -> None:
    game = _scholars_mate()
    with pytest.raises(ValueError, match="reports for a game of 7 moves"):
        annotate_game(game, _infos(game)[:-1])
