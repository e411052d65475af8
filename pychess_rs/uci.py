"""The UCI protocol: what chess GUIs and match runners speak to the engine.

Run it as ``pychess-rs uci``, ``python -m pychess_rs uci`` or ``pychess-rs-uci``. In code,
:class:`UciSession` takes the streams, so tests drive it with ``io.BytesIO``/``io.StringIO``::

    >>> import io
    >>> out = io.StringIO()
    >>> UciSession(io.StringIO("isready\\nposition startpos moves e2e4\\ngo depth 1\\n"),
    ...            out).run()
    0
    >>> out.getvalue().splitlines()[0]
    'readyok'

The reader (the thread calling :meth:`UciSession.run`) keeps answering while a search runs
on its own thread: ``isready``, ``stop`` and ``ponderhit`` take effect at once. Every line
goes out whole and flushed, under one lock, whichever thread writes it. A bad command is
answered with ``info string ...`` and changes nothing; stdout carries protocol only.

Chess rules stay in the core: positions and moves are read with the :class:`Board` API
(``UCI_Chess960`` picks the castling notation: king takes rook when on, ``e1g1`` when off).

Standard chess is evaluated by the network built into the engine. ``EvalFile`` names another
network file (the engine's ``PCNN`` format, written by ``pychess-nnue-train`` or
``tools/nnue_train.py``); a file that cannot be loaded is answered with ``info string`` and
the session keeps the built-in network. ``Use NNUE`` off evaluates by hand. The strength
levels (``UCI_LimitStrength``, ``Skill Level`` below 20) always evaluate by hand: they are
calibrated on the hand-written evaluation.

``UCI_Variant`` (a combo, Fairy-Stockfish's names: ``chess``, ``3check``, ``antichess``,
``atomic``, ``crazyhouse``, ``giveaway``, ``horde``, ``kingofthehill``, ``racingkings``,
``suicide``) plays a variant: ``position startpos|fen ... moves ...`` is then read with the
variant's rules by the core's variant board (drops ``P@e4`` in crazyhouse; a move that is not
legal is answered with ``info string`` and leaves the position as it was), and ``go``
runs the engine's variant search (one thread, no book, no tablebases; a variant's win or
loss is a ``score mate``). Changing the variant starts its initial position::

    >>> out = io.StringIO()
    >>> UciSession(io.StringIO("setoption name UCI_Variant value kingofthehill\\n"
    ...                        "position fen 8/8/8/8/8/3K4/8/7k w - - 0 1\\ngo depth 3\\n"),
    ...            out).run()
    0
    >>> out.getvalue().splitlines()[-1] in ("bestmove d3d4", "bestmove d3e4")
    True

With ``OwnBook`` on and a ``BookFile`` set, ``go`` is answered from the Polyglot book when the
position is in it: ``info string book move e2e4`` and the ``bestmove`` at once, no search. The
move is chosen by weight with ``BookSeed`` mixed with the position's key (the same position
and seed always give the same move). ``go ponder``, ``go infinite`` and ``go searchmoves``
search as usual, as they must not answer before ``stop`` or may not play any book move.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
from collections.abc import Iterable, Sequence
from typing import IO, TYPE_CHECKING, Any, Callable, Union

from ._book import EngineBook
from ._core import (
    BUILTIN_NETWORK,
    Board,
    EngineOptionError,
    Move,
    SearchControl,
    Searcher,
    SearchInfo,
    SearchResult,
    __version__,
    bench,
    check_uci_option,
    uci_options,
    variant_position,
)
from .variant import VARIANTS

if TYPE_CHECKING:
    from ._core import SearcherOptions

__all__ = ["UciSession", "bench_lines", "main"]

ENGINE_NAME = f"pychess-rs {__version__}"
ENGINE_AUTHOR = "the pychess-rs developers"

# The longest piece of client input quoted back in an `info string`.
_QUOTE_LIMIT = 60
# `go perft` runs on the reader thread; deeper counts would block it for minutes.
_MAX_PERFT_DEPTH = 7


# ---- options ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Spin:
    name: str
    key: str  # the Searcher option, or the session's own
    default: int
    low: int
    high: int


@dataclasses.dataclass(frozen=True)
class _Check:
    name: str
    key: str
    default: bool


@dataclasses.dataclass(frozen=True)
class _Text:
    name: str
    key: str
    default: str


@dataclasses.dataclass(frozen=True)
class _Button:
    name: str
    key: str


@dataclasses.dataclass(frozen=True)
class _Combo:
    name: str
    key: str
    default: str
    choices: tuple[str, ...]


_Option = Union[_Spin, _Check, _Text, _Button, _Combo]

#: ``UCI_Variant``'s values: Fairy-Stockfish's names (the boards' ``uci_variant``) of the
#: variants the core plays, chess first.
_VARIANTS = (
    "chess",
    *sorted(board.uci_variant for board in VARIANTS if board.uci_variant != "chess"),
)

# The options the session keeps for itself: the search never sees them.
_OWN_KEYS = frozenset(
    (
        "ponder",
        "chess960",
        "own_book",
        "book",
        "book_seed",
        "syzygy",
        "syzygy_probe_depth",
        "syzygy_50_move_rule",
        "eval_file",
        "use_nnue",
        "variant",
    )
)

#: The options that reach the engine as its tablebase setting (``Searcher.set_syzygy``).
_SYZYGY_KEYS = frozenset(("syzygy", "syzygy_probe_depth", "syzygy_50_move_rule"))


def _options() -> tuple[_Option, ...]:
    """The UCI options: the engine's table (names, defaults and ranges), in its order."""
    options: list[_Option] = []
    for name, kind, key, default, low, high in uci_options():
        if kind == "spin":
            assert isinstance(default, int) and low is not None and high is not None
            options.append(_Spin(name, key, default, low, high))
        elif kind == "check":
            options.append(_Check(name, key, bool(default)))
        elif kind == "string":
            options.append(_Text(name, key, str(default)))
        else:
            options.append(_Button(name, key))
    options.append(_Combo("UCI_Variant", "variant", "chess", _VARIANTS))
    return tuple(options)


