"""What a run works out once and reuses: the data of a determinism re-run (replica), the
oracle's expectation, a reference function's answer, the chooser's strategies. Each must give
what computing it again gives, and tell apart arguments that differ."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import kl_case, rp_case, t

from conformance.cases import oracle
from conformance.cases.materialize import materialize, replica
from conformance.cases.oracle_memo import memo_key
from conformance.check.guards import same_bits
from conformance.generate.choosers import _integers, _sampled
from conformance.spec.reference_loader import reference_function


def test_replica_has_the_bytes_a_fresh_materialization_has(specs):
    # a strided view with an offset, and special values: every storage byte, guards included
    case = rp_case(gradOutput=t((2, 3, 6, 8, 9), strides=(900, 300, 50, 6, 1), offset=5))
    first = materialize(case, specs, seed=7, regime="special")
    first.case.args["gradOutput"].array[...] = 0  # what a backend writing its input would do
    again, fresh = replica(first), materialize(case, specs, seed=7, regime="special")
    for name, tensor in fresh.case.args.items():
        if hasattr(tensor, "storage"):
            copy = again.case.args[name]
            assert same_bits(copy.storage, tensor.storage)
            assert copy.array.shape == tensor.array.shape and copy.array.strides == tensor.array.strides
            assert same_bits(copy.array, tensor.array) and copy.offset == tensor.offset
            assert not np.shares_memory(copy.storage, first.case.args[name].storage)
    assert again.before == fresh.before and np.isnan(again.case.args["gradOutput"].array).any()


def test_the_oracle_remembers_per_argument_kind(specs):
    valid, odd = kl_case(reduction=1), kl_case(reduction=True)  # True is not the int 1 to a clause
    assert oracle.explain(valid, specs) is oracle.explain(kl_case(reduction=1), specs)
    assert memo_key(specs.operator(valid.api), "atlas-a2", valid.args) != \
        memo_key(specs.operator(odd.api), "atlas-a2", odd.args)
    assert oracle.explain(odd, specs).expected == oracle.judge_metas(
        specs.operator(odd.api), "atlas-a2", oracle.arg_metas(odd, specs)).expected


def test_a_reference_function_answers_again_only_for_other_values(specs, monkeypatch):
    fn = reference_function(specs.operator("aclnnReplicationPad3dBackward"))
    calls: list[bool] = []
    inner = fn.fn
    monkeypatch.setattr(fn, "fn", lambda args, bounds: calls.append(bounds) or inner(args, bounds=bounds))
    monkeypatch.setattr(fn, "known", [])
    m = materialize(rp_case(), specs, seed=2)
    golden = fn(m.case.args, bounds=True)["gradInput"]
    value = fn(replica(m).case.args, bounds=False)["gradInput"]  # same bytes, other buffers
    assert calls == [True] and not value.has_bounds and value.value is golden.value
    assert not golden.value.flags.writeable and golden.has_bounds
    changed = replica(m)
    changed.case.args["gradOutput"].array.flat[3] += 1
    other = fn(changed.case.args, bounds=False)["gradInput"]
    assert calls == [True, False] and not same_bits(other.value, golden.value)
    with pytest.raises(TypeError):  # 2.0 is not 2: asked again (and refused: a float padding)
        fn(dict(m.case.args, padding=(1, 2, 1, 2, 1, 2.0)), bounds=False)
    assert calls == [True, False, False]


def test_the_chooser_reuses_strategies_of_plain_options_only():
    assert _sampled(["FLOAT", "FLOAT16"]) is _sampled(("FLOAT", "FLOAT16"))
    assert _sampled(["FLOAT", "FLOAT16"]) is not _sampled(["FLOAT16", "FLOAT"])
    assert _integers(0, 7) is _integers(0, 7) is not _integers(0, 8)
    assert _sampled([1, 2]) is not _sampled([True, 2])  # equal keys, other options: never shared
    mixed = [{"a": 1}, {"a": 2}]
    assert _sampled(mixed) is not _sampled(mixed)  # unhashable options: a new strategy each time
