"""``{cli-help} SUBCOMMAND``: the text of ``pychess-rs SUBCOMMAND --help``, taken from the parser
itself (``pychess_rs.cli.build_parser``), so the CLI page cannot drift from the command.

No argument gives ``pychess-rs --help``; ``pgn stats`` gives a nested subcommand's help.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from pychess_rs.cli import build_parser


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """A parser's subcommands by name (empty when it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def help_text(words: list[str]) -> str:
    """``pychess-rs WORDS... --help``, formatted 100 columns wide."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        parser = build_parser()
        for word in words:
            parser = subcommands(parser)[word]
        return parser.format_help()
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


class CliHelp(SphinxDirective):
    optional_arguments = 8
    has_content = False

    def run(self) -> list[nodes.Node]:
        words = list(self.arguments)
        try:
            text = help_text(words)
        except KeyError:
            raise self.error(f"pychess-rs has no subcommand {' '.join(words)!r}") from None
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("cli-help", CliHelp)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
