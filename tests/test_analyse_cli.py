"""``pychess-rs analyse``: annotated output, a bad game reported and skipped, resuming (also
after a run killed mid-write), compressed input, and a UCI engine that dies on a game."""

from __future__ import annotations

import gzip
import shlex
import sys
from pathlib import Path

import pytest
from test_engine_client import fake, marker, wait_gone  # noqa: F401

from pychess_rs import pgn
from pychess_rs.analyse_cli import ANNOTATOR, repair
from pychess_rs.cli import main

GAMES = """[Event "one"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "broken"]
[Result "*"]

1. e4 e5 2. Ke3 *

[Event "two"]
[White "Carol"]
[Black "Dave"]
[Result "*"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 *

"""
TINY = ["--nodes", "300", "--hash", "1", "--no-progress"]


def analyse(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["analyse", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "games.pgn"
    path.write_text(GAMES)
    return path


def read(path: Path) -> list[pgn.Game]:
    with open(path) as file:
        out: list[pgn.Game] = []
        while (game := pgn.read_game(file)) is not None:
            out.append(game)
        return out


def test_annotates_every_good_game_and_reports_the_bad_one(
    capsys: pytest.CaptureFixture[str], games: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pgn"
    status, stdout, stderr = analyse(capsys, str(games), "--out", str(out), *TINY, "--workers", "2")
    assert status == 1
    assert "game 2 (byte" in stderr and "skipped" in stderr
    annotated = read(out)
    assert [g.headers["Event"] for g in annotated] == ["one", "two"]
    for game in annotated:
        assert game.headers["Annotator"] == ANNOTATOR
        nodes = list(game.mainline())
        assert all(node.eval() is not None for node in nodes if not node.board().is_checkmate())
        assert "White accuracy" in game.comment and "Black accuracy" in game.comment
    # 3...Nf6 allows mate in one: a blunder at any search depth, with the best line beside it.
    nf6 = list(annotated[0].mainline())[5]
    assert nf6.san() == "Nf6" and 4 in nf6.nags and len(nf6.parent.variations) == 2
    assert "Blunder." in nf6.comment
    lines = stdout.splitlines()
    assert lines[0].split()[:2] == ["game", "White"]
    assert lines[1].split()[:2] == ["1", "Alice"] and lines[1].split()[-1] == "1-0"
    assert lines[2].split()[:2] == ["3", "Carol"]
    assert "2 games analysed" in lines[-1] and "1 left out" in lines[-1]


def test_resumes_where_it_stopped(
    capsys: pytest.CaptureFixture[str], games: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pgn"
    analyse(capsys, str(games), "--out", str(out), *TINY, "--workers", "1")
    first = out.read_text()
    status, stdout, _ = analyse(capsys, str(games), "--out", str(out), *TINY)
    assert status == 1  # the broken game is reported again
    assert "0 games analysed" in stdout and "2 already in" in stdout
    assert out.read_text() == first
    # A run killed while writing the second game: the torn game is cut off and redone.
    out.write_text(first[: first.index('[Event "two"]') + 40])
    assert repair(str(out)) is True
    assert out.read_text() == first[: first.index('[Event "two"]')]
    out.write_text(first[: first.index('[Event "two"]') + 40])
    _, stdout, stderr = analyse(capsys, str(games), "--out", str(out), *TINY)
    assert "incomplete game" in stderr
    assert "1 games analysed" in stdout and "1 already in" in stdout
    assert [g.headers["Event"] for g in read(out)] == ["one", "two"]


def test_compressed_input_and_progress(
    capsys: pytest.CaptureFixture[str], games: Path, tmp_path: Path
) -> None:
    packed = tmp_path / "games.pgn.gz"
    packed.write_bytes(gzip.compress(games.read_bytes()))
    out = tmp_path / "out.pgn"
    status = main(["analyse", str(packed), "--out", str(out), "--depth", "2", "--hash", "1"])
    _, stderr = capsys.readouterr()
    assert status == 1 and len(read(out)) == 2
    assert "analyse: 100% 2/2 games" in stderr and "ETA" in stderr


def test_uci_engine_that_dies_on_a_game(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    marker: str,  # noqa: F811
) -> None:
    games = tmp_path / "ruy.pgn"
    games.write_text('[Event "short"]\n\n1. e4 *\n\n[Event "long"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n')
    out = tmp_path / "out.pgn"
    engine = shlex.join(fake(marker, "die-at-ply:3"))
    status, _, stderr = analyse(
        capsys,
        str(games),
        "--out",
        str(out),
        "--engine",
        engine,
        "--depth",
        "1",
        "--workers",
        "2",
        "--no-progress",
    )
    assert status == 1
    assert "game 2 not analysed: EngineTerminatedError" in stderr
    assert [g.headers["Event"] for g in read(out)] == ["short"]
    assert not wait_gone(marker)


def test_bad_arguments(capsys: pytest.CaptureFixture[str], games: Path, tmp_path: Path) -> None:
    out = str(tmp_path / "out.pgn")
    assert analyse(capsys, str(games), "--out", out, "--nodes", "0")[0] == 2
    assert analyse(capsys, str(tmp_path / "none.pgn"), "--out", out)[0] == 2


def test_help_lists_analyse(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "analyse" in capsys.readouterr().out


def test_one_or_two_workers_write_the_same_analysis(
    capsys: pytest.CaptureFixture[str], games: Path, tmp_path: Path
) -> None:
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"out{workers}.pgn"
        analyse(capsys, str(games), "--out", str(out), *TINY, "--workers", workers)
        outs.append(out.read_text())
    assert outs[0] == outs[1]


def test_dask_scheduler_writes_what_a_local_run_writes(
    capsys: pytest.CaptureFixture[str], games: Path, tmp_path: Path
) -> None:
    distributed = pytest.importorskip("dask.distributed")
    local = tmp_path / "local.pgn"
    analyse(capsys, str(games), "--out", str(local), *TINY, "--workers", "1")
    remote = tmp_path / "remote.pgn"
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        status, stdout, stderr = analyse(
            capsys,
            str(games),
            "--out",
            str(remote),
            *TINY,
            "--scheduler",
            cluster.scheduler_address,
        )
    assert status == 1 and "game 2 (byte" in stderr
    assert "2 games analysed" in stdout
    assert remote.read_text() == local.read_text()


def test_scheduler_without_dask_says_what_to_install(
    capsys: pytest.CaptureFixture[str],
    games: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    out = tmp_path / "out.pgn"
    status, _, stderr = analyse(capsys, str(games), "--out", str(out), "--scheduler", "x:1")
    assert status == 2 and "pychess-rs[dask]" in stderr
    assert not out.exists()


@pytest.mark.slow
def test_dask_worker_processes_keep_their_own_engines(
    capsys: pytest.CaptureFixture[str], games: Path, tmp_path: Path
) -> None:
    distributed = pytest.importorskip("dask.distributed")
    local = tmp_path / "local.pgn"
    analyse(capsys, str(games), "--out", str(local), *TINY, "--workers", "1")
    remote = tmp_path / "remote.pgn"
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        analyse(
            capsys,
            str(games),
            "--out",
            str(remote),
            *TINY,
            "--scheduler",
            cluster.scheduler_address,
        )

        def pools() -> list[tuple[int, int]]:
            from pychess_rs import analyse_dask

            return [(p.workers, p.restarts) for p in analyse_dask._POOLS.values()]

        per_worker = client.run(pools)
    assert remote.read_text() == local.read_text()
    # One pool per worker process that got a game, one engine each, never restarted.
    assert all(found in ([], [(1, 0)]) for found in per_worker.values())
    assert [(1, 0)] in per_worker.values()
