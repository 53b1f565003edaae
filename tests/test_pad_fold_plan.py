"""The padding fold's plans (reference/pad_backward.py) are worked out once per axis map and
shared: a fold from a remembered plan is the fold from a new one, bit for bit, and nothing a
call returns can change a shared plan."""
from __future__ import annotations

import numpy as np
import pytest

from reference.pad_backward import (
    _axis_map,
    _fold,
    _fold_plan,
    _reflect,
    _replicate,
    reflection_pad3d_backward,
)


@pytest.mark.parametrize(("mapping", "pads"), [(_reflect, [(2, 1), (0, 3)]),
                                               (_replicate, [(-1, 4), (3, -2)])])  # (cropped)
def test_a_remembered_plan_folds_as_a_new_one(mapping, pads):
    in_shape = (3, 5, 6)
    rng = np.random.default_rng(11)
    maps = [_axis_map(mapping, n, b, a) for n, (b, a) in zip(in_shape[1:], pads)]
    grads = [rng.standard_normal((3, *(m.size for m in maps))) for _ in range(2)]
    _fold_plan.cache_clear()
    first = [_fold(g, 1, maps, in_shape) for g in grads]  # the second from the remembered plans
    assert _fold_plan.cache_info().hits >= len(maps)
    _fold_plan.cache_clear()
    again = _fold(grads[1], 1, maps, in_shape)  # from new plans
    assert again.tobytes() == first[1].tobytes() and first[0].tobytes() != first[1].tobytes()


def test_shared_maps_and_positions_are_read_only():
    idx = _axis_map(_reflect, 4, 1, 2)
    assert idx.tolist() == [1, 0, 1, 2, 3, 2, 1] and not idx.flags.writeable
    targets, _ = _fold_plan(idx.tobytes(), 4)
    assert not targets.flags.writeable
    args = {"gradOutput": np.ones((1, 1, 4, 5, 7)), "self": np.zeros((1, 1, 2, 3, 4)),
            "padding": (1, 2, 1, 1, 1, 1)}
    golden = reflection_pad3d_backward(args)["gradInput"]
    assert golden.count.flags.writeable and golden.count.sum() == 4 * 5 * 7  # (every term counted once)
