"""The package as shipped: the wheel's contents and metadata, the version, the import error
from a source tree without the compiled core.

The wheel tests need a built wheel: ``PYCHESS_RS_WHEEL`` names it (tools/test-wheels sets it
to the wheel of tools/build-wheels). Run alone, pytest skips them rather than judge whatever
old wheel dist/ may hold.
"""

from __future__ import annotations

import base64
import configparser
import hashlib
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from email.parser import Parser
from pathlib import Path

import pytest

import pychess_rs
from pychess_rs.fuzz.cli import ORACLE_VERSION

ROOT = Path(__file__).resolve().parent.parent
SOURCE_PACKAGE = ROOT / "pychess_rs"
SUPPORTED_PYTHONS = ["3.9", "3.10", "3.11", "3.12", "3.13"]
# The one compiled file: abi3 on Linux/macOS (.so), or .pyd on Windows.
EXTENSION = re.compile(r"pychess_rs/_core(\.abi3)?\.(so|pyd)$|pychess_rs/_core\.[\w-]+\.pyd$")


def _cargo_version() -> str:
    text = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    section = text.split("[workspace.package]", 1)[1]
    match = re.search(r'^version\s*=\s*"([^"]+)"', section, re.MULTILINE)
    assert match is not None, "no version in [workspace.package] of Cargo.toml"
    return match.group(1)


@pytest.fixture(scope="module")
def wheel() -> Iterator[zipfile.ZipFile]:
    name = os.environ.get("PYCHESS_RS_WHEEL")
    if not name:
        pytest.skip(
            "no wheel to inspect: PYCHESS_RS_WHEEL is unset (tools/test-wheels sets it to the "
            "wheel tools/build-wheels made)"
        )
    path = Path(name)
    assert path.is_file(), f"PYCHESS_RS_WHEEL={name} is not a file"
    with zipfile.ZipFile(path) as archive:
        yield archive


def _dist_info(wheel: zipfile.ZipFile) -> str:
    dirs = {
        n.split("/", 1)[0] for n in wheel.namelist() if n.split("/", 1)[0].endswith(".dist-info")
    }
    assert len(dirs) == 1, dirs
    return dirs.pop()


def test_wheel_holds_the_package_and_nothing_else(wheel: zipfile.ZipFile) -> None:
    names = wheel.namelist()
    dist_info = _dist_info(wheel)
    package = sorted(n for n in names if n.startswith("pychess_rs/"))
    extensions = [n for n in package if EXTENSION.match(n)]
    assert len(extensions) == 1, f"expected one compiled core, found {extensions}"
    # Subpackages (pgn/, play/) included: every module of the source tree, nothing else.
    modules = sorted(p.relative_to(SOURCE_PACKAGE).as_posix() for p in SOURCE_PACKAGE.rglob("*.py"))
    # The browser GUI's page ships beside its modules.
    static = sorted(
        p.relative_to(SOURCE_PACKAGE).as_posix()
        for p in (SOURCE_PACKAGE / "gui" / "static").iterdir()
    )
    expected = sorted(
        [f"pychess_rs/{m}" for m in modules + static]
        + ["pychess_rs/_core.pyi", "pychess_rs/py.typed", extensions[0]]
    )
    assert package == expected, "the wheel's pychess_rs/ differs from the source package"
    others = [n for n in names if not n.startswith(("pychess_rs/", f"{dist_info}/"))]
    assert others == [], f"files outside the package and its metadata: {others}"
    leftovers = [n for n in names if re.search(r"__pycache__|\.pyc$|/tests?/|/tools/|\.rs$", n)]
    assert leftovers == [], leftovers
    assert not any(n.endswith((".so", ".pyd", ".dylib")) for n in names if n not in extensions)


def test_wheel_record_matches_its_files(wheel: zipfile.ZipFile) -> None:
    record = wheel.read(f"{_dist_info(wheel)}/RECORD").decode()
    listed = {}
    for line in record.splitlines():
        name, digest, _size = line.rsplit(",", 2)
        listed[name] = digest
    assert set(listed) == set(wheel.namelist())
    for name, digest in listed.items():
        if name.endswith("/RECORD"):
            continue
        algorithm, _, value = digest.partition("=")
        assert algorithm == "sha256", (name, digest)
        actual = base64.urlsafe_b64encode(hashlib.sha256(wheel.read(name)).digest())
        assert actual.rstrip(b"=").decode() == value, f"{name}: RECORD hash differs"


