"""The engine's network evaluation from Python: ``EvalFile`` in the UCI loop, ``eval_file``
of the in-process ``Engine``, and refusals of bad files (``rust/engine/src/nnue.rs``)."""

from __future__ import annotations

import io
import random
import re
import struct
from pathlib import Path

import pytest

import pychess_rs
from pychess_rs.engine import Engine, EngineOptionError, Limit
from pychess_rs.uci import UciSession

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def random_network(path: Path, hidden: int = 16, seed: int = 1) -> Path:
    """A network file of random small weights in the engine's format (PCNN version 1)."""
    rng = random.Random(seed)
    values = [rng.randint(-60, 60) for _ in range(768 * hidden)]
    values += [rng.randint(-100, 100) for _ in range(hidden)]
    values += [rng.randint(-100, 100) for _ in range(2 * hidden)]
    header = b"PCNN" + struct.pack("<5I", 1, hidden, 255, 64, 400)
    path.write_bytes(header + struct.pack(f"<{len(values)}h", *values) + struct.pack("<i", 0))
    return path


def session(commands: str) -> list[str]:
    out = io.StringIO()
    assert UciSession(io.StringIO(commands), out).run() == 0  # type: ignore[arg-type]
    return out.getvalue().splitlines()


def test_uci_eval_file_loads_and_changes_the_evaluation(tmp_path: Path) -> None:
    net = random_network(tmp_path / "net.nnue")
    go = f"position fen {KIWIPETE}\ngo depth 4\n"
    plain = session(go)
    lines = session(f"setoption name EvalFile value {net}\n{go}")
    assert f"info string loaded network {net} (768->16x2->1)" in lines
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
        (b"PCNN" + struct.pack("<5I", 2, 16, 255, 64, 400), "version 2 is not supported"),
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
    assert said[0].endswith("using the hand-written evaluation")
    assert lines[-1].startswith("bestmove ")


def test_engine_eval_file(tmp_path: Path) -> None:
    net = random_network(tmp_path / "net.nnue", hidden=8, seed=3)
    board = pychess_rs.Board(KIWIPETE)
    with Engine(eval_file=net) as engine:
        assert engine.eval_file == str(net)
        with_net = engine.analyse(board, Limit(depth=4))
        result = engine.play(board, Limit(depth=3))
        assert result.move in board.legal_moves
    with Engine() as engine:
        assert engine.eval_file is None
        by_hand = engine.analyse(board, Limit(depth=4))
    assert with_net["score"] != by_hand["score"]


def test_engine_bad_eval_file_raises_a_value_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.nnue"
    path.write_bytes(b"not a network at all, just text")
    with pytest.raises(EngineOptionError, match="eval_file: not a network file") as error:
        Engine(eval_file=path)
    assert isinstance(error.value, ValueError)
    with pytest.raises(EngineOptionError, match="cannot read network file"):
        Engine(eval_file=tmp_path / "missing.nnue")
