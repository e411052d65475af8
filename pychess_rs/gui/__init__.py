"""``pychess-rs gui``: chess in the browser, served from this machine.

:mod:`.games` holds the games and the players' actions (with the terminal game's engine
player, endings, claims and PGN from :mod:`pychess_rs.play`), :mod:`.app` is the Starlette
app around them, and ``static/`` the page (HTML, CSS and a script that only draws and sends
clicks: every chess answer comes from the server). Starlette and uvicorn come with the
``gui`` extra: ``pip install 'pychess-rs[gui]'``.
"""

from __future__ import annotations

import argparse
import ipaddress
import secrets
import socket
import sys
import threading
import webbrowser

__all__ = ["EPILOG", "add_arguments", "run"]

EPILOG = """\
examples:
  pychess-rs gui                      serve on a free port of 127.0.0.1 and open the browser
  pychess-rs gui --port 8765 --no-browser
  pychess-rs gui --movetime 0.3       a quicker engine
  pychess-rs gui --book performance.bin   the engine opens from a Polyglot book
  pychess-rs gui --syzygy ~/syzygy        the engine plays endgames from Syzygy tables

The address printed holds this run's token: open it (or reload it) to play. Each browser
tab plays its own game; the game's id in the address brings it back after a reload."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declares ``gui``'s options on ``parser``."""
    from ..play.options import add_book_arguments, add_limit_arguments

    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; anything else is reachable by others)",
    )
    parser.add_argument(
        "--port", type=int, default=0, help="port to listen on (default: a free one)"
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="print the address but do not open a browser"
    )
    add_limit_arguments(parser)
    add_book_arguments(parser)


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    return sock


_WILDCARDS = ("0.0.0.0", "::")


def _names_for(host: str) -> list[str]:
    """The names a browser may send in the Host header to reach a server on ``host``: the
    address itself or, for every address of the machine (0.0.0.0, ::), the machine's names
    and their addresses."""
    names = {host}
    if host in _WILDCARDS:
        for name in {socket.gethostname(), socket.getfqdn()}:
            names.add(name)
            try:
                names.update(str(info[4][0]) for info in socket.getaddrinfo(name, None))
            except OSError:
                pass
    return sorted(f"[{n}]" if ":" in n else n for n in names)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace) -> int:
    """Serves the page until Ctrl-C; returns the exit status (2 for bad options)."""
    from ..play.options import book_options, search_limit

    try:
        import uvicorn

        from .app import create_app
    except ImportError as e:
        print(
            f"pychess-rs gui: {e.name or 'a module'} is missing: install the extra with "
            "pip install 'pychess-rs[gui]'",
            file=sys.stderr,
        )
        return 2
    try:
        limit = search_limit(args)
        book_options(args)  # the book and the seed are checked once before serving
    except ValueError as e:
        print(f"pychess-rs gui: {e}", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"pychess-rs gui: --port must be 0..65535, got {args.port}", file=sys.stderr)
        return 2
    host: str = args.host
    hosts = ["127.0.0.1", "localhost", "[::1]"]
    if not _is_loopback(host):
        print(
            f"pychess-rs gui: warning: listening on {host}, not on loopback: other machines "
            "can reach this server (the token still guards it)",
            file=sys.stderr,
        )
        hosts.extend(_names_for(host))
    try:
        sock = _listen(host, args.port)
    except OSError as e:
        print(f"pychess-rs gui: cannot listen on {host}:{args.port}: {e.strerror}", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    token = secrets.token_urlsafe(16)
    shown = socket.gethostname() if host in _WILDCARDS else host
    shown = f"[{shown}]" if ":" in shown else shown
    url = f"http://{shown}:{port}/?token={token}"
    app = create_app(
        token=token,
        limit=limit,
        hosts=hosts,
        book=args.book,
        book_seed=args.book_seed,
        syzygy=args.syzygy,
    )
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    print(f"pychess-rs gui: playing at {url}\n(press Ctrl-C to stop)", flush=True)
    if not args.no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0
