"""Golden models of the padding gradients with one index map per padded axis: replication 1-D and
2-D, reflection 3-D and circular 2-D (aclnnReplicationPad1d/2dBackward, aclnnReflectionPad3dBackward,
aclnnCircularPad2dBackward).

The forward op reads, along each padded axis of input size n with ``before`` padding, input
position f(p - before) for output position p, where f is
  replicate: clamp(x, 0, n - 1)
  reflect:   -x for x < 0, 2(n - 1) - x for x > n - 1 (one reflection: padding < n)
  circular:  x mod n
so gradInput[i] is the sum of the gradOutput elements whose position maps to i. Negative padding
crops (x starts past 0), as torch does. The maps are separable: the gradient folds one axis at a
time, each fold summing the positions of one target in position order by slices of the axis
(sums in float64 or complex128, IEEE inf/NaN kept: no 0/1 matrix product, where 0 * inf would
make NaN).
"""
from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from .golden import Golden, as_array, shape_of, without_bounds

IndexMap = Callable[[np.ndarray, int], np.ndarray]  # (x = p - before, n) -> input positions


def _replicate(x: np.ndarray, n: int) -> np.ndarray:
    return np.clip(x, 0, n - 1)


def _reflect(x: np.ndarray, n: int) -> np.ndarray:
    return np.where(x < 0, -x, np.where(x > n - 1, 2 * (n - 1) - x, x))


def _circular(x: np.ndarray, n: int) -> np.ndarray:
    return np.mod(x, n)


def replication_pad1d_backward(args: Mapping[str, Any], *, bounds: bool = True) -> dict[str, Golden]:
    """gradInput of ReplicationPad1d: padding (left, right) of the last dim."""
    return _pad_backward(args, 1, _replicate, bounds)


def replication_pad2d_backward(args: Mapping[str, Any], *, bounds: bool = True) -> dict[str, Golden]:
    """gradInput of ReplicationPad2d: padding (left, right, top, bottom) of the last two dims."""
    return _pad_backward(args, 2, _replicate, bounds)


def reflection_pad3d_backward(args: Mapping[str, Any], *, bounds: bool = True) -> dict[str, Golden]:
    """gradInput of ReflectionPad3d: padding (left, right, top, bottom, front, back)."""
    return _pad_backward(args, 3, _reflect, bounds)


def circular_pad2d_backward(args: Mapping[str, Any], *, bounds: bool = True) -> dict[str, Golden]:
    """gradInput of CircularPad2d: padding (left, right, top, bottom) of the last two dims."""
    return _pad_backward(args, 2, _circular, bounds)


def axis_index(mapping: IndexMap, n: int, before: int, after: int) -> np.ndarray:
    """The input position every output position of one axis reads (int64, length n + before + after).

    Raises ValueError when a position falls outside the input (a reflection of padding >= n).
    """
    m = n + before + after
    if m <= 0:
        return np.zeros(0, np.int64)
    if n <= 0:
        raise ValueError(f"an axis of size {n} cannot be padded to {m}")
    idx = mapping(np.arange(m, dtype=np.int64) - before, n)
    if idx.min() < 0 or idx.max() >= n:
        raise ValueError(f"padding ({before}, {after}) reads outside an axis of size {n}")
    return idx


@functools.lru_cache(maxsize=1024)
def _axis_map(mapping: IndexMap, n: int, before: int, after: int) -> np.ndarray:
    """``axis_index``, worked out once per axis (read-only: shared by every call)."""
    idx = axis_index(mapping, n, before, after)
    idx.flags.writeable = False
    return idx


def _pad_backward(args: Mapping[str, Any], k: int, mapping: IndexMap, bounds: bool) -> dict[str, Golden]:
    grad = as_array(args["gradOutput"])
    in_shape = shape_of(args["self"])
    pads = _axis_pads(args["padding"], k)
    _check_shapes(grad.shape, in_shape, pads)
    lead = len(in_shape) - k
    maps = [_axis_map(mapping, n, b, a) for n, (b, a) in zip(in_shape[lead:], pads)]
    dtype = np.complex128 if np.iscomplexobj(grad) else np.float64
    up = grad.astype(dtype, copy=False)  # (_fold reads its values, never writes them)
    value = _fold(up, lead, maps, in_shape)
    if not bounds:
        return {"gradInput": without_bounds(value)}
    # |x| of a numpy float is exact, so taken on the float64 copy it is the same number (one pass
    # less); not so a complex |x| (complex64's rounded in float32) or an integer's (|-128| in int8)
    magnitude = np.abs(up) if grad.dtype.kind == "f" else np.abs(grad).astype(np.float64)
    abs_sum = _fold(magnitude, lead, maps, in_shape)
    return {"gradInput": Golden(value, abs_sum, _count(in_shape, lead, maps))}


