"""Differential fuzzer: pychess_rs against python-chess, position by position.

python-chess (``chess`` 1.11.2, the ``fuzz`` extra: ``pip install 'pychess-rs[fuzz]'``) is the
oracle. The fuzzer knows no chess rule of its own: it asks python-chess which moves are legal,
what their SAN is, whether the game is over, and so on, asks pychess_rs the same questions, and
reports every disagreement. This package is the only part of pychess_rs that imports
python-chess, and only inside the functions that ask it (``import chess`` at the top of each;
the module level has it for type checkers alone): importing ``pychess_rs.fuzz`` or any of its
modules does not need it, and the names below load their module on first use.

The modules, in the order they build on each other:

- ``contract``: the documented differences, from the oracle's side: the FEN acceptance contract
  (the tests use it too) and the python-chess moves we do not make;
- ``checks``: the per-position comparison (:func:`check_position`);
- ``edits``: hand edits between moves (castling rights, en-passant square) and their steps;
- ``sources``: where positions come from (:data:`SOURCES`) and the rare games' move choice;
- ``report``: reproducers (shortened, printed, saved as JSON, replayed) and the summary;
- ``campaign``: the sources taking turns under the limits (:func:`run`, :class:`Config`);
- ``cli``: the ``pychess-rs fuzz`` subcommand (``cli.add_arguments``, ``cli.run_cli``,
  ``cli.main``); it imports python-chess only when it runs.

Every mismatch is printed as a reproducer (start FEN, Chess960 flag, UCI moves, property, both
answers), shortened when a later start position reproduces it too, and saved as JSON under
``--out``; the run goes on and exits with status 1 at the end. ``--replay FILE`` re-checks saved
reproducers. Runs are deterministic for a given ``--seed``, apart from where ``--minutes`` cuts
them.

Examples::

    pychess-rs fuzz --seed 1 --positions 20000
    pychess-rs fuzz --seed 7 --minutes 30 --chess960
    pychess-rs fuzz --sources rare,placement --games 200
    pychess-rs fuzz --replay fuzz-failures/rare-san-s1-000001.json

Exit status: 0 no mismatch, 1 mismatches found, 2 usage error or python-chess not installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: The position sources, in the order the summary lists them (``sources`` describes each).
SOURCES = ("startpos", "chess960", "rare", "placement", "mutated", "epd", "invalid", "edited")

if TYPE_CHECKING:
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
    from .sources import load_epd_positions, mutate_fen, random_placement_fen

#: Each exported name and the module that defines it (loaded by ``__getattr__`` on first use).
_EXPORTS = {
    **dict.fromkeys(
        ("Campaign", "CampaignResult", "Config", "SourceStats", "import_pychess_rs", "run"),
        "campaign",
    ),
    **dict.fromkeys(("Diff", "PositionResult", "Raised", "check_position"), "checks"),
    "main": "cli",
    **dict.fromkeys(
        (
            "ACCEPTANCE",
            "ACCEPTANCE_ERROR",
            "COUNTER_LIMIT",
            "oracle_board",
            "outside_contract",
            "tolerated_rejection",
        ),
        "contract",
    ),
    **dict.fromkeys(
        ("format_report", "format_summary", "minimize", "replay", "replay_reports"), "report"
    ),
    **dict.fromkeys(("load_epd_positions", "mutate_fen", "random_placement_fen"), "sources"),
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


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
