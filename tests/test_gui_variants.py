"""``pychess-rs gui`` plays variants: the new-game form's variants, games through the HTTP
API with the core's rules (drops typed, atomic explosions, variant wins announced), the
engine's variant moves, and PGN read back by python-chess's variant boards."""

from __future__ import annotations

import io
import time
import warnings
from collections.abc import Iterator
from typing import Any

import chess.pgn
import chess.variant
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pychess_rs.engine import Limit
from pychess_rs.gui.app import TOKEN_HEADER, create_app

TOKEN = "test-token-variants"
AUTH = {TOKEN_HEADER: TOKEN}


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(token=TOKEN, limit=Limit(depth=2))
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        yield c


def new(client: TestClient, **settings: Any) -> dict[str, Any]:
    body = {"white": "human", "black": "human", **settings}
    r = client.post("/api/games", json=body, headers=AUTH)
    assert r.status_code == 201, r.text
    result: dict[str, Any] = r.json()
    return result


def move(client: TestClient, game: str, text: str) -> Any:
    return client.post(f"/api/games/{game}/move", json={"move": text}, headers=AUTH)


def wait_for_engine(client: TestClient, game: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        s: dict[str, Any] = client.get(f"/api/games/{game}", headers=AUTH).json()
        if not s["thinking"]:
            return s
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_the_form_offers_every_variant(client: TestClient) -> None:
    config = client.get("/api/config", headers=AUTH).json()
    names = [v["value"] for v in config["variants"]]
    assert names[0] == "chess"
    assert set(names[1:]) == {
        "3check", "antichess", "atomic", "crazyhouse", "giveaway", "horde",
        "kingofthehill", "racingkings", "suicide",
    }  # fmt: skip
    r = client.post("/api/games", json={"variant": "shogi"}, headers=AUTH)
    assert r.status_code == 400 and "variant must be one of" in r.json()["error"]


@pytest.mark.parametrize(
    "variant, pieces",
    [("horde", 36 + 16), ("racingkings", 16), ("crazyhouse", 32), ("atomic", 32)],
)
def test_start_positions(client: TestClient, variant: str, pieces: int) -> None:
    s = new(client, variant=variant)
    assert s["variant"] == variant
    assert sum(p is not None for p in s["pieces"]) == pieces
    assert s["legal"] and s["ending"] is None


def test_crazyhouse_drop_typed_and_pockets_shown(client: TestClient) -> None:
    game = new(client, variant="crazyhouse")["id"]
    for text in ["e4", "d5", "exd5", "Qxd5", "Nc3"]:
        assert move(client, game, text).status_code == 200
    s = client.get(f"/api/games/{game}", headers=AUTH).json()
    assert "In hand: White P, Black p" in s["status"]
    # The pockets the page draws beside the board, and the drops it offers from them.
    assert s["pockets"] == {"white": {"P": 1}, "black": {"P": 1}}
    drops = [m for m in s["legal"] if m["drop"]]
    assert drops and all(m["from"] is None and m["piece"] == "P" for m in drops)
    board = chess.variant.CrazyhouseBoard()
    for text in ["e4", "d5", "exd5", "Qxd5", "Nc3"]:
        board.push_san(text)
    expected = {m.uci() for m in board.legal_moves if m.drop}
    assert {m["uci"] for m in drops} == expected
    r = move(client, game, "P@e4")
    assert r.status_code == 200, r.text
    assert r.json()["moves"][-1] == "@e4"
    assert r.json()["pockets"] == {"white": {"P": 1}, "black": {}}
    assert move(client, game, "Q@e4").status_code == 400


def test_pockets_count_every_piece_in_hand_and_only_crazyhouse_has_them(
    client: TestClient,
) -> None:
    fen = "r3k3/8/8/8/8/8/8/4K2R[QNNppb] w - - 0 1"
    s = new(client, variant="crazyhouse", fen=fen)
    assert s["pockets"] == {"white": {"N": 2, "Q": 1}, "black": {"P": 2, "B": 1}}
    assert "In hand: White NNQ, Black ppb" in s["status"]
    pieces = {m["piece"] for m in s["legal"] if m["drop"]}
    assert pieces == {"N", "Q"}
    assert new(client, variant="atomic")["pockets"] is None
    assert new(client)["pockets"] is None


def test_atomic_explosion_ends_the_game(client: TestClient) -> None:
    game = new(client, variant="atomic", fen="4k3/4p3/8/5N2/8/8/8/4K3 w - - 0 1")["id"]
    s = move(client, game, "Nxe7").json()
    assert s["ending"]["result"] == "1-0"
    assert s["pieces"].count(None) == 63  # only the white king is left
    pgn = client.get(f"/api/games/{game}/pgn", headers=AUTH).text
    read = chess.pgn.read_game(io.StringIO(pgn))
    assert read is not None and isinstance(read.board(), chess.variant.AtomicBoard)
    assert read.end().board().is_variant_win() or read.end().board().is_variant_loss()


def test_engine_plays_king_of_the_hill_and_wins(client: TestClient) -> None:
    s = new(
        client,
        variant="kingofthehill",
        white="engine",
        black="human",
        level="max",
        fen="8/8/8/8/8/3K4/8/7k w - - 0 1",
    )
    s = wait_for_engine(client, s["id"])
    assert s["ending"] is not None and s["ending"]["result"] == "1-0"
    assert s["moves"][0] in ("Kd4#", "Ke4#")


def test_undo_and_resign_in_a_variant(client: TestClient) -> None:
    s = new(client, variant="antichess", black="engine", level="1")
    game = s["id"]
    assert move(client, game, "e3").status_code == 200
    s = wait_for_engine(client, game)
    assert len(s["moves"]) == 2
    r = client.post(f"/api/games/{game}/undo", headers=AUTH)
    assert r.status_code == 200 and r.json()["moves"] == []
    r = client.post(f"/api/games/{game}/resign", json={}, headers=AUTH)
    assert r.json()["ending"]["result"] == "0-1"
