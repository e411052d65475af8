"""The ``pychess-rs`` command: subcommands run and report through their exit status; the
progress line of its long runs."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

import pychess_rs
from pychess_rs import cli
from pychess_rs._progress import Progress

DATA = Path(__file__).resolve().parent / "data"
# `perft --suite` with no file uses tests/data beside the package: there in a source checkout
# (maturin develop), absent from an installed wheel (tools/test-wheels).
IN_CHECKOUT = (Path(cli.__file__).resolve().parent.parent / "tests" / "data").is_dir()


def test_perft_subcommand_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["perft", "--startpos", "3"]) == 0
    assert "8902" in capsys.readouterr().out


def test_fuzz_subcommand_forwards_to_the_differential_fuzzer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["fuzz", "--seed", "3", "--positions", "150", "--quiet"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "mismatches: 0" in out
    assert "positions" in out


def test_fuzz_without_python_chess_says_to_install_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "chess", None)  # `import chess` raises ImportError
    assert cli.main(["fuzz", "--positions", "10"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'pychess-rs[fuzz]'" in err and "Traceback" not in err


def test_the_command_line_does_not_import_python_chess() -> None:
    """python-chess is the fuzzer's oracle only: the parser (every subcommand's options, the
    fuzzer's included), every module of the fuzzer (each imports python-chess inside the
    functions that use it) and ``pychess-rs fuzz --help`` load without it."""
    code = (
        "import importlib, pkgutil, sys\n"
        "sys.modules['chess'] = None\n"
        "from pychess_rs import cli\n"
        "cli.build_parser()\n"
        "import pychess_rs.fuzz\n"
        "assert pychess_rs.fuzz.SOURCES\n"
        "names = [m.name for m in pkgutil.iter_modules(pychess_rs.fuzz.__path__)]\n"
        "assert {'campaign', 'checks', 'contract', 'sources', 'variants'} <= set(names), names\n"
        "for name in names:\n"
        "    importlib.import_module('pychess_rs.fuzz.' + name)\n"
        "try:\n"
        "    cli.main(['fuzz', '--help'])\n"
        "except SystemExit as exit:\n"
        "    assert exit.code == 0, exit.code\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "pychess-rs fuzz" in done.stdout and "--epd-dir" in done.stdout


def test_fuzz_options_are_checked_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["--sources", "startpos,nowhere"],
        ["--games", "-1"],
        ["--epd-dir", "/nonexistent"],
    ):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(["fuzz", *argv])
        assert exit_info.value.code == 2
    assert "nowhere" in capsys.readouterr().err


def test_fuzz_without_epd_files_skips_that_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "fuzz",
        "--positions",
        "30",
        "--quiet",
        "--epd-dir",
        str(tmp_path),
        "--out",
        str(tmp_path),
    ]
    assert cli.main([*argv, "--sources", "epd,mutated"]) == 0
    captured = capsys.readouterr()
    assert "the epd source is skipped" in captured.err
    assert "mismatches: 0" in captured.out


def test_unknown_subcommand_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["no-such-command"])
    assert exit_info.value.code == 2


def test_perft_suite_checks_the_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["perft", "--suite", str(DATA / "perft.epd"), "--max-nodes", "500"]) == 0
    out = capsys.readouterr().out
    assert "perft.epd" in out and "OK: all" in out


def test_perft_suite_without_a_file_checks_both_suites_of_tests_data(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["perft", "--suite", "--max-nodes", "100", "--no-progress", "-j", "1"]
    if not IN_CHECKOUT:
        assert cli.main(argv) == 2
        assert "checks tests/data of a source checkout" in capsys.readouterr().err
        return
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "perft.epd" in out and "perft960.epd" in out and "total" in out


def test_perft_suite_reports_a_wrong_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "wrong.epd"
    suite.write_text(f"# a comment\n\n{pychess_rs.STARTING_FEN} ;D1 20 ;D2 401\n")
    assert cli.main(["perft", "--suite", str(suite), "--no-progress"]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH wrong.epd:3 D2: expected 401, got 400" in out
    assert "FAILED: 1 of 2 entries do not match" in out


def test_perft_suite_names_a_malformed_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "bad.epd"
    suite.write_text(f"{pychess_rs.STARTING_FEN} ;D1 20\n{pychess_rs.STARTING_FEN} ;D2 four\n")
    assert cli.main(["perft", "--suite", str(suite)]) == 2
    assert f"{suite}:2: expected 'D<depth> <nodes>', got 'D2 four'" in capsys.readouterr().err


def test_perft_options_of_suites_need_a_suite(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["perft", "--startpos", "2", "--no-progress"]) == 2
    assert "go with --suite" in capsys.readouterr().err


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_redraws_one_line_on_a_terminal() -> None:
    stream = _Stream(tty=True)
    bar = Progress(stream, label="suite")
    bar.show("1/4 positions", 0.25)
    bar.show("2/4", 0.5)
    first = "suite [#####---------------]  25% 1/4 positions"
    second = "suite [##########----------]  50% 2/4"
    # The shorter line is padded to cover the longer one it replaces.
    assert stream.getvalue() == "\r" + first + "\r" + second.ljust(len(first))
    bar.clear()
    assert stream.getvalue().endswith("\r" + " " * len(second) + "\r")
    bar.finish()  # nothing on screen any more: nothing to end
    assert not stream.getvalue().endswith("\n")


def test_progress_writes_a_line_per_tenth_elsewhere() -> None:
    stream = _Stream(tty=False)
    bar = Progress(stream, label="suite")
    for done in range(1, 101):
        bar.show(f"{done}/100", done / 100)
    bar.show("no fraction: nothing before 30 s")
    bar.finish()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "suite: 10% 10/100" and lines[-1] == "suite: 100% 100/100"
    assert len(lines) == 10


def test_progress_disabled_writes_nothing() -> None:
    stream = _Stream(tty=True)
    bar = Progress(stream, enabled=False)
    assert not bar.due()
    bar.show("text", 0.5)
    bar.finish()
    assert stream.getvalue() == ""
