#!/usr/bin/env python3
"""Train the engine's evaluation network on NNUE training records.

    pychess-rs training-data nnue data.bin --selfplay 2000 --nodes 5000 --seed 1
    python tools/nnue_train.py data.bin --out net.nnue --hidden 128 --epochs 20 --seed 1

On the CPU (the default) this runs the Rust trainer, ``pychess-nnue-train``
(``rust/nnue_trainer``: sparse, multi-threaded; its documentation is the reference for the
network, loss, optimiser and quantisation), built for this CPU on first use (see
``rust_trainer``) or taken from ``$PYCHESS_NNUE_TRAINER``. ``--device cuda`` (or ``cpu``)
trains the same network with the same loss, clipping and quantisation in PyTorch, for a
GPU: the whole set sits on the device and a step is a sparse sum of feature rows
(``embedding_bag``).

The network is the engine's (``rust/engine/src/nnue``): ``768 -> N x 2 -> 1``, one feature
transformer shared by both perspectives, clipped ReLU (``clamp(x, 0, 1)``; with
``--activation screlu`` its square, file version 2), one output
neuron over the side to move's half then the other side's; its output ``o`` times ``SCALE``
(400) is the evaluation in centipawns from the side to move's view. Data: the 32-byte
records ``pychess-rs training-data nnue`` writes (bullet's ``ChessBoard`` by default,
marlinflow's ``PackedBoard`` with ``--format marlin``); the last ``--validation`` fraction
of the data validates. Loss: mean squared error between ``sigmoid(o)`` and
``(1 - wdl) * sigmoid(score / SCALE) + wdl * result``; Adam; weights clipped to
``[-1.98, 1.98]`` so the engine's 16-bit accumulator cannot overflow; quantised to the
engine's ``PCNN`` file. Every epoch's losses go to ``--curve`` (CSV; the Rust trainer writes
an SVG plot beside it, the PyTorch path a PNG when matplotlib is installed). Both paths are
reproducible from ``--seed`` (a GPU's atomic additions may change the last bits).
``--init NET`` trains on from a network file instead of random weights (its width and
activation), for instance the built-in network on newer or better-labelled data; with a
wider ``--hidden`` the Rust trainer grows it (its neurons kept, new ones beside them with
output weights of zero, so it starts out evaluating as the file does).
``--buckets B`` gives the network B output heads chosen by the piece count (file version
3; a one-head ``--init`` network starts with B copies of its head): the Rust trainer only.
``--anchor A`` (with ``--init``, the Rust trainer only) pulls every weight back towards
``--init``'s after each step, by A times the learning rate of its distance, so that training
on new data alone adds to the network instead of replacing what it knew.
"""

from __future__ import annotations

import argparse
import csv
import os
import struct
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

QA = 255
QB = 64
SCALE = 400
CLIP = 1.98
INPUTS = 768
RECORD = 32
VERSIONS = {"crelu": 1, "screlu": 2}  # the file version names the activation


@dataclass
class Data:
    """Positions as active features of both perspectives, padded with ``INPUTS``."""

    us: np.ndarray  # (M, 32) int16, the side to move's inputs
    them: np.ndarray  # (M, 32) int16, the other side's inputs
    score: np.ndarray  # (M,) float32, centipawns, side to move's view
    result: np.ndarray  # (M,) float32, 0 / 0.5 / 1 for the side to move

    def __len__(self) -> int:
        return len(self.score)

    def mirrored(self) -> Data:
        """The same positions with files a-h swapped: feature ``i`` becomes ``i ^ 7`` (the
        network's inputs hold no castling rights, so the image is as good a sample; the
        evaluation of chess is nearly symmetric under it)."""

        def flip(features: np.ndarray) -> np.ndarray:
            return np.where(features < INPUTS, features ^ 7, features).astype(features.dtype)

        return Data(flip(self.us), flip(self.them), self.score, self.result)

    def take(self, index: np.ndarray | slice) -> Data:
        return Data(self.us[index], self.them[index], self.score[index], self.result[index])


FIELDS = tuple(Data.__annotations__)


