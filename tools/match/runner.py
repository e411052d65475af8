"""The match: scheduling game pairs over concurrent workers, progress, SPRT stopping.

Everything runs on one asyncio event loop: each of the ``concurrency`` workers owns its own
engine processes (one per engine it has played with) and plays one game at a time, so at most
``concurrency`` games run at once. The loop does little besides relaying lines, so the
timing of one game is not disturbed by the others beyond the machine's own load.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO

from . import report, stats
from .engines import EngineError, EngineProcess, EngineSpec
from .game import GameRecord, Limits, play_game
from .openings import Opening, opening_order
from .results import PairingResults


@dataclass
class MatchConfig:
    """Everything a match needs; ``engine`` plays each of ``opponents`` ``games`` times."""

    engine: EngineSpec
    opponents: list[EngineSpec]
    limits: Limits
    openings: list[Opening]
    games: int = 2
    concurrency: int = 1
    random_openings: bool = False
    seed: int | None = None
    sprt: stats.Sprt | None = None
    #: "pentanomial" (game pairs, the default) or "trinomial" (single games) for the SPRT.
    sprt_model: str = "pentanomial"
    pgn_path: str | None = None
    event: str = "pychess-rs match"
    #: "games": a line per finished game; "status": a status line every status_interval s.
    progress: str = "games"
    status_interval: float = 10.0

    def __post_init__(self) -> None:
        if self.games < 2 or self.games % 2:
            raise ValueError("--games must be an even number >= 2 (colour-swapped pairs)")
        if self.concurrency < 1:
            raise ValueError("--concurrency must be >= 1")
        if not self.opponents:
            raise ValueError("a match needs an opponent")
        if self.sprt is not None and len(self.opponents) != 1:
            raise ValueError("--sprt tests one engine against one opponent")
        if self.sprt_model not in ("pentanomial", "trinomial"):
            raise ValueError("sprt model must be pentanomial or trinomial")


@dataclass(frozen=True)
class Job:
    """One game: pair ``pair`` against opponent ``opp``; ``swap`` puts the engine on Black."""

    pair: int
    opp: int
    swap: bool
    opening: Opening


@dataclass
class Match:
    """A running (or finished) match."""

    config: MatchConfig
    err: TextIO = field(default_factory=lambda: sys.stderr)
    results: list[PairingResults] = field(init=False)
    restarts: Counter[str] = field(default_factory=Counter)
    stop_reason: str | None = None
    failed: bool = False
    verdict: str | None = None
    llr: float | None = None
    finished_games: int = 0
    engine_ids: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        cfg = self.config
        self.results = [PairingResults(cfg.engine.name, o.name) for o in cfg.opponents]
        pairs = cfg.games // 2
        order = opening_order(len(cfg.openings), pairs, cfg.random_openings, cfg.seed)
        self.jobs = [
            Job(r, o, swap, cfg.openings[order[r]])
            for r in range(pairs)
            for o in range(len(cfg.opponents))
            for swap in (False, True)
        ]
        self.next_job = 0
        self.chess960 = any(o.chess960 for o in cfg.openings)
        self.started = time.monotonic()
        self.stop_event: asyncio.Event | None = None
        self.pgn: TextIO | None = None

    @property
    def total_games(self) -> int:
        return len(self.jobs)

    def stop(self, reason: str, failed: bool = False) -> None:
        """Stop after the games in progress are abandoned (first reason wins)."""
        if self.stop_reason is None:
            self.stop_reason = reason
            self.failed = failed
        if self.stop_event is not None:
            self.stop_event.set()

    def _say(self, text: str) -> None:
        print(text, file=self.err, flush=True)

    async def _preflight(self) -> dict[str, EngineProcess] | None:
        """Start every engine once (all at once), so that a bad command or option fails
        before any game; the first worker then plays with these processes."""
        specs = [self.config.engine, *self.config.opponents]
        started = await asyncio.gather(
            *(EngineProcess.start(spec, self.chess960) for spec in specs),
            return_exceptions=True,
        )
        processes = {}
        for spec, process in zip(specs, started):
            if isinstance(process, EngineProcess):
                self.engine_ids[spec.name] = process.id_name
                processes[spec.name] = process
            elif isinstance(process, EngineError):
                self._say(f"match: {process}")
                self.stop(f"engine failed to start: {spec.name}", failed=True)
            else:
                raise process
        if self.stop_reason is not None:
            await asyncio.gather(*(p.close() for p in processes.values()))
            return None
        return processes

    def _sprt_counts(self) -> tuple[list[int], tuple[float, ...]]:
        p = self.results[0]
        if self.config.sprt_model == "pentanomial":
            return p.pentanomial, stats.PENTANOMIAL_SCORES
        return p.trinomial, stats.TRINOMIAL_SCORES

    def _record(self, job: Job, record: GameRecord) -> None:
        cfg = self.config
        p = self.results[job.opp]
        p.add(job.pair, record)
        self.finished_games += 1
        if self.pgn is not None:
            report.write_pgn_game(
                self.pgn, record, cfg.limits, cfg.event, f"{job.pair + 1}.{int(job.swap) + 1}"
            )
        if cfg.sprt is not None:
            counts, scores = self._sprt_counts()
            self.llr = cfg.sprt.llr(counts, scores)
            self.verdict = cfg.sprt.verdict(self.llr)
        if cfg.progress == "games":
            width = len(str(self.total_games))
            self._say(
                f"[{self.finished_games:>{width}}/{self.total_games}] "
                f"{record.white} - {record.black} {record.result:<7} "
                f"{record.termination.replace('_', ' ')}, {record.plies} plies, "
                f"opening {record.opening.index} | {report.status_line(p, self.llr)}"
            )
        if self.verdict is not None:
            self.stop(f"SPRT: {self.verdict}")

    async def _worker(self, procs: dict[str, EngineProcess]) -> None:
        cfg = self.config
        try:
            while self.stop_reason is None and self.next_job < len(self.jobs):
                job = self.jobs[self.next_job]
                self.next_job += 1
                opp = cfg.opponents[job.opp]
                white, black = (opp, cfg.engine) if job.swap else (cfg.engine, opp)
                players = []
                for spec in (white, black):
                    process = procs.get(spec.name)
                    if process is None:
                        try:
                            process = await EngineProcess.start(spec, self.chess960)
                        except EngineError as err:
                            self._say(f"match: {err}")
                            self.stop(f"engine failed to restart: {spec.name}", failed=True)
                            return
                        procs[spec.name] = process
                    players.append(process)
                record = await play_game(
                    players[0], players[1], white.name, black.name, job.opening, cfg.limits
                )
                self._record(job, record)
                for spec, process in zip((white, black), players):
                    if process.broken:
                        # Its state is unknown: a fresh process plays its next game.
                        self.restarts[spec.name] += 1
                        del procs[spec.name]
                        await process.close()
        finally:
            await asyncio.gather(*(p.close() for p in procs.values()))

    async def _status_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.status_interval)
            self._status()

    def _status(self) -> None:
        elapsed = time.monotonic() - self.started
        for p in self.results:
            self._say(
                f"[{self.finished_games}/{self.total_games} games, {elapsed:.0f} s] "
                + report.status_line(p, self.llr)
            )

    async def run(self) -> None:
        """Play the match to its end, a stop (SPRT verdict, error) or ``stop()``."""
        self.stop_event = asyncio.Event()
        if self.stop_reason is not None:
            return
        first = await self._preflight()
        if first is None:
            return
        cfg = self.config
        pgn_file = open(cfg.pgn_path, "w", encoding="utf-8") if cfg.pgn_path else None
        self.pgn = pgn_file
        workers = [
            asyncio.ensure_future(self._worker(first if k == 0 else {}))
            for k in range(min(cfg.concurrency, len(self.jobs)))
        ]
        status = asyncio.ensure_future(self._status_loop()) if cfg.progress == "status" else None
        stopper = asyncio.ensure_future(self.stop_event.wait())
        try:
            while not all(w.done() for w in workers):
                await asyncio.wait(
                    [*[w for w in workers if not w.done()], stopper],
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if self.stop_event.is_set() or any(
                    w.done() and not w.cancelled() and w.exception() for w in workers
                ):
                    break
        finally:
            for task in (*workers, stopper, *([status] if status else [])):
                task.cancel()
            await asyncio.gather(
                *workers, stopper, *([status] if status else []), return_exceptions=True
            )
            # A worker cancelled before it ever ran (a stop right after the preflight) did not
            # close the preflight engines it was handed; closing twice is harmless.
            await asyncio.gather(*(p.close() for p in first.values()))
            if pgn_file is not None:
                pgn_file.close()
        for w in workers:
            if not w.cancelled() and w.exception() is not None:
                raise w.exception()  # type: ignore[misc]
        if cfg.progress == "status":
            self._status()

    def sprt_lines(self) -> list[str]:
        sprt = self.config.sprt
        if sprt is None:
            return []
        lower, upper = sprt.bounds
        llr = self.llr if self.llr is not None else 0.0
        verdict = self.verdict or (
            "inconclusive (games ran out)" if self.stop_reason is None else "inconclusive"
        )
        counts, _ = self._sprt_counts()
        return [
            f"SPRT ({self.config.sprt_model}, logistic Elo): elo0={sprt.elo0:g} "
            f"elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}",
            f"  counts {counts}  LLR {llr:+.3f}  bounds [{lower:.3f}, {upper:.3f}]",
            f"  verdict: {verdict}",
        ]

    def summary(self) -> str:
        elapsed = time.monotonic() - self.started
        cfg = self.config
        state = "finished" if self.stop_reason is None else f"stopped: {self.stop_reason}"
        header = (
            f"Match summary ({state}): {self.finished_games} of {self.total_games} games, "
            f"{cfg.limits.describe()}, concurrency {cfg.concurrency}, {elapsed:.1f} s"
        )
        for spec in (cfg.engine, *cfg.opponents):
            options = " ".join(f"{k}={v}" for k, v in spec.options)
            header += f"\n  {spec.name}: {self.engine_ids.get(spec.name, '?')}"
            header += f" ({options})" if options else ""
        return report.summary_text(self.results, self.restarts, self.sprt_lines(), header)

    def to_json(self) -> dict[str, Any]:
        cfg = self.config
        sprt = None
        if cfg.sprt is not None:
            lower, upper = cfg.sprt.bounds
            sprt = {
                "elo0": cfg.sprt.elo0,
                "elo1": cfg.sprt.elo1,
                "alpha": cfg.sprt.alpha,
                "beta": cfg.sprt.beta,
                "model": cfg.sprt_model,
                "llr": self.llr if self.llr is not None else 0.0,
                "lower": lower,
                "upper": upper,
                "verdict": self.verdict or "inconclusive",
            }
        return {
            "finished": self.stop_reason is None,
            "stop_reason": self.stop_reason,
            "games_played": self.finished_games,
            "games_scheduled": self.total_games,
            "seconds": time.monotonic() - self.started,
            "limits": cfg.limits.describe(),
            "concurrency": cfg.concurrency,
            "engines": {
                spec.name: {
                    "cmd": list(spec.cmd),
                    "proto": spec.proto,
                    "options": dict(spec.options),
                    "id_name": self.engine_ids.get(spec.name),
                    "restarts": self.restarts.get(spec.name, 0),
                }
                for spec in (cfg.engine, *cfg.opponents)
            },
            "pairings": [p.to_json() for p in self.results],
            "sprt": sprt,
            "chess960": self.chess960,
        }
