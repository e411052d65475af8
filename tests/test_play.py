"""`pychess-rs play` through a pipe: scripted games, each ending checked as announced and
as written (the saved PGN read back with python-chess)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pychess_rs
from pychess_rs.cli import main
from pychess_rs.play.engine_player import LEVELS, parse_level
from pychess_rs.play.render import Marks, Style, diagram, material_balance, status_line

# Fast and reproducible: the engine's weakened levels are seeded by the position, and a
# depth limit makes the full-strength search deterministic too.
FAST = ["--depth", "1", "--level", "1"]


def run(
    tmp_path: Path, args: list[str], lines: list[str] | bytes, *, status: int = 0
) -> tuple[str, chess.pgn.Game | None]:
    """Plays ``pychess-rs play ARGS`` in this process with ``lines`` as its piped stdin
    (quicker than a process per game; ``test_a_game_in_a_real_process`` covers that)."""
    save = tmp_path / "game.pgn"
    if save.exists():
        save.unlink()
    data = lines if isinstance(lines, bytes) else ("\n".join(lines) + "\n").encode()
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    saved = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = stdin, stdout
    try:
        code = main(["play", "--save", str(save), *args])
    finally:
        sys.stdin, sys.stdout = saved
    stdout.flush()
    buffer = stdout.buffer
    assert isinstance(buffer, io.BytesIO)
    out = buffer.getvalue().decode("utf-8")
    assert code == status, out
    assert "\x1b[" not in out, "a pipe gets no colour"
    game = chess.pgn.read_game(io.StringIO(save.read_text("utf-8"))) if save.exists() else None
    return out, game


def mainline(game: chess.pgn.Game) -> list[str]:
    board = game.board()
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    return sans


def final_board(game: chess.pgn.Game) -> chess.Board:
    board = game.board()
    for move in game.mainline_moves():
        board.push(move)
    return board


def test_fools_mate_with_garbage_in_between(tmp_path: Path) -> None:
    out, game = run(
        tmp_path,
        ["--white", "human", "--black", "human"],
        ["xyzzy", "f3", "Qh5", "e5", "Ke2", "", "g4", "💥", "Qh4"],
    )
    assert '"xyzzy" is not a move (moves look like Nf3, exd5, O-O, e8=Q or g1f3); type help' in out
    assert "Qh5 is illegal: the queen on d8 cannot reach h5" in out
    assert "Ke2 is illegal: your own pawn stands on e2" in out
    assert "Game over. Checkmate: Black wins (0-1)." in out
    assert game is not None
    assert mainline(game) == ["f3", "e5", "g4", "Qh4#"]
    assert game.headers["Result"] == "0-1"
    assert game.headers["White"] == game.headers["Black"] == "Human"
    assert game.headers["Termination"] == "normal"
    for tag in ("Event", "Site", "Date", "Round"):
        assert game.headers[tag]
    assert "FEN" not in game.headers
    assert final_board(game).is_checkmate()


def test_stalemate_against_the_engine(tmp_path: Path) -> None:
    fen = "7k/8/6K1/8/8/8/5Q2/8 w - - 0 1"
    out, game = run(tmp_path, ["--fen", fen, *FAST], ["Qf7"])
    assert "Game over. Stalemate (1/2-1/2)." in out
    assert game is not None
    assert mainline(game) == ["Qf7"]
    assert game.headers["Result"] == "1/2-1/2"
    assert game.headers["FEN"] == fen and game.headers["SetUp"] == "1"
    assert game.headers["Black"].startswith("pychess-rs ")
    assert "level 1" in game.headers["Black"]
    assert final_board(game).is_stalemate()


def test_threefold_claim(tmp_path: Path) -> None:
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    out, game = run(
        tmp_path,
        ["--white", "human", "--black", "human"],
        ["claim", *shuffle, *shuffle, "claim"],
    )
    assert "no draw to claim: this position has occurred once" in out
    assert "Threefold repetition: White may claim a draw (type claim)." in out
    assert "Game over. Draw claimed: threefold repetition (1/2-1/2)." in out
    assert game is not None
    assert mainline(game) == shuffle * 2
    assert game.headers["Result"] == "1/2-1/2"
    assert final_board(game).can_claim_threefold_repetition()


def test_fifty_move_claim(tmp_path: Path) -> None:
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80"
    out, game = run(
        tmp_path, ["--fen", fen, "--white", "human", "--black", "human"], ["Ra2", "claim"]
    )
    assert "halfmove clock 100" in out
    assert "Black may claim a draw" in out
    assert "Game over. Draw claimed: the 50-move rule (1/2-1/2)." in out
    assert game is not None
    assert final_board(game).can_claim_fifty_moves()


def test_a_mating_hundredth_ply_is_no_fifty_move_claim(tmp_path: Path) -> None:
    # python-chess: a claim by a move needs the game to go on after it; this one mates.
    fen = "7k/8/6K1/8/8/8/8/R7 w - - 99 80"
    out, game = run(
        tmp_path, ["--fen", fen, "--white", "human", "--black", "human"], ["claim Ra8", "Ra8"]
    )
    assert "no draw to claim with Ra8#" in out
    assert "Game over. Checkmate: White wins (1-0)." in out
    assert game is not None and game.headers["Result"] == "1-0"


def test_underpromotion_asks_which_piece(tmp_path: Path) -> None:
    fen = "8/P6k/8/8/8/8/7P/K7 w - - 0 1"
    out, game = run(tmp_path, ["--fen", fen, *FAST], ["a8", "x", "n", "resign"])
    assert "Promote to which piece? (Q/R/B/N)" in out
    assert "answer Q (queen), R (rook), B (bishop) or N (knight)" in out
    assert "White plays a8=N" in out
    assert "Game over. White resigns: Black wins (0-1)." in out
    assert game is not None
    assert mainline(game)[0] == "a8=N"
    assert game.headers["Result"] == "0-1"


def test_promotion_in_uci_and_with_the_piece_named(tmp_path: Path) -> None:
    fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1"
    out, game = run(tmp_path, ["--fen", fen, "--white", "human", "--black", "human"],
                    ["a7a8", "r", "Kg6", "quit"])  # fmt: skip
    assert "White plays a8=R" in out
    assert "Game over. Game abandoned." in out
    assert game is not None
    assert mainline(game) == ["a8=R", "Kg6"]
    assert game.headers["Result"] == "*"
    assert game.headers["Termination"] == "unterminated"


def test_undo_against_the_engine_takes_back_the_pair(tmp_path: Path) -> None:
    out, game = run(tmp_path, FAST, ["undo", "e4", "undo", "d4", "resign"])
    assert "nothing to undo" in out
    assert "took back e4 " in out
    assert "Game over. White resigns: Black wins (0-1)." in out
    assert game is not None
    moves = mainline(game)
    assert moves[0] == "d4" and len(moves) == 2
    assert game.headers["White"] == "Human"


def test_resignation_as_black(tmp_path: Path) -> None:
    out, game = run(tmp_path, ["--white", "engine", "--black", "human", *FAST], ["resign"])
    assert "Game over. Black resigns: White wins (1-0)." in out
    assert game is not None
    assert len(mainline(game)) == 1
    assert game.headers["Result"] == "1-0"
    assert game.headers["White"].startswith("pychess-rs ")


def test_draw_offer_accepted_by_an_engine_that_is_worse(tmp_path: Path) -> None:
    out, game = run(tmp_path, ["--fen", "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1", *FAST], ["draw"])
    assert "Black accepts the draw." in out
    assert "Game over. Draw by agreement (1/2-1/2)." in out
    assert game is not None
    assert game.headers["Result"] == "1/2-1/2"


def test_draw_offer_refused_by_an_engine_that_is_better(tmp_path: Path) -> None:
    out, game = run(tmp_path, ["--fen", "qq2k3/8/8/8/8/8/8/4K3 w - - 0 1", *FAST], ["draw", "quit"])
    assert "Black declines the draw. Play on." in out
    assert "Game over. Game abandoned." in out
    assert game is not None
    assert game.headers["Result"] == "*"


def test_draw_offer_between_humans(tmp_path: Path) -> None:
    out, game = run(
        tmp_path, ["--white", "human", "--black", "human"], ["draw", "n", "e4", "draw", "yes"]
    )
    assert "White offers a draw. Black, do you accept? (y/n)" in out
    assert "Black declines the draw." in out
    assert "Black offers a draw. White, do you accept? (y/n)" in out
    assert "Game over. Draw by agreement (1/2-1/2)." in out
    assert game is not None
    assert mainline(game) == ["e4"]


def test_engine_against_engine_to_the_end(tmp_path: Path) -> None:
    out, game = run(tmp_path, ["--white", "engine", "--black", "engine", *FAST], [])
    assert game is not None
    board = final_board(game)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None, out
    assert game.headers["Result"] == outcome.result()
    assert f"({outcome.result()})." in out
    # Read back through pychess-rs too: the same game, the same end.
    ours = pychess_rs.Board()
    for move in game.mainline_moves():
        ours.push(pychess_rs.Move.from_uci(move.uci()))
    assert ours.fen() == board.fen()


@pytest.mark.parametrize(
    ("fen", "move", "announcement"),
    [
        ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "Kxe2", "Draw by insufficient material (1/2-1/2)."),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 149 90", "Ra2", "Draw by the 75-move rule (1/2-1/2)."),
    ],
)
def test_automatic_draws(tmp_path: Path, fen: str, move: str, announcement: str) -> None:
    out, game = run(tmp_path, ["--fen", fen, "--white", "human", "--black", "human"], [move])
    assert f"Game over. {announcement}" in out
    assert game is not None
    assert game.headers["Result"] == "1/2-1/2"
    assert final_board(game).is_game_over()


def test_fivefold_repetition_ends_the_game(tmp_path: Path) -> None:
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    out, game = run(tmp_path, ["--white", "human", "--black", "human"], shuffle * 4)
    assert "Game over. Draw by fivefold repetition (1/2-1/2)." in out
    assert game is not None
    assert len(mainline(game)) == 16
    assert final_board(game).is_fivefold_repetition()


def test_explanations_for_illegal_moves(tmp_path: Path) -> None:
    # White: king e1, rooks a1/h1, knights b1/f3, a bishop on e2 pinned by the rook on e8;
    # the black knight on g3 covers f1.
    fen = "b3r1k1/8/8/8/8/5Nn1/4B3/RN2K2R w KQ - 0 1"
    lines = ["Nd2", "Bd3", "Ke2", "O-O", "O-O-O", "Nd5", "e4", "quit"]
    out, _ = run(tmp_path, ["--fen", fen, "--white", "human", "--black", "human"], lines)
    assert "ambiguous: Nbd2 or Nfd2?" in out
    assert "Bd3 is illegal: your bishop on e2 is pinned to your king" in out
    assert "Ke2 is illegal: your own bishop stands on e2" in out
    assert "O-O is illegal: the king would cross or land on f1, which is attacked" in out
    assert "O-O-O is illegal: the piece on b1 stands between king and rook" in out
    assert "Nd5 is illegal: no knight can reach d5" in out
    assert "e4 is illegal: you have no pawn" in out


def test_moves_shows_targets_and_captures_in_plain_text(tmp_path: Path) -> None:
    fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"
    out, _ = run(
        tmp_path,
        ["--fen", fen, "--white", "human", "--black", "human", "--ascii"],
        ["moves e4", "moves", "moves d5", "moves z9", "moves e3", "quit"],
    )
    assert "5  .  .  . <p> *  .  .  .  5" in out
    assert "4  .  .  .  . (P) .  .  .  4" in out
    assert "* can go   < > can capture" in out
    assert "pawn on e4: e5 exd5" in out
    assert "legal moves: " in out
    assert "the pawn on d5 is Black's" in out
    assert "'z9' is not a square" in out
    assert "there is no piece on e3" in out


def test_hint_fen_pgn_flip_and_help(tmp_path: Path) -> None:
    out, game = run(
        tmp_path,
        ["--white", "human", "--black", "human", "--ascii", "--depth", "2"],
        ["hint", "fen", "e4", "pgn", "flip", "help", "stop", "quit"],
    )
    assert "hint: " in out and "evaluation" in out
    assert chess.STARTING_FEN in out
    assert "1. e4 *" in out
    flipped = out.split("1... Black> flip")[1]
    assert flipped.lstrip("\n").splitlines()[1].startswith("1  R  N  B  K  Q  B  N  R  1")
    assert "Commands:" in out and "claim" in out
    assert "nothing to stop: it is your move" in out
    assert game is not None and mainline(game) == ["e4"]


def test_resume_from_pgn(tmp_path: Path) -> None:
    source = tmp_path / "source.pgn"
    source.write_text(
        '[Event "x"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6 3. d4) '
        "3. Bb5 $1 a6 *\n",
        encoding="utf-8",
    )
    out, game = run(tmp_path, ["--pgn", str(source), *FAST], ["Ba4", "resign"])
    assert "White plays Ba4" in out
    assert game is not None
    moves = mainline(game)
    assert moves[:7] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]
    assert "FEN" not in game.headers
    assert game.headers["Result"] == "0-1"


def test_chess960_start(tmp_path: Path) -> None:
    out, game = run(tmp_path, ["--chess960", "0", "--white", "human", "--black", "human"],
                    ["e4", "quit"])  # fmt: skip
    assert "8  ♝  ♝  ♛  ♞  ♞  ♜  ♚  ♜  8" in out
    assert game is not None
    assert game.headers["Variant"] == "Chess960"
    assert game.headers["FEN"] == chess.Board.from_chess960_pos(0).fen()
    assert mainline(game) == ["e4"]


def test_a_game_in_a_real_process(tmp_path: Path) -> None:
    save = tmp_path / "game.pgn"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-m", "pychess_rs", "play", *FAST, "--save", str(save)],
        input=b"e4\nNf3\nquit\n",
        capture_output=True,
        timeout=60,
        env=env,
    )
    out = proc.stdout.decode()
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    assert "♔" in out and "1. White> e4" in out
    game = chess.pgn.read_game(io.StringIO(save.read_text("utf-8")))
    assert game is not None
    assert mainline(game)[0::2] == ["e4", "Nf3"]


def test_undecodable_input_and_eof_are_not_tracebacks(tmp_path: Path) -> None:
    out, game = run(tmp_path, ["--white", "human", "--black", "human"], b"\xff\xfe\x00\ne4\n")
    assert "Game over. Game left unfinished." in out
    assert game is not None and mainline(game) == ["e4"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fen", "not a fen"], "pychess-rs play: "),
        (["--level", "99"], "level must be 1..8"),
        (["--chess960", "960"], "--chess960 takes 0..959"),
        (["--pgn", "/nonexistent/x.pgn"], "cannot read"),
        (["--depth", "0"], "--depth must be at least 1"),
    ],
)
def test_bad_options_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *args]) == 2
    assert message in capsys.readouterr().err


def test_levels_come_from_the_engine_range() -> None:
    low, high = pychess_rs.engine.option_ranges()["limit_elo"]
    assert parse_level("1").elo == low
    assert parse_level(str(LEVELS)).elo is None
    assert parse_level(str(high)).elo is None
    assert parse_level("max").elo is None
    elos = [parse_level(str(n)).elo for n in range(1, LEVELS)]
    assert elos == sorted(elos) and len(set(elos)) == len(elos)
    assert parse_level(str(low + 1)).elo == low + 1
    with pytest.raises(ValueError, match="level must be"):
        parse_level("strong")


def test_diagram_and_status_line() -> None:
    board = pychess_rs.Board("4k3/8/8/8/8/8/4q3/4K3 w - - 30 40")
    style = Style(unicode=False, color=False)
    text = diagram(board, style, marks=Marks(check=board.king(True)))
    assert text.splitlines()[0] == "   a  b  c  d  e  f  g  h"
    assert "1  .  .  .  . !K! .  .  .  1" in text
    assert material_balance(board) == -9
    assert status_line(board) == (
        "Move 40, White to move, material Black +9, halfmove clock 30 "
        "(a draw may be claimed at 100). Check!"
    )
    colour = diagram(board, Style(unicode=True, color=True), marks=Marks())
    assert "\x1b[48;5;" in colour and "♚" in colour


def test_read_move_binding_kinds() -> None:
    board = pychess_rs.Board("4k3/1P6/8/8/8/5N2/8/1N2K3 w - - 0 1")
    kind, moves, message = board.read_move("b8")
    assert kind == "promotion" and message == "promote to which piece: Q, R, B or N?"
    assert [m.uci() for m in moves] == ["b7b8q", "b7b8r", "b7b8b", "b7b8n"]
    assert board.read_move("Nd2")[0::2] == ("ambiguous", "ambiguous: Nbd2 or Nfd2?")
    assert board.read_move("nbd2")[0:2] == ("move", [pychess_rs.Move.from_uci("b1d2")])
    assert board.read_move("Qd4") == ("illegal", [], "Qd4 is illegal: you have no queen")
    assert board.read_move("hello")[0] == "invalid"
    # The strict reader keeps python-chess's errors.
    with pytest.raises(pychess_rs.AmbiguousMoveError):
        board.parse_san("Nd2")


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(max_size=12)
    | st.from_regex(r"[KQRBNPkqrbnp]?[a-h]?[1-8]?x?[a-h][1-8]=?[QRBNK]?[+#]?")
)
def test_read_move_never_raises(text: str) -> None:
    board = pychess_rs.Board("r3k2r/pPp1qpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    kind, moves, message = board.read_move(text)
    assert kind in ("move", "promotion", "ambiguous", "illegal", "invalid")
    assert message and "\n" not in message
    assert (len(moves) > 0) == (kind in ("move", "promotion", "ambiguous"))
    for move in moves:
        assert move in board.legal_moves


def test_a_pgn_that_cannot_be_replayed_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bad.pgn"
    source.write_text('1. e4 e5 2. Ke3 *\n\n[Event "second"]\n\n1. d4 *\n', encoding="utf-8")
    assert main(["play", "--pgn", str(source)]) == 2
    err = capsys.readouterr().err
    assert "move 3 of the PGN: Ke3 is illegal: the king on e1 cannot reach e3" in err


def test_a_claim_through_the_move_that_repeats_the_position(tmp_path: Path) -> None:
    # After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1, Black's Ng8 would bring the start position back a
    # third time: the claim names that move, which is played and written down.
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    out, game = run(
        tmp_path,
        ["--white", "human", "--black", "human"],
        [*shuffle, *shuffle[:3], "claim", "claim Nc6", "claim Ng8"],
    )
    assert "Black may claim a draw with the move that makes it: type claim Ng8" in out
    assert "a draw may be claimed with a move: type claim Ng8" in out
    assert "no draw to claim with Nc6" in out
    assert "Game over. Draw claimed: threefold repetition (1/2-1/2)." in out
    assert game is not None
    assert mainline(game) == shuffle * 2
    assert game.headers["Result"] == "1/2-1/2"
    assert final_board(game).is_repetition(3)
