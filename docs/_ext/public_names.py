"""Type annotations that name an object by where it is defined resolve to where it is documented.

The package defines most classes in private modules (``pychess_rs.engine._limits.Limit``) or in
the compiled core (``pychess_rs._core.Board``) and documents them under their public names
(``pychess_rs.engine.Limit``, ``pychess_rs.Board``). A reference that names a private path, a
module that re-exports it (``pychess_rs.outcome.Termination``), or a stub's bare name
(``Board``), is looked up again under the public names. A type variable or an alias the package
keeps private (``GameT``, ``pychess_rs._progress.Progress``) is shown as plain text. Anything
else not found stays a broken reference, which fails the build.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
import sys
import typing
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.errors import PycodeError
from sphinx.ext.autodoc import (
    ClassDocumenter,
    DataDocumenter,
    ExceptionDocumenter,
    ModuleDocumenter,
)
from sphinx.pycode import ModuleAnalyzer

PACKAGE = "pychess_rs"


def _is_private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__")


def _candidates(target: str, module: str | None, klass: str | None) -> list[str]:
    parts = target.split(".")
    out: list[str] = []
    if len(parts) == 1:
        if module and klass:
            out.append(f"{module}.{klass}.{target}")
        if module:
            out.append(f"{module}.{target}")
        out.append(f"{PACKAGE}.{target}")
        return out
    public = [p for p in parts if not _is_private(p)]
    if public != parts:
        out.append(".".join(public))
    # pychess_rs.fuzz.campaign.Config -> pychess_rs.fuzz.Config -> pychess_rs.Config
    if public and public[0] == PACKAGE:
        for cut in range(len(public) - 2, 0, -1):
            out.append(".".join([*public[:cut], public[-1]]))
    return out


def _lookup(dotted: str) -> Any:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for part in parts[cut:]:
                obj = getattr(obj, part)
        except Exception:  # a lazy attribute whose import fails is not there either
            return None
        return obj
    return None


@functools.cache
def _stub_names() -> frozenset[str]:
    """Names the compiled core's stubs define for type checkers only (``SearcherOptions``)."""
    import ast

    import pychess_rs

    tree = ast.parse(Path(pychess_rs.__file__).with_name("_core.pyi").read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return frozenset(names)


def _private_kind(obj: Any) -> bool:
    """A type variable, an alias (``BookPath = Union[str, os.PathLike[str]]``), or a class kept
    in a private module (``pychess_rs._progress.Progress``)."""
    if isinstance(obj, typing.TypeVar) or typing.get_origin(obj) is not None:
        return True
    if inspect.isclass(obj):
        return any(_is_private(p) for p in obj.__module__.split(".")) or _is_private(
            obj.__qualname__
        )
    return False


@functools.cache
def _unlinkable(target: str, module: str | None) -> bool:
    """Something no page documents, on purpose: see _private_kind."""
    if any(_is_private(p) for p in target.split(".")):
        return True
    if "." in target:
        return _private_kind(_lookup(target))
    if target in _stub_names():
        return True
    # A bare name: whatever a module of the package means by it.
    for name, loaded in list(sys.modules.items()):
        if (name == PACKAGE or name.startswith(f"{PACKAGE}.")) and hasattr(loaded, target):
            if _private_kind(getattr(loaded, target)):
                return True
    return False


def _ignored(app: Any) -> list[tuple[re.Pattern[str], re.Pattern[str]]]:
    cached: list[tuple[re.Pattern[str], re.Pattern[str]]] | None = getattr(
        app, "_pychess_rs_ignored", None
    )
    if cached is None:
        cached = [(re.compile(t), re.compile(n)) for t, n in app.config.nitpick_ignore_regex]
        app._pychess_rs_ignored = cached
    return cached


def missing_reference(app: Any, env: Any, node: Any, contnode: nodes.Node) -> Any:
    if node.get("refdomain") != "py":
        return None
    # What nitpick_ignore_regex lets dangle (builtins, typing, NumPy, ...) is not ours: skip
    # the look-ups below, which would only miss.
    role, target = f"py:{node['reftype']}", node["reftarget"]
    if any(t.fullmatch(role) and n.fullmatch(target) for t, n in _ignored(app)):
        return None
    domain = env.get_domain("py")
    target = node["reftarget"]
    module, klass = node.get("py:module"), node.get("py:class")
    for candidate in _candidates(target, module, klass):
        for role in (node["reftype"], "obj"):
            found = domain.resolve_xref(
                env, node["refdoc"], app.builder, role, candidate, node, contnode
            )
            if found is not None:
                return found
    if node["reftype"] in ("attr", "meth"):
        found = _attribute_owner(env, node, contnode, app)
        if found is not None:
            return found
    if module is None:
        found = _unique_suffix(env, node, contnode, app)
        if found is not None:
            return found
    if node["reftype"] in ("class", "obj", "data") and _unlinkable(target, module):
        return contnode
    return None


class ExportedDataDocumenter(DataDocumenter):
    """A constant a module exports but defines elsewhere (``pychess_rs.A1``, from ``types.py``).

    autodoc documents a module's data only when it is assigned in that module's own source, so
    the names a package re-exports from its private modules would be left out of the reference.
    They are described as data, without their value (``:no-value:``: ``BB_RAYS`` is 4,096 ints)
    and without the docstring of their type (``int``'s, for ``A1``).
    """

    objtype = "exporteddata"
    directivetype = "data"
    priority = DataDocumenter.priority - 1

    @classmethod
    def can_document_member(cls, member: Any, membername: str, isattr: bool, parent: Any) -> bool:
        return (
            isinstance(parent, ModuleDocumenter)
            and not isattr
            and not inspect.isroutine(member)
            and not inspect.isclass(member)
            and not inspect.ismodule(member)
        )

    def get_doc(self) -> list[list[str]]:
        return []


def _instance_attribute(cls: type, name: str) -> bool:
    """Whether ``cls`` (or a base) assigns ``self.<name>`` in its source: a real attribute that
    autodoc cannot list because it has no doc comment."""
    for klass in cls.__mro__:
        if klass.__module__ == "builtins":
            continue
        try:
            analyzer = ModuleAnalyzer.for_module(klass.__module__)
            analyzer.analyze()
        except PycodeError:
            continue
        if f"{klass.__qualname__}.{name}" in analyzer.tagorder:
            return True
    return False


def _attribute_owner(env: Any, node: Any, contnode: nodes.Node, app: Any) -> Any:
    """``:attr:`result``` in a class's docstring, or ``:attr:`PlayResult.info```: when the class
    has that instance attribute, link to the class."""
    target = node["reftarget"]
    module, klass = node.get("py:module"), node.get("py:class")
    owner, _, attribute = target.rpartition(".")
    owner = owner or klass
    if not owner or not module:
        return None
    for name in (f"{module}.{owner}", f"{PACKAGE}.{owner}"):
        cls = _lookup(name)
        if isinstance(cls, type) and _instance_attribute(cls, attribute):
            return env.get_domain("py").resolve_xref(
                env, node["refdoc"], app.builder, "class", name, node, contnode
            )
    return None


def _unique_suffix(env: Any, node: Any, contnode: nodes.Node, app: Any) -> Any:
    """A bare name outside any module (a module summary in the reference's index) that names
    exactly one documented object."""
    target = node["reftarget"]
    if "." in target:
        return None
    domain = env.get_domain("py")
    found = {
        name
        for name, entry in domain.objects.items()
        if name.endswith(f".{target}") and not entry.aliased
    }
    if len(found) > 1:
        # A module's function rather than a class's method of the same name.
        found = {
            name
            for name in found
            if domain.objects[name].objtype in ("function", "class", "exception", "data")
        }
    if len(found) != 1:
        return None
    return domain.resolve_xref(env, node["refdoc"], app.builder, "obj", found.pop(), node, contnode)


def drop_foreign_docstrings(
    app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """A method without a docstring of its own inherits one (autodoc_inherit_docstrings); one
    inherited from outside the package (asyncio's, say) is not ours to publish, nor written
    for this site's markup, so it is dropped."""
    if what not in ("method", "attribute", "property") or getattr(obj, "__doc__", "") is not None:
        return
    owner_name, _, member = name.rpartition(".")
    owner = _lookup(owner_name)
    if not isinstance(owner, type):
        return
    for base in owner.__mro__:
        if member in vars(base):
            if getattr(vars(base)[member], "__doc__", None):
                if not base.__module__.startswith(PACKAGE):
                    lines.clear()
                return


class PublicClassDocumenter(ClassDocumenter):
    """A class is documented under its public names only.

    autodoc would also register a re-exported class under the private path it is defined at
    (``:canonical: pychess_rs.engine._score.Cp``); a class exported by two public modules
    (``pychess_rs.Cp``, ``pychess_rs.engine.Cp``) would then be described twice at that path.
    """

    def get_canonical_fullname(self) -> str | None:
        return None


class PublicExceptionDocumenter(ExceptionDocumenter):
    def get_canonical_fullname(self) -> str | None:
        return None


def setup(app: Any) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.autodoc")
    app.add_autodocumenter(PublicClassDocumenter, override=True)
    app.add_autodocumenter(PublicExceptionDocumenter, override=True)
    app.add_autodocumenter(ExportedDataDocumenter)
    app.connect("missing-reference", missing_reference)
    app.connect("autodoc-process-docstring", drop_foreign_docstrings)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
