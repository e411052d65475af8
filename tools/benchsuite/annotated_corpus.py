"""A deterministic corpus of lichess-style annotated games, for benchmarking PGN readers.

Every game is real (legal moves played with pychess-rs, chosen by a seeded generator that
prefers captures and checks now and then, so games look less like random walks) and is
written the way lichess exports an analysed game: its tag set (``UTCDate``, ``WhiteElo``,
``TimeControl``, ``Termination``, ...), a ``[%clk h:mm:ss]`` comment on every move, a
``[%eval x.xx]`` or ``[%eval #n]`` on most, NAGs as ``$n`` and as ``!?``/``?!`` glyphs,
text comments, and variations (some nested, some with comments of their own). A few games
are broken on purpose, as real files are: an illegal SAN, garbage tokens, and a game cut off
in the middle. The same ``(games, seed)`` gives the same bytes on every machine.

    python tools/benchsuite/annotated_corpus.py --games 500 --seed 1 > annotated.pgn

``generate(games, seed)`` returns the text; ``write(path, games, seed)`` writes it.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass

import pychess_rs as chess

# Glyphs and NAG numbers written after a move (lichess writes glyphs, ChessBase `$n`).
_NAG_TOKENS = ("$1", "$2", "$3", "$4", "$5", "$6", "!?", "?!", "?", "!", "??")
_JUDGEMENTS = ("Inaccuracy", "Mistake", "Blunder")
_TIME_CONTROLS = ((60, 0), (180, 0), (180, 2), (300, 3), (600, 0), (900, 10))
_TERMINATIONS = ("Normal", "Time forfeit")
_NAMES = (
    "DrNykterstein",
    "penguingim1",
    "Zhigalko_Sergei",
    "nihalsarin2004",
    "Msb2",
    "Fins",
    "Night-King96",
    "RebeccaHarris",
    "alireza2003",
    "opperwezen",
    "Kingscrusher-YouTube",
)
_OPENINGS = (
    ("B01", "Scandinavian Defense"),
    ("C50", "Italian Game"),
    ("D02", "Queen's Pawn Game"),
    ("A45", "Indian Defense"),
    ("B20", "Sicilian Defense"),
    ("C00", "French Defense"),
    ("A00", "Van't Kruijs Opening"),
    ("E60", "King's Indian Defense"),
)


def _clock(seconds: int) -> str:
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def _eval_text(rng: random.Random, score: float) -> str:
    if abs(score) > 4 and rng.random() < 0.3:
        mate = rng.randint(1, 9)
        return f"#{mate if score > 0 else -mate}"
    return f"{score:.2f}"


def _pick_move(rng: random.Random, board: chess.Board) -> chess.Move | None:
    """A legal move: a capture or a check a third of the time when there is one, otherwise
    any legal move (sorted first, so the choice does not depend on generation order)."""
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    if not moves:
        return None
    if rng.random() < 0.35:
        forcing = [m for m in moves if board.is_capture(m) or board.gives_check(m)]
        if forcing:
            return rng.choice(forcing)
    return rng.choice(moves)


@dataclass
class _Writer:
    """Movetext tokens, with the move numbers PGN needs after comments and variations."""

    rng: random.Random
    tokens: list[str]
    force_number: bool = True

    def move(self, board: chess.Board, move: chess.Move) -> None:
        if board.turn == chess.WHITE:
            self.tokens.append(f"{board.fullmove_number}.")
        elif self.force_number:
            self.tokens.append(f"{board.fullmove_number}...")
        self.tokens.append(board.san(move))
        self.force_number = False

    def nag(self, token: str) -> None:
        """A NAG: ``$n`` as its own token, a glyph (``!?``) stuck to the move as lichess writes
        it."""
        if token.startswith("$"):
            self.tokens.append(token)
        else:
            self.tokens[-1] += token

    def comment(self, text: str) -> None:
        self.tokens.append("{ " + text + " }")
        self.force_number = True

    def variation(self, board: chess.Board, depth: int) -> None:
        """A sideline from ``board`` (the position before the mainline move): a few moves,
        some commented, sometimes with a sideline of its own."""
        line = board.copy(stack=False)
        self.tokens.append("(")
        self.force_number = True
        for ply in range(self.rng.randint(1, 8)):
            move = _pick_move(self.rng, line)
            if move is None:
                break
            before = line.copy(stack=False)
            self.move(line, move)
            line.push(move)
            if self.rng.random() < 0.15:
                self.nag(self.rng.choice(_NAG_TOKENS))
            if self.rng.random() < 0.2:
                self.comment(f"[%eval {_eval_text(self.rng, self.rng.gauss(0, 3))}]")
            if ply and depth < 2 and self.rng.random() < 0.12:
                self.variation(before, depth + 1)
        self.tokens.append(")")
        self.force_number = True


def _illegal_san(board: chess.Board) -> str:
    """A well-formed SAN that is not legal in ``board``."""
    for san in ("Ke4", "Qd5", "Nf6", "Bb5", "Ra4", "e5", "Kxh8", "Qh1"):
        try:
            board.parse_san(san)
        except ValueError:
            return san
    return "Kb9"  # not reached: some piece always lacks a move above


def _game(rng: random.Random, index: int, defect: str | None) -> tuple[list[str], list[str]]:
    """The tag lines and movetext tokens of one game, with ``defect`` (``illegal``,
    ``garbage``, ``truncated``) at a random ply after the opening when given."""
    base, increment = rng.choice(_TIME_CONTROLS)
    board = chess.Board()
    writer = _Writer(rng, [])
    clocks = [base, base]
    score = rng.gauss(0.2, 0.3)
    plies = rng.randint(16, 150)
    defect_at = rng.randint(6, plies - 1)
    for ply in range(plies):
        move = _pick_move(rng, board)
        if move is None:
            break
        if defect is not None and ply == defect_at:
            if defect == "truncated":
                return _tags(rng, index, base, increment, "*"), writer.tokens
            if defect == "illegal":
                writer.tokens.append(_illegal_san(board))
            else:
                writer.tokens.extend(("@@", "xyzzy", "Nz9", "e4!!!"))
        before = board.copy(stack=False)
        writer.move(board, move)
        board.push(move)
        side = 0 if before.turn == chess.WHITE else 1
        clocks[side] = max(0, clocks[side] - rng.randint(0, max(2, base // 40)) + increment)
        swing = rng.gauss(0, 0.4)
        score += swing
        nag = None
        if abs(swing) > 0.9 and rng.random() < 0.6:
            nag = rng.choice(("?", "??", "?!", "$2", "$4", "$6"))
        elif rng.random() < 0.05:
            nag = rng.choice(_NAG_TOKENS)
        if nag:
            writer.nag(nag)
        if nag in ("?", "??", "?!", "$2", "$4", "$6") and rng.random() < 0.7:
            judgement = rng.choice(_JUDGEMENTS)
            writer.comment(
                f"({score - swing:.2f} \u2192 {score:.2f}) {judgement}. "
                f"{before.san(_pick_move(rng, before) or move)} was best."
            )
        parts = []
        if rng.random() < 0.75:
            parts.append(f"[%eval {_eval_text(rng, score)}]")
        parts.append(f"[%clk {_clock(clocks[side])}]")
        writer.comment(" ".join(parts))
        if rng.random() < 0.06:
            writer.variation(before, 0)
        if board.is_game_over():
            break
    outcome = board.outcome()
    if outcome is not None:
        result = outcome.result()
    else:
        result = rng.choice(("1-0", "0-1", "1/2-1/2"))
    writer.tokens.append(result)
    return _tags(rng, index, base, increment, result), writer.tokens


def _tags(rng: random.Random, index: int, base: int, increment: int, result: str) -> list[str]:
    """lichess's tag set for a game."""
    white, black = rng.sample(_NAMES, 2)
    eco, opening = rng.choice(_OPENINGS)
    elo = rng.randint(1200, 2900)
    diff = rng.randint(-8, 8)
    day = index % 28 + 1
    site = "".join(
        rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in range(8)
    )
    speed = "Bullet" if base + 40 * increment < 180 else "Blitz" if base < 600 else "Rapid"
    tags = [
        ("Event", f"Rated {speed} game"),
        ("Site", f"https://lichess.org/{site}"),
        ("Date", f"2024.03.{day:02d}"),
        ("Round", "-"),
        ("White", white),
        ("Black", black),
        ("Result", result),
        ("UTCDate", f"2024.03.{day:02d}"),
        ("UTCTime", f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"),
        ("WhiteElo", str(elo)),
        ("BlackElo", str(elo + rng.randint(-150, 150))),
        ("WhiteRatingDiff", f"{diff:+d}"),
        ("BlackRatingDiff", f"{-diff:+d}"),
        ("Variant", "Standard"),
        ("TimeControl", f"{base}+{increment}"),
        ("ECO", eco),
        ("Opening", opening),
        ("Termination", rng.choice(_TERMINATIONS)),
        ("Annotator", "lichess.org"),
    ]
    return [f'[{name} "{value}"]' for name, value in tags]


def _wrap(tokens: list[str], width: int = 80) -> list[str]:
    lines: list[str] = []
    current = ""
    for token in tokens:
        if current and len(current) + 1 + len(token) > width:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
    if current:
        lines.append(current)
    return lines


def generate(games: int, seed: int = 1, *, broken_every: int = 50) -> str:
    """The corpus: ``games`` games, one in every ``broken_every`` broken (an illegal SAN,
    garbage tokens, a game cut off, in turn)."""
    rng = random.Random(seed)
    out: list[str] = []
    for index in range(games):
        defect = None
        if index % broken_every == broken_every // 3:
            defect = ("illegal", "garbage", "truncated")[index // broken_every % 3]
        tags, tokens = _game(rng, index, defect)
        out.extend(tags)
        out.append("")
        out.extend(_wrap(tokens))
        out.append("")
    return "\n".join(out) + "\n"


def write(path: str, games: int, seed: int = 1) -> int:
    """Writes the corpus to ``path``; returns its size in bytes."""
    data = generate(games, seed).encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)
    return len(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sys.stdout.write(generate(args.games, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
