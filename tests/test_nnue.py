"""The engine's network evaluation from Python: ``EvalFile`` in the UCI loop, ``eval_file``
of the in-process ``Engine``, the built-in network and ``Use NNUE``, and refusals of bad
files (``rust/engine/src/nnue/mod.rs``)."""

from __future__ import annotations

import io
import os
import queue
import random
import re
import shutil
import struct
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import pychess_rs
from pychess_rs._core import BUILTIN_NETWORK, engine_option_ranges
from pychess_rs.engine import Engine, EngineOptionError, Limit
from pychess_rs.uci import UciSession

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def random_network(
    path: Path, hidden: int = 16, seed: int = 1, version: int = 1, buckets: int = 1
) -> Path:
    """A network file of random small weights in the engine's format (PCNN version 1:
    clipped ReLU; 2: its square; with ``buckets`` > 1, version 3 with that many output heads
    and the clipped ReLU)."""
    rng = random.Random(seed)
    values = [rng.randint(-60, 60) for _ in range(768 * hidden)]
    values += [rng.randint(-100, 100) for _ in range(hidden)]
    values += [rng.randint(-100, 100) for _ in range(2 * hidden * buckets)]
    header = b"PCNN" + struct.pack("<5I", version, hidden, 255, 64, 400)
    if buckets > 1:
        header = b"PCNN" + struct.pack("<7I", 3, hidden, 255, 64, 400, 1, buckets)
    biases = struct.pack(f"<{buckets}i", *(rng.randint(-9999, 9999) for _ in range(buckets)))
    path.write_bytes(header + struct.pack(f"<{len(values)}h", *values) + biases)
    return path


def session(commands: str, timeout: float = 60) -> list[str]:
    """Runs ``commands`` (the last a ``go``) in a UCI session and returns its output once the
    search has answered ``bestmove`` (end of input would stop the search early)."""
    lines: queue.Queue[str | None] = queue.Queue()
    for line in commands.splitlines():
        lines.put(line + "\n")
    out = io.StringIO()

    def feed() -> Iterator[str]:
        while (line := lines.get()) is not None:
            yield line

    thread = threading.Thread(target=UciSession(feed(), out).run, daemon=True)  # type: ignore[arg-type]
    thread.start()
    deadline = time.monotonic() + timeout
    while "bestmove" not in out.getvalue():
        assert time.monotonic() < deadline, out.getvalue()
        time.sleep(0.01)
    lines.put("quit\n")
    thread.join(10)
    assert not thread.is_alive()
    return out.getvalue().splitlines()


def test_uci_eval_file_loads_and_changes_the_evaluation(tmp_path: Path) -> None:
    net = random_network(tmp_path / "net.nnue")
    go = f"position fen {KIWIPETE}\ngo depth 4\n"
    plain = session(go)
    lines = session(f"setoption name EvalFile value {net}\n{go}")
    assert f"info string loaded network {net} (768->16x2->1)" in lines
    bucketed = random_network(tmp_path / "heads.nnue", buckets=8)
    with_heads = session(f"setoption name EvalFile value {bucketed}\n{go}")
    assert f"info string loaded network {bucketed} (768->16x2->1, 8 output buckets)" in with_heads
    assert with_heads[-1].split()[1] in {m.uci() for m in pychess_rs.Board(KIWIPETE).legal_moves}
    scores = [
        [int(m.group(1)) for line in out if (m := re.search(r" score cp (-?\d+)", line))]
        for out in (plain, lines)
    ]
    assert scores[0] and scores[1] and scores[0][-1] != scores[1][-1]
    best = lines[-1].split()[1]
    assert best in {m.uci() for m in pychess_rs.Board(KIWIPETE).legal_moves}


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "cannot read network file"),
        (b"PCNN", "shorter than the 24-byte header"),
        (b"XXXX" + bytes(20), "the magic is not PCNN"),
        (b"PCNN" + struct.pack("<5I", 4, 16, 255, 64, 400), "version 4 is not supported"),
        (b"PCNN" + struct.pack("<7I", 3, 16, 255, 64, 400, 1, 0), "output buckets 0 is outside"),
        (b"PCNN" + struct.pack("<5I", 1, 16, 255, 64, 400) + bytes(10), "its header says"),
    ],
)
def test_uci_bad_eval_file_is_reported_and_play_goes_on(
    tmp_path: Path, content: bytes | None, reason: str
) -> None:
    path = tmp_path / "bad.nnue"
    if content is not None:
        path.write_bytes(content)
    lines = session(f"setoption name EvalFile value {path}\nposition startpos\ngo depth 2\n")
    said = [line for line in lines if line.startswith("info string EvalFile")]
    assert len(said) == 1 and reason in said[0], lines
    assert said[0].endswith(f"using the built-in network {BUILTIN_NETWORK} (768->256x2->1)")
    assert lines[-1].startswith("bestmove ")