def test_wheel_metadata(wheel: zipfile.ZipFile) -> None:
    dist_info = _dist_info(wheel)
    meta = Parser().parsestr(wheel.read(f"{dist_info}/METADATA").decode())
    assert meta["Name"] == "pychess-rs"
    assert meta["Version"] == _cargo_version()
    assert meta["Requires-Python"] == ">=3.9"
    classifiers = meta.get_all("Classifier") or []
    for version in SUPPORTED_PYTHONS:
        assert f"Programming Language :: Python :: {version}" in classifiers
    assert "Typing :: Typed" in classifiers
    assert meta.get_all("Project-URL"), "no project URLs"
    tags = Parser().parsestr(wheel.read(f"{dist_info}/WHEEL").decode())
    assert tags["Root-Is-Purelib"] == "false"
    assert all(t.startswith("cp39-abi3-") for t in tags.get_all("Tag") or []), tags["Tag"]
    entry_points = configparser.ConfigParser()
    entry_points.read_string(wheel.read(f"{dist_info}/entry_points.txt").decode())
    scripts = dict(entry_points["console_scripts"])
    assert scripts["pychess-rs"] == "pychess_rs.cli:main"
    assert scripts["pychess-rs-uci"] == "pychess_rs.uci:main"
    # `pychess-rs fuzz`'s oracle, as an extra: no requirement of the package itself.
    assert "fuzz" in (meta.get_all("Provides-Extra") or [])
    requires = meta.get_all("Requires-Dist") or []
    written = {r.replace(" ", "").replace("'", '"') for r in requires}  # maturin: `; extra == 'x'`
    assert f'chess=={ORACLE_VERSION};extra=="fuzz"' in written, requires
    assert not [r for r in requires if "extra ==" not in r], requires


def test_the_fuzz_extra_pins_the_oracle_the_contract_is_written_for() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'fuzz = ["chess=={ORACLE_VERSION}"]' in text


def test_version_is_the_cargo_version() -> None:
    assert pychess_rs.__version__ == _cargo_version()
    try:
        installed = importlib.metadata.version("pychess-rs")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("pychess-rs has no installed metadata (package imported from a bare tree)")
    assert installed == pychess_rs.__version__


def test_the_installed_package_is_under_test() -> None:
    if os.environ.get("PYCHESS_RS_EXPECT_INSTALLED") != "1":
        pytest.skip("not a run against an installed wheel (PYCHESS_RS_EXPECT_INSTALLED unset)")
    here = Path(pychess_rs.__file__).resolve()
    assert Path(sys.prefix).resolve() in here.parents, f"{here} is not in the venv {sys.prefix}"
    assert ROOT not in here.parents, f"{here} is the source tree, not the installed package"


def test_source_tree_without_core_explains_itself(tmp_path: Path) -> None:
    # A copy of the source package with no compiled core, imported from its parent directory:
    # what a user sees after `pip install .` and `python -c "import pychess_rs"` in the repo.
    shutil.copytree(
        SOURCE_PACKAGE,
        tmp_path / "pychess_rs",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    proc = subprocess.run(
        [sys.executable, "-c", "import pychess_rs"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: pychess_rs was imported from "), proc.stderr
    assert str(tmp_path / "pychess_rs") in last
    assert "no compiled core" in last
    assert "run Python from another directory" in last
    assert "maturin develop" in last
    # The chained "No module named 'pychess_rs._core'" would only bury the explanation.
    assert "During handling" not in proc.stderr


def test_a_missing_module_inside_the_core_keeps_its_own_error(tmp_path: Path) -> None:
    package = tmp_path / "pychess_rs"
    shutil.copytree(
        SOURCE_PACKAGE, package, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
    )
    # A _core that itself fails on a missing dependency is not "the core is missing".
    (package / "_core.py").write_text("import pychess_rs_no_such_dependency\n")
    proc = subprocess.run(
        [sys.executable, "-c", "import pychess_rs"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "No module named 'pychess_rs_no_such_dependency'" in proc.stderr
    assert "no compiled core" not in proc.stderr
