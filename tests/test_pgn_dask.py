"""Byte ranges on a Dask cluster: real worker processes read the same games as one process.

Needs the optional extra (``pip install pychess-rs[dask]``); skipped without it. The cluster
test is marked slow (worker processes take seconds to start); the local-scheduler test is not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_pgn_bulk import DATA, PGN_FILES

from pychess_rs import pgn

dask = pytest.importorskip("dask")
pytest.importorskip("dask.bag")
pytest.importorskip("pandas")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    data = b"".join((DATA / n).read_bytes() for n in PGN_FILES if n != "utf8-bom.pgn")
    path = tmp_path / "corpus.pgn"
    path.write_bytes(data * 3)
    return path


def expected_rows(path: Path) -> list[dict[str, object]]:
    return [pgn.game_rows(g) for g in pgn.read_games(path, threads=1)]


def test_bag_and_dataframe_on_the_local_scheduler(corpus: Path) -> None:
    expected = expected_rows(corpus)
    bag = pgn.to_dask_bag(corpus, parts_per_file=7)
    assert bag.npartitions == 7
    assert bag.compute(scheduler="synchronous") == expected
    frame = pgn.to_dask_dataframe([corpus, corpus], parts_per_file=3)
    result = frame.compute(scheduler="synchronous")
    assert len(result) == 2 * len(expected)
    assert list(result["moves"][: len(expected)]) == [r["moves"] for r in expected]
    assert int(result["plies"].sum()) == 2 * sum(int(r["plies"]) for r in expected)


@pytest.mark.slow
def test_local_cluster_with_worker_processes(corpus: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    expected = expected_rows(corpus)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        where = {"Black": ("contains", "Deep Blue")}
        bag = pgn.to_dask_bag(corpus, parts_per_file=5, where=where)
        got = client.compute(bag).result()
        single = [pgn.game_rows(g) for g in pgn.read_games(corpus, threads=1, where=where)]
        assert got == single
        assert 0 < len(single) < len(expected)
        frame = pgn.to_dask_dataframe(corpus, parts_per_file=4)
        counts = client.compute(frame.groupby("result").size()).result()
        expected_counts: dict[str, int] = {}
        for r in expected:
            expected_counts[str(r["result"])] = expected_counts.get(str(r["result"]), 0) + 1
        assert counts.to_dict() == expected_counts
        pids = client.run(lambda: __import__("os").getpid())
        assert len(set(pids.values())) == 2
