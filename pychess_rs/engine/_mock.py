"""A stand-in for an engine process, for tests: :class:`MockTransport` checks each line a
protocol writes against a script of expected lines and answers with the scripted replies."""

from __future__ import annotations

import asyncio
from collections import deque

from ._protocol import Protocol

__all__ = ["MockTransport"]

_PING = object()


class MockTransport(asyncio.SubprocessTransport, asyncio.WriteTransport):
    """Connects to ``protocol`` as its engine. :meth:`expect` the lines in order, with the
    engine's replies; :meth:`assert_done` at the end. A line that was not expected raises
    :exc:`AssertionError` in the protocol's command."""

    def __init__(self, protocol: Protocol) -> None:
        super().__init__()
        self.protocol = protocol
        self.expectations: deque[tuple[object, list[str]]] = deque()
        self._unfinished = bytearray()
        protocol.connection_made(self)

    def expect(self, expectation: str, responses: list[str] = []) -> None:  # noqa: B006
        """The next line the protocol must write, and the engine's reply lines."""
        self.expectations.append((expectation, list(responses)))

    def expect_ping(self) -> None:
        """The next line is an XBoard ``ping N``; the reply is ``pong N``."""
        self.expectations.append((_PING, []))

    def assert_done(self) -> None:
        """Every expected line was written."""
        pending = [line for line, _ in self.expectations]
        assert not pending, f"expected lines not written: {pending!r}"

    def get_pipe_transport(self, fd: int) -> MockTransport:
        assert fd == 0, f"the engine's stdin is fd 0, not {fd}"
        return self

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._unfinished.extend(data)
        while (end := self._unfinished.find(b"\n")) >= 0:
            line = bytes(self._unfinished[:end]).decode()
            del self._unfinished[: end + 1]
            self._received(line)

    def _received(self, line: str) -> None:
        assert self.expectations, f"unexpected line written: {line!r}"
        expectation, responses = self.expectations.popleft()
        if expectation is _PING:
            word, _, number = line.partition(" ")
            assert word == "ping", f"expected a ping, got {line!r}"
            responses = [f"pong {number}"]
        else:
            assert line == expectation, f"expected {expectation!r}, got {line!r}"
        for response in responses:
            self.protocol.loop.call_soon(
                self.protocol.pipe_data_received, 1, (response + "\n").encode()
            )

    def get_pid(self) -> int:
        return id(self)

    def get_returncode(self) -> int | None:
        return None

    def kill(self) -> None:
        pass

    def terminate(self) -> None:
        pass

    def send_signal(self, signal: int) -> None:
        pass

    def close(self) -> None:
        pass

    def is_closing(self) -> bool:
        return False
