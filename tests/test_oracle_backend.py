"""The built-in ``oracle`` backend: the reference's status codes, no numbers computed."""
from __future__ import annotations

import numpy as np
from helpers import kl_case

from conformance.backends.loading import load_backend
from conformance.backends.reference import OracleBackend, ReferenceBackend
from conformance.cases.materialize import materialize


def _call(backend, case, specs, **null):
    m = materialize(case, specs, seed=3)
    args = dict(m.case.args, **null)
    return backend.call(case.api, args, case.product), args


def test_the_oracle_answers_as_the_reference_and_writes_zeros(specs):
    oracle, reference = OracleBackend(specs), ReferenceBackend(specs)
    assert isinstance(load_backend("oracle"), OracleBackend) and load_backend("oracle").name == "oracle"
    case = kl_case(reduction=1)
    got, args = _call(oracle, case, specs)
    want, golden = _call(reference, case, specs)
    assert (got.status, got.phase) == (want.status, want.phase) == (0, 2)
    assert np.all(args["out"].array == 0) and np.any(golden["out"].array != 0)
    for bad in (kl_case(reduction=7), kl_case(dtype="INT8"), kl_case(product="atlas-200i-500-a2")):
        got, want = _call(oracle, bad, specs)[0], _call(reference, bad, specs)[0]
        assert (got.status, got.phase) == (want.status, want.phase) and got.status != 0
    got, _ = _call(oracle, case, specs, self=None)
    assert got.status == specs.vocabulary.status_codes["ACLNN_ERR_PARAM_NULLPTR"] and got.phase == 1


def test_the_oracle_runs_every_operator(specs):
    assert OracleBackend(specs).missing_operators == {}
