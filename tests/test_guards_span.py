"""out_of_bounds_writes compares only the margins around a contiguous output view (dense_span),
and counts what the full element mask counts, whatever is written where."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import rp_case, t

from conformance.cases.materialize import MARGIN, dense_span, materialize, written_mask
from conformance.check.guards import out_of_bounds_writes


def _by_mask(m, name: str) -> int:
    storage = m.case.args[name].storage
    before = np.frombuffer(m.before[name], np.uint8).reshape(storage.size, storage.itemsize)
    after = storage.view(np.uint8).reshape(storage.size, storage.itemsize)
    return int(((before != after).any(axis=1) & ~written_mask(m.metas[name], storage.size)).sum())


@pytest.mark.parametrize("out", [
    t((2, 3, 4, 5, 6)),                                    # dense
    t((2, 3, 4, 5, 6), offset=5),                          # dense, 5 into its storage
    t((2, 1, 4, 5, 6), strides=(120, 7, 30, 6, 1)),        # a size-1 dim of any stride: still dense
    t((2, 3, 4, 5, 0)),                                    # empty: all of it is outside
    t((2, 3, 4, 5, 6), strides=(720, 240, 60, 12, 2)),     # strided: the gaps are outside too
])
def test_the_margins_count_as_the_mask_does(specs, out):
    m = materialize(rp_case(gradInput=out), specs, seed=4)
    storage = m.case.args["gradInput"].storage
    span = dense_span(out)
    start = out.offset + MARGIN
    assert span == ((start, start + out.numel) if out.contiguous else None)
    rng = np.random.default_rng(0)
    for k in (0, 1, 3, storage.size):
        storage[rng.choice(storage.size, k, replace=False)] = 7.0  # some margin, gap or view elements
        want = _by_mask(m, "gradInput")
        assert out_of_bounds_writes(m, specs.operator(m.case.api)).get("gradInput", 0) == want
    assert want == storage.size - written_mask(out, storage.size).sum() > 0  # (the last wrote all)
