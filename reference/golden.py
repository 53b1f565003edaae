"""The golden model's answer for one output tensor: the exact value and what bounds its error."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

#: What ``abs_sum`` and ``count`` hold when the caller asked for ``bounds=False``.
NO_BOUNDS_SHAPE = (0,)


# eq=False: the generated __eq__/__hash__ would compare/hash arrays, which numpy refuses.
@dataclass(frozen=True, eq=False)
class Golden:
    """One output of a reference function, computed in float64 (complex128 for complex inputs).

    ``value``   the output, in the output's shape.
    ``abs_sum`` float64, same shape: the same computation run on the absolute values of the
                terms (Σ|terms| per element), the scale of the rounding error a backend may make.
    ``count``   int64, broadcastable to ``value``'s shape: the number of terms summed into
                each element.

    When the reference ran with ``bounds=False`` both ``abs_sum`` and ``count`` are empty arrays
    of shape ``(0,)`` (see ``has_bounds``).
    """

    value: np.ndarray
    abs_sum: np.ndarray
    count: np.ndarray

    @property
    def has_bounds(self) -> bool:
        """False when ``abs_sum``/``count`` were skipped (``bounds=False``); an output of
        shape (0,) has nothing to bound and always says True."""
        return self.abs_sum.shape != NO_BOUNDS_SHAPE or self.value.shape == NO_BOUNDS_SHAPE


def without_bounds(value: np.ndarray) -> Golden:
    """A Golden for ``bounds=False``: the value only."""
    return Golden(value, np.empty(NO_BOUNDS_SHAPE, np.float64), np.empty(NO_BOUNDS_SHAPE, np.int64))


def as_array(arg: Any) -> np.ndarray:
    """The numpy array behind an argument: an ndarray, or anything with an ``array`` attribute
    (``conformance.Tensor``), so the engine can pass its tensors unchanged."""
    return np.asarray(getattr(arg, "array", arg))


def shape_of(arg: Any) -> tuple[int, ...]:
    """The shape of a tensor argument whose values are never read."""
    return tuple(np.shape(as_array(arg)))
