"""Differential fuzzer: pychess_rs against python-chess, position by position.

python-chess (``chess`` 1.11.2) is the oracle. The fuzzer knows no chess rule of its own: it
asks python-chess which moves are legal, what their SAN is, whether the game is over, and so on,
asks pychess_rs the same questions, and reports every disagreement.

The modules, in the order they build on each other:

``contract``   the FEN acceptance contract, from the oracle's side (the tests use it too);
``checks``     the per-position comparison (:func:`check_position`);
``sources``    where positions come from (:data:`SOURCES`) and the rare games' move choice;
``report``     reproducers (shortened, printed, saved as JSON, replayed) and the summary;
``campaign``   the sources taking turns under the limits (:func:`run`, :class:`Config`);
``cli``        the command line (:func:`main`).

Every mismatch is printed as a reproducer (start FEN, Chess960 flag, UCI moves, property, both
answers), shortened when a later start position reproduces it too, and saved as JSON under
``--out``; the run goes on and exits with status 1 at the end. ``--replay FILE`` re-checks saved
reproducers. Runs are deterministic for a given ``--seed``, apart from where ``--minutes`` cuts
them.

Examples (``tools/fuzz_diff.py`` is the entry script; ``pychess-rs fuzz ...`` is the same
command)::

    tools/fuzz_diff.py --seed 1 --positions 20000
    tools/fuzz_diff.py --seed 7 --minutes 30 --chess960
    tools/fuzz_diff.py --sources rare,placement --games 200
    tools/fuzz_diff.py --replay fuzz-failures/rare-san-s1-000001.json

Exit status: 0 no mismatch, 1 mismatches found, 2 usage error or pychess_rs not importable.
"""

from __future__ import annotations

from .campaign import Campaign, CampaignResult, Config, SourceStats, import_pychess_rs, run
from .checks import Diff, PositionResult, Raised, check_position
from .cli import main
from .contract import (
    ACCEPTANCE,
    ACCEPTANCE_ERROR,
    COUNTER_LIMIT,
    oracle_board,
    outside_contract,
    tolerated_rejection,
)
from .report import format_report, format_summary, minimize, replay, replay_reports
from .sources import SOURCES, load_epd_positions, mutate_fen, random_placement_fen

__all__ = [
    "ACCEPTANCE",
    "ACCEPTANCE_ERROR",
    "COUNTER_LIMIT",
    "SOURCES",
    "Campaign",
    "CampaignResult",
    "Config",
    "Diff",
    "PositionResult",
    "Raised",
    "SourceStats",
    "check_position",
    "format_report",
    "format_summary",
    "import_pychess_rs",
    "load_epd_positions",
    "main",
    "minimize",
    "mutate_fen",
    "oracle_board",
    "outside_contract",
    "random_placement_fen",
    "replay",
    "replay_reports",
    "run",
    "tolerated_rejection",
]
