"""Pictures of boards and pieces as SVG, with python-chess's ``chess.svg`` API.

::

    >>> import pychess_rs as chess
    >>> import pychess_rs.svg
    >>> board = chess.Board("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1")
    >>> picture = chess.svg.board(
    ...     board,
    ...     fill=dict.fromkeys(board.attacks(chess.E4), "#cc0000cc"),
    ...     arrows=[chess.svg.Arrow(chess.E4, chess.F6, color="#0000cccc")],
    ...     squares=chess.SquareSet(chess.BB_DARK_SQUARES & chess.BB_FILES[1]),
    ...     size=350,
    ... )
    >>> picture.startswith("<svg")
    True

The element ids and classes are python-chess's, so a stylesheet written for its pictures (the
``style`` argument) styles these too: squares are ``rect`` elements of class ``square light a1``
(plus ``lastmove``), the pieces are defined once in ``<defs>`` with ids like ``white-king`` and
placed with ``<use>``, the check mark has class ``check``, arrows class ``arrow`` and circles
class ``circle``. The piece shapes are this project's own drawings.

Boards are read only through their public API (``piece_map`` or ``piece_at``): any object with
those works, python-chess's boards included. Nothing here knows the rules of chess; the caller
says which move was last and which square is in check.
"""

from __future__ import annotations

import math
import operator
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from typing import Protocol, Union

from . import SquareSet
from .types import SQUARE_NAMES, Bitboard, Color, PieceType, Square, parse_square

__all__ = [
    "CHECK_GRADIENT",
    "DEFAULT_COLORS",
    "MARGIN",
    "PIECES",
    "SQUARE_SIZE",
    "XX",
    "Arrow",
    "SvgWrapper",
    "board",
    "piece",
]

SQUARE_SIZE = 45
"""The side of one square in the picture's own units (the viewBox)."""

MARGIN = 20
"""python-chess's constant of the same name (the margin its coordinate glyphs are drawn for),
kept for code that reads it; the margin drawn is 15 units wide, as in python-chess."""

_COORD_MARGIN = 15

DEFAULT_COLORS: dict[str, str] = {
    "square light": "#ffce9e",
    "square dark": "#d18b47",
    "square dark lastmove": "#aaa23b",
    "square light lastmove": "#cdd16a",
    "margin": "#212121",
    "inner border": "#111",
    "outer border": "#111",
    "coord": "#e5e5e5",
    "arrow green": "#15781B80",
    "arrow red": "#88202080",
    "arrow yellow": "#e68f00b3",
    "arrow blue": "#00308880",
}
"""The colours a ``colors`` argument may override, with python-chess's keys and values."""

# ---- the piece shapes -----------------------------------------------------------------------
#
# Each piece is drawn on a 45 x 45 square, standing on a base near y = 39. A shape is a pair
# (role, path): "body" parts are filled with the piece's colour and outlined in black; "line"
# parts are strokes inside a body (black on a white piece, white on a black one, so they stay
# visible); "dot" parts are small marks filled with that same contrasting colour.

_Shape = tuple[str, str]

_PAWN: list[_Shape] = [
    (
        "body",
        "M12 39h21v-3.5c0-2-1.5-3-3.5-3.5C27 29 25 25 25.5 21.5h2v-2.5h-2.3"
        "a6 6 0 1 0-5.4 0H17.5v2.5h2C20 25 18 29 15.5 32C13.5 32.5 12 33.5 12 35.5z",
    ),
]

_KNIGHT: list[_Shape] = [
    (
        "body",
        "M13 39h21v-3c0-7 2-13 0-19C32 11 28 8 24 7.5L22.5 4l-2.5 4.5"
        "C15 10 11 16 9.5 23l-.3 2.7c.3 2 2.6 3 4.3 1.8l3.2-2.4c1.7-.8 3.4-1.3 4.6-2.6"
        "c.3 3.5-2.7 5.8-5.2 8.5c-1.7 1.8-2.9 3.5-3.1 6z",
    ),
    ("line", "M13 36h21"),
    ("line", "M10.5 25.5l2.5-.5"),
    ("dot", "M15 15.5a1.6 1.6 0 1 0 3.2 0a1.6 1.6 0 1 0-3.2 0z"),
]