def _option_line(option: _Option) -> str:
    if isinstance(option, _Spin):
        return (
            f"option name {option.name} type spin default {option.default}"
            f" min {option.low} max {option.high}"
        )
    if isinstance(option, _Check):
        return f"option name {option.name} type check default {str(option.default).lower()}"
    if isinstance(option, _Text):
        return f"option name {option.name} type string default {option.default or '<empty>'}"
    if isinstance(option, _Combo):
        choices = "".join(f" var {choice}" for choice in option.choices)
        return f"option name {option.name} type combo default {option.default}{choices}"
    return f"option name {option.name} type button"


def _quote(text: str) -> str:
    """Client text quoted for an error message, cut to a readable length."""
    if len(text) > _QUOTE_LIMIT:
        text = text[:_QUOTE_LIMIT] + "..."
    return repr(text)


def _printable(text: str) -> str:
    """``text`` as one line of printable ASCII: whatever the client sent (control bytes,
    undecodable input) and whatever the locale of stdout, an echo stays one valid line."""
    return "".join(c if " " <= c <= "~" else "?" for c in text)


class _CommandError(ValueError):
    """A malformed command; the message becomes an ``info string``."""


def _integer(keyword: str, text: str | None) -> int:
    if text is None:
        raise _CommandError(f"{keyword} needs a value")
    try:
        return int(text)
    except ValueError:
        raise _CommandError(f"{keyword} expects an integer, got {_quote(text)}") from None


_GO_VALUE_KEYWORDS = frozenset(
    ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime")
)
_GO_FLAG_KEYWORDS = frozenset(("infinite", "ponder"))
_GO_KEYWORDS = _GO_VALUE_KEYWORDS | _GO_FLAG_KEYWORDS | {"searchmoves", "perft"}


@dataclasses.dataclass
class _Go:
    values: dict[str, int] = dataclasses.field(default_factory=dict)
    flags: set[str] = dataclasses.field(default_factory=set)
    searchmoves: list[str] = dataclasses.field(default_factory=list)
    perft: int | None = None
    perft_asked: bool = False  # `go perft` with a bad depth counts nothing and searches nothing
    warnings: list[str] = dataclasses.field(default_factory=list)


