"""The UCI client: :class:`UciProtocol` speaks the Universal Chess Interface to an engine.

Before each search the client brings the engine's options to what the call needs: the
values given to :meth:`~UciProtocol.configure`, the call's own ``options`` (for that call
only: the next call sets them back), and the *managed* options it sets itself from the
arguments (``UCI_Chess960``/``UCI_Variant`` from the board, ``MultiPV``, ``Ponder``, and
``UCI_AnalyseMode`` unless configured). Only changed values are sent. A new ``game`` (or
opponent) sends ``ucinewgame`` and waits for ``readyok``.

After ``play(..., ponder=True)`` the engine thinks on the expected reply in the background;
the next ``play`` on exactly that position, with nothing else changed, sends ``ponderhit``
and takes that search's move, any other command sends ``stop`` first.

All of that, and how each line the engine sends is read (:func:`search_line`,
:meth:`UciSession.intro_line`), is :class:`UciSession`'s, without I/O: the event loop's
:class:`UciProtocol` and the blocking client of :mod:`pychess_rs.engine._uci_sync` (what
``SimpleEngine`` uses) only differ in how they wait for the engine.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from collections.abc import Iterable
from typing import Any, Callable

from ._analysis import AnalysisResult
from ._errors import EngineError
from ._info import INFO_ALL, Info, InfoDict, own_move, parse_uci_info
from ._limits import BestMove, Limit, Opponent, PlayResult
from ._options import ConfigMapping, ConfigValue, Option, UciOptionMap
from ._protocol import (
    LOGGER,
    BaseCommand,
    ClientState,
    CommandState,
    Protocol,
    Signal,
    check_game_ending,
)

__all__ = ["UciProtocol", "UciSession", "popen_uci"]

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def parse_uci_option(text: str) -> Option:
    """The :class:`Option` of an ``option name ... type ...`` line (without ``option``).
    Names, defaults and choices may hold spaces.

    :raises: :exc:`EngineError` for a line without name or type.
    """
    fields: dict[str, list[str]] = {}
    choices: list[list[str]] = []
    current: list[str] | None = None
    for word in text.split(" "):
        if word == "name" and not fields:
            current = fields["name"] = []
        elif word == "type" and "name" in fields and "type" not in fields:
            current = fields["type"] = []
        elif word in ("default", "min", "max") and "type" in fields and word not in fields:
            current = fields[word] = []
        elif word == "var" and "type" in fields:
            choices.append([])
            current = choices[-1]
        elif current is not None:
            current.append(word)
    if "name" not in fields or "type" not in fields:
        raise EngineError(f"cannot read option line {text!r}")

    def text_of(key: str) -> str | None:
        return " ".join(fields[key]).strip() if key in fields else None

    def number(key: str) -> int | None:
        try:
            return int(text_of(key) or "")
        except ValueError:
            return None

    kind = (text_of("type") or "").lower()
    raw_default = text_of("default")
    default: ConfigValue = raw_default
    if kind == "check":
        default = raw_default is not None and raw_default.lower() == "true"
    elif kind == "spin":
        default = number("default")
    elif kind == "button":
        default = None
    elif raw_default == "<empty>":
        default = ""
    var = [" ".join(words).strip() for words in choices]
    return Option(text_of("name") or "", kind, default, number("min"), number("max"), var)


def _milliseconds(seconds: float, minimum: int = 0) -> int:
    return max(minimum, round(seconds * 1000))


def go_command(
    limit: Limit | None, *, root_moves: list[Any] | None, ponder: bool, infinite: bool
) -> str:
    """The ``go`` line for ``limit`` (clocks, then depth/nodes/mate/movetime, then
    ``infinite``, then ``searchmoves``)."""
    words = ["go"]
    if ponder:
        words.append("ponder")
    if limit is not None:
        for word, seconds in (
            ("wtime", limit.white_clock),
            ("btime", limit.black_clock),
            ("winc", limit.white_inc),
            ("binc", limit.black_inc),
        ):
            if seconds is not None:
                words += [word, str(_milliseconds(seconds))]
        if limit.remaining_moves is not None and limit.remaining_moves > 0:
            words += ["movestogo", str(limit.remaining_moves)]
        for word, count in (("depth", limit.depth), ("nodes", limit.nodes), ("mate", limit.mate)):
            if count is not None:
                words += [word, str(max(0, int(count)))]
        if limit.time is not None:
            words += ["movetime", str(_milliseconds(limit.time, 1))]
    if infinite:
        words.append("infinite")
    if root_moves:
        words += ["searchmoves", *(move.uci() for move in root_moves)]
    return " ".join(words)


def parse_bestmove(board: Any, text: str) -> BestMove:
    """The move (and expected reply) of a ``bestmove`` line (without ``bestmove``), read
    against ``board``, the searched position.

    :raises: :exc:`EngineError` for a best move that is not legal there.
    """
    words = text.split()
    move = ponder = None
    if words and words[0] not in ("(none)", "NULL", "0000"):
        try:
            move = own_move(board.parse_uci(words[0]))
        except ValueError as error:
            raise EngineError(
                f"engine sent an illegal or unreadable best move {words[0]!r} "
                f"in {board.fen()}: {error}"
            ) from error
    if move is not None and len(words) >= 3 and words[1] == "ponder":
        if words[2] not in ("(none)", "NULL", "0000"):
            after = board.copy(stack=False)
            after.push(move)
            try:
                ponder = own_move(after.parse_uci(words[2]))
            except ValueError:
                LOGGER.warning("ignoring illegal ponder move %r after %s", words[2], move)
    return BestMove(move, ponder)


def search_line(
    line: str, board: Any, selector: Info, on_info: Callable[[InfoDict], None]
) -> BestMove | None:
    """Reads one line of a search from ``board``: an ``info`` line goes (parsed, the parts
    ``selector`` asks for) to ``on_info``; a ``bestmove`` line is the search's end, its
    move returned. Anything else: ``None``.

    :raises: :exc:`EngineError` for a best move that is not legal there.
    """
    word, _, rest = line.strip().partition(" ")
    if word == "info":
        if selector:
            parsed = parse_uci_info(rest, board, selector)
            if parsed:
                on_info(parsed)
    elif word == "bestmove":
        return parse_bestmove(board, rest)
    return None


def _opponent_text(opponent: Opponent) -> str:
    """The value of ``UCI_Opponent``: ``title rating computer|human name``."""
    title = opponent.title or "none"
    rating = str(opponent.rating) if opponent.rating is not None else "none"
    kind = "computer" if opponent.is_engine else "human"
    return f"{title} {rating} {kind} {opponent.name or ''}".rstrip()


@dataclasses.dataclass
class _Search:
    """What one ``play``/``analysis`` call asks of the engine."""

    board: Any
    limit: Limit | None
    root_moves: list[Any] | None
    selector: Info
    game: object
    opponent: Opponent | None
    target: UciOptionMap[ConfigValue]


@dataclasses.dataclass
class _Ponderhit:
    """A ``play`` that takes over a ponder search."""

    board: Any
    limit: Limit
    selector: Info
    ponder: bool
    result: Any  # asyncio.Future[PlayResult]


class UciSession(ClientState):
    """What a UCI client decides without I/O (shared by :class:`UciProtocol` and the
    blocking client of :mod:`pychess_rs.engine._uci_sync`): the checked options of a call,
    the lines that bring the engine's options and game up to date, the ``position`` line,
    and what the engine's introduction says."""

    def __init__(self) -> None:
        super().__init__()
        self._first_game = True
        self._game: object = None
        self._opponent_sent: Opponent | None = None

    # ---- options ----------------------------------------------------------------------------

    def _option(self, name: str, *, allow_managed: bool = False) -> Option:
        try:
            option = self.options[name]
        except KeyError:
            known = ", ".join(self.options) or "none"
            raise EngineError(
                f"engine {self.describe()} has no option {name!r} (options: {known})"
            ) from None
        if option.is_managed() and not allow_managed:
            raise EngineError(
                f"cannot set {option.name}, which is managed automatically from each call's "
                "arguments"
            )
        return option

    def _option_line(self, option: Option, value: ConfigValue) -> str:
        if option.is_action() or value is None:
            return f"setoption name {option.name}"
        if isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = str(value) if str(value) != "" else "<empty>"
        return f"setoption name {option.name} value {text}"

    def _target(
        self,
        board: Any,
        options: ConfigMapping,
        *,
        analysis: bool,
        ponder: bool,
        multipv: int | None,
    ) -> UciOptionMap[ConfigValue]:
        """The option values a search with these arguments needs (checked)."""
        target = self._call_config(options)
        if "UCI_AnalyseMode" in self.options and "UCI_AnalyseMode" not in target:
            target["UCI_AnalyseMode"] = analysis
        if "Ponder" in self.options:
            target["Ponder"] = ponder
        if "MultiPV" in self.options:
            option = self.options["MultiPV"]
            target["MultiPV"] = option.parse(multipv) if multipv is not None else option.default
        elif multipv is not None and multipv > 1:
            raise EngineError(f"engine {self.describe()} has no MultiPV option")
        chess960 = bool(getattr(board, "chess960", False))
        if "UCI_Chess960" in self.options:
            target["UCI_Chess960"] = chess960
        elif chess960:
            raise EngineError(f"engine {self.describe()} does not play Chess960 (no UCI_Chess960)")
        variant = getattr(board, "uci_variant", "chess")
        if "UCI_Variant" in self.options:
            target["UCI_Variant"] = self.options["UCI_Variant"].parse(variant)
        elif variant != "chess":
            raise EngineError(f"engine {self.describe()} does not play {variant} (no UCI_Variant)")
        return target

    def _new_game_needed(self, game: object, opponent: Opponent | None) -> bool:
        return self._first_game or game != self._game or opponent != self._opponent_sent

    def position_line(self, board: Any) -> str:
        """The ``position`` line of ``board``: its root, then its move stack."""
        root = board.root()
        fen = root.fen()
        starting = getattr(type(root), "starting_fen", STARTING_FEN)
        chess960 = bool(getattr(board, "chess960", False))
        line = "position startpos" if fen == starting and not chess960 else f"position fen {fen}"
        if board.move_stack:
            line += " moves " + " ".join(move.uci() for move in board.move_stack)
        return line

    def _search(
        self,
        board: Any,
        limit: Limit | None,
        *,
        game: object,
        info: Info,
        root_moves: Iterable[Any] | None,
        options: ConfigMapping,
        opponent: Opponent | None,
        analysis: bool,
        ponder: bool,
        multipv: int | None,
    ) -> _Search:
        moves, chosen = self._search_request(root_moves, opponent)
        target = self._target(board, options, analysis=analysis, ponder=ponder, multipv=multipv)
        return _Search(board, limit, moves, info, game, chosen, target)

    def debug(self, on: bool = True) -> None:
        """Switches the engine's debug mode (``debug on``/``debug off``)."""
        self.send_line("debug on" if on else "debug off")

    def intro_line(self, line: str) -> bool:
        """Takes in one line of the engine's answer to ``uci`` (``id``, ``option``);
        ``True`` at ``uciok``, its end (the engine is then initialised)."""
        word, _, rest = line.strip().partition(" ")
        if word == "uciok":
            self.initialized = True
            return True
        if word == "id":
            key, _, value = rest.strip().partition(" ")
            self.id[key] = value.strip()
        elif word == "option":
            try:
                option = parse_uci_option(rest)
            except EngineError as error:
                LOGGER.warning("%s: %s", self.described, error)
            else:
                self.options[option.name] = option
        return False

    def prepare_search(self, search: _Search) -> bool:
        """Sends what brings the engine's options and game to what ``search`` needs; ``True``
        when that started a new game (``ucinewgame``): the caller then sends ``isready``
        and waits for ``readyok`` before the search."""
        self._apply(self._changes(search.target))
        if not self._new_game_needed(search.game, search.opponent):
            return False
        self.send_line("ucinewgame")
        self._first_game = False
        self._game = search.game
        if search.opponent is not None and "UCI_Opponent" in self.options:
            option = self.options["UCI_Opponent"]
            self.send_line(self._option_line(option, _opponent_text(search.opponent)))
        self._opponent_sent = search.opponent
        return True

    def start_search(self, search: _Search, *, analysis: bool) -> None:
        """Sends ``position`` and ``go`` for ``search`` in one write (an analysis without a
        limit searches until stopped)."""
        limit = search.limit
        infinite = analysis and (limit is None or limit == Limit())
        self.send_lines(
            self.position_line(search.board),
            go_command(limit, root_moves=search.root_moves, ponder=False, infinite=infinite),
        )

    def start_ponder(self, board: Any, limit: Limit | None) -> str:
        """Sends ``position`` (``board``: the expected reply played) and ``go ponder``;
        the ``position`` line, which a later ``play`` must match for a ``ponderhit``."""
        line = self.position_line(board)
        self.send_lines(line, go_command(limit, root_moves=None, ponder=True, infinite=False))
        return line

    def ponderhit_fits(self, ponder_line: str | None, board: Any, search: _Search) -> bool:
        """May a ``play`` of ``search`` on ``board`` take over the ponder search on
        ``ponder_line``: the same position, with no option to change and no new game?"""
        return (
            ponder_line == self.position_line(board)
            and not self._changes(search.target)
            and not self._new_game_needed(search.game, search.opponent)
        )


