"""Engines without asyncio: :class:`SimpleEngine` blocks on each call.

A UCI engine is driven by the calling thread itself (:mod:`pychess_rs.engine._uci_sync`:
it writes the commands and waits on the engine's pipe with ``poll``, no event loop in
between). An XBoard engine, a UCI engine started with a subclass of :class:`UciProtocol`
(which may override its coroutines), and any engine where pipes cannot be polled (Windows)
runs its protocol on an event loop in a thread of its own, each call waiting on a future.

Beyond python-chess's class of the same name it promises:

* **No engine outlives its handle.** Closing, the handle being garbage-collected, the Python
  process exiting, and (on Linux) the process being killed outright all end the engine; see
  :mod:`pychess_rs.engine._process`.
* **No call waits forever.** Each command must be answered within :attr:`timeout` seconds
  (a search: its time limit or clock plus :attr:`timeout`). A search without a time bound is
  watched instead: after :attr:`timeout` seconds without a line the engine is sent
  ``isready``, and after as long again in silence it is taken as hung. A hung engine is
  killed and the call raises :exc:`EngineTimeoutError` naming the engine and the command.
* **Threads may share one engine**: calls are serialised (an analysis handle only holds the
  engine until the next call, which stops it; on the blocking UCI client, reading the
  handle holds the engine's lock until the next report).
* **It pickles**: unpickled, it starts the same command with the same options again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import weakref
from collections.abc import Coroutine, Iterable, Iterator
from typing import Any, Callable, TypeVar, cast, overload

from ._analysis import AnalysisResult
from ._errors import AnalysisComplete, EngineError, EngineTerminatedError
from ._info import INFO_ALL, Info, InfoDict
from ._limits import BestMove, Limit, Opponent, PlayResult
from ._options import ConfigMapping, ConfigValue, Option, UciOptionMap
from ._protocol import BaseCommand, Protocol
from ._uci import UciProtocol
from ._uci_sync import SyncAnalysis, SyncUciProtocol
from ._uci_sync import available as _sync_available

__all__ = ["SimpleAnalysisResult", "SimpleEngine", "run_in_background"]

T = TypeVar("T")

#: How long closing waits for the engine to obey ``quit`` before killing it.
QUIT_GRACE = 1.0


def run_in_background(
    coroutine: Callable[[concurrent.futures.Future[T]], Coroutine[Any, Any, None]],
    *,
    name: str | None = None,
    debug: bool | None = None,
) -> T:
    """Runs ``coroutine(future)`` in a new event loop on a new thread and returns the
    future's result as soon as the coroutine sets it (the coroutine may run on). An error
    the coroutine raises before that is raised here.

    :raises: :exc:`concurrent.futures.CancelledError` if it ends without a result.
    """
    future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def background() -> None:
        try:
            if debug is None:
                asyncio.run(coroutine(future))
            else:
                asyncio.run(coroutine(future), debug=debug)
        except BaseException as error:
            if not future.done():
                future.set_exception(error)
        finally:
            future.cancel()

    threading.Thread(target=background, name=name or "pychess_rs engine loop").start()
    return future.result()


class _LoopThread:
    """An event loop running in a daemon thread until :meth:`stop`."""

    def __init__(self, debug: bool | None) -> None:
        self.loop = asyncio.new_event_loop()
        if debug is not None:
            self.loop.set_debug(debug)
        self.thread = threading.Thread(target=self._run, name="pychess_rs engine", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            pending = asyncio.all_tasks(self.loop)
            for task in pending:
                task.cancel()
            if pending:
                self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Runs ``coroutine`` on the loop and waits for it here."""
        if self.loop.is_closed() or not self.thread.is_alive():
            coroutine.close()
            raise EngineTerminatedError("the engine's event loop has ended (engine closed)")
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    def call(self, function: Callable[[], T]) -> T:
        """Calls ``function`` on the loop's thread and waits for its value."""
        if threading.current_thread() is self.thread or self.loop.is_closed():
            return function()
        result: concurrent.futures.Future[T] = concurrent.futures.Future()

        def call() -> None:
            try:
                result.set_result(function())
            except BaseException as error:
                result.set_exception(error)

        try:
            self.loop.call_soon_threadsafe(call)
        except RuntimeError:  # closed meanwhile: nothing runs on it any more
            return function()
        return result.result()

    def stop(self, *, wait: bool) -> None:
        try:
            self.loop.call_soon_threadsafe(self.loop.stop)
        except RuntimeError:
            return
        if wait and threading.current_thread() is not self.thread:
            self.thread.join(10)


