"""Pooling rows bounding padding by the kernel at each place (kernel_pads.py): an ``expr`` clause
element by element (an array of one element standing for every axis), padding drawn all zeros and
broken one past the bound. The fixture pages (tests/fixtures/pool_pages) are invented operators in
the vendor's layout."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import by_quote, loaded_draft

from conformance.cases.oracle import explain
from conformance.draft.emit import draft_spec
from conformance.draft.patterns import match
from conformance.draft.reading import read_page
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.spec.expressions import Expression
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
PAGES = Path(__file__).parent / "fixtures" / "pool_pages" / "docs"
NAMES = ("self", "kernelSize", "padding", "out")
ROW = "padding中存在小于0或大于kernelSize/2的值"
HALF = "属性padding超过kernelSize对应位置的1/2，例如paddingW=3，kernelSizeW=4，paddingW>kernelSizeW*1/2"
SIGN = "paddings中存在小于0的数值"


@pytest.mark.parametrize(("text", "limits"), [
    (ROW, {"pad": "padding", "kernel": "kernelSize", "half": True, "negative": True}),
    ("padding的数值中存在小于0或者大于kernelSize/2的值",  # the vendor's own wording of the fixture page's row
     {"pad": "padding", "kernel": "kernelSize", "half": True, "negative": True}),
    ("padding中存在小于0或者大于kernelSize/2的数值。",
     {"pad": "padding", "kernel": "kernelSize", "half": True, "negative": True}),
    ("padding的数值中存在小于0或者大于kernelSize的数值",  # the kernel itself, not its half
     {"pad": "padding", "kernel": "kernelSize", "half": False, "negative": True}),
    (HALF, {"pad": "padding", "kernel": "kernelSize", "half": True, "negative": False}),
])
def test_kernel_bound_rows_are_read(text, limits):
    found = match(text, NAMES)
    assert found is not None and (found.pattern, found.kinds, found.limits) == (
        "padding within the kernel", ("kernel_pad",), limits)


@pytest.mark.parametrize("text", [
    "padding的数值中存在小于0或者大于kernelSize/2的值，stride小于0",  # a second rule after it
    "padding超过kernelSize的1/2",  # no place said: the whole kernel's half?
    "padding的值不在[0, kernelSize/2]的范围内",  # (another phrasing, not read here)
])
def test_other_kernel_sentences_are_not_read_so(text):
    found = match(text, NAMES)
    assert found is None or found.pattern != "padding within the kernel"


def _draft(name: str):
    page = PAGES / f"{name}.md"
    facts = read_page(page.read_text(encoding="utf-8"), f"toy: {name}.md", VOCAB)
    return draft_spec(facts, VOCAB, f"toy: {name}.md")


def test_the_row_becomes_an_elementwise_clause_requiring_the_lengths():
    drafted = _draft("aclnnToyPool2d")
    c = by_quote(drafted.spec)[ROW]
    assert c["all"] == ["all(0 <= p and 2 * p <= k for p, k in zip(padding * len(kernelSize), "
                        "kernelSize * len(padding)))"]
    assert c["requires"] == ["TP2-NULL", "TP2-EXPR-2", "TP2-EXPR-3"]  # null, both length rows
    ids = {d["id"]: d["source"]["quote"] for d in drafted.spec["constraints"]}
    assert [ids[i] for i in c["requires"][1:]] == ["kernelSize的长度不等于1或者2",
                                                   "padding的长度不等于1或者2"]
    assert c["break"] == {"padding": {"sampled": [[0, 1], [0, -1]]}}
    draws = drafted.spec["generate"]["draws"]
    assert (draws["padding"], draws["kernelSize"]) == ({"expr": "[0] * 2"}, {"expr": "[1] * 2"})
    assert all(o.checkable for o in drafted.draft.outcomes)


def test_a_sign_row_on_padding_keeps_the_negative_side_and_an_alias_names_the_array():
    drafted = _draft("aclnnToyAvgPool2d")
    clauses = by_quote(drafted.spec)
    # "属性padding" of a page whose array is paddings; "0 <= p" is the sign row's, broken alone
    assert clauses[HALF]["all"] == ["all(2 * p <= k for p, k in zip(paddings * len(kernelSize), "
                                    "kernelSize * len(paddings)))"]
    assert clauses[HALF]["break"] == {"paddings": {"sampled": [[1]]}}
    assert clauses[SIGN]["break"] == {"paddings": {"expr": "[-1]"}}
    assert drafted.spec["generate"]["draws"]["paddings"] == {"expr": "[0]"}
    assert all(o.checkable for o in drafted.draft.outcomes)


@pytest.mark.parametrize(("kernel", "padding", "holds"), [
    ([3, 1], [1], False),  # one padding for both axes: 2 * 1 > 1 on the second
    ([3, 2], [1], True),
    ([2], [1, 2], False),  # one kernel for both axes
    ([4], [1, 2], True),
    ([3, 5], [1, 2], True),
    ([3, 5], [2, 1], False),  # each at its own place
    ([3, 5], [0, -1], False),
])
def test_the_clause_pairs_each_element_with_its_own_place(kernel, padding, holds):
    drafted = _draft("aclnnToyPool2d")
    text = by_quote(drafted.spec)[ROW]["all"][0]
    expr = Expression(text, frozenset(NAMES))
    assert expr.evaluate({"kernelSize": tuple(kernel), "padding": tuple(padding)}) is holds


@pytest.mark.parametrize("name", ["aclnnToyPool2d", "aclnnToyAvgPool2d"])
def test_valid_cases_hold_and_each_break_breaks_its_clause_alone(name, tmp_path):
    drafted = _draft(name)
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    for mode in ("min", "max"):
        case = build_case(spec, vocab, product, dtype, FixedChooser(mode))
        assert explain(case, specs).expected == "success"
    coded = [c["id"] for c in drafted.spec["constraints"] if str(c.get("on_violation")).startswith("ACLNN")]
    for cid in coded:
        cases = broken_cases(spec, vocab, product, dtype, FixedChooser("max"), cid)
        assert cases, cid
        for case in cases:
            assert {v.clause for v in explain(case, specs).violations} == {cid}, cid
