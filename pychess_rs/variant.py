"""Chess variants, python-chess's ``chess.variant``: the boards of Suicide, Giveaway,
Antichess, Atomic, King of the Hill, Racing Kings, Horde, Three-check and Crazyhouse.

Every board is a :class:`pychess_rs.Board` (``isinstance`` holds) whose rules come from the
Rust core's variants: legal moves, playing them, SAN and UCI (drops included), FEN with the
variant's fields, check, the end of the game and its outcome, status. This module only names
the classes and their attributes, as python-chess does::

    >>> from pychess_rs.variant import AtomicBoard, CrazyhouseBoard, find_variant
    >>> board = AtomicBoard("rnbqkb1r/pp2pppp/2p2n2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R b KQkq - 3 4")
    >>> board.push_san("dxc4")
    Move.from_uci('d5c4')
    >>> board.fen()
    'rnbqkb1r/pp2pppp/2p2n2/8/3P4/5N2/PP2PPPP/R1BQKB1R w KQkq - 0 5'
    >>> zh = CrazyhouseBoard("4k3/8/8/1n6/8/3B4/8/4K3 w - - 0 1")
    >>> zh.push_san("Bxb5+")
    Move.from_uci('d3b5')
    >>> str(zh.pockets[True])
    'n'
    >>> find_variant("koth").uci_variant
    'kingofthehill'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import ClassVar

from ._core import Board, VariantBoard
from .types import BISHOP, KING, KNIGHT, PAWN, PIECE_SYMBOLS, QUEEN, ROOK, Color

__all__ = [
    "VARIANTS",
    "AntichessBoard",
    "AtomicBoard",
    "CrazyhouseBoard",
    "CrazyhousePocket",
    "GiveawayBoard",
    "HordeBoard",
    "KingOfTheHillBoard",
    "RacingKingsBoard",
    "SuicideBoard",
    "ThreeCheckBoard",
    "find_variant",
]

_STANDARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


class SuicideBoard(VariantBoard):
    """Suicide (FICS): captures are compulsory, the king is an ordinary piece; losing every
    piece wins, a stalemate is won by the side with fewer pieces."""

    aliases: ClassVar[list[str]] = ["Suicide", "Suicide chess"]
    uci_variant: ClassVar[str] = "suicide"
    xboard_variant: ClassVar[str] = "suicide"
    starting_fen: ClassVar[str] = _STANDARD_FEN

    tbw_suffix: ClassVar[str | None] = ".stbw"
    tbz_suffix: ClassVar[str | None] = ".stbz"
    tbw_magic: ClassVar[bytes | None] = b"\x7b\xf6\x93\x15"
    tbz_magic: ClassVar[bytes | None] = b"\xe4\xcf\xe7\x23"
    pawnless_tbw_suffix: ClassVar[str | None] = ".gtbw"
    pawnless_tbz_suffix: ClassVar[str | None] = ".gtbz"
    pawnless_tbw_magic: ClassVar[bytes | None] = b"\xbc\x55\xbc\x21"
    pawnless_tbz_magic: ClassVar[bytes | None] = b"\xd6\xf5\x1b\x50"
    connected_kings: ClassVar[bool] = True
    one_king: ClassVar[bool] = False
    captures_compulsory: ClassVar[bool] = True


class GiveawayBoard(SuicideBoard):
    """Giveaway: as Suicide, but a stalemated side wins."""

    aliases: ClassVar[list[str]] = ["Giveaway", "Giveaway chess", "Give away", "Give away chess"]
    uci_variant: ClassVar[str] = "giveaway"
    xboard_variant: ClassVar[str] = "giveaway"

    tbw_suffix: ClassVar[str | None] = ".gtbw"
    tbz_suffix: ClassVar[str | None] = ".gtbz"
    tbw_magic: ClassVar[bytes | None] = b"\xbc\x55\xbc\x21"
    tbz_magic: ClassVar[bytes | None] = b"\xd6\xf5\x1b\x50"
    pawnless_tbw_suffix: ClassVar[str | None] = ".stbw"
    pawnless_tbz_suffix: ClassVar[str | None] = ".stbz"
    pawnless_tbw_magic: ClassVar[bytes | None] = b"\x7b\xf6\x93\x15"
    pawnless_tbz_magic: ClassVar[bytes | None] = b"\xe4\xcf\xe7\x23"


class AntichessBoard(GiveawayBoard):
    """Antichess (lichess): Giveaway without castling."""

    aliases: ClassVar[list[str]] = ["Antichess", "Anti chess", "Anti"]
    uci_variant: ClassVar[str] = "antichess"
    starting_fen: ClassVar[str] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"


class AtomicBoard(VariantBoard):
    """Atomic: a capture explodes the pieces around it (pawns excepted); exploding the enemy
    king wins."""

    aliases: ClassVar[list[str]] = ["Atomic", "Atom", "Atomic chess"]
    uci_variant: ClassVar[str] = "atomic"
    xboard_variant: ClassVar[str] = "atomic"
    starting_fen: ClassVar[str] = _STANDARD_FEN

    tbw_suffix: ClassVar[str | None] = ".atbw"
    tbz_suffix: ClassVar[str | None] = ".atbz"
    tbw_magic: ClassVar[bytes | None] = b"\x55\x8d\xa4\x49"
    tbz_magic: ClassVar[bytes | None] = b"\x91\xa9\x5e\xeb"
    connected_kings: ClassVar[bool] = True


class KingOfTheHillBoard(VariantBoard):
    """King of the Hill: a king on d4, e4, d5 or e5 wins."""

    aliases: ClassVar[list[str]] = ["King of the Hill", "KOTH", "kingOfTheHill"]
    uci_variant: ClassVar[str] = "kingofthehill"
    xboard_variant: ClassVar[str] = "kingofthehill"
    starting_fen: ClassVar[str] = _STANDARD_FEN

    tbw_suffix: ClassVar[str | None] = None
    tbz_suffix: ClassVar[str | None] = None
    tbw_magic: ClassVar[bytes | None] = None
    tbz_magic: ClassVar[bytes | None] = None


class RacingKingsBoard(VariantBoard):
    """Racing Kings: no checks; the first king on the eighth rank wins (Black may still draw
    by reaching it on the next move)."""

    aliases: ClassVar[list[str]] = ["Racing Kings", "Racing", "Race", "racingkings"]
    uci_variant: ClassVar[str] = "racingkings"
    xboard_variant: ClassVar[str] = "racingkings"
    starting_fen: ClassVar[str] = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"

    tbw_suffix: ClassVar[str | None] = None
    tbz_suffix: ClassVar[str | None] = None
    tbw_magic: ClassVar[bytes | None] = None
    tbz_magic: ClassVar[bytes | None] = None


class HordeBoard(VariantBoard):
    """Horde: 36 white pawns and no white king against Black's army."""

    aliases: ClassVar[list[str]] = ["Horde", "Horde chess"]
    uci_variant: ClassVar[str] = "horde"
    xboard_variant: ClassVar[str] = "horde"
    starting_fen: ClassVar[str] = (
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
    )

    tbw_suffix: ClassVar[str | None] = None
    tbz_suffix: ClassVar[str | None] = None
    tbw_magic: ClassVar[bytes | None] = None
    tbz_magic: ClassVar[bytes | None] = None


