#!/usr/bin/env python3
"""A variant match between two UCI engines, the rules kept by the pychess-rs core.

    tools/variant_match.py --variant atomic --games 8 --tc 2+0.05 \\
        --engine "cmd=.venv/bin/pychess-rs uci" \\
        --engine "cmd=/usr/games/fairy-stockfish" "option.Skill Level=0"

Each engine gets ``setoption name UCI_Variant value NAME``; each move is asked for with
``position startpos moves ...`` and ``go wtime/btime/winc/binc`` from clocks kept here.
Every answer is checked against the legal moves of the core's variant board
(``pychess_rs._core.variant_position``), which also ends the games: the variant's result,
checkmate, stalemate, insufficient material, the seventy-five-move rule, threefold
repetition, or ``--max-plies`` (a draw, marked adjudicated). A player loses by an illegal
move, by running out of time (``--grace`` seconds of slack) or by crashing (no answer,
the process gone); each is counted. Openings: ``--random-plies`` random moves from the
seed, the same for both games of a pair, colours swapped. ``tools/match.py`` is the chess
match runner (python-chess's client and boards); this one knows variants.

The summary (engine 1's point of view) is printed and, with ``--json FILE``, written.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from pychess_rs._core import variant_position


@dataclass
class EngineSpec:
    cmd: list[str]
    options: dict[str, str] = field(default_factory=dict)
    name: str = ""


def parse_engine(words: list[str]) -> EngineSpec:
    """``cmd=...`` then ``option.NAME=VALUE`` and ``name=...`` words."""
    spec = EngineSpec(cmd=[])
    for word in words:
        key, _, value = word.partition("=")
        if key == "cmd":
            spec.cmd = shlex.split(value)
        elif key == "name":
            spec.name = value
        elif key.startswith("option."):
            spec.options[key[len("option.") :]] = value
        else:
            raise SystemExit(f"--engine: expected cmd=, name= or option.X=, got {word!r}")
    if not spec.cmd:
        raise SystemExit("--engine needs cmd=...")
    spec.name = spec.name or spec.cmd[0].rsplit("/", 1)[-1]
    return spec


class Crash(Exception):
    """The engine died or did not answer in time."""


class UciEngine:
    def __init__(self, spec: EngineSpec, variant: str) -> None:
        self.spec = spec
        self.process = subprocess.Popen(
            spec.cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.send("uci")
        self.wait_for("uciok", 10)
        for name, value in {"UCI_Variant": variant, **spec.options}.items():
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise Crash(f"cannot write to the engine: {e}") from None

    def wait_for(self, prefix: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Crash(f"no {prefix!r} within {timeout:.1f} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise Crash("the engine exited")
            if line.startswith(prefix):
                return line

    def ready(self) -> None:
        self.send("isready")
        self.wait_for("readyok", 10)

    def close(self) -> None:
        try:
            self.send("quit")
            self.process.wait(timeout=3)
        except (Crash, subprocess.TimeoutExpired):
            self.process.kill()


@dataclass
class Game:
    white: int  # index of the engine playing White
    moves: list[str]
    result: str = "*"
    reason: str = ""
    san: list[str] = field(default_factory=list)


def play_game(
    engines: list[UciEngine],
    white: int,
    variant: str,
    opening: list[str],
    tc: tuple[float, float],
    grace: float,
    max_plies: int,
) -> tuple[Game, dict[int, str]]:
    """One game; returns it and ``{engine index: failure kind}`` for a loss by failure."""
    moves = list(opening)
    clocks = [tc[0], tc[0]]  # by colour: 0 White, 1 Black
    game = Game(white, moves)
    for engine in engines:
        engine.send("ucinewgame")
        engine.ready()
    while True:
        state = variant_position(variant, None, moves)
        if state["outcome"] is not None:
            game.result, game.reason = state["outcome"]
            break
        if state["repetitions"] >= 3:
            game.result, game.reason = "1/2-1/2", "threefold repetition"
            break
        if len(moves) >= max_plies:
            game.result, game.reason = "1/2-1/2", f"adjudicated after {max_plies} plies"
            break
        colour = 0 if state["turn"] else 1
        mover = white if colour == 0 else 1 - white
        engine = engines[mover]
        loss = "0-1" if colour == 0 else "1-0"
        position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        start = time.monotonic()
        try:
            engine.send(position)
            engine.send(
                f"go wtime {int(clocks[0] * 1000)} btime {int(clocks[1] * 1000)}"
                f" winc {int(tc[1] * 1000)} binc {int(tc[1] * 1000)}"
            )
            line = engine.wait_for("bestmove", clocks[colour] + grace)
        except Crash as e:
            game.result, game.reason = loss, f"{engine.spec.name} crashed or hung: {e}"
            return game, {mover: "crash"}
        spent = time.monotonic() - start
        clocks[colour] -= spent
        if clocks[colour] < -grace:
            game.result, game.reason = loss, f"{engine.spec.name} lost on time"
            return game, {mover: "time"}
        clocks[colour] = max(clocks[colour], 0.0) + tc[1]
        words = line.split()
        move = words[1] if len(words) > 1 else "(none)"
        if move not in state["legal_moves"]:
            game.result, game.reason = loss, f"{engine.spec.name} played illegal {move}"
            return game, {mover: "illegal"}
        moves.append(move)
    return game, {}


def pgn(game: Game, names: list[str], variant: str, number: int) -> str:
    state = variant_position(variant, None, game.moves)
    white, black = names[game.white], names[1 - game.white]
    body = []
    for i, san in enumerate(state["san"]):
        body.append((f"{i // 2 + 1}. " if i % 2 == 0 else "") + san)
    headers = [
        '[Event "variant match"]',
        f'[Round "{number}"]',
        f'[White "{white}"]',
        f'[Black "{black}"]',
        f'[Result "{game.result}"]',
        f'[Variant "{variant}"]',
        f'[Termination "{game.reason}"]',
    ]
    return "\n".join(headers) + "\n\n" + " ".join([*body, game.result]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument(
        "--engine",
        nargs="+",
        action="append",
        required=True,
        metavar="WORD",
        help="cmd=... [name=...] [option.NAME=VALUE ...]; give two",
    )
    parser.add_argument("--games", type=int, default=8, help="games (pairs: colours swapped)")
    parser.add_argument("--tc", default="2+0.05", help="seconds+increment per side")
    parser.add_argument("--grace", type=float, default=1.0, help="slack on the clock (s)")
    parser.add_argument("--random-plies", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pgn", help="write the games here")
    parser.add_argument("--json", help="write the summary here")
    args = parser.parse_args(argv)
    if len(args.engine) != 2:
        parser.error("give --engine twice")
    specs = [parse_engine(words) for words in args.engine]
    base, _, inc = args.tc.partition("+")
    tc = (float(base), float(inc or 0))
    rng = random.Random(args.seed)
    failures = {"illegal": [0, 0], "time": [0, 0], "crash": [0, 0]}
    points = [0.0, 0.0]
    wins = draws = losses = 0
    reasons: dict[str, int] = {}
    texts = []
    engines = [UciEngine(spec, args.variant) for spec in specs]
    try:
        opening: list[str] = []
        for number in range(args.games):
            if number % 2 == 0:
                opening = []
                for _ in range(args.random_plies):
                    legal = variant_position(args.variant, None, opening)["legal_moves"]
                    if not legal:
                        break
                    opening.append(rng.choice(legal))
            white = number % 2
            try:
                game, failed = play_game(
                    engines, white, args.variant, opening, tc, args.grace, args.max_plies
                )
            finally:
                # A crashed engine is restarted for the next game.
                for i, engine in enumerate(engines):
                    if engine.process.poll() is not None:
                        engines[i] = UciEngine(specs[i], args.variant)
            for index, kind in failed.items():
                failures[kind][index] += 1
            score_white = {"1-0": 1.0, "0-1": 0.0}.get(game.result, 0.5)
            first = score_white if white == 0 else 1.0 - score_white
            points[0] += first
            points[1] += 1.0 - first
            wins += first == 1.0
            draws += first == 0.5
            losses += first == 0.0
            reasons[game.reason] = reasons.get(game.reason, 0) + 1
            texts.append(pgn(game, [s.name for s in specs], args.variant, number + 1))
            print(
                f"game {number + 1}: {specs[white].name} (White) vs {specs[1 - white].name}:"
                f" {game.result} {game.reason} ({len(game.moves)} plies)",
                flush=True,
            )
    finally:
        for engine in engines:
            engine.close()
    summary = {
        "variant": args.variant,
        "engines": [s.name for s in specs],
        "options": [s.options for s in specs],
        "tc": args.tc,
        "games": args.games,
        "wins_draws_losses": [wins, draws, losses],
        "score": points,
        "illegal_moves": failures["illegal"],
        "time_forfeits": failures["time"],
        "crashes": failures["crash"],
        "terminations": reasons,
    }
    print(json.dumps(summary))
    if args.pgn:
        with open(args.pgn, "w", encoding="utf-8") as f:
            f.write("\n".join(texts))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