def test_engine_eval_file(tmp_path: Path) -> None:
    net = random_network(tmp_path / "net.nnue", hidden=8, seed=3)
    board = pychess_rs.Board(KIWIPETE)
    with Engine(eval_file=net) as engine:
        assert engine.eval_file == str(net)
        with_net = engine.analyse(board, Limit(depth=4))
        result = engine.play(board, Limit(depth=3))
        assert result.move in board.legal_moves
    with Engine(use_nnue=False) as engine:
        assert engine.eval_file is None and not engine.use_nnue
        by_hand = engine.analyse(board, Limit(depth=4))
    with Engine() as engine:
        assert engine.eval_file is None and engine.use_nnue
        builtin = engine.analyse(board, Limit(depth=4))
    assert len({str(info["score"]) for info in (with_net, by_hand, builtin)}) == 3


def uci_scores(lines: list[str]) -> list[int]:
    return [int(m.group(1)) for line in lines if (m := re.search(r" score cp (-?\d+)", line))]


def test_uci_builtin_network_is_the_default_and_use_nnue_off_evaluates_by_hand() -> None:
    go = f"position fen {KIWIPETE}\ngo depth 5\n"
    default = session(f"uci\n{go}")
    by_hand = session(f"setoption name Use NNUE value false\n{go}")
    assert "info string using the hand-written evaluation" in by_hand
    back = session(f"setoption name Use NNUE value false\nsetoption name Use NNUE value true\n{go}")
    assert f"info string using the built-in network {BUILTIN_NETWORK} (768->256x2->1)" in back
    assert uci_scores(default) == uci_scores(back) != uci_scores(by_hand)
    assert "option name Use NNUE type check default true" in default


@pytest.mark.parametrize("level", ["skill_level", "limit_elo"])
def test_strength_levels_evaluate_by_hand_whatever_the_network(level: str) -> None:
    """The levels are calibrated on the hand-written evaluation: with one set, turning the
    network off changes nothing. The top ``UCI_Elo`` is full strength, by hand (the rating
    was measured so)."""
    value = {"skill_level": 12, "limit_elo": engine_option_ranges()["limit_elo"][1]}[level]
    board = pychess_rs.Board(KIWIPETE)
    infos = []
    for use_nnue in (True, False):
        with Engine(use_nnue=use_nnue, **{level: value}) as engine:
            infos.append(engine.analyse(board, Limit(depth=4)))
    assert infos[0]["score"] == infos[1]["score"] and infos[0]["nodes"] == infos[1]["nodes"]


def test_engine_bad_eval_file_raises_a_value_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.nnue"
    path.write_bytes(b"not a network at all, just text")
    with pytest.raises(EngineOptionError, match="eval_file: not a network file") as error:
        Engine(eval_file=path)
    assert isinstance(error.value, ValueError)
    with pytest.raises(EngineOptionError, match="cannot read network file"):
        Engine(eval_file=tmp_path / "missing.nnue")


# ---- the trainers (rust/nnue_trainer, tools/nnue_train.py), the pipeline end to end ------


