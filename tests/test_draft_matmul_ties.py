"""Error rows saying two matrices cannot be multiplied ("mat1和mat2不满足相乘条件"): read as the
left matrix's last dimension tied to the right one's second last (dim_ties.py), only where the
table fixes both as matrices (rank 2) and no parameter transposes them; the operands leave the
uncoded broadcast relation the usage notes put them in. "out和mat1@mat2 shape不一致": out's shape
is the product's (matmul_ties.py), out drawn as it, and a tensor whose note broadcasts it with the
product drawn inside it. The fixture page
(tests/fixtures/matmul_pages) is an invented operator in the vendor's layout."""
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
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
PAGE = Path(__file__).parent / "fixtures" / "matmul_pages" / "docs" / "aclnnToyProduct.md"
NAMES = ("bias", "lhs", "rhs", "out", "mat", "vec")
ROW = "lhs和rhs不满足相乘条件"
PRODUCT_ROW = "out和lhs@rhs shape不一致"


@pytest.mark.parametrize("text", [
    "lhs和rhs不满足相乘条件。",
    "lhs与rhs不满足矩阵乘关系",
    "lhs和rhs的输入shape不满足矩阵乘关系",
    "lhs、rhs的shape不满足乘法条件",
])
def test_matrix_product_rows_are_read_as_a_k_tie(text):
    found = match(text, NAMES)
    assert found is not None
    assert (found.pattern, found.kinds, found.params) == ("matrix product", ("dim_tie",), ("lhs", "rhs"))
    assert found.limits == {"tie": ("rhs", -2, "lhs", -1, 1), "matmul": True}


@pytest.mark.parametrize(("text", "pattern"), [
    ("mat、vec的shape不满足乘法运算条件或者bias和乘法运算结果不满足加法运算条件", None),  # two rules
    ("lhs和rhs的输入shape在根据输入transpose描述处理后不满足矩阵乘的关系", None),  # transposed first
    ("lhs和rhs不满足broadcast关系", "cannot broadcast"),
])
def test_other_product_sentences_are_not_read(text, pattern):
    found = match(text, NAMES)
    assert (found and found.pattern) == pattern


@pytest.mark.parametrize("text", [
    "out和lhs@rhs shape不一致。",
    "out和lhs@rhs的shape不一致",
    "out的shape与lhs@rhs不一致",
    "out的shape与lhs@rhs的shape不相同",
])
def test_product_shape_rows_are_read(text):
    found = match(text, NAMES)
    assert found is not None
    assert (found.pattern, found.kinds, found.limits) == (
        "matrix product shape", ("product_shape",), {"product": ("out", "lhs", "rhs")})


@pytest.mark.parametrize(("text", "pattern"), [
    ("bias不能与lhs@rhs做broadcast操作", "batched product"),  # a broadcast (bmm_ties.py), not the shape
    ("out和lhs@rhs的数据类型不一致", "dtypes differ"),
])
def test_other_product_relations_are_not_product_shapes(text, pattern):
    found = match(text, NAMES)
    assert (found and found.pattern) == pattern


def _draft(text: str):
    facts = read_page(text, "toy: aclnnToyProduct.md", VOCAB)
    return draft_spec(facts, VOCAB, "toy: aclnnToyProduct.md")


@pytest.fixture(scope="module")
def drafted():
    return _draft(PAGE.read_text(encoding="utf-8"))


def test_the_row_becomes_the_k_tie_and_the_operands_leave_the_broadcast_group(drafted):
    tie = by_quote(drafted.spec)[ROW]
    assert (tie["kind"], tie["on_violation"]) == ("expr", "ACLNN_ERR_PARAM_INVALID")
    assert tie["all"] == ["rhs.rank < 2 or lhs.rank < 1 or rhs.shape[-2] == lhs.shape[-1]"]
    assert tie["break"] == {
        "rhs_tied_shape": {"expr": "rhs_shape[:-2] + [lhs_shape[-1] + 1] + rhs_shape[-1:]"}}
    draws = drafted.spec["generate"]["draws"]
    assert draws["rhs_tied_shape"] == {"expr": "rhs_shape[:-2] + [lhs_shape[-1]] + rhs_shape[-1:]"}
    assert draws["lhs_shape"]["shape"]["rank"] == [2, 2] and "full" not in draws
    assert not [c for c in drafted.spec["constraints"] if c["kind"] == "broadcastable"]
    for note in ("需要与bias、rhs满足broadcast关系。", "需要与bias、lhs满足broadcast关系。"):  # (reviewed)
        assert (by_quote(drafted.spec)[note]["kind"], by_quote(drafted.spec)[note]["closest"]) == (
            "review", "cannot broadcast")
    assert all(o.checkable for o in drafted.draft.outcomes)