def _parse_go(tokens: Sequence[str]) -> _Go:
    """Reads ``go`` arguments; a bad argument is skipped with a warning, as GUIs wait for a
    ``bestmove`` whatever they sent."""
    go = _Go()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token in _GO_VALUE_KEYWORDS or token == "perft":
            go.perft_asked |= token == "perft"
            value = tokens[i] if i < len(tokens) else None
            if value is not None and value not in _GO_KEYWORDS:
                i += 1
            else:
                value = None
            try:
                number = _integer(token, value)
            except _CommandError as e:
                go.warnings.append(f"go: {e}")
                continue
            if token == "perft":
                go.perft = number
            else:
                go.values[token] = number
        elif token in _GO_FLAG_KEYWORDS:
            go.flags.add(token)
        elif token == "searchmoves":
            while i < len(tokens) and tokens[i] not in _GO_KEYWORDS:
                go.searchmoves.append(tokens[i])
                i += 1
        else:
            go.warnings.append(f"go: unknown argument {_quote(token)} ignored")
    return go


def _format_info(info: SearchInfo) -> str:
    parts = [
        f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv}",
        f"score mate {info.mate}" if info.mate is not None else f"score cp {info.cp}",
    ]
    if info.lowerbound:
        parts.append("lowerbound")
    elif info.upperbound:
        parts.append("upperbound")
    parts.append(f"nodes {info.nodes} nps {info.nps} hashfull {info.hashfull} tbhits {info.tbhits}")
    parts.append(f"time {info.time_ms}")
    pv = info.pv
    if pv:
        parts.append("pv " + " ".join(m.uci() for m in pv))
    return " ".join(parts)


# ---- the session ----------------------------------------------------------------------------

Input = Union[IO[bytes], IO[str], Iterable[Union[bytes, str]]]


