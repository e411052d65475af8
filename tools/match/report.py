"""Progress lines, the final summary tables, the JSON summary and PGN output."""

from __future__ import annotations

import datetime
import math
from collections import Counter
from collections.abc import Sequence
from typing import TextIO

import chess
import chess.pgn

from . import stats
from .game import (
    CRASH,
    FAILURES,
    ILLEGAL_MOVE,
    NO_ANSWER,
    PGN_TERMINATION,
    TIME_FORFEIT,
    GameRecord,
    Limits,
)
from .results import PairingResults


def fmt_elo(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.1f}"


def fmt_elo_interval(estimate: stats.EloEstimate | None) -> str:
    """``+12.3 +- 45.6`` (half width of the 95% interval), or ``-inf [-inf, -150.2]`` when a
    bound is infinite (a score of 0% or 100% is inside the interval)."""
    if estimate is None:
        return "-"
    err = estimate.error
    if math.isinf(err) or math.isnan(err):
        return f"{fmt_elo(estimate.elo)} [{fmt_elo(estimate.low)}, {fmt_elo(estimate.high)}]"
    return f"{fmt_elo(estimate.elo)} +- {err:.1f}"


def wdl(p: PairingResults) -> str:
    return f"{p.wins}-{p.draws}-{p.losses}"


def status_line(p: PairingResults, llr: float | None = None) -> str:
    """A one-line standing of a pairing, for progress output. Its Elo is from all games
    (trinomial), like the W-D-L beside it; the summary's is from complete pairs."""
    estimate = stats.trinomial_elo(p.wins, p.draws, p.losses) if p.games else None
    text = (
        f"{p.engine} vs {p.opponent}: W-D-L {wdl(p)}  {100 * p.score:.1f}%  "
        f"Elo {fmt_elo_interval(estimate)}"
    )
    if llr is not None:
        text += f"  LLR {llr:+.2f}"
    return text


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool]) -> str:
    """A plain-text table with a rule under the header."""
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(c)) for w, c in zip(widths, row)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right)
        ).rstrip()

    out = [line(headers), "  ".join("-" * w for w in widths)]
    out.extend(line(row) for row in rows)
    return "\n".join(out)


TERMINATION_ORDER = (
    "checkmate",
    "stalemate",
    "insufficient_material",
    "seventyfive_moves",
    "fivefold_repetition",
    "fifty_moves",
    "threefold_repetition",
    "resignation",
    TIME_FORFEIT,
    ILLEGAL_MOVE,
    CRASH,
    NO_ANSWER,
)


def summary_text(
    pairings: Sequence[PairingResults],
    restarts: Counter[str],
    sprt_lines: Sequence[str],
    header: str,
) -> str:
    """The end-of-match summary: results per pairing, failures per engine, terminations."""
    out = [header, ""]
    rows = []
    for p in pairings:
        estimate, model = p.elo()
        avg = f"{p.plies / p.games:.1f}" if p.games else "-"
        rows.append(
            [
                p.engine,
                p.opponent,
                str(p.games),
                wdl(p),
                f"{100 * p.score:.1f}%" if p.games else "-",
                fmt_elo_interval(estimate),
                model,
                f"{100 * p.los():.1f}%" if p.games else "-",
                str(p.failure_count(p.engine, TIME_FORFEIT))
                + "/"
                + str(p.failure_count(p.opponent, TIME_FORFEIT)),
                str(p.failure_count(p.engine, ILLEGAL_MOVE))
                + "/"
                + str(p.failure_count(p.opponent, ILLEGAL_MOVE)),
                str(p.failure_count(p.engine, CRASH) + p.failure_count(p.engine, NO_ANSWER))
                + "/"
                + str(p.failure_count(p.opponent, CRASH) + p.failure_count(p.opponent, NO_ANSWER)),
                avg,
            ]
        )
    out.append(
        table(
            [
                "Engine",
                "Opponent",
                "Games",
                "W-D-L",
                "Score",
                "Elo (95%)",
                "from",
                "LOS",
                "Forfeits",
                "Illegal",
                "Crashes",
                "Avg plies",
            ],
            rows,
            [False, False, True, True, True, True, False, True, True, True, True, True],
        )
    )
    out.append(
        "W-D-L, score, Elo and LOS are the engine's against the opponent; Forfeits, Illegal "
        "and\nCrashes (crashes + hangs) count engine/opponent failures. Elo 'from pairs' is "
        "the\npentanomial model over complete colour-swapped pairs, 'games' the trinomial one."
    )

    failures: dict[str, Counter[str]] = {}
    for p in pairings:
        for name, counts in p.failures.items():
            failures.setdefault(name, Counter()).update(counts)
    names = list(failures)
    frows = [
        [name] + [str(failures[name][kind]) for kind in FAILURES] + [str(restarts.get(name, 0))]
        for name in names
    ]
    out += ["", "Failures by engine:"]
    out.append(
        table(
            ["Engine", "Time forfeits", "Illegal moves", "Crashes", "Hangs", "Restarts"],
            frows,
            [False, True, True, True, True, True],
        )
    )

    kinds = [k for k in TERMINATION_ORDER if any(p.terminations[k] for p in pairings)]
    kinds += sorted({k for p in pairings for k in p.terminations} - set(kinds))
    if kinds:
        trows = [
            [f"{p.engine} vs {p.opponent}"] + [str(p.terminations[k]) for k in kinds]
            for p in pairings
        ]
        out += ["", "Terminations:"]
        out.append(
            table(
                ["Pairing"] + [k.replace("_", " ") for k in kinds],
                trows,
                [False] + [True] * len(kinds),
            )
        )
    if sprt_lines:
        out += ["", *sprt_lines]
    return "\n".join(out)


def write_pgn_game(
    out: TextIO,
    record: GameRecord,
    limits: Limits,
    event: str,
    round_tag: str,
) -> None:
    """Append one game to a PGN file, with the tags a rating tool and a reader need."""
    board = record.opening.board()
    for move in record.moves:
        board.push(move)
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = event
    game.headers["Site"] = "?"
    game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    game.headers["Round"] = round_tag
    game.headers["White"] = record.white
    game.headers["Black"] = record.black
    game.headers["Result"] = record.result
    kind = record.termination
    game.headers["Termination"] = PGN_TERMINATION.get(kind, "normal")
    game.headers["TimeControl"] = limits.pgn_time_control()
    limit_text = limits.describe()
    if limits.tc is None or " " in limit_text:
        game.headers["Limits"] = limit_text
    game.headers["PlyCount"] = str(record.plies)
    # Game.from_board sets FEN/SetUp (and Variant for Chess960) when the game does not start
    # from the standard position; keep them explicit for the standard start too.
    if "FEN" not in game.headers:
        game.headers["FEN"] = record.opening.fen
        game.headers["SetUp"] = "1"
    end = game.end()
    end.comment = record.detail
    print(game, file=out, end="\n\n")
    out.flush()