def test_the_product_row_draws_out_as_the_product(drafted):
    product = by_quote(drafted.spec)[PRODUCT_ROW]
    assert (product["kind"], product["on_violation"]) == ("expr", "ACLNN_ERR_PARAM_INVALID")
    assert product["all"] == [
        "lhs.rank != 2 or rhs.rank != 2 or out.shape == lhs.shape[:-1] + rhs.shape[-1:]"]
    assert product["break"] == {"out_product_shape": {"expr": "lhs_shape[:-1] + [rhs_tied_shape[-1] + 1]"}}
    generate = drafted.spec["generate"]
    assert generate["draws"]["out_product_shape"] == {"expr": "lhs_shape[:-1] + rhs_tied_shape[-1:]"}
    assert generate["args"]["out"] == "out_product_shape" and "out_shape" not in generate["draws"]
    # bias's note "需要与lhs@rhs满足broadcast关系" draws it inside the product (the note stays for review)
    assert generate["draws"]["bias_broadcast_shape"] == {"sub_broadcast": "out_product_shape", "min_rank": 1}
    assert generate["args"]["bias"] == "bias_broadcast_shape" and "bias_shape" not in generate["draws"]
    assert by_quote(drafted.spec)["需要与lhs@rhs满足broadcast关系。"]["kind"] == "review"


def test_valid_cases_multiply_and_the_break_breaks_the_tie_alone(drafted, tmp_path):
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    for mode in ("min", "max"):
        case = build_case(spec, vocab, product, dtype, FixedChooser(mode))
        lhs, rhs = case.args["lhs"].shape, case.args["rhs"].shape
        assert len(lhs) == len(rhs) == 2 and rhs[0] == lhs[1]
        assert case.args["out"].shape == (lhs[0], rhs[1])
        bias = case.args["bias"].shape
        assert all(d in (1, o) for d, o in zip(bias[::-1], (rhs[1], lhs[0]), strict=False))
        assert explain(case, specs).expected == "success"
    for row in (ROW, PRODUCT_ROW):
        tie = by_quote(drafted.spec)[row]["id"]
        cases = broken_cases(spec, vocab, product, dtype, FixedChooser("max"), tie)
        assert cases
        for case in cases:
            e = explain(case, specs)
            assert e.status == (161002,) and {v.clause for v in e.violations} == {tie}


@pytest.mark.parametrize(("old", "new"), [
    ("<td>2</td>\n      <td>√</td>\n    </tr>\n    <tr>\n      <td>rhs",
     "<td>2-3</td>\n      <td>√</td>\n    </tr>\n    <tr>\n      <td>rhs"),  # lhs may be batched
    ("    const aclTensor* rhs,\n", "    const aclTensor* rhs,\n    bool             transposeRhs,\n"),
])
def test_a_product_the_page_does_not_fix_stays_for_review(old, new):
    text = PAGE.read_text(encoding="utf-8")
    assert old in text
    if "transposeRhs" in new:  # the attribute's row in the table too
        cells = ["transposeRhs(bool)", "输入", "rhs是否转置。", "-", "BOOL", "-", "-", "-"]
        row = "    <tr>\n" + "".join(f"      <td>{c}</td>\n" for c in cells) + "    </tr>\n"
        out_row = "    <tr>\n      <td>out(aclTensor*)"
        text = text.replace(out_row, row + out_row)
    d = _draft(text.replace(old, new))
    for row in (ROW, PRODUCT_ROW):
        assert by_quote(d.spec)[row]["kind"] == "review"
        assert not next(o for o in d.draft.outcomes if o.sentence.text.startswith(row)).checkable
