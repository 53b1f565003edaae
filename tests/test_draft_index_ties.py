"""Error rows tying an index-style operator's shapes along its dim attribute (index_ties.py,
index_draws.py, index_phrasings.py): the source's size at dim is the index's element count, the
other dimensions agree, index's sizes are bounded (at every dimension, or at all but dim), out is
self with dimension dim replaced by index's shape. The
fixture pages (tests/fixtures/index_pages) are invented operators in the vendor's layout."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import assert_breaks_alone, by_quote, draft_text, loaded_draft

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import build_case
from conformance.generate.choosers import FixedChooser, SeededChooser

PAGES = Path(__file__).parent / "fixtures" / "index_pages" / "docs"
NAMES = ("self", "selfRef", "dim", "index", "source", "src", "out")
OTHER = "self与source除在dim轴上以外，其余维度存在shape值不相同"
SIZE = "source在维度dim上的size与index的元素个数不同"
EVERY = "shape不符合限制：对于每一个维度d，有index.size(d) <= src.size(d)"
BUT = "且d != dim时，index.size(d) <= self.size(d)"
GATHER = "out的shape不满足除dim维扩展为与index的shape一样外，其他维大小和self的相应维一致"


@pytest.mark.parametrize(("text", "pattern", "limits"), [
    ("index的shape大小和source在维度dim上的shape值不相等", "index dim size",
     {"dim_size": ("source", "dim", "index")}),
    (SIZE, "index dim size", {"dim_size": ("source", "dim", "index")}),
    ("source在dim轴上的大小和index的元素数量不等时", "index dim size",
     {"dim_size": ("source", "dim", "index")}),
    ("self和source除了在维度dim上，其余维度上存在shape值不相等", "index other dims",
     {"other_dims": ("self", "source", "dim")}),
    ("out的shape不满足除dim维扩展为跟index的shape一样外，其他维长度与self相应维一致", "gather shape",
     {"gather_shape": ("out", "self", "dim", "index")}),
    (OTHER, "index other dims", {"other_dims": ("self", "source", "dim")}),
    ("selfRef和source的shape在非dim轴上的大小不同时", "index other dims",
     {"other_dims": ("selfRef", "source", "dim")}),
    ("self、index、src的shape不符合限制：对于每一个维度d，有index.size(d)<= src.size(d)", "index size bound",
     {"size_bound": ("index", "src", None)}),
    (BUT, "index size bound", {"size_bound": ("index", "self", "dim")}),
    ("self、index的shape不符合以下限制： 对于每一个维度d，如果d != dim,有index.size(d)<= selfRef.size(d)"
     "的限制", "index size bound", {"size_bound": ("index", "selfRef", "dim")}),
    (GATHER, "gather shape", {"gather_shape": ("out", "self", "dim", "index")}),
])
def test_index_rows_are_read(text, pattern, limits):
    found = match(text, NAMES)
    assert found is not None
    assert (found.pattern, found.kinds, found.limits) == (pattern, ("index_tie",), limits)


@pytest.mark.parametrize("text", [
    "d != dim时，index.size(d) <= self.size(d)",  # no quantifier, no first half it continues
    "index.size(d) <= self.size(d)",
    "index的元素数量和index在dim轴上的大小不等",  # a tensor against itself
    "self和self除了在维度dim上，其余维度上存在shape值不相等",
    "当index为空时，source在dim轴上的大小和index的元素数量不等",  # a condition
    "out的shape不满足除0维扩展为跟index的shape一样外，其他维长度与self相应维一致",  # no attribute named
])
def test_other_sentences_are_not_these_rows(text):
    assert match(text, NAMES) is None


@pytest.fixture(scope="module")
def fill():
    return draft_text((PAGES / "aclnnToyIndexFill.md").read_text(encoding="utf-8"),
                      "toy: aclnnToyIndexFill.md")


@pytest.fixture(scope="module")
def gather():
    return draft_text((PAGES / "aclnnToyGatherRows.md").read_text(encoding="utf-8"),
                      "toy: aclnnToyGatherRows.md")


@pytest.fixture(scope="module")
def scatter():
    return draft_text((PAGES / "aclnnToyScatterFill.md").read_text(encoding="utf-8"),
                      "toy: aclnnToyScatterFill.md")


def test_the_index_fill_rows_become_the_exact_clauses(fill):
    clauses = by_quote(fill.spec)
    guard = "dim < -{0}.rank or dim >= {0}.rank"
    d = "dim % self.rank"
    assert clauses[OTHER]["all"] == [
        f"self.rank == 0 or {guard.format('self')} or self.rank != source.rank or "
        f"self.shape[:{d}] + self.shape[{d} + 1:] == source.shape[:{d}] + source.shape[{d} + 1:]"]
    assert clauses[SIZE]["all"] == [
        f"source.rank == 0 or {guard.format('source')} or source.shape[dim % source.rank] == index.numel"]
    assert {clauses[q]["on_violation"] for q in (OTHER, SIZE)} == {"ACLNN_ERR_PARAM_INVALID"}
    b = "dim % len(self_shape)"
    generate = fill.spec["generate"]
    # self's rank (0-8 on the page) starts at 1: a 0-d source takes no index but of one element
    assert generate["draws"]["self_shape"]["shape"]["rank"] == [1, 8]
    assert generate["draws"]["source_index_shape"] == {
        "expr": f"self_shape[:{b}] + [prod(index_shape)] + self_shape[{b} + 1:]"}
    assert {n: generate["args"][n] for n in ("self", "index", "source", "out")} == {
        "self": "self_shape", "index": "index_shape", "source": "source_index_shape", "out": "self_shape"}
    assert clauses[SIZE]["break"] == {"source_index_shape": {
        "expr": f"self_shape[:{b}] + [prod(index_shape) + 1] + self_shape[{b} + 1:]"}}
    other = clauses[OTHER]["break"]
    assert other["self_shape"]["shape"]["rank"] == [2, 8]  # (another dimension to differ at)
    assert other["source_index_shape"]["expr"].startswith(
        f"(self_shape[:{b}] + [prod(index_shape), self_shape[{b} + 1] + 1]")
    assert all(o.checkable for o in fill.draft.outcomes)


def test_the_split_scatter_row_becomes_two_clauses_and_counts_checkable(scatter):
    clauses = by_quote(scatter.spec)
    assert clauses[EVERY]["all"] == [
        "index.rank != src.rank or all(low <= high for low, high in zip(index.shape, src.shape))"]
    d = "dim % self.rank"
    def rest(t: str) -> str:
        return f"{t}.shape[:{d}] + {t}.shape[{d} + 1:]"

    assert clauses[BUT]["all"] == [
        f"self.rank == 0 or dim < -self.rank or dim >= self.rank or index.rank != self.rank or "
        f"all(low <= high for low, high in zip({rest('index')}, {rest('self')}))"]
    generate = scatter.spec["generate"]
    assert generate["draws"]["index_bound_shape"] == {"expr": "self_shape"}
    assert generate["draws"]["src_bound_shape"] == {"expr": "self_shape"}
    b = "dim % len(self_shape)"
    assert clauses[EVERY]["break"]["index_bound_shape"] == {
        "expr": f"self_shape[:{b}] + [self_shape[{b}] + 1] + self_shape[{b} + 1:]"}
    q = f"({b} + 1) % len(self_shape)"
    bumped = {"expr": f"self_shape[:{q}] + [self_shape[{q}] + 1] + self_shape[{q} + 1:]"}
    assert {k: v for k, v in clauses[BUT]["break"].items() if k != "self_shape"} == {
        "index_bound_shape": bumped, "src_bound_shape": bumped}
    assert all(o.checkable for o in scatter.draft.outcomes)


def test_the_gather_row_draws_index_apart_and_out_from_it(gather):
    clauses = by_quote(gather.spec)
    d = "dim % self.rank"
    assert clauses[GATHER]["all"] == [
        "self.rank == 0 or dim < -self.rank or dim >= self.rank or out.rank != self.rank + index.rank - 1 "
        f"or out.shape == self.shape[:{d}] + index.shape + self.shape[{d} + 1:]"]
    generate = gather.spec["generate"]
    b = "dim % len(self_shape)"
    # index's rank leaves out's (self's + index's - 1) within the table's 1-8
    assert generate["draws"]["index_gather_shape"]["shape"]["rank"] == [1, "min(8, 9 - len(self_shape))"]
    assert generate["draws"]["out_gather_shape"] == {
        "expr": f"self_shape[:{b}] + index_gather_shape + self_shape[{b} + 1:]"}
    assert clauses[GATHER]["break"] == {"out_gather_shape": {
        "expr": f"self_shape[:{b}] + index_gather_shape[:-1] + [index_gather_shape[-1] + 1] + "
                f"self_shape[{b} + 1:]"}}
    # the rank row is still broken alone (it widens self and index, not out: the rank guard)
    assert clauses["self、index的维数大于8"]["kind"] == "rank_in"
    assert all(o.checkable for o in gather.draft.outcomes)


@pytest.mark.parametrize("page", ["fill", "scatter", "gather"])
def test_valid_cases_keep_the_ties_and_each_break_breaks_its_clause_alone(page, request, tmp_path):
    drafted = request.getfixturevalue(page)
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    choosers = [FixedChooser("min"), FixedChooser("max"), *(SeededChooser(seed) for seed in range(40))]
    for ch in choosers:
        assert explain(build_case(spec, vocab, product, dtype, ch), specs).expected == "success"
    ties = [c["id"] for c in drafted.spec["constraints"] if "-INDEX" in c["id"]]
    assert len(ties) == (1 if page == "gather" else 2)
    for cid in ties:
        assert_breaks_alone((spec, vocab, specs, product, dtype), cid, choosers)


def test_a_source_sharing_self_shape_leaves_the_ties_for_review():
    text = (PAGES / "aclnnToyIndexFill.md").read_text(encoding="utf-8").replace(
        "<td>out的shape与self的shape不一致。</td>", "<td>out、source的shape与self的shape不一致。</td>")
    clauses = by_quote(draft_text(text, "toy: aclnnToyIndexFill.md").spec)
    assert clauses[OTHER]["kind"] == clauses[SIZE]["kind"] == "review"