_BISHOP: list[_Shape] = [
    ("body", "M20 8.5a2.5 2.5 0 1 0 5 0a2.5 2.5 0 1 0-5 0z"),
    ("body", "M22.5 11C16 15.5 14 22.5 17 28.5h11c3-6 1-13-5.5-17.5z"),
    ("body", "M15.5 28.5h14v3.5h-14z"),
    ("body", "M10 39c3-3 8-2.5 12.5-5c4.5 2.5 9.5 2 12.5 5z"),
    ("line", "M22.5 17v6M19.5 20h6"),
]

_ROOK: list[_Shape] = [
    (
        "body",
        "M10 39h25v-4h-3.5l-1.3-16.5l2.8-3V8.5h-4.2v3h-3.7v-3h-5.2v3h-3.7v-3H12v7"
        "l2.8 3L13.5 35H10z",
    ),
    ("line", "M14.8 18.5h15.4M13.5 35h18M12 15.5h21"),
]

_QUEEN: list[_Shape] = [
    ("body", "M11.5 33L8 15.5l7 10L15 11l5 13.5L22.5 10l2.5 14.5L30 11l0 14.5l7-10L33.5 33z"),
    ("body", "M11.5 33c.5 1.8.5 3.3 0 6h22c-.5-2.7-.5-4.2 0-6z"),
    ("body", "M6 14a2 2 0 1 0 4 0a2 2 0 1 0-4 0z"),
    ("body", "M13 10a2 2 0 1 0 4 0a2 2 0 1 0-4 0z"),
    ("body", "M20.5 9a2 2 0 1 0 4 0a2 2 0 1 0-4 0z"),
    ("body", "M28 10a2 2 0 1 0 4 0a2 2 0 1 0-4 0z"),
    ("body", "M35 14a2 2 0 1 0 4 0a2 2 0 1 0-4 0z"),
    ("line", "M12 36h21"),
]

_KING: list[_Shape] = [
    ("body", "M21 3.5h3v3h3v3h-3v4h-3v-4h-3v-3h3z"),
    ("body", "M22.5 25.5c-2.5-4.5-4.5-8-4.5-9.5c0-1.8 2-3 4.5-3s4.5 1.2 4.5 3c0 1.5-2 5-4.5 9.5z"),
    ("body", "M12 34.5C5.5 29 7.5 19 15 20c3.5.5 6 3 7.5 6c1.5-3 4-5.5 7.5-6c7.5-1 9.5 9 3 14.5z"),
    ("body", "M12 34.5L11.5 39h22l-.5-4.5z"),
    ("line", "M12 34.5h21M22.5 26v8"),
]

_SHAPES: dict[PieceType, list[_Shape]] = {
    1: _PAWN,
    2: _KNIGHT,
    3: _BISHOP,
    4: _ROOK,
    5: _QUEEN,
    6: _KING,
}

_TYPE_NAMES: dict[PieceType, str] = {
    1: "pawn",
    2: "knight",
    3: "bishop",
    4: "rook",
    5: "queen",
    6: "king",
}

_SYMBOLS = "pnbrqk"


def _piece_element(piece_type: PieceType, color: Color) -> ET.Element:
    """The ``<g id="white-king">`` definition of one piece."""
    colour_name = "white" if color else "black"
    fill, contrast = ("#fff", "#000") if color else ("#000", "#fff")
    group = ET.Element(
        "g",
        {
            "id": f"{colour_name}-{_TYPE_NAMES[piece_type]}",
            "class": f"{colour_name} {_TYPE_NAMES[piece_type]}",
            "stroke-linecap": "round",
            "stroke-linejoin": "round",
        },
    )
    for role, path in _SHAPES[piece_type]:
        if role == "body":
            attrs = {"d": path, "fill": fill, "stroke": "#000", "stroke-width": "1.5"}
        elif role == "line":
            attrs = {"d": path, "fill": "none", "stroke": contrast, "stroke-width": "1.5"}
        else:
            attrs = {"d": path, "fill": contrast, "stroke": "none"}
        ET.SubElement(group, "path", attrs)
    return group


PIECES: dict[str, str] = {
    (symbol.upper() if color else symbol): ET.tostring(
        _piece_element(piece_type, color), encoding="unicode"
    )
    for color in (True, False)
    for piece_type, symbol in enumerate(_SYMBOLS, start=1)
}
"""Each piece's ``<g>`` definition as SVG text, by symbol (``"K"``, ``"n"``, ...)."""

