"""tools/benchsuite: the shared timer, the tables, the Stockfish client and a tiny run of every
workload and entry script.

Timings are not judged here, only that every section runs, checks its answers and prints its
table. Stockfish is stood in for by a tiny UCI engine written below as a Python script (run
with ``sys.executable``, using python-chess), which answers ``go perft`` from the known node
counts and ``bench`` on the command line as Stockfish does; so no real engine is needed.
``tools/`` is on ``sys.path`` (pyproject's pytest ``pythonpath``).
"""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from benchsuite import (
    book,
    cli,
    encode,
    engine_client,
    env,
    fen,
    gaviota,
    gpu,
    micro,
    perft,
    pgn,
    python_level,
    search,
    syzygy,
    training_data,
)
from benchsuite.config import KIWIPETE, PERFT_COUNTS, STARTPOS, Context, Sizes
from benchsuite.peers import load_impls
from benchsuite.report import Row, render, render_rows, set_ratios
from benchsuite.stockfish import Stockfish
from benchsuite.timing import Candidate, Measured, best_of, interleaved

# The tools are run by tools/test on the source tree, not again on every installed Python.
pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parent.parent

TINY = Sizes(
    native_perft=((STARTPOS, 3), (KIWIPETE, 2)),
    python_perft=((STARTPOS, 2), (KIWIPETE, 1)),
    games=3,
    fens=20,
    pgn_games=10,
    repeat=1,
    search_depth=2,
    stockfish_bench_depth=2,
)


def fake_stockfish(tmp_path: Path, *, wrong: bool = False) -> str:
    """An executable UCI engine named "Fakefish" that knows perft counts and its bench."""
    counts = {fen: list(nodes) for fen, nodes in PERFT_COUNTS.items()}
    script = tmp_path / "fakefish"
    script.write_text(
        f"#!{sys.executable}\n"
        + textwrap.dedent(
            f"""\
            import sys

            COUNTS = {counts!r}
            if sys.argv[1:2] == ["bench"]:
                print("Total time (ms) : 25", file=sys.stderr)
                print("Nodes searched  : 12345", file=sys.stderr)
                sys.exit(0)
            fen = None
            for line in sys.stdin:
                words = line.split()
                if words == ["uci"]:
                    print("id name Fakefish 1")
                    print("option name Threads type spin default 1 min 1 max 512")
                    print("uciok")
                elif words == ["isready"]:
                    print("readyok")
                elif words[:2] == ["position", "fen"]:
                    fen = " ".join(words[2:])
                elif words[:2] == ["go", "perft"]:
                    nodes = COUNTS[fen][int(words[2])] + {int(wrong)}
                    print("a2a3: 1")
                    print()
                    print(f"Nodes searched: {{nodes}}")
                elif words == ["quit"]:
                    break
                sys.stdout.flush()
            """
        )
    )
    script.chmod(0o755)
    return str(script)


@pytest.fixture(scope="module")
def impls() -> list:
    return load_impls()


def context(impls: list, stockfish: str | None = None) -> Context:
    return Context(
        sizes=TINY,
        repeat=1,
        quick=True,
        stockfish=stockfish,
        impls=impls,
        versions=[],
    )


# ---- the timer --------------------------------------------------------------------------------


def test_best_of_keeps_the_best_self_measured_time() -> None:
    times = iter([0.3, 0.1, 0.2])
    timing = best_of(lambda: Measured(7, next(times)), 3, "x", 7)
    assert (timing.seconds, timing.result, timing.note) == (0.1, 7, "")


def test_a_wrong_answer_is_noted_and_not_timed_unless_asked() -> None:
    timing = best_of(lambda: 41, 3, "x", 42)
    assert timing.seconds is None and timing.note == "wrong result (got 41, expected 42)"
    timing = best_of(lambda: 41, 2, "x", 42, time_wrong=True)
    assert timing.seconds is not None and timing.note.startswith("wrong result")


def test_an_error_is_a_result_and_stops_the_candidate() -> None:
    calls = []

    def broken() -> None:
        calls.append(1)
        raise ValueError("no\nway")

    timing = best_of(broken, 3, "x")
    assert timing.seconds is None and timing.note == "error: ValueError: no way"
    assert len(calls) == 1


