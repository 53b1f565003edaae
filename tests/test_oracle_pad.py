"""The oracle against CONTRACT.md, clause by clause, for aclnnReplicationPad3dBackward."""
from __future__ import annotations

import pytest
from helpers import clauses, rp_case, t

from conformance.cases.oracle import explain

INVALID, NULLPTR = 161002, 161001


def test_worked_example_is_valid(specs):
    e = explain(rp_case((1, 1, 2, 2, 2), (1, 1, 1, 1, 1, 1)), specs)
    assert (e.expected, e.status, e.violations) == ("success", (), ())


@pytest.mark.parametrize("name", ["gradOutput", "self", "padding", "gradInput"])
def test_null_pointer(specs, name):
    e = explain(rp_case(**{name: None}), specs)
    assert (e.expected, e.status, clauses(e)) == ("error", (NULLPTR,), ["RP-NULL"])
    assert e.violations[0].message == f"{name} is a null pointer"


def test_not_applicable_on_inference(specs):
    e = explain(rp_case(product="atlas-inference"), specs)
    assert e.expected == "not-applicable"
    assert "not supported" in e.reason


@pytest.mark.parametrize("product,dtype,ok", [
    ("atlas-training", "BFLOAT16", False), ("atlas-a2", "BFLOAT16", True), ("atlas-a3", "BFLOAT16", True),
    ("atlas-training", "COMPLEX128", True), ("atlas-training", "FLOAT16", True),
    ("atlas-a2", "INT32", False), ("atlas-a3", "BOOL", False)])
def test_dtype_per_product(specs, product, dtype, ok):
    e = explain(rp_case(dtype=dtype, product=product), specs)
    if ok:
        assert e.expected == "success"
    else:
        assert (e.status, clauses(e)) == ((INVALID,), ["RP-DTYPE"])
        assert len(e.violations) == 3  # each of the three tensors is named


def test_dtype_mismatch(specs):
    e = explain(rp_case(gradInput=t((2, 3, 4, 5, 6), "FLOAT16")), specs)
    assert (e.status, clauses(e)) == ((INVALID,), ["RP-DTYPE-SAME"])
    assert e.violations[0].message == "gradInput.dtype=FLOAT16 must equal gradOutput.dtype=FLOAT"


def test_format(specs):
    e = explain(rp_case(self=t((2, 3, 4, 5, 6), format="NCDHW")), specs)
    assert (e.status, clauses(e)) == ((INVALID,), ["RP-FORMAT"])


@pytest.mark.parametrize("rank,ok", [(3, False), (4, True), (5, True), (6, False)])
def test_rank_boundaries(specs, rank, ok):
    shape = (2, 3, 4, 5, 6, 7)[-rank:]
    e = explain(rp_case(shape), specs)
    assert e.expected == ("success" if ok else "error")
    if not ok:
        assert (e.status, clauses(e)) == ((INVALID,), ["RP-RANK"])


def test_mixed_ranks(specs):
    e = explain(rp_case((2, 3, 4, 5, 6), gradInput=t((3, 4, 5, 6))), specs)
    assert "RP-RANK" in clauses(e) and e.status == (INVALID,)
    assert any("must equal gradOutput.rank=5" in v.message for v in e.violations)


def test_self_and_grad_input_shape(specs):
    e = explain(rp_case(gradInput=t((2, 3, 4, 5, 7))), specs)
    assert (e.status, clauses(e)) == ((INVALID,), ["RP-SHAPE-IN"])


@pytest.mark.parametrize("length", [0, 5, 7])
def test_padding_length(specs, length):
    e = explain(rp_case(padding=(1,) * length), specs)
    assert (e.status, clauses(e)) == ((INVALID,), ["RP-PAD-LEN"])
    assert e.violations[0].message == f"len(padding)={length} must be 6"


@pytest.mark.parametrize("index,dim", [(0, -1), (1, -1), (2, -2), (3, -2), (4, -3), (5, -3)])
def test_padding_limit_boundary(specs, index, dim):
    shape = (2, 3, 4, 5, 6)
    n = shape[dim]
    pad = [0] * 6
    pad[index] = n - 1
    assert explain(rp_case(shape, pad), specs).expected == "success"
    pad[index] = n
    e = explain(rp_case(shape, pad), specs)
    assert (e.status, clauses(e)) == ((INVALID,), ["RP-PAD-LIMIT"])
    assert e.violations[0].message == f"padding[{index}]={n} must be < self.shape[{dim}]={n}"


def test_grad_output_shape(specs):
    e = explain(rp_case(gradOutput=t((2, 3, 7, 8, 10))), specs)
    assert (e.status, clauses(e)) == ((INVALID,), ["RP-SHAPE-OUT"])
    messages = [v.message for v in e.violations]
    assert messages == ["gradOutput.shape[-1]=10 must be == self.shape[-1] + padding[0] + padding[1]=9"]


def test_grad_output_batch_dims(specs):
    e = explain(rp_case(gradOutput=t((3, 3, 7, 8, 9))), specs)
    assert clauses(e) == ["RP-SHAPE-OUT"]
    assert e.violations[0].message == "gradOutput.shape[:-3]=[3, 3] must be == self.shape[:-3]=[2, 3]"


def test_empty_first_dim_valid_other_dim_invalid(specs):
    assert explain(rp_case((0, 3, 4, 5, 6)), specs).expected == "success"
    e = explain(rp_case((2, 0, 4, 5, 6)), specs)
    assert (e.status, clauses(e)) == ((INVALID,), ["RP-EMPTY"])


def test_several_clauses_accept_every_code(specs):
    e = explain(rp_case(padding=(1, 1), gradInput=None), specs)
    assert e.status == (NULLPTR, INVALID)
    assert clauses(e) == ["RP-NULL", "RP-PAD-LEN"]


def test_negative_padding_is_unspecified(specs):
    e = explain(rp_case(padding=(-1, 0, 0, 0, 0, 0)), specs)
    assert e.expected == "unspecified"
    assert [v.clause for v in e.unspecified] == ["RP-PAD-NEGATIVE"]


def test_non_contiguous_is_unspecified(specs):
    e = explain(rp_case(self=t((2, 3, 4, 5, 6), strides=(360, 120, 1, 24, 4))), specs)
    assert (e.expected, [v.clause for v in e.unspecified]) == ("unspecified", ["RP-NONCONTIGUOUS"])


def test_large_is_advisory_not_failure(specs):
    e = explain(rp_case((1, 1, 1024, 1024, 301), (0,) * 6), specs)
    assert e.expected == "success"
    assert [v.clause for v in e.advisories] == ["RP-LARGE"]
