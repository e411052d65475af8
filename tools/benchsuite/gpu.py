"""Workload ``gpu``: pychess-rs's batch on every CPU core beside pgx on a GPU, and the loop an
AlphaZero trainer runs (batch observations -> a small convolutional policy net in PyTorch on
the GPU -> its actions back into the batch).

Run it on a machine with a GPU, release build (``.venv/bin/python tools/bench_gpu.py``);
``tools/bench.py --only gpu`` runs the same rows in its main table. What needs a missing
piece is skipped with a note saying which: pgx rows need ``jax`` with a GPU backend and
``pgx``; the loop needs ``torch`` with CUDA (``--loop-device cpu`` runs it on the CPU
instead, to check it anywhere torch installs). Our batch rows always run.

Rows (rates in plies: one ply = one move in one game), for each batch size B (4,096 and
32,768; ``--batch`` replaces them):

* **random legal moves**: ``BatchBoards(B, observation="alphazero", dtype=..., threads=every
  core, ring=2).step_random()``: packed bitboards with ``mask="bits"`` (what a GPU trainer
  copies: 952 + 584 bytes a game) and uint8 planes; against pgx's chess
  (``jax.jit(jax.vmap(auto_reset(env.step, env.init)))``, actions drawn with
  ``jax.random.categorical`` over the legal mask, its 8x8x119 float observation on the GPU;
  compile time excluded).
* **AlphaZero loop**: per step the batch's packed observations and mask bits go to the
  device (through pinned memory), are unpacked there (docs/encodings.md, "Batched
  observations"), a 3-layer convolutional policy net (119 -> 32 -> 32 -> 73 channels) gives
  logits, illegal actions are masked out, one action per game is sampled, and the actions
  come back to ``BatchBoards.step`` (``illegal="error"``: a wrong action would raise).

Times are the best of ``--repeat`` runs (3; 1 with ``--quick``).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .config import Context
from .report import Row, log, machine_line, render_rows, set_ratios
from .timing import best_of

#: A policy of the loop: packed observations ``(B, 119)`` uint64 and mask bits ``(B, 73)``
#: uint64 in, one action per game out.
Policy = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class GpuSizes:
    batches: tuple[int, ...]  # batch sizes B
    steps: int  # steps per timed run (ours and pgx)
    loop_steps: int  # steps per timed run of the AlphaZero loop
    repeat: int


FULL = GpuSizes(batches=(4096, 32768), steps=20, loop_steps=10, repeat=3)
QUICK = GpuSizes(batches=(4096,), steps=3, loop_steps=2, repeat=1)


def cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def ours_runner(games: int, steps: int, threads: int, dtype: str) -> Callable[[], int]:
    """``step_random`` with AlphaZero observations into a ring of reused arrays."""
    from pychess_rs.batch import BatchBoards

    mask = "bits" if dtype == "packed" else "int8"
    batch = BatchBoards(
        games,
        observation="alphazero",
        dtype=dtype,
        mask=mask,
        threads=threads,
        ring=2,
        seed=1,  # type: ignore[arg-type]
    )
    batch.reset()

    def run() -> int:
        for _ in range(steps):
            batch.step_random()
        return games * steps

    return run


def pgx_gpu_runner(games: int, steps: int) -> Callable[[], int] | str:
    """pgx's chess on the GPU, or why it cannot run here."""
    try:
        import jax
        import jax.numpy as jnp
    except ImportError as e:
        return f"skipped: jax not installed ({e.name})"
    try:
        import pgx
        from pgx.experimental import auto_reset
    except ImportError as e:
        return f"skipped: pgx not installed ({e.name})"
    if jax.default_backend() != "gpu":
        return f"skipped: JAX sees no GPU (backend {jax.default_backend()!r})"
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
            state = step(state, choose(k1, state.legal_action_mask), jax.random.split(k2, games))
        state.observation.block_until_ready()
        return games * steps

    run()  # compiles
    return run


def torch_policy(games: int, device: str | None) -> Policy | str:
    """A small convolutional policy net in PyTorch on ``device`` (CUDA when None) as a loop
    policy, or why it cannot run here."""
    try:
        import torch
        from torch import nn
    except ImportError as e:
        return f"skipped: torch not installed ({e.name})"
    if device is None:
        if not torch.cuda.is_available():
            return "skipped: torch sees no CUDA GPU (--loop-device cpu runs the loop on the CPU)"
        device = "cuda"
    dev = torch.device(device)
    torch.manual_seed(1)
    net = nn.Sequential(
        nn.Conv2d(119, 32, 3, padding=1),
        nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1),
        nn.ReLU(),
        nn.Conv2d(32, 73, 1),
    ).to(dev)
    net.eval()
    shifts = torch.arange(64, device=dev)
    pinned = dev.type == "cuda"
    host_obs = torch.empty((games, 119), dtype=torch.int64, pin_memory=pinned)
    host_mask = torch.empty((games, 73), dtype=torch.int64, pin_memory=pinned)

    def policy(observations: Any, masks: Any) -> Any:
        # uint64 words viewed as int64 (torch's shifts are arithmetic, `& 1` keeps the bit).
        host_obs.numpy()[:] = observations.view("int64")
        host_mask.numpy()[:] = masks.view("int64")
        words = host_obs.to(dev, non_blocking=True)
        bits = host_mask.to(dev, non_blocking=True)
        planes = ((words.unsqueeze(-1) >> shifts) & 1).float().view(-1, 119, 8, 8)
        planes[:, 113] = words[:, 113, None, None].float()  # fullmove number
        planes[:, 118] = words[:, 118, None, None].float()  # halfmove clock
        legal = ((bits.unsqueeze(-1) >> shifts) & 1).bool().view(-1, 73 * 64)
        with torch.no_grad():
            out = net(planes)  # (B, 73, row, column), row 0 the mover's far rank
            # Actions are numbered (file * 8 + rank) * 73 + plane, rank 0 the mover's first.
            logits = out.flip(2).permute(0, 3, 2, 1).reshape(-1, 73 * 64)
            logits = logits.masked_fill(~legal, float("-inf"))
            actions = torch.distributions.Categorical(logits=logits).sample()
        return actions.cpu().numpy()

    return policy


