"""The built-in engine, in process: python-chess's ``chess.engine`` shapes, no subprocess.

::

    >>> import pychess_rs as chess
    >>> engine = chess.Engine(hash_mb=16)
    >>> board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    >>> result = engine.play(board, chess.Limit(depth=4))
    >>> result.move
    Move.from_uci('a1a8')
    >>> info = engine.analyse(board, chess.Limit(depth=4))
    >>> info["score"].white()
    Mate(+1)

Variants (Fairy-Stockfish's ``UCI_Variant`` names or python-chess's aliases) are searched
from a FEN and UCI moves by :meth:`Engine.play_variant` and :meth:`Engine.analyse_variant`
(the rules are the core's; a variant win is a mate score)::

    >>> engine.play_variant("kingofthehill", "8/8/8/8/8/3K4/8/7k w - - 0 1", [],
    ...                     chess.Limit(depth=3)).move in (Move.from_uci("d3d4"),
    ...                                                   Move.from_uci("d3e4"))
    True
    >>> engine.play_variant("crazyhouse", "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1", [],
    ...                     chess.Limit(depth=3)).move.drop
    5

A board that says it plays a variant (``board.uci_variant`` other than ``"chess"``, as the
variant boards of ``pychess_rs.variant`` do) is searched by :meth:`Engine.play` and
:meth:`Engine.analyse` with the variant's rules, from its root position and move stack.

The search runs in Rust with the GIL released, so another thread may call
:meth:`Engine.stop` (or :meth:`Engine.ponderhit`) while :meth:`Engine.play` or
:meth:`Engine.analyse` runs. Scores follow python-chess: a :class:`PovScore` holds a
:class:`Cp` or :class:`Mate` from the side to move's point of view.
"""

from __future__ import annotations

import enum
import os
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Callable, Union, overload

from .._book import BookPath, EngineBook
from .._core import (
    Board,
    EngineOptionError,
    Move,
    SearchControl,
    Searcher,
    SearchInfo,
    check_uci_option,
    engine_option_ranges,
    variant_position,
)
from ._info import InfoDict
from ._limits import Limit, PlayResult
from ._score import Cp, Mate, MateGiven, PovScore, Score

if TYPE_CHECKING:
    from .._core import SearcherOptions

__all__ = [
    "Cp",
    "Engine",
    "EngineOptionError",
    "InfoDict",
    "Limit",
    "LimitError",
    "Mate",
    "MateGiven",
    "PlayResult",
    "PovScore",
    "Score",
]


class LimitError(ValueError):
    """A search limit of the wrong type or out of range."""


# ---- limits, infos, results: shared with the engine clients (._limits, ._info, ._score) ----


def _info_dict(info: SearchInfo, turn: bool) -> InfoDict:
    relative: Score = Mate(info.mate) if info.mate is not None else Cp(info.cp or 0)
    result = InfoDict(
        score=PovScore(relative, turn),
        pv=info.pv,
        depth=info.depth,
        seldepth=info.seldepth,
        multipv=info.multipv,
        nodes=info.nodes,
        nps=info.nps,
        hashfull=info.hashfull,
        tbhits=info.tbhits,
        time=info.time_ms / 1000,
    )
    if info.lowerbound:
        result["lowerbound"] = True
    if info.upperbound:
        result["upperbound"] = True
    return result


