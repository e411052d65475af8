"""pychess_rs.batch: games stepped by arrays of actions equal the same games played one by
one (pychess_rs.Board, python-chess as the rules oracle), every end is reached, threads
change nothing, and seeded rollouts reproduce."""

from __future__ import annotations

import chess
import pytest

import pychess_rs

np = pytest.importorskip("numpy")
encode = pytest.importorskip("pychess_rs.encode")

from pychess_rs.batch import ACTIONS, ILLEGAL_ACTION, BatchBoards, Step, rollouts  # noqa: E402
from pychess_rs.outcome import Termination  # noqa: E402

FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]
SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"] * 4


def action(board: pychess_rs.Board, uci: str) -> int:
    return int(encode.action_of(board, pychess_rs.Move.from_uci(uci)))


def play(games: BatchBoards, ucis: list[str]) -> Step:
    """Steps a one-game batch through ``ucis``; returns the last step."""
    steps = [games.step([action(games.board(0), uci)]) for uci in ucis]
    return steps[-1]


# python-chess's claim checks make this the slow one: once, not on every installed wheel.
@pytest.mark.once
@pytest.mark.parametrize("claim_draw", [False, True])
def test_batched_games_equal_single_boards_and_python_chess(claim_draw: bool) -> None:
    n = 5
    games = BatchBoards(n, observation="pettingzoo", auto_reset=False, claim_draw=claim_draw)
    observations, masks = games.reset()
    singles = [pychess_rs.Board() for _ in range(n)]
    oracles = [chess.Board() for _ in range(n)]
    ended = [False] * n
    seen: set[Termination] = set()
    rng = np.random.default_rng(11 if claim_draw else 12)
    while not all(ended):
        # Random legal actions drawn in Python from the returned masks.
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else -1 for m in masks], dtype=np.int64
        )
        observations, masks, rewards, terminated, truncated = games.step(actions)
        assert not truncated.any()
        for i in range(n):
            if ended[i]:
                assert terminated[i] and not masks[i].any() and rewards[i].tolist() == [0, 0]
                continue
            move = encode.move_of(singles[i], int(actions[i]))
            assert move is not None
            singles[i].push(move)
            oracles[i].push_uci(move.uci())
            assert games.board(i).fen() == singles[i].fen() == oracles[i].fen()
            assert (observations[i] == encode.pettingzoo_observation(singles[i])).all()
            outcome = oracles[i].outcome(claim_draw=claim_draw)
            if outcome is None:
                assert (masks[i] == encode.action_mask(singles[i])).all()
                assert masks[i].sum() == oracles[i].legal_moves.count()
                assert not terminated[i] and rewards[i].tolist() == [0, 0]
                continue
            ended[i] = True
            assert terminated[i] and not masks[i].any()
            termination = games.terminations()[i]
            assert termination is not None
            assert termination.value == outcome.termination.value
            seen.add(termination)
            expected = {True: [1, -1], False: [-1, 1], None: [0, 0]}[outcome.winner]
            assert rewards[i].tolist() == expected
    assert seen


def test_every_termination_is_reached() -> None:
    cases = [
        (None, FOOLS_MATE, False, Termination.CHECKMATE, [-1, 1]),
        ("7k/4Q3/6K1/8/8/8/8/8 w - - 0 1", ["e7f7"], False, Termination.STALEMATE, [0, 0]),
        (
            "7k/8/8/8/8/8/6r1/6BK w - - 0 1",
            ["h1g2"],
            False,
            Termination.INSUFFICIENT_MATERIAL,
            [0, 0],
        ),
        (
            "7k/8/8/8/8/8/R7/7K w - - 149 100",
            ["a2a3"],
            False,
            Termination.SEVENTYFIVE_MOVES,
            [0, 0],
        ),
        (None, SHUFFLE, False, Termination.FIVEFOLD_REPETITION, [0, 0]),
        ("7k/8/8/8/8/8/R7/7K w - - 98 100", ["a2a3"], True, Termination.FIFTY_MOVES, [0, 0]),
        (None, SHUFFLE[:7], True, Termination.THREEFOLD_REPETITION, [0, 0]),
    ]
    for fen, moves, claim, termination, rewards in cases:
        games = BatchBoards(1, fen=fen, claim_draw=claim)
        games.reset()
        _, masks, got_rewards, terminated, truncated = play(games, moves)
        assert terminated.tolist() == [True] and truncated.tolist() == [False], termination
        assert games.terminations() == [termination]
        assert got_rewards.tolist() == [rewards]
        # Auto-reset: the ended game is the final board, the batch is back at the start.
        final = games.final_board(0)
        assert final is not None and final.move_stack == [
            pychess_rs.Move.from_uci(m) for m in moves
        ]
        assert final.outcome(claim_draw=claim).termination == termination
        start = pychess_rs.Board(fen) if fen else pychess_rs.Board()
        assert games.plies(0) == 0 and games.board(0).fen() == start.fen()
        assert (masks[0] == encode.action_mask(start)).all()
    # Without the claim the same positions play on.
    games = BatchBoards(1, fen="7k/8/8/8/8/8/R7/7K w - - 98 100")
    games.reset()
    _, _, _, terminated, _ = play(games, ["a2a3"])
    assert not terminated[0] and games.terminations() == [None]


