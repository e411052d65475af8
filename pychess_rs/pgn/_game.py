"""python-chess's ``chess.pgn`` API over the Rust reader: games as node trees, headers,
visitors, exporters, ``read_game``/``read_headers``/``skip_game``.

Tokenising and SAN resolution happen in Rust (``_core.parse_game`` returns a game's events);
the node tree lives here. The text of a game is cut from the handle line by line exactly where
python-chess's ``read_game`` stops, so ``handle.tell()`` agrees with python-chess after each
game. Variants other than chess and Chess960 are reported in ``game.errors``, not played.
"""

from __future__ import annotations

import abc
import dataclasses
import enum
import gc
import itertools
import logging
import operator
import re
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any, Callable, Generic, Literal, TextIO, TypeVar, cast

from .. import _core
from .._core import Board, Move
from ..engine import Cp, Mate, PovScore, Score

if TYPE_CHECKING:  # imported where used: svg draws boards, reading PGN needs none of it
    from ..svg import Arrow

LOGGER = logging.getLogger(__name__)

NAG_NULL = 0
NAG_GOOD_MOVE = 1
NAG_MISTAKE = 2
NAG_BRILLIANT_MOVE = 3
NAG_BLUNDER = 4
NAG_SPECULATIVE_MOVE = 5
NAG_DUBIOUS_MOVE = 6
NAG_FORCED_MOVE = 7
NAG_SINGULAR_MOVE = 8
NAG_WORST_MOVE = 9
NAG_DRAWISH_POSITION = 10
NAG_QUIET_POSITION = 11
NAG_ACTIVE_POSITION = 12
NAG_UNCLEAR_POSITION = 13
NAG_WHITE_SLIGHT_ADVANTAGE = 14
NAG_BLACK_SLIGHT_ADVANTAGE = 15
NAG_WHITE_MODERATE_ADVANTAGE = 16
NAG_BLACK_MODERATE_ADVANTAGE = 17
NAG_WHITE_DECISIVE_ADVANTAGE = 18
NAG_BLACK_DECISIVE_ADVANTAGE = 19
NAG_WHITE_ZUGZWANG = 22
NAG_BLACK_ZUGZWANG = 23
NAG_WHITE_MODERATE_COUNTERPLAY = 132
NAG_BLACK_MODERATE_COUNTERPLAY = 133
NAG_WHITE_DECISIVE_COUNTERPLAY = 134
NAG_BLACK_DECISIVE_COUNTERPLAY = 135
NAG_WHITE_MODERATE_TIME_PRESSURE = 136
NAG_BLACK_MODERATE_TIME_PRESSURE = 137
NAG_WHITE_SEVERE_TIME_PRESSURE = 138
NAG_BLACK_SEVERE_TIME_PRESSURE = 139
NAG_NOVELTY = 146

TAG_ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
TAG_NAME_REGEX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+#=:-]*\Z")
CLOCK_REGEX = re.compile(
    r"(?P<prefix>\s?)\[%clk\s(?P<hours>\d+):(?P<minutes>\d+):(?P<seconds>\d+(?:\.\d*)?)\]"
    r"(?P<suffix>\s?)"
)
EMT_REGEX = re.compile(
    r"(?P<prefix>\s?)\[%emt\s(?P<hours>\d+):(?P<minutes>\d+):(?P<seconds>\d+(?:\.\d*)?)\]"
    r"(?P<suffix>\s?)"
)
EVAL_REGEX = re.compile(
    r"(?P<prefix>\s?)\[%eval\s(?:\#(?P<mate>[+-]?\d+)|(?P<cp>[+-]?(?:\d{0,10}\.\d{1,2}|\d{1,10}\.?)))"
    r"(?:,(?P<depth>\d+))?\](?P<suffix>\s?)"
)
# Square marks ([%csl Ga1]) and arrows ([%cal Ra1h8]), as lichess and ChessBase write them.
_ARROW = r"[RGYB][a-h][1-8](?:[a-h][1-8])?"
ARROWS_REGEX = re.compile(
    rf"(?P<prefix>\s?)\[%(?:csl|cal)\s(?P<arrows>{_ARROW}(?:,{_ARROW})*)\](?P<suffix>\s?)"
)
_STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
_CHESS960_NAMES = ("chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random")
_WILD_NAMES = tuple(f"wild/{n}" for n in ("0", "1", "2", "3", "4", "5", "6", "7", "8", "8a"))
_STANDARD_NAMES = ("standard", "chess", "classical", "normal", "illegal", "from position")


class SkipType(enum.Enum):
    SKIP = None


SKIP = SkipType.SKIP

ResultT = TypeVar("ResultT", covariant=True)
GameT = TypeVar("GameT", bound="Game")
HeadersT = TypeVar("HeadersT", bound="Headers")
MainlineMapT = TypeVar("MainlineMapT")


def _condense_affix(infix: str) -> Callable[[re.Match[str]], str]:
    def repl(match: re.Match[str]) -> str:
        if infix:
            return match.group("prefix") + infix + match.group("suffix")
        return match.group("prefix") and match.group("suffix")

    return repl