async def _bounded(
    protocol: Protocol, coroutine: Coroutine[Any, Any, T], timeout: float | None, what: str
) -> T:
    """``coroutine`` within ``timeout`` seconds, else the engine is killed as hung (the
    error names the command the engine was given last, before the call is cancelled)."""
    if timeout is None:
        return await coroutine
    task = asyncio.ensure_future(coroutine)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if done:
        return task.result()
    error = protocol.kill_as_hung(f"did not finish {what} within {timeout:g} s")
    task.cancel()
    try:
        await task
    except BaseException:  # its cancellation, or the engine's end
        pass
    raise error


async def _wind_down(protocol: Protocol, grace: float | None) -> None:
    """Asks the engine to quit (waiting up to ``grace`` seconds), kills it if it has not,
    and lets the protocol's commands see the end before the loop stops."""
    if grace is not None and not protocol.returncode.done():
        try:
            await asyncio.wait_for(protocol.quit(), grace)
        except (asyncio.TimeoutError, EngineError):
            pass
    protocol.kill()
    try:
        await asyncio.wait_for(asyncio.shield(protocol.returncode), 5)
    except asyncio.TimeoutError:
        pass
    protocol._terminate()
    command = protocol.command
    if command is not None:
        try:
            await asyncio.wait_for(asyncio.shield(command.finished), 1)
        except asyncio.TimeoutError:
            pass
    if protocol.transport is not None:
        protocol.transport.close()


def _shut_down(
    protocol: Protocol | SyncUciProtocol, runner: _LoopThread | None, grace: float | None
) -> None:
    """Ends the engine and its loop: after ``quit`` and up to ``grace`` seconds, or with
    ``grace=None`` by SIGKILL at once (the finaliser of :class:`SimpleEngine`, which must
    hold no reference to the handle)."""
    if isinstance(protocol, SyncUciProtocol):
        protocol.shutdown(grace, reader_gone=True)
        return
    if grace is None:
        protocol.kill()  # at once and from any thread, even if the loop no longer runs
    loop = runner.loop if runner is not None else protocol.loop
    try:
        future = asyncio.run_coroutine_threadsafe(_wind_down(protocol, grace), loop)
    except RuntimeError:
        protocol.kill()
        return  # the loop is closed already
    if runner is None:  # a loop of the caller's (SimpleEngine made by hand)
        try:
            future.result(10 + (grace or 0))
        except Exception:
            protocol.kill()
        return
    future.add_done_callback(lambda _: runner.stop(wait=False))
    if threading.current_thread() is not runner.thread:
        try:
            future.result(10 + (grace or 0))
        except Exception:
            pass
        runner.stop(wait=True)


def _unpickle(spawn: dict[str, Any], options: dict[str, ConfigValue]) -> SimpleEngine:
    engine = SimpleEngine.popen(
        spawn["protocol"],
        spawn["command"],
        timeout=spawn["timeout"],
        debug=spawn["debug"],
        setpgrp=spawn["setpgrp"],
        **spawn["popen_args"],
    )
    if options:
        engine.configure(options)
    return engine


