"""Sphinx configuration of the pychess-rs documentation site.

Build it with ``tools/build-docs`` (what tools/test and Read the Docs run): warnings are errors,
broken cross-references included. How to add a page or a module's reference:
``docs/contributing.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pychess_rs

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "pychess-rs"
author = "the pychess-rs developers"
copyright = "the pychess-rs developers"
release = pychess_rs.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    # Ours (docs/_ext): signatures of the compiled core from its stubs, private module paths
    # in annotations resolved to the public names, and `pychess-rs ... --help` pages.
    "stub_signatures",
    "public_names",
    "cli_help",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

# Warnings are errors (tools/build-docs passes -W), and a reference that names nothing is one.
nitpicky = True
# Names from outside the package, which the offline build cannot link (no intersphinx: the
# build must not need the network), are the only references allowed to dangle.
_BUILTINS = (
    "int float str bytes bool object list dict set frozenset tuple type None complex bytearray"
    " memoryview slice range Ellipsis NotImplemented EllipsisType NoneType"
    " Exception BaseException ValueError IndexError KeyError RuntimeError TimeoutError EOFError"
    " OSError"
)
_STDLIB = (
    "typing typing_extensions collections collections.abc abc enum dataclasses os io pathlib"
    " asyncio concurrent.futures threading subprocess random re argparse types contextlib"
    " logging datetime weakref functools numbers queue ctypes"
)
_THIRD_PARTY = "numpy np npt gymnasium pettingzoo dask pandas pyarrow starlette chess selenium"
# Bare names of the above as annotations spell them (``Iterator``, ``NDArray``, ``Path``).
_BARE = (
    "Any Callable Iterable Iterator Mapping MutableMapping Sequence Generator AsyncIterator"
    " Awaitable Coroutine Literal Optional Union TypeVar Self ClassVar Protocol TextIO BinaryIO"
    " IO Hashable NamedTuple TypedDict Generic Final SupportsInt Path PathLike Enum IntEnum"
    " IntFlag Random Future Pattern Match ndarray NDArray ArrayLike DTypeLike Space Env AECEnv"
    " VectorEnv Bag DataFrame TextIOBase StreamReader Process Popen Namespace ArgumentParser"
    " AbstractEventLoop Transport SubprocessTransport SubprocessProtocol Handle Task Event Lock"
    " Thread Executor Logger"
)


def _alternatives(words: str) -> str:
    return "|".join(w.replace(".", r"\.") for w in words.split())


nitpick_ignore_regex = [
    ("py:.*", rf"(builtins\.)?({_alternatives(_BUILTINS)})"),
    ("py:.*", rf"({_alternatives(_STDLIB)}|{_alternatives(_THIRD_PARTY)})(\..*)?"),
    ("py:.*", rf"({_alternatives(_BARE)})"),
]

# The API reference: one page per module listed in docs/reference/index.md, written by
# autosummary from docs/_templates/autosummary/module.rst (into docs/reference/generated/,
# which is not committed).
autosummary_generate = True
autosummary_imported_members = True
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"show-inheritance": True}
autodoc_preserve_defaults = True
autodoc_inherit_docstrings = True
# Names without a docstring of their own still appear; the mock list is empty on purpose: the
# reference documents the package that is installed, compiled core included.
autodoc_mock_imports: list[str] = []

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# A link to a file of the repository outside docs/ (tests/data/README.md, say) is written as
# an absolute link to the repository, see docs/contributing.md.
# "More than one target found": the same class re-exported by two modules (pychess_rs.PovScore
# is pychess_rs.engine.PovScore), named bare in an annotation Python 3.9 cannot evaluate
# (``PovScore | None``). Either target is the same object. A name that resolves to nothing is
# still an error.
suppress_warnings = ["ref.python"]

html_theme = "furo"
html_title = f"pychess-rs {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
