#!/usr/bin/env python3
"""Calibrate the engine's strength levels against Stockfish's own ``UCI_Elo``.

For each point ``LEVEL:SF_ELO`` it plays a match (``tools/match.py``) of our engine at
``Skill Level`` LEVEL against Stockfish with ``UCI_LimitStrength=true, UCI_Elo=SF_ELO``, and
reads the Elo difference with its 95% interval. A level's rating on Stockfish's scale is then
SF_ELO + difference. The summary table is what docs/strength.md publishes; ``--anchors`` also prints
the ``ELO_FOR_SKILL`` table of ``rust/engine/src/skill.rs`` that those ratings imply (linear
between measured levels, extended linearly beyond them), so that ``UCI_Elo`` X asks for the
level measured to play at X.

Example (what the table of docs/strength.md was made with):
  tools/calibrate.py --engine "$(tools/build-engine HEAD)" --tc 5+0.05 --games 30 \\
      --points 0:1320 5:1320 10:1600 15:2000 --out calibration --anchors
Each match's PGN, log and JSON go to --out; a point whose JSON exists there is not replayed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MATCH = Path(__file__).resolve().parent / "match.py"
#: The level that is full strength (no weakening): its rating is measured like the others.
MAX_LEVEL = 20


@dataclass(frozen=True)
class Point:
    level: int
    sf_elo: int

    @property
    def stem(self) -> str:
        return f"level{self.level:02d}-sf{self.sf_elo}"


@dataclass(frozen=True)
class Measured:
    point: Point
    wins: int
    draws: int
    losses: int
    elo: float
    low: float
    high: float
    forfeits: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def rating(self) -> float:
        return self.point.sf_elo + self.elo


def parse_point(text: str) -> Point:
    level, _sep, sf_elo = text.partition(":")
    try:
        point = Point(int(level), int(sf_elo))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not LEVEL:SF_ELO (e.g. 5:1320)") from None
    if not 0 <= point.level <= MAX_LEVEL:
        raise argparse.ArgumentTypeError(f"level {point.level} is outside 0..{MAX_LEVEL}")
    return point


def play(args: argparse.Namespace, point: Point) -> Path:
    """Play one point's match unless its JSON exists; the match's progress goes to stdout."""
    out = Path(args.out)
    summary = out / f"{point.stem}.json"
    if summary.exists():
        print(f"calibrate: {point.stem}: reusing {summary}", flush=True)
        return summary
    options = [f"option.Skill Level={point.level}"] if point.level < MAX_LEVEL else []
    command = [
        sys.executable,
        str(MATCH),
        "--engine",
        f"cmd={args.engine}",
        f"name=level{point.level}",
        *options,
        "--engine",
        "cmd=stockfish",
        f"name=sf{point.sf_elo}",
        "option.UCI_LimitStrength=true",
        f"option.UCI_Elo={point.sf_elo}",
        # Stockfish's 10 ms default loses games on time on a loaded machine; a forfeit would
        # measure the machine, not the level.
        "option.Move Overhead=100",
        "--tc",
        args.tc,
        "--games",
        str(args.games),
        "--concurrency",
        str(args.concurrency),
        "--pgn",
        str(out / f"{point.stem}.pgn"),
        "--json",
        str(summary),
        "--event",
        f"pychess-rs calibration {point.stem}",
    ]
    print(f"calibrate: {point.stem}: {args.games} games at {args.tc}", flush=True)
    subprocess.run(command, check=True)
    return summary


def read(point: Point, summary: Path) -> Measured:
    data = json.loads(summary.read_text(encoding="utf-8"))
    (pairing,) = data["pairings"]
    elo = pairing["elo_pairs"] if pairing["complete_pairs"] else pairing["elo_games"]
    failures = pairing["failures"][pairing["engine"]]
    return Measured(
        point,
        pairing["wins"],
        pairing["draws"],
        pairing["losses"],
        # Unbounded ends are written as strings ("-inf", "+inf"): JSON has no infinity.
        float(elo["elo"]),
        float(elo["low"]),
        float(elo["high"]),
        failures["time_forfeit"] + failures["illegal_move"] + failures["crash"],
    )


def anchors(measured: list[Measured], known: dict[int, float] | None = None) -> list[int]:
    """The rating of every level 0..MAX_LEVEL: measured ratings (averaged per level, with
    ``known`` ratings measured elsewhere), linear in between, extended with the nearest
    segment's slope beyond the ends."""
    by_level: dict[int, list[float]] = {}
    for m in measured:
        by_level.setdefault(m.point.level, []).append(m.rating)
    for level, rating in (known or {}).items():
        by_level.setdefault(level, []).append(rating)
    points = sorted((level, sum(r) / len(r)) for level, r in by_level.items())
    unbounded = [level for level, rating in points if rating in (float("inf"), float("-inf"))]
    if unbounded:
        raise ValueError(
            f"level(s) {unbounded} won or lost every game: measure them against "
            "a closer Stockfish level"
        )
    if len(points) < 2:
        raise ValueError("anchors need measurements at two levels at least")
    table = []
    for level in range(MAX_LEVEL + 1):
        # The segment that holds the level, or the end segment it extends.
        i = 0
        while i < len(points) - 2 and level > points[i + 1][0]:
            i += 1
        (l0, r0), (l1, r1) = points[i], points[i + 1]
        table.append(round(r0 + (r1 - r0) * (level - l0) / (l1 - l0)))
    # A weaker level must never rate above a stronger one (noise in the measurements).
    for level in range(1, len(table)):
        table[level] = max(table[level], table[level - 1] + 1)
    return table


