"""Hostile input: the FEN, EPD, SAN and UCI parsers fed garbage and near-misses of valid strings.

python-chess (``chess`` 1.11.2) is the oracle. For every input:

* nothing crashes (no segfault, no Rust panic: pyo3's ``PanicException`` is not an ``Exception``
  and fails these tests);
* pychess_rs either accepts the input exactly as python-chess does (same move, same FEN, same
  EPD operations), or raises one of its error classes, each a ``ValueError`` subclass;
* FENs follow the acceptance contract of ``pychess_rs.fuzz.contract`` (python-chess parses them and
  ``status()`` has no flag beyond too many pieces/pawns, impossible check, too many checkers);
  a status rejection names its reason (a keyword of the flag, e.g. "castling");
* SAN/UCI errors are of python-chess's class (``InvalidMoveError``, ``IllegalMoveError``,
  ``AmbiguousMoveError``);
* error messages name the input (python-chess style, ``f"invalid san: {san!r} in {fen}"``): the
  input, or its printable parts, or its first 40 characters when it is long, appear in the
  message; or the message is python-chess's own message for the same call;
* a failed call leaves the board as it was (same ``fen()``).

Tolerated differences: null moves (``"--"``, ``"0000"``, ``Move.null()``) may be rejected with a
clear error instead of being played; drop moves (``"N@e4"``) may be rejected; move counters
above 2**31 - 1 may be rejected (``contract.tolerated_rejection``); a FEN with a king marked
promoted (``K~``) may be accepted or rejected (``contract.outside_contract``).
"""

from __future__ import annotations

import re
from random import Random
from typing import Any, Callable

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pychess_rs
from pychess_rs import fuzz
from pychess_rs.fuzz import contract

