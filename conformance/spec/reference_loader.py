"""Import the golden-model function a spec names (``reference: module:function``)."""
from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

from conformance.errors import SpecError
from conformance.spec.model import OperatorSpec


@cache
def _load(target: str, file: str) -> Callable[..., Any]:
    module_name, _, attr = target.partition(":")
    try:
        fn = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise SpecError(f"reference {target!r} cannot be imported: {exc}", file=file,
                        field="reference") from None
    return fn


def reference_function(spec: OperatorSpec) -> Callable[..., Any]:
    """``fn(args, bounds=...) -> {output name: Golden}`` for the operator.

    Reference functions take tensors as numpy arrays or as ``conformance.Tensor`` (its ``array``).
    A spec without ``reference`` has none: ``SpecError`` (callers ask ``spec.reference`` first).
    """
    if spec.reference is None:
        raise SpecError(f"{spec.api} names no reference function", file=spec.file, field="reference")
    return _load(spec.reference, spec.file)
