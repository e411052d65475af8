"""The errors of the engine clients (UCI and XBoard engines in another process)."""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    # asyncio.TimeoutError is the builtin since 3.11: no need to import asyncio for it.
    _AsyncioTimeoutError = TimeoutError
else:  # pragma: no cover (older Pythons)
    from asyncio import TimeoutError as _AsyncioTimeoutError

__all__ = ["AnalysisComplete", "EngineError", "EngineTerminatedError", "EngineTimeoutError"]


class EngineError(RuntimeError):
    """The engine sent something it should not have, or was asked for something it cannot do
    (an unknown option, a variant it does not play, ...)."""


class EngineTerminatedError(EngineError):
    """The engine process ended (or was ended) while, or before, a command was answered."""


class EngineTimeoutError(EngineError, _AsyncioTimeoutError):
    """The engine did not answer a command in time; the engine was then ended. Also an
    :exc:`asyncio.TimeoutError`, which is what python-chess raises here."""


class AnalysisComplete(Exception):
    """An analysis has ended and every report of it was read."""
