"""What UCI and XBoard clients share: :class:`ClientState`, what a client knows about its
engine and decides from it without doing any I/O (its name and options, the values set, the
option lines a call needs, the line checks), and :class:`Protocol`, an
:class:`asyncio.SubprocessProtocol` on top of it that reads the engine's lines and runs one
command at a time. (The blocking UCI client in :mod:`pychess_rs.engine._uci_sync` builds
on :class:`ClientState` too.)

A *command* (:class:`BaseCommand`) is one exchange: a coroutine that writes lines and reads
the engine's answers from its own inbox until it has its result. Commands run in the order
they were asked for. A command may go on after its result (a ponder search, an analysis):
it then runs *in the background*, and the next command asks it to wind down (``cancel``,
which for a search sends ``stop``) before starting.

When the engine process ends, the running command's inbox raises
:exc:`EngineTerminatedError` once its remaining lines are read, and waiting commands fail
at once. Nothing here has a clock: :class:`~pychess_rs.engine.SimpleEngine` adds the
timeouts, and sets :attr:`Protocol.liveness_timeout` to let searches probe a silent engine.
"""

from __future__ import annotations

import abc
import asyncio
import enum
import logging
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Callable, Generic, TypeVar, overload

from . import _process
from ._errors import EngineError, EngineTerminatedError, EngineTimeoutError
from ._info import INFO_ALL, Info, InfoDict
from ._limits import Limit, Opponent, PlayResult
from ._options import ConfigMapping, ConfigValue, Option, UciOptionMap, option_changes

if TYPE_CHECKING:
    from ._analysis import AnalysisResult

__all__ = ["BaseCommand", "ClientState", "CommandState", "Protocol"]

LOGGER = logging.getLogger("pychess_rs.engine")

T = TypeVar("T")
ProtocolT = TypeVar("ProtocolT", bound="Protocol")

#: Longest line kept from an engine (a runaway engine must not fill the memory).
MAX_LINE_BYTES = 1 << 20


class CommandState(enum.Enum):
    """Where a command is in its life."""

    NEW = enum.auto()
    ACTIVE = enum.auto()
    CANCELLING = enum.auto()
    DONE = enum.auto()


class Signal(enum.Enum):
    """Events a command's inbox holds besides the engine's lines."""

    CANCEL = enum.auto()


class BaseCommand(Generic[T]):
    """One exchange with the engine. Subclasses write :meth:`run`, which sends lines with
    ``self.engine.send_line`` and reads with :meth:`receive`, and sets :attr:`result`
    (with :meth:`resolve`) as soon as the caller may have it."""

    def __init__(self, engine: Protocol) -> None:
        self.engine = engine
        self.state = CommandState.NEW
        self.result: asyncio.Future[T] = engine.loop.create_future()
        self.finished: asyncio.Future[None] = engine.loop.create_future()
        #: Set once the result is out and the command runs on (a ponder search, an
        #: analysis): the next command then cancels it.
        self.background = False
        self._inbox: deque[str | Signal | Any] = deque()
        self._wakeup = asyncio.Event()

    @abc.abstractmethod
    async def run(self) -> None:
        """The exchange itself."""

    # ---- called by the protocol --------------------------------------------------------

    def deliver(self, event: str | Signal | Any) -> None:
        """Puts a line (or a signal) into the inbox."""
        self._inbox.append(event)
        self._wakeup.set()

    def cancel(self) -> None:
        """Asks the command to end early (a search sends ``stop``); its result, if not out
        yet, is still what the engine answers."""
        if self.state is CommandState.ACTIVE:
            self.state = CommandState.CANCELLING
            self.deliver(Signal.CANCEL)

    def wake(self) -> None:
        """Makes a waiting :meth:`receive` look at the engine's state again."""
        self._wakeup.set()

    # ---- used by run() ---------------------------------------------------------------

    async def receive(self, timeout: float | None = None) -> str | Signal | Any:
        """The next line from the engine (or signal).

        :raises: :exc:`EngineTerminatedError` when the engine has ended and every line it
            sent was read; :exc:`asyncio.TimeoutError` after ``timeout`` seconds.
        """
        while not self._inbox:
            error = self.engine.termination_error()
            if error is not None:
                raise error
            self._wakeup.clear()
            if timeout is None:
                await self._wakeup.wait()
            else:
                await asyncio.wait_for(self._wakeup.wait(), timeout)
        return self._inbox.popleft()

    async def receive_watched(self, probe: str | None) -> str | Signal | Any:
        """:meth:`receive` for searches: with :attr:`Protocol.liveness_timeout` set, after
        that long without a line ``probe`` is sent (``isready``), and if that long passes
        again in silence the engine is killed as hung.

        :raises: :exc:`EngineTimeoutError` for a hung engine.
        """
        timeout = self.engine.liveness_timeout
        if timeout is None or probe is None:
            return await self.receive()
        probed = False
        while True:
            try:
                return await self.receive(timeout)
            except asyncio.TimeoutError:
                if probed:
                    raise self.engine.kill_as_hung(
                        f"stopped answering: no output for {2 * timeout:g} s, not even to {probe!r}"
                    ) from None
                self.engine.send_line(probe, probe=True)
                probed = True

    def resolve(self, value: T, *, background: bool = False) -> None:
        """Hands the caller its result; with ``background`` the command runs on until
        cancelled (at once if another command is already waiting)."""
        if not self.result.done():
            self.result.set_result(value)
        if background:
            self.background = True
            if self.engine.has_waiting_commands():
                self.cancel()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.state.name}>"


