"""Find a backend from its command-line spec: a registered name, ``module:attr`` or ``file.py:attr``.

A registered name may carry options for its class's constructor: ``aclnn:lib=A.so,lib=B.so,product=P``
(``key=value`` pairs after the first ":"; a repeated key gives a list).
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from conformance.errors import UsageError
from conformance.spec.loader import read_shipped_specs

ENTRY_POINT_GROUP = "conformance.backends"
_BUILTIN = {"reference": "conformance.backends.reference:ReferenceBackend",
            "aclnn": "conformance.backends.aclnn:AclnnBackend",
            "oracle": "conformance.backends.reference:OracleBackend"}


def registered_backends() -> dict[str, str]:
    """Registered names -> ``module:attr`` (entry points of the group, plus the built-ins)."""
    names = dict(_BUILTIN)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        names[ep.name] = ep.value
    return names


def load_backend(spec: str) -> Any:
    """Instantiate the backend ``spec`` names; ``UsageError`` (exit 2) naming it on any failure."""
    target, options = _target(spec)
    if ":" not in target:
        known = ", ".join(sorted(registered_backends()))
        raise UsageError(f"--backend {spec}: not a registered backend ({known}), module:attr or "
                         "path/to/file.py:attr")
    where, _, attr = target.rpartition(":")
    obj = getattr(_import(spec, where), attr, None)
    if obj is None:
        raise UsageError(f"--backend {spec}: {where} has no attribute {attr!r}")
    if isinstance(obj, type):
        obj = _instantiate(spec, obj, options)
    elif options:
        raise UsageError(f"--backend {spec}: {attr} is not a class, so it takes no options")
    if not callable(getattr(obj, "call", None)):
        raise UsageError(f"--backend {spec}: {attr} has no call(api, args) method")
    if not isinstance(getattr(obj, "name", None), str):
        raise UsageError(f"--backend {spec}: {attr} has no string attribute 'name'")
    return obj


def describe_backend(backend: Any) -> dict[str, Any]:
    """What a run records of a loaded backend (plain data: it crosses process boundaries);
    ``missing_operators``: api -> why, for every operator of the active specs it does not implement."""
    return {"name": str(getattr(backend, "name", "")),
            "version": str(getattr(backend, "version", "") or ""),
            "product": getattr(backend, "product", None) or None,
            "product_from_device": bool(getattr(backend, "product_from_device", False)),
            "soc": str(getattr(backend, "soc", "") or ""),
            "missing_operators": missing_operators(backend)}


def missing_operators(backend: Any) -> dict[str, str]:
    """api -> why the backend does not implement it: the reasons it gives itself
    (``missing_operators``, as the aclnn backend does from the library's symbols), then every
    operator of the active specs its optional ``supports(api)`` refuses (default: it implements all)."""
    said = dict(getattr(backend, "missing_operators", {}) or {})
    supports = getattr(backend, "supports", None)
    if not callable(supports):
        return said
    for api in read_shipped_specs().operators:
        if api not in said and not _supports(backend, supports, api):
            name = getattr(backend, "name", "the backend")
            said[api] = f"{name} does not implement {api} (its supports() says so)"
    return said


def _supports(backend: Any, supports: Any, api: str) -> bool:
    try:
        return bool(supports(api))
    except Exception as exc:  # noqa: BLE001 - third-party code: a failing supports() is a usage error
        raise UsageError(f"backend {getattr(backend, 'name', '?')}: supports({api!r}) raised "
                         f"{type(exc).__name__}: {exc}") from None


def backend_for(spec: str, product: str) -> Any:
    """A fresh backend instance for ``product`` (see ``told_product``)."""
    return told_product(load_backend(spec), product)


def told_product(backend: Any, product: str) -> Any:
    """``backend``, told the product under test if it declares none, or if it reads its product
    from its device (``product_from_device``: --product wins)."""
    overridden = product and getattr(backend, "product_from_device", False)
    if hasattr(backend, "product") and (getattr(backend, "product", None) is None or overridden):
        backend.product = product
    return backend


def _target(spec: str) -> tuple[str, dict[str, str | list[str]]]:
    """``module:attr`` of the backend and the constructor options the spec gives it."""
    registered = registered_backends()
    name, sep, rest = spec.partition(":")
    pairs = [part.partition("=") for part in rest.split(",")] if sep and rest else []
    if name not in registered or not pairs or not all(k.isidentifier() and eq for k, eq, _ in pairs):
        return registered.get(spec, spec), {}
    options: dict[str, str | list[str]] = {}
    for key, _, value in pairs:
        old = options.get(key)
        options[key] = value if old is None else [*(old if isinstance(old, list) else [old]), value]
    return registered[name], options


def _instantiate(spec: str, cls: type, options: dict[str, str | list[str]]) -> Any:
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        params = {}
    kwargs = {key: _option(spec, cls, params, key, value) for key, value in options.items()}
    try:
        return cls(**kwargs)
    except UsageError as exc:  # the class's own message says what is wrong; keep it on one line
        raise UsageError(f"--backend {spec}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - any failure of third-party code is a usage error
        raise UsageError(f"--backend {spec}: {cls.__name__}() failed: {type(exc).__name__}: {exc}") from None


def _option(spec: str, cls: type, params: Any, key: str, value: str | list[str]) -> Any:
    """The keyword argument for one option, converted to an int where the default is one."""
    # only what a command line can give: str or int parameters (a SpecSet cannot be typed in)
    keywords = [n for n, p in params.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                and any(word in str(p.annotation) for word in ("str", "int"))]
    if key not in keywords:
        accepted = ", ".join(keywords) or "none"
        raise UsageError(f"--backend {spec}: {cls.__name__} has no option {key!r} (options: {accepted})")
    param = params[key]
    if isinstance(value, list) and "list" not in str(param.annotation):
        raise UsageError(f"--backend {spec}: option {key!r} is given more than once")
    default = param.default
    if isinstance(default, int) and not isinstance(default, bool) and isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            raise UsageError(f"--backend {spec}: option {key}={value} is not an integer") from None
    return value


def _import(spec: str, where: str) -> Any:
    try:
        if where.endswith(".py"):
            path = Path(where)
            if not path.is_file():
                raise UsageError(f"--backend {spec}: file {where} does not exist")
            name = f"_conformance_backend_{abs(hash(str(path.resolve())))}"
            module_spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(module_spec)  # type: ignore[arg-type]
            sys.modules[name] = module
            module_spec.loader.exec_module(module)  # type: ignore[union-attr]
            return module
        if os.getcwd() not in sys.path and "" not in sys.path:
            sys.path.insert(0, os.getcwd())  # as pytest does for its rootdir: my_adapter:MyBackend
        return importlib.import_module(where)
    except UsageError:
        raise
    except Exception as exc:  # noqa: BLE001 - an adapter that cannot import is a usage error
        raise UsageError(f"--backend {spec}: cannot import {where}: {type(exc).__name__}: {exc}") from None
