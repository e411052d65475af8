"""Every Python example of the documentation runs: the README's and every page of the site
(``docs/**/*.md``) are doctests, so the documentation cannot drift from the package.

Each file is one doctest namespace, run top to bottom as a reader would read it. A page whose
examples need something optional (NumPy, PettingZoo) gets it from the test dependencies that
tools/test installs. The site's build itself (Sphinx, warnings as errors) is
tests/test_docs_site.py and the `docs site` step of tools/test.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)


def _ids(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", [ROOT / "README.md", *PAGES], ids=_ids)
def test_examples_run(path: Path) -> None:
    result = doctest.testfile(
        str(path),
        module_relative=False,
        optionflags=doctest.ELLIPSIS,
        raise_on_error=False,
        verbose=False,
    )
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {path}"


def test_the_pages_have_examples() -> None:
    """The collection above finds the pages (a moved docs/ folder would test nothing)."""
    names = {p.name for p in PAGES}
    assert {"index.md", "getting-started.md", "python-chess.md", "encodings.md"} <= names
    attempted = sum(
        len(doctest.DocTestParser().get_examples(p.read_text(encoding="utf-8"))) for p in PAGES
    )
    assert attempted > 50
