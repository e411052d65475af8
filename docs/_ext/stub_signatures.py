"""Signatures of the compiled core's classes read from its stubs (``pychess_rs/_core.pyi``).

autodoc reads a Rust method's docstring at run time, but a compiled method carries at most a
bare text signature with no types. The stubs carry the types (stubtest keeps them true to the
module), so for every class and function of ``pychess_rs._core`` the reference shows the stub's
parameters and return annotation.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from typing import Any

import pychess_rs
from pychess_rs import _core

STUB = Path(pychess_rs.__file__).with_name("_core.pyi")


def _signature(node: ast.FunctionDef, *, method: bool) -> tuple[str, str | None]:
    args = node.args
    if method and not any(
        isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list
    ):
        # Drop self/cls, whether positional-only or not.
        if args.posonlyargs:
            args.posonlyargs = args.posonlyargs[1:]
        elif args.args:
            args.args = args.args[1:]
    returns = ast.unparse(node.returns) if node.returns is not None else None
    return f"({ast.unparse(args)})", returns


def read_stub(path: Path = STUB) -> dict[str, tuple[str, str | None]]:
    """Map ``"Board"``, ``"Board.push"``, ``"read_fen"`` ... to (parameters, return annotation)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: dict[str, tuple[str, str | None]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found.setdefault(node.name, _signature(node, method=False))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if not isinstance(item, ast.FunctionDef):
                    continue
                if any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list):
                    continue
                found.setdefault(f"{node.name}.{item.name}", _signature(item, method=True))
            for constructor in ("__new__", "__init__"):
                if f"{node.name}.{constructor}" in found:
                    params, _ = found[f"{node.name}.{constructor}"]
                    found.setdefault(node.name, (params, None))
    return found


def _resolve(dotted: str) -> Any:
    """The object a documented dotted name stands for, or None."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for part in parts[cut:]:
                obj = getattr(obj, part)
        except AttributeError:
            return None
        return obj
    return None


def _in_core(obj: Any) -> bool:
    """Whether ``obj`` is a class or function of the compiled core (whatever ``__module__`` it
    reports: the core's classes say ``pychess_rs``)."""
    name = getattr(obj, "__qualname__", None)
    return isinstance(name, str) and getattr(_core, name, None) is obj


def _core_key(what: str, name: str, obj: Any) -> str | None:
    if what in ("class", "exception", "function"):
        return str(obj.__qualname__) if _in_core(obj) else None
    if what in ("method", "classmethod", "staticmethod"):
        owner_name, _, member = name.rpartition(".")
        owner = _resolve(owner_name)
        if isinstance(owner, type) and _in_core(owner):
            return f"{owner.__qualname__}.{member}"
    return None


def _with_runtime_defaults(params: str, obj: Any) -> str:
    """A stub writes a default as ``...``; where the running object knows the value (its text
    signature says ``chess960=False``), show the value."""
    if "..." not in params:
        return params
    try:
        runtime = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return params
    args = ast.parse(f"def f{params}: ...").body[0].args  # type: ignore[attr-defined]
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    changed = False
    for arg, default in pairs:
        known = runtime.get(arg.arg)
        if (
            isinstance(default, ast.Constant)
            and default.value is Ellipsis
            and known is not None
            and known.default is not inspect.Parameter.empty
            and known.default is not Ellipsis
            and isinstance(known.default, (bool, int, float, str, type(None)))
        ):
            default.value = known.default
            changed = True
    return f"({ast.unparse(args)})" if changed else params


def process_signature(
    app: Any,
    what: str,
    name: str,
    obj: Any,
    options: Any,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str | None, str | None] | None:
    stubs: dict[str, tuple[str, str | None]] = app.env.pychess_rs_stubs
    key = _core_key(what, name, obj)
    if key is None or key not in stubs:
        return None
    params, returns = stubs[key]
    return _with_runtime_defaults(params, obj), returns


def builder_inited(app: Any) -> None:
    app.env.pychess_rs_stubs = read_stub()


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", builder_inited)
    app.connect("autodoc-process-signature", process_signature)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
