"""UCI_Variant in the UCI loop: variant positions read by the core's rules, searched by the
engine's variant search; a short game per variant against Fairy-Stockfish when installed."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from pychess_rs import Engine, Limit, Move
from pychess_rs._core import Searcher, variant_position
from pychess_rs.uci import UciSession

DATA = Path(__file__).parent / "data"
FAIRY_STOCKFISH = shutil.which("fairy-stockfish") or (
    "/usr/games/fairy-stockfish" if os.path.exists("/usr/games/fairy-stockfish") else None
)

# Fairy-Stockfish's names, in the order the loop offers them.
NAMES = [
    "chess",
    "3check",
    "antichess",
    "atomic",
    "crazyhouse",
    "giveaway",
    "horde",
    "kingofthehill",
    "racingkings",
    "suicide",
]

# A win in one move (Antichess family: a move that forces the last capture) per variant.
WINS_IN_ONE = {
    "kingofthehill": ("8/8/8/8/8/3K4/8/7k w - - 0 1", {"d3d4", "d3e4"}),
    "3check": ("rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 2", {"d1h5"}),
    "racingkings": ("8/4K3/8/8/8/8/k7/8 w - - 0 1", {"e7d8", "e7e8", "e7f8"}),
    "atomic": ("4k3/4p3/8/5N2/8/8/8/4K3 w - - 0 1", {"f5e7"}),
    "crazyhouse": ("k7/8/1K6/8/8/8/8/8[Q] w - - 0 1", {"Q@b7", "Q@a7"}),
    "horde": ("4k3/8/8/8/8/8/3P4/4q3 b - - 0 1", {"e1d2"}),
    "antichess": ("8/8/8/8/8/8/1p6/R7 w - - 0 1", {"a1c1"}),
    "giveaway": ("8/8/8/8/8/8/1p6/R7 w - - 0 1", {"a1c1"}),
    "suicide": ("8/8/8/8/8/8/1p6/R7 w - - 0 1", {"a1c1"}),
}


def session(commands: str) -> list[str]:
    out = io.StringIO()
    assert UciSession(io.StringIO(commands), out).run() == 0
    return out.getvalue().splitlines()


def bestmove(lines: list[str]) -> str:
    return [line for line in lines if line.startswith("bestmove")][-1].split()[1]


def test_uci_variant_is_a_combo_of_fairy_stockfish_names() -> None:
    lines = session("uci\n")
    option = next(line for line in lines if "UCI_Variant" in line)
    assert option == "option name UCI_Variant type combo default chess" + "".join(
        f" var {name}" for name in NAMES
    )
    bad = session("setoption name UCI_Variant value shogi\n")
    assert bad[0].startswith("info string setoption: UCI_Variant expects one of chess, 3check")


@pytest.mark.skipif(FAIRY_STOCKFISH is None, reason="fairy-stockfish not installed")
def test_names_are_ones_fairy_stockfish_offers() -> None:
    out = subprocess.run(
        [FAIRY_STOCKFISH], input="uci\nquit\n", capture_output=True, text=True, timeout=30
    ).stdout
    combo = next(line for line in out.splitlines() if "UCI_Variant" in line)
    offered = set(re.findall(r" var (\S+)", combo))
    # Fairy-Stockfish 11.1 (Debian) has no atomic; newer builds do.
    assert set(NAMES) - {"atomic"} <= offered


@pytest.mark.parametrize("name", sorted(WINS_IN_ONE))
def test_each_variant_finds_its_win_in_one(name: str) -> None:
    fen, wins = WINS_IN_ONE[name]
    lines = session(f"setoption name UCI_Variant value {name}\nposition fen {fen}\ngo depth 4\n")
    assert bestmove(lines) in wins, lines[-3:]
    infos = [line for line in lines if line.startswith("info depth")]
    assert " score mate 1 " in infos[-1]


@pytest.mark.parametrize("name", NAMES[1:])
def test_start_positions_get_a_legal_move(name: str) -> None:
    lines = session(f"setoption name UCI_Variant value {name}\nposition startpos\ngo depth 3\n")
    assert bestmove(lines) in variant_position(name)["legal_moves"]


def test_crazyhouse_drops_are_read_and_searched() -> None:
    moves = "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 P@e4"
    lines = session(
        "setoption name UCI_Variant value crazyhouse\n"
        f"position startpos moves {moves}\nd\ngo depth 3\n"
    )
    fen = next(line for line in lines if line.startswith("Fen: "))
    assert (
        fen == "Fen: rnb1kbnr/ppp1pppp/8/q7/4P3/2N5/PPPP1PPP/R1BQKBNR[p] b KQkq - 3 4"
    )  # python-chess 1.11.2
    assert bestmove(lines) in variant_position("crazyhouse", None, moves.split())["legal_moves"]


def test_bad_variant_moves_are_reported_and_change_nothing() -> None:
    lines = session(
        "setoption name UCI_Variant value atomic\n"
        "position startpos moves e2e4\n"
        "position startpos moves e2e4 e7e5 P@e4\n"
        "position fen not-a-fen\n"
        "d\n"
    )
    assert lines[0].startswith('info string position: move 3 "P@e4" is not legal in atomic')
    assert lines[1].startswith("info string position: ")
    # The position is still the one after 1. e4.
    assert "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" in lines


def test_atomic_king_captures_are_not_legal_input() -> None:
    # Kings cannot capture in atomic: the loop refuses 2. Kxe2-like moves.
    fen = "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1"
    lines = session(f"setoption name UCI_Variant value atomic\nposition fen {fen} moves e1e2\n")
    assert lines[0].startswith('info string position: move 1 "e1e2" is not legal in atomic')


def test_switching_back_to_chess_plays_chess() -> None:
    lines = session(
        "setoption name UCI_Variant value antichess\n"
        "setoption name UCI_Variant value chess\n"
        "position startpos moves e2e4\nd\n"
    )
    assert any(line.startswith("Key: ") for line in lines)  # the chess board's display


def test_time_limits_hold_in_variants() -> None:
    lines = session(
        "setoption name UCI_Variant value crazyhouse\n"
        "position startpos\ngo wtime 300 btime 300\nisready\n"
    )
    assert any(line.startswith("bestmove ") for line in lines)
    info = [line for line in lines if line.startswith("info depth")]
    assert info and int(info[-1].split(" time ")[1].split()[0]) < 1000


def test_infinite_search_waits_for_stop() -> None:
    out = io.StringIO()
    stdin_lines = [
        "setoption name UCI_Variant value racingkings\n",
        "position startpos\n",
        "go infinite\n",
    ]

    def script() -> Any:
        yield from stdin_lines
        time.sleep(0.3)
        assert not any(line.startswith("bestmove") for line in out.getvalue().splitlines())
        yield "stop\n"
        yield "isready\n"

    assert UciSession(script(), out).run() == 0
    lines = out.getvalue().splitlines()
    best = [line for line in lines if line.startswith("bestmove ")]
    assert len(best) == 1
    assert best[0].split()[1] in variant_position("racingkings")["legal_moves"]


def test_engine_play_variant_and_drop_moves() -> None:
    engine = Engine(hash_mb=8)
    played = engine.play_variant(
        "crazyhouse", "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1", [], Limit(depth=3)
    )
    assert played.move is not None and played.move.drop == 5
    assert played.info["score"].white().mate() == 1
    # White has given two checks already (1 left): Qh5+ wins.
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1+3 0 1"
    info = engine.analyse_variant("3check", fen, ["e2e4", "f7f6"], Limit(depth=3))
    assert info["score"].white().mate() == 1
    assert info["pv"][0] == Move.from_uci("d1h5")
    with pytest.raises(ValueError, match="not legal"):
        engine.play_variant("atomic", None, ["e2e5"], Limit(depth=1))
    with pytest.raises(ValueError, match="unknown variant"):
        engine.play_variant("shogi", None, [], Limit(depth=1))


def test_searcher_reports_variant_lines_in_the_variants_notation() -> None:
    searcher = Searcher(hash_mb=8, multipv=3)
    result = searcher.search_variant("crazyhouse", "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1", depth=3)
    assert len(result.lines) == 3
    assert all(line.pv[0].drop is not None or line.pv[0].uci()[0] in "b" for line in result.lines)


@pytest.mark.skipif(FAIRY_STOCKFISH is None, reason="fairy-stockfish not installed")
@pytest.mark.parametrize("name", ["3check", "crazyhouse", "antichess", "racingkings"])
def test_a_short_game_against_fairy_stockfish_stays_legal(name: str) -> None:
    """Twelve plies at depth 2 against Fairy-Stockfish at Skill Level 0: every move of
    either side legal by the core's rules (a smoke test; the match is tools/variant_match.py)."""
    fsf = subprocess.Popen(
        [FAIRY_STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert fsf.stdin is not None and fsf.stdout is not None
    fsf.stdin.write(f"uci\nsetoption name UCI_Variant value {name}\n")
    fsf.stdin.write("setoption name Skill Level value 0\n")
    engine = Engine(hash_mb=8)
    moves: list[str] = []
    try:
        for ply in range(12):
            state = variant_position(name, None, moves)
            if state["outcome"] is not None:
                break
            if ply % 2 == 0:
                move = engine.play_variant(name, None, moves, Limit(depth=2)).move
                assert move is not None
                text = move.uci()
            else:
                fsf.stdin.write(f"position startpos moves {' '.join(moves)}\ngo depth 1\n")
                while not (line := fsf.stdout.readline()).startswith("bestmove"):
                    assert line, "fairy-stockfish exited"
                text = line.split()[1]
            assert text in state["legal_moves"], (ply, text, state["fen"])
            moves.append(text)
    finally:
        fsf.stdin.write("quit\n")
        fsf.stdin.close()
        fsf.wait(timeout=10)
        fsf.stdout.close()


def test_engine_play_takes_a_board_that_plays_a_variant() -> None:
    """A board with ``uci_variant`` (here python-chess's own, the oracle) is searched by the
    variant's rules from its root and move stack."""
    import chess.variant

    board = chess.variant.AtomicBoard()
    for uci in ["e2e4", "d7d5", "g1f3"]:
        board.push_uci(uci)
    engine = Engine(hash_mb=8)
    played = engine.play(board, Limit(depth=3))  # type: ignore[arg-type]
    assert played.move is not None
    assert chess.Move.from_uci(played.move.uci()) in board.legal_moves
    info = engine.analyse(
        chess.variant.CrazyhouseBoard("k7/8/1K6/8/8/8/8/8[Q] w - - 0 1"), Limit(depth=3)
    )  # type: ignore[arg-type]
    assert info["score"].white().mate() == 1


def _reference_counts(name: str) -> list[tuple[str, dict[int, int]]]:
    """The perft counts stored in tests/data/variants (Fairy-Stockfish's `go perft`, or
    python-chess where their rules differ), as (FEN, {depth: nodes})."""
    path = DATA / "variants" / f"{name}.epd"
    cases = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, *fields = (part.strip() for part in line.split(";"))
        counts = {int(f.split()[0][1:]): int(f.split()[1]) for f in fields if f}
        cases.append((fen, counts))
    return cases


@pytest.mark.parametrize("name", NAMES[1:])
def test_go_perft_counts_by_the_variants_rules(name: str) -> None:
    """`go perft` in a variant counts by its rules, split by first move as Fairy-Stockfish
    prints it, on the first positions of the stored tables (depth 3, or less where the
    tables stop)."""
    for fen, counts in _reference_counts(name)[:3]:
        depth = max(d for d in counts if d <= 3)
        lines = session(
            f"setoption name UCI_Variant value {name}\nposition fen {fen}\ngo perft {depth}\n"
        )
        assert lines[-1] == f"Nodes searched: {counts[depth]}", (fen, lines[-3:])
        split = [line for line in lines if re.fullmatch(r"\S+: \d+", line)]
        assert sum(int(line.split(": ")[1]) for line in split) == counts[depth]
        if 1 in counts:
            assert len(split) == counts[1]