def read_records(path: Path, fmt: str = "bullet") -> Data:
    """Decodes every record of ``path`` (bullet ``ChessBoard`` or marlin ``PackedBoard``)."""
    raw = np.fromfile(path, dtype=np.uint8)
    if raw.size % RECORD:
        raise ValueError(f"{path}: {raw.size} bytes is not a whole number of 32-byte records")
    rec = raw.reshape(-1, RECORD)
    m = len(rec)
    occ_bits = np.unpackbits(rec[:, :8], axis=1, bitorder="little").astype(bool)  # (M, 64)
    nibbles = np.empty((m, 32), dtype=np.uint8)
    nibbles[:, 0::2] = rec[:, 8:24] & 0x0F
    nibbles[:, 1::2] = rec[:, 8:24] >> 4
    order = np.cumsum(occ_bits, axis=1) - 1
    rows, squares = np.nonzero(occ_bits)
    if np.any(order[:, -1] >= 32):
        raise ValueError(f"{path}: a record has more than 32 pieces")
    codes = nibbles[rows, order[rows, squares]]
    color = (codes >> 3).astype(np.int64)
    role = (codes & 7).astype(np.int64)
    if fmt == "bullet":
        score = rec[:, 24:26].copy().view("<i2").reshape(-1).astype(np.float32)
        result = rec[:, 26].astype(np.float32) / 2
    elif fmt == "marlin":
        role = np.where(role == 6, 3, role)  # a rook keeping a castling right
        black = (rec[:, 24] >> 7).astype(bool)
        score = rec[:, 28:30].copy().view("<i2").reshape(-1).astype(np.float32)
        score = np.where(black, -score, score)
        result = rec[:, 30].astype(np.float32) / 2
        result = np.where(black, 1 - result, result)
        # To the side to move's view: mirror the squares and swap the colours for Black.
        flip = black[rows]
        squares = np.where(flip, squares ^ 56, squares)
        color = np.where(flip, 1 - color, color)
    else:
        raise ValueError(f"unknown record format {fmt!r} (bullet or marlin)")
    if np.any(role > 5):
        raise ValueError(f"{path}: a piece code is not a piece")
    us_index = 384 * color + 64 * role + squares
    them_index = 384 * (1 - color) + 64 * role + (squares ^ 56)
    slot = order[rows, squares]
    us = np.full((m, 32), INPUTS, dtype=np.int16)
    them = np.full((m, 32), INPUTS, dtype=np.int16)
    us[rows, slot] = us_index
    them[rows, slot] = them_index
    return Data(us, them, score.astype(np.float32), result.astype(np.float32))


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