class ThreeCheckBoard(VariantBoard):
    """Three-check: giving check for the third time wins. FENs carry the remaining checks
    (``3+3`` after the en-passant field; lichess's ``+0+0`` as a seventh field is read too)."""

    aliases: ClassVar[list[str]] = [
        "Three-check",
        "Three check",
        "Threecheck",
        "Three check chess",
        "3-check",
        "3 check",
        "3check",
    ]
    uci_variant: ClassVar[str] = "3check"
    xboard_variant: ClassVar[str] = "3check"
    starting_fen: ClassVar[str] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"

    tbw_suffix: ClassVar[str | None] = None
    tbz_suffix: ClassVar[str | None] = None
    tbw_magic: ClassVar[bytes | None] = None
    tbz_magic: ClassVar[bytes | None] = None

    @property
    def remaining_checks(self) -> _RemainingChecks:
        """The checks each side still has to give, indexed by colour
        (``remaining_checks[chess.WHITE]``); writable item by item."""
        return _RemainingChecks(self)

    @remaining_checks.setter
    def remaining_checks(self, checks: Iterable[int]) -> None:
        white, black = checks
        self._remaining_checks = (int(white), int(black))


class _RemainingChecks:
    """``ThreeCheckBoard.remaining_checks``: a live two-item sequence indexed by colour."""

    __slots__ = ("_board",)

    def __init__(self, board: ThreeCheckBoard) -> None:
        self._board = board

    def _pair(self) -> list[int]:
        # Indexed by colour as python-chess's list: [BLACK, WHITE] is [0, 1].
        white, black = self._board._remaining_checks
        return [black, white]

    def __getitem__(self, color: Color) -> int:
        return self._pair()[int(color)]

    def __setitem__(self, color: Color, value: int) -> None:
        pair = self._pair()
        pair[int(color)] = int(value)
        black, white = pair
        self._board._remaining_checks = (white, black)

    def __len__(self) -> int:
        return 2

    def __iter__(self) -> Iterator[int]:
        return iter(self._pair())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, _RemainingChecks)):
            return self._pair() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._pair())