class _Configure(BaseCommand[None]):
    """Sets checked option ``changes`` in the engine, and in :attr:`Protocol.config` for
    later calls."""

    def __init__(self, engine: Protocol, changes: list[tuple[Option, ConfigValue]]) -> None:
        super().__init__(engine)
        self.changes = changes

    async def run(self) -> None:
        self.engine._configure_now(self.changes)
        self.resolve(None)


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


def check_opponent(opponent: Opponent | None) -> None:
    """Refuses an opponent whose name or title would break the line it is sent on."""
    if opponent is None:
        return
    for text in (opponent.name, opponent.title):
        if text is not None and ("\n" in text or "\r" in text):
            raise EngineError(f"invalid line break in opponent information: {opponent!r}")


def check_game_ending(game_ending: str | None) -> None:
    """Refuses a game ending that would break its line or the ``{...}`` it is quoted in."""
    if game_ending is not None and any(c in game_ending for c in "\r\n{}"):
        raise EngineError(f"invalid characters in game ending {game_ending!r}")


class LineBuffer:
    """Bytes read from a pipe in, the complete lines among them out (decoded, line ends
    stripped); the rest waits for the next :meth:`feed`. A line growing past
    :data:`MAX_LINE_BYTES` without a line break is dropped (logged under ``name``)."""

    __slots__ = ("_name", "_pending")

    def __init__(self, name: object = "engine") -> None:
        self._pending = bytearray()
        self._name = name

    def feed(self, data: bytes) -> list[str]:
        """The lines that ``data`` completes."""
        pending = self._pending
        if not pending and data.endswith(b"\n"):  # the usual case: whole lines only
            return [line.decode("utf-8", "replace").rstrip("\r") for line in data.split(b"\n")[:-1]]
        pending += data
        end = pending.rfind(b"\n")
        if end < 0:
            if len(pending) > MAX_LINE_BYTES:
                LOGGER.error("%s: dropping %d bytes without a line break", self._name, len(pending))
                pending.clear()
            return []
        complete = bytes(pending[:end])
        del pending[: end + 1]
        return [line.decode("utf-8", "replace").rstrip("\r") for line in complete.split(b"\n")]

    def __bool__(self) -> bool:
        """Are there bytes of an unfinished line?"""
        return bool(self._pending)


class _Described:
    """The engine's description, made only when a log record is really written."""

    __slots__ = ("state",)

    def __init__(self, state: ClientState) -> None:
        self.state = state

    def __str__(self) -> str:
        return self.state.describe()


