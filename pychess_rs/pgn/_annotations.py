"""Annotations of a move: NAG numbers, and the commands lichess and ChessBase write in
comments (``[%clk]``, ``[%emt]``, ``[%eval]``, ``[%csl]``/``[%cal]``), with the helpers that
read and rewrite them (python-chess's regexes, so the same text matches)."""

from __future__ import annotations

import re
from typing import Callable

NAG_NULL = 0
NAG_GOOD_MOVE = 1
NAG_MISTAKE = 2
NAG_BRILLIANT_MOVE = 3
NAG_BLUNDER = 4
NAG_SPECULATIVE_MOVE = 5
NAG_DUBIOUS_MOVE = 6
NAG_FORCED_MOVE = 7
NAG_SINGULAR_MOVE = 8
NAG_WORST_MOVE = 9
NAG_DRAWISH_POSITION = 10
NAG_QUIET_POSITION = 11
NAG_ACTIVE_POSITION = 12
NAG_UNCLEAR_POSITION = 13
NAG_WHITE_SLIGHT_ADVANTAGE = 14
NAG_BLACK_SLIGHT_ADVANTAGE = 15
NAG_WHITE_MODERATE_ADVANTAGE = 16
NAG_BLACK_MODERATE_ADVANTAGE = 17
NAG_WHITE_DECISIVE_ADVANTAGE = 18
NAG_BLACK_DECISIVE_ADVANTAGE = 19
NAG_WHITE_ZUGZWANG = 22
NAG_BLACK_ZUGZWANG = 23
NAG_WHITE_MODERATE_COUNTERPLAY = 132
NAG_BLACK_MODERATE_COUNTERPLAY = 133
NAG_WHITE_DECISIVE_COUNTERPLAY = 134
NAG_BLACK_DECISIVE_COUNTERPLAY = 135
NAG_WHITE_MODERATE_TIME_PRESSURE = 136
NAG_BLACK_MODERATE_TIME_PRESSURE = 137
NAG_WHITE_SEVERE_TIME_PRESSURE = 138
NAG_BLACK_SEVERE_TIME_PRESSURE = 139
NAG_NOVELTY = 146

CLOCK_REGEX = re.compile(
    r"(?P<prefix>\s?)\[%clk\s(?P<hours>\d+):(?P<minutes>\d+):(?P<seconds>\d+(?:\.\d*)?)\]"
    r"(?P<suffix>\s?)"
)
EMT_REGEX = re.compile(
    r"(?P<prefix>\s?)\[%emt\s(?P<hours>\d+):(?P<minutes>\d+):(?P<seconds>\d+(?:\.\d*)?)\]"
    r"(?P<suffix>\s?)"
)
EVAL_REGEX = re.compile(
    r"(?P<prefix>\s?)\[%eval\s(?:\#(?P<mate>[+-]?\d+)|(?P<cp>[+-]?(?:\d{0,10}\.\d{1,2}|\d{1,10}\.?)))"
    r"(?:,(?P<depth>\d+))?\](?P<suffix>\s?)"
)
# Square marks ([%csl Ga1]) and arrows ([%cal Ra1h8]), as lichess and ChessBase write them.
_ARROW = r"[RGYB][a-h][1-8](?:[a-h][1-8])?"
ARROWS_REGEX = re.compile(
    rf"(?P<prefix>\s?)\[%(?:csl|cal)\s(?P<arrows>{_ARROW}(?:,{_ARROW})*)\](?P<suffix>\s?)"
)


def _condense_affix(infix: str) -> Callable[[re.Match[str]], str]:
    def repl(match: re.Match[str]) -> str:
        if infix:
            return match.group("prefix") + infix + match.group("suffix")
        return match.group("prefix") and match.group("suffix")

    return repl


def _clock_text(tag: str, seconds: float) -> str:
    seconds = max(0, seconds)
    hours = int(seconds // 3600)
    minutes = int(seconds % 3600 // 60)
    rest = seconds % 3600 % 60
    part = f"{rest:06.3f}".rstrip("0").rstrip(".")
    return f"[%{tag} {hours:d}:{minutes:02d}:{part}]"


def _time_of(match: re.Match[str] | None) -> float | None:
    if match is None:
        return None
    hours, minutes = int(match.group("hours")), int(match.group("minutes"))
    return hours * 3600 + minutes * 60 + float(match.group("seconds"))