class UciProtocol(UciSession, Protocol):
    """The UCI client on an event loop (see the module's notes)."""

    async def initialize(self) -> None:
        await self.communicate(_Initialize)

    async def ping(self) -> None:
        self._check_initialized()
        await self.communicate(_IsReady)

    async def send_game_result(
        self,
        board: Any,
        winner: bool | None = None,
        game_ending: str | None = None,
        game_complete: bool = True,
    ) -> None:
        # UCI has no words for a result; a ponder search still running is stopped.
        check_game_ending(game_ending)
        if self.command is not None and self.command.background:
            self.command.cancel()

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
        options: ConfigMapping = {},  # noqa: B006
        opponent: Opponent | None = None,
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
        pondering = self.command
        if (
            isinstance(pondering, _Play)
            and pondering.can_ponderhit()
            and not self.has_waiting_commands()
            and self.ponderhit_fits(pondering.ponder_line, board, search)
        ):
            hit = _Ponderhit(board, limit, info, ponder, self.loop.create_future())
            pondering.ponderhit(hit)
            result: PlayResult = await self._await_result_future(pondering, hit.result)
            return result

        def factory(engine: Protocol) -> BaseCommand[PlayResult]:
            return _Play(engine, search, ponder=ponder)

        return await self.communicate(factory)

    async def _await_result_future(self, command: BaseCommand[Any], future: Any) -> Any:
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            command.cancel()
            raise

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

        def factory(engine: Protocol) -> BaseCommand[AnalysisResult]:
            return _Analysis(engine, search)

        return await self.communicate(factory)


