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


def _reduced(shape: Any, dims: Any, keep: Any) -> tuple[int, ...]:
    """``shape`` reduced over ``dims`` (an int or a list of axes, counted from either end): each
    axis kept as 1 with ``keep``, dropped without. A 0-d shape stays 0-d (its one axis, 0 or -1,
    is no dimension). An axis out of range wraps (a clause using this requires the dims' range
    clause); an empty list raises: whether it reduces every axis or none is the operator's to say."""
    axes = [int(dims)] if isinstance(dims, (int, np.integer)) else [int(d) for d in dims]
    if not axes:
        raise ExprError("reduced: no axes (whether an empty list reduces every axis or none is not said)")
    rank = len(shape)
    chosen = {a % max(rank, 1) for a in axes}
    return tuple(1 if i in chosen else int(d) for i, d in enumerate(shape) if keep or i not in chosen)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "len": len, "min": min, "max": max, "abs": abs, "all": all, "any": any, "sum": sum,
    "prod": math.prod, "broadcast": _broadcast, "broadcastable": _broadcastable,
    "present": lambda value: value is not None,  # an optional argument was given (not null)
    "distinct": _distinct, "reduced": _reduced,
    "zip": lambda *seqs: tuple(zip(*seqs)),  # (with a generator: tensor lists position by position)
}
