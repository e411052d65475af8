"""The blocking UCI client behind :class:`~pychess_rs.engine.SimpleEngine`: the calling
thread writes the commands and reads the engine's lines itself, with no event loop between
them (a hop to a loop thread and back costs about as much as all the rest of an ``analyse``
call against an engine that answers at once; see ``docs/engine-client.md``).

What to send and how to read each line is :class:`~pychess_rs.engine._uci.UciSession`'s,
shared with the event loop's :class:`~pychess_rs.engine.UciProtocol`; this module only waits:
every read is a ``poll`` on the engine's pipe with a deadline, so the timeouts and the
liveness watch of ``SimpleEngine`` hold here as on the loop.

**Searches that outlive their call** (an analysis handle, a ponder search) stay the engine's
*background* search. Nobody reads the engine while no call runs: its lines wait in the pipe
(an engine that fills the pipe simply waits too) until the analysis handle is read, or the
next call, which first stops the background search and reads it to its ``bestmove``, its
reports still going to the handle. That is why iterating over an analysis needs no event
loop either: each ``next()`` reads the pipe up to the next report, on the caller's thread,
under the engine's lock.

Callers serialise: :class:`SimpleEngine` holds its lock around every method here.
"""

from __future__ import annotations

import logging
import math
import os
import select
import subprocess
import time
from collections import deque
from collections.abc import Iterable
from typing import Any, Callable

from . import _process
from ._analysis import Reports
from ._errors import AnalysisComplete, EngineError, EngineTerminatedError, EngineTimeoutError
from ._info import INFO_ALL, Info, InfoDict
from ._limits import BestMove, Limit, Opponent, PlayResult
from ._options import ConfigMapping
from ._protocol import LOGGER, LineBuffer, check_game_ending, check_opponent
from ._uci import UciSession, merge_play_info, search_line

__all__ = ["SyncAnalysis", "SyncUciProtocol", "available"]

#: Longest single wait in ``poll`` (ms): an engine whose own child holds its pipe open is
#: then still noticed to have ended.
POLL_SLICE_MS = 1000
#: After the engine exits, how long lines still in the pipe are waited for (s).
EXIT_GRACE = 0.5
#: Bytes asked for per read.
READ_SIZE = 1 << 16


def available() -> bool:
    """Can this platform wait on pipes with ``poll`` (every POSIX system)?"""
    return hasattr(select, "poll") and os.name == "posix"


def _ignore(info: InfoDict) -> None:
    pass


