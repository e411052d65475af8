"""The web server: a Starlette app answering the page's JSON requests about the games.

Safety for a server on the player's own machine: every request must name an allowed host
(a web page elsewhere cannot reach it through DNS rebinding), the page and every API request
must carry the token made for this run (other users and other sites cannot play or read the
games), and bodies are small. Every refusal is a 4xx with a JSON ``{"error": message}``
and changes nothing.
"""

from __future__ import annotations

import contextlib
import hmac
import html
import importlib
import json
import threading
from collections.abc import AsyncIterator, Iterable
from importlib import resources
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from .._book import BookPath
from .._core import Piece
from ..engine import Limit
from .games import GameError, Games, levels, variants

__all__ = ["MAX_BODY", "TOKEN_HEADER", "create_app", "piece_images"]

#: The largest request body accepted (a FEN or a move is far smaller).
MAX_BODY = 16 * 1024
#: The header that carries the run's token on API requests.
TOKEN_HEADER = "x-pychess-token"

# The page loads nothing from elsewhere and runs no inline script; no other site may frame
# it (a click on a hidden board is still a move).
_PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

_PIECES = "PNBRQKpnbrqk"
_GLYPHS = dict(zip(_PIECES, "♙♘♗♖♕♔♟♞♝♜♛♚"))


def piece_images() -> dict[str, Any]:
    """The twelve pieces for the page: SVG from :mod:`pychess_rs.svg` where the package has
    it, else Unicode glyphs (``{"format": "svg" | "glyph", "pieces": {"K": ..., ...}}``)."""
    try:
        svg = importlib.import_module("pychess_rs.svg")
        piece: Callable[[Piece], str] = svg.piece
        pieces = {symbol: piece(Piece.from_symbol(symbol)) for symbol in _PIECES}
    except (ImportError, AttributeError):
        return {"format": "glyph", "pieces": dict(_GLYPHS)}
    for symbol, image in pieces.items():
        # An <img> shows SVG only with its namespace declared.
        if "xmlns=" not in image:
            pieces[symbol] = image.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"', 1)
    return {"format": "svg", "pieces": pieces}


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


class _Guard:
    """ASGI middleware: the Host check, the token check and the body limit, before any
    route runs."""

    def __init__(self, app: ASGIApp, *, token: str, hosts: Iterable[str]) -> None:
        self.app = app
        self.token = token
        self.hosts = frozenset(h.lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self._refusal(request)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, _limited(receive), send)

    def _refusal(self, request: Request) -> Response | None:
        host = _hostname(request.headers.get("host", ""))
        if host not in self.hosts:
            return _error(
                403,
                f"this server answers only to {', '.join(sorted(self.hosts))}, not to the host "
                f"{request.headers.get('host', '')!r} (a page elsewhere cannot use it)",
            )
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return _error(413, f"request body too large (at most {MAX_BODY} bytes)")
        path = request.url.path
        if path.startswith("/static/"):
            return None
        given = request.headers.get(TOKEN_HEADER)
        if given is None:
            given = request.query_params.get("token")
        if given is None or not hmac.compare_digest(given.encode(), self.token.encode()):
            if path.startswith("/api/"):
                return _error(
                    403,
                    f"missing or wrong token: send the {TOKEN_HEADER} header with the token "
                    "printed by pychess-rs gui",
                )
            return HTMLResponse(
                "<!doctype html><title>pychess-rs</title><p>This page needs the address "
                "<code>pychess-rs gui</code> printed when it started (it holds the token of "
                "this run): open that address.</p>",
                status_code=403,
            )
        return None


class _TooLarge(Exception):
    pass


def _limited(receive: Receive) -> Receive:
    """``receive`` that stops a body (chunked, without Content-Length) past the limit."""
    seen = 0

    async def limited() -> Any:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise _TooLarge
        return message

    return limited


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


async def _body(request: Request) -> dict[str, Any]:
    try:
        raw = await request.body()
    except _TooLarge:
        raise GameError(413, f"request body too large (at most {MAX_BODY} bytes)") from None
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise GameError(400, "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise GameError(400, "the request body must be a JSON object")
    return data


def _text(data: dict[str, Any], key: str, *, default: str | None = None) -> str | None:
    value = data.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str):
        raise GameError(400, f"{key!r} must be a string")
    if len(value) > 200:
        raise GameError(400, f"{key!r} is too long")
    return value


def _required(data: dict[str, Any], key: str) -> str:
    value = _text(data, key)
    if value is None or not value.strip():
        raise GameError(400, f"{key!r} is missing")
    return value


