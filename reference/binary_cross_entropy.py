"""Golden model of aclnnBinaryCrossEntropyBackward (clause BCE-VALUES).

out = gradOutput * weight * (self - target) / (self * (1 - self)), with gradOutput, target and
weight broadcast to self's shape (an absent weight is all ones), divided by numel(self) for
reduction 1 (mean); reduction 0 (none) and 2 (sum) take gradOutput as it is.
"""
from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any

import numpy as np

from .golden import Golden, as_array, without_bounds

NONE, MEAN, SUM = 0, 1, 2


def binary_cross_entropy_backward(args: Mapping[str, Any], *, bounds: bool = True) -> dict[str, Golden]:
    """The gradient of BinaryCrossEntropy with respect to self, in float64.

    ``args``: "gradOutput", "self", "target", "weightOptional" (None: all ones), "reduction"
    (0 none, 1 mean, 2 sum). Raises ValueError for another reduction or shapes that do not
    broadcast to self's. Each element is one product and quotient (count 1): its error scales
    with |value| itself.
    """
    reduction = operator.index(args["reduction"])
    if reduction not in (NONE, MEAN, SUM):
        raise ValueError(f"reduction {reduction}, but should be 0, 1 or 2")
    x = _real(args["self"])
    shape = x.shape
    t, g = (np.broadcast_to(_real(args[k]), shape) for k in ("target", "gradOutput"))
    weight = args.get("weightOptional")
    w = np.broadcast_to(_real(weight), shape) if weight is not None else np.ones(shape)
    with np.errstate(all="ignore"):  # inf and NaN are legitimate golden values (x = 0 or 1)
        value = g * w * (x - t) / (x * (1.0 - x))
        if reduction == MEAN:
            value = value / max(x.size, 1)
    value = np.asarray(value, np.float64)
    if not bounds:
        return {"out": without_bounds(value)}
    return {"out": Golden(value, np.abs(value), np.array(1, np.int64))}


def _real(arg: Any) -> np.ndarray:
    array = as_array(arg)
    if np.iscomplexobj(array):
        raise TypeError(f"{array.dtype} input, but should be a real floating dtype")
    return array.astype(np.float64)