XX = (
    '<g id="xx" stroke-linecap="round">'
    '<path d="M11 11L34 34M34 11L11 34" stroke="#fff" stroke-width="6.5" fill="none"/>'
    '<path d="M11 11L34 34M34 11L11 34" stroke="#000" stroke-width="3.5" fill="none"/>'
    "</g>"
)
"""The mark drawn on the ``squares`` argument's squares: a cross, outlined to show anywhere."""

CHECK_GRADIENT = (
    '<radialGradient id="check_gradient" r="0.5">'
    '<stop offset="0%" stop-color="#ff0000" stop-opacity="1.0"/>'
    '<stop offset="45%" stop-color="#e60000" stop-opacity="1.0"/>'
    '<stop offset="100%" stop-color="#9e0000" stop-opacity="0.0"/>'
    "</radialGradient>"
)
"""The red glow under a king in check."""


# ---- arrows ---------------------------------------------------------------------------------

_PGN_COLORS = {"G": "green", "R": "red", "Y": "yellow", "B": "blue"}


class Arrow:
    """An arrow to draw, from ``tail`` to ``head``; a circle if they are the same square."""

    tail: Square
    """The square the arrow starts on."""

    head: Square
    """The square the arrow points to."""

    color: str
    """A name from ``DEFAULT_COLORS`` (``"green"``, ``"red"``, ...) or any SVG colour."""

    def __init__(self, tail: Square, head: Square, *, color: str = "green") -> None:
        self.tail = tail
        self.head = head
        self.color = color

    def pgn(self) -> str:
        """The arrow as PGN's ``[%csl ...]``/``[%cal ...]`` annotations write it: ``Ga1``,
        ``Ya2h2``. Colours other than red, yellow and blue are written as green."""
        letter = next((k for k, v in _PGN_COLORS.items() if v == self.color), "G")
        if self.tail == self.head:
            return f"{letter}{SQUARE_NAMES[self.tail]}"
        return f"{letter}{SQUARE_NAMES[self.tail]}{SQUARE_NAMES[self.head]}"

    def __str__(self) -> str:
        return self.pgn()

    def __repr__(self) -> str:
        tail, head = SQUARE_NAMES[self.tail].upper(), SQUARE_NAMES[self.head].upper()
        return f"Arrow({tail}, {head}, color={self.color!r})"

    @classmethod
    def from_pgn(cls, pgn: str) -> Arrow:
        """Parses ``Ga1`` or ``Ya2h2`` (the colour letter may be left out: green).

        :raises: :exc:`ValueError` if the text is not an arrow.
        """
        color = "green"
        if pgn[:1] in _PGN_COLORS:
            color = _PGN_COLORS[pgn[0]]
            pgn = pgn[1:]
        if len(pgn) not in (2, 4):
            raise ValueError(f"invalid arrow: {pgn!r}")
        tail = parse_square(pgn[:2])
        head = parse_square(pgn[2:]) if len(pgn) > 2 else tail
        return cls(tail, head, color=color)


class SvgWrapper(str):
    """SVG text that Jupyter (and other rich displays) shows as a picture."""

    def _repr_svg_(self) -> SvgWrapper:
        return self

    def _repr_html_(self) -> SvgWrapper:
        return self


# ---- drawing helpers ------------------------------------------------------------------------


class _PieceLike(Protocol):
    @property
    def piece_type(self) -> PieceType: ...
    @property
    def color(self) -> Color: ...


class _HasPieceAt(Protocol):
    def piece_at(self, square: Square) -> _PieceLike | None: ...


class _HasMove(Protocol):
    @property
    def from_square(self) -> Square: ...
    @property
    def to_square(self) -> Square: ...


IntoSquareSet = Union[SquareSet, Bitboard, Iterable[Square]]


def _svg(viewbox: int, size: int | None) -> ET.Element:
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "xmlns:xlink": "http://www.w3.org/1999/xlink",
            "viewBox": f"0 0 {viewbox} {viewbox}",
        },
    )
    if size is not None:
        svg.set("width", str(size))
        svg.set("height", str(size))
    return svg


