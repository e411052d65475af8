"""`pychess-rs play` on a pseudo-terminal (pexpect): colour, a live prompt while the engine
thinks (`stop` and Ctrl-C make it move now), Ctrl-C and Ctrl-D at the prompt, and a whole
game against the engine."""

from __future__ import annotations

import io
import os
import random
import re
import signal
import sys
import time
from pathlib import Path

import chess
import chess.pgn
import pytest

pexpect = pytest.importorskip("pexpect")

PROMPT = r"\d+\.+ (White|Black)> "
PLAYS = re.compile(r"(White|Black) plays (\S+)")


def _as_from_a_terminal() -> None:
    """In the child, before exec: Ctrl-C's SIGINT as an interactive shell leaves it (default).

    A process inherits ignored signals, and Python honours that: it turns SIGINT into
    KeyboardInterrupt only if SIGINT is not ignored when it starts, the convention that lets a
    script's ``cmd &`` (or any launcher that ignores SIGINT) keep Ctrl-C at the terminal away
    from the command. ``pychess-rs play`` keeps that convention too. These tests play a user at
    a terminal, so the game must start as a shell would start it there, whatever the test run
    inherited (``tools/test &`` in a script starts pytest with SIGINT ignored).
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(args: list[str], *, term: str = "xterm-256color") -> pexpect.spawn:
    env = {**os.environ, "TERM": term, "PYTHONIOENCODING": "utf-8"}
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable,
        ["-m", "pychess_rs", "play", *args],
        encoding="utf-8",
        timeout=30,
        env=env,
        dimensions=(60, 120),
        preexec_fn=_as_from_a_terminal,
    )


def finish(child: pexpect.spawn) -> str:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    text: str = child.before
    assert "Traceback" not in text
    return text


def read_pgn(path: Path) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(path.read_text("utf-8")))
    assert game is not None
    return game


def test_colour_highlights_on_a_terminal(tmp_path: Path) -> None:
    save = tmp_path / "game.pgn"
    child = spawn(["--depth", "1", "--level", "1", "--save", str(save)])
    child.expect(PROMPT)
    assert "\x1b[48;5;" in child.before  # coloured squares
    child.sendline("moves e2")
    child.expect("pawn on e2: e3 e4")
    assert "\x1b[48;5;114m" in child.before  # the squares it reaches
    assert "\x1b[48;5;75m" in child.before  # the pawn asked about
    child.expect(PROMPT)
    child.sendline("Nf6")
    child.expect("Nf6 is illegal: no knight can reach f6")
    child.expect(PROMPT)
    child.sendline("e4")
    child.expect("Black plays")
    child.expect(PROMPT)
    child.sendline("quit")
    out = finish(child)
    assert "Game over. Game abandoned." in out
    game = read_pgn(save)
    assert game.headers["Result"] == "*"
    assert next(iter(game.mainline_moves())).uci() == "e2e4"


def test_stop_and_ctrl_c_make_the_engine_move_now(tmp_path: Path) -> None:
    save = tmp_path / "game.pgn"
    child = spawn(["--movetime", "60", "--level", "max", "--save", str(save)])
    child.expect(PROMPT)
    child.sendline("e4")
    child.expect("Black is thinking")
    start = time.monotonic()
    child.sendline("hello")  # anything but stop is answered, not lost in the search
    child.expect("type stop to make it move now")
    child.sendline("stop")
    child.expect("Black plays", timeout=15)
    assert time.monotonic() - start < 15
    child.expect(PROMPT)
    child.sendline("d4")
    child.expect("Black is thinking")
    start = time.monotonic()
    child.sendintr()
    child.expect("Black plays", timeout=15)
    assert time.monotonic() - start < 15
    child.expect(PROMPT)
    child.sendline("resign")
    out = finish(child)
    assert "Game over. White resigns: Black wins (0-1)." in out
    game = read_pgn(save)
    assert len(list(game.mainline_moves())) == 4
    assert game.headers["Result"] == "0-1"


def test_ctrl_c_at_the_prompt_and_term_dumb(tmp_path: Path) -> None:
    save = tmp_path / "game.pgn"
    child = spawn(["--white", "human", "--black", "human", "--save", str(save)], term="dumb")
    child.expect(PROMPT)
    assert "\x1b[" not in child.before  # TERM=dumb: plain text with markers
    child.sendline("e4")
    child.expect(PROMPT)
    assert "[♙]" in child.before  # the last move, marked without colour
    child.sendintr()
    out = finish(child)
    assert "Game over. Game interrupted." in out
    assert "1. e4 { Game interrupted. } *" in out
    assert read_pgn(save).headers["Result"] == "*"


def test_ctrl_d_at_the_prompt(tmp_path: Path) -> None:
    save = tmp_path / "game.pgn"
    child = spawn(["--white", "human", "--black", "human", "--save", str(save)])
    child.expect(PROMPT)
    child.sendeof()
    out = finish(child)
    assert "Game over. Game left unfinished." in out
    assert read_pgn(save).headers["Termination"] == "unterminated"


def test_a_game_against_the_engine_to_its_end(tmp_path: Path) -> None:
    # The human side plays seeded random legal moves (tracked with python-chess from what
    # the game prints); the engine, at the lowest level, plays until the game ends.
    save = tmp_path / "game.pgn"
    child = spawn(["--depth", "1", "--level", "1", "--save", str(save)])
    rng = random.Random(9)
    board = chess.Board()
    announced = None
    while announced is None:
        index = child.expect([PROMPT, r"Game over\. ([^\r\n]*)\r\n"])
        for _, san in PLAYS.findall(child.before):
            board.push_san(san)
        if index == 1:
            announced = child.match.group(1)
            break
        assert len(board.move_stack) < 600, "the game should have ended"
        move = rng.choice(list(board.legal_moves))
        child.sendline(board.san(move))
    finish(child)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None
    assert announced.endswith(f"({outcome.result()}).")
    game = read_pgn(save)
    assert game.headers["Result"] == outcome.result()
    replay = game.board()
    for move in game.mainline_moves():
        replay.push(move)
    assert replay.fen() == board.fen()