class Network:
    """The float network (initial weights, the PyTorch path's result) and its quantisation."""

    def __init__(self, hidden: int, rng: np.random.Generator, activation: str = "crelu") -> None:
        self.hidden = hidden
        self.activation = activation
        self.params = {
            "fw": rng.normal(0.0, 1.0 / np.sqrt(32), (INPUTS, hidden)).astype(np.float32),
            "fb": np.zeros(hidden, dtype=np.float32),
            "ow": rng.normal(0.0, 1.0 / np.sqrt(2 * hidden), 2 * hidden).astype(np.float32),
            "ob": np.zeros(1, dtype=np.float32),
        }

    @classmethod
    def read(cls, path: Path) -> Network:
        """The float network a ``PCNN`` file was quantised from, up to rounding (to train on
        from it); refuses a file whose scales are not this trainer's."""
        raw = path.read_bytes()
        if len(raw) < 24 or raw[:4] != b"PCNN":
            raise ValueError(f"{path}: not a PCNN network file")
        version, hidden, qa, qb, scale = struct.unpack_from("<5I", raw, 4)
        names = {v: k for k, v in VERSIONS.items()}
        if version == 3:
            heads = "a network with output buckets (version 3)"
            raise ValueError(f"{path}: {heads}; train on from it with the Rust trainer")
        if version not in names or not 1 <= hidden <= 4096:
            raise ValueError(f"{path}: version {version}, width {hidden} is not a network here")
        if (qa, qb, scale) != (QA, QB, SCALE):
            trainer = (QA, QB, SCALE)
            raise ValueError(f"{path}: scales {(qa, qb, scale)}, not the trainer's {trainer}")
        if len(raw) != 24 + 2 * (INPUTS * hidden + 3 * hidden) + 4:
            raise ValueError(f"{path}: {len(raw)} bytes is not a {hidden}-wide network")
        weights = np.frombuffer(raw, dtype="<i2", offset=24, count=INPUTS * hidden + 3 * hidden)
        net = cls(hidden, np.random.default_rng(0), names[version])
        split_at = INPUTS * hidden
        (output_bias,) = struct.unpack_from("<i", raw, len(raw) - 4)
        net.params = {
            "fw": (weights[:split_at] / QA).astype(np.float32).reshape(INPUTS, hidden),
            "fb": (weights[split_at : split_at + hidden] / QA).astype(np.float32),
            "ow": (weights[split_at + hidden :] / QB).astype(np.float32),
            "ob": np.array([output_bias / (QA * QB)], dtype=np.float32),
        }
        return net

    def quantised(self) -> bytes:
        """The network in the engine's file format (``PCNN`` version 1, or 2 for SCReLU)."""
        p = self.params
        fw = np.round(p["fw"] * QA).astype("<i2")
        fb = np.round(p["fb"] * QA).astype("<i2")
        ow = np.round(p["ow"] * QB).astype("<i2")
        ob = int(np.round(p["ob"][0] * QA * QB))
        version = VERSIONS[self.activation]
        header = b"PCNN" + struct.pack("<5I", version, self.hidden, QA, QB, SCALE)
        return header + fw.tobytes() + fb.tobytes() + ow.tobytes() + struct.pack("<i", ob)

    def evaluate_records(self, data: Data) -> np.ndarray:
        """Float evaluations in centipawns (side to move's view)."""
        p = self.params
        # Row INPUTS (zero) is what the padding of the input lists picks.
        rows = np.vstack([p["fw"], np.zeros((1, self.hidden), dtype=np.float32)])
        power = 2 if self.activation == "screlu" else 1
        h = [
            np.clip(rows[x.astype(np.int64)].sum(axis=1) + p["fb"], 0, 1) ** power
            for x in (data.us, data.them)
        ]
        return (np.concatenate(h, axis=1) @ p["ow"] + p["ob"][0]) * SCALE


def target(data: Data, wdl: float) -> np.ndarray:
    return (1 - wdl) * sigmoid(data.score / SCALE) + wdl * data.result


def write_curve(path: Path, rows: list[tuple[int, float, float]]) -> Path | None:
    """Writes the loss curve as CSV, and as a PNG beside it when matplotlib is at hand."""
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["epoch", "train_loss", "validation_loss"])
        writer.writerows(rows)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    png = path.with_suffix(".png")
    fig, ax = plt.subplots(figsize=(6, 4))
    epochs = [r[0] for r in rows]
    ax.plot(epochs, [r[1] for r in rows], label="training")
    ax.plot(epochs, [r[2] for r in rows], label="validation")
    ax.set_xlabel("epoch")
    ax.set_ylabel("MSE")
    ax.legend()
    fig.savefig(png, dpi=100)
    plt.close(fig)
    return png


def split(data: Data, validation: float, mirror: bool = False) -> tuple[Data, Data]:
    """The training part and the held-out last ``validation`` fraction (whole games at the
    file's end: the writers write game after game); ``mirror`` adds the training part's
    mirror images to it (never to the validation part)."""
    held = int(len(data) * validation)
    if len(data) - held < 1 or held < 1:
        raise ValueError(f"{len(data)} positions are too few to split for validation")
    training = data.take(slice(0, len(data) - held))
    if mirror:
        twin = training.mirrored()
        training = Data(*(np.concatenate([getattr(training, f), getattr(twin, f)]) for f in FIELDS))
    return training, data.take(slice(len(data) - held, len(data)))