def test_truncation_and_illegal_actions() -> None:
    games = BatchBoards(2, max_plies=2, auto_reset=False)
    games.reset()
    e4 = action(pychess_rs.Board(), "e2e4")
    with pytest.raises(pychess_rs.IllegalMoveError, match="illegal action 4672 for game 1"):
        games.step([e4, 4672])
    assert games.board(0).move_stack == []  # nothing moved
    for bad in ([e4], [[e4, e4]], ["e2e4", "e2e4"], [0.5, 1.5]):
        with pytest.raises(ValueError):
            games.step(bad)
    games.step([e4, e4])
    _, masks, _, terminated, truncated = games.step(
        [action(games.board(0), "e7e5"), action(games.board(1), "c7c5")]
    )
    assert truncated.tolist() == [True, True] and not terminated.any()
    assert games.is_over(0) and not masks.any() and games.ends.tolist() == [0, 0]
    # Ended games ignore their actions until reset.
    _, _, rewards, _, truncated = games.step([-1, 99999])
    assert truncated.all() and not rewards.any()
    games.reset_game(1)
    _, masks, _, _, truncated = games.observe()
    assert truncated.tolist() == [True, False] and masks[1].sum() == 20

    losing = BatchBoards(2, illegal="lose", auto_reset=False)
    losing.reset()
    _, _, rewards, terminated, _ = losing.step([e4, 0])
    assert terminated.tolist() == [False, True]
    assert rewards.tolist() == [[0, 0], [-1, 0]]
    assert losing.ends.tolist() == [0, ILLEGAL_ACTION] and losing.terminations() == [None, None]
    with pytest.raises(IndexError):
        losing.board(2)
    with pytest.raises(ValueError):
        BatchBoards(2, observation="lc0")  # type: ignore[arg-type]
    with pytest.raises(pychess_rs.InvalidFenError):
        BatchBoards(2, fen="not a fen")
    with pytest.raises(ValueError, match="already over"):
        BatchBoards(2, fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")


def test_start_refusals_name_the_problem() -> None:
    with pytest.raises(ValueError, match="illegal must be 'error' or 'lose', not \"ignore\""):
        BatchBoards(2, illegal="ignore")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="observation must be 'pettingzoo', 'alphazero' or None"):
        BatchBoards(2, observation="lc0")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_plies must be positive"):
        BatchBoards(2, max_plies=0)
    with pytest.raises(pychess_rs.InvalidFenError):
        rollouts(2, fen="8/8/8 w")
    # A draw that can only be claimed ends the start position only when draws are claimed.
    fifty = "4k3/8/8/8/8/8/8/R3K3 w - - 100 80"
    BatchBoards(1, fen=fifty)
    with pytest.raises(ValueError, match=r"already over \(FiftyMoves\)"):
        BatchBoards(1, fen=fifty, claim_draw=True)


def test_replaying_an_illegal_action_names_it() -> None:
    from pychess_rs._core import board_from_actions

    e4 = action(pychess_rs.Board(), "e2e4")
    actions = np.array([e4, 4671], dtype=np.uint16).tobytes()
    with pytest.raises(pychess_rs.IllegalMoveError, match="action 4671 at ply 1 is not legal in "):
        board_from_actions(actions)
    board = board_from_actions(actions[:2])
    assert board.move_stack == [pychess_rs.Move.from_uci("e2e4")]
    with pytest.raises(ValueError, match="actions must be uint16"):
        board_from_actions(actions[:3])


def test_threads_change_nothing() -> None:
    def run(threads: int) -> list[list[bytes]]:
        games = BatchBoards(7, threads=threads, observation="alphazero", max_plies=30, seed=3)
        games.reset()
        out = []
        for _ in range(70):
            step = games.step(games.random_actions())
            out.append([np.asarray(a).tobytes() for a in step] + [games.ends.tobytes()])
        return out

    assert run(1) == run(2)


