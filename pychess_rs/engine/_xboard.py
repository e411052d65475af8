"""The XBoard client: :class:`XBoardProtocol` speaks the Chess Engine Communication Protocol
(``protover 2``) to an engine.

The engine keeps a game of its own, so the client keeps a copy of it: for a ``play`` in the
same game it takes moves back (``remove``/``undo``) down to what the board and the engine
share and sends the rest, rather than starting again. A new ``game`` object, another
opponent, or another starting position or variant starts a new game (``new``). Limits become
``level``/``time``/``otim`` (clocks, the level sent again only when ``clock_id`` changes),
``st`` and ``sd``; after the engine's move a ``ping`` makes sure nothing of that search is
still on its way. Analyses (``analyze``) are stopped by the client when their limit is met.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from typing import Any

from ._analysis import AnalysisResult
from ._errors import EngineError
from ._info import INFO_ALL, Info, InfoDict, own_move, play_line
from ._limits import BestMove, Limit, Opponent, PlayResult
from ._options import ConfigMapping, ConfigValue, Option, UciOptionMap
from ._protocol import LOGGER, BaseCommand, Protocol, Signal, check_game_ending
from ._score import Cp, Mate, PovScore, Score

__all__ = ["XBoardProtocol", "popen_xboard"]

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

#: Seconds a protover 1 engine (no ``feature done``) gets to list its features.
FEATURE_WAIT = 2.0

#: Scores at least this large are mates: 100000 + N is mate in N moves.
MATE_SCORE = 100000

_FEATURE = re.compile(r'(\w+)=("(?:[^"]|"(?=\S))*"|\S*)')
_OPTION = re.compile(
    r"^(.*?) -(spin|slider|check|combo|string|file|path|button|reset|save)\b ?(.*)$"
)
_TERMINATIONS = {
    "STALEMATE": "Stalemate",
    "INSUFFICIENT_MATERIAL": "Insufficient material",
    "SEVENTYFIVE_MOVES": "75-move rule",
    "FIVEFOLD_REPETITION": "Fivefold repetition",
    "FIFTY_MOVES": "50-move rule",
    "THREEFOLD_REPETITION": "Threefold repetition",
    "VARIANT_WIN": "Variant win",
    "VARIANT_LOSS": "Variant loss",
    "VARIANT_DRAW": "Variant draw",
}


def parse_features(text: str) -> list[tuple[str, str]]:
    """The ``key=value`` pairs of a ``feature`` line (quotes removed from quoted values)."""
    pairs = []
    for match in _FEATURE.finditer(text):
        value = match.group(2)
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        pairs.append((match.group(1), value))
    return pairs


def parse_xboard_option(text: str) -> Option:
    """The :class:`Option` of a ``feature option="NAME -TYPE ..."`` value.

    :raises: :exc:`EngineError` for an unreadable declaration.
    """
    match = _OPTION.match(text)
    if match is None:
        raise EngineError(f"cannot read option declaration {text!r}")
    name, kind, rest = match.group(1).strip(), match.group(2), match.group(3).strip()
    if kind in ("spin", "slider"):
        numbers = [int(word) for word in rest.split()[:3]]
        if len(numbers) != 3:
            raise EngineError(f"expected default, min and max in {text!r}")
        return Option(name, "spin", numbers[0], numbers[1], numbers[2], None)
    if kind == "check":
        return Option(name, "check", rest.strip() == "1", None, None, None)
    if kind == "combo":
        choices = [choice.strip() for choice in rest.split("///")]
        default = next((c[1:] for c in choices if c.startswith("*")), choices[0] if choices else "")
        return Option(name, "combo", default, None, None, [c.lstrip("*") for c in choices])
    if kind in ("string", "file", "path"):
        default = rest[1:-1] if len(rest) >= 2 and rest[0] == rest[-1] == '"' else rest
        default = "" if default == "<empty>" else default
        return Option(name, kind, default, None, None, None)
    return Option(name, kind, None, None, None, None)


def _move_number(word: str) -> bool:
    return bool(re.fullmatch(r"\d+\.+", word))


def parse_xboard_post(line: str, board: Any, selector: Info = INFO_ALL) -> InfoDict:
    """The :class:`InfoDict` of a thinking-output line ``ply score time nodes [seldepth nps
    tbhits\\t] pv`` (time in centiseconds, score from the side to move's point of view).

    :raises: :exc:`ValueError` for a line that is not one.
    """
    head, tab, tail = line.partition("\t")
    words = head.split()
    numbers, pv_words = (words, tail.split()) if tab else (words[:4], words[4:])
    if len(numbers) < 4:
        raise ValueError(f"not a thinking line: {line!r}")
    values = [_leading_int(word) for word in numbers[:7]]
    info: InfoDict = {"depth": values[0], "time": values[2] / 100, "nodes": values[3]}
    for key, value in zip(("seldepth", "nps", "tbhits"), values[4:]):
        info[key] = value  # type: ignore[literal-required]
    if selector & Info.SCORE:
        relative: Score
        if abs(values[1]) >= MATE_SCORE:
            moves = abs(values[1]) - MATE_SCORE
            relative = Mate(moves if values[1] > 0 else -moves)
        else:
            relative = Cp(values[1])
        info["score"] = PovScore(relative, bool(board.turn))
    if selector & Info.PV:
        info["pv"] = _read_line(board, pv_words)
    return info


def _leading_int(word: str) -> int:
    """The number a word starts with (engines append marks such as ``4&`` or ``12.``)."""
    match = re.match(r"-?\d+", word)
    if match is None:
        raise ValueError(f"expected a number, got {word!r}")
    return int(match.group())


def _read_line(board: Any, words: list[str]) -> list[Any]:
    """The moves of a principal variation in SAN or coordinates (move numbers skipped),
    until one that is not legal."""
    moves = (re.sub(r"^\d+\.+", "", w).rstrip("+#!?") for w in words if not _move_number(w))
    return play_line(board, moves, _parse_pv_move)


def _parse_pv_move(position: Any, word: str) -> Any:
    """A principal variation's ``word`` in SAN, else in coordinates, in ``position``."""
    try:
        return position.parse_san(word)
    except ValueError:
        return position.parse_uci(word)


def _clock_text(seconds: float) -> str:
    minutes, rest = divmod(max(0, round(seconds)), 60)
    return f"{minutes}:{rest:02d}" if rest else str(minutes)


def _seconds_text(seconds: float) -> str:
    return f"{max(0.0, seconds):g}"


class XBoardProtocol(Protocol):
    """The XBoard client (see the module's notes)."""

    # An engine that lists no ``feature done`` is given FEATURE_WAIT seconds to list any.
    initialization_wait = FEATURE_WAIT

    def __init__(self) -> None:
        super().__init__()
        self.features: dict[str, str | int] = {}
        self._ping_id = 0
        self._new_game_pending = True
        self._game: object = None
        self._engine_rating: int | None = None
        self._sent: tuple[Opponent | None, int | None] = (None, None)
        self._root_key: tuple[str, str, bool] | None = None
        self._moves: list[str] = []  # the engine's game since its root, in UCI
        self._clock_id: object = None

    # ---- helpers -----------------------------------------------------------------------------

    def next_ping(self) -> int:
        self._ping_id += 1
        return self._ping_id

    def _option(self, name: str) -> Option:
        try:
            return self.options[name]
        except KeyError:
            known = ", ".join(self.options) or "none"
            raise EngineError(
                f"engine {self.describe()} has no option {name!r} (options: {known})"
            ) from None

    def _option_line(self, option: Option, value: ConfigValue) -> str:
        if option.name.startswith("egtpath "):
            return f"{option.name} {value}"
        if option.name in ("memory", "cores"):
            return f"{option.name} {value}"
        if option.is_action() or value is None:
            return f"option {option.name}"
        if isinstance(value, bool):
            value = int(value)
        return f"option {option.name}={value}"

    def _variant(self, board: Any) -> str | None:
        """The ``variant`` to send for ``board`` (``None``: normal chess).

        :raises: :exc:`EngineError` when the engine does not play it.
        """
        if getattr(board, "uci_variant", "chess") != "chess":
            variant = str(getattr(board, "xboard_variant", board.uci_variant))
        elif getattr(board, "chess960", False):
            variant = "fischerandom"
        else:
            return None
        offered = str(self.features.get("variants", "")).split(",")
        if variant not in offered:
            raise EngineError(f"engine {self.describe()} does not play {variant}")
        return variant

    def _move_text(self, position: Any, move: Any) -> str:
        text = position.san(move) if self.features.get("san") == 1 else move.uci()
        if getattr(position, "chess960", False) and position.is_castling(move):
            text = "O-O-O" if move.to_square < move.from_square else "O-O"
        return f"usermove {text}" if self.features.get("usermove") == 1 else text

    def sync(self, board: Any, game: object, opponent: Opponent | None) -> None:
        """Brings the engine's game to ``board`` in force mode: a new game when needed,
        otherwise moves taken back and played."""
        root = board.root()
        root_key = (root.fen(), str(getattr(board, "uci_variant", "chess")), bool(board.chess960))
        rating = self._engine_rating
        new = (
            self._new_game_pending
            or game != self._game
            or (opponent, rating) != self._sent
            or root_key != self._root_key
        )
        variant = self._variant(board) if new else None
        stack = list(board.move_stack)
        texts = [move.uci() for move in stack]
        if new:
            self.send_line("new")
            if variant is not None:
                self.send_line(f"variant {variant}")
            if opponent is not None:
                self._send_opponent(opponent, rating)
            self.send_line("force")
            starting = getattr(type(root), "starting_fen", STARTING_FEN)
            if root_key[0] != starting or (board.chess960 and variant is None):
                if self.features.get("setboard", 0) != 1:
                    raise EngineError(
                        f"engine {self.describe()} cannot set up a position (no setboard)"
                    )
                self.send_line(f"setboard {root_key[0]}")
            self._new_game_pending = False
            self._game, self._sent, self._root_key = game, (opponent, rating), root_key
            self._moves, self._clock_id, shared = [], None, 0
        else:
            self.send_line("force")
            shared = 0
            while shared < min(len(self._moves), len(texts)) and (
                self._moves[shared] == texts[shared]
            ):
                shared += 1
            back = len(self._moves) - shared
            for _ in range(back // 2):
                self.send_line("remove")
            if back % 2:
                self.send_line("undo")
        position = root.copy(stack=False)
        for move in stack[:shared]:
            position.push(move)
        for move in stack[shared:]:
            self.send_line(self._move_text(position, move))
            position.push(move)
        self._moves = texts

    def _send_opponent(self, opponent: Opponent, rating: int | None) -> None:
        if opponent.name is not None and self.features.get("name") == 1:
            title = f"{opponent.title} " if opponent.title else ""
            self.send_line(f"name {title}{opponent.name}")
        if opponent.rating is not None and rating is not None:
            self.send_line(f"rating {rating} {opponent.rating}")
        if opponent.is_engine:
            self.send_line("computer")

    def send_limits(self, board: Any, limit: Limit) -> None:
        """``level``/``st``/``sd``/``time``/``otim`` for ``limit``.

        :raises: :exc:`EngineError` for node and mate limits, which XBoard cannot express.
        """
        if limit.nodes is not None or limit.mate is not None:
            raise EngineError("XBoard engines cannot be limited by nodes or mate distance")
        turn = bool(board.turn)
        clock = limit.white_clock if turn else limit.black_clock
        other = limit.black_clock if turn else limit.white_clock
        if clock is not None and (limit.clock_id is None or limit.clock_id != self._clock_id):
            increment = (limit.white_inc if turn else limit.black_inc) or 0
            moves = limit.remaining_moves or 0
            self.send_line(f"level {moves} {_clock_text(clock)} {_seconds_text(increment)}")
            self._clock_id = limit.clock_id
        if limit.time is not None:
            self.send_line(f"st {_seconds_text(limit.time)}")
        if limit.depth is not None:
            self.send_line(f"sd {limit.depth}")
        if clock is not None:
            self.send_line(f"time {max(0, round(clock * 100))}")
        if other is not None:
            self.send_line(f"otim {max(0, round(other * 100))}")

    def send_root_moves(self, board: Any, root_moves: list[Any] | None) -> None:
        if root_moves is None:
            return
        if self.features.get("exclude") != 1:
            raise EngineError(f"engine {self.describe()} cannot restrict root moves (no exclude)")
        self.send_line("exclude all")
        for move in root_moves:
            self.send_line(f"include {move.uci()}")

    # ---- the interface ---------------------------------------------------------------------

    async def initialize(self) -> None:
        await self.communicate(_Initialize)

    async def ping(self) -> None:
        self._check_initialized()
        await self.communicate(_Ping)

    async def send_opponent_information(
        self, *, opponent: Opponent | None = None, engine_rating: int | None = None
    ) -> None:
        await super().send_opponent_information(opponent=opponent)
        self._engine_rating = engine_rating

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
        moves, chosen = self._search_request(root_moves, opponent)
        target = self._call_config(options)
        request = (board, limit, game, info, ponder, draw_offered, moves, target, chosen)

        def factory(engine: Protocol) -> BaseCommand[PlayResult]:
            return _Play(engine, *request)

        return await self.communicate(factory)

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
        moves, opponent = self._search_request(root_moves, None)
        if multipv is not None and multipv > 1:
            raise EngineError("XBoard engines analyse one line only (multipv)")
        if limit is not None and (limit.nodes is not None or limit.mate is not None):
            raise EngineError("XBoard analyses cannot be limited by nodes or mate distance")
        target = self._call_config(options)
        request = (board, limit, game, info, moves, target, opponent)

        def factory(engine: Protocol) -> BaseCommand[AnalysisResult]:
            return _Analysis(engine, *request)

        return await self.communicate(factory)

    async def send_game_result(
        self,
        board: Any,
        winner: bool | None = None,
        game_ending: str | None = None,
        game_complete: bool = True,
    ) -> None:
        check_game_ending(game_ending)
        self._check_initialized()
        outcome = board.outcome(claim_draw=True) if game_complete else None
        if game_complete and winner is None and outcome is not None:
            winner = outcome.winner
        if not game_complete:
            result = "*"
        elif winner is None:
            result = "1/2-1/2"
        else:
            result = "1-0" if winner else "0-1"
        ending = game_ending
        if ending is None and outcome is not None:
            name = outcome.termination.name
            if name == "CHECKMATE":
                ending = "White mates" if outcome.winner else "Black mates"
            else:
                ending = _TERMINATIONS.get(name)
        line = f"result {result}" + (f" {{{ending}}}" if ending else "")
        opponent = self._opponent

        def factory(engine: Protocol) -> BaseCommand[None]:
            return _Result(engine, board, opponent, line)

        await self.communicate(factory)


# ---- the commands -----------------------------------------------------------------------------


class _XBoardCommand(BaseCommand[Any]):
    engine: XBoardProtocol

    async def pong(self, number: int, on_line: Any = None) -> None:
        """Waits for ``pong number`` (other lines go to ``on_line``)."""
        expected = f"pong {number}"
        while True:
            event = await self.receive()
            if isinstance(event, str):
                if event.strip() == expected:
                    return
                if on_line is not None:
                    on_line(event)

    async def ping(self, on_line: Any = None) -> None:
        if self.engine.features.get("ping") == 1:
            number = self.engine.next_ping()
            self.engine.send_line(f"ping {number}")
            await self.pong(number, on_line)


class _Initialize(_XBoardCommand):
    async def run(self) -> None:
        engine = self.engine
        engine.send_line("xboard")
        engine.send_line("protover 2")
        deadline: float | None = engine.loop.time() + FEATURE_WAIT
        while True:
            try:
                timeout = None if deadline is None else max(0.0, deadline - engine.loop.time())
                event = await self.receive(timeout)
            except asyncio.TimeoutError:
                break  # a protover 1 engine: no (more) features
            if not isinstance(event, str):
                continue
            line = event.strip()
            if line.startswith("Error"):
                raise EngineError(f"engine {engine.describe()} failed to start: {line}")
            if not line.startswith("feature "):
                continue
            done = self._features(line[len("feature ") :])
            if done == 1:
                break
            if done == 0:
                deadline = None
        if engine.features.get("memory") == 1:
            engine.options["memory"] = Option("memory", "spin", 16, 1, None, None)
        if engine.features.get("smp") == 1:
            engine.options["cores"] = Option("cores", "spin", 1, 1, None, None)
        engine.initialized = True
        self.resolve(None)

    def _features(self, text: str) -> int | None:
        engine = self.engine
        done = None
        for key, value in parse_features(text):
            if key == "option":
                try:
                    option = parse_xboard_option(value)
                except EngineError as error:
                    LOGGER.warning("%s: %s", engine.describe(), error)
                    continue
                engine.options[option.name] = option
            elif key == "egt":
                for kind in value.split(","):
                    name = f"egtpath {kind.strip()}"
                    engine.options[name] = Option(name, "path", None, None, None, None)
                engine.send_line("accepted egt")
            elif key == "done":
                done = int(value) if value.isdigit() else None
            else:
                engine.features[key] = int(value) if value.lstrip("-").isdigit() else value
                if key == "myname":
                    engine.id["name"] = value
        return done


class _Ping(_XBoardCommand):
    async def run(self) -> None:
        await self.ping()
        self.resolve(None)


class _Result(_XBoardCommand):
    def __init__(self, engine: Protocol, board: Any, opponent: Opponent | None, line: str):
        super().__init__(engine)
        self.board, self.opponent, self.line = board, opponent, line

    async def run(self) -> None:
        engine = self.engine
        engine.sync(self.board, engine._game, self.opponent)
        engine.send_line(self.line)
        engine._new_game_pending = True
        self.resolve(None)


class _Play(_XBoardCommand):
    def __init__(
        self,
        engine: Protocol,
        board: Any,
        limit: Limit,
        game: object,
        selector: Info,
        ponder: bool,
        draw_offered: bool,
        root_moves: list[Any] | None,
        target: UciOptionMap[ConfigValue],
        opponent: Opponent | None,
    ) -> None:
        super().__init__(engine)
        self.board, self.limit, self.game, self.selector = board, limit, game, selector
        self.ponder, self.draw_offered, self.root_moves = ponder, draw_offered, root_moves
        self.target, self.opponent = target, opponent

    async def run(self) -> None:
        engine, board = self.engine, self.board
        engine.sync(board, self.game, self.opponent)
        engine._apply(engine._changes(self.target))
        engine.send_limits(board, self.limit)
        engine.send_root_moves(board, self.root_moves)
        engine.send_line("post" if self.selector else "nopost")
        engine.send_line("hard" if self.ponder else "easy")
        if self.draw_offered and engine.features.get("draw", 1) == 1:
            engine.send_line("draw")
        engine.send_line("go")
        info: InfoDict = {}
        result = PlayResult(None, None, info)
        while True:
            event = await self.receive()
            if event is Signal.CANCEL:
                engine.send_line("?")
                continue
            if not isinstance(event, str):
                continue
            if self._line(event.strip(), result):
                break
        if result.move is not None:
            engine._moves = [*engine._moves, result.move.uci()]
        await self.ping(lambda line: self._line(line.strip(), result))
        self.resolve(result)

    def _line(self, line: str, result: PlayResult) -> bool:
        """Reads one line of a search; ``True`` once the search has ended."""
        word = line.split(" ")[0] if line else ""
        if word == "move":
            text = line[len("move ") :].strip()
            try:
                result.move = _parse_move(self.board, text)
            except ValueError as error:
                raise EngineError(
                    f"engine sent an illegal or unreadable move {text!r} in {self.board.fen()}"
                ) from error
            return True
        if word == "resign":
            result.resigned = True
            return True
        if line == "offer draw":
            result.draw_offered = True
        elif word in ("1-0", "0-1", "1/2-1/2"):
            return True
        elif word.startswith("Illegal"):
            raise EngineError(f"engine {self.engine.describe()} refused a move: {line}")
        elif word.startswith("Error"):
            # An unknown command (say ``post`` to an engine without thinking output) is
            # harmless: the search goes on.
            LOGGER.info("%s: %s", self.engine.describe(), line)
        elif line[:1].isdigit() and self.selector:
            try:
                result.info.update(parse_xboard_post(line, self.board, self.selector))
            except ValueError:
                pass
        return False


def _parse_move(board: Any, text: str) -> Any:
    try:
        return own_move(board.parse_uci(text))
    except ValueError:
        return own_move(board.parse_san(text))


class _Analysis(_XBoardCommand):
    def __init__(
        self,
        engine: Protocol,
        board: Any,
        limit: Limit | None,
        game: object,
        selector: Info,
        root_moves: list[Any] | None,
        target: UciOptionMap[ConfigValue],
        opponent: Opponent | None,
    ) -> None:
        super().__init__(engine)
        self.board, self.limit, self.game, self.selector = board, limit, game, selector
        self.root_moves, self.target, self.opponent = root_moves, target, opponent

    def _limit_reached(self, info: InfoDict) -> bool:
        limit = self.limit
        if limit is None:
            return False
        if limit.depth is not None and info.get("depth", 0) >= limit.depth:
            return True
        return limit.time is not None and info.get("time", 0.0) >= limit.time

    async def run(self) -> None:
        engine, board = self.engine, self.board
        engine.sync(board, self.game, self.opponent)
        engine._apply(engine._changes(self.target))
        engine.send_root_moves(board, self.root_moves)
        engine.send_line("post")
        engine.send_line("analyze")
        analysis = AnalysisResult(stop=self.cancel)
        self.resolve(analysis, background=True)
        deadline = None
        if self.limit is not None and self.limit.time is not None:
            deadline = engine.loop.time() + self.limit.time
        try:
            while True:
                timeout = None if deadline is None else max(0.0, deadline - engine.loop.time())
                try:
                    event = await self.receive(timeout)
                except asyncio.TimeoutError:
                    break
                if event is Signal.CANCEL:
                    break
                if not isinstance(event, str) or not event[:1].strip().isdigit():
                    continue
                try:
                    info = parse_xboard_post(event.strip(), board, self.selector)
                except ValueError:
                    continue
                analysis.post(info)
                if self._limit_reached(info):
                    break
            engine.send_line(".")
            engine.send_line("exit")
            await self.ping()
        except Exception as error:
            analysis.set_exception(error)
            raise
        pv = analysis.info.get("pv", [])
        analysis.set_finished(BestMove(pv[0] if pv else None, pv[1] if len(pv) > 1 else None))


async def popen_xboard(
    command: str | list[str], *, setpgrp: bool = False, **popen_args: Any
) -> tuple[asyncio.SubprocessTransport, XBoardProtocol]:
    """Starts and initialises an XBoard engine in the running event loop (see
    :meth:`Protocol.popen`).

    :raises: :exc:`FileNotFoundError` without such a program, :exc:`EngineError` if it does
        not introduce itself.
    """
    return await XBoardProtocol.popen_initialized(command, setpgrp=setpgrp, **popen_args)
