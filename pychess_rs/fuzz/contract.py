"""The FEN acceptance contract, from the oracle's side.

``pychess_rs.Board(fen)`` accepts a FEN exactly when ``chess.Board(fen)`` parses it, whatever
the position's ``status()`` (no king, pawns on a back rank, the side not to move in check: both
libraries hold such positions and answer every question about them); a rejection raises
``pychess_rs.InvalidFenError`` (a ``ValueError``) with a message. Two exceptions (see
:func:`tolerated_rejection` and :func:`outside_contract`): pychess_rs may reject a move counter
that does not fit in 31 bits, which python-chess (Python ints) accepts; and a FEN with a king
marked promoted (``K~``, a crazyhouse marker python-chess also reads in standard chess, after
which it no longer sees that king as a king: never in check, no castling) is outside the
contract: pychess_rs may accept or reject it, and such positions are not compared.

The fuzzer checks the contract on random and mutated FENs; the tests (``tests/``) import this
module (``from fuzz_diff import contract``) rather than restate it.
"""

from __future__ import annotations

from typing import Any

import chess

#: Move counters above this may be rejected by pychess_rs although python-chess accepts them.
COUNTER_LIMIT = 2**31 - 1

#: Mismatch kind of the FEN acceptance contract (its own row in the summary).
ACCEPTANCE = "fen_acceptance"
#: A rejection that is not a ValueError subclass named InvalidFenError, or has no message.
ACCEPTANCE_ERROR = "fen_error_type"


def oracle_board(fen: str, chess960: bool) -> tuple[chess.Board | None, str]:
    """python-chess's verdict under the acceptance contract: ``(board, "")`` or ``(None, why)``."""
    try:
        return chess.Board(fen, chess960=chess960), ""
    except ValueError as exc:
        return None, f"parse error: {exc}"
    except Exception as exc:  # python-chess should only raise ValueError; keep the fuzzer alive
        return None, f"parse error ({type(exc).__name__}): {exc}"


def _counter_values(fen: str) -> list[int]:
    """The move counters of a FEN as python-chess reads them (``int()`` of fields 5 and 6)."""
    values = []
    for part in fen.split()[4:6]:
        try:
            values.append(int(part))
        except ValueError:
            pass
    return values


def tolerated_rejection(fen: str) -> str | None:
    """Why pychess_rs may reject *fen* although python-chess accepts it, or None.

    The only tolerance: a move counter above ``COUNTER_LIMIT`` (python-chess stores Python ints).
    """
    if any(abs(value) > COUNTER_LIMIT for value in _counter_values(fen)):
        return f"move counter above {COUNTER_LIMIT}"
    return None


def outside_contract(fen: str) -> str | None:
    """Why *fen* is outside the acceptance contract (either answer is fine), or None."""
    board_part = fen.split()[0] if fen.split() else ""
    if "K~" in board_part or "k~" in board_part or "\u212a~" in board_part:
        return "a king marked promoted ('K~'): python-chess stops treating it as a king"
    return None


def fen_error_problem(rs: Any, exc: BaseException) -> str:
    """What is wrong with a rejection by ``rs.Board``: not InvalidFenError, not a ValueError,
    no message; ``""`` when it is as the contract says."""
    invalid_fen_error = getattr(rs, "InvalidFenError", None)
    if invalid_fen_error is None or not isinstance(exc, invalid_fen_error):
        return f"expected pychess_rs.InvalidFenError, got {type(exc).__name__}"
    if not isinstance(exc, ValueError):
        return "InvalidFenError is not a ValueError subclass"
    if not str(exc).strip():
        return "empty error message"
    return ""