def train_torch(
    data: Data,
    *,
    hidden: int,
    epochs: int,
    batch: int,
    lr: float,
    wdl: float,
    validation: float,
    seed: int,
    device: str,
    lr_decay: float = 1.0,
    mirror: bool = False,
    activation: str = "crelu",
    init: Network | None = None,
    log=print,
) -> tuple[Network, list[tuple[int, float, float]]]:
    """``train`` in PyTorch on ``device``, from ``init`` when given (its width and
    activation win); the numpy ``Network`` it returns holds the result."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)
    training, validating = split(data, validation, mirror)
    dev = torch.device(device)

    def tensors(part: Data) -> tuple:
        return (
            torch.from_numpy(part.us.astype(np.int64)).to(dev),
            torch.from_numpy(part.them.astype(np.int64)).to(dev),
            torch.from_numpy(target(part, wdl).astype(np.float32)).to(dev),
        )

    train_set, valid_set = tensors(training), tensors(validating)
    rng = np.random.default_rng(seed)
    start = init or Network(hidden, rng, activation)
    hidden, activation = start.hidden, start.activation
    power = 2 if activation == "screlu" else 1
    # Row INPUTS is the padding feature: embedding_bag leaves it out of sums and gradients.
    fw = torch.zeros(INPUTS + 1, hidden)
    fw[:INPUTS] = torch.from_numpy(start.params["fw"])
    params = {
        "fw": fw.to(dev).requires_grad_(),
        "fb": torch.from_numpy(start.params["fb"]).to(dev).requires_grad_(),
        "ow": torch.from_numpy(start.params["ow"]).to(dev).requires_grad_(),
        "ob": torch.from_numpy(start.params["ob"]).to(dev).requires_grad_(),
    }
    optimiser = torch.optim.Adam(params.values(), lr=lr)
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optimiser, gamma=lr_decay)

    def forward(us: torch.Tensor, them: torch.Tensor) -> torch.Tensor:
        a_us = F.embedding_bag(us, params["fw"], mode="sum", padding_idx=INPUTS) + params["fb"]
        a_them = F.embedding_bag(them, params["fw"], mode="sum", padding_idx=INPUTS)
        h = torch.cat([a_us.clamp(0, 1), (a_them + params["fb"]).clamp(0, 1)], dim=1) ** power
        return h @ params["ow"] + params["ob"][0]

    def loss_of(part: tuple) -> float:
        us, them, goal = part
        total = 0.0
        with torch.no_grad():
            for i in range(0, len(goal), 65536):
                out = forward(us[i : i + 65536], them[i : i + 65536])
                total += float(((torch.sigmoid(out) - goal[i : i + 65536]) ** 2).sum())
        return total / max(1, len(goal))

    count = len(train_set[2])
    log(f"{count} training, {len(validating)} validation positions; 768->{hidden}x2->1 on {dev}")
    log(f"epoch 0: train {loss_of(train_set):.6f} validation {loss_of(valid_set):.6f}")
    generator = torch.Generator().manual_seed(seed)
    curve = []
    for epoch in range(1, epochs + 1):
        started = time.perf_counter()
        order = torch.randperm(count, generator=generator).to(dev)
        for i in range(0, count, batch):
            index = order[i : i + batch]
            us, them, goal = (t[index] for t in train_set)
            loss = ((torch.sigmoid(forward(us, them)) - goal) ** 2).mean()
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            optimiser.step()
            with torch.no_grad():
                for p in params.values():
                    p.clamp_(-CLIP, CLIP)
        scheduler.step()
        train_loss, valid_loss = loss_of(train_set), loss_of(valid_set)
        curve.append((epoch, train_loss, valid_loss))
        log(
            f"epoch {epoch}: train {train_loss:.6f} validation {valid_loss:.6f}"
            f" ({time.perf_counter() - started:.1f} s)"
        )
    with torch.no_grad():
        start.params = {
            "fw": params["fw"][:INPUTS].cpu().numpy().astype(np.float32),
            "fb": params["fb"].cpu().numpy().astype(np.float32),
            "ow": params["ow"].cpu().numpy().astype(np.float32),
            "ob": params["ob"].cpu().numpy().astype(np.float32),
        }
    return start, curve


def rust_trainer() -> Path:
    """The Rust trainer's binary: ``$PYCHESS_NNUE_TRAINER``, or a release build of it for
    this machine's CPU (``target-cpu=native``: AVX2 where there is one, about twice the
    speed of the baseline build; in ``target/native`` so the other builds keep their cache)."""
    if given := os.environ.get("PYCHESS_NNUE_TRAINER"):
        return Path(given)
    root = Path(__file__).resolve().parents[1]
    target = Path(os.environ.get("CARGO_TARGET_DIR", root / "target")) / "native"
    env = {**os.environ, "RUSTFLAGS": "-C target-cpu=native", "CARGO_TARGET_DIR": str(target)}
    cargo = ["cargo", "build", "--release", "--quiet", "-p", "pychess-nnue-trainer"]
    subprocess.run(cargo, cwd=root, check=True, env=env)
    return target / "release" / "pychess-nnue-train"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, nargs="+", help="NNUE record files (32-byte records)")
    parser.add_argument("--format", choices=("bullet", "marlin"), default="bullet")
    parser.add_argument("--out", type=Path, required=True, help="the network file to write")
    parser.add_argument(
        "--hidden", type=int, help="N, hidden width per side (default 128, or --init's)"
    )
    parser.add_argument("--init", type=Path, help="train on from this network file")
    parser.add_argument(
        "--activation",
        choices=tuple(VERSIONS),
        help="the hidden activation (default crelu, or --init's)",
    )
    parser.add_argument(
        "--buckets", type=int, help="output heads by piece count (default 1, or --init's)"
    )
    parser.add_argument(
        "--anchor", type=float, help="pull towards --init's weights each step (default 0)"
    )
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=0.001, help="Adam step")
    parser.add_argument("--wdl", type=float, default=0.25, help="weight of the game result")
    parser.add_argument("--validation", type=float, default=0.1, help="fraction held out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--curve", type=Path, help="loss curve CSV (default: OUT.csv)")
    parser.add_argument(
        "--device", help="train in PyTorch on this device (cuda, cpu) instead of the Rust trainer"
    )
    parser.add_argument("--threads", type=int, help="the Rust trainer's threads (default: all)")
    parser.add_argument(
        "--lr-decay", type=float, default=1.0, help="multiply the step by this after each epoch"
    )
    parser.add_argument(
        "--mirror", action="store_true", help="also train on each position mirrored a<->h"
    )
    args = parser.parse_args(argv)
    if args.hidden is not None and not 1 <= args.hidden <= 4096:
        parser.error("--hidden must be in 1..4096")
    if not args.device:
        flags = ["--format", args.format, "--out", args.out]
        flags += ["--hidden", args.hidden] if args.hidden is not None else []
        flags += ["--init", args.init] if args.init else []
        flags += ["--activation", args.activation] if args.activation else []
        flags += ["--buckets", args.buckets] if args.buckets is not None else []
        flags += ["--anchor", args.anchor] if args.anchor is not None else []
        flags += ["--epochs", args.epochs, "--batch", args.batch, "--lr", args.lr]
        flags += ["--wdl", args.wdl, "--validation", args.validation, "--seed", args.seed]
        flags += ["--lr-decay", args.lr_decay] + (["--mirror"] if args.mirror else [])
        flags += ["--threads", args.threads] if args.threads else []
        flags += ["--curve", args.curve] if args.curve else []
        command = [rust_trainer(), *map(str, flags), *map(str, args.data)]
        return subprocess.run(command).returncode
    if args.buckets not in (None, 1):
        parser.error("--buckets: output heads are trained by the Rust trainer only (no --device)")
    if args.anchor not in (None, 0):
        parser.error("--anchor: the Rust trainer only (no --device)")
    try:
        init = Network.read(args.init) if args.init else None
        if init and args.hidden not in (None, init.hidden):
            wide = f"{init.hidden} wide, not --hidden {args.hidden} (the Rust trainer grows it)"
            raise ValueError(f"--init {args.init} is {wide}")
        if init and args.activation not in (None, init.activation):
            act = f"{init.activation}, not --activation {args.activation}"
            raise ValueError(f"--init {args.init} is {act}")
        parts = [read_records(path, args.format) for path in args.data]
    except (OSError, ValueError) as e:
        print(f"nnue_train: {e}", file=sys.stderr)
        return 2
    data = Data(*(np.concatenate([getattr(p, f) for p in parts]) for f in FIELDS))
    try:
        net, curve = train_torch(
            data,
            device=args.device,
            hidden=args.hidden or 128,
            epochs=args.epochs,
            batch=args.batch,
            lr=args.lr,
            wdl=args.wdl,
            validation=args.validation,
            seed=args.seed,
            lr_decay=args.lr_decay,
            mirror=args.mirror,
            activation=args.activation or "crelu",
            init=init,
        )
    except ValueError as e:
        print(f"nnue_train: {e}", file=sys.stderr)
        return 2
    args.out.write_bytes(net.quantised())
    curve_path = args.curve or args.out.with_suffix(".csv")
    png = write_curve(curve_path, curve)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes), loss curve {curve_path}")
    if png is not None:
        print(f"plot {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