def create_app(
    *,
    token: str,
    limit: Limit,
    hosts: Iterable[str] = ("127.0.0.1", "localhost", "[::1]"),
    spawn: Callable[[Callable[[], None]], None] | None = None,
    book: BookPath | None = None,
    book_seed: int | None = None,
    syzygy: str | None = None,
) -> Starlette:
    """The app: the page at ``/`` (``?token=``), its files under ``/static/`` and the
    JSON API under ``/api/`` (the token in the ``X-PyChess-Token`` header). ``hosts``
    are the names the Host header may carry; ``spawn`` runs an engine search (default: a
    daemon thread); ``book`` is the engine's opening book, played with ``book_seed`` (a new
    seed each game when ``None``); ``syzygy`` the directories of its endgame tables."""

    def thread(work: Callable[[], None]) -> None:
        threading.Thread(target=work, name="pychess-rs-gui-engine", daemon=True).start()

    games = Games(limit, spawn or thread, book=book, book_seed=book_seed, syzygy=syzygy)
    static = resources.files("pychess_rs.gui") / "static"

    async def page(request: Request) -> Response:
        text = (static / "index.html").read_text(encoding="utf-8")
        # The token goes into the page rather than staying in the address bar's history
        # only: the script reads it from here.
        text = text.replace("{{TOKEN}}", html.escape(token, quote=True))
        return HTMLResponse(text, headers={"Cache-Control": "no-store", **_PAGE_HEADERS})

    async def config(request: Request) -> Response:
        return JSONResponse({"levels": levels(), "variants": variants(), **piece_images()})

    async def new_game(request: Request) -> Response:
        data = await _body(request)
        flip = data.get("white_at_bottom")
        if flip is not None and not isinstance(flip, bool):
            raise GameError(400, "'white_at_bottom' must be true or false")
        level = data.get("level", "3")
        if isinstance(level, int) and not isinstance(level, bool):
            level = str(level)
        game = games.new(
            white=_text(data, "white", default="human") or "human",
            black=_text(data, "black", default="engine") or "engine",
            level=_text({"level": level}, "level") or "3",
            fen=_text(data, "fen") or None,
            white_at_bottom=flip,
            variant=_text(data, "variant", default="chess") or "chess",
        )
        return JSONResponse(game.state(), status_code=201)

    async def show(request: Request) -> Response:
        return JSONResponse(games.get(request.path_params["id"]).state())

    async def move(request: Request) -> Response:
        game = games.get(request.path_params["id"])
        data = await _body(request)
        game.move(_required(data, "move").strip())
        game.start_engine()
        return JSONResponse(game.state())

    async def undo(request: Request) -> Response:
        game = games.get(request.path_params["id"])
        game.undo()
        return JSONResponse(game.state())

    async def resign(request: Request) -> Response:
        game = games.get(request.path_params["id"])
        data = await _body(request)
        color = _text(data, "color")
        if color not in (None, "white", "black"):
            raise GameError(400, "'color' must be 'white' or 'black'")
        game.resign(None if color is None else color == "white")
        return JSONResponse(game.state())

    async def offer(request: Request) -> Response:
        game = games.get(request.path_params["id"])
        offerer = game.offer_draw()
        if offerer is not None:
            await run_in_threadpool(game.engine_answer, offerer)
            game.start_engine()
        return JSONResponse(game.state())

    async def answer(request: Request) -> Response:
        game = games.get(request.path_params["id"])
        data = await _body(request)
        accept = data.get("accept")
        if not isinstance(accept, bool):
            raise GameError(400, "'accept' must be true or false")
        game.answer(accept)
        return JSONResponse(game.state())

    async def claim(request: Request) -> Response:
        game = games.get(request.path_params["id"])
        data = await _body(request)
        text = _text(data, "move")
        game.claim(text.strip() if text else None)
        return JSONResponse(game.state())

    async def flip_board(request: Request) -> Response:
        game = games.get(request.path_params["id"])
        game.flip()
        return JSONResponse(game.state())

    async def pgn(request: Request) -> Response:
        game = games.get(request.path_params["id"])
        return PlainTextResponse(
            game.pgn(),
            media_type="application/x-chess-pgn",
            headers={"Content-Disposition": f'attachment; filename="pychess-rs-{game.id}.pgn"'},
        )

    async def game_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, GameError)
        return _error(exc.status, exc.message, **exc.extra)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404:
            message = f"no such page or API call: {request.method} {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        else:
            message = str(exc.detail)
        return _error(exc.status_code, message)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            games.shutdown()

    game = "/api/games/{id:str}"
    routes = [
        Route("/", page),
        Route("/api/config", config),
        Route("/api/games", new_game, methods=["POST"]),
        Route(game, show),
        Route(f"{game}/move", move, methods=["POST"]),
        Route(f"{game}/undo", undo, methods=["POST"]),
        Route(f"{game}/resign", resign, methods=["POST"]),
        Route(f"{game}/draw", offer, methods=["POST"]),
        Route(f"{game}/draw/answer", answer, methods=["POST"]),
        Route(f"{game}/claim", claim, methods=["POST"]),
        Route(f"{game}/flip", flip_board, methods=["POST"]),
        Route(f"{game}/pgn", pgn),
        Mount("/static", StaticFiles(directory=str(static)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={GameError: game_error, HTTPException: http_error},
        lifespan=lifespan,
    )
    app.add_middleware(_Guard, token=token, hosts=[_hostname(h) for h in hosts])
    app.state.games = games
    return app