class PipeTransport:
    """The engine process (what ``SimpleEngine.transport`` is for this client)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    def get_pid(self) -> int:
        return self.process.pid

    def get_returncode(self) -> int | None:
        return self.process.poll()

    def kill(self) -> None:
        self.process.kill()

    def close(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None:
                try:
                    pipe.close()
                except OSError:
                    pass

    def __repr__(self) -> str:
        return f"<{type(self).__name__} pid={self.process.pid}>"


class _Running:
    """A search the engine runs: where its lines go."""

    __slots__ = ("board", "handle", "ponder_line", "selector", "sink", "stop_deadline", "stopped")

    def __init__(
        self,
        board: Any,
        selector: Info,
        sink: Callable[[InfoDict], None],
        *,
        ponder_line: str | None = None,
        handle: SyncAnalysis | None = None,
    ) -> None:
        self.board = board
        self.selector = selector
        self.sink = sink
        #: A ponder search: the ``position`` line it ponders on.
        self.ponder_line = ponder_line
        #: An analysis: its handle.
        self.handle = handle
        #: Has ``stop`` been sent? When must the engine have answered (``None``: no bound)?
        self.stopped = False
        self.stop_deadline: float | None = None


class SyncUciProtocol(UciSession):
    """A UCI engine driven by blocking calls on the caller's thread (see the module's notes).
    Each call takes ``timeout`` (seconds for the whole call, ``None``: no limit) and ``what``
    (its name in the error of a call that runs out of time)."""

    def __init__(self, process: subprocess.Popen[bytes], argv: list[str], own_group: bool) -> None:
        super().__init__()
        self.transport: PipeTransport = PipeTransport(process)
        self._process = process
        self._argv = argv
        self._own_group = own_group
        assert process.stdin is not None and process.stdout is not None
        self._stdin = process.stdin.fileno()
        self._stdout = process.stdout.fileno()
        self._stderr = process.stderr.fileno() if process.stderr is not None else -1
        self._poll = select.poll()
        self._poll.register(self._stdout, select.POLLIN)
        if self._stderr >= 0:
            self._poll.register(self._stderr, select.POLLIN)
        self._buffer = LineBuffer(self.described)
        self._stderr_buffer = LineBuffer(self.described)
        self._lines: deque[str] = deque()
        self._exited_at: float | None = None
        #: The running call's deadline (monotonic) and, for its error, its limit and name.
        self._deadline: float | None = None
        self._call: tuple[float, str] = (0.0, "")
        #: The search that outlives its call (analysis, ponder), if any.
        self._background: _Running | None = None

    @classmethod
    def popen(
        cls, command: str | list[str], *, setpgrp: bool = False, **popen_args: Any
    ) -> SyncUciProtocol:
        """Starts the engine ``command`` (not yet initialised); arguments as
        :meth:`Protocol.popen`.

        :raises: :exc:`FileNotFoundError` if there is no such program.
        """
        argv = _process.command_argv(command)
        exec_argv, kwargs = _process.spawn_arguments(argv, setpgrp=setpgrp, popen_args=popen_args)
        kwargs.setdefault("bufsize", 0)
        return cls(_process.popen(exec_argv, kwargs), argv, setpgrp)

    # ---- pipes -----------------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        try:
            while data:
                data = data[os.write(self._stdin, data) :]
        except OSError as error:  # the engine closed its input: it is ending
            self._end()
            raise self.termination_error() or EngineTerminatedError(str(error)) from error

    def _exit_code(self) -> int | None:
        return self._process.returncode

    def kill(self) -> None:
        _process.kill(self.transport, group=self._own_group)

    def kill_as_hung(self, what: str) -> EngineTimeoutError:
        error = super().kill_as_hung(what)
        self._end()
        return error

    def _end(self) -> None:
        """The engine's output has ended: it is taken as ended (and killed if it lives on)."""
        if self._terminated:
            return
        self._terminated = True
        try:
            self._process.wait(EXIT_GRACE)
        except subprocess.TimeoutExpired:
            self.kill()
            try:
                self._process.wait(5)
            except subprocess.TimeoutExpired:
                pass
        LOGGER.debug("%s: process exited with %s", self.described, self._process.returncode)

    def _fill(self, milliseconds: int) -> None:
        """Waits up to ``milliseconds`` for output and takes in what there is."""
        try:
            events = self._poll.poll(milliseconds)
        except InterruptedError:  # pragma: no cover (retried by Python since 3.5)
            return
        if not events:
            if milliseconds > 0:
                self._check_exit()
            return
        for fd, _ in events:
            try:
                data = os.read(fd, READ_SIZE)
            except OSError:
                data = b""
            if fd == self._stdout:
                if not data:
                    self._end()
                    return
                lines = self._buffer.feed(data)
                if lines:
                    if LOGGER.isEnabledFor(logging.DEBUG):
                        for line in lines:
                            LOGGER.debug("%s: >> %s", self.described, line)
                    self._lines.extend(lines)
            elif data:
                for line in self._stderr_buffer.feed(data):
                    LOGGER.warning("%s: stderr >> %s", self.described, line)
            else:
                self._poll.unregister(fd)

    def _check_exit(self) -> None:
        """After a silent wait: has the engine exited while its pipe stays open (a child
        of its holds it)? Then, after :data:`EXIT_GRACE`, it is taken as ended."""
        if self._process.poll() is None:
            return
        now = time.monotonic()
        if self._exited_at is None:
            self._exited_at = now
        elif now - self._exited_at >= EXIT_GRACE:
            self._end()

    def _begin(self, timeout: float | None, what: str) -> None:
        """Starts a call: its deadline, and the name its timeout error gives it."""
        if timeout is None:
            self._deadline = None
        else:
            self._deadline = time.monotonic() + timeout
            self._call = (timeout, what)

    def _read_line(self, until: float | None = None) -> str | None:
        """The engine's next line; ``None`` if ``until`` (monotonic) passes first.

        :raises: :exc:`EngineTimeoutError` (the engine killed) when the call's deadline
            passes; :exc:`EngineTerminatedError` once the engine has ended and every line
            it sent was read.
        """
        lines = self._lines
        if lines and self._deadline is not None and time.monotonic() >= self._deadline:
            raise self._out_of_time()  # an engine that talks on and on is no exception
        while not lines:
            if self._terminated:
                raise self.termination_error() or EngineTerminatedError()
            deadline = self._deadline
            call = until is None or (deadline is not None and deadline <= until)
            wait_until = deadline if call else until
            if wait_until is None:
                self._fill(POLL_SLICE_MS)
                continue
            left = wait_until - time.monotonic()
            self._fill(min(POLL_SLICE_MS, max(0, math.ceil(left * 1000))))
            if not lines and time.monotonic() >= wait_until and not self._terminated:
                if call:
                    raise self._out_of_time()
                return None
        return lines.popleft()

    def _out_of_time(self) -> EngineTimeoutError:
        timeout, what = self._call
        return self.kill_as_hung(f"did not finish {what} within {timeout:g} s")

    def _until(self, word: str) -> None:
        """Reads (and drops) lines up to one that is ``word``."""
        while True:
            line = self._read_line()
            if line is not None and line.strip() == word:
                return

    def _search_line(self, running: _Running, *, watched: bool) -> str:
        """The next line of a search: watched for silence (``isready`` after
        :attr:`liveness_timeout` seconds without a line, the engine killed as hung after as
        long again), and bounded once ``stop`` was sent."""
        if running.stopped and running.stop_deadline is not None:
            line = self._read_line(running.stop_deadline)
            if line is None:
                raise self.kill_as_hung(f"did not answer 'stop' within {self.liveness_timeout:g} s")
            return line
        timeout = self.liveness_timeout
        if not watched or timeout is None or running.stopped:
            line = self._read_line()
            assert line is not None
            return line
        line = self._read_line(time.monotonic() + timeout)
        if line is None:
            self.send_line("isready", probe=True)
            line = self._read_line(time.monotonic() + timeout)
            if line is None:
                raise self.kill_as_hung(
                    f"stopped answering: no output for {2 * timeout:g} s, not even to 'isready'"
                )
        return line

    def _step(self, running: _Running, *, watched: bool = True) -> BestMove | None:
        """Reads one line of ``running``; its best move once it ends."""
        line = self._search_line(running, watched=watched)
        if running.ponder_line is not None:  # a ponder search: only its end matters
            return BestMove(None, None) if line.strip().startswith("bestmove") else None
        return search_line(line, running.board, running.selector, running.sink)

    def _stop(self, running: _Running) -> None:
        """Sends ``stop``: with :attr:`liveness_timeout` set, the engine must then answer
        within that time."""
        if not running.stopped:
            running.stopped = True
            self.send_line("stop")
            if self.liveness_timeout is not None:
                running.stop_deadline = time.monotonic() + self.liveness_timeout

    # ---- the background search ---------------------------------------------------------------

    def _settle(self) -> None:
        """Stops the background search, if any, and reads it to its end (an analysis's
        reports and best move go to its handle)."""
        running = self._background
        if running is None:
            return
        try:
            self._stop(running)
            while (best := self._step(running, watched=False)) is None:
                pass
        except Exception as error:
            self._background = None
            if running.handle is not None:
                running.handle.set_exception(error)
            if self._terminated or not isinstance(error, EngineError):
                raise
            return
        self._background = None
        if running.handle is not None:
            running.handle.set_finished(best)

    def advance(self, handle: SyncAnalysis, *, block: bool) -> None:
        """Reads the lines of ``handle``'s analysis: up to the next one (``block``), or
        those already in the pipe."""
        running = self._background
        if running is None or running.handle is not handle:
            # Not running any more: its end was read by a call (which told the handle).
            handle.set_exception(EngineError("the analysis was ended without a result"))
            return
        try:
            while True:
                if not block and not self._lines:
                    # Only what is there already.
                    saved, self._deadline = self._deadline, None
                    try:
                        line = self._read_line(time.monotonic())
                    finally:
                        self._deadline = saved
                    if line is None:
                        return
                    self._lines.appendleft(line)
                best = self._step(running)
                if best is not None:
                    self._background = None
                    handle.set_finished(best)
                    return
                if block:
                    return
        except Exception as error:
            self._background = None
            handle.set_exception(error)

    # ---- the calls ---------------------------------------------------------------------------

    def initialize(self, *, timeout: float | None, what: str = "initialising") -> None:
        self._begin(timeout, what)
        self.send_line("uci")
        while True:
            line = self._read_line()
            if line is not None and self.intro_line(line):
                return

    def ping(self, *, timeout: float | None, what: str = "ping") -> None:
        self._check_initialized()
        self._begin(timeout, what)
        self._settle()
        self.send_line("isready")
        self._until("readyok")

    def configure(self, options: ConfigMapping, *, timeout: float | None, what: str) -> None:
        self._check_initialized()
        changes = self._parsed(options)
        self._begin(timeout, what)
        self._settle()
        self._configure_now(changes)

    def send_opponent_information(
        self, *, opponent: Opponent | None = None, engine_rating: int | None = None
    ) -> None:
        check_opponent(opponent)
        self._opponent = opponent

    def send_game_result(
        self,
        board: Any,
        winner: bool | None = None,
        game_ending: str | None = None,
        game_complete: bool = True,
        *,
        timeout: float | None,
        what: str = "send_game_result",
    ) -> None:
        # UCI has no words for a result; a ponder search still running is stopped.
        check_game_ending(game_ending)
        self._begin(timeout, what)
        self._settle()

    def _search_to_end(self, running: _Running, search: Any, *, analysis: bool) -> BestMove:
        """Brings options and game up to date, starts ``search`` and reads it to its end."""
        if self.prepare_search(search):
            self.send_line("isready")
            self._until("readyok")
        self.start_search(search, analysis=analysis)
        while (best := self._step(running)) is None:
            pass
        return best

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
        timeout: float | None,
        what: str = "play",
    ) -> PlayResult:
        search = self._search(
            board,
            limit,
            game=game,
            info=info,
            root_moves=root_moves,
            options=options,
            opponent=opponent,
            analysis=False,
            ponder=ponder,
            multipv=None,
        )
        self._begin(timeout, what)
        merged: InfoDict = {}
        running = _Running(board, info, lambda new: merge_play_info(merged, new))
        pondering = self._background
        if pondering is not None and pondering.ponder_line is not None:
            self._drain_ponder(pondering)
        pondering = self._background
        if (
            pondering is not None
            and pondering.ponder_line is not None
            and self.ponderhit_fits(pondering.ponder_line, board, search)
        ):
            # The expected reply was played: the ponder search is this move's search.
            self._background = None
            self.send_line("ponderhit")
            while (best := self._step(running)) is None:
                pass
        else:
            self._settle()
            best = self._search_to_end(running, search, analysis=False)
        result = PlayResult(best.move, best.ponder, merged)
        if ponder and best.move is not None and best.ponder is not None:
            after = board.copy()
            after.push(best.move)
            after.push(best.ponder)
            line = self.start_ponder(after, limit)
            self._background = _Running(after, Info.NONE, _ignore, ponder_line=line)
        return result

    def _drain_ponder(self, pondering: _Running) -> None:
        """Reads the ponder search's lines already in the pipe (dropped: they are about the
        position before the reply); its ``bestmove`` there means it has ended."""
        while True:
            saved, self._deadline = self._deadline, None
            try:
                line = self._read_line(time.monotonic())
            finally:
                self._deadline = saved
            if line is None:
                return
            if line.strip().startswith("bestmove"):
                self._background = None
                return

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
        timeout: float | None,
        what: str = "analysis",
    ) -> SyncAnalysis:
        search = self._search(
            board,
            limit,
            game=game,
            info=info,
            root_moves=root_moves,
            options=options,
            opponent=None,
            analysis=True,
            ponder=False,
            multipv=multipv,
        )
        self._begin(timeout, what)
        self._settle()
        handle = SyncAnalysis(self)
        if self.prepare_search(search):
            self.send_line("isready")
            self._until("readyok")
        self.start_search(search, analysis=True)
        self._background = _Running(board, info, handle.post, handle=handle)
        return handle

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
        timeout: float | None,
        what: str = "analyse",
    ) -> InfoDict | list[InfoDict]:
        search = self._search(
            board,
            limit,
            game=game,
            info=info,
            root_moves=root_moves,
            options=options,
            opponent=None,
            analysis=True,
            ponder=False,
            multipv=multipv,
        )
        self._begin(timeout, what)
        self._settle()
        reports = Reports()
        self._search_to_end(_Running(board, info, reports.post), search, analysis=True)
        return reports.info if multipv is None else reports.multipv[:multipv]

    def quit(self, *, timeout: float | None, what: str = "quit") -> None:
        """Asks the engine to exit and waits until it has (its lines are dropped)."""
        self._begin(timeout, what)
        if not self._terminated:
            try:
                self.send_line("quit")
            except EngineTerminatedError:
                pass
        try:
            while True:
                self._read_line()
        except EngineTerminatedError:
            pass

    def shutdown(self, grace: float | None, *, reader_gone: bool) -> None:
        """Ends the engine from any thread: ``quit`` and up to ``grace`` seconds for it to
        exit, then SIGKILL (``grace=None``: at once). The pipes are closed when
        ``reader_gone`` (no thread can be reading them any more)."""
        if grace is not None and self._process.poll() is None:
            try:
                self._write(b"quit\n")
                self._process.wait(grace)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.kill()
        try:
            self._process.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self._terminated = True
        if reader_gone:
            self.transport.close()


