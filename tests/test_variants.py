"""pychess_rs.variant against python-chess's chess.variant: the classes, their attributes, the
pockets and counters, copies, and a short differential run of every variant (the long runs are
``pychess-rs fuzz --variant``'s, see docs/variants.md)."""

from __future__ import annotations

import pickle

import chess
import chess.variant
import pytest

import pychess_rs
import pychess_rs.pgn
from pychess_rs import variant
from pychess_rs.fuzz.variants import VARIANT_NAMES, run_variants

CLASS_ATTRIBUTES = (
    "aliases",
    "uci_variant",
    "xboard_variant",
    "starting_fen",
    "tbw_suffix",
    "tbz_suffix",
    "tbw_magic",
    "tbz_magic",
    "pawnless_tbw_suffix",
    "pawnless_tbz_suffix",
    "pawnless_tbw_magic",
    "pawnless_tbz_magic",
    "connected_kings",
    "one_king",
    "captures_compulsory",
)


def pairs() -> list[tuple[type, type]]:
    return list(zip(variant.VARIANTS, chess.variant.VARIANTS))


@pytest.mark.parametrize(("ours", "theirs"), pairs(), ids=lambda c: c.__name__)
def test_classes_and_attributes_are_python_chess(ours: type, theirs: type) -> None:
    assert ours.__name__ == theirs.__name__
    assert issubclass(ours, pychess_rs.Board)
    for name in CLASS_ATTRIBUTES:
        assert getattr(ours, name) == getattr(theirs, name), name
    board = ours()
    assert isinstance(board, pychess_rs.Board)
    assert board.fen() == theirs().fen()
    for alias in theirs.aliases:
        assert variant.find_variant(alias) is ours
        assert variant.find_variant(alias.upper()) is ours


def test_find_variant_refuses_unknown_names() -> None:
    with pytest.raises(ValueError, match="unsupported variant: shogi"):
        variant.find_variant("shogi")


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_perft_matches_python_chess(name: str) -> None:
    ours, theirs = variant.find_variant(name)(), chess.variant.find_variant(name)()

    def perft(board: chess.Board, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        return total

    assert ours.perft(3) == perft(theirs, 3)
    # Split by first move, by the variant's rules (not the standard board's).
    divided = ours.perft_divide(2)
    assert set(divided) == {m.uci() for m in theirs.legal_moves}
    for move in theirs.legal_moves:
        theirs.push(move)
        assert divided[move.uci()] == perft(theirs, 1), move
        theirs.pop()
    assert ours.perft_divide(0) == {}


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_inherited_board_methods_answer_by_the_variant(name: str) -> None:
    """Methods a variant board inherits from the standard one (checkers, is_zeroing, ...)
    answer as python-chess's variant boards do, along random games."""
    import random

    rng = random.Random(hash(name) & 0xFFFF)
    ours_class, theirs_class = variant.find_variant(name), chess.variant.find_variant(name)
    for _ in range(12):
        theirs = theirs_class()
        for _ in range(rng.randrange(1, 70)):
            if theirs.is_game_over():
                break
            theirs.push(rng.choice(list(theirs.legal_moves)))
        ours = ours_class(theirs.fen())
        fen = theirs.fen()
        assert sorted(ours.checkers()) == sorted(theirs.checkers()), fen
        assert ours.checkers_mask() == theirs.checkers_mask(), fen
        for move in theirs.legal_moves:
            mine = ours.parse_uci(move.uci())
            assert ours.is_zeroing(mine) == theirs.is_zeroing(move), (fen, move)
            assert ours.is_irreversible(mine) == theirs.is_irreversible(move), (fen, move)
            assert ours.gives_check(mine) == theirs.gives_check(move), (fen, move)
            assert ours.is_capture(mine) == theirs.is_capture(move), (fen, move)


def test_pockets_change_the_board() -> None:
    board = variant.CrazyhouseBoard()
    assert str(board.pockets[chess.WHITE]) == ""
    board.pockets[chess.WHITE].add(chess.KNIGHT)
    board.pockets[chess.BLACK].add(chess.PAWN)
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Np] w KQkq - 0 1"
    assert board.parse_san("N@e4") == pychess_rs.Move.from_uci("N@e4")
    board.pockets[chess.WHITE].remove(chess.KNIGHT)
    with pytest.raises(ValueError, match="no 'n' in the pocket"):
        board.pockets[chess.WHITE].remove(chess.KNIGHT)
    with pytest.raises(pychess_rs.IllegalMoveError):
        board.parse_san("N@e4")
    detached = variant.CrazyhousePocket("qpp")
    assert (str(detached), len(detached), detached.count(chess.PAWN)) == ("qpp", 3, 2)
    board.pockets = [variant.CrazyhousePocket("b"), detached]
    assert board.fen().split(" ")[0].endswith("[QPPb]")


def test_drops_are_played_and_taken_back() -> None:
    board = variant.CrazyhouseBoard("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")
    move = board.push_san("N@f3")
    assert move.drop == chess.KNIGHT
    assert board.move_stack == [move]
    assert board.peek() == pychess_rs.Move.from_uci("N@f3")
    assert board.fen() == "4k3/8/8/8/8/5N2/8/4K3[] b - - 1 1"
    assert board.pop() == move
    assert str(board.pockets[chess.WHITE]) == "n"


