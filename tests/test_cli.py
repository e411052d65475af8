"""The ``pychess-rs`` command: subcommands run and report through their exit status."""

from __future__ import annotations

import pytest

from pychess_rs import cli


def test_perft_subcommand_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["perft", "--startpos", "3"]) == 0
    assert "8902" in capsys.readouterr().out


def test_fuzz_subcommand_forwards_to_the_differential_fuzzer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["fuzz", "--seed", "3", "--positions", "150", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "mismatches: 0" in out
    assert "positions" in out


def test_unknown_subcommand_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["no-such-command"])
    assert exit_info.value.code == 2