class SyncAnalysis(Reports):
    """An analysis by :class:`SyncUciProtocol`: its reports (see :class:`Reports`) are read
    from the pipe when asked for. The caller holds the engine's lock around every method
    (``SimpleAnalysisResult`` does)."""

    def __init__(self, engine: SyncUciProtocol) -> None:
        super().__init__()
        self._engine = engine
        self._best: BestMove | None = None
        self._error: BaseException | None = None

    def set_finished(self, best: BestMove) -> None:
        if self._best is None and self._error is None:
            self._best = best

    def set_exception(self, error: BaseException) -> None:
        if self._best is None and self._error is None:
            self._error = error

    def _done(self) -> bool:
        return self._best is not None or self._error is not None

    def _result(self) -> BestMove:
        if self._error is not None:
            raise self._error
        assert self._best is not None
        return self._best

    def catch_up(self) -> None:
        """Takes in the reports already sent."""
        if not self._done():
            self._engine.advance(self, block=False)

    def stop(self) -> None:
        """Asks the engine to stop searching (it then sends its best move)."""
        engine = self._engine
        running = engine._background
        if running is not None and running.handle is self:
            try:
                engine._stop(running)
            except EngineTerminatedError as error:
                engine._background = None
                self.set_exception(error)

    def wait(self, *, timeout: float | None, what: str = "the analysis") -> BestMove:
        """Reads the analysis to its end; its best move.

        :raises: the analysis's error (:exc:`EngineError`, :exc:`EngineTerminatedError`,
            :exc:`EngineTimeoutError`) if it failed.
        """
        self._engine._begin(timeout, what)
        while not self._done():
            self._engine.advance(self, block=True)
        return self._result()

    def would_block(self) -> bool:
        self.catch_up()
        return not self._queue and not self._done()

    def empty(self) -> bool:
        self.catch_up()
        return not self._queue

    def get(self) -> InfoDict:
        """The next unread report, reading the engine for it if need be.

        :raises: :exc:`AnalysisComplete` when the analysis has ended and everything was
            read; the analysis's error if it failed.
        """
        self._engine._begin(None, "the analysis")
        while not self._queue:
            if self._done():
                self._result()
                raise AnalysisComplete()
            self._engine.advance(self, block=True)
        return self._queue.popleft()
