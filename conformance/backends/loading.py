"""Find a backend from its command-line spec: a registered name, ``module:attr`` or ``file.py:attr``."""
from __future__ import annotations

import importlib
import importlib.util
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from ..errors import UsageError

ENTRY_POINT_GROUP = "conformance.backends"
_BUILTIN = {"reference": "conformance.backends.reference:ReferenceBackend"}


def registered_backends() -> dict[str, str]:
    """Registered names -> ``module:attr`` (entry points of the group, plus the built-ins)."""
    names = dict(_BUILTIN)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        names[ep.name] = ep.value
    return names


def load_backend(spec: str) -> Any:
    """Instantiate the backend ``spec`` names; ``UsageError`` (exit 2) naming it on any failure."""
    target = registered_backends().get(spec, spec)
    if ":" not in target:
        known = ", ".join(sorted(registered_backends()))
        raise UsageError(f"--backend {spec}: not a registered backend ({known}), module:attr or "
                         "path/to/file.py:attr")
    where, _, attr = target.rpartition(":")
    obj = getattr(_import(spec, where), attr, None)
    if obj is None:
        raise UsageError(f"--backend {spec}: {where} has no attribute {attr!r}")
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as exc:  # noqa: BLE001 - any failure of third-party code is a usage error
            raise UsageError(f"--backend {spec}: {attr}() failed: {type(exc).__name__}: {exc}") from None
    if not callable(getattr(obj, "call", None)):
        raise UsageError(f"--backend {spec}: {attr} has no call(api, args) method")
    if not isinstance(getattr(obj, "name", None), str):
        raise UsageError(f"--backend {spec}: {attr} has no string attribute 'name'")
    return obj


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
        return importlib.import_module(where)
    except UsageError:
        raise
    except Exception as exc:  # noqa: BLE001 - an adapter that cannot import is a usage error
        raise UsageError(f"--backend {spec}: cannot import {where}: {type(exc).__name__}: {exc}") from None
