"""Import the golden-model function a spec names (``reference: module:function``)."""
from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from conformance.errors import SpecError
from conformance.spec.model import OperatorSpec
from reference.golden import without_bounds


@cache
def _load(target: str, file: str) -> Callable[..., Any]:
    module_name, _, attr = target.partition(":")
    try:
        fn = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise SpecError(f"reference {target!r} cannot be imported: {exc}", file=file,
                        field="reference") from None
    return _Remembered(fn)


def reference_function(spec: OperatorSpec) -> Callable[..., Any]:
    """``fn(args, bounds=...) -> {output name: Golden}`` for the operator.

    Reference functions take tensors as numpy arrays or as ``conformance.Tensor`` (its ``array``).
    A spec without ``reference`` has none: ``SpecError`` (callers ask ``spec.reference`` first).
    """
    if spec.reference is None:
        raise SpecError(f"{spec.api} names no reference function", file=spec.file, field="reference")
    return _load(spec.reference, spec.file)


class _Remembered:
    """A reference function that remembers its last answers. A run asks it the same question up
    to four times per case (the judge's golden; the reference backend's call; the determinism
    re-run's call, on a copy of the same bytes), and a reference function is pure: its answer
    depends only on the arguments' values. The answers' arrays are read-only: they are shared."""

    SIZE = 2

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.__doc__ = fn.__doc__
        self.known: list[tuple[Any, bool, dict[str, Any]]] = []

    def __call__(self, args: dict[str, Any], *, bounds: bool = True) -> dict[str, Any]:
        key = _key(args)
        for known_key, has_bounds, answer in self.known if key is not None else ():
            if (has_bounds or not bounds) and known_key == key:
                return {n: g if has_bounds == bounds else without_bounds(g.value) for n, g in answer.items()}
        answer = self.fn(args, bounds=bounds)
        for golden in answer.values():
            for array in vars(golden).values():
                if isinstance(array, np.ndarray) and array.flags.owndata:  # (never an argument's)
                    array.flags.writeable = False
        if key is not None:
            self.known = [(key, bounds, answer), *self.known[:self.SIZE - 1]]
        return dict(answer)


def _key(value: Any) -> Any:
    """The arguments' values, exactly (an array by its dtype, shape and bytes; 1, 1.0 and True
    differ), or None where an argument is of a kind not known here (not remembered)."""
    array = getattr(value, "array", value)
    if isinstance(array, np.ndarray):
        return array.dtype.str, array.shape, np.ascontiguousarray(array).tobytes()
    if isinstance(value, dict):
        keys = [_key(v) for v in value.values()]
        return None if any(k is None for k in keys) else tuple(zip(value, keys))
    if value is None or isinstance(value, (bool, int, float, str)):
        return type(value).__name__, value
    if isinstance(value, (tuple, list)):
        keys = [_key(v) for v in value]
        return None if any(k is None for k in keys) else (type(value).__name__, tuple(keys))
    params = getattr(value, "__dataclass_params__", None)
    if params is not None and params.frozen:
        return _key((type(value).__name__, *(getattr(value, f) for f in value.__dataclass_fields__)))
    return None