def uniform_policy(seed: int = 1) -> Policy:
    """A NumPy stand-in for the net: a uniformly random legal action from the mask bits
    (what the loop's plumbing needs, on any machine)."""
    import numpy as np

    rng = np.random.default_rng(seed)

    def policy(observations: Any, masks: Any) -> Any:
        legal = np.unpackbits(masks.astype("<u8").view(np.uint8), axis=1, bitorder="little")
        noise = rng.random(legal.shape) * legal
        return noise.argmax(axis=1).astype(np.int64)

    return policy


def loop_runner(games: int, steps: int, threads: int, policy: Policy) -> Callable[[], int]:
    """The AlphaZero loop: observations and masks of the batch through ``policy``, its
    actions back into the batch (illegal ones would raise)."""
    from pychess_rs.batch import BatchBoards

    batch = BatchBoards(
        games, observation="alphazero", dtype="packed", mask="bits", threads=threads, ring=2
    )
    observations, masks = batch.reset()

    def run() -> int:
        nonlocal observations, masks
        for _ in range(steps):
            step = batch.step(policy(observations, masks))
            observations, masks = step.observations, step.masks
        return games * steps

    return run


def measure(
    quick: bool = False,
    repeat: int | None = None,
    sizes: GpuSizes | None = None,
    loop_device: str | None = None,
    threads: int | None = None,
) -> list[Row]:
    """The table's rows (see the module documentation)."""
    sizes = sizes or (QUICK if quick else FULL)
    repeat = repeat or sizes.repeat
    threads = threads or cores()
    table: list[Row] = []

    def time_row(workload: str, impl: str, runner: Callable[[], int] | str, note: str = "") -> Row:
        row = Row(workload, impl, unit="plies", note=note)
        if isinstance(runner, str):
            row.note = runner
            log(f"[{workload}] {impl}: {runner}")
        else:
            log(f"[{workload}] {impl}")
            timing = best_of(runner, repeat, impl)
            row.seconds, row.units = timing.seconds, timing.result or 0
            row.note = timing.note or note
        table.append(row)
        return row

    cpu = f"{threads} CPU thread{'s' * (threads > 1)}"
    for games in sizes.batches:
        workload = f"random legal moves, AlphaZero observations, batch {games}"
        reference = time_row(
            workload,
            f"pychess-rs BatchBoards packed + mask bits, {cpu}",
            ours_runner(games, sizes.steps, threads, "packed"),
        )
        time_row(
            workload,
            f"pychess-rs BatchBoards uint8 planes, {cpu}",
            ours_runner(games, sizes.steps, threads, "uint8"),
        )
        time_row(
            workload,
            "pgx chess on the GPU (jit + vmap)",
            pgx_gpu_runner(games, sizes.steps),
            "8x8x119 float32 observations on the device",
        )
        set_ratios([r for r in table if r.workload == workload], reference, by_rate=True)
    for games in sizes.batches:
        workload = f"AlphaZero loop (batch -> conv policy -> actions), batch {games}"
        policy = torch_policy(games, loop_device)
        device = loop_device or "cuda"
        runner = (
            policy
            if isinstance(policy, str)
            else loop_runner(games, sizes.loop_steps, threads, policy)
        )
        time_row(workload, f"pychess-rs batch on {cpu} + torch on {device}", runner)
    return table


def rows(ctx: Context) -> list[Row]:
    """The rows of ``tools/bench.py --only gpu``, in its main table."""
    return measure(ctx.quick, ctx.repeat_given)


def main(argv: Sequence[str] | None = None) -> int:
    """``tools/bench_gpu.py``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, one run each")
    parser.add_argument("--markdown", action="store_true", help="print the table as markdown")
    parser.add_argument("--repeat", type=int, help="runs per measurement (best is kept)")
    parser.add_argument(
        "--batch", type=int, action="append", help="batch size (repeatable; 4096 and 32768)"
    )
    parser.add_argument("--steps", type=int, help="steps per timed run")
    parser.add_argument("--threads", type=int, help="CPU threads of our batch (every core)")
    parser.add_argument(
        "--loop-device", help="torch device of the AlphaZero loop (default: cuda if available)"
    )
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    if args.batch or args.steps:
        sizes = GpuSizes(
            batches=tuple(args.batch or sizes.batches),
            steps=args.steps or sizes.steps,
            loop_steps=args.steps or sizes.loop_steps,
            repeat=sizes.repeat,
        )
    log(f"machine: {machine_line()}")
    table = measure(args.quick, args.repeat, sizes, args.loop_device, args.threads)
    print()
    print(f"Machine: {machine_line()}")
    print()
    print(render_rows(table, args.markdown))
    return 0
