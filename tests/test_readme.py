"""The README is the front page: short, its two quick-start commands intact, every command in it
checked here, every link into the documentation site naming a page that exists.

Its Python examples run as doctests with the site's pages (tests/test_docs_examples.py).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pychess_rs import cli

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
TEXT = README.read_text(encoding="utf-8")
PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def _documentation_url() -> str:
    match = re.search(r'^Documentation\s*=\s*"([^"]+)"', PYPROJECT, re.MULTILINE)
    assert match is not None, "pyproject.toml's [project.urls] has no Documentation"
    return match.group(1)


def _shell_commands() -> list[str]:
    """Every command of the README's ```sh blocks, comments cut, `&&` chains split."""
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", TEXT, re.MULTILINE | re.DOTALL):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            commands.extend(part.strip() for part in line.split("&&") if part.strip())
    return commands


def test_the_readme_is_a_front_page() -> None:
    assert len(TEXT.splitlines()) < 200


def test_the_quick_start_is_the_two_commands() -> None:
    quick_start = TEXT.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```sh\n(.*?)^```", quick_start, re.MULTILINE | re.DOTALL)
    assert blocks == ["pip install . && pychess-rs play\n", "tools/test\n"]


def _check_pychess_rs(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # The console script pip installs is cli.main.
    assert re.search(r'^pychess-rs = "pychess_rs.cli:main"', PYPROJECT, re.MULTILINE)
    args = cli.build_parser().parse_args(argv)  # exits (fails the test) on a bad command
    if argv[0] == "perft":  # cheap: run it, and the count the README quotes with it
        assert cli.main(argv) == 0
        assert "4865609" in capsys.readouterr().out
    else:
        assert callable(args.run)


def _check_pip_install(target: str) -> None:
    name = re.search(r'^name = "([^"]+)"', PYPROJECT, re.MULTILINE)
    assert name is not None
    if target == ".":
        assert (ROOT / "pyproject.toml").is_file()
        return
    project, _, extras = target.strip("'").partition("[")
    assert project == name.group(1)
    for extra in filter(None, extras.rstrip("]").split(",")):
        assert re.search(rf"^{re.escape(extra)} = \[", PYPROJECT, re.MULTILINE), extra


def _check_tool(path: str) -> None:
    tool = ROOT / path
    assert tool.is_file(), path
    bash = shutil.which("bash")
    if bash is None:  # Windows without Git's bash: the tools are bash scripts
        return
    out = subprocess.run(
        [bash, str(tool), "--help"], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert "Usage:" in out


def test_every_command_in_the_readme_works(capsys: pytest.CaptureFixture[str]) -> None:
    commands = _shell_commands()
    assert "pip install . " not in commands  # split on && above
    assert {"pip install .", "pychess-rs play", "tools/test"} <= set(commands)
    for command in commands:
        words = shlex.split(command)
        if words[0] == "pychess-rs":
            _check_pychess_rs(words[1:], capsys)
        elif words[:2] == ["pip", "install"] and len(words) == 3:
            _check_pip_install(words[2])
        elif words[0].startswith("tools/") and len(words) == 1:
            _check_tool(words[0])
        else:
            pytest.fail(f"the README's command {command!r} has no check here: add one")


def test_links_into_the_site_name_pages_that_exist() -> None:
    url = _documentation_url()
    assert f"<{url}>" in TEXT
    links = re.findall(re.escape(url) + r"en/latest/([\w/-]+)\.html", TEXT)
    assert len(links) >= 10
    for page in links:
        assert (ROOT / "docs" / f"{page}.md").is_file(), f"no page docs/{page}.md for {page}.html"


def test_relative_links_name_files_that_exist() -> None:
    for target in re.findall(r"\]\(([^)#:]+)\)", TEXT):
        assert (ROOT / target).exists(), target


def test_help_names_the_documentation_site() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "pychess_rs", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={**os.environ, "COLUMNS": "200"},
    ).stdout
    assert cli.DOCS_URL == _documentation_url()
    assert f"Documentation: {cli.DOCS_URL}" in out
