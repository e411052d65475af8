"""Lichess-style computer analysis of a game from engine reports: ``[%eval]`` on every move,
``?!``/``?``/``??`` from the drop in winning chances, the best line at each of them, and each
player's accuracy.

The formulas, and where they come from:

* **Winning chances** of a side whose score is ``cp`` centipawns:
  ``2 / (1 + exp(-0.00368208 * cp)) - 1`` (from -1 to +1), with ``cp`` held to +-1000 and a
  mate counted as +-1000, and **Win%** ``= 50 + 50 * winning chances``
  (https://lichess.org/page/accuracy, "First, compute Win%").
* **Evaluations**: ``[%eval]`` (python-chess's ``set_eval``, White's side) on every move but a
  mating one (python-chess and lichess write none there).
* **Judgements**: a move that loses at least 0.3 of winning chances is a blunder (``??``), 0.2
  a mistake (``?``), 0.1 an inaccuracy (``?!``): lichess judges by winning chances rather than
  centipawns since lichess-org/lila#4705; these thresholds are the ones given in our issue 21
  (not confirmed from lichess's pages here). Lichess's extra rules for mates found or missed
  are not applied; a move equal to the engine's first choice is never judged.
* **Move accuracy** ``= 103.1668 * exp(-0.04354 * (win% before - win% after)) - 3.1669``, held
  to 0..100, both Win% from the mover's side (https://lichess.org/page/accuracy, "Then,
  compute Accuracy%").
* **Player accuracy** in a game: the mean of (a) the moves' accuracies weighted by how much
  Win% moved around them (the standard deviation of Win% over a window of
  ``len(moves) / 10`` positions, 2 to 8, each weight held to 0.5..12) and (b) their harmonic
  mean: lichess's game accuracy as we read its description; treat it as an approximation.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Sequence
from typing import Any

from .engine import InfoDict, PovScore, Score

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "GameReport",
    "PlayerReport",
    "annotate_game",
    "game_accuracy",
    "judgement",
    "move_accuracy",
    "win_percent",
    "winning_chances",
]

#: Slope of the centipawns-to-winning-chances curve (lichess).
WINNING_CHANCES_SLOPE = 0.00368208
#: Scores beyond this many centipawns, and mates, count as this many.
CP_CEILING = 1000
#: Drops in winning chances (on the -1..+1 scale) that make a move an inaccuracy, a mistake,
#: a blunder.
INACCURACY, MISTAKE, BLUNDER = 0.1, 0.2, 0.3
#: Plies of the best line written as a variation at a judged move.
VARIATION_PLIES = 8

# python-chess's NAG numbers (pychess_rs.pgn.NAG_*).
NAG_DUBIOUS_MOVE, NAG_MISTAKE, NAG_BLUNDER = 6, 2, 4
_NAMES = {NAG_DUBIOUS_MOVE: "Inaccuracy", NAG_MISTAKE: "Mistake", NAG_BLUNDER: "Blunder"}


def _centipawns(score: Score) -> int:
    value = score.score(mate_score=100 * CP_CEILING)
    assert value is not None
    return max(-CP_CEILING, min(CP_CEILING, value))


def winning_chances(score: Score) -> float:
    """The winning chances (-1..+1) of the side ``score`` is for."""
    return 2 / (1 + math.exp(-WINNING_CHANCES_SLOPE * _centipawns(score))) - 1


def win_percent(score: Score) -> float:
    """Win% (0..100) of the side ``score`` is for."""
    return 50 + 50 * winning_chances(score)


def move_accuracy(before: float, after: float) -> float:
    """Accuracy% (0..100) of a move that took the mover's Win% from ``before`` to ``after``."""
    value = 103.1668 * math.exp(-0.04354 * (before - after)) - 3.1669
    return max(0.0, min(100.0, value))


def judgement(drop: float) -> int | None:
    """The NAG for a move that lost ``drop`` winning chances, or ``None``."""
    if drop >= BLUNDER:
        return NAG_BLUNDER
    if drop >= MISTAKE:
        return NAG_MISTAKE
    if drop >= INACCURACY:
        return NAG_DUBIOUS_MOVE
    return None