def test_interleaved_runs_the_candidates_in_turn() -> None:
    order: list[str] = []
    candidates = [Candidate(name, lambda name=name: order.append(name)) for name in "ab"]
    timings = interleaved(candidates, 3, progress=False)
    assert order == ["a", "b"] * 3
    assert [t.label for t in timings] == ["a", "b"]
    assert all(t.seconds is not None for t in timings)


def test_interleaved_gives_a_candidate_several_runs_a_round_collecting_once() -> None:
    order: list[str] = []
    collections: list[int] = []
    candidates = [Candidate(name, lambda name=name: order.append(name)) for name in "ab"]
    real_collect = gc.collect
    gc.collect = lambda *args: collections.append(len(order)) or real_collect(*args)
    try:
        interleaved(candidates, 2, progress=False, runs=[1, 3])
    finally:
        gc.collect = real_collect
    assert order == ["a", "b", "b", "b"] * 2
    # Before each candidate's block of the round, not between the runs of a block.
    assert collections == [0, 1, 4, 5]


# ---- the tables ---------------------------------------------------------------------------------


def test_markdown_tables_align_numbers_right_and_escape_bars() -> None:
    table = render(("name", "n"), [("a|b", "1")], markdown=True, right={1})
    assert table.splitlines() == ["| name | n |", "|---|---:|", "| a\\|b | 1 |"]
    plain = render(("name", "n"), [("a", "10")], markdown=False, right={1})
    assert plain.splitlines() == ["name  n", "----  --", "a     10"]


def test_ratios_are_against_the_reference_run() -> None:
    ref = Row("w", "ref", seconds=2.0, units=10)
    fast = Row("w", "fast", seconds=0.5, units=10)
    untimed = Row("w", "untimed", note="not installed")
    set_ratios([ref, fast, untimed], ref)
    assert (ref.ratio, ref.ratio_ref, fast.ratio, untimed.ratio) == (1.0, "(ref)", 4.0, None)
    text = render_rows([ref, fast, untimed], markdown=True)
    assert "| 4.00x |" in text and "1.00x (ref)" in text


# ---- Stockfish through python-chess's engine client ------------------------------------------


def test_go_perft_through_the_engine_client(tmp_path: Path) -> None:
    with Stockfish(fake_stockfish(tmp_path)) as engine:
        assert engine.name == "Fakefish 1"
        nodes, seconds = engine.perft(KIWIPETE, 3)
        assert nodes == 97862 and seconds >= 0
        assert engine.perft(STARTPOS, 2).result == 400


def test_native_perft_rows(tmp_path: Path, impls: list) -> None:
    ctx = context(impls, fake_stockfish(tmp_path))
    rows = perft.rows(ctx)
    assert [(r.workload, r.impl) for r in rows] == [
        ("native perft startpos d3", "pychess-rs"),
        ("native perft startpos d3", "stockfish"),
        ("native perft Kiwipete d2", "pychess-rs"),
        ("native perft Kiwipete d2", "stockfish"),
    ]
    assert all(r.seconds is not None and r.ratio is not None for r in rows)
    assert rows[1].ratio_ref == "(ref)" and rows[0].ratio_ref == "vs stockfish"
    assert "Fakefish 1" in ctx.versions


def test_a_wrong_stockfish_count_is_reported(tmp_path: Path, impls: list) -> None:
    rows = perft.rows(context(impls, fake_stockfish(tmp_path, wrong=True)))
    assert rows[1].seconds is None
    assert rows[1].note == "wrong result (got 8903, expected 8902)"
    assert rows[0].seconds is not None and rows[0].ratio is None


def test_search_speed_rows(tmp_path: Path, impls: list) -> None:
    ours, theirs = search.rows(context(impls, fake_stockfish(tmp_path)))
    assert ours.units > 0 and ours.note.endswith("nodes (the bench signature)")
    assert (theirs.units, theirs.seconds, theirs.ratio_ref) == (12345, 0.025, "(ref)")
    assert ours.ratio is not None


def test_without_stockfish_its_rows_say_so(impls: list) -> None:
    rows = perft.rows(context(impls)) + search.rows(context(impls))
    notes = [r.note for r in rows if r.impl == "stockfish"]
    assert notes and all("stockfish not found" in n for n in notes)