@pytest.fixture(scope="module")
def rust_trainer() -> Path:
    """The Rust trainer (``rust/nnue_trainer``): ``$PYCHESS_NNUE_TRAINER``, or built as
    ``cargo test --profile ci-test`` builds it (a no-op after tools/test's cargo step).
    tools/test-wheels runs the suite with no Rust toolchain on PATH: there it is skipped."""
    if given := os.environ.get("PYCHESS_NNUE_TRAINER"):
        return Path(given)
    if shutil.which("cargo") is None:
        pytest.skip("the Rust trainer needs cargo to build it")
    root = Path(__file__).resolve().parents[1]
    cargo = ["cargo", "build", "--profile", "ci-test", "--quiet", "-p", "pychess-nnue-trainer"]
    subprocess.run(cargo, cwd=root, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
    return target / "ci-test" / "pychess-nnue-train"


def test_pipeline_end_to_end(
    tmp_path: Path, rust_trainer: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Self-play records -> tools/nnue_train.py (the Rust trainer) -> quantised file ->
    EvalFile in the UCI loop."""
    np = pytest.importorskip("numpy")
    import nnue_train

    from pychess_rs import training_data

    monkeypatch.setenv("PYCHESS_NNUE_TRAINER", str(rust_trainer))
    data = tmp_path / "selfplay.bin"
    training_data.write_nnue(data, games=30, nodes=200, seed=3, threads=1)
    records = nnue_train.read_records(data)
    assert len(records) >= 2000
    # The decoder agrees with the package's reader on the first record.
    first = training_data.read_nnue(data, "bullet")[0]
    assert records.score[0] == first.score
    assert records.result[0] == {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[first.result]
    assert int(np.sum(records.us[0] < 768)) == len(pychess_rs.Board(first.fen).piece_map())

    net_path = tmp_path / "net.nnue"
    curve = tmp_path / "curve.csv"
    argv = [str(data), "--out", str(net_path), "--hidden", "16", "--epochs", "3", "--seed", "7"]
    argv += ["--threads", "2", "--lr", "0.005", "--batch", "128", "--wdl", "0"]
    assert nnue_train.main([*argv, "--curve", str(curve)]) == 0
    rows = curve.read_text().splitlines()
    assert rows[0] == "epoch,train_loss,validation_loss,seconds" and len(rows) == 5, rows
    losses = [float(r.split(",")[2]) for r in rows[1:]]
    assert losses[-1] < losses[0]
    assert "<polyline" in curve.with_suffix(".svg").read_text()
    # Reproducible from the seed.
    again = tmp_path / "again.nnue"
    assert nnue_train.main([*argv[:2], str(again), *argv[3:], "--curve", str(curve)]) == 0
    assert again.read_bytes() == net_path.read_bytes()
    # Training goes on from a file: it reads back to the same bytes, and a run from it starts
    # at the loss the first run ended with (up to quantisation), at its width.
    assert nnue_train.Network.read(net_path).quantised() == net_path.read_bytes()
    on = tmp_path / "on.nnue"
    argv_on = [str(data), "--out", str(on), "--init", str(net_path), "--epochs", "1"]
    argv_on += ["--seed", "8", "--threads", "2", "--lr", "0.001", "--batch", "128", "--wdl", "0"]
    on_curve = tmp_path / "on.csv"
    assert nnue_train.main([*argv_on, "--curve", str(on_curve)]) == 0
    start = float(on_curve.read_text().splitlines()[1].split(",")[2])
    assert start == pytest.approx(losses[-1], rel=0.02), (start, losses)
    assert struct.unpack_from("<I", on.read_bytes(), 8) == (16,)
    # A wider --hidden grows the network: new neurons have zero output weights, so the run
    # starts where the 16-wide one did; a narrower one is refused.
    grown_curve = tmp_path / "grown.csv"
    assert nnue_train.main([*argv_on, "--hidden", "32", "--curve", str(grown_curve)]) == 0
    assert struct.unpack_from("<I", on.read_bytes(), 8) == (32,)
    grown_start = float(grown_curve.read_text().splitlines()[1].split(",")[2])
    assert grown_start == pytest.approx(start, rel=1e-4), (grown_start, start)
    assert nnue_train.main([*argv_on, "--hidden", "8"]) == 2
    # An anchor of 1 / lr pulls every weight all the way back after each step: the file
    # written is the one it started from; the PyTorch path refuses the option.
    held = tmp_path / "held.nnue"
    argv_held = [*argv_on[:2], str(held), *argv_on[3:], "--anchor", "1000"]
    assert nnue_train.main(argv_held) == 0
    assert held.read_bytes() == net_path.read_bytes()
    with pytest.raises(SystemExit):
        nnue_train.main([*argv_held, "--device", "cpu"])
    assert nnue_train.main([*argv_on, "--activation", "screlu"]) == 2
    # Output buckets: the one head becomes four copies (the start loss is unchanged) and the
    # file is version 3 with four heads, which the engine loads and the PyTorch path refuses.
    heads = tmp_path / "heads.nnue"
    heads_curve = tmp_path / "heads.csv"
    argv_heads = [*argv_on[:2], str(heads), *argv_on[3:], "--buckets", "4"]
    assert nnue_train.main([*argv_heads, "--curve", str(heads_curve)]) == 0
    heads_start = float(heads_curve.read_text().splitlines()[1].split(",")[2])
    assert heads_start == pytest.approx(start, rel=1e-6)
    assert struct.unpack_from("<5I", heads.read_bytes(), 4)[0] == 3
    assert struct.unpack_from("<2I", heads.read_bytes(), 24) == (1, 4)
    lines = session(f"setoption name EvalFile value {heads}\nposition startpos\ngo depth 3\n")
    assert f"info string loaded network {heads} (768->16x2->1, 4 output buckets)" in lines
    with pytest.raises(ValueError, match="output buckets"):
        nnue_train.Network.read(heads)
    with pytest.raises(SystemExit):
        nnue_train.main([*argv_heads, "--device", "cpu"])
    # The file's evaluations spread (the network is not constant) and follow the labels.
    fens = [r.fen for r in training_data.read_nnue(data, "bullet")[:300]]
    ints = np.array([engine_integer_eval(net_path.read_bytes(), pychess_rs.Board(f)) for f in fens])
    assert np.std(ints) > 30.0

    def win_chance(cp: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-cp / 400))

    correlation = np.corrcoef(win_chance(ints), win_chance(records.score[:300]))[0, 1]
    assert correlation > 0.5, correlation
    # The squared clipped ReLU: file version 2, evaluations that follow the labels too.
    squared = tmp_path / "screlu.nnue"
    argv_screlu = [*argv[:2], str(squared), *argv[3:], "--activation", "screlu"]
    assert nnue_train.main([*argv_screlu, "--curve", str(curve)]) == 0
    assert struct.unpack_from("<I", squared.read_bytes(), 4) == (2,)
    ints = np.array([engine_integer_eval(squared.read_bytes(), pychess_rs.Board(f)) for f in fens])
    correlation = np.corrcoef(win_chance(ints), win_chance(records.score[:300]))[0, 1]
    assert correlation > 0.5, correlation

    go = f"position fen {KIWIPETE}\ngo depth 5\n"
    lines = session(f"setoption name EvalFile value {net_path}\n{go}")
    assert f"info string loaded network {net_path} (768->16x2->1)" in lines
    best = lines[-1].split()[1]
    assert best in {m.uci() for m in pychess_rs.Board(KIWIPETE).legal_moves}
    plain = session(go)
    score = re.compile(r" score cp (-?\d+)")
    with_net = [int(m.group(1)) for line in lines if (m := score.search(line))]
    by_hand = [int(m.group(1)) for line in plain if (m := score.search(line))]
    assert with_net and by_hand and with_net != by_hand


def engine_integer_eval(net: bytes, board: pychess_rs.Board) -> int:
    """The engine's evaluation of ``board`` (side to move's view), recomputed from the file
    as rust/engine/src/nnue.rs documents it."""
    import numpy as np

    _, version, hidden, qa, qb, scale = struct.unpack_from("<4s5I", net)
    assert version in (1, 2)
    body = np.frombuffer(net, dtype="<i2", count=(768 + 3) * hidden, offset=24).astype(np.int64)
    fw = body[: 768 * hidden].reshape(768, hidden)
    fb = body[768 * hidden : 769 * hidden]
    ow = body[769 * hidden :]
    (ob,) = struct.unpack_from("<i", net, len(net) - 4)
    acc = {}
    for perspective in (True, False):
        rows = [
            384 * (piece.color != perspective)
            + 64 * (piece.piece_type - 1)
            + (square if perspective else square ^ 56)
            for square, piece in board.piece_map().items()
        ]
        acc[perspective] = fb + fw[rows].sum(axis=0)
    us, them = acc[board.turn], acc[not board.turn]
    power = version  # 2: the squared clipped ReLU, its sum divided by QA
    total = int(np.clip(us, 0, qa) ** power @ ow[:hidden])
    total += int(np.clip(them, 0, qa) ** power @ ow[hidden:])
    if version == 2:
        total = truncated_division(total, qa)
    return truncated_division((total + ob) * scale, qa * qb)


def truncated_division(a: int, b: int) -> int:
    """``a / b`` rounded toward zero, as Rust's integer division."""
    quotient = abs(a) // b
    return quotient if a >= 0 else -quotient


@pytest.mark.parametrize("version", [1, 2])
def test_engine_evaluates_the_trained_file_as_the_format_says(tmp_path: Path, version: int) -> None:
    """Depth 1 in a position without captures or checks is the best of the children's static
    evaluations: the engine's integer network, recomputed here from the file (version 1:
    clipped ReLU, 2: squared)."""
    pytest.importorskip("numpy")
    net = random_network(tmp_path / "net.nnue", hidden=24, seed=11, version=version)
    fen = "4k3/8/8/2p1p3/2P1P3/8/8/4K3 w - - 0 1"
    board = pychess_rs.Board(fen)
    children = []
    for move in board.legal_moves:
        child = board.copy()
        child.push(move)
        children.append(-engine_integer_eval(net.read_bytes(), child))
    expected = max(children)
    lines = session(f"setoption name EvalFile value {net}\nposition fen {fen}\ngo depth 1\n")
    scores = [int(m.group(1)) for line in lines if (m := re.search(r" score cp (-?\d+)", line))]
    assert scores[-1] == expected, (scores, children)


def test_torch_trainer_writes_what_the_engine_evaluates(tmp_path: Path) -> None:
    """``--device`` (PyTorch, where it is installed): the same network, loss and file as
    the numpy trainer, evaluated by the engine as the format says."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("torch")
    import nnue_train

    from pychess_rs import training_data

    data = tmp_path / "selfplay.bin"
    training_data.write_nnue(data, games=20, nodes=200, seed=5, threads=1)
    net_path = tmp_path / "net.nnue"
    argv = [str(data), "--out", str(net_path), "--hidden", "16", "--epochs", "3", "--seed", "3"]
    assert nnue_train.main([*argv, "--device", "cpu", "--lr-decay", "0.9"]) == 0
    rows = net_path.with_suffix(".csv").read_text().splitlines()[1:]
    losses = [float(r.split(",")[1]) for r in rows]
    assert len(losses) == 3 and losses[-1] < losses[0]
    records = nnue_train.read_records(data)
    net, _ = nnue_train.train_torch(
        records,
        hidden=16,
        epochs=3,
        batch=1024,
        lr=0.001,
        wdl=0.25,
        validation=0.1,
        seed=3,
        device="cpu",
        lr_decay=0.9,
        log=lambda _: None,
    )
    fens = [r.fen for r in training_data.read_nnue(data, "bullet")[:200]]
    floats = net.evaluate_records(records.take(slice(0, 200)))
    ints = np.array([engine_integer_eval(net.quantised(), pychess_rs.Board(f)) for f in fens])
    assert np.mean(np.abs(ints - floats)) < 8.0
    assert np.std(ints) > 10.0


def test_mirrored_records_are_the_mirrored_positions(tmp_path: Path) -> None:
    """``--mirror``'s images: the features of each record with files a-h swapped equal the
    features the reader gives for the mirrored position (a FEN written mirrored)."""
    np = pytest.importorskip("numpy")
    import nnue_train

    from pychess_rs import training_data

    fens = ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 1", KIWIPETE]
    mirrored = []
    for fen in fens:
        ranks, rest = fen.split(" ", 1)
        flipped = "/".join(rank[::-1] for rank in ranks.split("/"))
        mirrored.append(f"{flipped} {rest.split(' ', 1)[0]} - - 0 1")
    plain, images = tmp_path / "plain.bin", tmp_path / "images.bin"
    for path, group in ((plain, fens), (images, mirrored)):
        path.write_bytes(
            b"".join(
                training_data.encode_nnue(pychess_rs.Board(f.replace(" KQkq ", " - ")), 10, "1-0")
                for f in group
            )
        )
    ours, theirs = nnue_train.read_records(plain).mirrored(), nnue_train.read_records(images)
    for a, b in ((ours.us, theirs.us), (ours.them, theirs.them)):
        assert [sorted(row) for row in a.tolist()] == [sorted(row) for row in b.tolist()]
    assert np.array_equal(ours.score, theirs.score)
    train_part, held = nnue_train.split(nnue_train.read_records(plain), 0.5, mirror=True)
    assert len(train_part) == 2 and len(held) == 1
