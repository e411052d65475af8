"""Engine specifications (``--engine cmd=... name=... option.Hash=64``) and engine processes.

An engine runs through python-chess's asyncio engine client (UCI, or xboard with
``proto=xboard``), in its own process group so that a Ctrl-C reaches only the match runner,
which then closes the engines itself.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import time
from dataclasses import dataclass
from typing import Any

import chess
import chess.engine

#: Seconds an engine gets to start and answer the protocol handshake.
START_TIMEOUT = 30.0
#: Seconds an engine gets to quit before it is killed.
QUIT_TIMEOUT = 2.0

#: Options python-chess sets itself for every search; a user value would be overridden.
MANAGED_OPTIONS = {"uci_chess960", "uci_variant", "ponder", "multipv", "uci_analysemode"}

_KEYS = ("cmd", "name", "proto", "dir", "arg")


@dataclass(frozen=True)
class EngineSpec:
    """How to start and configure one engine."""

    name: str
    cmd: tuple[str, ...]
    proto: str = "uci"
    options: tuple[tuple[str, str], ...] = ()
    workdir: str | None = None

    def describe(self) -> str:
        return f"{self.name} ({shlex.join(self.cmd)}, {self.proto})"


def _resolve(program: str) -> str:
    """The program's path; Debian's engines live in /usr/games, often not on PATH."""
    if os.sep in program or shutil.which(program):
        return program
    games = os.path.join("/usr/games", program)
    return games if os.access(games, os.X_OK) else program


def parse_engine_spec(tokens: list[str]) -> EngineSpec:
    """Parse ``key=value`` tokens: cmd, name, proto (uci|xboard), dir, arg (repeatable),
    option.NAME=VALUE (repeatable). ``cmd`` is split like a shell command line."""
    cmd: list[str] = []
    name = None
    proto = "uci"
    workdir = None
    options: list[tuple[str, str]] = []
    args: list[str] = []
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep:
            raise ValueError(f"engine setting {token!r} is not key=value")
        if key.startswith("option."):
            opt = key[len("option.") :]
            if not opt:
                raise ValueError(f"engine setting {token!r} names no option")
            if opt.lower() in MANAGED_OPTIONS:
                raise ValueError(
                    f"option {opt} is set by the runner for every game and cannot be given"
                )
            options.append((opt, value))
        elif key == "cmd":
            cmd = shlex.split(value)
        elif key == "name":
            name = value
        elif key == "proto":
            if value not in ("uci", "xboard"):
                raise ValueError(f"proto must be uci or xboard, not {value!r}")
            proto = value
        elif key == "dir":
            workdir = value
        elif key == "arg":
            args.append(value)
        else:
            keys = ", ".join((*_KEYS, "option.NAME"))
            raise ValueError(f"unknown engine setting {key!r} (known: {keys})")
    if not cmd:
        raise ValueError("engine needs cmd=COMMAND")
    cmd[0] = _resolve(cmd[0])
    cmd.extend(args)
    if not name:
        name = os.path.basename(cmd[0])
    return EngineSpec(name, tuple(cmd), proto, tuple(options), workdir)


def unique_names(specs: list[EngineSpec]) -> list[EngineSpec]:
    """Rename duplicates (``sf``, ``sf-2``, ...) so that results and PGNs tell them apart."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        n = seen.get(spec.name, 0) + 1
        seen[spec.name] = n
        if n > 1:
            spec = EngineSpec(f"{spec.name}-{n}", spec.cmd, spec.proto, spec.options, spec.workdir)
        out.append(spec)
    return out


class _GoTimer:
    """Records when the last ``go`` was written, so the clock starts at the search, not at
    the ``ucinewgame``/``isready`` exchange python-chess puts before a game's first move."""

    go_sent_at: float | None = None

    def send_line(self, line: str) -> None:
        if line == "go" or line.startswith("go "):
            self.go_sent_at = time.monotonic()
        super().send_line(line)  # type: ignore[misc]


class _TimedUci(_GoTimer, chess.engine.UciProtocol):
    pass


class _TimedXBoard(_GoTimer, chess.engine.XBoardProtocol):
    pass


class EngineError(Exception):
    """An engine could not be started or configured (the match cannot go on with it)."""


@dataclass
class EngineProcess:
    """A running engine."""

    spec: EngineSpec
    transport: asyncio.SubprocessTransport
    protocol: Any
    #: Set when the engine misbehaved in a way that leaves its state unknown (crash, hang,
    #: protocol error): it is closed and a fresh one started for the next game.
    broken: bool = False

    @classmethod
    async def start(cls, spec: EngineSpec, chess960: bool = False) -> EngineProcess:
        """Start and configure an engine; EngineError with the reason if that fails.

        Engines with a ``Threads`` option get ``Threads=1`` unless the spec sets it: matches
        run one game per core, and an engine defaulting to more threads (Glaurung: 2) would
        steal time from the other game.
        """
        protocol_cls: Any = _TimedUci if spec.proto == "uci" else _TimedXBoard
        try:
            transport, protocol = await asyncio.wait_for(
                protocol_cls.popen(list(spec.cmd), setpgrp=True, cwd=spec.workdir),
                START_TIMEOUT,
            )
        except (OSError, asyncio.TimeoutError, chess.engine.EngineError) as err:
            reason = str(err) or type(err).__name__
            raise EngineError(f"cannot start {spec.describe()}: {reason}") from None
        process = cls(spec, transport, protocol)
        try:
            await asyncio.wait_for(protocol.initialize(), START_TIMEOUT)
            options: dict[str, str | int] = dict(spec.options)
            given = {name.lower() for name in options}
            if spec.proto == "uci" and "Threads" in protocol.options and "threads" not in given:
                options["Threads"] = 1
            await asyncio.wait_for(protocol.configure(options), START_TIMEOUT)
            if chess960 and spec.proto == "uci" and "UCI_Chess960" not in protocol.options:
                raise EngineError(f"{spec.name} has no UCI_Chess960 option: cannot play Chess960")
        except (asyncio.TimeoutError, chess.engine.EngineError, EngineError) as err:
            await process.close()
            raise EngineError(f"cannot set up {spec.describe()}: {err}") from None
        except BaseException:
            # Cancelled (the match stopped) while the engine was starting: do not leak it.
            await process.close()
            raise
        return process

    @property
    def id_name(self) -> str:
        """The name the engine reports (``id name``), or the spec's name."""
        return str(self.protocol.id.get("name", self.spec.name))

    @property
    def go_sent_at(self) -> float | None:
        return self.protocol.go_sent_at  # type: ignore[no-any-return]

    async def play(
        self, board: chess.Board, limit: chess.engine.Limit, game: object
    ) -> chess.engine.PlayResult:
        self.protocol.go_sent_at = None
        return await self.protocol.play(board, limit, game=game, ponder=False)  # type: ignore[no-any-return]

    async def close(self) -> None:
        """Quit politely, kill if that takes too long; never raises."""
        try:
            await asyncio.wait_for(self.protocol.quit(), QUIT_TIMEOUT)
        except (Exception, asyncio.CancelledError):
            pass
        try:
            if self.transport.get_returncode() is None:
                self.transport.kill()
                # Reap it, or its Popen object warns "still running" when collected.
                await asyncio.wait_for(asyncio.shield(self.protocol.returncode), QUIT_TIMEOUT)
        except (Exception, asyncio.CancelledError):
            pass
        try:
            self.transport.close()
        except Exception:
            pass
