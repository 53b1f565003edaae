"""Arrays for the golden-model tests: random values, the same values in other memory layouts,
and the closeness two float64 formulations of one sum must reach."""
from __future__ import annotations

import numpy as np

LAYOUTS = ["contiguous", "strided", "reversed", "fortran"]


def random_array(rng: np.random.Generator, shape: tuple[int, ...], dtype: type,
                 scale: float = 4.0) -> np.ndarray:
    values = rng.standard_normal(shape) * scale
    if np.issubdtype(dtype, np.complexfloating):
        values = values + 1j * rng.standard_normal(shape) * scale
    return np.asarray(values).astype(dtype)  # an array even for shape ()


def with_layout(array: np.ndarray, layout: str) -> np.ndarray:
    """The same values as ``array`` in a view with the given memory layout."""
    if layout == "strided" and array.ndim:
        buffer = np.zeros((*array.shape[:-1], 2 * array.shape[-1]), array.dtype)
        buffer[..., ::2] = array
        return buffer[..., ::2]
    if layout == "reversed":
        return np.flip(np.flip(array).copy())  # negative strides
    if layout == "fortran" and array.ndim:  # asfortranarray would make a 0-d array 1-d
        return np.asfortranarray(array)
    return array


def assert_close(actual: np.ndarray, expected: np.ndarray, abs_scale: np.ndarray) -> None:
    """Equal up to float64 reassociation: rtol 1e-12, atol 1e-12 of the largest Σ|terms|."""
    assert actual.shape == expected.shape, f"shape {actual.shape}, but should be {expected.shape}"
    atol = 1e-12 * float(np.max(abs_scale, initial=0.0))
    np.testing.assert_allclose(actual, expected, rtol=1e-12, atol=atol)