def _color(color: str) -> tuple[str, float]:
    """Splits ``#rrggbbaa``/``#rgba`` into an opaque colour and an opacity, which every SVG
    renderer understands (not all read the alpha digits)."""
    if color.startswith("#"):
        try:
            if len(color) == 5:
                return color[:4], int(color[4], 16) / 0xF
            if len(color) == 9:
                return color[:7], int(color[7:], 16) / 0xFF
        except ValueError:
            pass  # Not hex digits: left to the SVG renderer, as given.
    return color, 1.0


def _select_color(colors: Mapping[str, str], key: str) -> tuple[str, float]:
    return _color(colors.get(key, DEFAULT_COLORS[key]))


def _paint(fill: str, opacity: float, attribute: str = "fill") -> dict[str, str]:
    attrs = {attribute: fill}
    if opacity < 1.0:
        attrs["opacity"] = _num(opacity)
    return attrs


def _num(value: float) -> str:
    """A coordinate as short text: ``45`` rather than ``45.0``."""
    return str(int(value)) if float(value).is_integer() else f"{value:.3f}".rstrip("0")


def _check_square(square: object, what: str) -> Square:
    """The square as an int; anything integer-like (a NumPy integer) is one."""
    try:
        index = operator.index(square)  # type: ignore[arg-type]
    except TypeError:
        index = -1
    if not 0 <= index < 64:
        raise ValueError(f"{what} is not a square (0-63): {square!r}")
    return index


def _pieces_of(board: _HasPieceAt) -> dict[Square, tuple[PieceType, Color]]:
    """The board's pieces as ``{square: (piece type, colour)}``, read through its public API."""
    piece_map = getattr(board, "piece_map", None)
    if callable(piece_map):
        items = list(piece_map().items())
    else:
        items = [(sq, board.piece_at(sq)) for sq in range(64)]
    pieces = {}
    for square, piece in items:
        if piece is not None:
            pieces[_check_square(square, "a piece's square")] = (
                int(piece.piece_type),
                bool(piece.color),
            )
    return pieces


def _ascii(pieces: Mapping[Square, tuple[PieceType, Color]]) -> str:
    rows = []
    for rank in range(7, -1, -1):
        row = []
        for file in range(8):
            found = pieces.get(rank * 8 + file)
            if found is None:
                row.append(".")
            else:
                symbol = _SYMBOLS[found[0] - 1]
                row.append(symbol.upper() if found[1] else symbol)
        rows.append(" ".join(row))
    return "\n".join(rows)


def piece(piece: _PieceLike, size: int | None = None) -> str:
    """Draws one piece (anything with ``piece_type`` and ``color``) as an SVG picture.

    >>> import pychess_rs as chess
    >>> import pychess_rs.svg
    >>> 'id="white-rook"' in chess.svg.piece(chess.Piece.from_symbol("R"))
    True
    """
    svg = _svg(SQUARE_SIZE, size)
    svg.append(_piece_element(int(piece.piece_type), bool(piece.color)))
    return SvgWrapper(ET.tostring(svg, encoding="unicode"))