class ClientState(metaclass=abc.ABCMeta):
    """What a client knows about its engine, and what it decides from that alone, with no I/O
    and no event loop: :attr:`id` (``name``, ``author``), the :attr:`options` the engine
    declares, the values :attr:`config` set by ``configure``, the option lines a call needs,
    and the checks on lines sent. Subclasses write the lines (:meth:`_write`) and know
    whether and how the engine ended (:meth:`_exit_code`, :meth:`kill`)."""

    def __init__(self) -> None:
        self.transport: Any = None
        self.id: dict[str, str] = {}
        self.options: UciOptionMap[Option] = UciOptionMap()
        self.config: UciOptionMap[ConfigValue] = UciOptionMap()
        self.initialized = False
        #: Seconds of silence after which a search probes the engine (``None``: never).
        self.liveness_timeout: float | None = None
        self._terminated = False
        self._argv: list[str] = []
        self._own_group = False
        self._last_line_sent = ""
        #: The opponent from ``send_opponent_information``, for calls that name none.
        self._opponent: Opponent | None = None
        #: What the engine holds now, for the options this client has set.
        self._engine_values: UciOptionMap[ConfigValue] = UciOptionMap()
        #: For log records: formats as :meth:`describe`, but only when written.
        self.described = _Described(self)

    def describe(self) -> str:
        """Names the engine in messages: its command, its name, its process id."""
        parts = []
        if self._argv:
            parts.append(" ".join(self._argv))
        if "name" in self.id:
            parts.append(f"({self.id['name']})")
        if self.transport is not None:
            try:
                parts.append(f"pid {self.transport.get_pid()}")
            except Exception:  # a transport without a process (tests)
                pass
        return " ".join(parts) or type(self).__name__

    # ---- lines ---------------------------------------------------------------------------

    def send_line(self, line: str, *, probe: bool = False) -> None:
        """Writes one line to the engine (a ``probe`` is not named in later errors as the
        last command).

        :raises: :exc:`EngineError` for text with a line break; :exc:`EngineTerminatedError`
            when the engine has ended.
        """
        self.send_lines(line, probe=probe)

    def send_lines(self, *lines: str, probe: bool = False) -> None:
        """Writes lines to the engine in one write (``position`` and ``go`` together: one
        system call, and one wake-up of the engine, per search); as :meth:`send_line`."""
        for line in lines:
            if "\n" in line or "\r" in line:
                raise EngineError(f"refusing to send a line break to the engine: {line!r}")
        error = self.termination_error()
        if error is not None or self.transport is None:
            raise error or EngineTerminatedError(f"engine {self.describe()} is not connected")
        if LOGGER.isEnabledFor(logging.DEBUG):
            for line in lines:
                LOGGER.debug("%s: << %s", self.described, line)
        if not probe and lines:
            self._last_line_sent = lines[-1]
        self._write("".join(line + "\n" for line in lines).encode())

    @abc.abstractmethod
    def _write(self, data: bytes) -> None:
        """Writes ``data`` to the engine's standard input."""

    # ---- the end -------------------------------------------------------------------------

    @abc.abstractmethod
    def _exit_code(self) -> int | None:
        """The engine's exit status once known."""

    @abc.abstractmethod
    def kill(self) -> None:
        """Ends the engine process now (SIGKILL, its whole process group if it has one)."""

    def termination_error(self) -> EngineTerminatedError | None:
        """A fresh error describing the engine's end, or ``None`` while it runs."""
        if not self._terminated:
            return None
        code = self._exit_code()
        return EngineTerminatedError(f"engine process ended (exit code: {code}): {self.describe()}")

    def kill_as_hung(self, what: str) -> EngineTimeoutError:
        """Kills the engine and returns the error saying why, naming the last command."""
        self.kill()
        return EngineTimeoutError(
            f"engine {self.describe()} {what} (last command: {self._last_line_sent!r}); "
            "it was killed"
        )

    def _check_initialized(self) -> None:
        if not self.initialized:
            raise EngineError(f"engine {self.describe()} is not initialised")

    # ---- checks both protocols make ---------------------------------------------------------

    @abc.abstractmethod
    def _option(self, name: str) -> Option:
        """The engine's option ``name`` that a call may set (:exc:`EngineError` if none)."""

    @abc.abstractmethod
    def _option_line(self, option: Option, value: ConfigValue) -> str:
        """The line that sets ``option`` to ``value`` (checked) in the engine."""

    def _changes(self, target: UciOptionMap[ConfigValue]) -> list[tuple[Option, ConfigValue]]:
        """The settings that take the engine from what it holds to ``target``."""
        return option_changes(self.options, self._engine_values, target)

    def _apply(self, changes: list[tuple[Option, ConfigValue]]) -> None:
        """Sends ``changes`` to the engine and notes what it holds now."""
        for option, value in changes:
            self.send_line(self._option_line(option, value))
            if not option.is_action():
                self._engine_values[option.name] = value

    def _configure_now(self, changes: list[tuple[Option, ConfigValue]]) -> None:
        """Sends checked ``changes`` and keeps them in :attr:`config` for later calls."""
        self._apply(changes)
        for option, value in changes:
            if not option.is_action():
                self.config[option.name] = value

    def _parsed(self, options: ConfigMapping) -> list[tuple[Option, ConfigValue]]:
        """``options`` checked: each engine option (all names first) with its parsed value."""
        named = [(self._option(name), value) for name, value in options.items()]
        return [(option, option.parse(value)) for option, value in named]

    def _call_config(self, options: ConfigMapping) -> UciOptionMap[ConfigValue]:
        """The option values one call runs with: :attr:`config` with its ``options`` on top."""
        target = self.config.copy()
        for option, value in self._parsed(options):
            target[option.name] = value
        return target

    def _search_request(
        self, root_moves: Iterable[Any] | None, opponent: Opponent | None
    ) -> tuple[list[Any] | None, Opponent | None]:
        """Checks a ``play``/``analysis`` call and returns its root moves (listed) and the
        opponent it plays (its own, else the one from :meth:`send_opponent_information`)."""
        self._check_initialized()
        check_opponent(opponent)
        moves = list(root_moves) if root_moves is not None else None
        return moves, opponent if opponent is not None else self._opponent


