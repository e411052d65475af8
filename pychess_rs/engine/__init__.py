"""Engines: the built-in one in this process (:class:`Engine`), and clients for UCI and
XBoard engines in other processes (:class:`SimpleEngine`, :func:`popen_uci`), with
python-chess's ``chess.engine`` names and behaviour."""

from __future__ import annotations

from ._analysis import AnalysisResult
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
from ._mock import MockTransport
from ._options import ConfigMapping, ConfigValue, Option, UciOptionMap
from ._protocol import BaseCommand, CommandState, Protocol
from ._score import Cp, Mate, MateGiven, MateGivenType, PovScore, PovWdl, Score, Wdl, WdlModel
from ._simple import SimpleAnalysisResult, SimpleEngine, run_in_background
from ._uci import UciProtocol, popen_uci
from ._xboard import XBoardProtocol, popen_xboard

# Errors print as pychess_rs.engine.EngineError (and pickle by that name).
for _error in (AnalysisComplete, EngineError, EngineTerminatedError, EngineTimeoutError):
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
    "option_ranges",
    "popen_uci",
    "popen_xboard",
    "run_in_background",
]
