"""Golden models of three loss operators: aclnnKlDiv (the forward of aclnnKlDivBackward),
aclnnMseLossBackward and aclnnSmoothL1LossBackward, as their pages define them.

Every function takes the arguments by the documents' parameter names, computes in float64 and
returns, per output, the value, Σ|terms| (the same computation on absolute values: a difference
``a - b`` counts as ``|a| + |b|``, since that is what its rounding error scales with) and the
number of terms summed into each element. Inputs may differ in dtype (the pages let them be
promoted); only their values matter here.
"""
from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from typing import Any

import numpy as np

from .golden import Golden, as_array, shape_of, without_bounds

NONE, MEAN, SUM, BATCHMEAN = 0, 1, 2, 3


def _real(arg: Any, name: str) -> np.ndarray:
    array = as_array(arg)
    if np.iscomplexobj(array):
        raise TypeError(f"{name} is {array.dtype}, but should be a real floating dtype")
    return array.astype(np.float64)


def _reduction(args: Mapping[str, Any], allowed: tuple[int, ...]) -> int:
    reduction = operator.index(args["reduction"])
    if reduction not in allowed:
        raise ValueError(f"reduction {reduction}, but should be one of {allowed}")
    return reduction


def _golden(value: np.ndarray, abs_sum: np.ndarray, count: int, bounds: bool) -> Golden:
    if not bounds:
        return without_bounds(value)
    return Golden(value, abs_sum, np.array(count, np.int64))


# -- aclnnKlDiv ----------------------------------------------------------------------------------
def kl_div(args: Mapping[str, Any], *, bounds: bool = True) -> dict[str, Golden]:
    """The KL divergence loss of aclnnKlDiv, in float64.

    loss_i = exp(t_i)·(t_i − s_i) when logTarget, else t_i·(log t_i − s_i), NaN where t_i <= 0
    (the page's formula); out = loss (reduction 0, shape broadcast(self, target)), its mean over
    broadcast(self, target) (1), its sum (2), or its sum / self.shape[0] (3: batchmean; a 0-d self,
    which the page leaves open, divides by 1). A reduced out has shape (1,) (the page), or out's
    own one-element shape when ``args`` holds an ``out``.
    """
    reduction = _reduction(args, (NONE, MEAN, SUM, BATCHMEAN))
    self_, target = _real(args["self"], "self"), _real(args["target"], "target")
    shape = np.broadcast_shapes(self_.shape, target.shape)
    s, t = np.broadcast_to(self_, shape), np.broadcast_to(target, shape)
    with np.errstate(all="ignore"):  # inf and NaN are legitimate golden values
        if args["logTarget"]:
            weight = np.exp(t)
            loss, scale_of = weight * (t - s), weight * (np.abs(t) + np.abs(s))
        else:
            log_t = np.log(np.where(t > 0, t, np.nan))  # NaN for t <= 0, as the page says
            loss, scale_of = t * (log_t - s), np.abs(t) * (np.abs(log_t) + np.abs(s))
        if reduction == NONE:
            return {"out": _golden(loss, scale_of, 1, bounds)}
        divisor = {MEAN: math.prod(shape), SUM: 1, BATCHMEAN: self_.shape[0] if self_.ndim else 1}[reduction]
        out_shape = _reduced_shape(args)
        value = np.asarray(loss.sum() / divisor).reshape(out_shape) if divisor else np.full(out_shape, np.nan)
        abs_sum = np.asarray(scale_of.sum() / max(divisor, 1)).reshape(out_shape)
    return {"out": _golden(value, abs_sum, math.prod(shape), bounds)}


def _reduced_shape(args: Mapping[str, Any]) -> tuple[int, ...]:
    out = args.get("out")
    shape = shape_of(out) if out is not None else (1,)
    return shape if math.prod(shape) == 1 else (1,)


# -- aclnnMseLossBackward ------------------------------------------------------------------------
def mse_loss_backward(args: Mapping[str, Any], *, bounds: bool = True) -> dict[str, Golden]:
    """out = 2·gradOutput·(self − target), divided by self.numel() for reduction 1 (mean), all
    broadcast to B = broadcast(gradOutput, self, target), out's shape. Raises ValueError for a
    reduction outside 0..2 or shapes that do not broadcast."""
    reduction = _reduction(args, (NONE, MEAN, SUM))
    grad = _real(args["gradOutput"], "gradOutput")
    self_, target = _real(args["self"], "self"), _real(args["target"], "target")
    shape = np.broadcast_shapes(grad.shape, self_.shape, target.shape)
    g, s, t = (np.broadcast_to(a, shape) for a in (grad, self_, target))
    scale = 2.0 / self_.size if reduction == MEAN and self_.size else 2.0
    with np.errstate(all="ignore"):
        value = g * (s - t) * scale
        abs_sum = np.abs(g) * (np.abs(s) + np.abs(t)) * scale if bounds else value
    return {"out": _golden(value, abs_sum, 1, bounds)}


# -- aclnnSmoothL1LossBackward -------------------------------------------------------------------
def smooth_l1_loss_backward(args: Mapping[str, Any], *, bounds: bool = True) -> dict[str, Golden]:
    """gradInput = gradOut·d/dself SmoothL1(self, target; beta), over B = broadcast(gradOut, self,
    target): (self − target)/beta where |self − target| < beta, else sign(self − target) (so 0
    where they are equal, and beta = 0 is pure L1); divided for reduction 1 (mean) by the number
    of elements of the forward's loss, numel(broadcast(self, target)). beta is a C float: it is
    rounded to float32 first."""
    reduction = _reduction(args, (NONE, MEAN, SUM))
    beta = float(np.float32(args["beta"]))
    grad = _real(args["gradOut"], "gradOut")
    self_, target = _real(args["self"], "self"), _real(args["target"], "target")
    shape = np.broadcast_shapes(grad.shape, self_.shape, target.shape)
    g, s, t = (np.broadcast_to(a, shape) for a in (grad, self_, target))
    count = math.prod(np.broadcast_shapes(self_.shape, target.shape))
    scale = 1.0 / count if reduction == MEAN and count else 1.0
    with np.errstate(all="ignore"):
        d = s - t
        quadratic = np.abs(d) < beta  # never for beta = 0 (nor for NaN)
        slope = np.where(quadratic, d / (beta or 1.0), np.sign(d))
        value = g * slope * scale
        if not bounds:
            return {"gradInput": without_bounds(value)}
        # (s - t)/beta rounds with |s| + |t|; sign() is exact
        terms = np.where(quadratic, (np.abs(s) + np.abs(t)) / (beta or 1.0), np.abs(slope))
        abs_sum = np.abs(g) * terms * scale
    return {"gradInput": _golden(value, abs_sum, 1, bounds)}
