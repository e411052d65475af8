"""The documentation site as built: Sphinx with warnings as errors (tools/build-docs), the API
reference complete, the Board page readable in a real browser, the CLI page complete.

tools/test builds the site once (its `docs site` step) and points ``PYCHESS_RS_DOCS_HTML`` at
it; run alone, these tests build it themselves (about 20 s of CPU) when Sphinx is installed
(docs/requirements.txt). The browser test drives headless Chromium as tests/test_gui_browser.py
does and skips without it. They run once per test run, not again per installed wheel.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import pkgutil
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import pychess_rs

pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BUILD = ROOT / "tools" / "build-docs"

# Public modules of the package with no reference page of their own, each for a reason. Any
# other public module must be listed in docs/reference/index.md.
NOT_IN_THE_REFERENCE = {
    # Their names are pychess_rs's own, documented there (checked below).
    "base_board": "re-exported by pychess_rs",
    "outcome": "re-exported by pychess_rs",
    "squares": "re-exported by pychess_rs",
    "types": "re-exported by pychess_rs",
    # The pychess-rs command's implementation: its interface is the CLI page (docs/cli.md).
    "cli": "the pychess-rs command",
    "perft_cli": "pychess-rs perft",
    "analyse_cli": "pychess-rs analyse",
    "analyse_dask": "pychess-rs analyse --scheduler",
    "training_data_cli": "pychess-rs training-data",
    "play": "pychess-rs play",
    "gui": "pychess-rs gui",
}


def reference_modules() -> list[str]:
    """The modules listed in docs/reference/index.md, in order: the one list of the reference."""
    text = (DOCS / "reference" / "index.md").read_text(encoding="utf-8")
    block = text.split(".. autosummary::", 1)[1].split("```", 1)[0]
    return re.findall(r"^\s+(pychess_rs(?:\.\w+)*)\s*$", block, re.MULTILINE)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = os.environ.get("PYCHESS_RS_DOCS_HTML")
    if built:
        path = Path(built)
        assert (path / "index.html").is_file(), f"PYCHESS_RS_DOCS_HTML={built} holds no site"
        return path
    pytest.importorskip("sphinx", reason="Sphinx is not installed (docs/requirements.txt)")
    pytest.importorskip("myst_parser", reason="MyST is not installed (docs/requirements.txt)")
    out = tmp_path_factory.mktemp("site")
    subprocess.run(
        [str(BUILD), "--out", str(out)],
        check=True,
        env={**os.environ, "SPHINX_PYTHON": sys.executable},
        timeout=600,
    )
    return out


def inventory(site: Path) -> set[str]:
    """Every name the site's index holds (objects.inv, what Sphinx and intersphinx read)."""
    from sphinx.util.inventory import InventoryFile

    with open(site / "objects.inv", "rb") as handle:
        data = InventoryFile.load(handle, "", lambda base, uri: uri)
    return {name for entries in data.values() for name in entries}


def exported(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            n
            for n, v in vars(module).items()
            if not n.startswith("_")
            and (inspect.isclass(v) or inspect.isfunction(v))
            and v.__module__ == module_name
        ]
    # A name a module exports with a leading underscore (python-chess's _parse_uci_info) is
    # there for compatibility, not for readers; __version__ is public.
    return [n for n in names if not n.startswith("_") or n == "__version__"]


def test_every_public_module_has_a_reference_page() -> None:
    listed = reference_modules()
    assert listed[0] == "pychess_rs" and len(listed) == len(set(listed))
    public = {
        m.name for m in pkgutil.iter_modules(pychess_rs.__path__) if not m.name.startswith("_")
    }
    unlisted = public - {m.removeprefix("pychess_rs.") for m in listed} - set(NOT_IN_THE_REFERENCE)
    assert not unlisted, (
        f"public modules without a reference page: {sorted(unlisted)}; add each to "
        "docs/reference/index.md (docs/contributing.md says how)"
    )
    assert set(NOT_IN_THE_REFERENCE) <= public, "a module named above no longer exists"


def test_every_public_name_is_in_the_reference_index(site: Path) -> None:
    names = inventory(site)
    missing = [
        f"{module}.{name}"
        for module in reference_modules()
        for name in exported(module)
        if f"{module}.{name}" not in names
    ]
    # The re-exporting modules' names are documented as pychess_rs's.
    for module, reason in NOT_IN_THE_REFERENCE.items():
        if reason == "re-exported by pychess_rs":
            missing += [
                f"pychess_rs.{name} (from pychess_rs.{module})"
                for name in exported(f"pychess_rs.{module}")
                if f"pychess_rs.{name}" not in names
            ]
    assert not missing, f"not in the API reference's index: {missing}"
    # The classes show their members, the compiled core's included.
    assert {"pychess_rs.Board.push", "pychess_rs.pgn.read_games", "pychess_rs.Move.uci"} <= names


def test_the_index_page_lists_them(site: Path) -> None:
    index = (site / "genindex.html").read_text(encoding="utf-8")
    for name in ("push_san", "read_games", "SimpleEngine", "BatchBoards", "alphazero"):
        assert name in index


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_the_cli_page_has_every_subcommand() -> None:
    from pychess_rs.cli import build_parser

    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"^```\{cli-help\} ?(.*)$", page, re.MULTILINE))
    expected = {""}
    for name, parser in _subcommands(build_parser()).items():
        expected.add(name)
        expected.update(f"{name} {sub}" for sub in _subcommands(parser))
    assert shown == expected


