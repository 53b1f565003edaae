"""The functions spec expressions may call (expressions.py interprets the rest): a whitelist,
each a plain Python callable over the values the interpreter passes."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np


class ExprError(Exception):
    """An expression that is not allowed (at parse time) or cannot be evaluated (at run time)."""


def _broadcast(*shapes: Any) -> tuple[int, ...]:
    try:
        return tuple(int(d) for d in np.broadcast_shapes(*(tuple(s) for s in shapes)))
    except ValueError as exc:
        raise ExprError(f"shapes {', '.join(str(tuple(s)) for s in shapes)} do not broadcast") from exc


def _broadcastable(*shapes: Any) -> bool:
    try:
        _broadcast(*shapes)
    except ExprError:
        return False
    return True


def _distinct(values: Any, modulus: int | None = None) -> list[Any]:
    """The distinct elements of ``values`` in order; with ``modulus`` n, the axes -n..-1 taken as
    0..n-1 first (``[1, -1]`` of a rank-2 tensor are one axis: ``distinct(dims, x.rank)`` is
    ``[1]``); an axis out of range stays itself (another clause says it is out of range)."""
    if modulus is not None and int(modulus) <= 0:
        raise ExprError(f"distinct: modulus {modulus} is not positive")
    n = int(modulus) if modulus is not None else 0
    # only -n..-1 wrap: an axis out of range stays itself, so it never counts as a duplicate
    return list(dict.fromkeys(v + n if n and -n <= v < 0 else v for v in values))


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "len": len, "min": min, "max": max, "abs": abs, "all": all, "any": any, "sum": sum,
    "prod": math.prod, "broadcast": _broadcast, "broadcastable": _broadcastable,
    "present": lambda value: value is not None,  # an optional argument was given (not null)
    "distinct": _distinct,
    "zip": lambda *seqs: tuple(zip(*seqs)),  # (with a generator: tensor lists position by position)
}