class Protocol(ClientState, asyncio.SubprocessProtocol):
    """An engine's side of the pipes (UCI: :class:`UciProtocol`, XBoard:
    :class:`XBoardProtocol`), for use in a running event loop.

    :attr:`id` holds what the engine says about itself (``name``, ``author``),
    :attr:`options` the options it declares, :attr:`config` the values set with
    :meth:`configure`, :attr:`returncode` (a future) its exit status.
    """

    #: Seconds :meth:`initialize` may wait by design, on top of any timeout for it.
    initialization_wait = 0.0

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.get_running_loop()
        self.transport: asyncio.SubprocessTransport | None = None
        self.returncode: asyncio.Future[int] = self.loop.create_future()
        self.returncode.add_done_callback(_retrieve)
        self.command: BaseCommand[Any] | None = None
        self._queue: deque[BaseCommand[Any]] = deque()
        self._buffers: dict[int, LineBuffer] = {}
        self._stdout_closed = False

    # ---- starting ------------------------------------------------------------------------

    @classmethod
    async def popen(
        cls: type[ProtocolT], command: str | list[str], *, setpgrp: bool = False, **popen_args: Any
    ) -> tuple[asyncio.SubprocessTransport, ProtocolT]:
        """Starts the engine ``command`` (a program, or its argv) with this protocol; not yet
        initialised. ``setpgrp`` puts it in a process group of its own (Ctrl-C in a terminal
        does not reach it); ``popen_args`` go to :class:`subprocess.Popen` (``cwd``,
        ``env``, ``stderr``, ...).

        :raises: :exc:`FileNotFoundError` if there is no such program.
        """
        argv = _process.command_argv(command)
        exec_argv, kwargs = _process.spawn_arguments(argv, setpgrp=setpgrp, popen_args=popen_args)
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.subprocess_exec(cls, *exec_argv, **kwargs)
        protocol._argv = argv
        protocol._own_group = setpgrp
        return transport, protocol

    @classmethod
    async def popen_initialized(
        cls: type[ProtocolT], command: str | list[str], *, setpgrp: bool = False, **popen_args: Any
    ) -> tuple[asyncio.SubprocessTransport, ProtocolT]:
        """:meth:`popen`, then :meth:`initialize`; an engine that fails to start is killed.

        :raises: :exc:`FileNotFoundError` without such a program, :exc:`EngineError` if it does
            not introduce itself.
        """
        transport, protocol = await cls.popen(command, setpgrp=setpgrp, **popen_args)
        try:
            await protocol.initialize()
        except BaseException:
            protocol.kill()
            transport.close()
            raise
        return transport, protocol

    # ---- asyncio.SubprocessProtocol ------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        LOGGER.debug("%s: connection made", self.described)

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        buffer = self._buffers.get(fd)
        if buffer is None:
            buffer = self._buffers[fd] = LineBuffer(self.described)
        lines = buffer.feed(data.encode() if isinstance(data, str) else data)
        for line in lines:
            if fd == 1:
                self._line_received(line)
            else:
                LOGGER.warning("%s: stderr >> %s", self.described, line)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self._stdout_closed = True
            if self.returncode.done():
                self._terminate()

    def process_exited(self) -> None:
        code = self.transport.get_returncode() if self.transport is not None else None
        LOGGER.debug("%s: process exited with %s", self.described, code)
        if not self.returncode.done():
            self.returncode.set_result(code if code is not None else -1)
        if self._stdout_closed:
            self._terminate()
        else:
            # Lines still in the pipe are read first (a grandchild holding the pipe open
            # must not keep the commands waiting, though).
            self.loop.call_later(0.5, self._terminate)

    def connection_lost(self, exc: Exception | None) -> None:
        LOGGER.debug("%s: connection lost (%s)", self.described, exc)
        self._terminate()

    # ---- lines ---------------------------------------------------------------------------

    def _line_received(self, line: str) -> None:
        LOGGER.debug("%s: >> %s", self.described, line)
        command = self.command
        if command is not None and command.state is not CommandState.DONE:
            command.deliver(line)
        else:
            LOGGER.debug("%s: ignoring line outside any command: %r", self.described, line)

    def _write(self, data: bytes) -> None:
        self.transport.get_pipe_transport(0).write(data)  # type: ignore[union-attr]

    # ---- the end -------------------------------------------------------------------------

    def _exit_code(self) -> int | None:
        return self.returncode.result() if self.returncode.done() else None

    def _terminate(self) -> None:
        if self._terminated:
            return
        self._terminated = True
        if not self.returncode.done():
            self.returncode.set_result(-1)
        while self._queue:
            waiting = self._queue.popleft()
            if not waiting.result.done():
                waiting.result.set_exception(self.termination_error() or EngineError())
        if self.command is not None:
            self.command.wake()

    def kill(self) -> None:
        """Ends the engine process now (SIGKILL, its whole process group if it has one)."""
        if self.transport is None:
            return
        if self._argv:  # started by popen(): a real process of ours
            _process.kill(self.transport, group=self._own_group)
        else:
            self.transport.kill()

    # ---- running commands ----------------------------------------------------------------

    def has_waiting_commands(self) -> bool:
        return bool(self._queue)

    async def communicate(self, command_factory: Callable[[Protocol], BaseCommand[T]]) -> T:
        """Runs the command ``command_factory(self)`` after those before it and returns its
        result. Cancelling the caller cancels the command."""
        command = command_factory(self)
        error = self.termination_error()
        if error is not None:
            raise error
        self._queue.append(command)
        if self.command is not None and self.command.background:
            self.command.cancel()
        self._start_next()
        return await self._await_result(command)

    async def _await_result(self, command: BaseCommand[T]) -> T:
        try:
            return await asyncio.shield(command.result)
        except asyncio.CancelledError:
            command.result.add_done_callback(_retrieve)
            if command in self._queue:
                self._queue.remove(command)
                command.result.cancel()
            else:
                command.cancel()
            raise

    def _start_next(self) -> None:
        if self.command is not None or not self._queue:
            return
        command = self._queue.popleft()
        self.command = command
        command.state = CommandState.ACTIVE
        self.loop.create_task(self._drive(command))

    async def _drive(self, command: BaseCommand[Any]) -> None:
        try:
            await command.run()
        except Exception as error:
            if not command.result.done():
                command.result.set_exception(error)
            elif isinstance(error, EngineTerminatedError):
                LOGGER.debug("%s: %r ended with the engine: %s", self.describe(), command, error)
            else:
                LOGGER.error("%s: %r failed after its result: %s", self.describe(), command, error)
        finally:
            if not command.result.done():
                command.result.set_exception(
                    EngineError(f"{type(command).__name__} ended without a result")
                )
            command.state = CommandState.DONE
            if not command.finished.done():
                command.finished.set_result(None)
            if self.command is command:
                self.command = None
            self._start_next()

    # ---- the interface ---------------------------------------------------------------------

    @abc.abstractmethod
    async def initialize(self) -> None:
        """Introduces the client to the engine and reads its name and options."""

    @abc.abstractmethod
    async def ping(self) -> None:
        """Waits until the engine has processed everything sent so far."""

    async def configure(self, options: ConfigMapping) -> None:
        """Sets engine options (not the managed ones) for all later calls.

        :raises: :exc:`EngineError` for an unknown or managed option, or a bad value.
        """
        self._check_initialized()
        changes = self._parsed(options)

        def factory(engine: Protocol) -> BaseCommand[None]:
            return _Configure(engine, changes)

        await self.communicate(factory)

    async def send_opponent_information(
        self, *, opponent: Opponent | None = None, engine_rating: int | None = None
    ) -> None:
        """Tells the engine who it plays against from the next game on (``engine_rating``
        is its own rating, for XBoard engines)."""
        check_opponent(opponent)
        self._opponent = opponent

    @abc.abstractmethod
    async def play(
        self,
        board: Any,
        limit: Limit,
        *,
        game: object = None,
        info: Info = Info.NONE,
        ponder: bool = False,
        draw_offered: bool = False,
        root_moves: Iterable[Any] | None = None,
        options: ConfigMapping = {},  # noqa: B006  (read only, python-chess's signature)
        opponent: Opponent | None = None,
    ) -> PlayResult:
        """Asks for a move in ``board``'s position (its move stack is sent too).

        ``game`` identifies the game: a different one starts a new game in the engine.
        ``info`` selects what :attr:`PlayResult.info` holds. With ``ponder`` the engine
        goes on thinking on the expected reply. ``root_moves`` restricts the choice;
        ``options`` hold for this call only; ``opponent`` for this game.
        """

    @abc.abstractmethod
    async def analysis(
        self,
        board: Any,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        game: object = None,
        info: Info = INFO_ALL,
        root_moves: Iterable[Any] | None = None,
        options: ConfigMapping = {},  # noqa: B006
    ) -> AnalysisResult:
        """Starts analysing ``board`` (until ``limit``, or until stopped) and returns the
        handle that collects the reports."""

    @overload
    async def analyse(
        self,
        board: Any,
        limit: Limit,
        *,
        multipv: None = None,
        game: object = None,
        info: Info = INFO_ALL,
        root_moves: Iterable[Any] | None = None,
        options: ConfigMapping = {},  # noqa: B006
    ) -> InfoDict: ...

    @overload
    async def analyse(
        self,
        board: Any,
        limit: Limit,
        *,
        multipv: int,
        game: object = None,
        info: Info = INFO_ALL,
        root_moves: Iterable[Any] | None = None,
        options: ConfigMapping = {},  # noqa: B006
    ) -> list[InfoDict]: ...

    async def analyse(
        self,
        board: Any,
        limit: Limit,
        *,
        multipv: int | None = None,
        game: object = None,
        info: Info = INFO_ALL,
        root_moves: Iterable[Any] | None = None,
        options: ConfigMapping = {},  # noqa: B006
    ) -> InfoDict | list[InfoDict]:
        """Analyses ``board`` until ``limit`` and returns the last report: of the best line,
        or with ``multipv`` a list of up to that many lines, best first."""
        analysis = await self.analysis(
            board,
            limit,
            multipv=multipv,
            game=game,
            info=info,
            root_moves=root_moves,
            options=options,
        )
        with analysis:
            await analysis.wait()
        return analysis.info if multipv is None else analysis.multipv[:multipv]

    @abc.abstractmethod
    async def send_game_result(
        self,
        board: Any,
        winner: bool | None = None,
        game_ending: str | None = None,
        game_complete: bool = True,
    ) -> None:
        """Tells the engine how the game of ``board`` ended (``winner``: ``True`` for White,
        ``None`` for a draw or, with ``game_complete=False``, an unfinished game)."""

    async def quit(self) -> None:
        """Asks the engine to exit and waits until it has."""
        if not self.returncode.done():
            try:
                self.send_line("quit")
            except EngineTerminatedError:
                pass
        await asyncio.shield(self.returncode)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.describe()}>"