def _clock_text(tag: str, seconds: float) -> str:
    seconds = max(0, seconds)
    hours = int(seconds // 3600)
    minutes = int(seconds % 3600 // 60)
    rest = seconds % 3600 % 60
    part = f"{rest:06.3f}".rstrip("0").rstrip(".")
    return f"[%{tag} {hours:d}:{minutes:02d}:{part}]"


def _time_of(match: re.Match[str] | None) -> float | None:
    if match is None:
        return None
    hours, minutes = int(match.group("hours")), int(match.group("minutes"))
    return hours * 3600 + minutes * 60 + float(match.group("seconds"))


class TimeControlType(enum.Enum):
    UNKNOWN = 0
    UNLIMITED = 1
    STANDARD = 2
    RAPID = 3
    BLITZ = 4
    BULLET = 5


@dataclasses.dataclass
class TimeControlPart:
    moves: int = 0
    time: int = 0
    increment: float = 0
    delay: float = 0


@dataclasses.dataclass
class TimeControl:
    """A parsed ``TimeControl`` tag."""

    parts: list[TimeControlPart] = dataclasses.field(default_factory=list)
    type: TimeControlType = TimeControlType.UNKNOWN


def parse_time_control(time_control: str) -> TimeControl:
    """Parses a ``TimeControl`` tag (python-chess's classification: FIDE's plus bullet)."""
    tc = TimeControl()
    if not time_control or time_control.startswith("?"):
        return tc
    if time_control.startswith("-"):
        tc.type = TimeControlType.UNLIMITED
        return tc

    def part_of(text: str) -> TimeControlPart:
        part = TimeControlPart()
        moves_time, *bonus = text.split("+")
        if bonus:
            if bonus[0].lower().endswith("d"):
                part.delay = float(bonus[0][:-1])
            else:
                part.increment = float(bonus[0])
        moves, *time = moves_time.split("/")
        if time:
            part.moves = int(moves)
            part.time = int(time[0])
        else:
            part.time = int(moves)
        return part

    tc.parts = [part_of(p) for p in time_control.split(":")]
    if len(tc.parts) > 1 and any(p.moves == 0 for p in tc.parts[:-1]):
        raise ValueError("Only last part can be 'sudden death'.")
    total = tc.parts[0].time + 60 * tc.parts[0].increment
    if total < 3 * 60:
        tc.type = TimeControlType.BULLET
    elif total < 15 * 60:
        tc.type = TimeControlType.BLITZ
    elif total < 60 * 60:
        tc.type = TimeControlType.RAPID
    else:
        tc.type = TimeControlType.STANDARD
    return tc


_DEFAULT_ROSTER = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}


class Headers(MutableMapping[str, str]):
    """Tag pairs: the Seven Tag Roster first, in its order, then the others as added."""

    def __init__(
        self,
        data: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
        **kwargs: str,
    ) -> None:
        self._others: dict[str, str] = {}
        if data is None:
            # Every game read starts from these: copied, not set one by one.
            self._tag_roster: dict[str, str] = dict(_DEFAULT_ROSTER)
            if kwargs:
                self.update(**kwargs)
            return
        self._tag_roster = {}
        self.update(data, **kwargs)

    def is_chess960(self) -> bool:
        return self.get("Variant", "").lower() in _CHESS960_NAMES

    def is_wild(self) -> bool:
        return self.get("Variant", "").lower() in _WILD_NAMES

    def variant(self) -> type[Board]:
        """The board class for the ``Variant`` tag: only chess (and Chess960) is played."""
        if "Variant" not in self or self.is_chess960() or self.is_wild():
            return Board
        if self["Variant"].lower() in _STANDARD_NAMES:
            return Board
        raise ValueError(f"unsupported variant: {self['Variant']}")

    def board(self) -> Board:
        board_class = self.variant()
        board = board_class(self.get("FEN", _STARTING_FEN), chess960=self.is_chess960())
        board.chess960 = board.chess960 or _has_chess960_castling_rights(board)
        return board

    def __setitem__(self, key: str, value: str) -> None:
        if key in TAG_ROSTER:
            self._tag_roster[key] = value
        elif not TAG_NAME_REGEX.match(key):
            raise ValueError(f"invalid pgn header tag: {key!r}")
        elif "\n" in value or "\r" in value:
            raise ValueError(f"line break in pgn header {key}: {value!r}")
        else:
            self._others[key] = value

    def __getitem__(self, key: str) -> str:
        return self._tag_roster[key] if key in TAG_ROSTER else self._others[key]

    def __delitem__(self, key: str) -> None:
        if key in TAG_ROSTER:
            del self._tag_roster[key]
        else:
            del self._others[key]

    def __iter__(self) -> Iterator[str]:
        for key in TAG_ROSTER:
            if key in self._tag_roster:
                yield key
        yield from self._others

    def __len__(self) -> int:
        return len(self._tag_roster) + len(self._others)

    def copy(self: HeadersT) -> HeadersT:
        return type(self)(self)

    def __copy__(self: HeadersT) -> HeadersT:
        return self.copy()

    def __repr__(self) -> str:
        pairs = ", ".join(f"{key}={value!r}" for key, value in self.items())
        return f"{type(self).__name__}({pairs})"

    @classmethod
    def builder(cls: type[HeadersT]) -> HeadersBuilder[HeadersT]:
        return HeadersBuilder(Headers=cls)


def _has_chess960_castling_rights(board: Board) -> bool:
    """A castling right that standard chess cannot have (python-chess's test of the same
    name): a rook off the corners, or the king off the e-file."""
    rights = board.castling_rights
    if rights & ~0x8100000000000081:
        return True
    kings = board.kings
    if rights & 0xFF and not kings & board.occupied_co[True] & (1 << 4):
        return True
    return bool(rights & (0xFF << 56) and not kings & board.occupied_co[False] & (1 << 60))


class _AcceptFrame:
    def __init__(self, node: ChildNode, *, is_variation: bool = False, sidelines: bool = True):
        self.state = "pre"
        self.node = node
        self.is_variation = is_variation
        parent = node.parent
        self.variations: Iterator[ChildNode] = iter(
            itertools.islice(parent.variations, 1, None) if sidelines else []
        )
        self.in_variation = False


class GameNode(abc.ABC):
    """A node of a game tree: the root (:class:`Game`) or a move (:class:`ChildNode`)."""

    # Slots make the nodes a reader creates by the hundred thousand cheaper to make, hold and
    # collect; `__dict__` keeps python-chess's freedom to set any other attribute on a node.
    __slots__ = ("__dict__", "__weakref__", "_nags", "move", "parent", "variations")

    parent: GameNode | None
    move: Move | None
    variations: list[ChildNode]
    _nags: set[int]
    # Most nodes have no comments: the reader leaves these unset, and they read as "" from
    # the class until a node gets its own.
    comment: str = ""
    starting_comment: str = ""

    def __init__(self, *, comment: str = "") -> None:
        self.parent = None
        self.move = None
        self.variations = []
        self.comment = comment
        self.starting_comment = ""
        self.nags = set()

    @property
    def nags(self) -> set[int]:
        """The node's NAGs."""
        try:
            return self._nags
        except AttributeError:
            # The reader leaves the set out of the nodes it makes (most never get a NAG, and
            # an empty set per node was a third of the objects the cyclic collector walks):
            # such a node gets its empty set when first asked.
            self._nags = set()
            return self._nags

    @nags.setter
    def nags(self, nags: set[int]) -> None:
        self._nags = nags

    @abc.abstractmethod
    def board(self) -> Board: ...

    @abc.abstractmethod
    def ply(self) -> int: ...

    def turn(self) -> bool:
        return self.ply() % 2 == 0

    def root(self) -> GameNode:
        node = self
        while node.parent:
            node = node.parent
        return node

    def game(self) -> Game:
        root = self.root()
        if not isinstance(root, Game):
            raise TypeError("GameNode not rooted in Game")
        return root

    def end(self) -> GameNode:
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        return not self.variations

    def starts_variation(self) -> bool:
        if not self.parent or not self.parent.variations:
            return False
        return self.parent.variations[0] != self

    def is_mainline(self) -> bool:
        node = self
        while node.parent:
            parent = node.parent
            if not parent.variations or parent.variations[0] != node:
                return False
            node = parent
        return True

    def is_main_variation(self) -> bool:
        if not self.parent:
            return True
        return not self.parent.variations or self.parent.variations[0] == self

    def __getitem__(self, move: int | Move | GameNode) -> ChildNode:
        if isinstance(move, int):
            return self.variations[move]
        for variation in self.variations:
            if variation.move == move or variation == move:
                return variation
        raise KeyError(move)

    def __contains__(self, move: int | Move | GameNode) -> bool:
        try:
            self[move]
        except (KeyError, IndexError):
            return False
        return True

    def variation(self, move: int | Move | GameNode) -> ChildNode:
        return self[move]

    def has_variation(self, move: int | Move | GameNode) -> bool:
        return move in self

    def promote_to_main(self, move: int | Move | GameNode) -> None:
        variation = self[move]
        self.variations.remove(variation)
        self.variations.insert(0, variation)

    def promote(self, move: int | Move | GameNode) -> None:
        variation = self[move]
        i = self.variations.index(variation)
        if i > 0:
            self.variations[i - 1], self.variations[i] = self.variations[i], self.variations[i - 1]

    def demote(self, move: int | Move | GameNode) -> None:
        variation = self[move]
        i = self.variations.index(variation)
        if i < len(self.variations) - 1:
            self.variations[i + 1], self.variations[i] = self.variations[i], self.variations[i + 1]

    def remove_variation(self, move: int | Move | GameNode) -> None:
        self.variations.remove(self.variation(move))

    def add_variation(
        self,
        move: Move,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> ChildNode:
        return ChildNode(
            self, move, comment=comment, starting_comment=starting_comment, nags=nags
        )

    def add_main_variation(
        self, move: Move, *, comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.insert(0, self.variations.pop())
        return node

    def next(self) -> ChildNode | None:
        return self.variations[0] if self.variations else None

    def mainline(self) -> Mainline[ChildNode]:
        return Mainline(self, _same_node)

    def mainline_moves(self) -> Mainline[Move]:
        return Mainline(self, _MOVE_OF)

    def add_line(
        self,
        moves: Iterable[Move],
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> GameNode:
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move, starting_comment=starting_comment)
            starting_comment = ""
        if node.comment:
            node.comment += " " + comment
        else:
            node.comment = comment
        node.nags.update(nags)
        return node

    def eval(self) -> PovScore | None:
        match = EVAL_REGEX.search(self.comment)
        if not match:
            return None
        turn = self.turn()
        score: Score
        if match.group("mate"):
            mate = int(match.group("mate"))
            score = Mate(mate)
            if mate == 0:
                return PovScore(score, turn)
        else:
            score = Cp(round(float(match.group("cp")) * 100))
        return PovScore(score if turn else -score, turn)

    def eval_depth(self) -> int | None:
        match = EVAL_REGEX.search(self.comment)
        return int(match.group("depth")) if match and match.group("depth") else None

    def set_eval(self, score: PovScore | None, depth: int | None = None) -> None:
        text = ""
        if score is not None:
            suffix = "" if depth is None else f",{max(depth, 0):d}"
            cp = score.white().score()
            if cp is not None:
                text = f"[%eval {float(cp) / 100:.2f}{suffix}]"
            elif score.white().mate():
                text = f"[%eval #{score.white().mate()}{suffix}]"
        self.comment, found = EVAL_REGEX.subn(_condense_affix(text), self.comment, count=1)
        if not found and text:
            if self.comment and not self.comment.endswith(" "):
                self.comment += " "
            self.comment += text

    def arrows(self) -> list[Arrow]:
        """The square marks and arrows of every ``[%csl ...]``/``[%cal ...]`` in the comment."""
        from ..svg import Arrow

        return [
            Arrow.from_pgn(text)
            for match in ARROWS_REGEX.finditer(self.comment)
            for text in match.group("arrows").split(",")
        ]

    def set_arrows(self, arrows: Iterable[Arrow | tuple[int, int]]) -> None:
        """Replaces the comment's ``[%csl ...]``/``[%cal ...]`` annotations with *arrows*
        (marks first, then arrows, in front of the rest of the comment)."""
        from ..svg import Arrow

        marks: list[str] = []
        lines: list[str] = []
        for item in arrows:
            arrow = item if isinstance(item, Arrow) else Arrow(*item)
            (marks if arrow.tail == arrow.head else lines).append(arrow.pgn())
        self.comment = ARROWS_REGEX.sub(_condense_affix(""), self.comment)
        prefix = (f"[%csl {','.join(marks)}]" if marks else "") + (
            f"[%cal {','.join(lines)}]" if lines else ""
        )
        if prefix and self.comment and not self.comment.startswith((" ", "\n")):
            self.comment = f"{prefix} {self.comment}"
        else:
            self.comment = prefix + self.comment

    def clock(self) -> float | None:
        return _time_of(CLOCK_REGEX.search(self.comment))

    def set_clock(self, seconds: float | None) -> None:
        self._set_time(CLOCK_REGEX, "clk", seconds)

    def emt(self) -> float | None:
        return _time_of(EMT_REGEX.search(self.comment))

    def set_emt(self, seconds: float | None) -> None:
        self._set_time(EMT_REGEX, "emt", seconds)

    def _set_time(self, regex: re.Pattern[str], tag: str, seconds: float | None) -> None:
        text = "" if seconds is None else _clock_text(tag, seconds)
        self.comment, found = regex.subn(_condense_affix(text), self.comment, count=1)
        if not found and text:
            if self.comment and not self.comment.endswith((" ", "\n")):
                self.comment += " "
            self.comment += text

    @abc.abstractmethod
    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT: ...

    def accept_subgame(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        if visitor.begin_game() is not SKIP:
            game = self.game()
            board = self.board()
            dummy = Game.without_tag_roster()
            dummy.setup(board)
            visitor.begin_headers()
            for tagname, tagvalue in game.headers.items():
                if tagname not in dummy.headers:
                    visitor.visit_header(tagname, tagvalue)
            for tagname, tagvalue in dummy.headers.items():
                visitor.visit_header(tagname, tagvalue)
            if visitor.end_headers() is not SKIP:
                visitor.visit_board(board)
                if self.variations:
                    self.variations[0]._accept(board, visitor)
                visitor.visit_result(game.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def __str__(self) -> str:
        return self.accept(StringExporter(columns=None))


class ChildNode(GameNode):
    """A node reached by a move."""

    parent: GameNode
    move: Move

    def __init__(
        self,
        parent: GameNode,
        move: Move,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> None:
        # GameNode.__init__'s fields, set directly: this runs once per move read.
        self.parent = parent
        self.move = move
        self.variations = []
        self.comment = comment
        self.starting_comment = starting_comment
        self.nags = set(nags) if nags else set()
        parent.variations.append(self)

    def board(self) -> Board:
        stack: list[Move] = []
        node: GameNode = self
        while node.move is not None and node.parent is not None:
            stack.append(node.move)
            node = node.parent
        board = node.game().board()
        while stack:
            board.push(stack.pop())
        return board

    def ply(self) -> int:
        ply = 0
        node: GameNode = self
        while node.parent is not None:
            ply += 1
            node = node.parent
        return node.game().ply() + ply

    def san(self) -> str:
        return self.parent.board().san(self.move)

    def uci(self, *, chess960: bool | None = None) -> str:
        return self.parent.board().uci(self.move, chess960=chess960)

    def end(self) -> ChildNode:
        return cast(ChildNode, super().end())

    def _accept_node(self, parent_board: Board, visitor: BaseVisitor[Any]) -> None:
        if self.starting_comment:
            visitor.visit_comment(self.starting_comment)
        visitor.visit_move(parent_board, self.move)
        parent_board.push(self.move)
        visitor.visit_board(parent_board)
        parent_board.pop()
        for nag in sorted(self.nags):
            visitor.visit_nag(nag)
        if self.comment:
            visitor.visit_comment(self.comment)

    def _accept(
        self, parent_board: Board, visitor: BaseVisitor[Any], *, sidelines: bool = True
    ) -> None:
        stack = [_AcceptFrame(self, sidelines=sidelines)]
        while stack:
            top = stack[-1]
            if top.in_variation:
                top.in_variation = False
                visitor.end_variation()
            if top.state == "pre":
                top.node._accept_node(parent_board, visitor)
                top.state = "variations"
            elif top.state == "variations":
                variation = next(top.variations, None)
                if variation is None:
                    if top.node.variations:
                        parent_board.push(top.node.move)
                        stack.append(_AcceptFrame(top.node.variations[0], sidelines=True))
                        top.state = "post"
                    else:
                        top.state = "end"
                else:
                    if visitor.begin_variation() is not SKIP:
                        stack.append(_AcceptFrame(variation, sidelines=False, is_variation=True))
                    top.in_variation = True
            elif top.state == "post":
                parent_board.pop()
                top.state = "end"
            else:
                stack.pop()

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        self._accept(self.parent.board(), visitor, sidelines=False)
        return visitor.result()

    def __repr__(self) -> str:
        try:
            parent_board = self.parent.board()
        except ValueError:
            return f"<{type(self).__name__} at {id(self):#x} (dangling: {self.move})>"
        dots = "." if parent_board.turn else "..."
        san = parent_board.san(self.move)
        return (
            f"<{type(self).__name__} at {id(self):#x} "
            f"({parent_board.fullmove_number}{dots} {san} ...)>"
        )


class Game(GameNode):
    """The root node of a game, with its headers and the errors met reading it."""

    def __init__(
        self, headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None
    ) -> None:
        super().__init__()
        self.headers = Headers(headers)
        self.errors: list[Exception] = []

    def board(self) -> Board:
        return self.headers.board()

    def ply(self) -> int:
        return self.board().ply() if "FEN" in self.headers else 0

    def setup(self, board: Board | str) -> None:
        """Sets the starting position (the ``FEN``, ``SetUp`` and ``Variant`` tags)."""
        if isinstance(board, str):
            setup = Board(board)
            setup.chess960 = _has_chess960_castling_rights(setup)
        else:
            setup = board
        fen = setup.fen()
        if fen == _STARTING_FEN:
            self.headers.pop("FEN", None)
            self.headers.pop("SetUp", None)
        else:
            self.headers["FEN"] = fen
            self.headers["SetUp"] = "1"
        if setup.chess960:
            self.headers["Variant"] = "Chess960"
        else:
            self.headers.pop("Variant", None)

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        if visitor.begin_game() is not SKIP:
            for tagname, tagvalue in self.headers.items():
                visitor.visit_header(tagname, tagvalue)
            if visitor.end_headers() is not SKIP:
                board = self.board()
                visitor.visit_board(board)
                if self.comment:
                    visitor.visit_comment(self.comment)
                if self.variations:
                    self.variations[0]._accept(board, visitor)
                visitor.visit_result(self.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def time_control(self) -> TimeControl:
        return parse_time_control(self.headers.get("TimeControl", ""))

    @classmethod
    def from_board(cls: type[GameT], board: Board) -> GameT:
        """A game from the move stack of ``board`` (its root position, its moves, its
        result)."""
        game = cls()
        game.setup(board.root())
        node: GameNode = game
        for move in board.move_stack:
            node = node.add_variation(move)
        game.headers["Result"] = board.result()
        return game

    @classmethod
    def without_tag_roster(cls: type[GameT]) -> GameT:
        return cls(headers={})

    @classmethod
    def builder(cls: type[GameT]) -> GameBuilder[GameT]:
        return GameBuilder(Game=cls)

    def __repr__(self) -> str:
        errors = f", {len(self.errors)} errors" if self.errors else ""
        return (
            f"<{type(self).__name__} at {id(self):#x} ({self.headers.get('White', '?')!r} vs. "
            f"{self.headers.get('Black', '?')!r}, {self.headers.get('Date', '????.??.??')!r} at "
            f"{self.headers.get('Site', '?')!r}{errors})>"
        )


def _same_node(node: ChildNode) -> ChildNode:
    return node


# A C-level getter: mainline_moves runs it once per ply.
_MOVE_OF: Callable[[ChildNode], Move] = operator.attrgetter("move")


class Mainline(Generic[MainlineMapT]):
    """The main line from a node, mapped through ``f``."""

    def __init__(self, start: GameNode, f: Callable[[ChildNode], MainlineMapT]) -> None:
        self.start = start
        self.f = f

    def __bool__(self) -> bool:
        return bool(self.start.variations)

    def __iter__(self) -> Iterator[MainlineMapT]:
        node = self.start
        f = self.f
        while node.variations:
            node = node.variations[0]
            yield f(node)

    def __reversed__(self) -> Iterator[MainlineMapT]:
        node = self.start.end()
        while node.parent and node != self.start:
            yield self.f(cast(ChildNode, node))
            node = node.parent

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        node = self.start
        board = self.start.board()
        while node.variations:
            child = node.variations[0]
            child._accept_node(board, visitor)
            board.push(child.move)
            node = child
        return visitor.result()

    def __str__(self) -> str:
        return self.accept(StringExporter(columns=None))

    def __repr__(self) -> str:
        text = self.accept(StringExporter(columns=None, comments=False))
        return f"<Mainline at {id(self):#x} ({text})>"


class BaseVisitor(abc.ABC, Generic[ResultT]):
    """Receives the events of a game (reading it, or walking a tree with ``accept``)."""

    def begin_game(self) -> SkipType | None:
        return None

    def begin_headers(self) -> Headers | None:
        return None

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        pass

    def end_headers(self) -> SkipType | None:
        return None

    def begin_parse_san(self, board: Board, san: str) -> SkipType | None:
        return None

    def parse_san(self, board: Board, san: str) -> Move:
        return board.parse_san(san)

    def visit_move(self, board: Board, move: Move) -> None:
        pass

    def visit_board(self, board: Board) -> None:
        pass

    def visit_comment(self, comment: str) -> None:
        pass

    def visit_nag(self, nag: int) -> None:
        pass

    def begin_variation(self) -> SkipType | None:
        return None

    def end_variation(self) -> None:
        pass

    def visit_result(self, result: str) -> None:
        pass

    def end_game(self) -> None:
        pass

    @abc.abstractmethod
    def result(self) -> ResultT: ...

    def handle_error(self, error: Exception) -> None:
        raise error


# Defaults for the `Game=`/`Headers=`/`Visitor=` parameters (typed loosely, as the generic
# parameters they fill in).
_GAME_CLASS: Any = Game
_HEADERS_CLASS: Any = Headers


class GameBuilder(BaseVisitor[GameT]):
    """Builds a :class:`Game` (the default visitor of :func:`read_game`)."""

    def __init__(self, *, Game: type[GameT] = _GAME_CLASS) -> None:
        self.Game = Game

    def begin_game(self) -> None:
        self.game: GameT = self.Game()
        self.variation_stack: list[GameNode] = [self.game]
        self.starting_comment = ""
        self.in_variation = False

    def begin_headers(self) -> Headers:
        return self.game.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.game.headers[tagname] = tagvalue

    def visit_nag(self, nag: int) -> None:
        self.variation_stack[-1].nags.add(nag)

    def begin_variation(self) -> None:
        parent = self.variation_stack[-1].parent
        if parent is None:
            raise RuntimeError("begin_variation called, but root node on top of stack")
        self.variation_stack.append(parent)
        self.in_variation = False

    def end_variation(self) -> None:
        self.variation_stack.pop()

    def visit_result(self, result: str) -> None:
        if self.game.headers.get("Result", "*") == "*":
            self.game.headers["Result"] = result

    def visit_comment(self, comment: str) -> None:
        top = self.variation_stack[-1]
        if self.in_variation or (top.parent is None and top.is_end()):
            top.comment = " ".join(filter(None, [top.comment, comment]))
        else:
            self.starting_comment = " ".join(filter(None, [self.starting_comment, comment]))

    def visit_move(self, board: Board, move: Move) -> None:
        self.variation_stack[-1] = self.variation_stack[-1].add_variation(move)
        self.variation_stack[-1].starting_comment = self.starting_comment
        self.starting_comment = ""
        self.in_variation = True

    def handle_error(self, error: Exception) -> None:
        """Records the error in ``game.errors`` and logs it."""
        LOGGER.error("%s while parsing %r", error, self.game)
        self.game.errors.append(error)

    def result(self) -> GameT:
        return self.game


class HeadersBuilder(BaseVisitor[HeadersT]):
    """Collects the headers of a game and skips its movetext."""

    def __init__(self, *, Headers: type[HeadersT] = _HEADERS_CLASS) -> None:
        self.Headers = Headers

    def begin_headers(self) -> HeadersT:
        self.headers: HeadersT = self.Headers({})
        return self.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def end_headers(self) -> SkipType:
        return SKIP

    def result(self) -> HeadersT:
        return self.headers


class BoardBuilder(BaseVisitor[Board]):
    """The final position of the main line (the main line on its move stack)."""

    def begin_game(self) -> None:
        self.skip_variation_depth = 0

    def begin_variation(self) -> SkipType:
        self.skip_variation_depth += 1
        return SKIP

    def end_variation(self) -> None:
        self.skip_variation_depth = max(self.skip_variation_depth - 1, 0)

    def visit_board(self, board: Board) -> None:
        if not self.skip_variation_depth:
            self.board = board

    def result(self) -> Board:
        return self.board


class SkipVisitor(BaseVisitor[Literal[True]]):
    """Skips a game."""

    def begin_game(self) -> SkipType:
        return SKIP

    def end_headers(self) -> SkipType:
        return SKIP

    def begin_variation(self) -> SkipType:
        return SKIP

    def result(self) -> Literal[True]:
        return True


class StringExporterMixin:
    """PGN text out of visitor events, python-chess's layout byte for byte."""

    def __init__(
        self,
        *,
        columns: int | None = 80,
        headers: bool = True,
        comments: bool = True,
        variations: bool = True,
    ) -> None:
        self.columns = columns
        self.headers = headers
        self.comments = comments
        self.variations = variations
        self.found_headers = False
        self.force_movenumber = True
        self.lines: list[str] = []
        self.current_line = ""
        self.variation_depth = 0

    def flush_current_line(self) -> None:
        if self.current_line:
            self.lines.append(self.current_line.rstrip())
        self.current_line = ""

    def write_token(self, token: str) -> None:
        if self.columns is not None and self.columns - len(self.current_line) < len(token):
            self.flush_current_line()
        self.current_line += token

    def write_line(self, line: str = "") -> None:
        self.flush_current_line()
        self.lines.append(line.rstrip())

    def end_game(self) -> None:
        self.write_line()

    def begin_headers(self) -> None:
        self.found_headers = False

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        if self.headers:
            self.found_headers = True
            self.write_line(f'[{tagname} "{tagvalue}"]')

    def end_headers(self) -> None:
        if self.found_headers:
            self.write_line()

    def begin_variation(self) -> SkipType | None:
        self.variation_depth += 1
        if self.variations:
            self.write_token("( ")
            self.force_movenumber = True
            return None
        return SKIP

    def end_variation(self) -> None:
        self.variation_depth -= 1
        if self.variations:
            self.write_token(") ")
            self.force_movenumber = True

    def visit_comment(self, comment: str) -> None:
        if self.comments and (self.variations or not self.variation_depth):
            self.write_token("{ " + comment.replace("}", "").strip() + " } ")
            self.force_movenumber = True

    def visit_nag(self, nag: int) -> None:
        if self.comments and (self.variations or not self.variation_depth):
            self.write_token("$" + str(nag) + " ")

    def visit_move(self, board: Board, move: Move) -> None:
        if self.variations or not self.variation_depth:
            if board.turn:
                self.write_token(str(board.fullmove_number) + ". ")
            elif self.force_movenumber:
                self.write_token(str(board.fullmove_number) + "... ")
            self.write_token(board.san(move) + " ")
            self.force_movenumber = False

    def visit_result(self, result: str) -> None:
        self.write_token(result + " ")


class StringExporter(StringExporterMixin, BaseVisitor[str]):
    """Exports a game as a string (no newline at the end)."""

    def result(self) -> str:
        if self.current_line:
            return "\n".join(itertools.chain(self.lines, [self.current_line.rstrip()])).rstrip()
        return "\n".join(self.lines).rstrip()

    def __str__(self) -> str:
        return self.result()


class FileExporter(StringExporterMixin, BaseVisitor[int]):
    """Writes games to a text file, a blank line after each; returns characters written."""

    def __init__(
        self,
        handle: TextIO,
        *,
        columns: int | None = 80,
        headers: bool = True,
        comments: bool = True,
        variations: bool = True,
    ) -> None:
        super().__init__(columns=columns, headers=headers, comments=comments, variations=variations)
        self.handle = handle
        self.written = 0

    def begin_game(self) -> None:
        self.written = 0

    def flush_current_line(self) -> None:
        if self.current_line:
            self.written += self.handle.write(self.current_line.rstrip())
            self.written += self.handle.write("\n")
        self.current_line = ""

    def write_line(self, line: str = "") -> None:
        self.flush_current_line()
        self.written += self.handle.write(line.rstrip())
        self.written += self.handle.write("\n")

    def result(self) -> int:
        return self.written

    def __repr__(self) -> str:
        return f"<FileExporter at {id(self):#x}>"

    def __str__(self) -> str:
        return self.__repr__()


# ---- reading ---------------------------------------------------------------------------------


def _overrides(visitor: BaseVisitor[Any], name: str, *defaults: Callable[..., Any]) -> bool:
    method = getattr(type(visitor), name, None)
    return method not in defaults


_GAME_BUILDER: Any = GameBuilder


def read_game(
    handle: TextIO, *, Visitor: Callable[[], BaseVisitor[ResultT]] = _GAME_BUILDER
) -> ResultT | None:
    """Reads the next game from a text handle (python-chess's ``read_game``): a
    :class:`Game` by default, or the result of ``Visitor``; None at the end of the file."""
    # The game's lines, read from the handle as python-chess reads them, in UTF-8.
    data = _core.read_game_text(handle)
    if data is None:
        return None
    visitor = Visitor()
    if visitor.begin_game() is SKIP:
        visitor.end_game()
        return visitor.result()
    if type(visitor) is GameBuilder and visitor.Game.add_variation is GameNode.add_variation:
        # The default reader: the node tree is made in Rust during the parse. A game's nodes
        # (each with its own list and set) would trigger the cyclic collector every few hundred
        # moves, to find nothing: it is paused while they are made.
        collecting = gc.isenabled()
        gc.disable()
        try:
            headers = visitor.game.headers
            # Our own Headers take the parsed tags straight into their dictionaries.
            tags = (headers._tag_roster, headers._others) if type(headers) is Headers else None
            _core.build_game_tree(data, visitor, ChildNode, tags)
        finally:
            if collecting:
                gc.enable()
        visitor.end_game()
        return cast("ResultT", visitor.result())
    headers_only = isinstance(visitor, (HeadersBuilder, SkipVisitor))
    parsed = _core.parse_game(data, headers_only=headers_only)
    events = parsed[0] if parsed is not None else []
    _replay(visitor, events)
    visitor.end_game()
    return visitor.result()


def _replay(visitor: BaseVisitor[Any], events: list[tuple[Any, ...]]) -> None:
    """Drives ``visitor`` with the events of one game, as python-chess's parser would."""
    visitor.begin_headers()
    i = 0
    n = len(events)
    while i < n and events[i][0] == "header":
        visitor.visit_header(events[i][1], events[i][2])
        i += 1
    if visitor.end_headers() is SKIP:
        return
    # Errors about the tags (variant, FEN) come after end_headers, before the position.
    while i < n and events[i][0] == "error":
        visitor.handle_error(events[i][1])
        i += 1
    if i >= n or events[i][0] != "board":
        return
    if type(visitor) is GameBuilder:
        _build_tree(visitor, events, i + 1)
        return
    needs_board = (
        _overrides(visitor, "visit_board", BaseVisitor.visit_board)
        or _overrides(visitor, "begin_parse_san", BaseVisitor.begin_parse_san)
        or _overrides(visitor, "parse_san", BaseVisitor.parse_san)
        or _overrides(visitor, "visit_move", BaseVisitor.visit_move, GameBuilder.visit_move)
    )
    _, fen, chess960 = events[i]
    i += 1
    start = Board(fen, chess960=chess960)
    stack: list[Board] = [start]
    visitor.visit_board(start)
    skip_depth = 0
    for event in events[i:]:
        kind = event[0]
        if skip_depth:
            if kind == "begin":
                skip_depth += 1
            elif kind in ("end", "end_skip"):
                skip_depth -= 1
                if skip_depth == 0:
                    visitor.end_variation()
            continue
        if kind == "move":
            board = stack[-1]
            move = Move.from_uci(event[1])
            if needs_board:
                if visitor.begin_parse_san(board, event[2]) is not SKIP:
                    if _overrides(visitor, "parse_san", BaseVisitor.parse_san):
                        move = visitor.parse_san(board, event[2])
                    visitor.visit_move(board, move)
                board.push(move)
                visitor.visit_board(board)
            else:
                visitor.visit_move(board, move)
                board.push(move)
        elif kind == "comment":
            visitor.visit_comment(event[1])
        elif kind == "nag":
            visitor.visit_nag(event[1])
        elif kind == "begin":
            if visitor.begin_variation() is SKIP:
                skip_depth = 1
            else:
                board = stack[-1].copy()
                board.pop()
                stack.append(board)
        elif kind == "end":
            visitor.end_variation()
            if len(stack) > 1:
                stack.pop()
        elif kind == "end_skip":
            visitor.end_variation()
        elif kind == "result":
            visitor.visit_result(event[1])
        elif kind == "error":
            if needs_board and len(event) > 2:
                visitor.begin_parse_san(stack[-1], event[2])
            visitor.handle_error(event[1])
            if needs_board and len(event) > 2:
                visitor.visit_board(stack[-1])


_MOVES: dict[str, Move] = {}


def _move(uci: str) -> Move:
    """Moves are immutable values: one object per UCI string serves every node."""
    move = _MOVES.get(uci)
    if move is None:
        if len(_MOVES) > 50_000:
            _MOVES.clear()
        move = _MOVES[uci] = Move.from_uci(uci)
    return move


def _build_tree(builder: GameBuilder[Any], events: list[tuple[Any, ...]], start: int) -> None:
    """The events of a game into a tree, as ``GameBuilder``'s methods would build it (they are
    inlined here: this is the path every plain ``read_game`` takes)."""
    stack: list[GameNode] = builder.variation_stack
    # A Game subclass may make its own nodes (python-chess's documented way to extend the
    # tree): then every node is made by its parent's add_variation, as GameBuilder does.
    plain_nodes = getattr(builder.Game, "add_variation", None) is GameNode.add_variation
    for event in itertools.islice(events, start, None):
        kind = event[0]
        if kind == "move":
            if plain_nodes:
                node: GameNode = ChildNode(stack[-1], _move(event[1]))
            else:
                node = stack[-1].add_variation(_move(event[1]))
            node.starting_comment = builder.starting_comment
            stack[-1] = node
            builder.starting_comment = ""
            builder.in_variation = True
        elif kind == "comment":
            builder.visit_comment(event[1])
        elif kind == "nag":
            stack[-1].nags.add(event[1])
        elif kind == "begin":
            builder.begin_variation()
        elif kind == "end" or kind == "end_skip":
            stack.pop()
        elif kind == "result":
            builder.visit_result(event[1])
        elif kind == "error":
            builder.handle_error(event[1])


def read_headers(handle: TextIO) -> Headers | None:
    """The headers of the next game (its movetext skipped), or None at the end."""
    return read_game(handle, Visitor=HeadersBuilder)


def skip_game(handle: TextIO) -> bool:
    """Skips a game; True if there was one."""
    return bool(read_game(handle, Visitor=SkipVisitor))


__all__ = [
    "NAG_ACTIVE_POSITION",
    "NAG_BLACK_DECISIVE_ADVANTAGE",
    "NAG_BLACK_DECISIVE_COUNTERPLAY",
    "NAG_BLACK_MODERATE_ADVANTAGE",
    "NAG_BLACK_MODERATE_COUNTERPLAY",
    "NAG_BLACK_MODERATE_TIME_PRESSURE",
    "NAG_BLACK_SEVERE_TIME_PRESSURE",
    "NAG_BLACK_SLIGHT_ADVANTAGE",
    "NAG_BLACK_ZUGZWANG",
    "NAG_BLUNDER",
    "NAG_BRILLIANT_MOVE",
    "NAG_DRAWISH_POSITION",
    "NAG_DUBIOUS_MOVE",
    "NAG_FORCED_MOVE",
    "NAG_GOOD_MOVE",
    "NAG_MISTAKE",
    "NAG_NOVELTY",
    "NAG_NULL",
    "NAG_QUIET_POSITION",
    "NAG_SINGULAR_MOVE",
    "NAG_SPECULATIVE_MOVE",
    "NAG_UNCLEAR_POSITION",
    "NAG_WHITE_DECISIVE_ADVANTAGE",
    "NAG_WHITE_DECISIVE_COUNTERPLAY",
    "NAG_WHITE_MODERATE_ADVANTAGE",
    "NAG_WHITE_MODERATE_COUNTERPLAY",
    "NAG_WHITE_MODERATE_TIME_PRESSURE",
    "NAG_WHITE_SEVERE_TIME_PRESSURE",
    "NAG_WHITE_SLIGHT_ADVANTAGE",
    "NAG_WHITE_ZUGZWANG",
    "NAG_WORST_MOVE",
    "SKIP",
    "TAG_ROSTER",
    "BaseVisitor",
    "BoardBuilder",
    "ChildNode",
    "FileExporter",
    "Game",
    "GameBuilder",
    "GameNode",
    "Headers",
    "HeadersBuilder",
    "Mainline",
    "SkipType",
    "SkipVisitor",
    "StringExporter",
    "StringExporterMixin",
    "TimeControl",
    "TimeControlPart",
    "TimeControlType",
    "parse_time_control",
    "read_game",
    "read_headers",
    "skip_game",
]
