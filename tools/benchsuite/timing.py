"""The one timer of the bench scripts: best of N runs, candidates interleaved round by round.

:func:`interleaved` runs each :class:`Candidate` once per round, in turn (A, B, A, B, ...), so
that every candidate sees the same machine state, and keeps each one's best time.
:func:`best_of` is the same timer with one candidate: N runs back to back. Before each run the
cyclic garbage collector is emptied (``gc.collect()``), so that one run's garbage is not
collected on the next run's time.

A run's result is checked against the candidate's ``expected`` answer each run: a run that
raises or answers wrongly is a result of the benchmark (the note says which), not a crash of
it, and is not timed further unless ``time_wrong``. A run that measures itself (an engine that
reports its own time, a ``timeit`` loop) returns :class:`Measured`, whose seconds replace the
wall clock around the call.
"""

from __future__ import annotations

import gc
import time
import timeit
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .report import fmt_seconds, log

#: ``expected`` of a candidate whose answer is not checked.
UNCHECKED: Any = object()


class Measured(NamedTuple):
    """What a self-timed run returns: its answer and the seconds it measured itself."""

    result: Any
    seconds: float


@dataclass
class Candidate:
    """One thing to time: a label for progress lines, the run, and its expected answer."""

    label: str
    run: Callable[[], Any]
    expected: Any = UNCHECKED
    #: Describes a run's answer in its progress line (e.g. the nodes a search visited).
    describe: Callable[[Any], str] | None = None


@dataclass
class Timing:
    """A candidate's outcome: the best seconds (None if never timed), the answer of that run,
    and a note when a run failed or answered wrongly."""

    label: str
    seconds: float | None = None
    result: Any = None
    note: str = ""
    failed: bool = False  # stopped: an error, or a wrong answer without time_wrong


def interleaved(
    candidates: Sequence[Candidate],
    rounds: int,
    *,
    time_wrong: bool = False,
    progress: bool = True,
    collect: bool = True,
    runs: Sequence[int] | None = None,
) -> list[Timing]:
    """Times every candidate ``rounds`` times, one run each per round, in turn.

    ``progress`` logs a line per run; ``collect`` empties the garbage collector before each
    run (off for runs that are ``timeit`` loops, which switch the collector off themselves).
    ``runs`` gives a candidate several runs back to back per round (best kept): a run of a few
    milliseconds right after a long one of another candidate starts with the other's data in
    the caches, which its later runs do not (a loop of calls, as a user's, does not either).
    """
    timings = [Timing(c.label) for c in candidates]
    per_round = list(runs) if runs is not None else [1] * len(candidates)
    for i in range(rounds):
        for candidate, timing, count in zip(candidates, timings, per_round):
            for j in range(count):
                if timing.failed:
                    break
                which = f"run {i + 1}/{rounds}"
                # Collected before the block only: a collection walks every object of the
                # process, which also empties the caches the next run would find warm.
                _run_once(candidate, timing, which, time_wrong, progress, collect and j == 0)
    return timings


def best_of(
    run: Callable[[], Any],
    repeat: int,
    label: str,
    expected: Any = UNCHECKED,
    *,
    time_wrong: bool = False,
    describe: Callable[[Any], str] | None = None,
) -> Timing:
    """The best of ``repeat`` runs of ``run`` (see :func:`interleaved`)."""
    candidate = Candidate(label, run, expected, describe)
    return interleaved([candidate], repeat, time_wrong=time_wrong)[0]


def _run_once(
    candidate: Candidate,
    timing: Timing,
    which: str,
    time_wrong: bool,
    progress: bool,
    collect: bool,
) -> None:
    label = candidate.label
    if collect:
        gc.collect()
    start = time.perf_counter()
    try:
        result = candidate.run()
    except Exception as exc:  # a peer's bug is a result, not a crash of the benchmark
        message = f"{type(exc).__name__}: {exc}".replace("\n", " ")
        log(f"    {label}: error: {message[:200]}")
        timing.note, timing.failed = f"error: {message[:80]}", True
        return
    elapsed = time.perf_counter() - start
    if isinstance(result, Measured):
        result, elapsed = result.result, result.seconds
    expected = candidate.expected
    if expected is not UNCHECKED and result != expected:
        log(f"    {label}: WRONG RESULT: got {result!r}, expected {expected!r}")
        timing.note = f"wrong result (got {result!r}, expected {expected!r})"
        if not time_wrong:
            timing.seconds, timing.failed = None, True
            return
    if progress:
        detail = f"{candidate.describe(result)} in " if candidate.describe else ""
        log(f"    {label}: {which}: {detail}{fmt_seconds(elapsed)}")
    if timing.seconds is None or elapsed < timing.seconds:
        timing.seconds, timing.result = elapsed, result


def loops_per_round(timers: Sequence[timeit.Timer], target: float) -> tuple[int, float]:
    """How many loops make one ``timeit`` round of the slowest timer last about ``target``
    seconds; and that timer's seconds per loop, from the calibration."""
    number = 1
    while True:
        seconds = max(t.timeit(number) for t in timers)
        if seconds >= target / 5 or number >= 10**7:
            break
        number *= 5
    per_loop = seconds / number
    return max(1, int(number * target / max(seconds, 1e-9))), per_loop


def per_call(timer: timeit.Timer, number: int) -> Measured:
    """One ``timeit`` round as a self-timed run: seconds per call."""
    return Measured(None, timer.timeit(number) / number)