def test_observation_kinds_and_shapes() -> None:
    for kind, shape, dtype in [
        ("pettingzoo", (3, 8, 8, 111), np.bool_),
        ("alphazero", (3, 8, 8, 119), np.float32),
    ]:
        games = BatchBoards(3, observation=kind)  # type: ignore[arg-type]
        observations, masks = games.reset()
        assert observations is not None
        assert observations.shape == shape and observations.dtype == dtype
        assert masks.shape == (3, ACTIONS) and masks.dtype == np.int8
        board = pychess_rs.Board()
        expected = encode.pettingzoo_observation if kind == "pettingzoo" else encode.alphazero
        assert (observations[2] == expected(board)).all()
    games = BatchBoards(3)
    observations, masks = games.reset()
    assert observations is None and masks.sum() == 60
    assert len(games) == 3 and len(games.boards()) == 3


def test_rollouts_are_seeded_and_replay_to_their_ends() -> None:
    one = rollouts(12, seed=5)
    two = rollouts(12, seed=5, threads=2)
    assert one.actions.tobytes() == two.actions.tobytes()
    assert one.offsets.tolist() == two.offsets.tolist()
    assert one.ends.tolist() == two.ends.tolist()
    # Game i does not depend on how many games are played.
    fewer = rollouts(3, seed=5)
    assert fewer.actions.tobytes() == one.actions[: one.offsets[3]].tobytes()
    assert rollouts(12, seed=6).actions.tobytes() != one.actions.tobytes()
    assert one.plies == one.offsets[-1] and len(one) == 12
    for i in range(len(one)):
        board = one.board(i)
        oracle = chess.Board()
        for move in board.move_stack:
            oracle.push_uci(move.uci())
        outcome = oracle.outcome()
        assert outcome is not None
        assert one.terminations()[i] == Termination(outcome.termination.value)
        assert one.winners[i] == {True: 1, False: -1, None: 0}[outcome.winner]
    short = rollouts(6, seed=1, max_plies=10, claim_draw=True)
    assert short.truncated.all() and (np.diff(short.offsets) == 10).all()
    assert short.terminations() == [None] * 6
    games = BatchBoards(2, seed=5)
    assert games.rollouts(12).actions.tobytes() == one.actions.tobytes()


@pytest.mark.once
def test_rollouts_release_the_gil() -> None:
    """While a long rollout runs in another thread, this one keeps running: with the GIL held
    it would stand still for the whole call."""
    import threading
    import time

    done = threading.Event()

    def work() -> None:
        rollouts(3000, seed=2)
        done.set()

    worker = threading.Thread(target=work)
    start = time.perf_counter()
    worker.start()
    last = start
    longest = 0.0
    while not done.is_set():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    worker.join()
    elapsed = time.perf_counter() - start
    assert elapsed > 0.2, "the rollout was too short to tell"
    assert longest < elapsed / 2


FORMATS = [
    ("alphazero", None, "int8"),
    ("alphazero", "uint8", "bits"),
    ("alphazero", "packed", "indices"),
    ("pettingzoo", None, "bool"),
    ("pettingzoo", "float32", "bits"),
    ("pettingzoo", "packed", "int8"),
    (None, None, "indices"),
]


def _random_run(threads: int, kind: str | None, dtype: str | None, mask: str) -> list[bytes]:
    games = BatchBoards(
        7,
        threads=threads,
        observation=kind,  # type: ignore[arg-type]
        dtype=dtype,  # type: ignore[arg-type]
        mask=mask,  # type: ignore[arg-type]
        max_plies=30,
        seed=3,
        ring=2,
    )
    games.reset()
    out = []
    for _ in range(60):
        step = games.step_random()
        out.append(b"".join(np.asarray(a).tobytes() for a in step if a is not None))
        out.append(games.ends.tobytes() + games.actions.tobytes())
    return out


@pytest.mark.parametrize(("kind", "dtype", "mask"), FORMATS)
def test_every_format_is_bit_identical_for_any_thread_count(
    kind: str | None, dtype: str | None, mask: str
) -> None:
    one = _random_run(1, kind, dtype, mask)
    assert one == _random_run(2, kind, dtype, mask) == _random_run(3, kind, dtype, mask)