def _count(name: str, value: object, minimum: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitError(f"Limit.{name} must be an int, got {value!r}")
    if value < minimum:
        raise LimitError(f"Limit.{name} must be at least {minimum}, got {value!r}")
    return value


def _seconds(name: str, value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LimitError(f"Limit.{name} must be a number of seconds, got {value!r}")
    if not value >= 0 or value == float("inf"):  # also rejects NaN
        raise LimitError(f"Limit.{name} must be a finite number >= 0, got {value!r}")
    return float(value)


def _search_arguments(limit: Limit, turn: bool) -> dict[str, Any]:
    """The keyword arguments of :meth:`Searcher.search` for ``limit``, side ``turn`` to move."""
    if not isinstance(limit, Limit):
        raise LimitError(f"expected a Limit, got {limit!r}")
    depth = _count("depth", limit.depth, 1)
    nodes = _count("nodes", limit.nodes, 1)
    mate = _count("mate", limit.mate, 1)
    moves_to_go = _count("remaining_moves", limit.remaining_moves, 1)
    movetime = _seconds("time", limit.time)
    clocks = {
        name: _seconds(name, getattr(limit, name))
        for name in ("white_clock", "black_clock", "white_inc", "black_inc")
    }
    time_left = clocks["white_clock"] if turn else clocks["black_clock"]
    increment = (clocks["white_inc"] if turn else clocks["black_inc"]) or 0.0
    arguments: dict[str, Any] = {
        "depth": depth,
        "nodes": nodes,
        "mate": mate,
        "movetime": movetime,
        "time_left": time_left,
        "increment": increment,
        "moves_to_go": moves_to_go if time_left is not None else None,
    }
    # A clock given only for the side not to move limits nothing, as in python-chess.
    arguments["infinite"] = all(
        arguments[key] is None for key in ("depth", "nodes", "mate", "movetime", "time_left")
    )
    return arguments


# ---- the engine -------------------------------------------------------------------------------

OptionValue = Union[int, None]


class _Keep(enum.Enum):
    """``configure``'s "leave this option as it is"."""

    KEEP = 0


_KEEP = _Keep.KEEP


def option_ranges() -> dict[str, tuple[int, int]]:
    """``{option: (min, max)}`` for the keyword options of :class:`Engine` (the engine's
    own table, which also checks every value)."""
    return engine_option_ranges()


class Engine:
    """The pychess-rs engine in this process, with python-chess-shaped ``play`` and
    ``analyse``. Options (keyword arguments, also for :meth:`configure`):

    ``hash_mb`` (transposition table, MiB), ``threads``, ``multipv`` (lines ``analyse``
    reports), ``move_overhead_ms`` (kept in reserve per move under a clock), ``limit_elo``
    (``None`` for full strength) and ``skill_level`` (0..20).

    ``book`` is a Polyglot opening book (a path; ``None`` for none): :meth:`play` answers
    from it when the position is in it, without searching (the result's info is
    ``{"string": "book move e2e4"}``), as the UCI loop does with ``OwnBook``. The move is
    chosen by weight with ``book_seed`` mixed with the position's key, so the same position
    and seed give the same move. :meth:`analyse`, pondering and ``root_moves`` searches
    ignore the book.

    ``syzygy`` names the directories of Syzygy endgame tables (a path, or several joined with
    :data:`os.pathsep`; ``None`` for none), as the UCI option ``SyzygyPath``: a position the
    tables cover is answered by the move that keeps its result with the best distance to
    zeroing (no search), and the search takes the tables' result wherever it has at least
    ``syzygy_probe_depth`` plies left; ``syzygy_50_move_rule`` (default on) counts wins and
    losses decided only beyond the fifty-move rule as draws. ``tbhits`` in the infos counts
    the probes.

    Standard chess is evaluated by the network built into the engine. ``eval_file`` is
    another network file (the engine's ``PCNN`` format, written by ``pychess-nnue-train`` or
    ``tools/nnue_train.py``), as the UCI option ``EvalFile``; ``None`` keeps the built-in
    one. ``use_nnue=False`` evaluates by hand (UCI ``Use NNUE``). The strength levels
    (``limit_elo``, ``skill_level`` below 20) always evaluate by hand: they are calibrated on
    the hand-written evaluation.

    One search runs at a time; :meth:`stop` and :meth:`ponderhit` may be called from other
    threads.

    :raises: :exc:`EngineOptionError` for an unknown option or a bad value,
        :exc:`OSError` for a book or a tables directory that cannot be read,
        :exc:`EngineOptionError` for an ``eval_file`` that cannot be read or is not a network.
    """

    def __init__(
        self,
        *,
        book: BookPath | None = None,
        book_seed: int = 0,
        syzygy: str | os.PathLike[str] | None = None,
        syzygy_probe_depth: int = 1,
        syzygy_50_move_rule: bool = True,
        eval_file: str | os.PathLike[str] | None = None,
        use_nnue: bool = True,
        **options: OptionValue,
    ) -> None:
        self._searcher = Searcher(**options)
        self._eval_file = os.fspath(eval_file) if eval_file is not None else None
        self._use_nnue = bool(use_nnue)
        self._searcher.set_eval_file(self._eval_file, use_nnue=self._use_nnue)
        self._book_seed = _check_seed(book_seed)
        self._syzygy = os.fspath(syzygy) if syzygy is not None else None
        self._searcher.set_syzygy(self._syzygy, syzygy_probe_depth, syzygy_50_move_rule)
        self._book = EngineBook(book) if book is not None else None
        self._search_lock = threading.Lock()
        self._control_lock = threading.Lock()
        self._control: SearchControl | None = None

    @property
    def options(self) -> SearcherOptions:
        """The current search options (a copy); :attr:`book` and :attr:`book_seed` are apart."""
        return self._searcher.options

    @property
    def book(self) -> BookPath | None:
        """The opening book's path, or ``None``."""
        return self._book.path if self._book is not None else None

    @property
    def syzygy(self) -> str | None:
        """The Syzygy tables' directories, or ``None``."""
        return self._syzygy

    @property
    def eval_file(self) -> str | None:
        """The network file the engine evaluates with, or ``None`` (the built-in one)."""
        return self._eval_file

    @property
    def use_nnue(self) -> bool:
        """Whether standard chess is evaluated by a network (else by hand)."""
        return self._use_nnue

    @property
    def book_seed(self) -> int:
        """The seed of the book's choice."""
        return self._book_seed

    def configure(
        self,
        *,
        book: BookPath | _Keep | None = _KEEP,
        book_seed: int | _Keep = _KEEP,
        **options: OptionValue,
    ) -> None:
        """Changes some options; waits for a running search to end first. Nothing changes
        when one is refused.

        :raises: :exc:`EngineOptionError` for an unknown option or a bad value,
            :exc:`OSError` for a book that cannot be read.
        """
        seed = self._book_seed if book_seed is _KEEP else _check_seed(book_seed)
        with self._search_lock:
            opened = EngineBook(book) if book is not _KEEP and book is not None else None
            try:
                self._searcher.configure(**options)
            except BaseException:
                if opened is not None:
                    opened.close()
                raise
            if book is not _KEEP:
                if self._book is not None:
                    self._book.close()
                self._book = opened
            self._book_seed = seed

    def clear(self) -> None:
        """Forgets what earlier searches learnt (the hash table), as for a new game."""
        with self._search_lock:
            self._searcher.clear()

    def stop(self) -> None:
        """Ends the running search (if any) soon; it returns its best move so far."""
        with self._control_lock:
            if self._control is not None:
                self._control.stop()

    def ponderhit(self) -> None:
        """The opponent played the expected move: a ``pondering`` search's limits start now."""
        with self._control_lock:
            if self._control is not None:
                self._control.ponderhit()

    def play(
        self,
        board: Board,
        limit: Limit,
        *,
        root_moves: Iterable[Move] | None = None,
        pondering: bool = False,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> PlayResult:
        """Chooses a move for ``board`` (its move stack counts for repetitions).

        ``root_moves`` restricts the choice. With ``pondering``, the search starts as a ponder
        search: its limits start only at :meth:`ponderhit` (and it ends at :meth:`stop`).
        ``on_info`` receives each report, from the searching thread.

        With a ``book``, a position in the book is answered from it at once (unless
        ``pondering`` or ``root_moves``): ``info`` is then ``{"string": "book move ..."}``.

        :raises: :exc:`LimitError` for a bad limit, :exc:`IllegalMoveError` for an illegal
            root move, :exc:`RuntimeError` if the engine failed.
        """
        game = _variant_game(board)
        if game is not None:
            return self.play_variant(
                *game, limit, root_moves=root_moves, pondering=pondering, on_info=on_info
            )
        if self._book is not None and not pondering and root_moves is None:
            _check_board(board)
            _search_arguments(limit, board.turn)  # a bad limit is refused with a book too
            # Under the search lock, so that configure() cannot close the book meanwhile.
            with self._search_lock:
                book = self._book
                move = book.move(board, self._book_seed) if book is not None else None
            if move is not None:
                return PlayResult(move, None, InfoDict(string=f"book move {move.uci()}"))
        result, turn = self._search(board, limit, root_moves, pondering, on_info, None)
        lines = result.lines
        info = _info_dict(lines[0], turn) if lines else InfoDict()
        return PlayResult(result.best, result.ponder, info)

    @overload
    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: None = None,
        root_moves: Iterable[Move] | None = None,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> InfoDict: ...

    @overload
    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int,
        root_moves: Iterable[Move] | None = None,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> list[InfoDict]: ...

    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> InfoDict | list[InfoDict]:
        """Analyses ``board`` and returns the final report: one :class:`InfoDict`, or with
        ``multipv`` a list of up to that many, best first (empty without legal moves).

        :raises: :exc:`LimitError` for a bad limit, :exc:`EngineOptionError` for a bad
            ``multipv``, :exc:`IllegalMoveError` for an illegal root move.
        """
        game = _variant_game(board)
        if game is not None:
            if multipv is None:
                return self.analyse_variant(*game, limit, root_moves=root_moves, on_info=on_info)
            return self.analyse_variant(
                *game, limit, multipv=multipv, root_moves=root_moves, on_info=on_info
            )
        result, turn = self._search(board, limit, root_moves, False, on_info, multipv)
        infos = [_info_dict(line, turn) for line in result.lines]
        if multipv is None:
            return infos[0] if infos else InfoDict()
        return infos

    def play_variant(
        self,
        variant: str,
        fen: str | None,
        moves: Iterable[str | Move],
        limit: Limit,
        *,
        root_moves: Iterable[str | Move] | None = None,
        pondering: bool = False,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> PlayResult:
        """Chooses a move in a variant: ``variant`` (``"atomic"``, ``"crazyhouse"``, ...),
        the game from ``fen`` (the variant's start position when ``None``) after ``moves``
        (UCI text or :class:`Move`; they count for repetitions). As :meth:`play` otherwise,
        without the book; drops come back as moves with ``drop`` set.

        :raises: :exc:`ValueError` for an unknown variant, a bad FEN or an illegal move,
            :exc:`LimitError` for a bad limit.
        """
        result, turn = self._search_variant(
            variant, fen, moves, limit, root_moves, pondering, on_info, None
        )
        lines = result.lines
        info = _info_dict(lines[0], turn) if lines else InfoDict()
        return PlayResult(result.best, result.ponder, info)

    @overload
    def analyse_variant(
        self,
        variant: str,
        fen: str | None,
        moves: Iterable[str | Move],
        limit: Limit,
        *,
        multipv: None = None,
        root_moves: Iterable[str | Move] | None = None,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> InfoDict: ...

    @overload
    def analyse_variant(
        self,
        variant: str,
        fen: str | None,
        moves: Iterable[str | Move],
        limit: Limit,
        *,
        multipv: int,
        root_moves: Iterable[str | Move] | None = None,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> list[InfoDict]: ...

    def analyse_variant(
        self,
        variant: str,
        fen: str | None,
        moves: Iterable[str | Move],
        limit: Limit,
        *,
        multipv: int | None = None,
        root_moves: Iterable[str | Move] | None = None,
        on_info: Callable[[InfoDict], object] | None = None,
    ) -> InfoDict | list[InfoDict]:
        """:meth:`analyse` for a variant game (arguments as :meth:`play_variant`).

        :raises: :exc:`ValueError` for an unknown variant, a bad FEN or an illegal move,
            :exc:`LimitError` for a bad limit.
        """
        result, turn = self._search_variant(
            variant, fen, moves, limit, root_moves, False, on_info, multipv
        )
        infos = [_info_dict(line, turn) for line in result.lines]
        if multipv is None:
            return infos[0] if infos else InfoDict()
        return infos

    def _search_variant(
        self,
        variant: str,
        fen: str | None,
        moves: Iterable[str | Move],
        limit: Limit,
        root_moves: Iterable[str | Move] | None,
        pondering: bool,
        on_info: Callable[[InfoDict], object] | None,
        multipv: int | None,
    ) -> tuple[Any, bool]:
        texts = [m if isinstance(m, str) else m.uci() for m in moves]
        turn = bool(variant_position(variant, fen, texts)["turn"])
        arguments = _search_arguments(limit, turn)
        searchmoves = (
            [m if isinstance(m, str) else m.uci() for m in root_moves]
            if root_moves is not None
            else None
        )

        def run(control: SearchControl, report: Callable[[SearchInfo], None] | None) -> Any:
            return self._searcher.search_variant(
                variant,
                fen,
                texts,
                searchmoves=searchmoves,
                control=control,
                on_info=report,
                **arguments,
            )

        return self._run(run, turn, pondering, on_info, multipv), turn

    def _search(
        self,
        board: Board,
        limit: Limit,
        root_moves: Iterable[Move] | None,
        pondering: bool,
        on_info: Callable[[InfoDict], object] | None,
        multipv: int | None,
    ) -> tuple[Any, bool]:
        _check_board(board)
        turn = board.turn
        arguments = _search_arguments(limit, turn)
        searchmoves = list(root_moves) if root_moves is not None else None

        def run(control: SearchControl, report: Callable[[SearchInfo], None] | None) -> Any:
            return self._searcher.search(
                board, searchmoves=searchmoves, control=control, on_info=report, **arguments
            )

        return self._run(run, turn, pondering, on_info, multipv), turn

    def _run(
        self,
        run: Callable[[SearchControl, Callable[[SearchInfo], None] | None], Any],
        turn: bool,
        pondering: bool,
        on_info: Callable[[InfoDict], object] | None,
        multipv: int | None,
    ) -> Any:
        """One search by ``run`` under the engine's locks, ``multipv`` set for it alone."""

        def report(info: SearchInfo) -> None:
            if on_info is not None:
                on_info(_info_dict(info, turn))

        control = SearchControl(pondering=pondering)
        with self._search_lock:
            saved = self._searcher.options
            if multipv is not None:
                self._searcher.configure(multipv=multipv)
            with self._control_lock:
                self._control = control
            try:
                result = run(control, report if on_info is not None else None)
            finally:
                with self._control_lock:
                    self._control = None
                if self._searcher.options != saved:
                    self._searcher.configure(**saved)
        return result

    def close(self) -> None:
        """Stops a running search (python-chess engines must be closed; this one need not)."""
        self.stop()

    def quit(self) -> None:
        """The same as :meth:`close` (python-chess's name)."""
        self.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self._searcher.options.items())
        if self._book is not None:
            options += f", book={self._book.path!r}, book_seed={self._book_seed!r}"
        if self._syzygy is not None:
            options += f", syzygy={self._syzygy!r}"
        return f"Engine({options})"


def _variant_game(board: object) -> tuple[str, str | None, list[str]] | None:
    """``(variant, root FEN, UCI moves)`` of a board that plays a variant, else ``None``."""
    variant = getattr(board, "uci_variant", "chess")
    if not isinstance(variant, str) or variant == "chess":
        return None
    root: Any = board.root() if hasattr(board, "root") else board
    moves = [m.uci() for m in getattr(board, "move_stack", [])]
    return variant, str(root.fen()), moves


def _check_board(board: object) -> None:
    if not isinstance(board, Board):
        raise TypeError(f"expected a pychess_rs.Board, got {type(board).__name__}")


def _check_seed(seed: int) -> int:
    """``book_seed`` checked by the engine's option table (``BookSeed``: an int in range)."""
    return check_uci_option("book_seed", seed)
