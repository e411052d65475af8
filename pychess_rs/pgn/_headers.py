"""PGN tag pairs: :class:`Headers` (the Seven Tag Roster first, then the others) and the
``TimeControl`` tag's parser."""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, TypeVar

from .._core import Board

if TYPE_CHECKING:
    from ._builders import HeadersBuilder

TAG_ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
TAG_NAME_REGEX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+#=:-]*\Z")
_STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
_CHESS960_NAMES = ("chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random")
_WILD_NAMES = tuple(f"wild/{n}" for n in ("0", "1", "2", "3", "4", "5", "6", "7", "8", "8a"))
_STANDARD_NAMES = ("standard", "chess", "classical", "normal", "illegal", "from position")

HeadersT = TypeVar("HeadersT", bound="Headers")


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
        """The board class for the ``Variant`` tag (python-chess's and lichess's names, see
        :func:`pychess_rs.variant.find_variant`).

        :raises: :exc:`ValueError` for a variant pychess-rs does not play.
        """
        if "Variant" not in self or self.is_chess960() or self.is_wild():
            return Board
        from ..variant import find_variant

        return find_variant(self["Variant"])

    def board(self) -> Board:
        board_class = self.variant()
        board = board_class(self.get("FEN", board_class.starting_fen), chess960=self.is_chess960())
        board.chess960 = board.chess960 or board.has_chess960_castling_rights()
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
        from ._builders import HeadersBuilder

        return HeadersBuilder(Headers=cls)
