"""The Python-level implementations and their adapters: one object per library, one method
per workload (python-perft, random-games, fen-legal).

python-chess, pychess-rs and pyrust-chess share python-chess's API (:class:`PythonChessLike`);
cozy-chess-py, rust-chess and fastchess each get an adapter that reaches the same answer with
their own primitives, emulating in Python the rules they lack (their ``notes`` say which).
"""

from __future__ import annotations

import abc
import importlib
import importlib.metadata
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from .inputs import GameScripts
from .report import log

BB_LIGHT = 0x55AA55AA55AA55AA
BB_DARK = 0xAA55AA55AA55AA55


def insufficient_from_bitboards(
    white: int, black: int, pawns: int, knights: int, bishops: int, rooks: int, queens: int
) -> bool:
    """python-chess's ``is_insufficient_material`` on plain integer bitboards."""
    if pawns or rooks or queens:
        return False
    # only kings, knights and bishops remain
    for own, other in ((white, black), (black, white)):
        if own & knights:
            if bin(own).count("1") > 2 or (other & ~queens & (knights | bishops)):
                return False
        elif own & bishops:
            same_colour = not (bishops & BB_DARK) or not (bishops & BB_LIGHT)
            if not (same_colour and not knights):
                return False
    return True


class Adapter(abc.ABC):
    """One implementation's way of doing each workload.

    Each ``*_setup`` method does the untimed preparation and returns the timed callable.
    """

    notes: ClassVar[dict[str, str]] = {}  # workload key -> how this adapter differs

    def __init__(self, module: Any) -> None:
        self.m = module

    @abc.abstractmethod
    def perft_setup(self, fen: str, depth: int) -> Callable[[], int]: ...

    def native_perft_setup(self, fen: str, depth: int) -> Callable[[], int] | None:
        return None

    @abc.abstractmethod
    def games_setup(self, scripts: GameScripts) -> Callable[[], tuple[int, ...]]: ...

    @abc.abstractmethod
    def fens_setup(self, fens: list[str]) -> Callable[[], int]: ...


class PythonChessLike(Adapter):
    """python-chess's own API: python-chess, pychess-rs, pyrust-chess."""

    def perft_setup(self, fen: str, depth: int) -> Callable[[], int]:
        board_type = self.m.Board

        def perft(board: Any, depth: int) -> int:
            if depth == 0:
                return 1
            nodes = 0
            for move in list(board.legal_moves):
                board.push(move)
                nodes += perft(board, depth - 1)
                board.pop()
            return nodes

        return lambda: perft(board_type(fen), depth)

    def native_perft_setup(self, fen: str, depth: int) -> Callable[[], int] | None:
        board = self.m.Board(fen)
        if not hasattr(board, "perft"):
            return None
        return lambda: board.perft(depth)

    def games_setup(self, scripts: GameScripts) -> Callable[[], tuple[int, ...]]:
        board_type = self.m.Board
        from_uci = self.m.Move.from_uci
        games = [[from_uci(u) for u in game] for game in scripts.uci]

        def run() -> tuple[int, ...]:
            plies = legal = mate = stale = insuff = seventy = five = 0
            for game in games:
                board = board_type()
                for move in [*game, None]:
                    legal += len(list(board.legal_moves))
                    mate += board.is_checkmate()
                    stale += board.is_stalemate()
                    insuff += board.is_insufficient_material()
                    seventy += board.is_seventyfive_moves()
                    five += board.is_fivefold_repetition()
                    if move is None:
                        break
                    board.push(move)
                    plies += 1
            return (len(games), plies, legal, mate, stale, insuff, seventy, five)

        return run

    def fens_setup(self, fens: list[str]) -> Callable[[], int]:
        board_type = self.m.Board

        def run() -> int:
            total = 0
            for fen in fens:
                total += board_type(fen).legal_moves.count()
            return total

        return run