# ---- the commands -----------------------------------------------------------------------------


class _UciCommand(BaseCommand[Any]):
    engine: UciProtocol

    async def until(self, word: str) -> None:
        """Reads lines until one that is ``word`` (others are ignored)."""
        while True:
            event = await self.receive()
            if isinstance(event, str) and event.strip() == word:
                return


class _Initialize(_UciCommand):
    async def run(self) -> None:
        engine = self.engine
        engine.send_line("uci")
        while True:
            event = await self.receive()
            if isinstance(event, str) and engine.intro_line(event):
                break
        self.resolve(None)


class _IsReady(_UciCommand):
    async def run(self) -> None:
        self.engine.send_line("isready")
        await self.until("readyok")
        self.resolve(None)


class _SearchCommand(_UciCommand):
    """Brings options and game up to date, then searches."""

    def __init__(self, engine: Protocol, search: _Search) -> None:
        super().__init__(engine)
        self.search = search
        self.stop_sent = False
        self._stop_deadline: float | None = None

    async def prepare(self) -> bool:
        """Options, ``ucinewgame`` and ``position``; ``False`` when cancelled meanwhile."""
        engine = self.engine
        if engine.prepare_search(self.search):
            engine.send_line("isready")
            await self.until("readyok")
        return not self.stop_sent and self.state is CommandState.ACTIVE

    async def until(self, word: str) -> None:
        while True:
            event = await self.receive()
            if event is Signal.CANCEL:
                self.stop_sent = True  # nothing searched yet: the search is simply skipped
            elif isinstance(event, str) and event.strip() == word:
                return

    def stop(self) -> None:
        """Sends ``stop``; with :attr:`Protocol.liveness_timeout` set, the engine must then
        answer within that time."""
        if not self.stop_sent:
            self.stop_sent = True
            self.engine.send_line("stop")
            if self.engine.liveness_timeout is not None:
                self._stop_deadline = self.engine.loop.time() + self.engine.liveness_timeout

    async def next_event(self, *, watched: bool) -> Any:
        """The next line or signal of a search: watched for silence, and bounded once
        ``stop`` was sent.

        :raises: :exc:`EngineTimeoutError` for a hung engine (which is then killed).
        """
        if self._stop_deadline is None:
            return await self.receive_watched("isready" if watched else None)
        try:
            return await self.receive(max(0.0, self._stop_deadline - self.engine.loop.time()))
        except asyncio.TimeoutError:
            raise self.engine.kill_as_hung(
                f"did not answer 'stop' within {self.engine.liveness_timeout:g} s"
            ) from None

    async def search_until_bestmove(
        self, board: Any, selector: Info, on_info: Callable[[InfoDict], None], *, watched: bool
    ) -> BestMove:
        """Reads ``info`` lines (handing each to ``on_info``) until ``bestmove``."""
        while True:
            event = await self.next_event(watched=watched)
            if event is Signal.CANCEL:
                self.stop()
                continue
            if isinstance(event, _Ponderhit):
                continue
            if not isinstance(event, str):
                continue
            best = search_line(event, board, selector, on_info)
            if best is not None:
                return best


