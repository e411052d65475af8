"""``pychess-rs gui``'s server through its HTTP API (Starlette's TestClient, no browser): the
Host and token checks, the body limit, every kind of bad request (a 4xx with a message and
no change to the game), and whole games played through the API."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Iterator
from typing import Any, Callable

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
with warnings.catch_warnings():
    # Newer Starlette prefers httpx2 and warns when it finds httpx only (on Pythons httpx2
    # does not support), with its own warning class: not a failure of ours.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pychess_rs import Board
from pychess_rs.engine import Limit
from pychess_rs.gui import app as gui_app
from pychess_rs.gui.app import MAX_BODY, TOKEN_HEADER, create_app
from pychess_rs.gui.games import MAX_GAMES, status_words

TOKEN = "test-token-1234"
AUTH = {TOKEN_HEADER: TOKEN}


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(token=TOKEN, limit=Limit(depth=1))
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        yield c


def new(client: TestClient, **settings: Any) -> dict[str, Any]:
    body = {"white": "human", "black": "human", **settings}
    r = client.post("/api/games", json=body, headers=AUTH)
    assert r.status_code == 201, r.text
    state: dict[str, Any] = r.json()
    return state


def post(client: TestClient, game: str, action: str, body: Any = None) -> Any:
    return client.post(f"/api/games/{game}/{action}", json=body, headers=AUTH)


def state(client: TestClient, game: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{game}", headers=AUTH)
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


def wait_for_engine(client: TestClient, game: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        s = state(client, game)
        if not s["thinking"]:
            return s
        assert time.monotonic() < deadline, "the engine did not move within 30 s"
        time.sleep(0.02)


def play(client: TestClient, game: str, *moves: str) -> dict[str, Any]:
    s: dict[str, Any] = {}
    for move in moves:
        r = post(client, game, "move", {"move": move})
        assert r.status_code == 200, (move, r.text)
        s = r.json()
    return s


# ---- Host, token and size ----------------------------------------------------------------


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "LOCALHOST", "127.0.0.1"]
)
def test_loopback_hosts_are_served(client: TestClient, host: str) -> None:
    r = client.get("/api/config", headers={**AUTH, "host": host})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    "host", ["evil.example:8765", "127.0.0.1.evil.example", "0.0.0.0:8765", "", "[::2]:8765"]
)
def test_other_hosts_are_refused(client: TestClient, host: str) -> None:
    # DNS rebinding: a page from evil.example whose name now points at 127.0.0.1.
    for path in ("/api/config", f"/?token={TOKEN}", "/static/app.js"):
        r = client.get(path, headers={**AUTH, "host": host})
        assert r.status_code == 403, (path, host, r.text)
        assert "answers only to" in r.json()["error"]


def test_more_hosts_when_listening_elsewhere() -> None:
    app = create_app(token=TOKEN, limit=Limit(depth=1), hosts=["127.0.0.1", "192.168.1.5"])
    with TestClient(app, base_url="http://192.168.1.5:8765") as c:
        assert c.get("/api/config", headers=AUTH).status_code == 200
        assert c.get("/api/config", headers={**AUTH, "host": "localhost"}).status_code == 403


@pytest.mark.parametrize("token", [None, "", "wrong", TOKEN + "x", TOKEN[:-1]])
def test_api_needs_the_token(client: TestClient, token: str | None) -> None:
    headers = {} if token is None else {TOKEN_HEADER: token}
    game = new(client)["id"]
    for method, path in [
        ("GET", "/api/config"),
        ("POST", "/api/games"),
        ("GET", f"/api/games/{game}"),
        ("POST", f"/api/games/{game}/move"),
        ("GET", f"/api/games/{game}/pgn"),
    ]:
        r = client.request(method, path, headers=headers, json={"move": "e4"})
        assert r.status_code == 403, (method, path, r.text)
        assert "token" in r.json()["error"]
    assert state(client, game)["moves"] == []


def test_the_page_needs_the_token_and_carries_it(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 403
    assert "pychess-rs gui" in r.text
    assert client.get("/?token=nope").status_code == 403
    r = client.get(f"/?token={TOKEN}")
    assert r.status_code == 200
    assert f'content="{TOKEN}"' in r.text
    assert r.headers["cache-control"] == "no-store"
    policy = r.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    # The token in the query works for the API too (no header needed).
    assert client.get(f"/api/config?token={TOKEN}").status_code == 200


def test_static_files_are_served_without_the_token(client: TestClient) -> None:
    for name, kind in [("app.js", "javascript"), ("style.css", "css")]:
        r = client.get(f"/static/{name}")
        assert r.status_code == 200
        assert kind in r.headers["content-type"]
    assert client.get("/static/nothing.js").status_code == 404


def test_the_page_loads_nothing_from_elsewhere(client: TestClient) -> None:
    page = client.get(f"/?token={TOKEN}").text
    script = client.get("/static/app.js").text
    style = client.get("/static/style.css").text
    for text in (page, script, style):
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)
        assert "@import" not in text and "url(http" not in text


def test_big_bodies_are_refused(client: TestClient) -> None:
    game = new(client)["id"]
    r = client.post(f"/api/games/{game}/move", content=b"{" + b" " * MAX_BODY + b"}", headers=AUTH)
    assert r.status_code == 413
    assert "too large" in r.json()["error"]

    def chunks() -> Iterator[bytes]:
        # No Content-Length: the limit holds while the body streams in.
        for _ in range(MAX_BODY // 1000 + 2):
            yield b" " * 1000

    r = client.post(f"/api/games/{game}/move", content=chunks(), headers=AUTH)
    assert r.status_code == 413
    assert state(client, game)["moves"] == []


# ---- bad requests change nothing ----------------------------------------------------------


def test_unknown_game_and_unknown_calls(client: TestClient) -> None:
    r = client.get("/api/games/0123456789abcdef", headers=AUTH)
    assert r.status_code == 404
    assert "no game" in r.json()["error"]
    r = post(client, "0123456789abcdef", "move", {"move": "e4"})
    assert r.status_code == 404
    r = client.get("/api/nothing", headers=AUTH)
    assert r.status_code == 404
    assert "no such" in r.json()["error"]
    game = new(client)["id"]
    r = client.get(f"/api/games/{game}/move", headers=AUTH)
    assert r.status_code == 405
    assert "not allowed" in r.json()["error"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"move": "Ke2"}, 400, "illegal"),
        ({"move": "e5"}, 400, "illegal"),
        ({"move": "Zz9"}, 400, ""),
        ({"move": "e2e5"}, 400, ""),
        ({"move": ""}, 400, "missing"),
        ({}, 400, "missing"),
        ({"move": 42}, 400, "string"),
        ({"move": "e4" * 200}, 400, "too long"),
        ([1, 2], 400, "JSON object"),
        ("e4", 400, "JSON object"),
    ],
)
def test_bad_moves(client: TestClient, body: Any, status: int, words: str) -> None:
    game = new(client)
    r = post(client, game["id"], "move", body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    after = state(client, game["id"])
    assert after["fen"] == game["fen"] and after["version"] == game["version"]


def test_malformed_json(client: TestClient) -> None:
    game = new(client)["id"]
    for raw in (b"{", b"\xff\xfe", b"not json"):
        r = client.post(f"/api/games/{game}/move", content=raw, headers=AUTH)
        assert r.status_code == 400
        assert "not JSON" in r.json()["error"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"fen": "not a fen"}, "bad FEN"),
        ({"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "bad FEN"),
        ({"fen": "4k3/8/8/8/8/8/8/4K2R b K - 0 1 extra"}, "bad FEN"),
        ({"white": "robot"}, "'human' or 'engine'"),
        ({"black": 3}, "string"),
        ({"level": "99999"}, "level"),
        ({"level": "weak"}, "level"),
        ({"white_at_bottom": "yes"}, "true or false"),
    ],
)
def test_bad_new_games(client: TestClient, body: dict[str, Any], words: str) -> None:
    r = client.post("/api/games", json=body, headers=AUTH)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]


def test_a_fen_with_the_side_not_to_move_in_check_is_refused(client: TestClient) -> None:
    # Black in check with White to move: python-chess parses it, but it cannot be played.
    r = client.post("/api/games", json={"fen": "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"}, headers=AUTH)
    assert r.status_code == 400
    assert "bad FEN" in r.json()["error"]


def test_status_words() -> None:
    assert status_words(0) == "an invalid position"
    assert status_words((1 << 0) | (1 << 1) | (1 << 11)) == (
        "no white king, no black king, the board is empty"
    )
    assert status_words(1 << 10) == "the side not to move is in check"


def test_bad_answers_and_resignations(client: TestClient) -> None:
    game = new(client)["id"]
    r = post(client, game, "draw/answer", {"accept": True})
    assert r.status_code == 409
    assert "no draw offer" in r.json()["error"]
    r = post(client, game, "draw/answer", {"accept": "yes"})
    assert r.status_code == 400
    r = post(client, game, "resign", {"color": "green"})
    assert r.status_code == 400
    r = post(client, game, "undo")
    assert r.status_code == 409
    assert "nothing to undo" in r.json()["error"]
    assert state(client, game)["ending"] is None


# ---- whole games ----------------------------------------------------------------------------


def test_fools_mate(client: TestClient) -> None:
    game = new(client)
    assert len(game["legal"]) == 20
    assert game["status"] == "Move 1: White to move."
    s = play(client, game["id"], "f3", "e5", "g4")
    assert s["moves"] == ["f3", "e5", "g4"]
    s = play(client, game["id"], "d8h4")
    assert s["moves"][-1] == "Qh4#"
    assert s["ending"]["announcement"] == "Checkmate: Black wins (0-1)."
    assert s["status"] == "Game over. Checkmate: Black wins (0-1)."
    assert s["check"] == 4 and s["last_move"] == {"from": 59, "to": 31}
    assert s["legal"] == []
    r = post(client, game["id"], "move", {"move": "Kf2"})
    assert r.status_code == 409
    assert "game is over" in r.json()["error"]
    pgn = client.get(f"/api/games/{game['id']}/pgn", headers=AUTH)
    assert pgn.status_code == 200
    assert "attachment" in pgn.headers["content-disposition"]
    assert '[Result "0-1"]' in pgn.text
    assert "1. f3 e5 2. g4 Qh4# { Checkmate: Black wins (0-1). } 0-1" in pgn.text


def test_legal_moves_show_captures_castling_and_promotions(client: TestClient) -> None:
    game = new(client, fen="r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
    by_uci = {m["uci"]: m for m in game["legal"]}
    assert by_uci["e1g1"]["to"] == 6 and by_uci["e1g1"]["san"] == "O-O"
    assert by_uci["e1c1"]["to"] == 2
    assert by_uci["a1a8"]["capture"] and not by_uci["a1a2"]["capture"]
    promotions = {m["promotion"] for m in game["legal"] if m["from"] == 49 and m["to"] == 57}
    assert promotions == {"q", "r", "b", "n"}
    # A bare promotion names its choices; nothing is played.
    r = post(client, game["id"], "move", {"move": "b8"})
    assert r.status_code == 400
    assert sorted(r.json()["promotion"]) == ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]
    s = play(client, game["id"], "b7b8n")
    assert s["moves"] == ["b8=N"] and s["pieces"][57] == "N"
    s = play(client, game["id"], "O-O")
    assert s["last_move"] == {"from": 60, "to": 62}
    assert s["pieces"][62] == "k" and s["pieces"][61] == "r"


def test_en_passant_and_undo(client: TestClient) -> None:
    game = new(client)["id"]
    play(client, game, "e4", "a6", "e5", "d5")
    s = play(client, game, "exd6")
    assert s["moves"][-1] == "exd6" and s["pieces"][35] is None and s["pieces"][43] == "P"
    s = post(client, game, "undo").json()
    assert s["moves"] == ["e4", "a6", "e5", "d5"] and s["pieces"][35] == "p"
    assert s["message"] == "took back exd6"


def test_draw_offer_between_humans(client: TestClient) -> None:
    game = new(client)["id"]
    play(client, game, "e4")
    s = post(client, game, "draw").json()
    assert s["offer"] == "black" and s["legal"] == []
    r = post(client, game, "move", {"move": "e5"})
    assert r.status_code == 409
    assert "accept or decline" in r.json()["error"]
    s = post(client, game, "draw/answer", {"accept": False}).json()
    assert s["offer"] is None and s["ending"] is None
    assert s["message"] == "White declines the draw. Play on."
    play(client, game, "e5")
    post(client, game, "draw")
    s = post(client, game, "draw/answer", {"accept": True}).json()
    assert s["ending"]["announcement"] == "Draw by agreement (1/2-1/2)."


def test_resignation_between_humans_is_the_side_to_move(client: TestClient) -> None:
    game = new(client)["id"]
    play(client, game, "e4")
    s = post(client, game, "resign").json()
    assert s["ending"]["announcement"] == "Black resigns: White wins (1-0)."
    r = post(client, game, "resign")
    assert r.status_code == 409


def test_claims(client: TestClient) -> None:
    game = new(client)["id"]
    r = post(client, game, "claim", {})
    assert r.status_code == 409
    assert "occurred once" in r.json()["error"]
    play(client, game, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
    s = state(client, game)
    assert s["claim"] == {"now": False, "rule": None, "by_moving": ["Ng8"]}
    r = post(client, game, "claim", {})
    assert r.status_code == 409
    assert "Ng8" in r.json()["error"]
    r = post(client, game, "claim", {"move": "Nc6"})
    assert r.status_code == 409
    assert "no draw to claim with Nc6" in r.json()["error"]
    assert state(client, game)["moves"][-1] == "Ng1"
    s = post(client, game, "claim", {"move": "Ng8"}).json()
    assert s["ending"]["announcement"] == "Draw claimed: threefold repetition (1/2-1/2)."
    assert s["moves"][-1] == "Ng8"


def test_fifty_move_claim_in_the_position() -> None:
    app = create_app(token=TOKEN, limit=Limit(depth=1))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        game = new(c, fen="4k3/8/8/8/8/8/8/4K2R w K - 100 80")
        assert game["claim"]["now"] and game["claim"]["rule"] == "the 50-move rule"
        s = post(c, game["id"], "claim", {}).json()
        assert s["ending"]["reason"] == "Draw claimed: the 50-move rule"


def test_automatic_endings_are_announced(client: TestClient) -> None:
    s = new(client, fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert s["ending"]["announcement"] == "Stalemate (1/2-1/2)."
    s = new(client, fen="4k3/8/8/8/8/8/8/4KB2 w - - 0 1")
    assert s["ending"]["announcement"] == "Draw by insufficient material (1/2-1/2)."


def test_flip_is_kept_with_the_game(client: TestClient) -> None:
    game = new(client)
    assert game["white_at_bottom"]
    assert not post(client, game["id"], "flip").json()["white_at_bottom"]
    assert not state(client, game["id"])["white_at_bottom"]
    assert not new(client, white="engine", black="human")["white_at_bottom"]


def test_against_the_engine(client: TestClient) -> None:
    game = new(client, black="engine", level="1")
    assert game["players"]["black"]["name"].startswith("pychess-rs")
    assert game["players"]["white"] == {"name": "Human", "human": True}
    play(client, game["id"], "e4")
    s = wait_for_engine(client, game["id"])
    assert len(s["moves"]) == 2 and s["turn"] == "white"
    assert s["message"].startswith("Black plays ")
    # Undo takes back the engine's reply and the move before it.
    s = post(client, game["id"], "undo").json()
    assert s["moves"] == [] and s["turn"] == "white"
    # A resignation is the human's, and the engine cannot be made to resign.
    r = post(client, game["id"], "resign", {"color": "black"})
    assert r.status_code == 400
    s = post(client, game["id"], "resign").json()
    assert s["ending"]["announcement"] == "White resigns: Black wins (0-1)."


def test_while_the_engine_thinks() -> None:
    # The searches wait in a list, so that the test decides when they run.
    searches: list[Callable[[], None]] = []
    app = create_app(token=TOKEN, limit=Limit(depth=1), spawn=searches.append)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        game = new(c, black="engine", level="1")["id"]
        s = play(c, game, "e4")
        assert s["thinking"] and s["legal"] == [] and len(searches) == 1
        assert "(engine) is thinking" in s["status"]
        for action, body in [("move", {"move": "d4"}), ("draw", None), ("claim", {})]:
            r = post(c, game, action, body)
            assert r.status_code == 409, (action, r.text)
            assert "engine's move" in r.json()["error"]
        searches.pop()()
        s = state(c, game)
        assert not s["thinking"] and len(s["moves"]) == 2
        # An undo while it thinks takes back the human's move; the search's answer is dropped.
        play(c, game, "d4")
        s = post(c, game, "undo").json()
        assert not s["thinking"] and len(s["moves"]) == 2 and s["message"].startswith("took back")
        searches.pop()()
        assert len(state(c, game)["moves"]) == 2
        # So is it after a resignation.
        play(c, game, "d4")
        post(c, game, "resign")
        searches.pop()()
        s = state(c, game)
        assert len(s["moves"]) == 3 and s["ending"]["reason"] == "White resigns"


def test_the_engine_moves_first_as_white(client: TestClient) -> None:
    game = new(client, white="engine", black="human", level="2")
    s = wait_for_engine(client, game["id"])
    assert len(s["moves"]) == 1 and s["turn"] == "black" and s["legal"]
    # Its first move alone is not the human's to take back.
    r = post(client, game["id"], "undo")
    assert r.status_code == 409
    assert "the engine's move is the only one" in r.json()["error"]
    reply = next(m["uci"] for m in s["legal"] if m["san"] in ("e5", "e6", "d5", "Nf6", "c5"))
    play(client, game["id"], reply)
    s = wait_for_engine(client, game["id"])
    assert len(s["moves"]) == 3
    s = post(client, game["id"], "undo").json()
    assert len(s["moves"]) == 1 and s["turn"] == "black" and not s["thinking"]


def test_the_engine_answers_a_draw_offer_from_its_evaluation(client: TestClient) -> None:
    # A queen up for the engine: it declines.
    game = new(client, black="engine", fen="q3k3/8/8/8/8/8/8/4K3 w - - 0 1")
    s = post(client, game["id"], "draw").json()
    assert s["ending"] is None and s["message"] == "Black declines the draw. Play on."
    # A queen down: it accepts.
    game = new(client, black="engine", fen="4k3/8/8/8/8/8/Q7/4K3 w - - 0 1")
    s = post(client, game["id"], "draw").json()
    assert s["ending"]["announcement"] == "Draw by agreement (1/2-1/2)."


def test_engine_against_engine_plays_on_its_own(client: TestClient) -> None:
    game = new(client, white="engine", black="engine", level="1")
    deadline = time.monotonic() + 30
    while len(state(client, game["id"])["moves"]) < 4:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    r = post(client, game["id"], "undo")
    assert r.status_code == 409
    r = post(client, game["id"], "resign")
    assert r.status_code == 409


def test_games_are_independent_and_bounded(client: TestClient) -> None:
    first = new(client)["id"]
    second = new(client)["id"]
    assert first != second
    play(client, first, "e4")
    assert state(client, second)["moves"] == []
    for _ in range(MAX_GAMES):
        new(client)
    assert client.get(f"/api/games/{first}", headers=AUTH).status_code == 404


def test_config_has_levels_and_pieces(client: TestClient) -> None:
    config = client.get("/api/config", headers=AUTH).json()
    assert [level["value"] for level in config["levels"]] == [str(n) for n in range(1, 9)]
    assert config["format"] in ("svg", "glyph")
    assert sorted(config["pieces"]) == sorted("PNBRQKpnbrqk")


def test_pieces_fall_back_to_glyphs(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> Any:
        raise ImportError(name)

    monkeypatch.setattr(gui_app.importlib, "import_module", missing)
    images = gui_app.piece_images()
    assert images["format"] == "glyph" and images["pieces"]["K"] == "♔"


def test_pieces_from_an_svg_module(monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeSvg:
        @staticmethod
        def piece(piece: Any) -> str:
            return f"<svg viewBox='0 0 45 45'><title>{piece.symbol()}</title></svg>"

    monkeypatch.setattr(gui_app.importlib, "import_module", lambda name: FakeSvg)
    images = gui_app.piece_images()
    assert images["format"] == "svg"
    assert images["pieces"]["q"].startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert "<title>q</title>" in images["pieces"]["q"]


def test_state_matches_the_board(client: TestClient) -> None:
    game = new(client)["id"]
    s = play(client, game, "e4", "c5", "Nf3")
    board = Board(s["fen"])
    assert s["turn"] == "black"
    assert sorted(m["uci"] for m in s["legal"]) == sorted(m.uci() for m in board.legal_moves)
    assert s["first_move_number"] == 1 and s["first_turn"] == "white"


def test_requests_are_answered_while_the_engine_thinks() -> None:
    app = create_app(token=TOKEN, limit=Limit(time=1.5))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        game = new(c, black="engine", level="8")["id"]
        assert play(c, game, "e4")["thinking"]
        start = time.monotonic()
        s = state(c, game)
        other = new(c)["id"]
        play(c, other, "d4")
        assert time.monotonic() - start < 1.0, "a request waited for the search"
        assert s["thinking"]
        assert len(wait_for_engine(c, game)["moves"]) == 2


# ---- the command -----------------------------------------------------------------------------


def test_the_command_serves_the_page_with_its_token() -> None:
    command = [sys.executable, "-m", "pychess_rs", "gui", "--no-browser", "--depth", "1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        address = r"(http://127\.0\.0\.1:\d+/)\?token=(\S+)$"
        match = re.match(r"pychess-rs gui: playing at " + address, line)
        assert match is not None, line
        base, token = match.groups()
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"{base}?token={token}", timeout=5) as response:
                    assert response.status == 200
                    assert f'content="{token}"' in response.read().decode()
                break
            except urllib.error.URLError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.05)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(base, timeout=5)
        assert refused.value.code == 403
        refused.value.close()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
    assert process.returncode in (0, 130)


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--port", "70000"], "--port must be 0..65535"),
        (["--movetime", "0"], "--movetime must be a positive"),
        (["--depth", "0"], "--depth must be at least 1"),
    ],
)
def test_the_command_refuses_bad_options(
    arguments: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from pychess_rs.cli import main

    assert main(["gui", "--no-browser", *arguments]) == 2
    assert words in capsys.readouterr().err


def test_a_port_in_use_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    from pychess_rs.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["gui", "--no-browser", "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_loopback_names() -> None:
    from pychess_rs.gui import _is_loopback

    assert _is_loopback("127.0.0.1") and _is_loopback("::1") and _is_loopback("localhost")
    assert _is_loopback("127.0.0.2")
    assert not _is_loopback("0.0.0.0") and not _is_loopback("192.168.1.5")
    assert not _is_loopback("example.com")


def test_host_names_for_other_addresses() -> None:
    from pychess_rs.gui import _names_for

    assert _names_for("192.168.1.5") == ["192.168.1.5"]
    assert _names_for("fe80::1") == ["[fe80::1]"]
    everywhere = _names_for("0.0.0.0")
    assert socket.gethostname() in everywhere and "0.0.0.0" in everywhere
