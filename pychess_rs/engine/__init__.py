"""Engines: the built-in one in this process (:class:`Engine`), and python-chess's
``chess.engine`` client for UCI and XBoard engines in other processes
(:class:`SimpleEngine`, :func:`popen_uci`, :func:`popen_xboard`, ...), with python-chess's
names and behaviour.

The client (and asyncio with it) is imported on first use of one of its names, so that
``import pychess_rs`` stays quick.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._errors import AnalysisComplete, EngineError, EngineTerminatedError, EngineTimeoutError
from ._info import (
    INFO_ALL,
    INFO_BASIC,
    INFO_CURRLINE,
    INFO_NONE,
    INFO_PV,
    INFO_REFUTATION,
    INFO_SCORE,
    Info,
    InfoDict,
)
from ._info import parse_uci_info as _parse_uci_info
from ._inprocess import Engine, EngineOptionError, LimitError, option_ranges
from ._limits import BestMove, Limit, Opponent, PlayResult
from ._options import ConfigMapping, ConfigValue, Option, UciOptionMap
from ._score import Cp, Mate, MateGiven, MateGivenType, PovScore, PovWdl, Score, Wdl, WdlModel

if TYPE_CHECKING:
    from ._analysis import AnalysisResult
    from ._mock import MockTransport
    from ._pool import EnginePool, PoolResult, analyse_many
    from ._protocol import BaseCommand, CommandState, Protocol
    from ._simple import SimpleAnalysisResult, SimpleEngine, run_in_background
    from ._uci import UciProtocol, popen_uci
    from ._xboard import XBoardProtocol, popen_xboard

#: The client's names, by the module that defines them (imported on first use).
_CLIENT = {
    "AnalysisResult": "._analysis",
    "MockTransport": "._mock",
    "EnginePool": "._pool",
    "PoolResult": "._pool",
    "analyse_many": "._pool",
    "BaseCommand": "._protocol",
    "CommandState": "._protocol",
    "Protocol": "._protocol",
    "SimpleAnalysisResult": "._simple",
    "SimpleEngine": "._simple",
    "run_in_background": "._simple",
    "UciProtocol": "._uci",
    "popen_uci": "._uci",
    "XBoardProtocol": "._xboard",
    "popen_xboard": "._xboard",
}


def __getattr__(name: str) -> Any:
    try:
        module = _CLIENT[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_CLIENT])


# Errors print as pychess_rs.engine.EngineError (and pickle by that name).
for _error in (
    AnalysisComplete,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    EngineOptionError,
    LimitError,
):
    _error.__module__ = __name__

__all__ = [
    "INFO_ALL",
    "INFO_BASIC",
    "INFO_CURRLINE",
    "INFO_NONE",
    "INFO_PV",
    "INFO_REFUTATION",
    "INFO_SCORE",
    "AnalysisComplete",
    "AnalysisResult",
    "BaseCommand",
    "BestMove",
    "CommandState",
    "ConfigMapping",
    "ConfigValue",
    "Cp",
    "Engine",
    "EngineError",
    "EngineOptionError",
    "EnginePool",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Info",
    "InfoDict",
    "Limit",
    "LimitError",
    "Mate",
    "MateGiven",
    "MateGivenType",
    "MockTransport",
    "Opponent",
    "Option",
    "PlayResult",
    "PoolResult",
    "PovScore",
    "PovWdl",
    "Protocol",
    "Score",
    "SimpleAnalysisResult",
    "SimpleEngine",
    "UciOptionMap",
    "UciProtocol",
    "Wdl",
    "WdlModel",
    "XBoardProtocol",
    "_parse_uci_info",
    "analyse_many",
    "option_ranges",
    "popen_uci",
    "popen_xboard",
    "run_in_background",
]
