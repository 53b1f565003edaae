"""Guard-filled storage and the byte-level checks, against the reference and small mutants."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import kl_case, rp_case, t

from conformance.backends.reference import ReferenceBackend
from conformance.cases.materialize import MARGIN, REGIMES, materialize
from conformance.check.guards import changed_inputs, out_of_bounds_writes, same_bits, touched_outputs

RP, KL = "aclnnReplicationPad3dBackward", "aclnnKlDivBackward"


def _call(backend, m):
    return backend.call(m.case.api, m.case.args)


def test_outputs_start_as_sentinel_inputs_have_data(specs):
    m = materialize(rp_case(), specs, seed=3)
    out = m.case.args["gradInput"]
    assert np.isnan(out.storage).all()
    grad = m.case.args["gradOutput"]
    assert grad.offset == MARGIN and np.isfinite(grad.array).all() and grad.array.std() > 0.5


def test_same_seed_same_data(specs):
    a = materialize(kl_case((8, 16)), specs, seed=11, regime="special").case.args["target"].array
    b = materialize(kl_case((8, 16)), specs, seed=11, regime="special").case.args["target"].array
    assert same_bits(a, b) and np.isnan(a).any()


@pytest.mark.parametrize("regime", REGIMES)
def test_regimes_fill_every_dtype(specs, regime):
    for dtype in ("FLOAT16", "BFLOAT16", "FLOAT", "DOUBLE", "COMPLEX64"):
        m = materialize(rp_case(dtype=dtype), specs, seed=1, regime=regime)
        assert m.case.args["gradOutput"].array.dtype == specs.vocabulary.dtypes[dtype].numpy


def test_reference_passes_every_guard(specs):
    m = materialize(kl_case((3, 4), self=t((3, 4), strides=(1, 3)), out=t((3, 4), strides=(1, 3))), specs)
    assert _call(ReferenceBackend(product="atlas-a2"), m).status == 0
    assert changed_inputs(m, specs.operator(KL)) == []
    assert out_of_bounds_writes(m, specs.operator(KL)) == {}
    assert not np.isnan(m.case.args["out"].array).any()


def test_clobbered_input_is_caught(specs):
    m = materialize(rp_case(), specs)
    m.case.args["gradOutput"].array[0, 0, 0, 0, 0] += 1
    assert changed_inputs(m, specs.operator(RP)) == ["gradOutput"]


def test_write_outside_view_is_counted(specs):
    m = materialize(kl_case((2, 3)), specs)
    m.case.args["out"].storage[MARGIN - 1] = 0.0
    m.case.args["out"].storage[-1] = 0.0
    assert out_of_bounds_writes(m, specs.operator(KL)) == {"out": 2}


def test_strided_view_gaps_count_as_outside(specs):
    m = materialize(kl_case((2, 3), out=t((2, 3), strides=(6, 2))), specs)
    storage = m.case.args["out"].storage
    storage[MARGIN + 1] = 0.0  # the gap between two elements of the first row
    assert out_of_bounds_writes(m, specs.operator(KL)) == {"out": 1}


def test_output_touched_on_error(specs):
    m = materialize(rp_case(padding=(9, 0, 0, 0, 0, 0)), specs)
    assert _call(ReferenceBackend(product="atlas-a2"), m).status == 161002
    assert touched_outputs(m, specs.operator(RP)) == []
    m.case.args["gradInput"].array[...] = 0
    assert touched_outputs(m, specs.operator(RP)) == ["gradInput"]


def test_same_bits_sees_negative_zero():
    assert same_bits(np.array([0.0]), np.array([0.0]))
    assert not same_bits(np.array([0.0]), np.array([-0.0]))


def _with_inout(specs, api: str, name: str):
    """``specs`` with ``name`` of ``api`` updated in place (role inout), as a drafted selfRef is."""
    from dataclasses import replace

    from conformance.spec.model import SpecSet

    spec = specs.operator(api)
    spec = replace(spec, params={**spec.params, name: replace(spec.params[name], role="inout")})
    return SpecSet(specs.vocabulary, {**specs.operators, api: spec}, specs.version, specs.digest)


def test_an_inout_tensor_has_data_may_change_and_is_guarded_like_an_output(specs):
    inout = _with_inout(specs, KL, "self")
    m = materialize(kl_case((2, 3)), inout, seed=5)
    data = m.case.args["self"]
    assert np.isfinite(data.array).all() and data.array.std() > 0  # read: it has data, no sentinel
    data.array[0, 0] += 1  # written in place: no inputs-unchanged claim on it
    assert changed_inputs(m, inout.operator(KL)) == [] and changed_inputs(m, specs.operator(KL)) == ["self"]
    assert touched_outputs(m, inout.operator(KL)) == ["self"]  # ... but a rejected call must leave it
    data.storage[-1] = 0.0
    assert out_of_bounds_writes(m, inout.operator(KL)) == {"self": 1}