# ---- the Python-level workloads, PGN, encodings, environments, everyday calls ----------------


def test_python_level_rows_are_checked_against_python_chess(impls: list) -> None:
    ctx = context(impls)
    rows = python_level.python_perft_rows(ctx) + python_level.random_games_rows(ctx)
    rows += fen.rows(ctx)
    timed = {(r.workload, r.impl): r for r in rows if r.seconds is not None}
    for workload in ("python perft startpos d2", "random games (3 x <=300 plies)"):
        assert timed[workload, "python-chess"].ratio_ref == "(ref)"
        assert timed[workload, "pychess-rs"].ratio is not None
    assert ("FEN parse + legal count (20)", "pychess-rs") in timed


def test_pgn_rows(impls: list) -> None:
    rows = pgn.rows(context(impls))
    by_impl = {r.impl: r for r in rows}
    assert by_impl["python-chess read_game"].ratio_ref == "(ref)"
    bulk = by_impl["pychess-rs read_games, 1 thread"]
    assert bulk.seconds is not None and bulk.note.endswith("MB/s")
    annotated = [r for r in rows if r.workload.startswith("PGN read, lichess-style annotated")]
    by_impl = {r.impl: r for r in annotated}
    assert by_impl["python-chess read_game"].ratio_ref == "(ref)"
    # Counted games and plies equal python-chess's, or the row would carry a note saying so.
    ours = by_impl["pychess-rs read_game"]
    assert ours.seconds is not None and ours.note.endswith("MB/s"), ours.note


