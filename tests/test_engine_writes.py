"""How the UCI client writes to the engine's pipe: a search's ``position`` and ``go`` lines go
out in one write (one system call and one wake-up of the engine per search, the bulk of a
fast engine's round trip), and every line is still checked for line breaks first."""

from __future__ import annotations

import asyncio

import pytest

import pychess_rs as chess
from pychess_rs.engine import EngineError, Limit, MockTransport, UciProtocol


class _CountingTransport(MockTransport):
    def __init__(self, protocol: UciProtocol) -> None:
        self.writes: list[bytes] = []
        super().__init__(protocol)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))
        super().write(data)


async def _initialised() -> tuple[UciProtocol, _CountingTransport]:
    protocol = UciProtocol()
    transport = _CountingTransport(protocol)
    transport.expect("uci", ["id name Mock", "uciok"])
    await protocol.initialize()
    transport.expect("ucinewgame")
    transport.expect("isready", ["readyok"])
    return protocol, transport


def test_analyse_and_play_write_position_and_go_at_once() -> None:
    async def main() -> None:
        protocol, transport = await _initialised()
        board = chess.Board()
        board.push_uci("e2e4")
        transport.expect("position startpos moves e2e4")
        transport.expect("go depth 1", ["info depth 1 score cp 10 pv e7e5", "bestmove e7e5"])
        info = await protocol.analyse(board, Limit(depth=1))
        assert info["pv"] == [chess.Move.from_uci("e7e5")]
        assert transport.writes[-1] == b"position startpos moves e2e4\ngo depth 1\n"
        transport.expect("position startpos moves e2e4")
        transport.expect("go nodes 5", ["bestmove c7c5"])
        played = await protocol.play(board, Limit(nodes=5))
        assert played.move == chess.Move.from_uci("c7c5")
        assert transport.writes[-1] == b"position startpos moves e2e4\ngo nodes 5\n"
        transport.assert_done()

    asyncio.run(main())


def test_a_line_break_in_any_line_sends_nothing() -> None:
    async def main() -> None:
        protocol = UciProtocol()
        transport = _CountingTransport(protocol)
        with pytest.raises(EngineError, match="line break"):
            protocol.send_lines("isready", "go\nquit")
        assert transport.writes == []
        transport.expect("isready")
        transport.expect("quit")
        protocol.send_lines("isready", "quit", probe=True)
        assert transport.writes == [b"isready\nquit\n"]

    asyncio.run(main())
