"""read_page on fixture pages written in layouts the older readers missed (tests/fixtures/pages/
layouts): a page documenting two operators (aclnnFrob&aclnnInplaceFrob: each read from its own
section, a YES/NO product table, a stray "```l" closing fence), a product listing with a chip
column (aclnnGlimmer) and a page documenting a one-phase host helper (aclnnMeasureToyWeight)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conformance.draft.facts import NotOperatorPage, PageError, PageFacts
from conformance.draft.page import Page
from conformance.draft.products import product_ids, read_products
from conformance.draft.reading import page_apis, read_page
from conformance.spec.loader import load_vocabulary, specs_dir

LAYOUTS = Path(__file__).parent / "fixtures" / "pages" / "layouts" / "docs"
VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
FROB = (LAYOUTS / "aclnnFrob&aclnnInplaceFrob.md").read_text(encoding="utf-8")


def read(text: str, api: str | None = None) -> PageFacts:
    return read_page(text, "page.md", VOCAB, api)


def test_a_page_of_two_operators_reads_each_from_its_own_section() -> None:
    assert page_apis(FROB, "frob.md") == ["aclnnFrob", "aclnnInplaceFrob"]
    frob, inplace = read(FROB), read(FROB, "aclnnInplaceFrob")
    assert (frob.api, inplace.api) == ("aclnnFrob", "aclnnInplaceFrob")
    assert [(p.name, p.ctype) for p in frob.prototype] == [("self", "aclTensor*"), ("out", "aclTensor*")]
    assert [(p.name, p.ctype) for p in inplace.prototype] == [("selfRef", "aclTensor*")]
    assert [(r.name, r.direction, r.dtypes, r.rank) for r in inplace.params] == [
        ("selfRef", "output", ("FLOAT",), (1, 4))]
    assert [(e.status, e.text.text, e.text.where.line) for e in inplace.errors] == [
        ("ACLNN_ERR_PARAM_NULLPTR", "传入的selfRef是空指针。", 82)]
    assert [e.text.text for e in frob.errors] == ["传入的self或out是空指针。",
                                                  "self的数据类型不在支持的范围之内。"]
    assert inplace.products == frob.products and inplace.deterministic == frob.deterministic


def test_a_later_operator_without_its_own_section_is_not_read_from_the_first_ones() -> None:
    start = FROB.index("## aclnnInplaceFrobGetWorkspaceSize")
    cut = FROB[:start] + FROB[FROB.index("## 约束说明"):]
    assert read(cut).params  # the first operator still reads
    with pytest.raises(PageError, match="no aclnnInplaceFrobGetWorkspaceSize section"):
        read(cut, "aclnnInplaceFrob")


def test_yes_no_marks_under_a_status_header() -> None:
    assert [(p.label, p.product, p.supported, p.where.row) for p in read(FROB).products] == [
        ("Atlas A2 训练系列", "atlas-a2", True, 1), ("Atlas 训练系列产品", "atlas-training", False, 2)]
    unknown = FROB.replace("| Ascend910B | YES |", "| Ascend910B | ? |")
    facts = read(unknown)
    assert [p.product for p in facts.products] == ["atlas-training"]
    assert [s.text for s in facts.unread if "?" in s.text] == ["Atlas A2 训练系列 | Ascend910B | ?"]


def test_a_stray_letter_on_a_closing_fence_before_a_heading_closes_the_block() -> None:
    blocks = Page(FROB).code_blocks
    assert [(b.start, b.end, b.closed) for b in blocks[:2]] == [(18, 24, True), (26, 31, True)]
    # a fence with a language that code follows still opens a new block (an opener whose
    # previous block the page forgot to close)
    forgot = "```Cpp\nint a;\n```Cpp\nint b;\n```\n"
    assert [(b.start, b.text) for b in Page(forgot).code_blocks] == [(1, "int a;"), (3, "int b;")]


def test_a_product_listing_without_a_mark_column_reads_each_row_as_supported() -> None:
    facts = read((LAYOUTS / "aclnnGlimmer.md").read_text(encoding="utf-8"))
    # an unknown line name is read from the chip its row names (Ascend950PR: a SoC of ascend-950)
    assert [(p.label, p.product, p.supported) for p in facts.products] == [
        ("Atlas Z5 训练/推理系列", "ascend-950", True), ("Atlas A2 训练系列产品", "atlas-a2", True)]
    nothing = ("# aclnnX\n\n## 支持的产品型号\n\n| 产品型号 | 备注 |\n| --- | --- |\n"
               "| Atlas Z9 演示产品 | 无 |\n")
    doc = Page(nothing)
    facts_, unread = read_products(doc, VOCAB)
    assert facts_ == [] and [s.text for s in unread] == ["Atlas Z9 演示产品 | 无"]


def test_a_page_of_a_one_phase_helper_is_not_an_operator_page() -> None:
    text = (LAYOUTS / "aclnnMeasureToyWeight.md").read_text(encoding="utf-8")
    with pytest.raises(NotOperatorPage) as raised:
        page_apis(text, "m.md")
    assert raised.value.functions == ["aclnnMeasureToyWeight"]
    assert "declares aclnnMeasureToyWeight with neither a GetWorkspaceSize phase nor an executor" in str(
        raised.value)
    # a page declaring only the second phase (an executor) forgot its first: a real failure
    second = text.replace("uint64_t          *weightBytes)", "aclOpExecutor *executor)")
    with pytest.raises(PageError) as raised:
        page_apis(second, "m.md")
    assert not isinstance(raised.value, NotOperatorPage)
    assert raised.value.reason == "no aclnnStatus aclnnXGetWorkspaceSize(...) declaration"


def test_the_late_2025_name_of_the_950_line_is_its_alias() -> None:
    for label in ("昇腾910_95 AI处理器", "昇腾 910_95 AI 处理器"):
        assert product_ids(label, VOCAB) == ["ascend-950"], label