class _Play(_SearchCommand):
    """``play``: a search for a move, then perhaps a ponder search (in the background)."""

    def __init__(self, engine: Protocol, search: _Search, *, ponder: bool) -> None:
        super().__init__(engine, search)
        self.ponder = ponder
        self.ponder_line: str | None = None
        self._hit: _Ponderhit | None = None

    def can_ponderhit(self) -> bool:
        return (
            self.background
            and self.ponder_line is not None
            and self._hit is None
            and not self.stop_sent
            and self.state is CommandState.ACTIVE
        )

    def ponderhit(self, hit: _Ponderhit) -> None:
        """Takes ``hit``'s ``play`` over: the search is in the foreground again (a later
        command waits for it rather than stopping it)."""
        self._hit = hit
        self.ponder_line = None
        self.background = False
        self.deliver(hit)

    async def run(self) -> None:
        engine = self.engine
        search = self.search
        if not await self.prepare():
            self.result.cancel()
            return
        engine.start_search(search, analysis=False)
        info: InfoDict = {}
        best = await self.search_until_bestmove(
            search.board, search.selector, functools.partial(merge_play_info, info), watched=True
        )
        board, limit, selector, ponder = search.board, search.limit, search.selector, self.ponder
        future = self.result
        while True:
            if not future.done():
                future.set_result(PlayResult(best.move, best.ponder, info))
            if not (ponder and best.move is not None and best.ponder is not None):
                return
            if self.stop_sent:
                return
            board = board.copy()
            board.push(best.move)
            board.push(best.ponder)
            self.ponder_line = engine.start_ponder(board, limit)
            self.resolve(future.result(), background=True)
            hit = await self._ponder(board)
            if hit is None:
                return
            # The opponent played the expected move: this search is the next move's.
            board, limit, selector, ponder, future = (
                hit.board,
                hit.limit,
                hit.selector,
                hit.ponder,
                hit.result,
            )
            self._hit = None
            info = {}
            best = await self.search_until_bestmove(
                board, selector, functools.partial(merge_play_info, info), watched=True
            )

    async def _ponder(self, board: Any) -> _Ponderhit | None:
        """Waits while pondering: the ponderhit, or ``None`` once stopped."""
        while True:
            event = await self.next_event(watched=False)
            if event is Signal.CANCEL:
                self.stop()
            elif isinstance(event, _Ponderhit):
                self.engine.send_line("ponderhit")
                return event
            elif isinstance(event, str) and event.strip().startswith("bestmove"):
                return None


