"""Workload ``env``: pychess-rs's batched games and RL environment against their peers.

Run it where pychess-rs is installed with the ``[env]`` extra (``.venv/bin/python
tools/bench_env.py``); ``tools/bench.py --only env`` runs the same rows in its main table.

Rows (all rates in plies, one ply = one move played in one game, ratios over PettingZoo's):

* **AEC environment**, one game, random legal actions drawn in Python from each
  observation's mask (``env.last()``, then ``env.step``), a new game when one ends:
  PettingZoo's ``chess_v6`` against ``pychess_rs.env.env()`` (same wrappers, same
  observations, masks and rewards).
* **Batched stepping**, ``N`` games from the start position for ``P`` steps, a random legal
  move per game and step, every game end checked, ended games restarted:
  ``pychess_rs.batch.BatchBoards`` (random actions drawn in Rust; without observations and
  with PettingZoo's 8x8x111 ones; 1 and 2 threads); rust-chess's ``BoardBatch`` (moves drawn
  in Python from its per-board generators, ``make_move`` on the batch, ``get_status``;
  repetition detection off, as with it on boards rebuilt from FENs after a game ends crash
  it); pgx's chess on CPU (``jax.jit(jax.vmap(env.step))`` with ``jax.random.categorical`` over the
  mask, auto-reset, compile time excluded), when pgx installs.
* **Batched stepping at line rate**: ``BatchBoards(N', ...)`` for ``P'`` steps the way a
  trainer runs it: ``step_random()`` (random actions drawn in Rust on the stepping threads),
  outputs written into a ring of arrays the batch reuses (``ring=2``), for each observation
  (none, AlphaZero, PettingZoo) and ``dtype`` (float32/bool, uint8, ``packed`` bitboards with
  ``mask="bits"``), on 1 and 2 threads; the 2-thread rows note their gain over 1 thread.
  Beside them the plain path, ``step(random_actions())`` returning new arrays every step.
* **Random self-play rollouts**: whole games of random legal moves played in Rust
  (``pychess_rs.batch.rollouts``, 1 and 2 threads), the data-generation path.

Times are the best of ``--repeat`` runs (3; 1 with ``--quick``).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .config import Context
from .report import Row, log, machine_line, render_rows, set_ratios
from .timing import best_of

MAX_THREADS = 2


@dataclass(frozen=True)
class EnvSizes:
    aec_steps: int  # steps of the single-game AEC environments
    games: int  # N, batched games
    steps: int  # P, steps of the batch
    rollouts: int  # whole random games
    repeat: int
    line_games: int = 4096  # N', games of the line-rate rows
    line_steps: int = 30  # P', their steps


FULL = EnvSizes(aec_steps=3000, games=512, steps=200, rollouts=4000, repeat=3)
QUICK = EnvSizes(
    aec_steps=300, games=128, steps=50, rollouts=400, repeat=1, line_games=512, line_steps=5
)

#: The line-rate rows: (label, observation, dtype, mask, plain path).
LINE_RATE: tuple[tuple[str, str | None, str | None, str, bool], ...] = (
    ("obs=none", None, None, "int8", False),
    ("alphazero float32, new arrays + step(random_actions())", "alphazero", None, "int8", True),
    ("alphazero float32", "alphazero", None, "int8", False),
    ("alphazero uint8", "alphazero", "uint8", "int8", False),
    ("alphazero packed, mask bits", "alphazero", "packed", "bits", False),
    ("pettingzoo bool, new arrays + step(random_actions())", "pettingzoo", None, "int8", True),
    ("pettingzoo bool", "pettingzoo", None, "int8", False),
    ("pettingzoo packed, mask bits", "pettingzoo", "packed", "bits", False),
)


def aec_runner(make_env: Callable[[], Any], steps: int) -> Callable[[], int]:
    def run() -> int:
        rng = random.Random(1)
        env = make_env()
        env.reset(seed=0)
        for _ in range(steps):
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.reset(seed=0)
                observation, *_ = env.last()
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
        return steps

    return run


def ours_batch_runner(
    games: int, steps: int, threads: int, observation: str | None
) -> Callable[[], int]:
    from pychess_rs.batch import BatchBoards

    def run() -> int:
        batch = BatchBoards(games, threads=threads, observation=observation, seed=1)  # type: ignore[arg-type]
        batch.reset()
        for _ in range(steps):
            batch.step(batch.random_actions())
        return games * steps

    return run


def line_rate_runner(
    games: int,
    steps: int,
    threads: int,
    observation: str | None,
    dtype: str | None,
    mask: str,
    plain: bool,
) -> Callable[[], int]:
    """``step_random`` into a ring of reused arrays (or, ``plain``, ``step(random_actions())``
    with new arrays): the batch is built and reset outside the timed part."""
    from pychess_rs.batch import BatchBoards

    batch = BatchBoards(
        games,
        threads=threads,
        observation=observation,  # type: ignore[arg-type]
        dtype=dtype,  # type: ignore[arg-type]
        mask=mask,  # type: ignore[arg-type]
        ring=0 if plain else 2,
        seed=1,
    )
    batch.reset()

    def run() -> int:
        if plain:
            for _ in range(steps):
                batch.step(batch.random_actions())
        else:
            for _ in range(steps):
                batch.step_random()
        return games * steps

    return run


def rust_chess_runner(rc: Any, games: int, steps: int) -> Callable[[], int]:
    ongoing = rc.BoardStatus.ONGOING
    # Repetition detection off: with it on, rust-chess 0.4.3 panics (an index out of bounds
    # that aborts the process) on boards rebuilt from FENs.
    mode = rc.RepetitionDetectionMode.NONE

    def run() -> int:
        rng = random.Random(1)
        batch = rc.BoardBatch.from_boards([rc.Board(mode=mode) for _ in range(games)], mode=mode)
        for _ in range(steps):
            moves = [list(g) for g in batch.generate_legal_moves()]
            batch.make_move([m[rng.randrange(len(m))] for m in moves], False)
            status = batch.get_status()
            if any(s != ongoing for s in status):
                fens = batch.get_fens().split("\n")
                boards = [
                    rc.Board(f, mode=mode) if s == ongoing else rc.Board(mode=mode)
                    for f, s in zip(fens, status)
                ]
                batch = rc.BoardBatch.from_boards(boards, mode=mode)
        return games * steps

    return run


def pgx_runner(games: int, steps: int) -> Callable[[], int] | str:
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError as e:
        return f"pgx not installed ({e.name})"
    env = pgx.make("chess")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def choose(key: Any, mask: Any) -> Any:
        return jax.random.categorical(key, jnp.log(mask.astype(jnp.float32)), axis=-1)

    def run() -> int:
        key = jax.random.PRNGKey(1)
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, games))
        for _ in range(steps):
            key, k1, k2 = jax.random.split(key, 3)
            action = choose(k1, state.legal_action_mask)
            state = step(state, action, jax.random.split(k2, games))
        state.current_player.block_until_ready()
        return games * steps

    run()  # compiles
    return run


def rollouts_runner(games: int, threads: int) -> Callable[[], int]:
    from pychess_rs.batch import rollouts

    def run() -> int:
        return rollouts(games, seed=1, threads=threads).plies

    return run


def measure(
    quick: bool = False,
    repeat: int | None = None,
    sizes: EnvSizes | None = None,
    threads: Sequence[int] = tuple(range(1, MAX_THREADS + 1)),
    line_rate_only: bool = False,
) -> list[Row]:
    """The table's rows (see the module documentation); ``sizes`` replaces FULL or QUICK.
    ``threads`` are the thread counts of the batched rows (each a row); ``line_rate_only``
    keeps the line-rate and rollout rows alone (what a many-core machine is run for)."""
    sizes = sizes or (QUICK if quick else FULL)
    repeat = repeat or sizes.repeat
    table: list[Row] = []
    counts = list(threads)
    plural = {n: f"{n} thread{'s' * (n > 1)}" for n in counts}

    def time_row(workload: str, impl: str, runner: Callable[[], int] | str, note: str = "") -> Row:
        row = Row(workload, impl, unit="plies", note=note)
        if isinstance(runner, str):
            row.note = runner
        else:
            log(f"[{workload}] {impl}")
            timing = best_of(runner, repeat, impl)
            row.seconds, row.units = timing.seconds, timing.result or 0
            row.note = timing.note or note
        table.append(row)
        return row

    reference: Row | None = None
    if not line_rate_only:
        reference = unbatched_and_peer_rows(sizes, counts, time_row)

    line = f"batched stepping at line rate ({sizes.line_games} games x {sizes.line_steps} steps)"
    for label, observation, dtype, mask, plain in LINE_RATE:
        one: Row | None = None
        for n in counts:
            runner = line_rate_runner(
                sizes.line_games, sizes.line_steps, n, observation, dtype, mask, plain
            )
            how = "" if plain else "step_random, ring=2, "
            row = time_row(line, f"BatchBoards {how}{label}, {plural[n]}", runner)
            if one is None:
                one = row
            elif one.rate and row.rate:
                row.note = f"x{row.rate / one.rate:.2f} over {plural[counts[0]]}"

    whole = f"random self-play rollouts ({sizes.rollouts} whole games)"
    for n in counts:
        time_row(
            whole, f"pychess_rs.batch.rollouts, {plural[n]}", rollouts_runner(sizes.rollouts, n)
        )

    # Rates, not times: the rows play different numbers of plies.
    set_ratios(table, reference, by_rate=True)
    return table


def unbatched_and_peer_rows(
    sizes: EnvSizes, counts: list[int], time_row: Callable[..., Row]
) -> Row | None:
    """The AEC rows and the batched rows beside rust-chess and pgx on the CPU; returns
    PettingZoo's row (the table's reference) when PettingZoo is installed."""
    aec = f"AEC env, 1 game ({sizes.aec_steps} steps)"
    reference: Row | None = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            from pettingzoo.classic import chess_v6
        reference = time_row(aec, "PettingZoo chess_v6", aec_runner(chess_v6.env, sizes.aec_steps))
    except ImportError as e:
        time_row(aec, "PettingZoo chess_v6", f"not installed ({e.name})")
    from pychess_rs.env import env

    time_row(aec, "pychess_rs.env", aec_runner(env, sizes.aec_steps))

    batched = f"batched random play ({sizes.games} games x {sizes.steps} steps)"
    for observation in (None, "pettingzoo"):
        for threads in counts:
            name = f"BatchBoards obs={observation or 'none'}, {threads} thread{'s' * (threads > 1)}"
            time_row(
                batched, name, ours_batch_runner(sizes.games, sizes.steps, threads, observation)
            )
    try:
        import rust_chess

        time_row(
            batched,
            "rust-chess BoardBatch",
            rust_chess_runner(rust_chess, sizes.games, sizes.steps),
            "moves drawn in Python; no observations; no repetition detection",
        )
    except ImportError:
        time_row(batched, "rust-chess BoardBatch", "not installed (pip install rust-chess)")
    # pgx is some hundred times slower per ply on CPU: fewer steps keep the run short.
    pgx_steps = min(sizes.steps, 20)
    time_row(
        batched,
        "pgx chess (CPU, jit+vmap)",
        pgx_runner(sizes.games, pgx_steps),
        f"{pgx_steps} steps; AlphaZero 8x8x119 observations",
    )
    return reference


def rows(ctx: Context) -> list[Row]:
    """The rows of ``tools/bench.py --only env``, in its main table."""
    return measure(ctx.quick, ctx.repeat_given)


def main(argv: Sequence[str] | None = None) -> int:
    """``tools/bench_env.py``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, one run each")
    parser.add_argument("--markdown", action="store_true", help="print the table as markdown")
    parser.add_argument("--repeat", type=int, help="runs per measurement (best is kept)")
    parser.add_argument(
        "--threads",
        type=int,
        nargs="+",
        default=list(range(1, MAX_THREADS + 1)),
        help="thread counts of the batched rows (default 1 2; the first is the gains' base)",
    )
    parser.add_argument(
        "--line-rate-only",
        action="store_true",
        help="only the line-rate and rollout rows (for a many-core machine)",
    )
    parser.add_argument("--line-games", type=int, help="games of the line-rate rows (4096)")
    parser.add_argument("--line-steps", type=int, help="steps of the line-rate rows (30)")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    sizes = dataclasses.replace(
        sizes,
        line_games=args.line_games or sizes.line_games,
        line_steps=args.line_steps or sizes.line_steps,
    )
    log(f"machine: {machine_line()}")
    table = measure(
        args.quick,
        args.repeat,
        sizes,
        threads=args.threads,
        line_rate_only=args.line_rate_only,
    )
    print()
    print(f"Machine: {machine_line()}")
    print()
    print(render_rows(table, args.markdown))
    return 0