class CozyChess(Adapter):
    """cozy-chess-py: copy-make boards, no undo, no game history."""

    notes: ClassVar[dict[str, str]] = {
        "random-games": "insufficient material, 75-move and fivefold emulated in Python",
        "python-perft": "copy-make (no pop)",
    }

    def perft_setup(self, fen: str, depth: int) -> Callable[[], int]:
        board_type = self.m.Board

        def perft(board: Any, depth: int) -> int:
            if depth == 0:
                return 1
            nodes = 0
            for move in board.generate_moves():
                child = board.__copy__()
                child.play_unchecked(move)
                nodes += perft(child, depth - 1)
            return nodes

        return lambda: perft(board_type.from_fen(fen), depth)

    def games_setup(self, scripts: GameScripts) -> Callable[[], tuple[int, ...]]:
        cc = self.m
        # cozy-chess encodes castling as king-takes-rook, as python-chess's chess960 UCI does.
        games = [[cc.Move.from_str(u) for u in game] for game in scripts.uci960]
        pawn, knight, bishop, rook, queen = (
            cc.Piece.Pawn,
            cc.Piece.Knight,
            cc.Piece.Bishop,
            cc.Piece.Rook,
            cc.Piece.Queen,
        )
        white, black = cc.Color.White, cc.Color.Black
        rank6, rank3 = cc.Rank.Sixth, cc.Rank.Third
        new_square = cc.Square.new

        def insufficient(board: Any) -> bool:
            if board.pieces(pawn) or board.pieces(rook) or board.pieces(queen):
                return False
            return insufficient_from_bitboards(
                int(board.colors(white)),
                int(board.colors(black)),
                0,
                int(board.pieces(knight)),
                int(board.pieces(bishop)),
                0,
                0,
            )

        def run() -> tuple[int, ...]:
            plies = legal = mate = stale = insuff = seventy = five = 0
            for game in games:
                board = cc.Board()
                seen: dict[int, int] = {}
                for move in [*game, None]:
                    moves = board.generate_moves()
                    n = len(moves)
                    legal += n
                    in_check = bool(board.checkers())
                    mate += n == 0 and in_check
                    stale += n == 0 and not in_check
                    insuff += insufficient(board)
                    seventy += board.halfmove_clock >= 150 and n > 0
                    # python-chess keys repetitions on the en-passant square only when an
                    # en-passant capture is legal.
                    ep_file = board.en_passant()
                    key = board.hash_without_ep()
                    if ep_file is not None:
                        rank = rank6 if board.side_to_move() == white else rank3
                        target = new_square(ep_file, rank)
                        if any(
                            m.to_square == target and board.piece_on(m.from_square) == pawn
                            for m in moves
                        ):
                            key = board.hash()
                    count = seen.get(key, 0) + 1
                    seen[key] = count
                    five += count >= 5
                    if move is None:
                        break
                    board.play_unchecked(move)
                    plies += 1
            return (len(games), plies, legal, mate, stale, insuff, seventy, five)

        return run

    def fens_setup(self, fens: list[str]) -> Callable[[], int]:
        from_fen = self.m.Board.from_fen

        def run() -> int:
            total = 0
            for fen in fens:
                total += len(from_fen(fen).generate_moves())
            return total

        return run


class RustChess(Adapter):
    """rust-chess: in-place ``make_move`` plus copying ``make_move_new``; no undo."""

    notes: ClassVar[dict[str, str]] = {"python-perft": "copy-make (make_move_new, no pop)"}

    def perft_setup(self, fen: str, depth: int) -> Callable[[], int]:
        board_type = self.m.Board

        def perft(board: Any, depth: int) -> int:
            if depth == 0:
                return 1
            nodes = 0
            for move in list(board.generate_legal_moves()):
                nodes += perft(board.make_move_new(move, False), depth - 1)
            return nodes

        return lambda: perft(board_type(fen), depth)

    def games_setup(self, scripts: GameScripts) -> Callable[[], tuple[int, ...]]:
        rc = self.m
        games = [[rc.Move.from_uci(u) for u in game] for game in scripts.uci]

        def run() -> tuple[int, ...]:
            plies = legal = mate = stale = insuff = seventy = five = 0
            for game in games:
                board = rc.Board()
                for move in [*game, None]:
                    # the move generator is stateful; make_move (and a new board) restart it
                    legal += len(list(board.generate_legal_moves()))
                    mate += board.is_checkmate()
                    stale += board.is_stalemate()
                    insuff += board.is_insufficient_material()
                    seventy += board.is_seventy_five_moves()
                    five += board.is_fivefold_repetition()
                    if move is None:
                        break
                    board.make_move(move, False)
                    plies += 1
            return (len(games), plies, legal, mate, stale, insuff, seventy, five)

        return run

    def fens_setup(self, fens: list[str]) -> Callable[[], int]:
        board_type = self.m.Board

        def run() -> int:
            total = 0
            for fen in fens:
                total += len(board_type(fen).generate_legal_moves())
            return total

        return run