HOSTILE = settings(
    deadline=None,
    max_examples=300,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

ERROR_NAMES = ("InvalidFenError", "InvalidMoveError", "IllegalMoveError", "AmbiguousMoveError")
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def _printable_runs(text: str) -> list[str]:
    runs, run = [], ""
    for char in text:
        if char.isprintable() and not char.isspace():
            run += char
        else:
            if run:
                runs.append(run)
            run = ""
    return [*runs, run] if run else runs


def _unescaped(message: str) -> str:
    """*message* with the escapes of a Python repr decoded (a doubled backslash, \\x00, ...)."""
    try:
        return message.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except UnicodeDecodeError:
        return message


def names_input(message: str, text: str) -> bool:
    """Does *message* quote *text* (raw, Python-escaped, or by its printable parts)?"""
    if text in message or repr(text)[1:-1] in message or (text.strip() and text.strip() in message):
        return True
    # The core escapes by one Unicode version's idea of printable; this Python's repr may use an
    # older one (3.9 and 3.10: Unicode 13), so compare the quoted text unescaped.
    if text in _unescaped(message):
        return True
    head = text[:40]
    runs = _printable_runs(head)
    if len(text) > 40 and runs and not text[40].isspace():
        runs = runs[:-1]  # the run the cut goes through may be shortened in the message
    return all(run in message for run in runs)


def assert_clean_error(
    exc: BaseException, allowed: tuple[str, ...], text: str, oracle_message: str | None = None
) -> None:
    """*exc* is one of our *allowed* error classes, a ValueError naming *text*."""
    name = type(exc).__name__
    assert isinstance(exc, ValueError), f"{name} is not a ValueError: {exc!r}"
    classes = tuple(getattr(pychess_rs, allowed_name) for allowed_name in allowed)
    assert isinstance(exc, classes), f"expected one of {allowed}, got {name}: {exc}"
    message = str(exc)
    assert message.strip(), f"{name} without a message for input {text!r}"
    assert names_input(message, text) or message == oracle_message, (
        f"message {message!r} does not name the input {text!r}"
    )


def _oracle(fn: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    """python-chess's answer, or the exception it raised."""
    try:
        return fn(), None
    except Exception as exc:
        return None, exc


def _apply_edits(text: str, edits: list[tuple[str, int, str]]) -> str:
    for kind, index, char in edits:
        if kind == "insert":
            i = index % (len(text) + 1)
            text = text[:i] + char + text[i:]
        elif text:
            i = index % len(text)
            text = text[:i] + (char if kind == "replace" else "") + text[i + 1 :]
    return text


def near_misses(base: st.SearchStrategy[str], alphabet: str) -> st.SearchStrategy[str]:
    """*base* strings with up to four character edits drawn from *alphabet*."""
    edit = st.tuples(
        st.sampled_from(("insert", "replace", "delete")),
        st.integers(0, 10_000),
        st.sampled_from(alphabet),
    )
    return st.builds(_apply_edits, base, st.lists(edit, min_size=1, max_size=4))


ODD = "\x00\t\n\r\u00a0\u3000\u212a\ufeffé♔\uff11\u0663"


# --------------------------------------------------------------------------------------------
# Position pools (built by python-chess)
# --------------------------------------------------------------------------------------------


def _pool() -> list[tuple[str, bool]]:
    """Positions from short random games (both variants) plus hand-picked rare cases."""
    positions = [
        (chess.STARTING_FEN, False),
        (KIWIPETE, False),
        ("N3k3/8/8/8/8/8/8/N3K2N w - - 0 1", False),  # knights: disambiguation by file/rank
        ("k7/8/8/2Q1Q3/8/2Q5/8/4K3 w - - 0 1", False),  # queens: file and rank disambiguation
        ("1r2k3/P1P5/8/8/8/8/5p1p/4K1R1 w - - 0 1", False),  # (under)promotions with capture
        ("4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1", False),  # en passant
        ("8/8/8/K1pP3q/8/8/8/7k w - c6 0 1", False),  # en passant pinned along the rank
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", False),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", False),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", True),
        ("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", True),
        ("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4", False),  # mate
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", False),  # stalemate
    ]
    for seed in range(24):
        rng = Random(seed)
        chess960 = seed % 4 == 3
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for ply in range(rng.randint(1, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if ply % 20 == 7:
                positions.append((board.fen(), chess960))
        positions.append((board.fen(), chess960))
    return positions


POOL = _pool()
VALID_FENS = [fen for fen, chess960 in POOL if not chess960]


# --------------------------------------------------------------------------------------------
# FEN
# --------------------------------------------------------------------------------------------


def check_fen(fen: str, chess960: bool = False) -> None:
    oracle, why = contract.oracle_board(fen, chess960)
    _, parse_error = _oracle(lambda: chess.Board(fen, chess960=chess960))
    outside = contract.outside_contract(fen)
    try:
        ours = pychess_rs.Board(fen, chess960=chess960)
    except ValueError as exc:
        if outside:
            assert_clean_error(exc, ("InvalidFenError",), fen, str(parse_error or ""))
            return
        if oracle is not None:
            assert contract.tolerated_rejection(fen), (
                f"rejected a FEN python-chess accepts: {fen!r} ({exc!r})"
            )
        assert_clean_error(exc, ("InvalidFenError",), fen, str(parse_error or ""))
        return
    if outside:
        return
    assert oracle is not None, f"accepted a FEN python-chess rejects ({why}): {fen!r}"
    assert ours.fen() == oracle.fen()
    assert sorted(m.uci() for m in ours.legal_moves) == sorted(m.uci() for m in oracle.legal_moves)


_E = "4k3/8/8/8/8/8/8/4K3"

NAMED_FENS = {
    "empty string": "",
    "only spaces": "   ",
    "NUL byte": "\x00",
    "NUL inside": chess.STARTING_FEN.replace(" w ", " w\x00"),
    "NUL in placement": chess.STARTING_FEN.replace("8/8", "8/\x008", 1),
    "very long placement": "8/" * 50_000 + "8 w - - 0 1",
    "very long rank": "K" * 100_000,
    "very long tail": chess.STARTING_FEN + " " * 100_000,
    "very long field": chess.STARTING_FEN + " " + "x" * 100_000,
    "non-ASCII piece": chess.STARTING_FEN.replace("RNBQKBNR", "RNBQKBNé"),
    "Kelvin sign as king": f"4k3/8/8/8/8/8/8/4{chr(0x212A)}3 w - - 0 1",
    "ideographic space": _E + "\u3000w - - 0 1",
    "9 ranks": "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "7 ranks": "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "7 files": "rnbqkbn/ppppppp/7/7/7/7/PPPPPPP/RNBQKBN w - - 0 1",
    "9 files": "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    "digit 9": "4k3/8/8/8/9/8/8/4K3 w - - 0 1",
    "two digits in a row": "4k3/8/8/44/8/8/8/4K3 w - - 0 1",
    "promoted marker": "4k3/8/8/8/8/8/8/4KQ~2 w - - 0 1",
    "promoted king (outside the contract)": "4k3/8/8/8/8/8/8/4K~Q2 w - - 0 1",
    "dangling marker": "4k3/8/8/8/8/8/8/~4K3 w - - 0 1",
    "no kings": "8/8/8/8/8/8/8/8 w - - 0 1",
    "no white king": "4k3/8/8/8/8/8/8/8 w - - 0 1",
    "two white kings": "4k3/8/8/8/8/8/8/K3K3 w - - 0 1",
    "three kings": "4k3/8/8/8/8/8/k7/K3K3 w - - 0 1",
    "pawn on rank 1": "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
    "pawn on rank 8": "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "black pawn on rank 1": "4k3/8/8/8/8/8/8/p3K3 b - - 0 1",
    "ep square, no pawn": _E + " w - e6 0 1",
    "ep square, wrong rank": "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
    "ep square, occupied": "4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1",
    "ep square, origin occupied": "4k3/4n3/8/4p3/8/8/8/4K3 w - e6 0 1",
    "ep square, no capturer": "4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1",
    "ep square, capturer": "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1",
    "ep square, pinned capturer": "4k3/8/8/K2Pp2r/8/8/8/8 w - e6 0 1",
    "ep square a1": _E + " w - a1 0 1",
    "ep square off board": _E + " w - e9 0 1",
    "castling, no rooks": _E + " w KQkq - 0 1",
    "castling, king not on e1": "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1",
    "castling, Shredder letters": "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
    "castling, wrong letters": "r3k2r/8/8/8/8/8/8/R3K2R w KQkqX - 0 1",
    "castling, repeated": "r3k2r/8/8/8/8/8/8/R3K2R w KKkq - 0 1",
    "castling, lower then upper": "r3k2r/8/8/8/8/8/8/R3K2R w kqKQ - 0 1",
    "side to move can capture the king": "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
    "kings touching": "8/8/8/3kK3/8/8/8/8 w - - 0 1",
    "three checkers (allowed)": "4k3/8/8/8/1b5b/8/4r3/4K3 w - - 0 1",
    "impossible check (allowed)": "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
    "17 white pieces (allowed)": "4k3/8/8/8/NNNNNNNN/NNNNNNNN/8/4K3 w - - 0 1",
    "9 white pawns (allowed)": "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
    "bad turn": _E + " x - - 0 1",
    "upper-case turn": _E + " W - - 0 1",
    "only placement": _E,
    "placement and turn": _E + " b",
    "seven fields": _E + " w - - 0 1 1",
    "negative halfmove": _E + " w - - -1 1",
    "minus zero halfmove": _E + " w - - -0 1",
    "plus sign": _E + " w - - +3 +4",
    "underscore in counter": _E + " w - - 1_0 1",
    "non-ASCII digit": _E + " w - - 0 \u0663",
    "fullwidth digit": _E + " w - - \uff11 1",
    "fullmove zero": _E + " w - - 0 0",
    "float counter": _E + " w - - 1.5 1",
    "hex counter": _E + " w - - 0x10 1",
    "halfmove 2**32": _E + " w - - 4294967296 1",
    "fullmove 2**64": _E + " w - - 0 18446744073709551616",
    "huge halfmove": _E + " w - - " + "9" * 100 + " 1",
    "enormous halfmove": _E + " w - - " + "9" * 5000 + " 1",
}


@pytest.mark.parametrize("chess960", [False, True], ids=["standard", "chess960"])
@pytest.mark.parametrize("fen", list(NAMED_FENS.values()), ids=list(NAMED_FENS))
def test_named_hostile_fen(fen: str, chess960: bool) -> None:
    check_fen(fen, chess960)


@HOSTILE
@given(st.text(max_size=120))
def test_garbage_fen(text: str) -> None:
    check_fen(text)


@HOSTILE
@given(st.binary(max_size=120).map(lambda raw: raw.decode("latin-1")))
def test_garbage_bytes_fen(text: str) -> None:
    check_fen(text)


@HOSTILE
@given(
    near_misses(st.sampled_from(VALID_FENS), "pnbrqkPNBRQK0123456789/ -wbKQkqABCDEFGHaceh~" + ODD)
)
def test_near_miss_fen(fen: str) -> None:
    check_fen(fen)


@HOSTILE
@given(st.sampled_from(POOL), st.integers(0, 2**32))
def test_structured_fen_mutation(position: tuple[str, bool], seed: int) -> None:
    fen, chess960 = position
    check_fen(fuzz.mutate_fen(Random(seed), fen), chess960)


@HOSTILE
@given(st.integers(0, 2**32), st.booleans())
def test_random_placement_fen(seed: int, chess960: bool) -> None:
    check_fen(fuzz.random_placement_fen(Random(seed), chess960), chess960)


@HOSTILE
@given(
    st.sampled_from(POOL),
    st.one_of(
        near_misses(st.sampled_from(VALID_FENS), "pnbrqkPNBRQK0123456789/ -wbKQkq~" + ODD),
        st.sampled_from(list(NAMED_FENS.values())),
    ),
)
def test_set_fen_is_all_or_nothing(position: tuple[str, bool], fen: str) -> None:
    """A rejected set_fen() leaves the board, its move stack included, as it was."""
    start, chess960 = position
    ours = pychess_rs.Board(start, chess960=chess960)
    for move in list(chess.Board(start, chess960=chess960).legal_moves)[:1]:
        ours.push_uci(move.uci())
    before, stack = ours.fen(), [move.uci() for move in ours.move_stack]
    oracle, _ = contract.oracle_board(fen, chess960)
    try:
        ours.set_fen(fen)
    except ValueError as exc:
        assert (
            oracle is None or contract.tolerated_rejection(fen) or contract.outside_contract(fen)
        ), f"set_fen({fen!r}): {exc!r}"
        _, parse_error = _oracle(lambda: chess.Board(fen, chess960=chess960))
        assert_clean_error(exc, ("InvalidFenError",), fen, str(parse_error or ""))
        assert ours.fen() == before
        assert [move.uci() for move in ours.move_stack] == stack
        return
    if contract.outside_contract(fen):
        return
    assert oracle is not None, f"set_fen accepted {fen!r}, which python-chess rejects"
    assert ours.fen() == oracle.fen()
    assert not ours.move_stack


def test_error_classes_are_value_errors() -> None:
    for name in ERROR_NAMES:
        assert issubclass(getattr(pychess_rs, name), ValueError), name


# --------------------------------------------------------------------------------------------
# EPD
# --------------------------------------------------------------------------------------------


def _ops_key(ops: dict[str, Any]) -> dict[str, Any]:
    """EPD operations with moves as UCI strings, so both libraries' answers compare."""

    def norm(value: Any) -> Any:
        if isinstance(value, list):
            return [norm(item) for item in value]
        if hasattr(value, "uci") and callable(value.uci):
            return value.uci()
        return value

    return {key: norm(value) for key, value in ops.items()}


def _quotes(message: str, token: str) -> bool:
    """Does *message* name *token* (quoted if it is a single character; raw or escaped)?"""
    return any(
        f"'{t}'" in message or f'"{t}"' in message or (len(token) > 1 and t in message)
        for t in (token, repr(token)[1:-1])
    )


def check_epd(epd: str, chess960: bool = False) -> None:
    result, error = _oracle(lambda: chess.Board.from_epd(epd, chess960=chess960))
    accepted = result is not None
    try:
        ours, ops = pychess_rs.Board.from_epd(epd, chess960=chess960)
    except ValueError as exc:
        if accepted and not contract.outside_contract(epd):
            board = result[0]
            assert max(board.halfmove_clock, board.fullmove_number) > contract.COUNTER_LIMIT, (
                f"rejected an EPD python-chess accepts: {epd!r} ({exc!r})"
            )
        message = str(exc)
        assert isinstance(exc, tuple(getattr(pychess_rs, n) for n in ERROR_NAMES)), repr(exc)
        assert message.strip(), f"{type(exc).__name__} without a message for {epd!r}"
        tokens = [t for t in re.split(r"[\s;\"]+", epd) if t]
        assert (
            names_input(message, epd)
            or message == str(error)
            or any(_quotes(message, token) for token in tokens)
        ), f"message {message!r} names nothing of {epd!r}"
        return
    if contract.outside_contract(epd):
        return
    assert accepted, f"accepted an EPD python-chess rejects ({error!r}): {epd!r}"
    assert ours.fen() == result[0].fen()
    assert _ops_key(ops) == _ops_key(result[1])


EPD_OPS = (
    "",
    " bm e4;",
    ' bm Nf3 e4; id "opening";',
    ' id "a\\"b";',
    " ce 12; acd 3;",
    " hmvc 5; fmvn 10;",
    " hmvc 4294967296;",
    " pv e4 e5 Nf3;",
    ' c0 "comment";',
    " am Qxh7;",
    " ce 1.5;",
    " ce 1e999;",
    " ce +;",
    " noop;",
    " -;",
    " 0 1",
)


@HOSTILE
@given(st.sampled_from(POOL), st.sampled_from(EPD_OPS))
def test_epd_with_operations(position: tuple[str, bool], ops: str) -> None:
    fen, chess960 = position
    check_epd(fen.rsplit(" ", 2)[0] + ops, chess960)


@HOSTILE
@given(
    near_misses(
        st.builds(
            lambda fen, ops: fen.rsplit(" ", 2)[0] + ops,
            st.sampled_from(VALID_FENS),
            st.sampled_from(EPD_OPS),
        ),
        'pnbrqkPNBRQK12345678/ -wbKQkqace;"\\0.+e' + ODD,
    )
)
def test_near_miss_epd(epd: str) -> None:
    check_epd(epd)


@HOSTILE
@given(st.text(max_size=120))
def test_garbage_epd(text: str) -> None:
    check_epd(text)


@pytest.mark.parametrize("text", list(NAMED_FENS.values()), ids=list(NAMED_FENS))
def test_named_hostile_epd(text: str) -> None:
    check_epd(text)


# --------------------------------------------------------------------------------------------
# SAN
# --------------------------------------------------------------------------------------------

CANNED_SAN = (
    "O-O",
    "0-0",
    "O-O-O",
    "0-0-0",
    "O-O+",
    "O-O-O#",
    "o-o",
    "--",
    "Z0",
    "0000",
    "@@@@",
    "e4",
    "e5",
    "e8Q",
    "e8=Q",
    "e8=K",
    "e8=P",
    "exd6",
    "exd6e.p.",
    "Kg1",
    "Ke1g1",
    "Ng1-f3",
    "Nf3",
    "Nbd2",
    "N1f3",
    "Qh4#",
    "P@e4",
    "e2e4",
    "e2-e4",
    "e2xe4",
    "e4!!",
    "e4?",
    "a1",
    "",
    " ",
    "\x00",
    "e4\x00",
    "\uff2ef3",
    "e" * 10_000,
    "N" * 100_000,
    "Nf3,Nc3",
    "Nf3 ",
)
SAN_ALPHABET = "NBRQKabcdefgh12345678x-=+#O0@ nbrqkp!?," + ODD


@st.composite
def san_inputs(draw: st.DrawFn) -> tuple[str, bool, str]:
    fen, chess960 = draw(st.sampled_from(POOL))
    board = chess.Board(fen, chess960=chess960)
    moves = list(board.legal_moves)
    texts = [board.san(m) for m in moves] + [board.lan(m) for m in moves]
    texts += [m.uci() for m in moves] + list(CANNED_SAN)
    text = draw(
        st.one_of(
            st.sampled_from(texts),
            near_misses(st.sampled_from(texts), SAN_ALPHABET),
            st.text(max_size=12),
        )
    )
    return fen, chess960, text


def _is_drop(text: str) -> bool:
    move, _ = _oracle(lambda: chess.Move.from_uci(text))
    return move is not None and move.drop is not None


def check_move_parser(fen: str, chess960: bool, text: str, parse: str, push: str) -> None:
    """``board.<parse>(text)`` and ``board.<push>(text)`` against python-chess."""
    oracle = chess.Board(fen, chess960=chess960)
    ours = pychess_rs.Board(fen, chess960=chess960)
    before = ours.fen()
    expected, error = _oracle(lambda: getattr(oracle, parse)(text))
    if error is not None:
        assert isinstance(error, ValueError), f"python-chess raised {error!r} for {text!r}"
    null = expected is not None and not expected
    for method in (parse, push):
        try:
            got = getattr(ours, method)(text)
        except ValueError as exc:
            assert ours.fen() == before, f"{method}({text!r}) failed but changed the board"
            if null:  # tolerated: refusing null moves with a clear error
                assert_clean_error(exc, ERROR_NAMES, text)
                continue
            assert error is not None, f"{method} rejected {text!r}, python-chess gives {expected}"
            allowed = (type(error).__name__,)
            if _is_drop(text):  # tolerated: drops may be refused as syntax
                allowed += ("InvalidMoveError",)
            assert_clean_error(exc, allowed, text, str(error))
            continue
        assert error is None, f"{method} accepted {text!r}; python-chess raised {error!r}"
        assert got.uci() == expected.uci(), f"{method}({text!r})"
        if method == push:
            reference = chess.Board(fen, chess960=chess960)
            reference.push(expected)
            assert ours.fen() == reference.fen()
            ours.pop()
        assert ours.fen() == before


@HOSTILE
@given(san_inputs())
def test_hostile_san(case: tuple[str, bool, str]) -> None:
    check_move_parser(*case, "parse_san", "push_san")


@pytest.mark.parametrize("text", CANNED_SAN, ids=[repr(t)[:20] for t in CANNED_SAN])
@pytest.mark.parametrize(
    "fen",
    [
        chess.STARTING_FEN,
        KIWIPETE,
        "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
        "1r2k3/P1P5/8/8/8/8/5p1p/4K1R1 w - - 0 1",
    ],
)
def test_named_hostile_san(fen: str, text: str) -> None:
    check_move_parser(fen, False, text, "parse_san", "push_san")


# --------------------------------------------------------------------------------------------
# UCI
# --------------------------------------------------------------------------------------------

UCI_ALPHABET = "abcdefghi0123456789qrbnkpQRBNKP@ -" + ODD
CANNED_UCI = (
    "0000",
    "e2e4",
    "e7e8q",
    "e7e8Q",
    "e7e8k",
    "e7e8p",
    "e7e8",
    "a1a1",
    "e2e2",
    "e1g1",
    "e1h1",
    "e1c1",
    "e1a1",
    "N@e4",
    "P@a1",
    "e2e4 ",
    " e2e4",
    "e2e4q1",
    "e9e4",
    "i2i4",
    "",
    "\x00",
    "e2\x00e4",
    "e2e4\x00",
    "\uff45\uff12e4",
    "e2" * 5000,
)


def check_from_uci(text: str) -> None:
    expected, error = _oracle(lambda: chess.Move.from_uci(text))
    try:
        got = pychess_rs.Move.from_uci(text)
    except ValueError as exc:
        if error is None:
            assert expected.drop or not expected, f"rejected {text!r}; python-chess: {expected!r}"
        assert_clean_error(
            exc,
            ERROR_NAMES if error is None else ("InvalidMoveError",),
            text,
            str(error) if error else None,
        )
        return
    assert error is None, f"accepted {text!r}; python-chess raised {error!r}"
    assert got.uci() == expected.uci()
    assert bool(got) == bool(expected)
    if expected:
        assert (got.from_square, got.to_square) == (expected.from_square, expected.to_square)
        assert got.promotion == expected.promotion


@HOSTILE
@given(
    st.one_of(
        st.text(max_size=8),
        near_misses(st.sampled_from(CANNED_UCI), UCI_ALPHABET),
        st.builds(
            lambda a, b, p: a + b + p,
            st.sampled_from(chess.SQUARE_NAMES),
            st.sampled_from(chess.SQUARE_NAMES),
            st.sampled_from(("", "q", "r", "b", "n", "k", "p", "Q", "x")),
        ),
    )
)
def test_hostile_move_from_uci(text: str) -> None:
    check_from_uci(text)


@pytest.mark.parametrize("text", CANNED_UCI, ids=[repr(t)[:20] for t in CANNED_UCI])
def test_named_hostile_move_from_uci(text: str) -> None:
    check_from_uci(text)


@st.composite
def uci_inputs(draw: st.DrawFn) -> tuple[str, bool, str]:
    fen, chess960 = draw(st.sampled_from(POOL))
    board = chess.Board(fen, chess960=chess960)
    texts = [m.uci() for m in board.legal_moves] + [m.uci() for m in board.pseudo_legal_moves]
    texts += list(CANNED_UCI)
    text = draw(
        st.one_of(
            st.sampled_from(texts),
            near_misses(st.sampled_from(texts), UCI_ALPHABET),
            st.builds(
                lambda a, b: a + b,
                st.sampled_from(chess.SQUARE_NAMES),
                st.sampled_from(chess.SQUARE_NAMES),
            ),
        )
    )
    return fen, chess960, text


@HOSTILE
@given(uci_inputs())
def test_hostile_board_uci(case: tuple[str, bool, str]) -> None:
    check_move_parser(*case, "parse_uci", "push_uci")


# --------------------------------------------------------------------------------------------
# Illegal pushes, empty stacks, boards without legal moves
# --------------------------------------------------------------------------------------------


@HOSTILE
@given(
    st.sampled_from(POOL),
    st.sampled_from(chess.SQUARE_NAMES),
    st.sampled_from(chess.SQUARE_NAMES),
    st.sampled_from(("", "q", "n")),
)
def test_push_any_move(position: tuple[str, bool], origin: str, target: str, promo: str) -> None:
    """push() of an arbitrary move: python-chess's result, or a clear error and no change."""
    fen, chess960 = position
    if origin == target:
        return
    uci = origin + target + promo
    oracle = chess.Board(fen, chess960=chess960)
    ours = pychess_rs.Board(fen, chess960=chess960)
    before = ours.fen()
    move = chess.Move.from_uci(uci)
    legal = move in oracle.legal_moves
    try:
        ours.push(pychess_rs.Move.from_uci(uci))
    except ValueError as exc:
        assert not legal, f"push({uci}) refused a legal move in {fen}: {exc!r}"
        assert ours.fen() == before, f"push({uci}) failed but changed the board"
        assert_clean_error(exc, ("IllegalMoveError", "InvalidMoveError"), uci)
        return
    _, error = _oracle(lambda: oracle.push(move))
    assert error is None, f"pushed {uci} in {fen}, which python-chess cannot push ({error!r})"
    assert ours.fen() == oracle.fen()
    ours.pop()
    assert ours.fen() == before


@pytest.mark.parametrize("fen, chess960", POOL[:13])
def test_push_null_move(fen: str, chess960: bool) -> None:
    oracle = chess.Board(fen, chess960=chess960)
    ours = pychess_rs.Board(fen, chess960=chess960)
    before = ours.fen()
    null = pychess_rs.Move.null()
    assert not null and null.uci() == "0000"
    try:
        ours.push(null)
    except ValueError as exc:
        assert ours.fen() == before
        assert_clean_error(exc, ERROR_NAMES, "0000")
        return
    oracle.push(chess.Move.null())
    assert ours.fen() == oracle.fen()
    assert not ours.pop()
    assert ours.fen() == before


@pytest.mark.parametrize("fen", [chess.STARTING_FEN, KIWIPETE, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"])
def test_pop_and_peek_on_empty_stack(fen: str) -> None:
    """Like python-chess (a list's pop), an empty move stack raises IndexError."""
    board = pychess_rs.Board(fen)
    expected = chess.Board(fen).fen()
    for _ in range(2):
        with pytest.raises(IndexError):
            board.pop()
        with pytest.raises(IndexError):
            board.peek()
        assert board.fen() == expected
    for move in list(chess.Board(fen).legal_moves)[:1]:
        board.push_uci(move.uci())
        assert board.peek().uci() == move.uci()
        assert board.pop().uci() == move.uci()
    with pytest.raises(IndexError):
        board.pop()
    assert board.fen() == expected


def _san_game(*sans: str) -> list[str]:
    """UCI of a game given in SAN (python-chess converts)."""
    board = chess.Board()
    return [board.push_san(san).uci() for san in sans]


NO_MOVES = {
    "fool's mate (white mated)": (chess.STARTING_FEN, ["f2f3", "e7e5", "g2g4", "d8h4"]),
    "scholar's mate (black mated)": (
        chess.STARTING_FEN,
        ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"],
    ),
    "black stalemated": ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", []),
    "white stalemated": ("8/8/8/8/8/6k1/5q2/7K w - - 0 1", []),
    "fastest stalemate (Loyd), most pieces on the board": (
        chess.STARTING_FEN,
        _san_game(
            "e3",
            "a5",
            "Qh5",
            "Ra6",
            "Qxa5",
            "h5",
            "h4",
            "Rah6",
            "Qxc7",
            "f6",
            "Qxd7+",
            "Kf7",
            "Qxb7",
            "Qd3",
            "Qxb8",
            "Qh7",
            "Qxc8",
            "Kg6",
            "Qe6",
        ),
    ),
    "smothered mate": ("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", []),
}


@pytest.mark.parametrize("name", list(NO_MOVES))
def test_board_without_legal_moves(name: str) -> None:
    fen, moves = NO_MOVES[name]
    oracle = chess.Board(fen)
    ours = pychess_rs.Board(fen)
    for uci in moves:
        oracle.push_uci(uci)
        ours.push_uci(uci)
    assert not any(oracle.legal_moves), "test data: this position must have no legal moves"
    before = ours.fen()
    assert before == oracle.fen()
    assert list(ours.legal_moves) == []
    assert ours.legal_moves.count() == 0
    assert not ours.legal_moves
    assert list(ours.generate_legal_moves()) == []
    assert list(ours.generate_legal_captures()) == []
    for method in (
        "is_check",
        "is_checkmate",
        "is_stalemate",
        "is_insufficient_material",
        "can_claim_draw",
        "can_claim_fifty_moves",
        "can_claim_threefold_repetition",
        "is_seventyfive_moves",
        "is_fivefold_repetition",
    ):
        assert getattr(ours, method)() == getattr(oracle, method)(), method
    for claim_draw in (False, True):
        assert ours.is_game_over(claim_draw=claim_draw) == oracle.is_game_over(
            claim_draw=claim_draw
        )
        assert ours.result(claim_draw=claim_draw) == oracle.result(claim_draw=claim_draw)
        got, expected = ours.outcome(claim_draw=claim_draw), oracle.outcome(claim_draw=claim_draw)
        assert (got.termination.name, got.winner) == (expected.termination.name, expected.winner)
    for move in oracle.pseudo_legal_moves:
        assert not ours.is_legal(pychess_rs.Move.from_uci(move.uci()))
        with pytest.raises(pychess_rs.IllegalMoveError):
            ours.parse_uci(move.uci())
        with pytest.raises(pychess_rs.IllegalMoveError):
            ours.push_uci(move.uci())
        assert ours.fen() == before
    for text in ("e4", "Kh1", "Kg8", "O-O", "Qxf7#", "Nf3", "exd6", "a1", "h8=Q"):
        check_move_parser(before, False, text, "parse_san", "push_san")
    if moves:  # the game history is intact: pop() undoes the mating move
        ours.pop()
        oracle.pop()
        assert ours.fen() == oracle.fen()
        assert ours.legal_moves.count() == len(list(oracle.legal_moves))
