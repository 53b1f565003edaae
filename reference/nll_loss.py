"""Golden model of aclnnNLLLossBackward (clause NLL-VALUES).

self is (N, C) with target (N), or (C) with a 0-d target (one sample). For each sample i whose
target t = target[i] is not ignoreIndex: out[i, t] = -g_i * weight[t], where g_i is gradOutput[i]
for reduction 0 (none) on a batch and gradOutput's one element otherwise, divided by totalWeight
for reduction 1 (mean). Every other element is 0. A target outside [0, C - 1] (which the page
does not allow) contributes nothing: the reference's choice where the documents promise nothing.
"""
from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any

import numpy as np

from .golden import Golden, as_array, without_bounds

NONE, MEAN, SUM = 0, 1, 2


def nll_loss_backward(args: Mapping[str, Any], *, bounds: bool = True) -> dict[str, Golden]:
    """The gradient of NLLLoss with respect to self, in float64.

    ``args``: "gradOutput", "self", "target" (integers), "weight" (C,), "reduction" (0, 1, 2),
    "ignoreIndex", "totalWeight" (one element). Raises ValueError for another reduction.
    """
    reduction = operator.index(args["reduction"])
    if reduction not in (NONE, MEAN, SUM):
        raise ValueError(f"reduction {reduction}, but should be 0, 1 or 2")
    shape = as_array(args["self"]).shape
    rows = shape[0] if len(shape) == 2 else 1
    classes = shape[-1]
    target = as_array(args["target"]).astype(np.int64).reshape(rows)
    weight = as_array(args["weight"]).astype(np.float64).reshape(-1)
    grad = as_array(args["gradOutput"]).astype(np.float64).reshape(-1)
    g = grad if reduction == NONE and len(shape) == 2 else np.full(rows, grad[0] if grad.size else 0.0)
    value = np.zeros((rows, classes))
    hit = (target != operator.index(args["ignoreIndex"])) & (target >= 0) & (target < classes)
    index = np.nonzero(hit)[0]
    with np.errstate(all="ignore"):  # inf and NaN are legitimate (totalWeight 0, special data)
        terms = -g[index] * weight[target[index]]
        if reduction == MEAN:
            terms = terms / float(as_array(args["totalWeight"]).astype(np.float64).reshape(-1)[0])
    value[index, target[index]] = terms
    value = value.reshape(shape)
    if not bounds:
        return {"out": without_bounds(value)}
    return {"out": Golden(value, np.abs(value), np.array(1, np.int64))}
