"""Reading games from a text handle: :func:`read_game`, :func:`read_headers` and
:func:`skip_game`, python-chess's functions over the Rust reader.

One reader serves every visitor: the game's text is cut from the handle line by line exactly
where python-chess's ``read_game`` stops (so ``handle.tell()`` agrees with python-chess after
each game), and the Rust parser then drives the visitor (``_core.visit_pgn_game``), calling
the methods it overrides in python-chess's order, with its boards and ``SKIP`` answers. For a
plain :class:`GameBuilder` the parser builds the node tree itself.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any, Callable, TextIO

from .. import _core
from ._builders import GameBuilder, HeadersBuilder, SkipVisitor
from ._headers import Headers
from ._nodes import ChildNode, GameNode
from ._visitors import SKIP, BaseVisitor, ResultT

# The events the reader sends, as BaseVisitor's method names.
_EVENTS = (
    "begin_game",
    "begin_headers",
    "visit_header",
    "end_headers",
    "visit_board",
    "begin_parse_san",
    "parse_san",
    "visit_move",
    "visit_comment",
    "visit_nag",
    "begin_variation",
    "end_variation",
    "visit_result",
    "handle_error",
    "end_game",
)
# What the reader builds itself for a GameBuilder whose tree-building methods are its own.
_TREE_EVENTS = ("visit_move", "visit_comment", "visit_nag", "begin_variation", "end_variation")
_TREE_KEEPS = (*_TREE_EVENTS, "begin_game", "visit_board", "begin_parse_san", "parse_san")


class _Plan:
    """How the reader drives visitors of one class: the methods it calls (those the class
    overrides; ``handle_error`` always, as BaseVisitor's raises), and whether it builds a
    GameBuilder's tree itself."""

    __slots__ = ("headers_class", "methods", "tree", "tree_methods")

    def __init__(self, cls: type[Any]) -> None:
        self.methods = tuple(
            name
            for name in _EVENTS
            if name == "handle_error" or getattr(cls, name, None) is not getattr(BaseVisitor, name)
        )
        self.tree = issubclass(cls, GameBuilder) and all(
            getattr(cls, name) is getattr(GameBuilder, name) for name in _TREE_KEEPS
        )
        self.tree_methods = tuple(name for name in self.methods if name not in _TREE_EVENTS)
        # GameBuilder's own visit_header sets game.headers[tag]: the reader may do that.
        own_headers = getattr(cls, "visit_header", None) is GameBuilder.visit_header
        self.headers_class = Headers if own_headers else None


# Weak, so that visitor classes made on the fly can go.
_PLANS: weakref.WeakKeyDictionary[type[Any], _Plan] = weakref.WeakKeyDictionary()
_GAME_BUILDER: Any = GameBuilder


def read_game(
    handle: TextIO, *, Visitor: Callable[[], BaseVisitor[ResultT]] = _GAME_BUILDER
) -> ResultT | None:
    """Reads the next game from a text handle (python-chess's ``read_game``): a
    :class:`Game` by default, or the result of ``Visitor``; None at the end of the file."""
    visitor = Visitor()
    # The game's lines, read from the handle as python-chess reads them, in UTF-8.
    data = _core.read_game_text(handle)
    if data is None:
        return None
    cls = type(visitor)
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _Plan(cls)
    if plan.tree and visitor.Game.add_variation is GameNode.add_variation:  # type: ignore[attr-defined]
        # A game's nodes (each with its own list) would trigger the cyclic collector every few
        # hundred moves, to find nothing: it is paused while they are made.
        collecting = gc.isenabled()
        gc.disable()
        try:
            _core.visit_pgn_game(
                data, visitor, plan.tree_methods, SKIP, (ChildNode, plan.headers_class)
            )
        finally:
            if collecting:
                gc.enable()
    else:
        _core.visit_pgn_game(data, visitor, plan.methods, SKIP)
    return visitor.result()


def read_headers(handle: TextIO) -> Headers | None:
    """The headers of the next game (its movetext skipped), or None at the end."""
    return read_game(handle, Visitor=HeadersBuilder)


def skip_game(handle: TextIO) -> bool:
    """Skips a game; True if there was one."""
    return bool(read_game(handle, Visitor=SkipVisitor))
