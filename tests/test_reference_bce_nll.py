"""The BCE (and NLL) golden models against brute force: one Python float loop per element, written
from the pages' formulas, on random shapes, broadcasts, weights and reductions."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from reference.binary_cross_entropy import binary_cross_entropy_backward


def _bce_brute(g, x, t, w, reduction):
    out = np.empty(x.shape)
    n = x.size
    for idx in itertools.product(*(range(d) for d in x.shape)):
        gi = float(np.broadcast_to(g, x.shape)[idx])
        ti = float(np.broadcast_to(t, x.shape)[idx])
        wi = 1.0 if w is None else float(np.broadcast_to(w, x.shape)[idx])
        xi = float(x[idx])
        v = gi * wi * (xi - ti) / (xi * (1 - xi))
        out[idx] = v / n if reduction == 1 else v
    return out


@pytest.mark.parametrize("seed", range(12))
def test_bce_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    shape = tuple(rng.integers(1, 4, size=rng.integers(0, 4)))
    x = rng.uniform(0.01, 0.99, shape)
    t, g = rng.uniform(0, 1, shape[-1:]), rng.standard_normal(shape[1:])  # both broadcast to x
    w = None if seed % 3 == 0 else rng.standard_normal(shape)
    reduction = seed % 3
    args = {"gradOutput": g, "self": x, "target": t, "weightOptional": w, "reduction": reduction}
    golden = binary_cross_entropy_backward(args)["out"]
    np.testing.assert_allclose(golden.value, _bce_brute(g, x, t, w, reduction), rtol=1e-13, atol=0)
    assert golden.value.shape == x.shape
    np.testing.assert_array_equal(golden.abs_sum, np.abs(golden.value))
    assert golden.count.tolist() == 1


def test_bce_sample_program():
    ones = np.ones((2, 2))
    args = {"gradOutput": ones * 0.1, "self": ones * 0.3, "target": ones * 0.5, "weightOptional": ones,
            "reduction": 0}
    value = binary_cross_entropy_backward(args)["out"].value
    np.testing.assert_allclose(value, np.full((2, 2), 0.1 * (0.3 - 0.5) / (0.3 * 0.7)), rtol=1e-15)
    assert round(float(value[0, 0]), 4) == -0.0952


def test_bce_mean_divides_by_self_numel_and_sum_does_not():
    args = {"gradOutput": np.array(2.0), "self": np.full((2, 3), 0.5), "target": np.zeros(3),
            "weightOptional": None, "reduction": 2}
    assert binary_cross_entropy_backward(args)["out"].value.tolist() == [[4.0] * 3] * 2
    args["reduction"] = 1
    np.testing.assert_allclose(binary_cross_entropy_backward(args)["out"].value, np.full((2, 3), 4 / 6))


def test_bce_edges_are_ieee_and_bad_reductions_raise():
    args = {"gradOutput": np.ones(3), "self": np.array([0.0, 1.0, 0.5]), "target": np.array([0.5, 0.5, 0.5]),
            "weightOptional": None, "reduction": 0}
    assert binary_cross_entropy_backward(args, bounds=False)["out"].value.tolist() == [-np.inf, np.inf, 0.0]
    with pytest.raises(ValueError, match="reduction 3"):
        binary_cross_entropy_backward({**args, "reduction": 3})