_POCKET_ROLES = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)


class CrazyhousePocket:
    """The pieces one side of a Crazyhouse game has in hand. A pocket read from a board
    (``board.pockets[chess.WHITE]``) changes that board when changed."""

    def __init__(self, symbols: Iterable[str] = "") -> None:
        self._counts = [0] * 6
        self._board: CrazyhouseBoard | None = None
        self._color = True
        for symbol in symbols:
            self.add(PIECE_SYMBOLS.index(symbol))

    @classmethod
    def _of(cls, board: CrazyhouseBoard, color: Color) -> CrazyhousePocket:
        pocket = cls.__new__(cls)
        pocket._board = board
        pocket._color = bool(color)
        return pocket

    def _get(self) -> list[int]:
        if self._board is None:
            return self._counts
        return list(self._board._pocket_counts(self._color))

    def _put(self, counts: list[int]) -> None:
        if self._board is None:
            self._counts = counts
        else:
            self._board._set_pocket_counts(self._color, counts)

    def reset(self) -> None:
        """Empties the pocket."""
        self._put([0] * 6)

    def add(self, piece_type: int) -> None:
        """Adds a piece of the given type to the pocket."""
        counts = self._get()
        counts[piece_type - 1] += 1
        self._put(counts)

    def remove(self, piece_type: int) -> None:
        """Removes a piece of the given type from the pocket.

        :raises: :exc:`ValueError` if there is none.
        """
        counts = self._get()
        if counts[piece_type - 1] <= 0:
            raise ValueError(f"no {PIECE_SYMBOLS[piece_type]!r} in the pocket")
        counts[piece_type - 1] -= 1
        self._put(counts)

    def count(self, piece_type: int) -> int:
        """The number of pieces of the given type in the pocket."""
        return self._get()[piece_type - 1]

    def __str__(self) -> str:
        counts = self._get()
        return "".join(
            str(PIECE_SYMBOLS[role]) * counts[role - 1] for role in reversed(_POCKET_ROLES)
        )

    def __len__(self) -> int:
        return sum(self._get())

    def __repr__(self) -> str:
        return f"CrazyhousePocket('{self}')"

    def copy(self) -> CrazyhousePocket:
        """A detached copy of the pocket."""
        pocket = type(self)()
        pocket._counts = self._get()
        return pocket


class CrazyhouseBoard(VariantBoard):
    """Crazyhouse: captured pieces change sides and may be dropped back (``N@f3``). FENs
    carry the pockets (``[QBPnp]``, or a ninth rank) and ``~`` after promoted pieces."""

    aliases: ClassVar[list[str]] = ["Crazyhouse", "Crazy House", "House", "ZH"]
    uci_variant: ClassVar[str] = "crazyhouse"
    xboard_variant: ClassVar[str] = "crazyhouse"
    starting_fen: ClassVar[str] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"

    tbw_suffix: ClassVar[str | None] = None
    tbz_suffix: ClassVar[str | None] = None
    tbw_magic: ClassVar[bytes | None] = None
    tbz_magic: ClassVar[bytes | None] = None

    @property
    def pockets(self) -> list[CrazyhousePocket]:
        """The pieces in hand, indexed by colour (``pockets[chess.WHITE]``); each pocket
        changes the board when changed."""
        return [CrazyhousePocket._of(self, False), CrazyhousePocket._of(self, True)]

    @pockets.setter
    def pockets(self, pockets: Iterable[CrazyhousePocket]) -> None:
        black, white = pockets
        self._set_pocket_counts(True, white._get())
        self._set_pocket_counts(False, black._get())


VARIANTS: list[type[Board]] = [
    Board,
    SuicideBoard,
    GiveawayBoard,
    AntichessBoard,
    AtomicBoard,
    KingOfTheHillBoard,
    RacingKingsBoard,
    HordeBoard,
    ThreeCheckBoard,
    CrazyhouseBoard,
]


def _rebuild(cls: type[VariantBoard], fen: str, chess960: bool, moves: list[str]) -> VariantBoard:
    """Unpickles a variant board: its root position and its moves (see ``__reduce__``)."""
    board = cls(fen, chess960=chess960)
    for uci in moves:
        board.push_uci(uci)
    return board


def find_variant(name: str) -> type[Board]:
    """The board class of a variant, looked up by one of its names (``aliases``, compared
    case-insensitively: ``"Atomic"``, ``"KOTH"``, ``"3check"``, ``"Standard"``...).

    :raises: :exc:`ValueError` for an unknown name.
    """
    for variant in VARIANTS:
        if any(alias.lower() == name.lower() for alias in variant.aliases):
            return variant
    raise ValueError(f"unsupported variant: {name}")