def test_the_cli_page_shows_the_help_texts(site: Path) -> None:
    page = (site / "cli.html").read_text(encoding="utf-8")
    for text in ("--startpos", "--book-seed", "--scheduler", "usage: pychess-rs pgn positions"):
        assert text in page


def test_a_broken_reference_fails_the_build(tmp_path: Path) -> None:
    """What tools/build-docs promises: a reference to nothing is an error, not a warning."""
    pytest.importorskip("sphinx", reason="Sphinx is not installed (docs/requirements.txt)")
    pytest.importorskip("myst_parser", reason="MyST is not installed (docs/requirements.txt)")
    source = tmp_path / "docs"
    shutil.copytree(DOCS / "_ext", source / "_ext")
    shutil.copy(DOCS / "conf.py", source / "conf.py")
    page = "# Broken\n\nSee {py:func}`pychess_rs.no_such_function`.\n"
    (source / "index.md").write_text(page, encoding="utf-8")
    run = subprocess.run(
        [str(BUILD), "--source", str(source), "--out", str(tmp_path / "html")],
        capture_output=True,
        text=True,
        env={**os.environ, "SPHINX_PYTHON": sys.executable},
        timeout=300,
    )
    assert run.returncode != 0
    assert "pychess_rs.no_such_function" in run.stderr
    # The same page with the reference mended builds.
    described = "```{py:function} pychess_rs.square_name(square)\n```\n\n"
    (source / "index.md").write_text(described + page.replace("no_such_function", "square_name"))
    run = subprocess.run(
        [str(BUILD), "--source", str(source), "--out", str(tmp_path / "html")],
        capture_output=True,
        text=True,
        env={**os.environ, "SPHINX_PYTHON": sys.executable},
        timeout=300,
    )
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize(
    ("edit", "complaint"),
    [
        (None, None),
        (("fail_on_warning: true", "fail_on_warning: false"), "fail_on_warning must be true"),
        (('rust: "latest"', 'rust: "0.1"'), "build.tools.rust"),  # not in the schema's list
        (("configuration: docs/conf.py", "configuration: conf.py"), "sphinx.configuration"),
    ],
)
def test_the_readthedocs_config_is_checked(
    tmp_path: Path, edit: tuple[str, str] | None, complaint: str | None
) -> None:
    pytest.importorskip("check_jsonschema", reason="check-jsonschema is not installed")
    text = (ROOT / ".readthedocs.yaml").read_text(encoding="utf-8")
    if edit is not None:
        assert edit[0] in text
        text = text.replace(*edit)
    config = tmp_path / ".readthedocs.yaml"
    config.write_text(text, encoding="utf-8")
    run = subprocess.run(
        [str(BUILD), "--check-config", "--config", str(config)],
        capture_output=True,
        text=True,
        env={**os.environ, "SPHINX_PYTHON": sys.executable},
        timeout=120,
    )
    if complaint is None:
        assert run.returncode == 0, run.stdout + run.stderr
    else:
        assert run.returncode != 0
        assert complaint in run.stdout + run.stderr


# ---- the Board page in a real browser ----------------------------------------------------


def _find(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    binary = _find("chromium", "chromium-browser", "google-chrome")
    chromedriver = _find("chromedriver")
    if binary is None or chromedriver is None:
        pytest.skip(
            "no chromium/chromedriver on PATH: install Debian's chromium and chromium-driver "
            "(tools/test does it as root) to run the browser tests"
        )
    options = Options()
    options.binary_location = binary
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,900",
    ):
        options.add_argument(argument)
    chrome = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    try:
        yield chrome
    finally:
        chrome.quit()


def test_the_board_api_page_shows_its_methods(site: Path, browser: object) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(browser, WebDriver)
    page = site / "reference" / "generated" / "pychess_rs.html"
    browser.get(page.as_uri() + "#pychess_rs.Board")
    board = browser.find_element(By.ID, "pychess_rs.Board")
    assert board.is_displayed()
    assert "class pychess_rs.Board(" in board.text
    # The class's members, each an entry with its own anchor, inside the class's description.
    members = browser.find_elements(By.CSS_SELECTOR, "dl.py.class > dd dt[id^='pychess_rs.Board.']")
    names = {m.get_attribute("id").removeprefix("pychess_rs.Board.") for m in members}
    assert {"push", "pop", "push_san", "legal_moves", "fen", "is_checkmate", "outcome"} <= names
    assert len(names) > 100
    # The compiled core's signatures come from its stubs, with their types; its docstrings
    # from the Rust source.
    push = browser.find_element(By.ID, "pychess_rs.Board.push")
    assert "push(move: MoveLike, /)" in push.text
    description = push.find_element(By.XPATH, "following-sibling::dd[1]")
    assert "IllegalMoveError" in description.text
    # Reached from the site's home page, link by link, as a reader would.
    browser.get((site / "index.html").as_uri())
    reference = browser.find_element(By.CSS_SELECTOR, "article a[href$='reference/index.html']")
    browser.get(reference.get_attribute("href"))
    module = browser.find_element(By.CSS_SELECTOR, "article a[href*='generated/pychess_rs.html']")
    browser.get(module.get_attribute("href"))
    assert browser.find_element(By.ID, "pychess_rs.Board.push_san").is_displayed()
