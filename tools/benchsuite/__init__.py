"""Benchmarks of pychess-rs against Stockfish, python-chess and its peers (dev tool).

A benchmark, not a test: each entry script prints a table and exits 0 unless it could not run
at all. Run them where pychess-rs is installed, release build (``tools/test`` builds one in
``.venv``; ``.venv/bin/python tools/bench.py``). The entry scripts:

``tools/bench.py``        every workload below in one table (:mod:`.cli`)
``tools/bench_encode.py`` the encodings' own table (:mod:`.encode`)
``tools/bench_env.py``    environments and batches (:mod:`.env`)
``tools/bench_gpu.py``    our batch beside pgx on a GPU, the AlphaZero loop (:mod:`.gpu`)
``tools/bench_micro.py``  everyday calls (:mod:`.micro`)

Each takes ``--quick`` (smaller sizes, fewer runs: a smoke run) and ``--markdown``.

The modules, one per workload of ``tools/bench.py`` (``--only`` takes these names):

``perft``         native-perft: ``Board(fen).perft(depth)`` against Stockfish's ``go perft``
``search``        search-speed: ``pychess-rs bench`` against Stockfish's own ``bench``
``python_level``  python-perft and random-games, through each library's Python API
``fen``           fen-legal: FENs parsed and their legal moves counted
``pgn``           pgn: reading a PGN corpus, python-chess, our readers, PyPI peers
``encode``        encode: every ``pychess_rs.encode`` format against PettingZoo's encoder
``env``           env: ``pychess_rs.env`` and ``pychess_rs.batch`` against their peers
``gpu``           gpu: our batch beside pgx on a GPU, and the AlphaZero loop through torch
``micro``         micro: everyday calls interleaved with python-chess's (its own table)

and what they share:

``timing``        the one timer: best of N runs, candidates interleaved, answers checked
``report``        rows, progress lines (stderr), tables as plain text or markdown
``config``        perft positions, seeds, full and quick sizes, the run's :class:`Context`
``inputs``        games and FENs drawn with python-chess from fixed seeds
``peers``         the Python-level implementations and their adapters
``stockfish``     Stockfish through python-chess's engine client (``go perft``, ``bench``)

Every result is checked against a reference answer (python-chess's, or the known perft
count): an implementation whose answer differs is reported as "wrong result" and not timed
(``--time-wrong`` times it anyway, marked). Times are the best of ``--repeat`` runs (3, or 1
with ``--quick``), measured with ``time.perf_counter``; ratios are against the reference run
in the same process (higher is faster). Nothing here is imported by ``pychess_rs``.
"""