class UciSession:
    """One UCI conversation over ``stdin``/``stdout``.

    ``stdin`` yields lines as ``bytes`` (undecodable bytes become U+FFFD) or ``str``;
    ``stdout`` is a text stream. :meth:`run` returns 0 at ``quit`` or end of input, after
    stopping any search.
    """

    def __init__(self, stdin: Input, stdout: IO[str]) -> None:
        self._stdin = stdin
        self._stdout = stdout
        self._out_lock = threading.Lock()
        self._closed = False
        self._option_table = _options()
        self._values: dict[str, int | bool | str] = {}
        for option in self._option_table:
            if not isinstance(option, _Button):
                self._values[option.key] = option.default
        self._searcher = Searcher(**self._engine_options())
        self._book: EngineBook | None = None
        self._board = Board()
        # A variant game: its start FEN (None: the variant's start position), its moves,
        # and what the core says of the position after them.
        self._variant_game: tuple[str | None, list[str]] = (None, [])
        self._variant_state: dict[str, Any] | None = None
        self._thread: threading.Thread | None = None
        self._control: SearchControl | None = None
        self._handlers: dict[str, Callable[[list[str]], bool]] = {
            "uci": self._uci,
            "debug": lambda _args: True,
            "isready": self._isready,
            "setoption": self._setoption,
            "register": lambda _args: True,
            "ucinewgame": self._ucinewgame,
            "position": self._position,
            "go": self._go,
            "stop": self._stop,
            "ponderhit": self._ponderhit,
            "quit": lambda _args: False,
            "d": self._display,
            "bench": self._bench,
        }

    # -- output ------------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Writes one protocol line and flushes it (from any thread)."""
        with self._out_lock:
            if self._closed:
                return
            try:
                self._stdout.write(line + "\n")
                self._stdout.flush()
            except (OSError, ValueError):
                # The GUI went away: keep quiet and let the reader see the end of input.
                self._closed = True

    def _say(self, message: str) -> None:
        self.send(f"info string {_printable(message)}")

    # -- the loop ----------------------------------------------------------------------------

    def run(self) -> int:
        """Serves commands until ``quit`` or end of input; returns the exit status (0)."""
        try:
            for raw in self._stdin:
                line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
                if not self.handle(line):
                    break
                if self._closed:
                    break
        finally:
            self._finish_search()
        return 0

    def handle(self, line: str) -> bool:
        """Handles one command line; returns ``False`` at ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        handler = self._handlers.get(tokens[0])
        if handler is None:
            self._say(f"unknown command {_quote(line.strip())}")
            return True
        try:
            return handler(tokens[1:])
        except _CommandError as e:
            self._say(str(e))
        except Exception as e:  # a bug must not end the session: report it and serve on
            self._say(f"error in {tokens[0]}: {type(e).__name__}: {_quote(str(e))}")
        return True

    # -- searching ---------------------------------------------------------------------------

    def _searching(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _finish_search(self) -> None:
        """Stops the running search (it still prints its ``bestmove``) and waits for it."""
        thread, control = self._thread, self._control
        if control is not None:
            control.stop()
        if thread is not None:
            thread.join()
        self._thread = None
        self._control = None

    def _search(
        self, board: Board | None, arguments: dict[str, Any], control: SearchControl
    ) -> None:
        """The search thread: search, then ``bestmove``, whatever happens. ``board`` is
        ``None`` in a variant: the variant game is searched."""
        result: SearchResult | None = None
        try:
            if board is None:
                fen, moves = self._variant_game
                result = self._searcher.search_variant(
                    str(self._values["variant"]),
                    fen,
                    moves,
                    control=control,
                    on_info=self._send_info,
                    **arguments,
                )
            else:
                result = self._searcher.search(
                    board, control=control, on_info=self._send_info, **arguments
                )
        except Exception as e:
            self._say(f"search failed: {type(e).__name__}: {_quote(str(e))}")
        best: Move | str | None
        ponder: Move | str | None
        if result is not None:
            best, ponder = result.best, result.ponder
        elif board is None:
            legal = self._variant_state["legal_moves"] if self._variant_state else []
            best, ponder = (legal[0] if legal else None), None
        else:
            best, ponder = next(iter(board.legal_moves), None), None
        if isinstance(best, Move):
            best = best.uci()
        if isinstance(ponder, Move):
            ponder = ponder.uci()
        if best is None:
            self.send("bestmove 0000")
        elif ponder is not None:
            self.send(f"bestmove {best} ponder {ponder}")
        else:
            self.send(f"bestmove {best}")

    def _send_info(self, info: SearchInfo) -> None:
        self.send(_format_info(info))

    # -- commands ----------------------------------------------------------------------------

    def _uci(self, _args: list[str]) -> bool:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {ENGINE_AUTHOR}")
        for option in self._option_table:
            self.send(_option_line(option))
        self.send("uciok")
        return True

    def _isready(self, _args: list[str]) -> bool:
        self.send("readyok")
        return True

    def _stop(self, _args: list[str]) -> bool:
        if self._control is not None:
            self._control.stop()
        return True

    def _ponderhit(self, _args: list[str]) -> bool:
        if self._control is not None:
            self._control.ponderhit()
        return True

    def _ucinewgame(self, _args: list[str]) -> bool:
        self._finish_search()
        self._searcher.clear()
        self._board = Board(chess960=bool(self._values["chess960"]))
        self._set_variant_game(None, [])
        return True

    def _variant(self) -> str | None:
        """The variant played, or ``None`` for chess."""
        variant = str(self._values["variant"])
        return None if variant == "chess" else variant

    def _set_variant_game(self, fen: str | None, moves: list[str]) -> None:
        """Reads a variant game with the core's rules (raising :exc:`_CommandError` for a
        bad FEN or move) and makes it the position; nothing changes in chess."""
        variant = self._variant()
        if variant is None:
            self._variant_game, self._variant_state = (None, []), None
            return
        try:
            state = variant_position(variant, fen, moves)
        except ValueError as e:
            raise _CommandError(f"position: {e}") from None
        self._variant_game, self._variant_state = (fen, list(moves)), state

    def _engine_options(self) -> SearcherOptions:
        values = self._values
        return {
            "hash_mb": int(values["hash_mb"]),
            "threads": int(values["threads"]),
            "multipv": int(values["multipv"]),
            "move_overhead_ms": int(values["move_overhead_ms"]),
            "limit_elo": int(values["limit_elo"]) if values["limit_strength"] else None,
            "skill_level": int(values["skill_level"]),
        }

    def _setoption(self, args: list[str]) -> bool:
        lowered = [a.lower() for a in args]
        if not lowered or lowered[0] != "name":
            raise _CommandError("setoption: expected 'setoption name <name> [value <value>]'")
        split = lowered.index("value") if "value" in lowered else len(args)
        name = " ".join(args[1:split])
        value = " ".join(args[split + 1 :]) if split < len(args) else None
        option = next((o for o in self._option_table if o.name.lower() == name.lower()), None)
        if option is None:
            raise _CommandError(f"setoption: no such option {_quote(name)}")
        if isinstance(option, _Button):
            self._finish_search()
            self._searcher.clear()
            return True
        if isinstance(option, _Combo):
            choice = next((c for c in option.choices if value and c == value.lower()), None)
            if choice is None:
                raise _CommandError(
                    f"setoption: {option.name} expects one of {', '.join(option.choices)},"
                    f" got {_quote(value or '')}"
                )
            self._finish_search()
            if choice != self._values[option.key]:
                self._values[option.key] = choice
                self._searcher.clear()
                self._board = Board(chess960=bool(self._values["chess960"]))
                self._set_variant_game(None, [])
            return True
        if isinstance(option, _Text):
            # An empty string is sent as no value at all, or as `<empty>`.
            self._values[option.key] = "" if value in (None, "<empty>") else value
            if option.key == "book":
                self._open_book()
            if option.key == "syzygy":
                self._set_syzygy()
            if option.key == "eval_file":
                self._set_eval_file()
            return True
        if value is None:
            raise _CommandError(f"setoption: {option.name} needs a value")
        new: int | bool
        if isinstance(option, _Check):
            if value.lower() not in ("true", "false"):
                raise _CommandError(
                    f"setoption: {option.name} expects true or false, got {_quote(value)}"
                )
            new = value.lower() == "true"
        else:
            new = _integer(f"setoption: {option.name}", value)
            try:
                new = check_uci_option(option.name, new)
            except EngineOptionError as e:
                raise _CommandError(f"setoption: {e}") from None
        if option.key in _OWN_KEYS:
            self._values[option.key] = new
            if option.key == "chess960":
                self._board = self._board.copy()
                self._board.chess960 = bool(new)
            if option.key in _SYZYGY_KEYS:
                self._set_syzygy()
            if option.key == "use_nnue":
                self._set_eval_file()
            return True
        self._finish_search()
        previous = dict(self._values)
        self._values[option.key] = new
        try:
            self._searcher.configure(**self._engine_options())
        except ValueError as e:
            self._values = previous
            raise _CommandError(f"setoption: {e}") from None
        return True

    def _set_syzygy(self) -> None:
        """Hands ``SyzygyPath``, ``SyzygyProbeDepth`` and ``Syzygy50MoveRule`` to the engine
        (after the search in progress); a directory that cannot be read is reported and the
        session plays without tables."""
        self._finish_search()
        path = str(self._values["syzygy"])
        try:
            found = self._searcher.set_syzygy(
                path or None,
                int(self._values["syzygy_probe_depth"]),
                bool(self._values["syzygy_50_move_rule"]),
            )
        except OSError as e:
            self._searcher.set_syzygy(None)
            self._say(f"SyzygyPath {path!r} cannot be read ({e}); playing without tables")
            return
        if path:
            self._say(f"found {found} tablebase files in {path}")

    def _set_eval_file(self) -> None:
        """Hands ``EvalFile`` and ``Use NNUE`` to the engine (after the search in progress); a
        file that cannot be read or is not a network is reported and the session keeps the
        built-in network."""
        self._finish_search()
        path = str(self._values["eval_file"])
        use_nnue = bool(self._values["use_nnue"])
        try:
            shape = self._searcher.set_eval_file(path or None, use_nnue=use_nnue)
        except ValueError as e:
            shape = self._searcher.set_eval_file(None)
            self._values["eval_file"] = ""
            self._say(
                f"EvalFile {path!r} cannot be loaded ({e}); using the built-in network"
                f" {BUILTIN_NETWORK} ({shape})"
            )
            return
        if not use_nnue:
            self._say("using the hand-written evaluation")
        elif path:
            self._say(f"loaded network {path} ({shape})")
        else:
            self._say(f"using the built-in network {BUILTIN_NETWORK} ({shape})")

    def _open_book(self) -> None:
        """Opens ``BookFile`` (closing the book before); a book that cannot be read is
        reported and the session plays without one."""
        if self._book is not None:
            self._book.close()
            self._book = None
        path = str(self._values["book"])
        if not path:
            return
        try:
            self._book = EngineBook(path)
        except (OSError, ValueError) as e:
            self._say(f"BookFile {path!r} cannot be read ({e}); playing without a book")

    def _book_move(self, go: _Go, board: Board) -> Move | None:
        """The book's answer to ``go``, if ``OwnBook`` is on and the position is in the book.
        ``go ponder`` and ``go infinite`` wait for ``stop``, and ``searchmoves`` restricts the
        choice: those search."""
        book = self._book
        if not self._values["own_book"] or book is None:
            return None
        if go.flags & {"ponder", "infinite"} or go.searchmoves:
            return None
        try:
            return book.move(board, int(self._values["book_seed"]))
        except (OSError, ValueError) as e:
            self._say(f"book lookup failed ({e}); searching")
            return None

    def _position(self, args: list[str]) -> bool:
        if not args:
            raise _CommandError("position: expected 'startpos' or 'fen <fen>'")
        chess960 = bool(self._values["chess960"])
        moves_at = args.index("moves") if "moves" in args else len(args)
        if self._variant() is not None:
            return self._variant_position(args, moves_at)
        if args[0] == "startpos":
            if moves_at != 1:
                raise _CommandError(f"position: unexpected {_quote(' '.join(args[1:moves_at]))}")
            board = Board(chess960=chess960)
        elif args[0] == "fen":
            fen = " ".join(args[1:moves_at])
            try:
                board = Board(fen, chess960=chess960)
            except ValueError as e:
                raise _CommandError(f"position: bad FEN {_quote(fen)}: {e}") from None
            problem = board._position_error()
            if problem is not None:
                raise _CommandError(f"position: bad FEN {_quote(fen)}: illegal position: {problem}")
        else:
            raise _CommandError(f"position: expected 'startpos' or 'fen', got {_quote(args[0])}")
        for number, text in enumerate(args[moves_at + 1 :], start=1):
            if text == "0000":
                # A null move can leave the side not to move in check: no position to search.
                raise _CommandError(f"position: move {number} is a null move ('0000')")
            try:
                board.push_uci(text)
            except ValueError as e:
                raise _CommandError(
                    f"position: move {number} {_quote(text)} rejected: {e}"
                ) from None
        self._board = board
        return True

    def _variant_position(self, args: list[str], moves_at: int) -> bool:
        """``position`` in a variant: the FEN and moves read by the core's variant rules."""
        if args[0] == "startpos":
            if moves_at != 1:
                raise _CommandError(f"position: unexpected {_quote(' '.join(args[1:moves_at]))}")
            fen = None
        elif args[0] == "fen":
            fen = " ".join(args[1:moves_at])
        else:
            raise _CommandError(f"position: expected 'startpos' or 'fen', got {_quote(args[0])}")
        self._set_variant_game(fen, args[moves_at + 1 :])
        return True

    def _variant_board(self) -> Board:
        """The variant game as a :mod:`pychess_rs.variant` board (its moves were checked when
        the position was set)."""
        from .variant import find_variant

        fen, moves = self._variant_game
        board_class = find_variant(str(self._values["variant"]))
        board = board_class(fen) if fen is not None else board_class()
        for text in moves:
            board.push_uci(text)
        return board

    def _go_variant(self, go: _Go) -> bool:
        """``go`` in a variant: the engine's variant search on its own thread."""
        state = self._variant_state
        if state is None:
            self._set_variant_game(None, [])
            state = self._variant_state
        assert state is not None
        if go.perft_asked:
            if go.perft is not None:
                self._perft(self._variant_board(), go.perft)
            return True
        arguments = self._go_arguments(go, bool(state["turn"]))
        legal = state["legal_moves"]
        searchmoves = [text for text in go.searchmoves if text in legal]
        for text in go.searchmoves:
            if text not in legal:
                self._say(f"go: searchmoves {_quote(text)} ignored: not legal here")
        arguments["searchmoves"] = searchmoves or None
        control = SearchControl(pondering="ponder" in go.flags)
        thread = threading.Thread(
            target=self._search, args=(None, arguments, control), name="uci-search", daemon=True
        )
        self._control = control
        self._thread = thread
        thread.start()
        return True

    def _go_arguments(self, go: _Go, white: bool) -> dict[str, Any]:
        """The search limits ``go`` asks for, for the side to move (``white``)."""
        values = go.values
        time_left = values.get("wtime" if white else "btime")
        increment = values.get("winc" if white else "binc", 0)
        moves_to_go = values.get("movestogo")
        return {
            "depth": self._positive("depth", values.get("depth")),
            "nodes": self._positive("nodes", values.get("nodes")),
            "mate": self._positive("mate", values.get("mate")),
            # Some GUIs send a negative clock once the flag has fallen: no time left.
            "movetime": max(values["movetime"], 0) / 1000 if "movetime" in values else None,
            "time_left": max(time_left, 0) / 1000 if time_left is not None else None,
            "increment": max(increment, 0) / 1000,
            "moves_to_go": moves_to_go if moves_to_go is not None and moves_to_go > 0 else None,
            "infinite": "infinite" in go.flags,
        }

    def _go(self, args: list[str]) -> bool:
        go = _parse_go(args)
        for warning in go.warnings:
            self._say(warning)
        self._finish_search()
        if self._variant() is not None:
            return self._go_variant(go)
        board = self._board
        if go.perft_asked:
            if go.perft is not None:
                self._perft(board, go.perft)
            return True
        book_move = self._book_move(go, board)
        if book_move is not None:
            self._say(f"book move {book_move.uci()}")
            self.send(f"bestmove {book_move.uci()}")
            return True
        searchmoves = []
        for text in go.searchmoves:
            try:
                searchmoves.append(board.parse_uci(text))
            except ValueError as e:
                self._say(f"go: searchmoves {_quote(text)} ignored: {e}")
        arguments = self._go_arguments(go, board.turn)
        arguments["searchmoves"] = searchmoves or None
        control = SearchControl(pondering="ponder" in go.flags)
        thread = threading.Thread(
            target=self._search, args=(board, arguments, control), name="uci-search", daemon=True
        )
        self._control = control
        self._thread = thread
        thread.start()
        return True

    def _positive(self, keyword: str, value: int | None) -> int | None:
        """A ``go`` limit that must be positive; a bad one is dropped (the GUI still gets its
        ``bestmove``)."""
        if value is not None and value < 1:
            self._say(f"go: {keyword} must be at least 1, got {value}; ignored")
            return None
        return value

    def _perft(self, board: Board, depth: int) -> None:
        if not 1 <= depth <= _MAX_PERFT_DEPTH:
            raise _CommandError(f"go perft: depth must be in 1..{_MAX_PERFT_DEPTH}, got {depth}")
        divided = board.perft_divide(depth)
        for move, nodes in divided.items():
            self.send(f"{move}: {nodes}")
        self.send("")
        self.send(f"Nodes searched: {sum(divided.values())}")

    def _display(self, _args: list[str]) -> bool:
        state = self._variant_state
        if self._variant() is not None and state is not None:
            self.send(f"Variant: {state['variant']}")
            self.send(f"Fen: {state['fen']}")
            self.send(f"Legal moves: {' '.join(state['legal_moves'])}")
            if state["outcome"] is not None:
                self.send(f"Outcome: {' '.join(state['outcome'])}")
            return True
        for line in str(self._board).splitlines():
            self.send(line)
        self.send("")
        self.send(f"Fen: {self._board.fen()}")
        self.send(f"Key: {self._board.zobrist_hash():016X}")
        checkers = " ".join(sorted(_square_name(sq) for sq in self._board.checkers()))
        self.send(f"Checkers: {checkers}")
        return True

    def _bench(self, args: list[str]) -> bool:
        depth = _integer("bench", args[0]) if args else None
        self._finish_search()
        for line in bench_lines(depth):
            self.send(line)
        return True


def _square_name(square: int) -> str:
    return "abcdefgh"[square % 8] + str(square // 8 + 1)


def bench_lines(depth: int | None = None) -> list[str]:
    """Runs the engine's bench and returns its report lines (``Nodes searched: N`` is the
    search's signature).

    :raises: :exc:`ValueError` for a depth out of range.
    """
    try:
        nodes, seconds, nps = bench() if depth is None else bench(depth)
    except (ValueError, OverflowError) as error:  # the engine's range (rust/engine/src/bench.rs)
        raise _CommandError(f"bench: {error}") from None
    return [
        f"Total time (ms) : {round(seconds * 1000)}",
        f"Nodes searched  : {nodes}",
        f"Nodes/second    : {nps}",
    ]


def main() -> int:
    """The ``pychess-rs-uci`` command: a UCI engine on stdin/stdout."""
    try:
        return UciSession(sys.stdin.buffer, sys.stdout).run()
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
