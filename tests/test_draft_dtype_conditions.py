"""Conditional error rows whose condition is a tensor's dtype ("当x的数据类型为INT32时，scaleOptional是
空指针"): conformance/draft/dtype_conditions.py on conditions we wrote, read against an invented page
in the vendor's layout (tests/fixtures/dtype_condition_pages: x lists FLOAT16、BFLOAT16、INT32, the
training line has no BFLOAT16), drafted, linted and run against the oracle."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from helpers import by_quote, drafted_fixture

import conformance
from conformance.cli.main import main
from conformance.draft.context import build_context
from conformance.draft.dtype_conditions import condition
from conformance.draft.reading import read_page
from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, specs_dir

PAGES = Path(__file__).parent / "fixtures" / "dtype_condition_pages"
API = "aclnnToyQuantGate"
PAGE = PAGES / "toy_quant" / "docs" / f"{API}.md"

pytestmark = pytest.mark.usefixtures("no_packs_left")


@pytest.fixture(scope="module")
def ctx():
    vocab = load_vocabulary(specs_dir() / VOCABULARY_FILE)
    facts = read_page(PAGE.read_text(encoding="utf-8"), str(PAGE), vocab)
    return build_context(replace(facts, page=PAGE.name), vocab)


@pytest.mark.parametrize(("text", "test"), [
    ("x的数据类型为INT32", "x.dtype == 'INT32'"),
    ("x数据类型是int32", "x.dtype == 'INT32'"),  # the vocabulary's spelling
    ("y的dtype为DT_INT32", "y.dtype == 'INT32'"),
    ("输入x为fp16", "x.dtype == 'FLOAT16'"),  # the dtype's name says what is meant
    ("x的数据类型为FLOAT16、INT32", "x.dtype in ('FLOAT16', 'INT32')"),
    ("x的数据类型为FLOAT16或INT32", "x.dtype in ('FLOAT16', 'INT32')"),
    ("x的数据类型不为INT32", "x.dtype != 'INT32'"),
    ("x的数据类型不是BFLOAT16、INT32", "x.dtype not in ('BFLOAT16', 'INT32')"),
    # an optional tensor left out has no dtype
    ("offsetOptional的数据类型为FLOAT32", "present(offsetOptional) and offsetOptional.dtype == 'FLOAT'"),
])
def test_dtype_conditions(ctx, text, test):
    assert condition(ctx, text) == (test, {})


@pytest.mark.parametrize("text", [
    "x的数据类型为BFLOAT16",  # the training line lists no BFLOAT16: never true there
    "x的数据类型为DOUBLE",  # x lists no DOUBLE at all
    "x的数据类型不为FLOAT16、BFLOAT16、INT32",  # every dtype x may have: never true
    "x的数据类型不是FLOAT16、INT32",  # every dtype x may have on the training line
    "x的数据类型为INT4",  # a dtype the vocabulary does not know
    "x或y的数据类型为INT32",  # two tensors
    "x为实数",  # a class of dtypes
    "x的数据类型为INT32且y为空",  # more than a dtype
    "ratio的数据类型为FLOAT16",  # not a tensor
    "z的数据类型为INT32",  # no parameter
])
def test_conditions_not_read(ctx, text):
    assert condition(ctx, text) is None


drafted = drafted_fixture(PAGES, API)


def test_clauses_and_breaks(drafted):
    _, spec = drafted
    by = by_quote(spec)
    scale = by["当x的数据类型为INT32时，scaleOptional是空指针"]  # the case's dtype makes it true
    assert scale["all"] == ["not (x.dtype == 'INT32') or present(scaleOptional)"]
    assert scale["on_violation"] == "ACLNN_ERR_PARAM_NULLPTR"
    assert scale["break"] == {"scaleOptional_own_shape": {"sampled": [None]}}
    ratio = by["当x的数据类型不为INT32时，ratio小于0"]
    assert ratio["all"] == ["not (x.dtype != 'INT32') or ratio >= 0"]
    assert ratio["break"] == {"ratio": {"sampled": [-1.0]}}
    bound = by["offsetOptional的数据类型为FLOAT32时，bound小于0"]
    assert bound["all"] == ["not (present(offsetOptional) and offsetOptional.dtype == 'FLOAT') or bound >= 0"]
    assert bound["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert spec["generate"]["draws"]["ratio"] == {"sampled": [0.0, 0.5, 1.0]}  # valid draws keep it


def test_conditions_some_product_cannot_make_true_stay_for_review(drafted):
    _, spec = drafted
    reviewed = {c["source"]["quote"] for c in spec["constraints"] if c["kind"] == "review"}
    assert {"当x的数据类型为BFLOAT16时，offsetOptional是空指针",
            "当x为DOUBLE时，offsetOptional是空指针"} <= reviewed


def test_a_conditional_clause_no_case_breaks_alone_is_reviewed(drafted):
    # y null breaks the null-pointer clause too: the conditional clause goes, and is read by a person
    _, spec = drafted
    quote = "当x的数据类型为INT32时，y是空指针"
    assert [c["kind"] for c in spec["constraints"] if c["source"]["quote"] == quote] == ["review"]


@pytest.mark.slow
def test_the_draft_lints_and_its_breaks_are_judged_on_every_product(drafted, tmp_path):
    out, spec = drafted
    assert main(["lint", "--specs", str(out)]) == 0
    report = conformance.run_suite("oracle", specs=[out], ops=[API], products=["atlas-a2", "atlas-training"],
                                   profile="quick", max_examples=3, isolate=False,
                                   report_dir=tmp_path / "r")
    assert report["errors"] == [] and report["findings"] == []
    conditional = {c["id"] for c in spec["constraints"] if c["kind"] == "expr" and ".dtype" in c["all"][0]}
    judged = {(r["product"], r["clause"]) for r in report["results"] if r["kind"] == "status"
              and r["outcome"] == "pass" and r["cases"] > 0}
    assert len(conditional) == 3
    assert {(p, c) for p in ("atlas-a2", "atlas-training") for c in conditional} <= judged