def test_book_rows(impls: list, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rows = book.rows(context(impls))
    if book.book_path().is_file():
        by_impl = {r.impl: r for r in rows}
        assert by_impl["python-chess"].ratio_ref == "(ref)"
        assert by_impl["pychess-rs"].seconds is not None and not by_impl["pychess-rs"].note
        assert rows[0].workload == "book lookups (find_all, 20 positions)"
    # Without the cached book, each row says where it was looked for.
    monkeypatch.setenv("PYCHESS_RS_PYTHON_CHESS_SUITE", str(tmp_path))
    missing = book.rows(context(impls))
    assert [r.impl for r in missing] == ["python-chess", "pychess-rs"]
    assert all(r.seconds is None and "book not cached" in r.note for r in missing)


def test_gaviota_rows(impls: list, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rows = gaviota.rows(context(impls))
    if (gaviota.tables_dir() / "kqk.gtb.cp4").is_file():
        assert [(r.workload, r.impl) for r in rows] == [
            (f"gaviota DTM probes (20 positions, 3-piece, {kind})", impl)
            for kind in ("cached", "cold")
            for impl in ("python-chess", "pychess-rs")
        ]
        for row in rows:
            assert row.seconds is not None and not row.note
        assert rows[0].ratio_ref == rows[2].ratio_ref == "(ref)"
    # Without the cached tables, each row says where they were looked for.
    monkeypatch.setenv("PYCHESS_RS_PYTHON_CHESS_SUITE", str(tmp_path))
    missing = gaviota.rows(context(impls))
    assert [r.impl for r in missing] == ["python-chess", "pychess-rs"]


def test_syzygy_rows(impls: list, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rows = syzygy.rows(context(impls))
    if (syzygy.tables_dir() / "KQvK.rtbw").is_file():
        assert [r.workload for r in rows] == [
            "syzygy probe_wdl (20 positions, 3-4 pieces)",
            "syzygy probe_wdl (20 positions, 3-4 pieces)",
            "syzygy probe_dtz (20 positions, 3-4 pieces)",
            "syzygy probe_dtz (20 positions, 3-4 pieces)",
        ]
        # Every answer equals python-chess's, or the row would carry a note saying so.
        ours = [r for r in rows if r.impl == "pychess-rs"]
        assert all(r.seconds is not None and not r.note for r in ours)
    # Without the cached tables, each row says where they were looked for.
    monkeypatch.setenv("PYCHESS_RS_PYTHON_CHESS_SUITE", str(tmp_path))
    missing = syzygy.rows(context(impls))
    assert len(missing) == 4
    assert all(r.seconds is None and "tables not cached" in r.note for r in missing)


def test_encode_rows() -> None:
    pytest.importorskip("numpy")
    rows = encode.measure(batch=8, repeat=1, quick=True)
    assert {r.workload for r in rows} >= {"compact", "HalfKAv2_hm"}
    assert all(r.seconds is not None or r.note for r in rows)
    table = encode.render_results(rows, markdown=True)
    assert table.splitlines()[1] == "|---|---|---:|---:|---|"


def test_training_data_rows() -> None:
    pytest.importorskip("numpy")
    rows = training_data.measure(pgn_games=4, repeat=1, quick=True)
    assert len(rows) == 10
    assert all(r.seconds is not None and r.units > 0 for r in rows), rows
    assert all(r.note.endswith(" k/CPU-s") for r in rows), [r.note for r in rows]
    # The thread count changes the speed, never what is written.
    by_workload: dict[str, set[float]] = {}
    for row in rows:
        by_workload.setdefault(row.workload, set()).add(row.units)
    assert all(len(units) == 1 for units in by_workload.values())


def test_env_rows() -> None:
    pytest.importorskip("numpy")
    sizes = env.EnvSizes(20, 4, 3, 4, 1, line_games=5, line_steps=2)
    rows = env.measure(quick=True, repeat=1, sizes=sizes)
    ours = [r for r in rows if r.impl.startswith("BatchBoards") and "line rate" not in r.workload]
    assert ours and all(r.units == 12 and r.seconds is not None for r in ours)
    line = [r for r in rows if "line rate" in r.workload]
    assert len(line) == 2 * len(env.LINE_RATE)
    assert all(r.units == 10 and r.seconds is not None for r in line)
    assert all("over 1 thread" in r.note for r in line if r.impl.endswith("2 threads"))


def _fake_module(monkeypatch: pytest.MonkeyPatch, name: str, **attributes: object) -> None:
    import types

    module = types.ModuleType(name)
    for key, value in attributes.items():
        setattr(module, key, value)
    monkeypatch.setitem(sys.modules, name, module)


def test_gpu_rows_run_ours_on_the_cpu_and_say_why_the_rest_is_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("numpy")
    sizes = gpu.GpuSizes(batches=(6,), steps=2, loop_steps=2, repeat=1)
    # No jax, no torch: ours timed, the others skipped with the reason.
    monkeypatch.setitem(sys.modules, "jax", None)
    monkeypatch.setitem(sys.modules, "torch", None)
    rows = gpu.measure(sizes=sizes, threads=2)
    ours = [r for r in rows if r.impl.startswith("pychess-rs BatchBoards")]
    assert len(ours) == 2 and all(r.units == 12 and r.seconds is not None for r in ours)
    skipped = {r.impl: r.note for r in rows if r.seconds is None}
    assert skipped == {
        "pgx chess on the GPU (jit + vmap)": "skipped: jax not installed (jax)",
        "pychess-rs batch on 2 CPU threads + torch on cuda": "skipped: torch not installed (torch)",
    }
    # jax without pgx; then jax and pgx without a GPU; torch without CUDA.
    _fake_module(monkeypatch, "jax", default_backend=lambda: "cpu")
    _fake_module(monkeypatch, "jax.numpy")
    monkeypatch.setitem(sys.modules, "pgx", None)
    assert gpu.pgx_gpu_runner(4, 1) == "skipped: pgx not installed (pgx)"
    _fake_module(monkeypatch, "pgx")
    _fake_module(monkeypatch, "pgx.experimental", auto_reset=None)
    assert gpu.pgx_gpu_runner(4, 1) == "skipped: JAX sees no GPU (backend 'cpu')"
    cuda = type("cuda", (), {"is_available": staticmethod(lambda: False)})
    _fake_module(monkeypatch, "torch", cuda=cuda, nn=None)
    assert str(gpu.torch_policy(4, None)).startswith("skipped: torch sees no CUDA GPU")


def test_gpu_loop_runs_our_side_with_a_numpy_policy() -> None:
    pytest.importorskip("numpy")
    # The batch raises on an illegal action, so ten steps of eight games check the plumbing:
    # packed observations and mask bits out, the policy's actions back in.
    run = gpu.loop_runner(8, 10, 2, gpu.uniform_policy())
    assert run() == 80 and run() == 80


def test_engine_client_rows(impls: list) -> None:
    rows = engine_client.client_rows(context(impls), calls=5, rounds=1)
    assert [r.impl for r in rows] == [
        "python-chess",
        "pychess-rs",
        "raw pipe client (floor)",
        "loop-thread client (floor)",
        "pychess-rs, event-loop client",
    ]
    # Every client read the fake's legal move for each position, or it would not be timed.
    assert all(r.seconds is not None and r.note.startswith(tuple("0123456789")) for r in rows)
    assert rows[0].ratio_ref == "(ref)" and "overhead" in rows[1].note


def test_engine_client_overheads_are_net_of_the_floor() -> None:
    def rows(*microseconds: float) -> list[Row]:
        return [Row("w", f"impl {i}", us / 1e6, 1.0, "calls") for i, us in enumerate(microseconds)]

    measured = rows(240, 40, 10, 60)
    engine_client.add_overheads(measured)
    assert [r.note for r in measured] == [
        "; overhead 230 us",
        "; overhead 30 us (7.7x less than python-chess)",
        "",
        "; overhead 50 us",
    ]
    noisy = rows(240, 9, 10)
    engine_client.add_overheads(noisy)
    assert (
        noisy[1].note
        == "; overhead -1 us (under the floor: the floor's run was slow, compare again)"
    )


def test_the_fake_engines_moves_are_legal() -> None:
    import pychess_rs as chess

    fens, table = engine_client.positions(50)
    assert len(fens) == len(set(fens)) == 50
    for position in fens:
        move = chess.Move.from_uci(table[engine_client._key(position)])
        assert move in chess.Board(position).legal_moves


def test_analyse_rows(impls: list) -> None:
    rows = engine_client.analyse_rows(context(impls), games=2, nodes=50)
    assert [r.impl for r in rows] == ["--workers 1", "--workers 2"]
    assert all(r.seconds is not None and r.units == 2 for r in rows)
    assert rows[0].ratio_ref == "(ref)" and rows[1].ratio is not None


def test_micro_table() -> None:
    text = micro.table(quick=True, markdown=True, rounds=1, ops=micro.OPS[:2])
    assert "| `board.turn` |" in text and "|---|---:|---:|---:|" in text


# ---- the entry scripts -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "script", ["bench.py", "bench_encode.py", "bench_env.py", "bench_gpu.py", "bench_micro.py"]
)
def test_entry_scripts_start(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / script), "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "--quick" in done.stdout and "--markdown" in done.stdout


def test_bench_py_prints_the_table_and_progress() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench.py"), "--quick", "--only", "fen-legal"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert "[FEN parse + legal count (200)]" in done.stderr
    assert "    pychess-rs: run 1/1: " in done.stderr
    assert "Versions: python-chess " in done.stdout and "best of 1 run." in done.stdout
    assert "FEN parse + legal count (200)  python-chess" in done.stdout


def test_workload_names_are_the_sections() -> None:
    assert cli.WORKLOADS == (
        "native-perft",
        "search-speed",
        "python-perft",
        "random-games",
        "fen-legal",
        "pgn",
        "book",
        "gaviota",
        "syzygy",
        "encode",
        "env",
        "gpu",
        "engine-client",
        "analyse",
        "training-data",
        "variants",
        "micro",
    )


def test_variants_workload_quick() -> None:
    """The variant rows: Python perft and playouts against python-chess, native perft against
    Fairy-Stockfish (or a note without it), every answer checked."""
    from benchsuite import variants
    from benchsuite.config import QUICK

    ctx = Context(sizes=QUICK, repeat=1, quick=True)
    rows = variants.rows(ctx)
    names = {r.workload for r in rows}
    for name in variants.NAMES:
        depth = variants.PYTHON_DEPTH[name] - 1
        assert f"variant python perft {name} d{depth}" in names
        assert any(w.startswith(f"variant playouts {name} ") for w in names)
    ours = [r for r in rows if r.impl == "pychess-rs"]
    assert ours and all(r.seconds is not None and not r.note for r in ours), [
        (r.workload, r.note) for r in ours if r.note
    ]
    python_rows = [r for r in ours if "native" not in r.workload]
    assert all(r.ratio is not None and r.ratio > 1 for r in python_rows)