def board(
    board: _HasPieceAt | None = None,
    *,
    orientation: Color = True,
    lastmove: _HasMove | None = None,
    check: Square | None = None,
    arrows: Iterable[Arrow | tuple[Square, Square]] = (),
    fill: Mapping[Square, str] = {},
    squares: IntoSquareSet | None = None,
    size: int | None = None,
    coordinates: bool = True,
    colors: Mapping[str, str] = {},
    flipped: bool = False,
    borders: bool = False,
    style: str | None = None,
) -> str:
    """Draws a board as an SVG picture.

    :param board: what to draw the pieces of (a ``Board`` or anything with ``piece_map`` or
        ``piece_at``), or ``None`` for an empty board.
    :param orientation: the side at the bottom, ``chess.WHITE`` by default.
    :param lastmove: a move (anything with ``from_square`` and ``to_square``) whose squares
        are highlighted.
    :param check: a square to mark as a king in check.
    :param arrows: :class:`Arrow` objects or ``(tail, head)`` pairs; an arrow whose tail is its
        head is drawn as a circle.
    :param fill: squares to fill, with their colour (``#rrggbbaa`` for a transparent one).
    :param squares: squares (a ``SquareSet``, a mask or an iterable) to mark with a cross.
    :param size: the width and height in pixels; ``None`` leaves the size to the viewer.
    :param coordinates: ``False`` leaves out the margin with the files and ranks.
    :param colors: colours overriding :data:`DEFAULT_COLORS`, by the same keys.
    :param flipped: ``True`` turns the board around (python-chess's older spelling of
        *orientation*).
    :param borders: ``True`` draws a thin border around the board and around the margin.
    :param style: a CSS stylesheet put into the picture.
    :raises: :exc:`ValueError` for a square that is not one (outside 0-63).
    """
    orientation = bool(orientation) ^ bool(flipped)
    inner_border = 1 if borders and coordinates else 0
    outer_border = 1 if borders else 0
    margin = _COORD_MARGIN if coordinates else 0
    offset = outer_border + margin + inner_border
    full_size = 2 * offset + 8 * SQUARE_SIZE
    svg = _svg(full_size, size)

    marked = SquareSet(squares) if squares is not None else SquareSet()
    pieces = _pieces_of(board) if board is not None else {}
    if check is not None:
        check = _check_square(check, "check")
    last = (
        {
            _check_square(lastmove.from_square, "lastmove"),
            _check_square(lastmove.to_square, "lastmove"),
        }
        if lastmove
        else set()
    )
    arrow_list = [_arrow_parts(arrow) for arrow in arrows]

    if style:
        ET.SubElement(svg, "style").text = style

    if board is not None:
        # A text rendering for screen readers and for reading the file.
        ET.SubElement(ET.SubElement(svg, "desc"), "pre").text = _ascii(pieces)

    defs = ET.SubElement(svg, "defs")
    for kind in sorted(set(pieces.values()), key=lambda k: (not k[1], k[0])):
        defs.append(_piece_element(*kind))
    if marked:
        defs.append(ET.fromstring(XX))
    if check is not None:
        defs.append(ET.fromstring(CHECK_GRADIENT))

    def corner(square: Square) -> tuple[int, int]:
        file, rank = square & 7, square >> 3
        x = (file if orientation else 7 - file) * SQUARE_SIZE + offset
        y = (7 - rank if orientation else rank) * SQUARE_SIZE + offset
        return x, y

    def frame(inset: float, width: int, key: str) -> None:
        colour, opacity = _select_color(colors, key)
        side = full_size - 2 * inset
        attrs = {"x": _num(inset), "y": _num(inset), "width": _num(side), "height": _num(side)}
        attrs.update(fill="none", **{"stroke-width": str(width)})
        attrs.update(_paint(colour, opacity, "stroke"))
        ET.SubElement(svg, "rect", attrs)

    # Borders and the margin are strokes centred on their rectangle's edge.
    if outer_border:
        frame(outer_border / 2, outer_border, "outer border")
    if margin:
        frame(outer_border + margin / 2, margin, "margin")
    if inner_border:
        frame(outer_border + margin + inner_border / 2, inner_border, "inner border")

    if coordinates:
        colour, opacity = _select_color(colors, "coord")
        text_attrs = {
            "font-family": "DejaVu Sans, Verdana, Arial, sans-serif",
            "font-size": "11",
            "font-weight": "bold",
            "text-anchor": "middle",
            "class": "coord",
            **_paint(colour, opacity),
        }
        near = outer_border + margin / 2
        far = full_size - outer_border - margin / 2
        # The baseline sits a third of the font size below the centre to centre the glyphs.
        for i in range(8):
            x, _ = corner(i)
            _, y = corner(i * 8)
            for cx, cy, text in (
                (x + SQUARE_SIZE / 2, near, "abcdefgh"[i]),
                (x + SQUARE_SIZE / 2, far, "abcdefgh"[i]),
                (near, y + SQUARE_SIZE / 2, str(i + 1)),
                (far, y + SQUARE_SIZE / 2, str(i + 1)),
            ):
                attrs = {"x": _num(cx), "y": _num(cy + 4), **text_attrs}
                ET.SubElement(svg, "text", attrs).text = text

    for square in range(64):
        x, y = corner(square)
        shade = "light" if (square & 7) + (square >> 3) & 1 else "dark"
        classes = ["square", shade] + (["lastmove"] if square in last else [])
        colour, opacity = _select_color(colors, " ".join(classes))
        classes.append(SQUARE_NAMES[square])
        attrs = {
            "x": str(x),
            "y": str(y),
            "width": str(SQUARE_SIZE),
            "height": str(SQUARE_SIZE),
            "class": " ".join(classes),
            "stroke": "none",
            **_paint(colour, opacity),
        }
        ET.SubElement(svg, "rect", attrs)
        wanted = fill.get(square)
        if wanted is not None:
            colour, opacity = _color(wanted)
            attrs = {
                "x": str(x),
                "y": str(y),
                "width": str(SQUARE_SIZE),
                "height": str(SQUARE_SIZE),
                "stroke": "none",
                **_paint(colour, opacity),
            }
            ET.SubElement(svg, "rect", attrs)

    if check is not None:
        x, y = corner(check)
        attrs = {
            "x": str(x),
            "y": str(y),
            "width": str(SQUARE_SIZE),
            "height": str(SQUARE_SIZE),
            "class": "check",
            "fill": "url(#check_gradient)",
        }
        ET.SubElement(svg, "rect", attrs)

    for square in range(64):
        x, y = corner(square)
        found = pieces.get(square)
        if found is not None:
            href = f"#{'white' if found[1] else 'black'}-{_TYPE_NAMES[found[0]]}"
            attrs = {"href": href, "xlink:href": href, "transform": f"translate({x}, {y})"}
            ET.SubElement(svg, "use", attrs)
        if square in marked:
            attrs = {"href": "#xx", "xlink:href": "#xx", "x": str(x), "y": str(y)}
            ET.SubElement(svg, "use", attrs)

    for tail, head, name in arrow_list:
        key = f"arrow {name}"
        colour, opacity = _color(colors.get(key, DEFAULT_COLORS.get(key, name)))
        _draw_arrow(svg, corner(tail), corner(head), colour, opacity)

    return SvgWrapper(ET.tostring(svg, encoding="unicode"))


