"""The oracle's memo keys: a case and its materialized copy (each view MARGIN elements into its
storage) share one answer where no clause can see an offset, and only there."""
from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import RP, rp_case, t

from conformance.cases import oracle
from conformance.cases.materialize import MARGIN, materialize
from conformance.cases.oracle_memo import _reads_offset, memo_key, sees_offsets
from conformance.spec.expressions import Expression

NAMES = frozenset({"x", "y", "n"})


@pytest.mark.parametrize(("text", "sees"), [
    ("x.shape == y.shape and x.rank > n", False),
    ("x.offset + y.offset == 0", True),
    ("present(x)", True),          # a failing clause shows x whole, offset included
    ("x == y", True),              # whole tensors compared
    ("x", True),
    ("n > 1 and x.contiguous", False),
])
def test_an_expression_sees_an_offset_where_it_reads_one_or_a_whole_tensor(text, sees):
    assert _reads_offset(Expression(text, NAMES).tree, {"x", "y"}) is sees


def test_which_shipped_specs_see_offsets(specs):
    # BCE's weight clause names weightOptional whole (present(weightOptional)); the pads read
    # shapes, dtypes, ranks and strides only
    assert sees_offsets(specs.operator("aclnnBinaryCrossEntropyBackward"))
    assert not sees_offsets(specs.operator(RP))
    assert not sees_offsets(specs.operator("aclnnMseLossBackward"))  # value_in on an int attr


@pytest.mark.parametrize("case", [
    rp_case(),
    rp_case(gradOutput=t((2, 3, 7, 8, 9), strides=(1008, 336, 48, 6, 1), offset=3)),  # a view, 3 in
    rp_case(padding=(1, 2, 1, 2, 1)),                                                  # breaks a length
    rp_case(gradInput=t((2, 3, 4, 5, 7))),                                             # breaks a shape
])
def test_a_materialized_case_shares_the_answer_of_its_drawn_case(specs, case):
    spec = specs.operator(RP)
    m = materialize(case, specs, seed=1)
    metas = oracle.arg_metas(m.case, specs)
    assert metas["self"].offset == case.args["self"].offset + MARGIN
    assert memo_key(spec, "atlas-a2", metas) == memo_key(spec, "atlas-a2", oracle.arg_metas(case, specs))
    fresh = oracle.judge_metas(spec, "atlas-a2", metas)  # (judged anew: no memo)
    assert oracle.explain(m.case, specs) == oracle.explain(case, specs) == fresh


def test_offsets_stay_in_the_key_of_a_spec_that_sees_them(specs):
    spec = specs.operator("aclnnBinaryCrossEntropyBackward")
    names = {"self": t((2, 3)), "target": t((2, 3)), "weightOptional": t((2, 3)), "reduction": 1}
    moved = {**names, "weightOptional": replace(names["weightOptional"], offset=MARGIN)}
    assert memo_key(spec, "atlas-a2", names) != memo_key(spec, "atlas-a2", moved)
