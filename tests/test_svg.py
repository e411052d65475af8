"""Pictures: ``pychess_rs.svg`` and the ``_repr_svg_`` methods.

The structure (ids, classes, geometry, colours) is compared with python-chess's ``chess.svg``,
whose API and element layout we promise; the piece shapes and coordinate glyphs are our own
and are left out of that comparison. The pictures are also rendered to PNG (cairosvg) and
looked at pixel by pixel, since an SVG can be well-formed and still draw nothing useful.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import chess
import chess.svg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pychess_rs
import pychess_rs.svg as svg
from pychess_rs import Board, Move, Piece, SquareSet

NS = "{http://www.w3.org/2000/svg}"
LIGHT = (0xFF, 0xCE, 0x9E)
DARK = (0xD1, 0x8B, 0x47)


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def elements(root: ET.Element, tag: str) -> list[ET.Element]:
    return list(root.iter(NS + tag))


def square_rects(root: ET.Element) -> dict[str, ET.Element]:
    """The 64 square rectangles, by square name."""
    found = {}
    for rect in elements(root, "rect"):
        classes = rect.get("class", "").split()
        if classes[:1] == ["square"]:
            found[classes[-1]] = rect
    return found


# ---- the API and the element layout --------------------------------------------------------


def test_empty_board_has_64_named_squares_and_no_pieces() -> None:
    root = parse(svg.board())
    assert root.tag == NS + "svg"
    assert root.get("viewBox") == "0 0 390 390"
    assert root.get("width") is None
    rects = square_rects(root)
    assert sorted(rects) == sorted(pychess_rs.SQUARE_NAMES)
    assert rects["a1"].get("class") == "square dark a1"
    assert rects["h1"].get("class") == "square light h1"
    assert rects["a1"].get("fill") == "#d18b47"
    assert rects["h1"].get("fill") == "#ffce9e"
    assert not elements(root, "use")
    assert not elements(root, "desc")


@pytest.mark.parametrize(
    ("kwargs", "side"),
    [
        ({}, 390),
        ({"coordinates": False}, 360),
        ({"borders": True}, 394),
        ({"borders": True, "coordinates": False}, 362),
    ],
)
def test_viewbox_follows_margin_and_borders(kwargs: dict[str, bool], side: int) -> None:
    root = parse(svg.board(size=200, **kwargs))
    assert root.get("viewBox") == f"0 0 {side} {side}"
    assert (root.get("width"), root.get("height")) == ("200", "200")


def test_only_the_pieces_on_the_board_are_defined() -> None:
    root = parse(svg.board(Board("4k3/8/8/8/8/8/8/4KB2 w - - 0 1")))
    ids = {g.get("id") for g in root.iter(NS + "g")}
    assert ids == {"white-king", "white-bishop", "black-king"}
    uses = sorted((u.get("href"), u.get("transform")) for u in elements(root, "use"))
    assert uses == [
        ("#black-king", "translate(195, 15)"),
        ("#white-bishop", "translate(240, 330)"),
        ("#white-king", "translate(195, 330)"),
    ]
    # The plain-text board for readers that cannot see the picture.
    assert root.find(f"{NS}desc/{NS}pre").text.splitlines()[-1] == ". . . . K B . ."


def test_starting_position_defines_all_twelve_pieces() -> None:
    root = parse(svg.board(Board()))
    ids = {g.get("id") for g in root.iter(NS + "g")}
    assert ids == {
        f"{colour}-{name}"
        for colour in ("white", "black")
        for name in ("pawn", "knight", "bishop", "rook", "queen", "king")
    }
    assert len(elements(root, "use")) == 32


@pytest.mark.parametrize("symbol", list("PNBRQKpnbrqk"))
def test_piece(symbol: str) -> None:
    text = svg.piece(Piece.from_symbol(symbol), size=90)
    root = parse(text)
    assert root.get("viewBox") == "0 0 45 45"
    assert root.get("width") == "90"
    colour = "white" if symbol.isupper() else "black"
    name = chess.piece_name(chess.Piece.from_symbol(symbol).piece_type)
    (group,) = root.iter(NS + "g")
    assert group.get("id") == f"{colour}-{name}"
    assert group.get("class") == f"{colour} {name}"
    # A python-chess piece draws the same.
    assert svg.piece(chess.Piece.from_symbol(symbol), size=90) == text


def test_the_twelve_pieces_are_twelve_different_drawings() -> None:
    bodies = {ET.tostring(parse(svg.piece(Piece.from_symbol(s)))[0]) for s in "PNBRQKpnbrqk"}
    assert len(bodies) == 12
    shapes = {tuple(p.get("d") for p in parse(svg.PIECES[s]).iter("path")) for s in "PNBRQK"}
    assert len(shapes) == 6


def test_lastmove_and_check() -> None:
    root = parse(svg.board(Board(), lastmove=Move.from_uci("e2e4"), check=chess.E1))
    rects = square_rects(root)
    assert rects["e2"].get("class") == "square light lastmove e2"
    assert rects["e2"].get("fill") == "#cdd16a"
    assert rects["d2"].get("class") == "square dark d2"
    (check,) = [r for r in elements(root, "rect") if r.get("class") == "check"]
    assert (check.get("x"), check.get("y"), check.get("fill")) == (
        "195",
        "330",
        "url(#check_gradient)",
    )
    assert root.find(f".//{NS}radialGradient").get("id") == "check_gradient"
    plain = parse(svg.board(Board(), lastmove=Move.null()))
    assert not [r for r in elements(plain, "rect") if "lastmove" in r.get("class", "")]
    assert not list(plain.iter(NS + "radialGradient"))


def test_arrows_circle_versus_line() -> None:
    circle = svg.board(arrows=[(chess.A1, chess.A1)])
    assert "<circle" in circle
    assert "<line" not in circle
    root = parse(circle)
    (c,) = elements(root, "circle")
    assert (c.get("cx"), c.get("cy"), c.get("class")) == ("37.5", "352.5", "circle")

    line = svg.board(arrows=[svg.Arrow(chess.A1, chess.H8, color="red")])
    assert "<circle" not in line
    root = parse(line)
    (shaft,) = elements(root, "line")
    (head,) = elements(root, "polygon")
    assert shaft.get("class") == head.get("class") == "arrow"
    assert (shaft.get("x1"), shaft.get("y1")) == ("37.5", "352.5")
    # The default red (#88202080) split into a colour and an opacity.
    assert (shaft.get("stroke"), shaft.get("opacity")) == ("#882020", "0.502")
    assert (head.get("fill"), head.get("opacity")) == ("#882020", "0.502")
    tip = head.get("points").split()[0].split(",")
    assert float(tip[0]) == pytest.approx(352.5 - 4.5 / 2**0.5, abs=0.01)


def test_arrow_colours_from_colors_and_free_form() -> None:
    root = parse(
        svg.board(
            arrows=[svg.Arrow(chess.E2, chess.E4, color="blue"), svg.Arrow(0, 9, color="#0000cc")],
            colors={"arrow blue": "#123456"},
        )
    )
    strokes = [line.get("stroke") for line in elements(root, "line")]
    assert strokes == ["#123456", "#0000cc"]


def test_arrow_pgn_round_trip() -> None:
    arrow = svg.Arrow(chess.A2, chess.H2, color="yellow")
    assert arrow.pgn() == str(arrow) == "Ya2h2"
    assert repr(arrow) == "Arrow(A2, H2, color='yellow')"
    assert svg.Arrow(chess.A1, chess.A1, color="purple").pgn() == "Ga1"
    parsed = svg.Arrow.from_pgn("Ra1")
    assert (parsed.tail, parsed.head, parsed.color) == (chess.A1, chess.A1, "red")
    parsed = svg.Arrow.from_pgn("e2e4")
    assert (parsed.tail, parsed.head, parsed.color) == (chess.E2, chess.E4, "green")
    for text in ["Bh1a8", "Ge4", "c3", "Yd1d8"]:
        ours, theirs = svg.Arrow.from_pgn(text), chess.svg.Arrow.from_pgn(text)
        assert (ours.tail, ours.head, ours.color) == (theirs.tail, theirs.head, theirs.color)
        assert ours.pgn() == theirs.pgn()
    for bad in ["", "G", "Gz9", "Ga1h", "Xa1", "a1h9"]:
        with pytest.raises(ValueError):
            svg.Arrow.from_pgn(bad)


def test_orientation_flips_squares_and_coordinates() -> None:
    white, black = parse(svg.board()), parse(svg.board(orientation=chess.BLACK))
    assert square_rects(white)["a1"].get("x") == "15"
    assert square_rects(white)["a1"].get("y") == "330"
    assert square_rects(black)["a1"].get("x") == "330"
    assert square_rects(black)["a1"].get("y") == "15"

    def label_positions(root: ET.Element, label: str) -> list[tuple[float, float]]:
        return sorted(
            (float(t.get("x")), float(t.get("y")))
            for t in elements(root, "text")
            if t.text == label
        )

    # Each file and rank is written on both sides of the board.
    assert [x for x, _ in label_positions(white, "a")] == [37.5, 37.5]
    assert [x for x, _ in label_positions(black, "a")] == [352.5, 352.5]
    assert [y for _, y in label_positions(white, "1")] == [356.5, 356.5]
    assert [y for _, y in label_positions(black, "1")] == [41.5, 41.5]
    assert not elements(parse(svg.board(coordinates=False)), "text")
    # ``flipped`` is python-chess's older spelling and composes with orientation.
    assert svg.board(flipped=True) == svg.board(orientation=chess.BLACK)
    assert svg.board(flipped=True, orientation=chess.BLACK) == svg.board()


def test_fill_and_colours_appear() -> None:
    root = parse(
        svg.board(
            fill={chess.E4: "#cc0000cc", chess.A8: "blue", 99: "#00ff00"},
            colors={"square light": "#eeeeee", "margin": "#00000080"},
        )
    )
    fills = [r for r in elements(root, "rect") if r.get("class") is None and r.get("fill")]
    by_fill = {r.get("fill"): r for r in fills if r.get("fill") != "none"}
    assert (by_fill["#cc0000"].get("x"), by_fill["#cc0000"].get("y")) == ("195", "195")
    assert by_fill["#cc0000"].get("opacity") == "0.8"
    assert (by_fill["blue"].get("x"), by_fill["blue"].get("y")) == ("15", "15")
    assert "#00ff00" not in svg.board(fill={99: "#00ff00"})
    assert square_rects(root)["h1"].get("fill") == "#eeeeee"
    margin = [r for r in elements(root, "rect") if r.get("stroke-width") == "15"]
    assert [(m.get("stroke"), m.get("opacity")) for m in margin] == [("#000000", "0.502")]


@pytest.mark.parametrize(
    "squares",
    [
        SquareSet([chess.A1, chess.C3]),
        [chess.A1, chess.C3],
        chess.BB_A1 | chess.BB_C3,
        chess.SquareSet([chess.A1, chess.C3]),
    ],
)
def test_squares_are_marked(squares: object) -> None:
    root = parse(svg.board(squares=squares))
    marks = sorted((u.get("x"), u.get("y")) for u in elements(root, "use"))
    assert marks == [("105", "240"), ("15", "330")]
    assert {u.get("href") for u in elements(root, "use")} == {"#xx"}
    assert [g.get("id") for g in root.iter(NS + "g")] == ["xx"]


def test_style_is_embedded() -> None:
    root = parse(svg.board(style=".square.light { fill: #fff; }"))
    assert root.find(f"{NS}style").text == ".square.light { fill: #fff; }"


def test_any_board_like_object_is_drawn() -> None:
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    ours = svg.board(Board(fen), lastmove=Move.from_uci("b8c6"), size=300)
    assert svg.board(chess.Board(fen), lastmove=chess.Move.from_uci("b8c6"), size=300) == ours
    assert svg.board(chess.BaseBoard(fen.split()[0]), lastmove=Move.from_uci("b8c6")) == (
        svg.board(Board(fen), lastmove=Move.from_uci("b8c6"))
    )

    class OnlyPieceAt:
        def piece_at(self, square: int) -> Piece | None:
            return Board(fen).piece_at(square)

    assert svg.board(OnlyPieceAt(), lastmove=Move.from_uci("b8c6"), size=300) == ours


@pytest.mark.parametrize(
    "kwargs",
    [
        {"arrows": [(0, 64)]},
        {"arrows": [(-1, 3)]},
        {"check": 64},
        {"check": "e1"},
        {"squares": [64]},
        {"lastmove": chess.Move(0, 64)},
    ],
)
def test_bad_squares_raise_value_error(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        svg.board(**kwargs)


def test_integer_like_squares_are_squares() -> None:
    class Index:  # what a NumPy integer looks like to us
        def __init__(self, value: int) -> None:
            self.value = value

        def __index__(self) -> int:
            return self.value

    assert svg.board(arrows=[(Index(12), Index(28))], check=Index(4)) == svg.board(
        arrows=[(chess.E2, chess.E4)], check=chess.E1
    )


# ---- the same layout as python-chess --------------------------------------------------------

LAYOUT_ATTRS = {
    "rect": ("x", "y", "width", "height", "class", "fill", "stroke", "stroke-width", "opacity"),
    "use": ("href", "transform", "x", "y"),
    "circle": ("cx", "cy", "r", "stroke-width", "stroke", "opacity", "class"),
    "line": ("x1", "y1", "x2", "y2", "stroke", "stroke-width", "opacity", "class"),
    "polygon": ("points", "fill", "opacity", "class"),
}


def layout(text: str) -> list[tuple[str, list[object]]]:
    """The drawn elements python-chess and we agree on, in order, numbers as floats (we
    write them with 3 decimals: compare with ``same_layout``)."""

    def value(name: str, v: str | None) -> list[object]:
        if v is None:
            return [None]
        if name == "points":
            return [float(n) for pair in v.split() for n in pair.split(",")]
        try:
            return [float(v)]
        except ValueError:
            return [v]

    drawn = []
    for element in parse(text):  # what is drawn; the definitions are one level down
        tag = element.tag.removeprefix(NS)
        if tag in LAYOUT_ATTRS:
            values = [x for name in LAYOUT_ATTRS[tag] for x in value(name, element.get(name))]
            drawn.append((tag, values))
    return drawn


def same_layout(ours: str, theirs: str) -> None:
    a, b = layout(ours), layout(theirs)
    assert [tag for tag, _ in a] == [tag for tag, _ in b]
    for (tag, mine), (_, other) in zip(a, b):
        assert len(mine) == len(other), tag
        for x, y in zip(mine, other):
            if isinstance(x, float) and isinstance(y, float):
                assert x == pytest.approx(y, abs=0.002), (tag, mine, other)
            else:
                assert x == y, (tag, mine, other)


LAYOUT_CASES = [
    {},
    {"orientation": chess.BLACK, "coordinates": False},
    {"borders": True, "size": 400},
    {"borders": True, "coordinates": False, "flipped": True},
    {"lastmove": "g1f3", "check": chess.E8, "fill": {chess.E4: "#cc0000cc", chess.D5: "#0f0"}},
    {"squares": [chess.B1, chess.B3, chess.H8], "orientation": chess.BLACK},
    {
        "arrows": [(chess.E2, chess.E4), (chess.G1, chess.G1), (chess.B1, chess.C3)],
        "orientation": chess.BLACK,
    },
    {"arrows": [("Ra1h8"), ("Ya1a1"), ("Bh1a8")], "colors": {"arrow red": "#ff000080"}},
    {"colors": {"square light": "#eee", "square dark lastmove": "#33333380"}, "lastmove": "e2e4"},
]


@pytest.mark.parametrize("case", LAYOUT_CASES)
@pytest.mark.parametrize("fen", [None, chess.STARTING_FEN, "8/8/8/3k4/8/8/3K4/8 b - - 0 1"])
def test_layout_matches_python_chess(case: dict[str, object], fen: str | None) -> None:
    def args(lib: object) -> dict[str, object]:
        out = dict(case)
        if "lastmove" in out:
            out["lastmove"] = lib.Move.from_uci(out["lastmove"])  # type: ignore[attr-defined]
        if "arrows" in out and isinstance(out["arrows"][0], str):  # type: ignore[index]
            out["arrows"] = [lib.svg.Arrow.from_pgn(a) for a in out["arrows"]]  # type: ignore
        return out

    ours = svg.board(Board(fen) if fen else None, **args(pychess_rs))
    theirs = chess.svg.board(chess.Board(fen) if fen else None, **args(chess))
    same_layout(ours, theirs)
    assert parse(ours).get("viewBox") == parse(theirs).get("viewBox")
    assert parse(ours).get("width") == parse(theirs).get("width")
    ids = {g.get("id") for g in parse(ours).iter(NS + "g") if g.get("id")}
    their_ids = {g.get("id") for g in parse(theirs).iter(NS + "g") if g.get("id")}
    assert ids == their_ids


squares_st = st.integers(0, 63)
colours_st = st.sampled_from(["#cc0000cc", "#00f", "#12345680", "red", "#0f08"])


@settings(max_examples=60, deadline=None)
@given(
    fen=st.sampled_from([None, chess.STARTING_FEN, "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1"]),
    orientation=st.booleans(),
    flipped=st.booleans(),
    coordinates=st.booleans(),
    borders=st.booleans(),
    check=st.none() | squares_st,
    # Distinct squares: pychess_rs reads Move(a, a) as the null move (python-chess does not).
    lastmove=st.none() | st.tuples(squares_st, squares_st).filter(lambda m: m[0] != m[1]),
    arrows=st.lists(
        st.tuples(squares_st, squares_st, st.sampled_from(["green", "red", "yellow", "blue"])),
        max_size=4,
    ),
    fill=st.dictionaries(squares_st, colours_st, max_size=5),
    squares=st.lists(squares_st, max_size=5),
)
def test_random_pictures_match_python_chess(
    fen: str | None,
    orientation: bool,
    flipped: bool,
    coordinates: bool,
    borders: bool,
    check: int | None,
    lastmove: tuple[int, int] | None,
    arrows: list[tuple[int, int, str]],
    fill: dict[int, str],
    squares: list[int],
) -> None:
    common = {
        "orientation": orientation,
        "flipped": flipped,
        "coordinates": coordinates,
        "borders": borders,
        "check": check,
        "fill": fill,
        "squares": squares,
    }
    ours = svg.board(
        Board(fen) if fen else None,
        lastmove=Move(*lastmove) if lastmove else None,
        arrows=[svg.Arrow(t, h, color=c) for t, h, c in arrows],
        **common,  # type: ignore[arg-type]
    )
    theirs = chess.svg.board(
        chess.Board(fen) if fen else None,
        lastmove=chess.Move(*lastmove) if lastmove else None,
        arrows=[chess.svg.Arrow(t, h, color=c) for t, h, c in arrows],
        **common,  # type: ignore[arg-type]
    )
    same_layout(ours, theirs)


# ---- _repr_svg_ -----------------------------------------------------------------------------


def test_board_repr_svg_shows_last_move_and_check() -> None:
    board = Board()
    assert board._repr_svg_() == svg.board(board, size=390)
    for san in ["e4", "f5", "Qh5+"]:
        board.push_san(san)
    picture = board._repr_svg_()
    assert picture == svg.board(board, size=390, lastmove=board.peek(), check=chess.E8)
    assert isinstance(picture, svg.SvgWrapper)
    assert picture._repr_svg_() is picture
    # The same picture python-chess's board would ask for.
    theirs = chess.Board()
    for san in ["e4", "f5", "Qh5+"]:
        theirs.push_san(san)
    same_layout(picture, theirs._repr_svg_())


def test_piece_and_squareset_repr_svg() -> None:
    queen = Piece.from_symbol("q")
    assert queen._repr_svg_() == svg.piece(queen, size=45)
    assert 'id="black-queen"' in queen._repr_svg_()
    squares = SquareSet([chess.E4, chess.D5])
    assert squares._repr_svg_() == svg.board(squares=squares, size=390)
    same_layout(squares._repr_svg_(), chess.SquareSet([chess.E4, chess.D5])._repr_svg_())


# ---- rendered pixels ------------------------------------------------------------------------


def render(text: str) -> object:
    """The picture as a Pillow RGB image (one pixel per unit for a 390-unit board)."""
    try:
        import cairosvg
        from PIL import Image
    except (ImportError, OSError) as error:  # OSError: cairosvg found no libcairo
        pytest.skip(f"cairosvg cannot render here ({error}); pip install 'pychess-rs[test]'")
    png = cairosvg.svg2png(bytestring=text.encode())
    return Image.open(io.BytesIO(png)).convert("RGB")


def square_box(square: int, orientation: bool = True) -> tuple[int, int]:
    """The top-left pixel of a square in a 390-pixel picture with coordinates."""
    file, rank = square & 7, square >> 3
    col, row = (file, 7 - rank) if orientation else (7 - file, rank)
    return 15 + 45 * col, 15 + 45 * row


def pixels(image: object, square: int, orientation: bool = True) -> list[tuple[int, int, int]]:
    """Every pixel of a square except a 1-pixel edge (antialiasing)."""
    x0, y0 = square_box(square, orientation)
    return [
        image.getpixel((x, y))  # type: ignore[attr-defined]
        for y in range(y0 + 1, y0 + 44)
        for x in range(x0 + 1, x0 + 44)
    ]


def centre(image: object, square: int, orientation: bool = True) -> tuple[int, int, int]:
    x0, y0 = square_box(square, orientation)
    return image.getpixel((x0 + 22, y0 + 22))  # type: ignore[attr-defined,no-any-return]


def close(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 3) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


def dark(pixel: tuple[int, int, int]) -> bool:
    return sum(pixel) < 120


def test_rendered_square_colours() -> None:
    image = render(svg.board(size=390))
    assert image.size == (390, 390)  # type: ignore[attr-defined]
    assert set(pixels(image, chess.A1)) == {DARK}
    assert set(pixels(image, chess.H1)) == {LIGHT}
    assert set(pixels(image, chess.A8)) == {LIGHT}
    assert set(pixels(image, chess.H8)) == {DARK}
    # The margin is dark grey.
    assert close(image.getpixel((5, 200)), (0x21, 0x21, 0x21))  # type: ignore[attr-defined]


def test_rendered_pieces() -> None:
    image = render(svg.board(Board(), size=390))
    white_king = pixels(image, chess.E1)
    assert sum(map(dark, white_king)) > 100  # the outline
    assert white_king.count((255, 255, 255)) > 300  # the white body
    black_king = pixels(image, chess.E8)
    assert sum(map(dark, black_king)) > 400
    assert set(pixels(image, chess.E4)) == {LIGHT}  # an empty square: nothing drawn on it
    assert set(pixels(image, chess.D4)) == {DARK}
    # The pieces differ from each other on the picture too.
    drawings = {tuple(pixels(image, sq)) for sq in [chess.A1, chess.B1, chess.C1, chess.D1]}
    assert len(drawings) == 4


def test_rendered_fill_check_lastmove_and_arrow() -> None:
    image = render(
        svg.board(
            fill={chess.C3: "#0000ff", chess.F3: "#00ff0080"},
            check=chess.E4,
            lastmove=Move.from_uci("a7a5"),
            arrows=[(chess.H1, chess.H4)],
            squares=[chess.B6],
            size=390,
        )
    )
    assert set(pixels(image, chess.C3)) == {(0, 0, 255)}
    # Half-transparent green over a light square (f3 is light).
    blend = tuple(round(c * (1 - 128 / 255) + g * 128 / 255) for c, g in zip(LIGHT, (0, 255, 0)))
    assert close(centre(image, chess.F3), blend)  # type: ignore[arg-type]
    assert close(centre(image, chess.E4), (255, 0, 0), 10)  # the check's red centre
    assert close(centre(image, chess.A7), (0xAA, 0xA2, 0x3B))  # dark lastmove square
    assert close(centre(image, chess.A5), (0xAA, 0xA2, 0x3B))
    shaft = centre(image, chess.H2)
    assert shaft[1] > shaft[0] and shaft[1] > shaft[2]  # green over a light square
    assert sum(map(dark, pixels(image, chess.B6))) > 50  # the cross


def test_rendered_orientation_black_puts_a1_top_right() -> None:
    board = Board("8/8/8/8/8/8/8/K6k w - - 0 1")
    image = render(svg.board(board, orientation=chess.BLACK, fill={chess.A1: "#0000ff"}, size=390))
    top_right = pixels(image, chess.H8)  # where H8 would be for White: a1 for Black
    assert (0, 0, 255) in top_right
    assert sum(map(dark, top_right)) > 100  # the white king's outline
    assert set(pixels(image, chess.A1)) == {DARK}  # bottom-left is h8 here: empty, dark
    assert sum(map(dark, pixels(image, chess.A8))) > 400  # top-left is h1: the black king
