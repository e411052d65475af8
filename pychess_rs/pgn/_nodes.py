"""Game trees: :class:`GameNode`, the root :class:`Game` (headers, errors) and the move
nodes :class:`ChildNode`, with python-chess's navigation, editing, annotation helpers and
``accept`` (a tree walked through a visitor)."""

from __future__ import annotations

import abc
import itertools
import operator
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Callable, Generic, TypeVar, cast

from .._core import Board, Move
from ..engine import Cp, Mate, PovScore, Score
from ._annotations import (
    ARROWS_REGEX,
    CLOCK_REGEX,
    EMT_REGEX,
    EVAL_REGEX,
    _clock_text,
    _condense_affix,
    _time_of,
)
from ._headers import Headers, TimeControl, parse_time_control
from ._visitors import SKIP, BaseVisitor, ResultT, StringExporter

if TYPE_CHECKING:  # imported where used: svg draws boards, reading PGN needs none of it
    from ..svg import Arrow
    from ._builders import GameBuilder

GameT = TypeVar("GameT", bound="Game")
MainlineMapT = TypeVar("MainlineMapT")


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
    # collect (the reader fills them without a Python call, and a node gets a `__dict__` only
    # when something else is set on it, as python-chess allows).
    __slots__ = (
        "__dict__",
        "__weakref__",
        "_nags",
        "comment",
        "move",
        "parent",
        "starting_comment",
        "variations",
    )

    parent: GameNode | None
    move: Move | None
    variations: list[ChildNode]
    _nags: set[int]
    comment: str
    starting_comment: str

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
        return ChildNode(self, move, comment=comment, starting_comment=starting_comment, nags=nags)

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
            setup.chess960 = setup.has_chess960_castling_rights()
        else:
            setup = board
        fen = setup.fen()
        if fen == type(setup).starting_fen:
            self.headers.pop("FEN", None)
            self.headers.pop("SetUp", None)
        else:
            self.headers["FEN"] = fen
            self.headers["SetUp"] = "1"
        variant = type(setup).aliases[0]
        if variant == "Standard" and setup.chess960:
            self.headers["Variant"] = "Chess960"
        elif variant != "Standard":
            # A variant game names its variant and always gives its position.
            self.headers["Variant"] = variant
            self.headers["FEN"] = fen
            self.headers["SetUp"] = "1"
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
        from ._builders import GameBuilder

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
