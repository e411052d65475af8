"""Match statistics: score, Elo difference with a 95% interval, LOS and the SPRT.

Pure functions over result counts, no I/O. Scores are from the first engine's point of view:
1 for a win, 1/2 for a draw, 0 for a loss. Two models of a match:

- trinomial: each game on its own, counts ``(losses, draws, wins)``;
- pentanomial: each colour-swapped pair of games on one opening, counts of pair scores
  ``(0, 1/2, 1, 3/2, 2)``. The two games of a pair share an opening and so are correlated;
  the pair model measures that and gives the honest (usually narrower) interval, which is why
  the SPRT prefers it.

Elo here is logistic Elo: an expected score ``s`` is ``1 / (1 + 10 ** (-elo / 400))``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054

#: Scores of the trinomial outcomes (loss, draw, win), normalised to [0, 1].
TRINOMIAL_SCORES = (0.0, 0.5, 1.0)
#: Scores of the pentanomial outcomes (pair score 0, 1/2, 1, 3/2, 2), normalised to [0, 1].
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)

#: Pseudo-count put in an empty outcome class before the SPRT's likelihood is maximised. With
#: an empty class (e.g. no losses yet) the constrained maximum-likelihood distribution can sit
#: on the boundary, where the likelihood ratio is infinite; a thousandth of a game changes no
#: real result but keeps every hypothesis score inside the observed range.
SPRT_PSEUDO_COUNT = 1e-3


def expected_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic model)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_from_score(score: float) -> float:
    """The Elo difference that gives expected score ``score``; +-inf at 1 and 0."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    # + 0.0 turns the -0.0 of an even score into 0.0.
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0


def mean_and_variance(counts: Sequence[float], scores: Sequence[float]) -> tuple[float, float]:
    """Mean and (population) variance of the outcome distribution given by ``counts``."""
    if len(counts) != len(scores):
        raise ValueError("counts and scores differ in length")
    n = float(sum(counts))
    if n <= 0:
        raise ValueError("no results")
    mean = sum(c * a for c, a in zip(counts, scores)) / n
    var = sum(c * (a - mean) ** 2 for c, a in zip(counts, scores)) / n
    return mean, var


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its 95% confidence interval (from the normal approximation)."""

    score: float
    elo: float
    low: float
    high: float
    #: Number of independent samples: games (trinomial) or game pairs (pentanomial).
    samples: int

    @property
    def error(self) -> float:
        """Half the width of the interval (the "+-" figure); inf when a bound is infinite."""
        return (self.high - self.low) / 2.0


def elo_estimate(counts: Sequence[int], scores: Sequence[float]) -> EloEstimate:
    """Elo difference and 95% interval from outcome counts of either model.

    The interval is the mean score +- 1.96 standard errors, clamped to [0, 1] and mapped to
    Elo; it shrinks like 1/sqrt(samples).
    """
    mean, var = mean_and_variance(counts, scores)
    n = sum(counts)
    if var == 0.0:
        # Every sample alike (e.g. all wins): the data say nothing about the spread, so the
        # normal approximation gives no interval; report the uninformative one.
        return EloEstimate(mean, elo_from_score(mean), -math.inf, math.inf, n)
    half = Z95 * math.sqrt(var / n)
    low = min(max(mean - half, 0.0), 1.0)
    high = min(max(mean + half, 0.0), 1.0)
    return EloEstimate(mean, elo_from_score(mean), elo_from_score(low), elo_from_score(high), n)


def trinomial_elo(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo estimate from single-game counts."""
    return elo_estimate((losses, draws, wins), TRINOMIAL_SCORES)


def pentanomial_elo(pairs: Sequence[int]) -> EloEstimate:
    """Elo estimate from pair counts ``(0, 1/2, 1, 3/2, 2)`` (pair score, first engine)."""
    return elo_estimate(pairs, PENTANOMIAL_SCORES)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: P(first engine is stronger), draws ignored; 0.5 with no data."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's log-likelihood-ratio bounds (lower: accept H0, upper: accept H1)."""
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0):
        raise ValueError("alpha and beta must lie in (0, 1)")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _constrained_kl(freqs: Sequence[float], scores: Sequence[float], s: float) -> float:
    """min KL(freqs || p) over distributions p on ``scores`` with mean ``s``.

    By Lagrange multipliers the minimiser is p_i = f_i / (1 + t (a_i - s)) where t solves
    g(t) = sum f_i (a_i - s) / (1 + t (a_i - s)) = 0, and the minimum is
    sum f_i log(1 + t (a_i - s)). g decreases strictly on the interval where every
    1 + t (a_i - s) > 0 and runs from +inf to -inf across it, so bisection finds t.
    """
    support = [a for f, a in zip(freqs, scores) if f > 0]
    lo_a, hi_a = min(support), max(support)
    if not lo_a < s < hi_a:
        raise ValueError("hypothesis score outside the observed range")
    lo, hi = -1.0 / (hi_a - s), 1.0 / (s - lo_a)

    def g(t: float) -> float:
        return sum(f * (a - s) / (1.0 + t * (a - s)) for f, a in zip(freqs, scores) if f > 0)

    # About 60 halvings reach double precision; stop when the midpoint no longer moves.
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if hi - lo <= 1e-15 * max(1.0, abs(mid)):
            break
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    t = 0.5 * (lo + hi)
    return sum(f * math.log(1.0 + t * (a - s)) for f, a in zip(freqs, scores) if f > 0)


def sprt_llr(counts: Sequence[int], scores: Sequence[float], elo0: float, elo1: float) -> float:
    """Generalised SPRT log-likelihood ratio of H1 (elo = elo1) against H0 (elo = elo0).

    Each hypothesis is the multinomial distribution closest to the observed frequencies
    (maximum likelihood) whose mean score is the hypothesis' expected score; the LLR is
    N * (KL(observed || H0) - KL(observed || H1)). Works for trinomial counts (N games) and
    pentanomial counts (N pairs). Positive values favour H1.
    """
    if len(counts) != len(scores):
        raise ValueError("counts and scores differ in length")
    n = sum(counts)
    if n == 0:
        return 0.0
    regular = [c if c > 0 else SPRT_PSEUDO_COUNT for c in counts]
    total = sum(regular)
    freqs = [c / total for c in regular]
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return total * (_constrained_kl(freqs, scores, s0) - _constrained_kl(freqs, scores, s1))


@dataclass(frozen=True)
class Sprt:
    """An SPRT configuration: H0 elo = elo0 against H1 elo = elo1, error rates alpha, beta."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError("SPRT needs elo0 < elo1")
        sprt_bounds(self.alpha, self.beta)

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) LLR bounds."""
        return sprt_bounds(self.alpha, self.beta)

    def llr(self, counts: Sequence[int], scores: Sequence[float]) -> float:
        """The LLR of these counts (trinomial or pentanomial, by ``scores``)."""
        return sprt_llr(counts, scores, self.elo0, self.elo1)

    def verdict(self, llr: float) -> str | None:
        """The verdict for ``llr``: "H1 accepted", "H0 accepted", or None to go on."""
        lower, upper = self.bounds
        if llr >= upper:
            return "H1 accepted"
        if llr <= lower:
            return "H0 accepted"
        return None
