"""Golden model of aclnnKlDivBackward (contract clause KL-VALUES).

With B = broadcast(self.shape, target.shape), g = gradOutput broadcast to B and t = target
broadcast to B: grad = -t*g (logTarget false) or -exp(t)*g (true), scaled by 1/numel(B) for
mean, 1/B[0] for batchmean, 1 for none and sum, then summed over the broadcast dims back to
self's shape. self's values do not enter; there is no mask on t <= 0.
"""
from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from typing import Any

import numpy as np

from .golden import Golden, as_array, shape_of, without_bounds

NONE, MEAN, SUM, BATCHMEAN = 0, 1, 2, 3


def kl_div_backward(args: Mapping[str, Any], *, bounds: bool = True) -> dict[str, Golden]:
    """The gradient of KlDiv with respect to self, in float64.

    ``args``: "gradOutput", "self", "target" (float16, bfloat16, float32 or float64, any strides
    and any shapes that broadcast; only self's shape is used), "reduction" (0 none, 1 mean,
    2 sum, 3 batchmean), "logTarget" (bool). Raises ValueError for a reduction outside 0..3
    or shapes that do not broadcast (gradOutput may not enlarge B), TypeError for complex
    inputs. With ``bounds=False`` abs_sum and count are empty arrays of shape (0,).
    """
    reduction = operator.index(args["reduction"])
    if reduction not in (NONE, MEAN, SUM, BATCHMEAN):
        raise ValueError(f"reduction {reduction}, but should be 0, 1, 2 or 3")
    self_shape = shape_of(args["self"])
    target = _real(args["target"], "target")
    grad = _real(args["gradOutput"], "gradOutput")
    shape = np.broadcast_shapes(self_shape, target.shape)
    g = np.broadcast_to(grad, shape)  # raises ValueError when gradOutput would enlarge B
    if math.prod(shape) == 0:
        return {"out": _empty(self_shape, bounds)}
    # inf and nan are legitimate golden values (exp overflow, inf * 0, inf - inf).
    with np.errstate(over="ignore", invalid="ignore"):
        weight = np.exp(target) if args["logTarget"] else target
        terms = -(weight * g) * _scale(reduction, shape)
        value = _reduce_to(terms, self_shape)
        if not bounds:
            return {"out": without_bounds(value)}
        abs_sum = _reduce_to(np.abs(terms), self_shape)
    count = np.array(math.prod(shape) // math.prod(self_shape), np.int64)
    return {"out": Golden(value, abs_sum, count)}


def _real(arg: Any, name: str) -> np.ndarray:
    array = as_array(arg)
    if np.iscomplexobj(array):
        raise TypeError(f"{name} is {array.dtype}, but should be a real floating dtype")
    return array.astype(np.float64)


def _scale(reduction: int, shape: tuple[int, ...]) -> float:
    if reduction == MEAN:
        return 1.0 / math.prod(shape)
    if reduction == BATCHMEAN:
        return 1.0 / shape[0] if shape else 1.0  # a 0-d B is one batch of one
    return 1.0


def _reduce_to(terms: np.ndarray, self_shape: tuple[int, ...]) -> np.ndarray:
    """Sum the broadcast dims away: the leading extra dims, and dims where self has size 1."""
    lead = terms.ndim - len(self_shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(self_shape)
                                      if n == 1 and terms.shape[lead + i] != 1)
    return terms.sum(axis=axes).reshape(self_shape) if axes else terms.reshape(self_shape)


def _empty(self_shape: tuple[int, ...], bounds: bool) -> Golden:
    """B has no elements: nothing lands anywhere, so self's elements (if any) are 0."""
    zeros = np.zeros(self_shape, np.float64)
    if not bounds:
        return without_bounds(zeros)
    return Golden(zeros, zeros.copy(), np.array(0, np.int64))
