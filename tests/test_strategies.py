"""Cases drawn from the specs: valid ones are valid, invalid ones break exactly their clause, and
the boundary phase holds every documented limit on both sides."""
from __future__ import annotations

import pytest
from helpers import KL, RP
from hypothesis import HealthCheck, given, settings

from conformance.cases.oracle import explain
from conformance.generate.strategies import boundary_cases, breakable, invalid_cases, valid_cases

FAST = settings(max_examples=40, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _items(specs, outcome=None):
    for api in (RP, KL):
        spec = specs.operator(api)
        for product in spec.products:
            if outcome is None:
                for dtype in spec.dtypes_for(product, spec.params_of("tensor")[0]):
                    yield api, product, dtype
            else:
                for clause in breakable(spec, outcome):
                    yield api, product, clause


def _broken(e):
    return {v.clause for v in e.violations + e.unspecified}


@pytest.mark.parametrize("api,product,dtype", list(_items(__import__("conformance").shipped_specs())))
def test_valid_cases_break_nothing(specs, api, product, dtype):
    seen = set()

    @FAST
    @given(valid_cases(specs, api, product, dtype))
    def check(drawn):
        e = explain(drawn.case, specs)
        assert not e.violations, e.reason
        if api == KL:  # every view is documented for KL: all its valid cases are plain successes
            assert e.expected == "success", e.reason
        else:  # RP: only the undocumented views make a valid case an unspecified probe
            assert _broken(e) <= {"RP-NONCONTIGUOUS"}
        seen.add(tuple(drawn.case.args["self"].shape) != ())
        assert drawn.regime in ("ordinary", "zeros", "special", "subnormal", "huge", "negative")

    check()
    assert seen == {True}


def _breaks_exactly(specs, api, product, clause):
    @settings(FAST, max_examples=15)
    @given(invalid_cases(specs, api, product, clause))
    def check(drawn):
        assert _broken(explain(drawn.case, specs)) == {clause}
        assert drawn.target == clause

    return check


@pytest.mark.slow
@pytest.mark.parametrize("outcome", ["error", "unspecified"])
def test_invalid_cases_break_exactly_their_clause(specs, outcome):
    for api, product, clause in _items(specs, outcome):
        _breaks_exactly(specs, api, product, clause)()


def test_every_coded_clause_has_a_strategy(specs):
    assert breakable(specs.operator(RP), "error") == [
        "RP-NULL", "RP-DTYPE", "RP-DTYPE-SAME", "RP-FORMAT", "RP-RANK", "RP-SHAPE-IN", "RP-PAD-LEN",
        "RP-PAD-LIMIT", "RP-SHAPE-OUT", "RP-EMPTY"]
    assert breakable(specs.operator(KL), "error") == [
        "KL-NULL", "KL-DTYPE", "KL-DTYPE-OUT", "KL-BCAST-TARGET", "KL-BCAST-GRAD", "KL-SHAPE-OUT",
        "KL-RANK"]
    assert breakable(specs.operator(KL), "unspecified") == ["KL-REDUCTION", "KL-ZERO-DIM", "KL-FORMAT"]


def _by_origin(cases):
    return {d.origin: d for d in cases}


def test_boundary_padding_limit_both_sides(specs):
    cases = boundary_cases(specs, RP, "atlas-a2")
    top = _by_origin(cases)["max FLOAT16"].case.args
    assert top["self"].shape == (5, 5, 5, 5, 5) and top["padding"] == (4,) * 6  # dim - 1: valid
    assert explain(_by_origin(cases)["max FLOAT16"].case, specs).expected == "success"
    limit = [d for d in cases if d.target == "RP-PAD-LIMIT"]
    assert len(limit) == 2
    for d in limit:  # one value exactly at its dim
        s, p = d.case.args["self"].shape, d.case.args["padding"]
        bounds = (s[-1], s[-1], s[-2], s[-2], s[-3], s[-3])
        assert [v - b for v, b in zip(p, bounds) if v >= b] == [0]


def test_boundary_ranks_and_empties(specs):
    cases = boundary_cases(specs, RP, "atlas-a2")
    ranks = {d.case.args["self"].rank for d in cases if d.case.args["self"] is not None}
    assert {3, 4, 5, 6} <= ranks
    empty_first = _by_origin(cases)["min FLOAT16 empty"].case
    assert empty_first.args["self"].shape[0] == 0 and explain(empty_first, specs).expected == "success"
    other = [d.case for d in cases if d.target == "RP-EMPTY"]
    assert other and all(c.args["self"].shape[1] == 0 for c in other)
    kl_ranks = {d.case.args["self"].rank for d in boundary_cases(specs, KL, "atlas-a2")
                if d.case.args["self"] is not None}
    assert {1, 8, 9} <= kl_ranks


def test_boundary_every_dtype_at_every_product(specs):
    for api in (RP, KL):
        spec = specs.operator(api)
        for product in spec.products:
            cases = boundary_cases(specs, api, product)
            rejected = {d.case.args["self"].dtype for d in cases if d.target in ("RP-DTYPE", "KL-DTYPE")}
            allowed = set(spec.dtypes_for(product, "self"))
            assert rejected == set(specs.vocabulary.dtypes) - allowed
            accepted = {d.case.args["self"].dtype for d in cases if d.origin.startswith("min ")}
            assert accepted == allowed
    training = boundary_cases(specs, RP, "atlas-training")
    bf16 = [d for d in training if d.target == "RP-DTYPE" and d.case.args["self"].dtype == "BFLOAT16"]
    assert bf16 and explain(bf16[0].case, specs).status == (161002,)


def test_boundary_includes_worked_examples(specs):
    examples = [d for d in boundary_cases(specs, KL, "atlas-a3") if d.origin.startswith("example")]
    assert len(examples) == 3 and examples[0].case.args["self"].shape == (2, 2)
    assert explain(examples[0].case, specs).expected == "success"


def test_valid_kl_cases_mix_the_dtypes_the_documents_allow(specs):
    """KL inputs may differ in dtype (out must equal self's): valid cases draw the mix, and the
    boundary phase has every other dtype of each untied group."""
    drawn = []

    @settings(max_examples=150, database=None, suppress_health_check=list(HealthCheck))
    @given(valid_cases(specs, KL, "atlas-a2", "FLOAT16"))
    def collect(d):
        drawn.append(d)

    collect()
    combos = {tuple(d.case.args[n].dtype for n in ("gradOutput", "self", "target")) for d in drawn}
    assert all(d.case.args["out"].dtype == d.case.args["self"].dtype for d in drawn)
    assert all(g == "FLOAT16" for g, _, _ in combos) and len(combos) > 3, combos
    assert all(explain(d.case, specs).expected == "success" for d in drawn)
    mixed = {d.origin for d in boundary_cases(specs, KL, "atlas-a2") if d.origin.startswith("mixed FLOAT16")}
    assert mixed == {"mixed FLOAT16 with self/out FLOAT", "mixed FLOAT16 with self/out BFLOAT16",
                     "mixed FLOAT16 with target FLOAT", "mixed FLOAT16 with target BFLOAT16"}