def test_remaining_checks() -> None:
    board = variant.ThreeCheckBoard()
    board.push_san("e4")
    board.push_san("f6")
    board.push_san("Qh5+")
    assert list(board.remaining_checks) == [3, 2]  # [BLACK, WHITE], as python-chess indexes
    assert board.remaining_checks[chess.WHITE] == 2
    board.remaining_checks[chess.BLACK] = 1
    assert board.fen() == "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+1 1 2"
    board.pop()
    assert board.remaining_checks[chess.WHITE] == 3


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_copies_roots_and_pickles_keep_the_variant(name: str) -> None:
    cls = variant.find_variant(name)
    board = cls()
    for _ in range(4):
        board.push(next(iter(board.legal_moves)))
    copy = board.copy()
    assert type(copy) is cls
    assert copy == board
    assert copy.move_stack == board.move_stack
    assert copy.root() == cls()
    short = board.copy(stack=2)
    assert short.move_stack == board.move_stack[-2:]
    short.pop()
    short.pop()
    assert short.fen() == board.root().fen() or len(board.move_stack) > 2
    assert board.mirror().mirror() == board
    assert repr(board) == f"{cls.__name__}('{board.fen()}')"


def test_boards_of_different_variants_differ() -> None:
    assert variant.AtomicBoard() != variant.KingOfTheHillBoard()
    assert variant.AtomicBoard() != pychess_rs.Board()


def test_bad_input_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        variant.CrazyhouseBoard("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[X] w KQkq - 0 1")
    with pytest.raises(ValueError):
        variant.ThreeCheckBoard("8/8/8/8/8/8/8/8 w - - 3+x 0 1")
    board = variant.AtomicBoard()
    with pytest.raises(pychess_rs.IllegalMoveError):
        board.push_uci("e2e5")
    with pytest.raises(pychess_rs.InvalidMoveError):
        board.push_uci("nonsense")
    with pytest.raises(pychess_rs.IllegalMoveError):
        board.push(pychess_rs.Move.from_uci("N@e4"))


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_short_differential_run(name: str) -> None:
    """A few hundred positions of each variant compared with python-chess (CI time)."""
    result = run_variants(pychess_rs, [name], seed=11, positions=150, quiet=True)
    assert result.positions[name] == 150
    assert [m.format() for m in result.mismatches] == []


def test_variant_games_in_pgn_read_with_their_rules() -> None:
    import io

    game = pychess_rs.pgn.read_game(
        io.StringIO('[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n')
    )
    assert game is not None
    assert isinstance(game.board(), variant.CrazyhouseBoard)
    end = game.end().board()
    assert end.fen() == "rnb1kbnr/ppp1pppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR[p] b KQkq - 1 3"
    assert str(game.mainline_moves()) == "1. e4 d5 2. exd5 Qxd5 3. @e4"
    exported = str(game)
    assert '[Variant "Crazyhouse"]' in exported
    again = pychess_rs.pgn.read_game(io.StringIO(exported))
    assert again is not None
    assert again.end().board().fen() == end.fen()


@pytest.mark.parametrize("name", ["atomic", "crazyhouse", "3check"])
def test_pickles_keep_the_variant_and_the_moves(name: str) -> None:
    cls = variant.find_variant(name)
    board = cls()
    for san in ("e4", "d5", "exd5", "Qxd5", "Nc3"):
        board.push_san(san)
    again = pickle.loads(pickle.dumps(board))
    assert type(again) is cls
    assert again == board
    assert again.fen() == board.fen()
    assert again.move_stack == board.move_stack
    assert again.root() == board.root()


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_fifty_move_claims_by_the_variants_moves(name: str) -> None:
    """is_fifty_moves, can_claim_fifty_moves, can_claim_draw and outcome(claim_draw=True)
    as python-chess's variant boards answer them, at half-move clocks of 98-100 on positions
    of random games (Antichess's forced captures and Crazyhouse's missing rule included)."""
    import random

    rng = random.Random(len(name))
    ours_class, theirs_class = variant.find_variant(name), chess.variant.find_variant(name)
    checked = 0
    for _ in range(25):
        theirs = theirs_class()
        for _ in range(rng.randrange(4, 60)):
            if theirs.is_game_over():
                break
            theirs.push(rng.choice(list(theirs.legal_moves)))
        for clock in (98, 99, 100):
            theirs.halfmove_clock = clock
            fen = theirs.fen()
            board, ours = theirs_class(fen), ours_class(fen)
            for method in ("is_fifty_moves", "can_claim_fifty_moves", "can_claim_draw"):
                assert getattr(ours, method)() == getattr(board, method)(), (fen, method)
            mine, oracle = ours.outcome(claim_draw=True), board.outcome(claim_draw=True)
            assert (mine and mine.termination.name) == (oracle and oracle.termination.name), fen
            checked += board.can_claim_fifty_moves()
    assert checked or name == "crazyhouse"
