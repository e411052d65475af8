"""Inputs of the Python-level workloads, drawn once with python-chess from fixed seeds, so
that every library replays the same games and parses the same FENs."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .config import MAX_PLIES


@dataclass
class GameScripts:
    """Random games: per game the moves in standard UCI and in king-takes-rook UCI."""

    uci: list[list[str]] = field(default_factory=list)
    uci960: list[list[str]] = field(default_factory=list)
    expected: tuple[int, ...] = ()


def game_checksum_fields() -> str:
    return "(games, plies, legal moves, mates, stalemates, insufficient, 75-move, fivefold)"


def make_games(chess: Any, n_games: int, seed: int) -> GameScripts:
    rng = random.Random(seed)
    scripts = GameScripts()
    plies = legal = mate = stale = insuff = seventy = five = 0
    for _ in range(n_games):
        board = chess.Board()
        uci: list[str] = []
        uci960: list[str] = []
        while True:
            moves = list(board.legal_moves)
            legal += len(moves)
            flags = (
                board.is_checkmate(),
                board.is_stalemate(),
                board.is_insufficient_material(),
                board.is_seventyfive_moves(),
                board.is_fivefold_repetition(),
            )
            mate += flags[0]
            stale += flags[1]
            insuff += flags[2]
            seventy += flags[3]
            five += flags[4]
            if any(flags) or len(uci) >= MAX_PLIES:
                break
            move = rng.choice(moves)
            uci.append(move.uci())
            uci960.append(board.uci(move, chess960=True))
            board.push(move)
            plies += 1
        scripts.uci.append(uci)
        scripts.uci960.append(uci960)
    scripts.expected = (n_games, plies, legal, mate, stale, insuff, seventy, five)
    return scripts


def make_fens(chess: Any, count: int, seed: int) -> tuple[list[str], int]:
    """``count`` FENs sampled every few plies from random games; and their legal-move total.

    Positions whose halfmove clock is past 100 are skipped: cozy-chess rejects those FENs.
    """
    rng = random.Random(seed)
    fens: list[str] = []
    total = 0
    while len(fens) < count:
        board = chess.Board()
        for ply in range(MAX_PLIES):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
            if ply % 5 == 2 and board.halfmove_clock <= 100:
                fens.append(board.fen())
                total += board.legal_moves.count()
                if len(fens) == count:
                    break
    return fens, total
