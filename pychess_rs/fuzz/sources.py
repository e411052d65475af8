"""Where positions come from: random placements, near-miss FENs, the EPD files, and the move
choice of the biased ("rare") games.

The rules still come from python-chess; these functions only pick squares, strings and moves.
Each source of :data:`SOURCES` has its own counters in the summary:

``startpos``   random games from the standard starting position;
``chess960``   random games from Chess960 starting positions (``Board.from_chess960_pos(n)``);
``rare``       games biased towards the rare rules: long shuffles (50/75-move rule, three- and
               fivefold repetition), promotions and underpromotions, en passant (with pins),
               castling rights lost when a rook is captured on its corner;
``placement``  random piece placements with random castling/en-passant fields and clocks:
               the FEN acceptance contract, then a short random game from accepted positions;
``mutated``    near-miss mutations of valid FENs: the FEN acceptance contract (a position both
               sides accept is checked too);
``epd``        every position of ``tests/data/*.epd`` (``perft960.epd`` in Chess960 mode), then a
               few random plies from it;
``invalid``    positions python-chess holds but no game reaches: 0-3 kings a side, pawns on the
               back ranks, the side not to move in check, castling rights without their king or
               rook, en-passant squares no double step made; then a short game in which
               pseudo-legal moves (into check, out of a missing king's reach) and null moves are
               pushed too;
``edited``     games in which, now and then, the castling rights (``board.castling_rights =
               ...``: rook squares of any kind, corners whose rook is gone included) or the
               en-passant square (``board.ep_square = ...``) of both boards are written by hand
               (module ``edits``): python-chess no longer cleans them once a move was played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING, TypeVar

from ..perft_cli import load_suite
from .checks import CORNERS

if TYPE_CHECKING:  # python-chess loads when the fuzzer runs: see the package docstring
    import chess

T = TypeVar("T")

#: The EPD files of a source checkout: tests/data beside the package (not in a wheel).
DATA_DIR = Path(__file__).resolve().parent.parent.parent / "tests" / "data"

#: What each "rare" game aims at (game ``i`` follows plan ``i % 5``).
RARE_PLANS = ("repeat", "shuffle", "en_passant", "promote", "rook_hunt")


def _weighted_choice(rng: Random, items: Sequence[T], weights: Sequence[float]) -> T:
    return rng.choices(items, weights=weights, k=1)[0]


class _Placement:
    """A piece placement being built; ``fen()`` renders it with the chosen fields."""

    def __init__(self, rng: Random, chess960: bool) -> None:
        import chess

        self.rng = rng
        self.chess960 = chess960
        self.board = chess.BaseBoard.empty()
        self.free = set(chess.SQUARES)
        self.turn = rng.choice((chess.WHITE, chess.BLACK))
        self.castling = "-"
        self.ep = "-"
        self.backrank_pawns = rng.random() < 0.03

    def put(self, square: int, piece_type: int, color: bool) -> None:
        import chess

        self.board.set_piece_at(square, chess.Piece(piece_type, color))
        self.free.discard(square)

    def put_random(self, piece_type: int, color: bool, exclude: Iterable[int] = ()) -> None:
        import chess

        excluded = set(exclude)
        squares = [sq for sq in sorted(self.free) if sq not in excluded]
        if piece_type == chess.PAWN and not self.backrank_pawns:
            squares = [sq for sq in squares if chess.square_rank(sq) not in (0, 7)]
        if squares:
            self.put(self.rng.choice(squares), piece_type, color)

    def put_kings(self, exclude: Iterable[int] = ()) -> None:
        """Put each missing king on a random free square."""
        import chess

        for color in chess.COLORS:
            if self.board.king(color) is None:
                self.put_random(chess.KING, color, exclude)

    def put_others(self, count: int, exclude: Iterable[int] = ()) -> None:
        import chess

        types = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]
        weights = [8, 2, 2, 2, 1]
        for _ in range(count):
            piece_type = _weighted_choice(self.rng, types, weights)
            self.put_random(piece_type, self.rng.choice(chess.COLORS), exclude)

    def clocks(self) -> str:
        rng = self.rng
        halfmove = rng.choice(
            (
                0,
                0,
                0,
                1,
                rng.randint(0, 100),
                98,
                99,
                100,
                101,
                148,
                149,
                150,
                151,
                rng.randint(0, 400),
            )
        )
        fullmove = rng.choice((1, 1, rng.randint(1, 60), rng.randint(1, 400), 0))
        return f"{halfmove} {fullmove}"

    def fen(self) -> str:
        turn = "w" if self.turn else "b"
        return f"{self.board.board_fen()} {turn} {self.castling} {self.ep} {self.clocks()}"


def _castling_field(rng: Random, letters: Sequence[str]) -> str:
    chosen = "".join(letter for letter in letters if rng.random() < 0.6)
    return chosen or "-"


def _place_castling(p: _Placement) -> None:
    import chess

    rng = p.rng
    letters: list[str] = []
    for color in chess.COLORS:
        rank = 0 if color == chess.WHITE else 7
        if p.chess960:
            king_file = rng.randint(1, 6)
            rook_files = [rng.randint(0, king_file - 1), rng.randint(king_file + 1, 7)]
        else:
            king_file = 4 if rng.random() < 0.85 else rng.randint(0, 7)
            rook_files = [0, 7]
        if chess.square(king_file, rank) in p.free:
            p.put(chess.square(king_file, rank), chess.KING, color)
        for file in rook_files:
            if rng.random() < 0.75 and chess.square(file, rank) in p.free:
                p.put(chess.square(file, rank), chess.ROOK, color)
        if p.chess960 and rng.random() < 0.6:  # Shredder-style letters naming the rook files
            side = [chess.FILE_NAMES[file] for file in sorted(rook_files, reverse=True)]
        elif rng.random() < 0.1:
            side = ["h", "a"]
        else:
            side = ["k", "q"]
        letters += [letter.upper() if color == chess.WHITE else letter for letter in side]
    p.put_kings()
    p.put_others(p.rng.randint(0, 14))
    p.castling = _castling_field(rng, letters)


def _place_en_passant(p: _Placement) -> None:
    """A pawn that just made a double step, capturers beside it, and sometimes a pin."""
    import chess

    rng = p.rng
    us, them = p.turn, not p.turn
    forward = 1 if us == chess.WHITE else -1
    pawn_rank = 4 if us == chess.WHITE else 3
    file = rng.randint(0, 7)
    pawn = chess.square(file, pawn_rank)
    ep = chess.square(file, pawn_rank + forward)
    origin = chess.square(file, pawn_rank + 2 * forward)
    p.put(pawn, chess.PAWN, them)
    p.free -= {ep, origin}  # both must stay empty
    for side in (-1, 1):
        if 0 <= file + side <= 7 and rng.random() < 0.7:
            p.put(chess.square(file + side, pawn_rank), chess.PAWN, us)
    if rng.random() < 0.6:  # king and an enemy slider on the capture rank: the horizontal ep pin
        rank_squares = [chess.square(f, pawn_rank) for f in range(8)]
        free_on_rank = [sq for sq in rank_squares if sq in p.free]
        if len(free_on_rank) >= 2:
            king_sq, slider_sq = rng.sample(free_on_rank, 2)
            p.put(king_sq, chess.KING, us)
            p.put(slider_sq, rng.choice((chess.ROOK, chess.QUEEN)), them)
    elif rng.random() < 0.5:  # a diagonal pin or check through the ep square
        p.put_random(rng.choice((chess.BISHOP, chess.QUEEN)), them)
    p.put_kings()
    p.put_others(rng.randint(0, 10))
    p.ep = chess.SQUARE_NAMES[ep] if rng.random() < 0.9 else chess.SQUARE_NAMES[rng.randrange(64)]


def _place_promotion(p: _Placement) -> None:
    import chess

    rng = p.rng
    p.put_kings()
    for color in chess.COLORS:
        rank = 6 if color == chess.WHITE else 1
        for _ in range(rng.randint(0, 3)):
            squares = [chess.square(f, rank) for f in range(8) if chess.square(f, rank) in p.free]
            if squares:
                p.put(rng.choice(squares), chess.PAWN, color)
        for _ in range(rng.randint(0, 3)):  # something to capture on the promotion rank
            back = 7 if color == chess.WHITE else 0
            squares = [chess.square(f, back) for f in range(8) if chess.square(f, back) in p.free]
            if squares:
                p.put(
                    rng.choice(squares),
                    rng.choice((chess.KNIGHT, chess.ROOK, chess.QUEEN)),
                    not color,
                )
    p.put_others(rng.randint(0, 6))


def _place_minor(p: _Placement) -> None:
    """Kings and a few minor pieces: the insufficient-material table."""
    import chess

    p.put_kings()
    for _ in range(p.rng.randint(0, 4)):
        p.put_random(
            p.rng.choice((chess.KNIGHT, chess.BISHOP, chess.BISHOP)), p.rng.choice(chess.COLORS)
        )
    if p.rng.random() < 0.3:
        p.put_others(1)


def random_placement_fen(rng: Random, chess960: bool = False) -> str:
    """A random FEN: piece placement, turn, castling, en passant and clocks.

    Many are rejected by python-chess (the acceptance contract is checked on those); the rest
    are legal positions with unusual features (rare castling fields, ep pins, checks, ...).
    """
    import chess

    p = _Placement(rng, chess960)
    style = rng.choice(
        (
            "sparse",
            "dense",
            "castling",
            "castling",
            "en_passant",
            "en_passant",
            "promotion",
            "minor",
        )
    )
    if style == "sparse":
        p.put_kings()
        p.put_others(rng.randint(0, 6))
    elif style == "dense":
        p.put_kings()
        p.put_others(rng.randint(8, 30))
    elif style == "castling":
        _place_castling(p)
    elif style == "en_passant":
        _place_en_passant(p)
    elif style == "promotion":
        _place_promotion(p)
    else:
        _place_minor(p)
    if style != "castling" and rng.random() < 0.1:
        p.castling = _castling_field(rng, "KQkq")
    if style != "en_passant" and rng.random() < 0.1:
        rank = 5 if p.turn == chess.WHITE else 2
        p.ep = chess.SQUARE_NAMES[chess.square(rng.randint(0, 7), rank)]
    return p.fen()


def random_invalid_fen(rng: Random, chess960: bool = False) -> str:
    """A FEN python-chess parses whose position is (usually) not valid: see ``invalid`` above."""
    import chess

    p = _Placement(rng, chess960)
    p.backrank_pawns = rng.random() < 0.5
    for color in chess.COLORS:
        for _ in range(_weighted_choice(rng, (0, 1, 2, 3), (2, 5, 2, 1))):
            p.put_random(chess.KING, color)
    if rng.random() < 0.3:  # kings and rooks where castling rights might name them
        for color in chess.COLORS:
            rank = 0 if color == chess.WHITE else 7
            for file in rng.sample(range(8), rng.randint(0, 3)):
                if chess.square(file, rank) in p.free:
                    p.put(chess.square(file, rank), rng.choice((chess.ROOK, chess.KING)), color)
    p.put_others(rng.randint(0, 20))
    letters = "KQkq" if not chess960 or rng.random() < 0.5 else "ABCDEFGHabcdefgh"
    p.castling = _castling_field(rng, rng.sample(letters, min(len(letters), 4)))
    if rng.random() < 0.4:
        rank = rng.choice((2, 5, 2, 5, rng.randrange(8)))
        p.ep = chess.SQUARE_NAMES[chess.square(rng.randrange(8), rank)]
    return p.fen()


_MUTATION_CHARS = "pnbrqkPNBRQK12345678/ -wbKQkqABCDEFGHabcdefgh09~"
_ODD_CHARS = ("\x00", "\t", "\n", "\u00a0", "\u3000", "\u212a", "é", "♔", "\uff11", "٣", "\ufeff")
_ODD_COUNTERS = (
    "-1",
    "-0",
    "+5",
    "1_0",
    "00",
    "99",
    "100",
    "150",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "9" * 30,
    "1e3",
    "0x10",
    "٣",
    "1.5",
    "",
)
_ODD_FIELDS = ("w", "b", "W", "B", "x", "-", "KQkq", "HAha", "KQkqK", "e3", "e6", "a1", "e9", "")


def mutate_fen(rng: Random, fen: str) -> str:
    """One to three near-miss edits of *fen*: characters, fields, ranks, counters."""
    import chess

    for _ in range(rng.randint(1, 3)):
        fields = fen.split(" ")
        op = rng.randrange(12)
        pos = rng.randrange(len(fen) + 1)
        if op == 0 and fen:  # replace a character
            fen = fen[:pos] + rng.choice(_MUTATION_CHARS) + fen[pos + 1 :]
        elif op == 1 and fen:  # delete a character
            fen = fen[:pos] + fen[pos + 1 :]
        elif op == 2:  # insert a character
            fen = fen[:pos] + rng.choice(_MUTATION_CHARS) + fen[pos:]
        elif op == 3:  # insert something unusual
            fen = fen[:pos] + rng.choice(_ODD_CHARS) + fen[pos:]
        elif op == 4:  # replace a whole field
            index = rng.randrange(len(fields))
            fields[index] = rng.choice(_ODD_FIELDS + _ODD_COUNTERS)
            fen = " ".join(fields)
        elif op == 5:  # odd move counters
            while len(fields) < 6:
                fields.append("0")
            fields[rng.choice((4, 5))] = rng.choice(_ODD_COUNTERS)
            fen = " ".join(fields)
        elif op == 6:  # drop or duplicate a field
            index = rng.randrange(len(fields))
            if rng.random() < 0.5:
                del fields[index]
            else:
                fields.insert(index, fields[index])
            fen = " ".join(fields)
        elif op == 7:  # add or remove a rank
            ranks = fields[0].split("/")
            index = rng.randrange(len(ranks))
            if rng.random() < 0.5 and len(ranks) > 1:
                del ranks[index]
            else:
                ranks.insert(index, rng.choice(ranks))
            fields[0] = "/".join(ranks)
            fen = " ".join(fields)
        elif op == 8:  # add a piece (a second king, a pawn on a back rank, ...)
            ranks = fields[0].split("/")
            index = rng.choice((0, 7, rng.randrange(len(ranks))))
            if index < len(ranks):
                ranks[index] = _edit_rank(rng, ranks[index], rng.choice("KkPpQ"))
            fields[0] = "/".join(ranks)
            fen = " ".join(fields)
        elif op == 9:  # castling field
            if len(fields) > 2:
                letters = "KQkqABCDEFGHabcdefgh"
                fields[2] = "".join(rng.sample(letters, rng.randint(1, 4)))
            fen = " ".join(fields)
        elif op == 10:  # en passant field
            if len(fields) > 3:
                fields[3] = chess.SQUARE_NAMES[rng.randrange(64)]
            fen = " ".join(fields)
        else:  # whitespace
            fen = rng.choice((" ", "  ", "\t", "\n")).join(fields)
            if rng.random() < 0.3:
                fen = rng.choice((" ", "\n", "\x00")) + fen
    return fen


def _edit_rank(rng: Random, rank: str, symbol: str) -> str:
    """Put *symbol* on an empty square of a FEN rank when there is one, keeping 8 files."""
    cells: list[str] = []
    for char in rank:
        cells.extend("." * int(char) if char.isdigit() and char != "0" else char)
    empty = [i for i, cell in enumerate(cells) if cell == "."]
    if not empty:
        return rank
    cells[rng.choice(empty)] = symbol
    out, run = "", 0
    for cell in cells:
        if cell == ".":
            run += 1
            continue
        out += (str(run) if run else "") + cell
        run = 0
    return out + (str(run) if run else "")


def epd_files(data_dir: Path = DATA_DIR, only_chess960: bool = False) -> list[Path]:
    """The ``*.epd`` files of *data_dir* the ``epd`` source reads (Chess960 ones: ``960`` in the
    name); none where the directory does not exist (an installed wheel has no tests/data)."""
    paths = sorted(data_dir.glob("*.epd"))
    return [path for path in paths if "960" in path.name or not only_chess960]


def load_epd_positions(
    data_dir: Path = DATA_DIR, only_chess960: bool = False
) -> list[tuple[str, bool, str]]:
    """``(fen, chess960, "file:line")`` for every position of ``data_dir/*.epd``.

    Perft suites and plain FEN lists are read by the perft suites' reader
    (``pychess_rs.perft_cli.load_suite``); a file it rejects is EPD with operations (such as
    ``wac.epd``), read by python-chess.
    """
    positions = []
    for path in epd_files(data_dir, only_chess960):
        chess960 = "960" in path.name
        try:
            entries = [(entry.fen, entry.lineno) for entry in load_suite(path)]
        except ValueError:
            entries = _epd_positions(path, chess960)
        positions += [(fen, chess960, f"{path.name}:{lineno}") for fen, lineno in entries]
    return positions


def _epd_positions(path: Path, chess960: bool) -> list[tuple[str, int]]:
    """``(fen, line number)`` of an EPD file; a line python-chess cannot read is kept as it is
    (the FEN acceptance contract is checked on it)."""
    import chess

    entries = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            fen = chess.Board.from_epd(text, chess960=chess960)[0].fen()
        except ValueError:
            fen = text
        entries.append((fen, lineno))
    return entries


# --------------------------------------------------------------------------------------------
# Move choice for the biased ("rare") games
# --------------------------------------------------------------------------------------------


def _rare_weight(pb: chess.Board, move: chess.Move, plan: str) -> float:
    import chess

    piece = pb.piece_type_at(move.from_square)
    zeroing = pb.is_zeroing(move)
    if plan == "shuffle":  # no capture, no pawn move: the 50/75-move rules
        return 1 if zeroing else 200
    if plan == "promote":
        if move.promotion:
            return 80  # each promotion piece is its own move: underpromotions 3 times in 4
        if piece == chess.PAWN:
            return 12 if chess.square_rank(move.to_square) in (1, 2, 5, 6) else 6
        return 4 if pb.is_capture(move) else 1
    if plan == "en_passant":
        if pb.is_en_passant(move):
            return 400
        if piece == chess.PAWN:
            to_rank = chess.square_rank(move.to_square)
            if abs(move.to_square - move.from_square) == 16:
                beside = [
                    move.to_square + d
                    for d in (-1, 1)
                    if 0 <= move.to_square + d < 64
                    and chess.square_distance(move.to_square, move.to_square + d) == 1
                ]
                enemy = chess.Piece(chess.PAWN, not pb.turn)
                return 150 if any(pb.piece_at(sq) == enemy for sq in beside) else 10
            if to_rank == (4 if pb.turn == chess.WHITE else 3):
                return 30  # a pawn on its fifth rank, waiting for a double step beside it
            return 2 if pb.is_capture(move) else 6
        if piece in (chess.ROOK, chess.QUEEN, chess.KING) and chess.square_rank(move.to_square) in (
            3,
            4,
        ):
            return 6  # sliders and kings on the capture ranks: ep pins and discovered checks
        return 1
    if plan == "rook_hunt":  # castling rights lost by rook captures (and rook/king moves)
        if move.to_square in CORNERS and pb.piece_type_at(move.to_square) == chess.ROOK:
            return 500
        if pb.is_castling(move):
            return 10
        if piece == chess.ROOK and move.from_square in CORNERS:
            return 8
        if pb.is_capture(move):
            return 5
        if piece in (chess.BISHOP, chess.QUEEN, chess.KNIGHT):
            return 3
        if piece == chess.PAWN and chess.square_file(move.from_square) in (1, 6):
            return 4  # open the long diagonals
        return 1
    return 1


def choose_rare(
    rng: Random, pb: chess.Board, moves: list[chess.Move], plan: str, history: list[str]
) -> chess.Move:
    """The next move of a "rare" game following *plan* (one of :data:`RARE_PLANS`)."""
    import chess

    if plan == "repeat":  # undo our previous move when we can: three/fivefold repetition
        if len(history) >= 2 and rng.random() < 0.8:
            last = chess.Move.from_uci(history[-2])
            back = chess.Move(last.to_square, last.from_square)
            for move in moves:
                if move == back and not pb.is_zeroing(move):
                    return move
        quiet = [move for move in moves if not pb.is_zeroing(move)]
        return rng.choice(quiet or moves)
    weights = [_rare_weight(pb, move, plan) for move in moves]
    return _weighted_choice(rng, moves, weights)