def _axis_pads(padding: Sequence[int], k: int) -> list[tuple[int, int]]:
    """(before, after) per padded axis, outermost first; padding lists the last dim first."""
    pads = [operator.index(p) for p in padding]
    if len(pads) != 2 * k:
        raise ValueError(f"padding has {len(pads)} values, but should have {2 * k}")
    return [(pads[2 * i], pads[2 * i + 1]) for i in reversed(range(k))]


def _check_shapes(out_shape: tuple[int, ...], in_shape: tuple[int, ...],
                  pads: list[tuple[int, int]]) -> None:
    k = len(pads)
    if len(in_shape) < k or len(out_shape) != len(in_shape):
        raise ValueError(f"gradOutput rank {len(out_shape)} and self rank {len(in_shape)} "
                         f"must be equal and at least {k}")
    lead = len(in_shape) - k
    padded = [n + b + a for n, (b, a) in zip(in_shape[lead:], pads)]
    want = (*in_shape[:lead], *padded)
    if min(padded) < 0 or tuple(out_shape) != want:
        raise ValueError(f"gradOutput shape {tuple(out_shape)}, but should be {want}")


def _fold(values: np.ndarray, lead: int, maps: list[np.ndarray], in_shape: tuple[int, ...]) -> np.ndarray:
    """``values`` summed onto the input positions, one padded axis after the other."""
    if values.size == 0 or 0 in in_shape:
        return np.zeros(in_shape, values.dtype)
    for axis, idx in enumerate(maps, start=lead):
        values = _fold_axis(values, axis, idx, in_shape[axis])
    return values


def _fold_axis(values: np.ndarray, axis: int, idx: np.ndarray, n: int) -> np.ndarray:
    """Sum the positions of ``axis`` that map to the same input position, in position order
    (((p0 + p1) + p2) ...): the first of every group copied, then the second added, and so on,
    each step by slices of the axis (a handful per step for a padding map)."""
    shape = list(values.shape)
    shape[axis] = n
    if idx.size == 0:
        return np.zeros(shape, values.dtype)
    targets, steps = _fold_plan(np.asarray(idx, np.int64).tobytes(), n)
    shape[axis] = targets.size
    sums = np.empty(shape, values.dtype)
    for dst, src in steps[0]:
        sums[_at(axis, dst)] = values[_at(axis, src)]
    for runs in steps[1:]:
        for dst, src in runs:
            sums[_at(axis, dst)] += values[_at(axis, src)]
    if targets.size == n:  # every input position is read (no cropping): targets are 0..n-1
        return sums
    shape[axis] = n
    out = np.zeros(shape, values.dtype)  # cropped: positions never read get 0
    out[_at(axis, targets)] = sums
    return out


@functools.lru_cache(maxsize=1024)
def _fold_plan(idx: bytes, n: int) -> tuple[np.ndarray, tuple[list[tuple[slice, slice]], ...]]:
    """(the input positions read, in order; the runs of slices of each step of ``_fold_axis``) for
    one axis map (int64 bytes): worked out once per map, which a run meets again and again (the
    argsort, unique and runs were half the time of a small case's fold)."""
    positions = np.frombuffer(idx, np.int64)
    order = np.argsort(positions, kind="stable")
    targets, starts, counts = np.unique(positions[order], return_index=True, return_counts=True)
    steps = [_runs(np.arange(targets.size), order[starts])]
    for rank in range(1, int(counts.max())):
        more = np.flatnonzero(counts > rank)
        steps.append(_runs(more, order[starts[more] + rank]))
    targets.flags.writeable = False  # (shared by every fold of this map)
    return targets, tuple(steps)


def _at(axis: int, where: Any) -> tuple[Any, ...]:
    return (slice(None),) * axis + (where,)


def _runs(dst: np.ndarray, src: np.ndarray) -> list[tuple[slice, slice]]:
    """The pairs (dst[i], src[i]) as runs of slices that step evenly in both."""
    d, s, runs, i = dst.tolist(), src.tolist(), [], 0
    while i < len(d):
        j = i
        if i + 1 < len(d):
            step_d, step_s = d[i + 1] - d[i], s[i + 1] - s[i]
            j = i + 1
            while j + 1 < len(d) and d[j + 1] - d[j] == step_d and s[j + 1] - s[j] == step_s:
                j += 1
        else:
            step_d = step_s = 1
        runs.append((_slice(d[i], d[j], step_d), _slice(s[i], s[j], step_s)))
        i = j + 1
    return runs


def _slice(first: int, last: int, step: int) -> slice:
    stop = last + step
    return slice(first, stop if stop >= 0 else None, step)


def _count(in_shape: tuple[int, ...], lead: int, maps: list[np.ndarray]) -> np.ndarray:
    """Terms per gradInput element: the outer product of the per-axis counts."""
    count = np.ones((1,) * lead, np.int64)
    for n, idx in zip(in_shape[lead:], maps):
        per_axis = np.bincount(idx, minlength=max(n, 0))[:max(n, 0)] if idx.size else np.zeros(n, np.int64)
        count = np.multiply.outer(count, per_axis.astype(np.int64))
    return count
