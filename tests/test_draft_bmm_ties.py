"""Rows on a batched matrix product and the tensor added to it (bmm_ties.py: the Baddbmm and Addbmm
families, self + batch1@batch2). Until read, batch1, batch2, self and out were drawn apart, so
nearly every valid case was one a kernel refuses. On invented pages in the vendor's layout
(tests/fixtures/bmm_pages: a batched product with out, and an in-place one summed over the batch),
drafted here, and against backends right in their own way (numpy's matmul and broadcast; the
batches' products summed and added in place) and wrong ones."""
from __future__ import annotations

from pathlib import Path

import pytest
from bmm_backends import (
    AccUnchecked,
    BatchUnchecked,
    EmptyUnchecked,
    FitUnchecked,
    batch_add_refused,
    sum_add_refused,
)
from helpers import (
    assert_caught_alone,
    assert_clean_pass,
    by_quote,
    drafted_pack_fixture,
    drafted_spec,
    drafted_specs_fixture,
    oracle_quick,
)

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "bmm_pages"
BACKENDS = Path(__file__).with_name("bmm_backends.py")
BATCHED, SUMMED = "aclnnToyBatchAdd", "aclnnInplaceToySumAdd"
REFUSED = {BATCHED: batch_add_refused, SUMMED: sum_add_refused}
NAMES = ("self", "selfRef", "batch1", "batch2", "out")

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


@pytest.mark.parametrize(("text", "tie"), [
    ("self不能与batch1@batch2做broadcast操作", ("broadcast", "self", "batch1", "batch2")),
    ("selfRef不能与batch1@batch2做broadcast操作", ("broadcast", "selfRef", "batch1", "batch2")),
    ("batch1和batch2的第一维度不相等", ("batch", "batch1", "batch2")),
    ("batch1和batch2的第一维度不相等或不能做broadcast操作", ("batch", "batch1", "batch2")),
    ("self与batch1@batch2必须同时为空tensor或同时不为空tensor", ("empty", "self", "batch1", "batch2")),
])
def test_the_vendor_phrasings(text, tie):
    found = match(text, NAMES)
    assert (found.pattern, found.limits["bmm"]) == ("batched product", tie)


def test_the_rows_read_and_the_in_place_empty_row_left_for_a_person(drafted):
    """In place the tensor is the product's shape: a product empty beside it not empty breaks the
    broadcast row too, so the empty row cannot be broken alone."""
    batched, summed = by_quote(drafted_spec(drafted, BATCHED)), by_quote(drafted_spec(drafted, SUMMED))
    product = "[lhs.shape[0], lhs.shape[1], rhs.shape[2]]"
    assert batched["acc不能与lhs@rhs做broadcast"]["all"] == [  # (acc broadcasts to the product)
        f"lhs.rank != 3 or rhs.rank != 3 or broadcastable(acc.shape, {product}) and "
        f"broadcast(acc.shape, {product}) == {product}"]
    assert summed["selfRef不能和batch1@batch2做broadcast操作"]["all"] == [
        "batch1.rank != 3 or batch2.rank != 3 or "
        "broadcastable(selfRef.shape, [batch1.shape[1], batch2.shape[2]])"
        " and broadcast(selfRef.shape, [batch1.shape[1], batch2.shape[2]]) == selfRef.shape"]
    assert summed["batch1和batch2的第1维度不一致"]["all"] == [
        "batch1.rank != 3 or batch2.rank != 3 or batch1.shape[0] == batch2.shape[0]"]
    empty = "selfRef和batch1@batch2必须同时为空tensor或同时不为空tensor"
    assert summed[empty]["kind"] == "review"
    assert batched["acc和lhs@rhs必须同时为空tensor或同时不为空tensor"]["kind"] == "expr"
    draws = drafted_spec(drafted, SUMMED)["generate"]["draws"]
    assert draws["batch2_bmm_shape"] == {  # (the batch a's; k the k row's tie of it)
        "expr": "[batch1_shape[0]] + batch2_tied_shape[1:-1] + [batch2_tied_shape[-1]]"}
    assert draws["selfRef_bmm_shape"] == {"expr": "[batch1_shape[1], batch2_bmm_shape[2]]"}


@pytest.mark.parametrize("api", [BATCHED, SUMMED])
def test_valid_cases_are_numpys_and_each_break_breaks_its_row_alone(specs, api):
    spec = specs.operator(api)
    for seed in range(40):
        case = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", SeededChooser(seed))
        assert not REFUSED[api](case.args)
        assert explain(case, specs).expected == "success"
    mine = [c for c in spec.constraints if "BMM" in c.id]
    assert len(mine) == (2 if api == BATCHED else 2)
    for c in mine:
        choosers = [FixedChooser("min"), FixedChooser("max"), *(SeededChooser(seed) for seed in range(10))]
        for ch in choosers:
            cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", ch, c.id)
            assert cases and all(breaks_only(explain(k, specs), c.id) for k in cases), (c.id, ch)
            assert all(REFUSED[api](k.args) for k in cases), (c.id, ch)  # (numpy refuses each)


@pytest.mark.parametrize(("api", "backend"), [(BATCHED, "NumpyBatchAdd"), (SUMMED, "NumpySumAdd")])
def test_backends_multiplying_right_pass(drafted, specs, api, backend, tmp_path):
    report = oracle_quick(drafted, api, tmp_path, f"{BACKENDS}:{backend}", max_examples=8)
    for c in specs.operator(api).constraints:
        if "BMM" in c.id:
            assert_clean_pass(report, c.id, 8)


@pytest.mark.parametrize(("api", "backend"), [(BATCHED, AccUnchecked), (BATCHED, EmptyUnchecked),
                                              (SUMMED, BatchUnchecked), (SUMMED, FitUnchecked)])
def test_a_backend_with_the_bug_planted_is_caught_on_its_row_alone(drafted, specs, api, backend, tmp_path):
    report = oracle_quick(drafted, api, tmp_path, f"{BACKENDS}:{backend.__name__}", max_examples=8)
    cid = next(c.id for c in specs.operator(api).constraints if c.source.quote == backend.row)
    assert_caught_alone(report, cid)