def _arrow_parts(arrow: Arrow | tuple[Square, Square]) -> tuple[Square, Square, str]:
    if isinstance(arrow, Arrow) or hasattr(arrow, "tail"):
        tail, head, color = arrow.tail, arrow.head, str(arrow.color)  # type: ignore[union-attr]
    else:
        tail, head = arrow
        color = "green"
    return _check_square(tail, "an arrow's tail"), _check_square(head, "an arrow's head"), color


def _draw_arrow(
    svg: ET.Element, tail: tuple[int, int], head: tuple[int, int], colour: str, opacity: float
) -> None:
    """A circle on one square, or a shaft and a triangular head between two square centres
    (the corners given), stopping a little short of the head square's centre."""
    half = SQUARE_SIZE / 2
    xtail, ytail = tail[0] + half, tail[1] + half
    xhead, yhead = head[0] + half, head[1] + half
    if tail == head:
        attrs = {
            "cx": _num(xhead),
            "cy": _num(yhead),
            "r": _num(SQUARE_SIZE * 0.45),
            "stroke-width": _num(SQUARE_SIZE * 0.1),
            "fill": "none",
            "class": "circle",
            **_paint(colour, opacity, "stroke"),
        }
        ET.SubElement(svg, "circle", attrs)
        return
    head_length = 0.75 * SQUARE_SIZE
    gap = 0.1 * SQUARE_SIZE
    dx, dy = xhead - xtail, yhead - ytail
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    # Where the shaft ends and the triangle's base begins, and the triangle's tip.
    base_x, base_y = xhead - ux * (head_length + gap), yhead - uy * (head_length + gap)
    tip_x, tip_y = xhead - ux * gap, yhead - uy * gap
    attrs = {
        "x1": _num(xtail),
        "y1": _num(ytail),
        "x2": _num(base_x),
        "y2": _num(base_y),
        "stroke-width": _num(SQUARE_SIZE * 0.2),
        "stroke-linecap": "butt",
        "class": "arrow",
        **_paint(colour, opacity, "stroke"),
    }
    ET.SubElement(svg, "line", attrs)
    spread = head_length / 2
    corners = [
        (tip_x, tip_y),
        (base_x + uy * spread, base_y - ux * spread),
        (base_x - uy * spread, base_y + ux * spread),
    ]
    attrs = {
        "points": " ".join(f"{_num(x)},{_num(y)}" for x, y in corners),
        "class": "arrow",
        **_paint(colour, opacity),
    }
    ET.SubElement(svg, "polygon", attrs)
