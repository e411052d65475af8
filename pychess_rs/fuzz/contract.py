"""The documented differences from python-chess, from the oracle's side.

Where pychess_rs answers otherwise than python-chess on purpose (it refuses where python-chess
would corrupt its board, or cannot hold a value), the difference is written here, once, and the
fuzzer compares against python-chess corrected by it. There are two.

**The FEN acceptance contract.** ``pychess_rs.Board(fen)`` accepts a FEN exactly when
``chess.Board(fen)`` parses it, whatever the position's ``status()`` (no king, pawns on a back
rank, the side not to move in check: both libraries hold such positions and answer every
question about them); a rejection raises ``pychess_rs.InvalidFenError`` (a ``ValueError``) with
a message. Two exceptions (see :func:`tolerated_rejection` and :func:`outside_contract`):
pychess_rs may reject a move counter that does not fit in 31 bits, which python-chess (Python
ints) accepts; and a FEN with a king marked promoted (``K~``, a crazyhouse marker python-chess
also reads in standard chess, after which it no longer sees that king as a king: never in check,
no castling) is outside the contract: pychess_rs may accept or reject it, and such positions are
not compared.

**Castling without its rook.** Once a board has a move stack, python-chess's
``clean_castling_rights()`` returns ``castling_rights`` unfiltered, so after a hand-written
``board.castling_rights = ...`` (any mask of squares, a corner whose rook is gone included) its
move generator tries every rights square on the back rank as a rook square and lists castling
moves for squares that hold no rook of the side to move: an empty square, a piece of the other
side, another piece of its own. Pushing one corrupts the board: the king walks to that square,
capturing what stands there, or the piece there turns into a rook, or (``e8g8`` generated for a
knight on g8 is pushed as castling with the h8 rook) the knight vanishes. pychess_rs neither
lists nor pushes such a move: python-chess's castling moves whose rook square (the rights square
they are generated for) holds no own rook are not expected from us. :func:`oracle_board_class` is
python-chess without them (:func:`rookless_castling_moves` lists them), and it is the fuzzer's
oracle: every answer python-chess derives from its move generator (the legal and pseudo-legal
moves and their counts, stalemate, ``parse_san("O-O")``, the draw claims that try each move) is
compared as python-chess gives it with those moves left out. The rights themselves
(``castling_rights``, ``clean_castling_rights()``, the FEN, the Polyglot hash) are compared as
python-chess has them.

A related habit of python-chess is not a difference but a side effect the oracle avoids:
``is_repetition()`` and ``can_claim_threefold_repetition()`` (and so ``is_fivefold_repetition()``,
``can_claim_draw()``, ``outcome()``) pop moves and push them again, which rebuilds the position
from the stack and so forgets castling rights or an en-passant square written after the last
move. pychess_rs's queries change nothing; ``OracleBoard`` puts the position back as it was
when the replay has pushed its last move, so python-chess answers about the board it was asked
about (on a board without such an edit the replay changes nothing anyway).

The fuzzer checks the contract on random, mutated and hand-edited positions; the tests
(``tests/``) import this module (``from pychess_rs.fuzz import contract``) rather than restate
it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # python-chess loads when the fuzzer runs: see the package docstring
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
        return oracle_board_class()(fen, chess960=chess960), ""
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


#: Coverage event: python-chess listed a castling move without its rook here (left out).
ROOKLESS_CASTLING = "castling move without its rook"


def rookless_castling_moves(board: chess.Board) -> list[chess.Move]:
    """The castling moves python-chess generates on *board* for castling-rights squares that hold
    no rook of the side to move (``generate_castling_moves`` takes the rights square, its
    candidate rook square, through ``to_mask``); pychess_rs must not make them."""
    import chess

    own_rooks = board.rooks & board.occupied_co[board.turn]
    moves: list[chess.Move] = []
    for square in chess.scan_reversed(board.clean_castling_rights() & ~own_rooks):
        moves += chess.Board.generate_castling_moves(board, chess.BB_ALL, chess.BB_SQUARES[square])
    return moves


@functools.cache
def oracle_board_class() -> type[chess.Board]:
    """``OracleBoard``: python-chess under the contract, its castling moves without their rook
    left out and its repetition queries leaving a hand edit in place (built on first use, so that
    loading this module does not load python-chess).

    Everything python-chess derives from ``generate_castling_moves`` (legal and pseudo-legal
    moves, counts, stalemate, SAN parsing, draw claims) follows; nothing else changes. Copies,
    ``from_chess960_pos`` and ``mirror`` keep the class.
    """
    import chess

    class OracleBoard(chess.Board):
        #: While a repetition query replays the stack: its depth and the state to come back to.
        _replay: tuple[int, Any] | None = None

        def push(self, move: chess.Move) -> None:
            super().push(move)
            if self._replay is not None and len(self.move_stack) == self._replay[0]:
                self._replay[1].restore(self)  # the last move of the replay is back on the board

        def _keeping_state(self, query: Callable[[], bool]) -> bool:
            if self._replay is not None:
                return query()
            self._replay = (len(self.move_stack), chess._BoardState(self))
            try:
                return query()
            finally:
                self._replay = None

        def is_repetition(self, count: int = 3) -> bool:
            return self._keeping_state(lambda: super(OracleBoard, self).is_repetition(count))

        def can_claim_threefold_repetition(self) -> bool:
            return self._keeping_state(
                lambda: super(OracleBoard, self).can_claim_threefold_repetition()
            )

        def generate_castling_moves(
            self, from_mask: chess.Bitboard = chess.BB_ALL, to_mask: chess.Bitboard = chess.BB_ALL
        ) -> Iterator[chess.Move]:
            # python-chess reads to_mask as the rook squares to castle with (the rights squares
            # it tries): only those holding a rook of the side to move are left.
            own_rooks = self.rooks & self.occupied_co[self.turn]
            return super().generate_castling_moves(from_mask, to_mask & own_rooks)

    return OracleBoard
