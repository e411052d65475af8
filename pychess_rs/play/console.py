"""The players' end of the game: lines in, lines out, on a terminal or through a pipe.

On a terminal the prompt is ``input()``'s (with line editing when ``readline`` is there),
and while the engine thinks, :meth:`Console.poll` lets a typed ``stop`` through. Through a
pipe every line read is echoed after its prompt, so a transcript reads like the session,
and nothing is read while the engine thinks: scripted games stay in step.
"""

from __future__ import annotations

import os
import select
import sys
from typing import TextIO

__all__ = ["Console"]


class Console:
    """Reads the players' lines and shows the game's text."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self._polled_eof = False
        reconfigure = getattr(stdin, "reconfigure", None)
        if reconfigure is not None:
            try:  # undecodable bytes become U+FFFD: a line to explain, not a crash
                reconfigure(errors="replace")
            except (ValueError, OSError):
                pass
        try:
            self.interactive = stdin.isatty() and stdout.isatty()
        except (AttributeError, ValueError):
            self.interactive = False
        if self.interactive:
            try:  # line editing and history for input(), where the platform has it
                import readline  # noqa: F401
            except ImportError:
                pass

    def say(self, text: str = "") -> None:
        """Prints ``text`` and a newline."""
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str | None:
        """One line from the player, without its newline; ``None`` at end of input.

        :raises: :exc:`KeyboardInterrupt` on Ctrl-C.
        """
        if self.interactive and self.stdin is sys.stdin and self.stdout is sys.stdout:
            try:
                return input(prompt)
            except EOFError:
                self.say()
                return None
        self.stdout.write(prompt)
        self.stdout.flush()
        try:
            line = self.stdin.readline()
        except UnicodeDecodeError:  # a stream that could not be told to replace
            line = "\ufffd\n"
        if not line:
            self.say()
            return None
        line = line.rstrip("\r\n")
        self.say(line)
        return line

    def can_poll(self) -> bool:
        """Can :meth:`poll` read a line while something else runs?"""
        return self.interactive and os.name == "posix" and not self._polled_eof

    def poll(self, timeout: float) -> str | None:
        """A line typed within ``timeout`` seconds (terminal only), else ``None``; end of
        input reads as ``None`` too."""
        try:
            ready, _, _ = select.select([self.stdin], [], [], timeout)
        except (OSError, ValueError):
            return None
        if not ready:
            return None
        line = self.stdin.readline()
        if not line:
            self._polled_eof = True  # Ctrl-D while the engine thinks: stop watching
            return None
        return line.rstrip("\r\n")