def interval(m: Measured) -> str:
    """The 95% interval as distances from the estimate; an end the games cannot bound (a
    near-perfect score) shows as inf."""
    up = "inf" if m.high == float("inf") else f"{m.high - m.elo:.0f}"
    down = "inf" if m.low == float("-inf") else f"{m.elo - m.low:.0f}"
    return f"+{up} / -{down}"


def print_table(rows: list[Measured]) -> None:
    header = (
        "Level",
        "Stockfish UCI_Elo",
        "Games",
        "W-D-L",
        "Score",
        "Elo diff",
        "95% interval",
        "Rating",
        "Failures",
    )
    body = []
    for m in rows:
        score = (m.wins + m.draws / 2) / m.games if m.games else 0.0
        body.append(
            (
                str(m.point.level),
                str(m.point.sf_elo),
                str(m.games),
                f"{m.wins}-{m.draws}-{m.losses}",
                f"{score:.1%}",
                f"{m.elo:+.0f}",
                interval(m),
                f"{m.rating:.0f}",
                str(m.forfeits),
            )
        )
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in body:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tools/calibrate.py",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--engine", required=True, help="our UCI engine (pychess-rs-uci path)")
    parser.add_argument(
        "--points",
        nargs="+",
        type=parse_point,
        required=True,
        help="LEVEL:SF_ELO pairs (level 20 = full strength)",
    )
    parser.add_argument("--tc", default="5+0.05", help="time control (default 5+0.05)")
    parser.add_argument("--games", type=int, default=30, help="games per point (even)")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--out", default="calibration", help="directory for PGN/JSON/logs")
    parser.add_argument(
        "--known",
        nargs="+",
        type=parse_point,
        default=[],
        metavar="LEVEL:RATING",
        help="ratings measured elsewhere for --anchors (e.g. full strength, "
        "20:2356, from a longer match)",
    )
    parser.add_argument(
        "--anchors", action="store_true", help="print the ELO_FOR_SKILL table the ratings imply"
    )
    args = parser.parse_args(argv)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    try:
        rows = [read(point, play(args, point)) for point in args.points]
    except subprocess.CalledProcessError as err:
        print(
            f"calibrate: a match failed (exit {err.returncode}; its output is above)",
            file=sys.stderr,
        )
        return 1
    print()
    print(f"Calibration against Stockfish UCI_Elo, tc {args.tc}:")
    print_table(rows)
    if args.anchors:
        try:
            table = anchors(rows, {p.level: float(p.sf_elo) for p in args.known})
        except ValueError as err:
            print(f"calibrate: no anchors: {err}", file=sys.stderr)
            return 1
        print()
        print("ELO_FOR_SKILL (rust/engine/src/skill.rs):")
        print(", ".join(str(a) for a in table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
