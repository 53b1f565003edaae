"""The oracle against CONTRACT.md, clause by clause, for aclnnKlDivBackward."""
from __future__ import annotations

import pytest
from helpers import clauses, kl_case, t

from conformance.cases.oracle import explain

INVALID, NULLPTR = 161002, 161001


def test_worked_example_is_valid(specs):
    e = explain(kl_case((2, 2)), specs)
    assert (e.expected, e.status) == ("success", ())


@pytest.mark.parametrize("name", ["gradOutput", "self", "target", "out"])
def test_null_pointer(specs, name):
    e = explain(kl_case(**{name: None}), specs)
    assert (e.expected, e.status, clauses(e)) == ("error", (NULLPTR,), ["KL-NULL"])


@pytest.mark.parametrize("product", ["atlas-training", "atlas-inference", "atlas-a2", "atlas-a3"])
def test_supported_everywhere(specs, product):
    assert explain(kl_case(product=product), specs).expected == "success"


@pytest.mark.parametrize("product,dtype,ok", [
    ("atlas-training", "BFLOAT16", False), ("atlas-inference", "BFLOAT16", False),
    ("atlas-a2", "BFLOAT16", True), ("atlas-a3", "BFLOAT16", True), ("atlas-inference", "FLOAT16", True),
    ("atlas-a2", "DOUBLE", False), ("atlas-training", "COMPLEX64", False)])
def test_dtype_per_product(specs, product, dtype, ok):
    e = explain(kl_case(dtype=dtype, product=product), specs)
    assert e.expected == ("success" if ok else "error")
    if not ok:
        assert (e.status, clauses(e)) == ((INVALID,), ["KL-DTYPE"])


def test_inputs_may_differ_in_dtype(specs):
    e = explain(kl_case(gradOutput=t((2, 3, 4), "FLOAT16"), target=t((2, 3, 4), "BFLOAT16")), specs)
    assert e.expected == "success"


def test_out_dtype_follows_self(specs):
    e = explain(kl_case(out=t((2, 3, 4), "FLOAT16")), specs)
    assert (e.status, clauses(e)) == ((INVALID,), ["KL-DTYPE-OUT"])
    assert e.violations[0].message == "out.dtype=FLOAT16 must equal self.dtype=FLOAT"


@pytest.mark.parametrize("target_shape,ok", [((2, 1, 4), True), ((5, 2, 3, 4), True), ((4,), True),
                                             ((2, 2, 4), False), ((3,), False)])
def test_target_broadcast(specs, target_shape, ok):
    e = explain(kl_case(target_shape=target_shape), specs)
    assert e.expected == ("success" if ok else "error")
    if not ok:
        assert (e.status, clauses(e)) == ((INVALID,), ["KL-BCAST-TARGET"])


@pytest.mark.parametrize("grad_shape,ok", [((1,), True), ((), True), ((3, 1), True), ((2, 3, 4), True),
                                           ((5, 2, 3, 4), False), ((2, 3, 5), False)])
def test_grad_output_may_not_enlarge(specs, grad_shape, ok):
    e = explain(kl_case(grad_shape=grad_shape), specs)
    if grad_shape == ():
        assert e.expected == "unspecified"  # 0-d tensors are not documented
        return
    assert e.expected == ("success" if ok else "error")
    if not ok:
        assert (e.status, clauses(e)) == ((INVALID,), ["KL-BCAST-GRAD"])


def test_grad_output_broadcasts_against_larger_target(specs):
    assert explain(kl_case((3, 4), target_shape=(2, 3, 4), grad_shape=(2, 1, 4)), specs).expected == "success"


def test_out_shape(specs):
    e = explain(kl_case(out=t((2, 3, 5))), specs)
    assert (e.status, clauses(e)) == ((INVALID,), ["KL-SHAPE-OUT"])


@pytest.mark.parametrize("rank,ok", [(8, True), (9, False)])
def test_rank_limit(specs, rank, ok):
    e = explain(kl_case((1,) * rank), specs)
    assert e.expected == ("success" if ok else "error")
    if not ok:
        assert (e.status, clauses(e)) == ((INVALID,), ["KL-RANK"])


@pytest.mark.parametrize("reduction", [0, 1, 2, 3])
def test_documented_reductions(specs, reduction):
    assert explain(kl_case(reduction=reduction), specs).expected == "success"


@pytest.mark.parametrize("reduction", [-1, 4])
def test_other_reductions_unspecified(specs, reduction):
    e = explain(kl_case(reduction=reduction), specs)
    assert (e.expected, [v.clause for v in e.unspecified]) == ("unspecified", ["KL-REDUCTION"])
    assert e.unspecified[0].message == f"reduction={reduction} is not one of 0, 1, 2, 3"


def test_empty_self_valid(specs):
    assert explain(kl_case((0, 3)), specs).expected == "success"
    assert explain(kl_case((2, 0, 4)), specs).expected == "success"


def test_non_contiguous_documented(specs):
    e = explain(kl_case((3, 4), self=t((3, 4), strides=(1, 3))), specs)
    assert e.expected == "success"


def test_non_nd_format_unspecified(specs):
    e = explain(kl_case(target=t((2, 3, 4), format="NCHW")), specs)
    assert (e.expected, [v.clause for v in e.unspecified]) == ("unspecified", ["KL-FORMAT"])


def test_error_wins_over_unspecified(specs):
    e = explain(kl_case(reduction=7, out=None), specs)
    assert (e.expected, e.status, clauses(e)) == ("error", (NULLPTR,), ["KL-NULL"])
    assert [v.clause for v in e.unspecified] == ["KL-REDUCTION"]