class _Analysis(_SearchCommand):
    """``analysis``: runs in the background from its ``go`` on."""

    async def run(self) -> None:
        engine = self.engine
        search = self.search
        analysis = AnalysisResult(stop=self.cancel)
        if not await self.prepare():
            self.result.cancel()
            return
        engine.start_search(search, analysis=True)
        self.resolve(analysis, background=True)
        try:
            best = await self.search_until_bestmove(
                search.board, search.selector, analysis.post, watched=True
            )
        except Exception as error:
            analysis.set_exception(error)
            raise
        analysis.set_finished(best)


def merge_play_info(info: InfoDict, new: InfoDict) -> None:
    """A ``play`` keeps the latest report of its best line (and any ``string``)."""
    if new.get("multipv", 1) == 1:
        info.update(new)
    elif "string" in new:
        info["string"] = new["string"]


async def popen_uci(
    command: str | list[str], *, setpgrp: bool = False, **popen_args: Any
) -> tuple[asyncio.SubprocessTransport, UciProtocol]:
    """Starts and initialises a UCI engine in the running event loop (see
    :meth:`Protocol.popen`); no timeouts here (:class:`SimpleEngine` has them).

    :raises: :exc:`FileNotFoundError` without such a program, :exc:`EngineError` if it does
        not introduce itself.
    """
    return await UciProtocol.popen_initialized(command, setpgrp=setpgrp, **popen_args)
