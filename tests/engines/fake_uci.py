"""A scripted UCI engine that misbehaves on purpose, for tests/test_engine_client.py.

Usage: python fake_uci.py MARKER BEHAVIOUR...  (MARKER only tags the process, so that a test
can find leftovers by their command line.)

From the start position it plays a scripted Ruy Lopez (``position startpos moves ...``
picks the next move and the expected reply) and declares a few options; on ``go`` it
reports the options it holds in an ``info string``. Behaviours (any combination):

  mute-uci      never answers ``uci``
  no-bestmove   on ``go``: says nothing, never sends ``bestmove`` (still answers isready)
  hang-on-go    on ``go``: stops reading its input and sleeps (a hung engine)
  die-on-go     on ``go``: one info line, then exits with status 3
  garbage       prints junk (text and invalid UTF-8) between its real lines
  ignore-quit   ignores ``quit`` and SIGTERM
  ignore-stop   ignores ``stop`` (an infinite search never ends)
  slow          takes 20 ms per search
  die-at-ply:N  on ``go`` in the position N plies after the start: exits with status 3
  strict        exits with status 5 if a command arrives while it searches (a client that
                does not serialise its calls)
  split-lines   writes each line in pieces of 7 bytes, flushing and pausing after each
                (lines reach the client across many reads)
  chatty        on ``go``: an info line every 10 ms, never ``bestmove``
  long-info     on ``go``: first an ``info string`` of 300,000 characters (longer than
                one read of the pipe)
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

BEHAVIOURS = set(sys.argv[2:])
OPTIONS = {"Hash": "16", "Style": "Normal", "Ponder": "false", "MultiPV": "1"}
GAME = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7".split()
position = {"ply": 0}
searching = threading.Event()
stopped = threading.Event()
write_lock = threading.Lock()


def say(line: str) -> None:
    with write_lock:
        if "garbage" in BEHAVIOURS:
            sys.stdout.buffer.write(b"\xff\xfe junk \x00 bestmove\n")
            sys.stdout.write("info depth x score cp\noption nonsense\nhello  world\n")
        if "split-lines" in BEHAVIOURS:
            data = (line + "\n").encode()
            for start in range(0, len(data), 7):
                sys.stdout.buffer.write(data[start : start + 7])
                sys.stdout.flush()
                time.sleep(0.0005)
            return
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def search(infinite: bool) -> None:
    if "slow" in BEHAVIOURS:
        time.sleep(0.02)
    if "long-info" in BEHAVIOURS:
        say("info string " + "x" * 300_000)
    say("info string " + " ".join(f"{k}={v}" for k, v in OPTIONS.items()))
    ply = position["ply"]
    best, reply = GAME[ply % len(GAME)], GAME[(ply + 1) % len(GAME)]
    say(f"info depth 1 score cp 20 pv {best} {reply}")
    if infinite:
        stopped.wait()
    searching.clear()
    say(f"bestmove {best} ponder {reply}")


def chatter() -> None:
    depth = 1
    while True:
        say(f"info depth {depth} score cp 20 pv e2e4")
        depth += 1
        time.sleep(0.01)


def main() -> None:
    if "ignore-quit" in BEHAVIOURS:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for raw in sys.stdin:
        line = raw.strip()
        word = line.split(" ")[0] if line else ""
        if "strict" in BEHAVIOURS and searching.is_set() and word in ("go", "position"):
            os._exit(5)
        if word == "uci":
            if "mute-uci" in BEHAVIOURS:
                continue
            say("id name Fake")
            say("id author pychess-rs tests")
            say("option name Hash type spin default 16 min 1 max 1024")
            say("option name Style type combo default Normal var Solid var Normal var Risky")
            say("option name Ponder type check default false")
            say("option name MultiPV type spin default 1 min 1 max 8")
            say("uciok")
        elif word == "isready":
            say("readyok")
        elif word == "position":
            _, _, moves = line.partition(" moves ")
            position["ply"] = len(moves.split())
        elif word == "setoption":
            _, _, rest = line.partition("name ")
            name, _, value = rest.partition(" value ")
            OPTIONS[name.strip()] = value.strip()
        elif word == "go":
            if "hang-on-go" in BEHAVIOURS:
                time.sleep(3600)
            if f"die-at-ply:{position['ply']}" in BEHAVIOURS:
                sys.exit(3)
            if "die-on-go" in BEHAVIOURS:
                say("info depth 1")
                sys.exit(3)
            if "no-bestmove" in BEHAVIOURS:
                continue
            if "chatty" in BEHAVIOURS:
                threading.Thread(target=chatter, daemon=True).start()
                continue
            infinite = "infinite" in line or "ponder" in line
            searching.set()
            stopped.clear()
            threading.Thread(target=search, args=(infinite,), daemon=True).start()
        elif word == "stop":
            if "ignore-stop" not in BEHAVIOURS:
                stopped.set()
        elif word == "ponderhit":
            stopped.set()
        elif word == "quit":
            if "ignore-quit" not in BEHAVIOURS:
                return
    if "ignore-quit" in BEHAVIOURS:
        time.sleep(3600)


if __name__ == "__main__":
    main()
