"""The BCE (and NLL) golden models against brute force: one Python float loop per element, written
from the pages' formulas, on random shapes, broadcasts, weights and reductions."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from reference.binary_cross_entropy import binary_cross_entropy_backward
from reference.nll_loss import nll_loss_backward


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


# -- NLL ---------------------------------------------------------------------------------------
def _nll_brute(g, x_shape, t, w, reduction, ignore, total):
    rows, classes = (x_shape if len(x_shape) == 2 else (1, x_shape[0]))
    t = np.asarray(t).reshape(rows)
    g = np.asarray(g, np.float64).reshape(-1)
    out = [[0.0] * classes for _ in range(rows)]
    for i in range(rows):
        ti = int(t[i])
        if ti == ignore or not 0 <= ti < classes:
            continue
        gi = float(g[i]) if reduction == 0 and len(x_shape) == 2 else float(g[0])
        v = -gi * float(w[ti])
        out[i][ti] = v / float(np.asarray(total).reshape(-1)[0]) if reduction == 1 else v
    return np.array(out).reshape(x_shape)


@pytest.mark.parametrize("seed", range(12))
def test_nll_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    batched, reduction = seed % 2 == 0, seed % 3
    n, c = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    x_shape = (n, c) if batched else (c,)
    t = rng.integers(0, c, size=(n,) if batched else ()).astype([np.int64, np.int32, np.uint8][seed % 3])
    g = rng.standard_normal((n,) if batched and reduction == 0 else ((1,) if seed % 4 else ()))
    w, total = rng.standard_normal(c), rng.uniform(0.5, 3, (1,))
    ignore = int(rng.integers(-1, c))
    args = {"gradOutput": g, "self": np.zeros(x_shape), "target": t, "weight": w, "reduction": reduction,
            "ignoreIndex": ignore, "totalWeight": total}
    golden = nll_loss_backward(args)["out"]
    np.testing.assert_allclose(golden.value, _nll_brute(g, x_shape, t, w, reduction, ignore, total),
                               rtol=1e-15, atol=0)
    np.testing.assert_array_equal(golden.abs_sum, np.abs(golden.value))


def test_nll_sample_program():
    args = {"gradOutput": np.array([3.1, 6.5]), "self": np.arange(6.0).reshape(2, 3),
            "target": np.array([0, 2], np.int32), "weight": np.array([1.1, 1.2, 1.3]), "reduction": 0,
            "ignoreIndex": -100, "totalWeight": np.array([0.0])}
    value = nll_loss_backward(args)["out"].value
    np.testing.assert_allclose(value, [[-3.41, 0, 0], [0, 0, -8.45]], rtol=1e-15)


def test_nll_ignored_and_out_of_range_targets_get_no_gradient():
    args = {"gradOutput": np.array(2.0), "self": np.zeros((3, 2)), "target": np.array([1, 0, 7]),
            "weight": np.array([1.0, 3.0]), "reduction": 1, "ignoreIndex": 0, "totalWeight": np.array([4.0])}
    assert nll_loss_backward(args)["out"].value.tolist() == [[0, -1.5], [0, 0], [0, 0]]
    with pytest.raises(ValueError, match="reduction 3"):
        nll_loss_backward({**args, "reduction": 3})