class FastChess(Adapter):
    """fastchess: moves are UCI strings; copy + ``push_uci``; few rules beyond ``is_check``."""

    notes: ClassVar[dict[str, str]] = {
        "random-games": "stalemate, mate, insufficient material, 75-move and fivefold "
        "emulated in Python",
        "python-perft": "copy-make (no pop), moves as UCI strings",
    }

    def perft_setup(self, fen: str, depth: int) -> Callable[[], int]:
        board_type = self.m.Board

        def perft(board: Any, depth: int) -> int:
            if depth == 0:
                return 1
            nodes = 0
            for move in board.legal_moves_uci():
                child = board.copy()
                child.push_uci(move)
                nodes += perft(child, depth - 1)
            return nodes

        return lambda: perft(board_type(fen), depth)

    def games_setup(self, scripts: GameScripts) -> Callable[[], tuple[int, ...]]:
        board_type = self.m.Board
        games = scripts.uci

        def insufficient(placement: str) -> bool:
            if any(c in placement for c in "PpRrQq"):
                return False
            white = black = knights = bishops = 0
            square = 56
            for c in placement:
                if c == "/":
                    square -= 16
                elif c.isdigit():
                    square += int(c)
                else:
                    bit = 1 << square
                    if c.isupper():
                        white |= bit
                    else:
                        black |= bit
                    if c in "Nn":
                        knights |= bit
                    elif c in "Bb":
                        bishops |= bit
                    square += 1
            return insufficient_from_bitboards(white, black, 0, knights, bishops, 0, 0)

        def run() -> tuple[int, ...]:
            plies = legal = mate = stale = insuff = seventy = five = 0
            for game in games:
                board = board_type()
                seen: dict[str, int] = {}
                for move in [*game, None]:
                    n = len(board.legal_moves_uci())
                    legal += n
                    in_check = board.is_check()
                    mate += n == 0 and in_check
                    stale += n == 0 and not in_check
                    fields = board.fen().split(" ")
                    insuff += insufficient(fields[0])
                    seventy += int(fields[4]) >= 150 and n > 0
                    if fields[3] != "-" and not board.has_legal_en_passant():
                        fields[3] = "-"
                    key = " ".join(fields[:4])
                    count = seen.get(key, 0) + 1
                    seen[key] = count
                    five += count >= 5
                    if move is None:
                        break
                    board.push_uci(move)
                    plies += 1
            return (len(games), plies, legal, mate, stale, insuff, seventy, five)

        return run

    def fens_setup(self, fens: list[str]) -> Callable[[], int]:
        board_type = self.m.Board

        def run() -> int:
            total = 0
            for fen in fens:
                total += len(board_type(fen).legal_moves_uci())
            return total

        return run


@dataclass
class Impl:
    name: str  # as shown in the table
    module: str  # import name
    dist: str  # distribution name on PyPI, for the version
    adapter_type: type[Adapter]
    adapter: Adapter | None = None
    status: str = ""  # why it is unavailable, if it is
    version: str = ""


def load_impls() -> list[Impl]:
    impls = [
        Impl("python-chess", "chess", "chess", PythonChessLike),
        Impl("pychess-rs", "pychess_rs", "pychess-rs", PythonChessLike),
        Impl("cozy-chess-py", "cozy_chess", "cozy-chess-py", CozyChess),
        Impl("rust-chess", "rust_chess", "rust-chess", RustChess),
        Impl("pyrust-chess", "pyrust_chess", "pyrust-chess", PythonChessLike),
        Impl("fastchess", "fastchess", "fastchess", FastChess),
    ]
    for impl in impls:
        try:
            module = importlib.import_module(impl.module)
        except ModuleNotFoundError as exc:
            impl.status = "not installed" if exc.name == impl.module else f"import failed: {exc}"
        except Exception as exc:  # an extension that fails to load is "not importable"
            impl.status = f"import failed: {type(exc).__name__}: {exc}"
        else:
            impl.adapter = impl.adapter_type(module)
            try:
                impl.version = importlib.metadata.version(impl.dist)
            except importlib.metadata.PackageNotFoundError:
                impl.version = getattr(module, "__version__", "?")
        if impl.status:
            log(f"  {impl.name}: {impl.status}")
    return impls