def test_step_random_plays_what_random_actions_draws_and_keeps_its_threads() -> None:
    drawn = BatchBoards(5, observation="alphazero", seed=8, max_plies=20)
    stepped = BatchBoards(5, observation="alphazero", seed=8, max_plies=20, threads=2)
    drawn.reset()
    stepped.reset()
    for _ in range(40):
        actions = drawn.random_actions()
        a = drawn.step(actions)
        b = stepped.step_random()
        assert (stepped.actions == actions).all()
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    # One worker thread, started once and kept (the caller steps the other half).
    assert stepped.threads_started() == 1 and drawn.threads_started() == 0
    # A given seed draws the same actions random_actions(seed) would.
    expected = stepped.random_actions(seed=77)
    stepped.step_random(seed=77)
    assert (stepped.actions == expected).all()


def test_mask_forms_agree() -> None:
    forms = {
        m: BatchBoards(4, mask=m, seed=2, max_plies=25) for m in ("int8", "bool", "bits", "indices")
    }  # type: ignore[arg-type]
    masks = {m: b.reset()[1] for m, b in forms.items()}
    for _ in range(50):
        dense = masks["int8"]
        assert masks["int8"].dtype == np.int8 and masks["bool"].dtype == np.bool_
        assert masks["bits"].shape == (4, 73) and masks["bits"].dtype == np.uint64
        assert masks["indices"].shape == (4, 256) and masks["indices"].dtype == np.int16
        assert (masks["bool"] == dense.astype(bool)).all()
        from_bits = np.unpackbits(
            masks["bits"].astype("<u8").view(np.uint8), axis=1, bitorder="little"
        )
        assert (from_bits == dense).all()
        for i in range(4):
            row = masks["indices"][i]
            listed = row[row >= 0]
            assert listed.tolist() == np.flatnonzero(dense[i]).tolist()
            assert (row[len(listed) :] == -1).all()
        masks = {m: b.step_random().masks for m, b in forms.items()}


def test_out_and_ring_refill_the_same_memory() -> None:
    games = BatchBoards(3, observation="pettingzoo", seed=1)
    games.reset()
    out = games.outputs()
    assert out.observations is not None and not out.observations.any()
    step = games.step_random(out=out)
    assert step is out and out.masks.sum() > 0
    fresh = BatchBoards(3, observation="pettingzoo", seed=1)
    fresh.reset()
    again = fresh.step_random()
    for x, y in zip(out, again):
        assert np.array_equal(x, y)
    # step(out=...) too, and the end codes follow.
    games.step(games.random_actions(), out=out)
    assert games.ends.shape == (3,)
    with pytest.raises(ValueError, match="returned by this batch"):
        games.step_random(out=again._replace(masks=again.masks.copy()))
    other = BatchBoards(4, observation="pettingzoo").outputs()
    with pytest.raises(ValueError):
        games.step_random(out=other)
    with pytest.raises(ValueError, match="twice"):
        games.step_random(out=out._replace(truncated=out.terminated))
    with pytest.raises(TypeError):
        games.step_random(out=tuple(out))  # type: ignore[arg-type]
    # A ring of two: every other step writes the same arrays.
    ring = BatchBoards(3, observation="alphazero", dtype="uint8", ring=2)
    first, _ = ring.reset()
    second = ring.step_random().observations
    third = ring.step_random().observations
    assert first is not None and second is not None and third is not None
    assert second is not first and np.shares_memory(third, first)


def test_dtype_and_mask_refusals() -> None:
    with pytest.raises(ValueError, match="dtype 'bool' cannot hold alphazero observations"):
        BatchBoards(2, observation="alphazero", dtype="bool")
    with pytest.raises(ValueError, match="dtype must be"):
        BatchBoards(2, observation="alphazero", dtype="float16")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mask must be"):
        BatchBoards(2, mask="dense")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ring must not be negative"):
        BatchBoards(2, ring=-1)
    with pytest.raises(ValueError, match="material of a game"):
        BatchBoards(2, mask="indices", fen="QQQQQQQQ/Q7/8/8/8/7k/PPPPPPPP/7K w - - 0 1")
    games = BatchBoards(2, observation="alphazero", dtype="uint8")
    observations, _ = games.reset()
    assert observations is not None and observations.dtype == np.uint8
    # The counter planes saturate at 255 in uint8.
    late = BatchBoards(
        1, observation="alphazero", dtype="uint8", fen="7k/8/8/8/8/8/R7/7K w - - 3 400"
    )
    observations, _ = late.reset()
    assert observations is not None
    assert observations[0, 0, 0, 113] == 255 and observations[0, 0, 0, 118] == 3