def game_accuracy(
    white_win_percents: Sequence[float], white_first: bool = True
) -> dict[bool, float | None]:
    """Each colour's accuracy (``{True: white, False: black}``; ``None`` without moves) from
    White's Win% at every position of a game, the start included."""
    wp = list(white_win_percents)
    moves = len(wp) - 1
    window = min(max(moves // 10, 2), 8)
    windows = [wp[:window]] * max(min(window, len(wp)) - 2, 0)
    windows += [wp[i : i + window] for i in range(len(wp) - window + 1)]
    while len(windows) < moves:
        windows.append(wp)
    weights = [min(max(statistics.pstdev(w), 0.5), 12.0) for w in windows]
    per_colour: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for i in range(moves):
        white = (i % 2 == 0) == white_first
        before, after = (wp[i], wp[i + 1]) if white else (100 - wp[i], 100 - wp[i + 1])
        per_colour[white].append((move_accuracy(before, after), weights[i]))
    result: dict[bool, float | None] = {}
    for colour, pairs in per_colour.items():
        if not pairs:
            result[colour] = None
            continue
        weighted = sum(a * w for a, w in pairs) / sum(w for _, w in pairs)
        harmonic = statistics.harmonic_mean([a for a, _ in pairs])
        result[colour] = (weighted + harmonic) / 2
    return result


@dataclasses.dataclass
class PlayerReport:
    """One player's figures in one game."""

    accuracy: float | None = None
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0

    def count(self, nag: int) -> None:
        if nag == NAG_BLUNDER:
            self.blunders += 1
        elif nag == NAG_MISTAKE:
            self.mistakes += 1
        else:
            self.inaccuracies += 1

    def describe(self) -> str:
        accuracy = "-" if self.accuracy is None else f"{self.accuracy:.0f}%"
        return (
            f"accuracy {accuracy}, {self.inaccuracies} inaccuracies, {self.mistakes} mistakes, "
            f"{self.blunders} blunders"
        )


@dataclasses.dataclass
class GameReport:
    """Both players' figures in one game."""

    white: PlayerReport
    black: PlayerReport


def _score(info: InfoDict | None) -> PovScore | None:
    return None if info is None else info.get("score")


def annotate_game(game: Any, infos: Sequence[InfoDict]) -> GameReport:
    """Writes the analysis into ``game`` (a :class:`pychess_rs.pgn.Game`) from ``infos``, the
    engine's report on each position of its main line (start first, final position last, as
    :meth:`pychess_rs.engine.EnginePool.analyse_games` gives them), and returns the figures.
    """
    nodes = list(game.mainline())
    if len(infos) != len(nodes) + 1:
        raise ValueError(f"{len(infos)} reports for a game of {len(nodes)} moves")
    report = GameReport(PlayerReport(), PlayerReport())
    white_first = game.board().turn
    scores = [_score(info) for info in infos]
    # White's Win% at each position; a position without a score repeats the one before.
    wp: list[float] = []
    for score in scores:
        wp.append(win_percent(score.white()) if score is not None else (wp[-1] if wp else 50.0))
    for i, node in enumerate(nodes):
        before, after = scores[i], scores[i + 1]
        if after is not None:
            node.set_eval(after, infos[i + 1].get("depth"))
        if before is None or after is None:
            continue
        mover = node.parent.board().turn
        pv = infos[i].get("pv") or []
        if pv and pv[0] == node.move:
            continue
        drop = winning_chances(before.pov(mover)) - winning_chances(after.pov(mover))
        nag = judgement(drop)
        if nag is None:
            continue
        node.nags.add(nag)
        (report.white if mover else report.black).count(nag)
        if pv:
            board = node.parent.board()
            best = board.san(pv[0])
            node.comment = f"{node.comment} {_NAMES[nag]}. {best} was best.".strip()
            node.parent.add_line(pv[:VARIATION_PLIES])
    accuracies = game_accuracy(wp, white_first)
    report.white.accuracy = accuracies[True]
    report.black.accuracy = accuracies[False]
    return report
