"""Result bookkeeping for one pairing (the tested engine against one opponent)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import chess

from . import stats
from .game import FAILURES, GameRecord

_SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@dataclass
class PairingResults:
    """Everything counted for ``engine`` against ``opponent``, from ``engine``'s side."""

    engine: str
    opponent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    plies: int = 0
    terminations: Counter[str] = field(default_factory=Counter)
    #: failures[engine name][kind]: time forfeits, illegal moves, crashes, hangs of each side.
    failures: dict[str, Counter[str]] = field(default_factory=dict)
    #: The engine's score in each game of each pair, by pair number.
    pair_scores: dict[int, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in (self.engine, self.opponent):
            self.failures.setdefault(name, Counter())

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, pair: int, record: GameRecord) -> None:
        """Count a finished game of pair number ``pair``."""
        white_score = _SCORE[record.result]
        score = white_score if record.white == self.engine else 1.0 - white_score
        if score == 1.0:
            self.wins += 1
        elif score == 0.0:
            self.losses += 1
        else:
            self.draws += 1
        self.plies += record.plies
        self.terminations[record.termination] += 1
        if record.failure is not None and record.culprit is not None:
            culprit = record.white if record.culprit == chess.WHITE else record.black
            self.failures[culprit][record.failure] += 1
        self.pair_scores.setdefault(pair, []).append(score)

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    @property
    def pentanomial(self) -> list[int]:
        """Counts of complete pairs by pair score 0, 1/2, 1, 3/2, 2."""
        counts = [0] * 5
        for scores in self.pair_scores.values():
            if len(scores) == 2:
                counts[round(2 * sum(scores))] += 1
        return counts

    @property
    def trinomial(self) -> list[int]:
        return [self.losses, self.draws, self.wins]

    def elo(self) -> tuple[stats.EloEstimate | None, str]:
        """The Elo estimate and its model: pairs when every game is in a complete pair (or
        at least one pair exists), else single games; None before any game."""
        penta = self.pentanomial
        if sum(penta) > 0:
            return stats.pentanomial_elo(penta), "pairs"
        if self.games:
            return stats.trinomial_elo(self.wins, self.draws, self.losses), "games"
        return None, "-"

    def los(self) -> float:
        return stats.los(self.wins, self.losses)

    def failure_count(self, name: str, kind: str) -> int:
        return self.failures.get(name, Counter())[kind]

    def to_json(self) -> dict[str, object]:
        penta = self.pentanomial
        out: dict[str, object] = {
            "engine": self.engine,
            "opponent": self.opponent,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "los": self.los(),
            "pentanomial": penta,
            "complete_pairs": sum(penta),
            "average_plies": self.plies / self.games if self.games else None,
            "terminations": dict(self.terminations),
            "failures": {
                name: {kind: counts[kind] for kind in FAILURES}
                for name, counts in self.failures.items()
            },
        }
        for label, estimate in (
            (
                "elo_games",
                stats.trinomial_elo(self.wins, self.draws, self.losses) if self.games else None,
            ),
            ("elo_pairs", stats.pentanomial_elo(penta) if sum(penta) else None),
        ):
            out[label] = (
                None
                if estimate is None
                else {
                    "elo": _finite(estimate.elo),
                    "low": _finite(estimate.low),
                    "high": _finite(estimate.high),
                    "samples": estimate.samples,
                }
            )
        return out


def _finite(x: float) -> float | str:
    """JSON has no infinity: write it as a string."""
    return x if abs(x) != float("inf") else ("inf" if x > 0 else "-inf")
