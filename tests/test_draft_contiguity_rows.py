"""Error rows rejecting a non-contiguous tensor ("scale为非连续张量", "mxscale不支持非连续的Tensor",
"srcTensor、dstTensor传入非连续的Tensor"): a ``contiguous`` clause with the row's code, in place of the
unspecified one of the table's × mark; a row against a tensor the table marks √ contradicts the
page and is left for review. The draft, the oracle and break, and runs against a backend right in
its own way and a wrong one. On an invented page in the vendor's layout
(tests/fixtures/contiguity_pages), drafted here."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import (
    assert_clean_pass,
    draft_text,
    drafted_pack_fixture,
    drafted_spec,
    drafted_specs_fixture,
    quick_runner,
)

from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases
from conformance.generate.choosers import FixedChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "contiguity_pages"
PAGE = PAGES / "docs" / "aclnnToyDenseScale.md"
BACKENDS = Path(__file__).with_name("contiguity_backends.py")
API, CLAUSE = "aclnnToyDenseScale", "TDS-CONTIGUOUS"
ROW = "scale为非连续张量"
CODED = {"id": CLAUSE, "params": ["scale"], "on_violation": "ACLNN_ERR_PARAM_INVALID"}

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)


specs = drafted_specs_fixture()


@pytest.mark.parametrize(("text", "params"), [
    ("self为非连续张量。", ("self",)),
    ("mxscale不支持非连续的Tensor", ("mxscale",)),
    ("srcTensor、dstTensor传入非连续的Tensor", ("srcTensor", "dstTensor")),
    ("self是非连续Tensor", ("self",)),
])
def test_the_phrasings(text, params):
    found = match(text, ("self", "mxscale", "srcTensor", "dstTensor", "x"))
    assert (found.pattern, found.kinds, found.params) == ("non-contiguous", ("contiguous",), params)


def test_a_condition_on_a_dtype_is_not_read():
    assert match("x的数据类型为INT4时，x为非连续Tensor", ("x",)) is None


def _contiguity(spec: dict) -> list[dict]:
    return [{k: c[k] for k in ("id", "params", "on_violation")} for c in spec["constraints"]
            if c["kind"] == "contiguous"]


def test_the_row_gives_the_marked_tensor_its_code(drafted):
    spec = drafted_spec(drafted, API)
    assert _contiguity(spec) == [CODED]
    clause = next(c for c in spec["constraints"] if c["id"] == CLAUSE)
    assert clause["source"]["quote"] == f"{ROW} / scale：非连续Tensor ×"


def _variant(mark: str):
    text = PAGE.read_text(encoding="utf-8")
    head, tail = text.split("<td>scale（aclTensor*）</td>")
    return draft_text(head + "<td>scale（aclTensor*）</td>" + tail.replace("<td>×</td>", mark, 1),
                      "toy: aclnnToyDenseScale.md")


def test_a_row_against_a_tick_is_left_for_review():
    d = _variant("<td>√</td>")
    assert _contiguity(d.spec) == []
    assert [c["source"]["quote"] for c in d.spec["constraints"] if c["kind"] == "review"] == [ROW]
    assert [o.checkable for o in d.draft.outcomes] == [True, True, True, False]


def test_an_unmarked_tensor_takes_the_row_alone():
    d = _variant("<td>-</td>")
    assert _contiguity(d.spec) == [CODED]
    assert all(o.checkable for o in d.draft.outcomes)


def test_the_oracle_and_the_break(specs):
    dense = TensorMeta((2, 3, 4, 5), "FLOAT")
    strided = TensorMeta((2, 3, 4, 5), "FLOAT", strides=(120, 40, 10, 2))
    e = explain(Case(API, "atlas-a2", {"self": strided, "scale": strided, "out": strided}), specs)
    assert ({v.clause for v in e.violations}, e.status, e.unspecified) == ({CLAUSE}, (161002,), ())
    e = explain(Case(API, "atlas-a2", {"self": strided, "scale": dense, "out": strided}), specs)
    assert e.expected == "success"  # (self and out are ticked)
    big = TensorMeta((64, 64, 64, 64), "FLOAT")  # 2**24 elements: the clause reads strides only
    big_strided = TensorMeta((64, 64, 64, 64), "FLOAT", strides=(524288, 8192, 128, 2))
    e = explain(Case(API, "atlas-a2", {"self": big, "scale": big, "out": big}), specs)
    assert e.expected == "success"
    e = explain(Case(API, "atlas-a2", {"self": big, "scale": big_strided, "out": big}), specs)
    assert ({v.clause for v in e.violations}, e.status) == ({CLAUSE}, (161002,))
    spec = specs.operator(API)
    cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser("max"), CLAUSE)
    assert len(cases) == 1 and breaks_only(explain(cases[0], specs), CLAUSE)
    assert not cases[0].args["scale"].contiguous and cases[0].args["self"].contiguous
    # (drawn all ones, a view is dense whatever its strides: nothing to break at the low end)
    assert broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser("min"), CLAUSE) == []


_run = quick_runner(API, max_examples=5)


@pytest.mark.parametrize("backend", ["oracle", f"{BACKENDS}:DenseFirst"])
def test_backends_rejecting_a_strided_scale_pass(drafted, backend, tmp_path):
    assert_clean_pass(_run(drafted, backend, tmp_path), CLAUSE, 5)


def test_a_backend_accepting_one_is_caught(drafted, tmp_path):
    report = _run(drafted, f"{BACKENDS}:StridedScaleAccepted", tmp_path)
    found = {(f["kind"], f["clause"]) for f in report["findings"]}
    assert report["outcome"] == "nonconformant" and found == {("status", CLAUSE)}
    assert report["findings"][0]["message"].startswith(
        "returned 0 (success), but should be 161002 (ACLNN_ERR_PARAM_INVALID) because TDS-CONTIGUOUS: "
        "scale is a non-contiguous view")