class SimpleEngine:
    """A UCI or XBoard engine behind blocking calls (see the module's notes). Start one with
    :meth:`popen_uci` or :meth:`popen_xboard`; use it as a context manager, or
    :meth:`quit`/:meth:`close` it.

    :attr:`timeout` (seconds, ``None`` for no limit) may be changed at any time.
    """

    def __init__(
        self,
        transport: Any,
        protocol: Protocol | SyncUciProtocol,
        *,
        timeout: float | None = 10.0,
        _runner: _LoopThread | None = None,
        _spawn: dict[str, Any] | None = None,
    ) -> None:
        self.transport = transport
        self.protocol = protocol
        #: The blocking UCI client, when the engine runs on it.
        self._sync = protocol if isinstance(protocol, SyncUciProtocol) else None
        self._runner = _runner
        self._spawn = _spawn
        self._lock = threading.Lock()
        self._closed = False
        self.timeout = timeout
        self._finalizer = weakref.finalize(self, _shut_down, protocol, _runner, None)

    @property
    def timeout(self) -> float | None:
        """Seconds a command may take (a search: plus its time limit); ``None``: no limit."""
        return self._timeout

    @timeout.setter
    def timeout(self, seconds: float | None) -> None:
        self._timeout = seconds
        self.protocol.liveness_timeout = seconds

    # ---- starting ------------------------------------------------------------------------

    @classmethod
    def popen(
        cls,
        Protocol: type[Protocol],
        command: str | list[str],
        *,
        timeout: float | None = 10.0,
        debug: bool | None = None,
        setpgrp: bool = False,
        **popen_args: Any,
    ) -> SimpleEngine:
        """Starts ``command`` with ``Protocol`` and initialises it (within ``timeout``).

        :raises: :exc:`FileNotFoundError` without such a program, :exc:`EngineError` (or
            :exc:`EngineTimeoutError`) if the engine does not introduce itself.
        """
        spawn = {
            "protocol": Protocol,
            "command": command,
            "timeout": timeout,
            "debug": debug,
            "setpgrp": setpgrp,
            "popen_args": popen_args,
        }
        if Protocol is UciProtocol and _sync_available():
            sync = SyncUciProtocol.popen(command, setpgrp=setpgrp, **popen_args)
            try:
                sync.liveness_timeout = timeout
                sync.initialize(timeout=timeout)
            except BaseException:
                sync.shutdown(None, reader_gone=True)
                raise
            return cls(sync.transport, sync, timeout=timeout, _spawn=spawn)
        runner = _LoopThread(debug)
        try:
            transport, protocol = runner.run(Protocol.popen(command, setpgrp=setpgrp, **popen_args))
        except BaseException:
            runner.stop(wait=True)
            raise
        try:
            protocol.liveness_timeout = timeout
            wait = None if timeout is None else timeout + protocol.initialization_wait
            runner.run(_bounded(protocol, protocol.initialize(), wait, "initialising"))
        except BaseException:
            _shut_down(protocol, runner, None)
            raise
        return cls(transport, protocol, timeout=timeout, _runner=runner, _spawn=spawn)

    @classmethod
    def popen_uci(
        cls,
        command: str | list[str],
        *,
        timeout: float | None = 10.0,
        debug: bool | None = None,
        setpgrp: bool = False,
        **popen_args: Any,
    ) -> SimpleEngine:
        """Starts and initialises a UCI engine (see :meth:`popen`)."""
        return cls.popen(
            UciProtocol, command, timeout=timeout, debug=debug, setpgrp=setpgrp, **popen_args
        )

    @classmethod
    def popen_xboard(
        cls,
        command: str | list[str],
        *,
        timeout: float | None = 10.0,
        debug: bool | None = None,
        setpgrp: bool = False,
        **popen_args: Any,
    ) -> SimpleEngine:
        """Starts and initialises an XBoard engine (see :meth:`popen`)."""
        from ._xboard import XBoardProtocol

        return cls.popen(
            XBoardProtocol, command, timeout=timeout, debug=debug, setpgrp=setpgrp, **popen_args
        )

    # ---- calls ---------------------------------------------------------------------------

    def _run(self, coroutine: Coroutine[Any, Any, T], timeout: float | None, what: str) -> T:
        if self._closed:
            coroutine.close()
            raise EngineTerminatedError(f"engine {self.protocol.describe()} was closed")
        protocol = self._loop_protocol()
        runner = self._runner
        bounded = _bounded(protocol, coroutine, timeout, what)
        if runner is not None:
            return runner.run(bounded)
        return asyncio.run_coroutine_threadsafe(bounded, protocol.loop).result()

    def _call(self, coroutine: Coroutine[Any, Any, T], timeout: float | None, what: str) -> T:
        """One command at a time: other threads wait here."""
        with self._lock:
            return self._run(coroutine, timeout, what)

    def _loop_protocol(self) -> Protocol:
        assert not isinstance(self.protocol, SyncUciProtocol)
        return self.protocol

    def _blocking(self, call: Callable[[SyncUciProtocol], T]) -> T:
        """``call`` on the blocking client, one at a time: other threads wait here."""
        with self._lock:
            if self._closed:
                raise EngineTerminatedError(f"engine {self.protocol.describe()} was closed")
            return call(self._sync)  # type: ignore[arg-type]

    def _search_timeout(self, board: Any, limit: Limit | None) -> float | None:
        """:attr:`timeout` plus the time the limit allows, or ``None`` when it allows
        unbounded time (the search is then watched for silence instead)."""
        if self._timeout is None or limit is None:
            return None
        bounds = []
        if limit.time is not None:
            bounds.append(limit.time)
        white = bool(getattr(board, "turn", True))
        clock = limit.white_clock if white else limit.black_clock
        if clock is not None:
            increment = (limit.white_inc if white else limit.black_inc) or 0
            bounds.append(max(0.0, clock) + max(0.0, increment))
        return self._timeout + min(bounds) if bounds else None

    @property
    def options(self) -> UciOptionMap[Option]:
        """The options the engine declared (a copy)."""
        return self._read(lambda: self.protocol.options.copy())

    @property
    def id(self) -> dict[str, str]:
        """What the engine said about itself (``name``, ``author``; a copy)."""
        return self._read(lambda: dict(self.protocol.id))

    def _read(self, function: Callable[[], T]) -> T:
        return self._runner.call(function) if self._runner is not None else function()

    def communicate(self, command_factory: Callable[[Protocol], BaseCommand[T]]) -> T:
        """Runs a custom command (see :meth:`Protocol.communicate`).

        :raises: :exc:`EngineError` on the blocking UCI client, which runs no commands of
            the event loop's kind: start the engine with a subclass of :class:`UciProtocol`
            (``SimpleEngine.popen(MyUciProtocol, ...)``) to run them.
        """
        if self._sync is not None:
            raise EngineError(
                "custom commands run on the event loop's client: start the engine with "
                "SimpleEngine.popen(<a subclass of UciProtocol>, ...) for them"
            )
        coroutine = self._loop_protocol().communicate(command_factory)
        return self._call(coroutine, self._timeout, "a command")

    def configure(self, options: ConfigMapping) -> None:
        """Sets engine options for all later calls (see :meth:`Protocol.configure`)."""
        timeout = self._timeout
        if self._sync is not None:
            self._blocking(lambda sync: sync.configure(options, timeout=timeout, what="configure"))
            return
        self._call(self._loop_protocol().configure(options), timeout, "configure")

    def send_opponent_information(
        self, *, opponent: Opponent | None = None, engine_rating: int | None = None
    ) -> None:
        """Tells the engine who it plays from the next game on."""
        if self._sync is not None:
            self._blocking(
                lambda sync: sync.send_opponent_information(
                    opponent=opponent, engine_rating=engine_rating
                )
            )
            return
        coroutine = self._loop_protocol().send_opponent_information(
            opponent=opponent, engine_rating=engine_rating
        )
        self._call(coroutine, self._timeout, "send_opponent_information")

    def ping(self) -> None:
        """Waits until the engine has processed everything sent so far."""
        timeout = self._timeout
        if self._sync is not None:
            self._blocking(lambda sync: sync.ping(timeout=timeout))
            return
        self._call(self._loop_protocol().ping(), timeout, "ping")

    def play(
        self,
        board: Any,
        limit: Limit,
        *,
        game: object = None,
        info: Info = Info.NONE,
        ponder: bool = False,
        draw_offered: bool = False,
        root_moves: Iterable[Any] | None = None,
        options: ConfigMapping = {},  # noqa: B006
        opponent: Opponent | None = None,
    ) -> PlayResult:
        """Asks for a move (see :meth:`Protocol.play`)."""
        timeout = self._search_timeout(board, limit)
        if self._sync is not None:
            return self._blocking(
                lambda sync: sync.play(
                    board,
                    limit,
                    game=game,
                    info=info,
                    ponder=ponder,
                    draw_offered=draw_offered,
                    root_moves=root_moves,
                    options=options,
                    opponent=opponent,
                    timeout=timeout,
                )
            )
        coroutine = self._loop_protocol().play(
            board,
            limit,
            game=game,
            info=info,
            ponder=ponder,
            draw_offered=draw_offered,
            root_moves=root_moves,
            options=options,
            opponent=opponent,
        )
        return self._call(coroutine, timeout, "play")

    @overload
    def analyse(
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
    def analyse(
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

    def analyse(
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
        """Analyses until ``limit`` (see :meth:`Protocol.analyse`)."""
        timeout = self._search_timeout(board, limit)
        sync = self._sync
        if sync is not None:
            with self._lock:
                if self._closed:
                    raise EngineTerminatedError(f"engine {sync.describe()} was closed")
                return sync.analyse(
                    board,
                    limit,
                    multipv=multipv,
                    game=game,
                    info=info,
                    root_moves=root_moves,
                    options=options,
                    timeout=timeout,
                )
        coroutine = self._loop_protocol().analyse(
            board,
            limit,
            multipv=multipv,
            game=game,
            info=info,
            root_moves=root_moves,
            options=options,
        )
        # (cast: mypy solves the result type of the overloads' union as their join)
        result = self._call(coroutine, timeout, "analyse")
        return cast("InfoDict | list[InfoDict]", result)

    def analysis(
        self,
        board: Any,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        game: object = None,
        info: Info = INFO_ALL,
        root_moves: Iterable[Any] | None = None,
        options: ConfigMapping = {},  # noqa: B006
    ) -> SimpleAnalysisResult:
        """Starts an analysis and returns its handle (see :meth:`Protocol.analysis`); the
        engine is held only until the next call, which stops the analysis."""
        search_timeout = self._search_timeout(board, limit)
        if self._sync is not None:
            timeout = self._timeout
            handle = self._blocking(
                lambda sync: sync.analysis(
                    board,
                    limit,
                    multipv=multipv,
                    game=game,
                    info=info,
                    root_moves=root_moves,
                    options=options,
                    timeout=timeout,
                )
            )
            return SimpleAnalysisResult(self, handle, search_timeout)
        coroutine = self._loop_protocol().analysis(
            board,
            limit,
            multipv=multipv,
            game=game,
            info=info,
            root_moves=root_moves,
            options=options,
        )
        inner = self._call(coroutine, self._timeout, "analysis")
        return SimpleAnalysisResult(self, inner, search_timeout)

    def send_game_result(
        self,
        board: Any,
        winner: bool | None = None,
        game_ending: str | None = None,
        game_complete: bool = True,
    ) -> None:
        """Tells the engine how the game ended (see :meth:`Protocol.send_game_result`)."""
        if self._sync is not None:
            timeout = self._timeout
            self._blocking(
                lambda sync: sync.send_game_result(
                    board, winner, game_ending, game_complete, timeout=timeout
                )
            )
            return
        coroutine = self._loop_protocol().send_game_result(
            board, winner, game_ending, game_complete
        )
        self._call(coroutine, self._timeout, "send_game_result")

    # ---- the end -------------------------------------------------------------------------

    def quit(self) -> None:
        """Asks the engine to exit and waits (within :attr:`timeout`) until it has.

        :raises: :exc:`EngineTimeoutError` (an :exc:`asyncio.TimeoutError`) when it did not
            exit in time; it is then killed.
        """
        try:
            timeout = self._timeout
            if self._sync is not None:
                self._blocking(lambda sync: sync.quit(timeout=timeout))
            else:
                self._run(self._loop_protocol().quit(), timeout, "quit")
        finally:
            self.close()

    def close(self) -> None:
        """Ends the engine: ``quit``, then SIGKILL if it has not exited within a second, and
        stops the event loop. Calls after this raise :exc:`EngineTerminatedError`."""
        self._closed = True
        if not self._finalizer.alive:
            return
        self._finalizer.detach()
        sync = self._sync
        if sync is None:
            _shut_down(self.protocol, self._runner, QUIT_GRACE)
            return
        if self._lock.acquire(blocking=False):
            # Nobody reads the engine: read its last lines here while it quits.
            try:
                try:
                    sync.quit(timeout=QUIT_GRACE)
                except EngineError:
                    pass
                sync.shutdown(None, reader_gone=True)
            finally:
                self._lock.release()
            return
        # A call runs in another thread: end the engine under it (the call then fails with
        # EngineTerminatedError), and close the pipes once it has let go of them.
        sync.shutdown(QUIT_GRACE, reader_gone=False)
        if self._lock.acquire(timeout=10):
            try:
                sync.transport.close()
            finally:
                self._lock.release()

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __reduce__(self) -> tuple[Any, ...]:
        if self._spawn is None:
            raise TypeError("only engines started with popen_uci/popen_xboard can be pickled")
        options = self._read(lambda: dict(self.protocol.config))
        return (_unpickle, (self._spawn, options))

    def __repr__(self) -> str:
        try:
            pid: object = self.transport.get_pid()
        except Exception:
            pid = "?"
        return f"<{type(self).__name__} (pid={pid})>"


class SimpleAnalysisResult:
    """The blocking face of an :class:`AnalysisResult`: iterate over it for the reports,
    :meth:`stop` it, :meth:`wait` for the best move. Leaving ``with`` stops it."""

    def __init__(
        self,
        simple_engine: SimpleEngine,
        inner: AnalysisResult | SyncAnalysis,
        timeout: float | None = None,
    ) -> None:
        self.simple_engine = simple_engine
        self.inner = inner
        self._timeout = timeout

    def _await(self, coroutine: Coroutine[Any, Any, T], timeout: float | None, what: str) -> T:
        return self.simple_engine._run(coroutine, timeout, what)

    def _read(self, function: Callable[[], T]) -> T:
        return self.simple_engine._read(function)

    def _loop_inner(self) -> AnalysisResult:
        assert isinstance(self.inner, AnalysisResult)
        return self.inner

    def _blocking(self, call: Callable[[SyncAnalysis], T]) -> T:
        """``call`` on the blocking client's handle, holding the engine's lock."""
        assert isinstance(self.inner, SyncAnalysis)
        with self.simple_engine._lock:
            return call(self.inner)

    def _caught_up(self, function: Callable[[], T]) -> T:
        """``function()`` after taking in the reports already sent (on the blocking client,
        if no call holds the engine now)."""
        inner = self.inner
        if isinstance(inner, SyncAnalysis):
            lock = self.simple_engine._lock
            if lock.acquire(blocking=False):
                try:
                    inner.catch_up()
                finally:
                    lock.release()
            return function()
        return self._read(function)

    @property
    def info(self) -> InfoDict:
        """The best line's merged report so far (a copy)."""
        return self._caught_up(lambda: InfoDict(**self.inner.info))

    @property
    def multipv(self) -> list[InfoDict]:
        """Every line's merged report so far, best first (copies)."""
        return self._caught_up(lambda: [InfoDict(**info) for info in self.inner.multipv])

    def stop(self) -> None:
        """Asks the engine to stop (it then sends its best move)."""
        if isinstance(self.inner, SyncAnalysis):
            self._blocking(SyncAnalysis.stop)
            return
        self._read(self.inner.stop)

    def wait(self) -> BestMove:
        """Waits for the end of the analysis; its best move."""
        timeout = self._timeout
        if isinstance(self.inner, SyncAnalysis):
            return self._blocking(lambda inner: inner.wait(timeout=timeout))
        return self._await(self.inner.wait(), timeout, "the analysis")

    def would_block(self) -> bool:
        """Would :meth:`get` have to wait?"""
        if isinstance(self.inner, SyncAnalysis):
            return self._blocking(SyncAnalysis.would_block)
        return self._read(self.inner.would_block)

    def empty(self) -> bool:
        """Has every report so far been read?"""
        if isinstance(self.inner, SyncAnalysis):
            return self._blocking(SyncAnalysis.empty)
        return self._read(self.inner.empty)

    def get(self) -> InfoDict:
        """The next unread report, waiting for it.

        :raises: :exc:`AnalysisComplete` after the last one.
        """
        if isinstance(self.inner, SyncAnalysis):
            return self._blocking(SyncAnalysis.get)
        return self._await(self._loop_inner().get(), None, "the analysis")

    def next(self) -> InfoDict | None:
        """The next unread report, or ``None`` after the last one."""
        try:
            return self.get()
        except AnalysisComplete:
            return None

    def __iter__(self) -> Iterator[InfoDict]:
        return self

    def __next__(self) -> InfoDict:
        try:
            return self.get()
        except AnalysisComplete:
            raise StopIteration from None

    def __enter__(self) -> SimpleAnalysisResult:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.simple_engine!r}>"
