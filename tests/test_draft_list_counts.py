"""Tensor-list counts (list_counts.py): lists of one count, and a tensor of as many elements as a
list has tensors. The fixture page (tests/fixtures/list_count_pages) is an invented operator in the
vendor's layout."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import assert_breaks_alone, by_quote, loaded_draft

from conformance.cases.oracle import explain
from conformance.draft.emit import draft_spec
from conformance.draft.patterns import match
from conformance.draft.reading import read_page
from conformance.generate.build import build_case
from conformance.generate.choosers import FixedChooser
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
PAGE = Path(__file__).parent / "fixtures" / "list_count_pages" / "docs" / "aclnnToyForeachWeigh.md"
NAMES = ("x", "out", "weights", "x1", "x2")
LISTS = "x、out中的Tensor数量不相等"
ELEMENTS = "weights的元素个数与x的Tensor个数不一致"


@pytest.mark.parametrize(("text", "limits"), [
    ("x1、x2的Tensor数量不一致。", {"lists": ("x1", "x2")}),
    (LISTS, {"lists": ("x", "out")}),
    (ELEMENTS, {"elements": "weights", "lists": ("x",)}),
])
def test_list_count_rows_are_read(text, limits):
    found = match(text, NAMES)
    assert found is not None and (found.pattern, found.limits) == ("tensor list count", limits)


def test_a_count_against_a_range_is_not_read():
    found = match("x的TensorList长度不在支持范围", NAMES)
    # (an enumerated value row; value_in on a tensor list is no clause: the draft reviews it)
    assert found is not None and (found.pattern, found.params) == ("value out of range", ("x",))


@pytest.fixture(scope="module")
def drafted():
    facts = read_page(PAGE.read_text(encoding="utf-8"), "toy: aclnnToyForeachWeigh.md", VOCAB)
    return draft_spec(facts, VOCAB, "toy: aclnnToyForeachWeigh.md")


def test_the_fixture_rows_become_the_exact_clauses(drafted):
    clauses = by_quote(drafted.spec)
    lists, elements = clauses[LISTS], clauses[ELEMENTS]
    assert lists["all"] == ["len(x) == len(out)"]
    assert lists["break"] == {"out_count": {"expr": "count + 1"}}
    assert elements["all"] == ["weights.numel == len(x)"]
    assert elements["break"] == {"weights_count_shape": {"expr": "[count + 1]"}}
    gen = drafted.spec["generate"]
    assert gen["args"]["out"] == "[x_shape] * out_count" and gen["draws"]["out_count"] == {"expr": "count"}
    assert gen["args"]["weights"] == "weights_count_shape" and "weights_shape" not in gen["draws"]
    # the relation over both lists is judged where their counts agree (the count row judges the rest)
    same = next(c for c in drafted.spec["constraints"] if c["kind"] == "same_shape")
    assert lists["id"] in same["requires"]
    assert all(o.checkable for o in drafted.draft.outcomes)


def test_valid_cases_keep_the_counts_and_each_break_breaks_its_clause_alone(drafted, tmp_path):
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    for mode in ("min", "max"):
        case = build_case(spec, vocab, product, dtype, FixedChooser(mode))
        assert len(case.args["x"]) == len(case.args["out"]) == case.args["weights"].shape[0]
        assert explain(case, specs).expected == "success"
    ids = {c["source"]["quote"]: c["id"] for c in drafted.spec["constraints"]}
    for cid in (ids[LISTS], ids[ELEMENTS]):
        assert_breaks_alone((spec, vocab, specs, product, dtype), cid)
