"""The pieces read_page reads a page from, one at a time and without a page: rank, dtype and
same-as cells (draft/cells.py), product labels mapped to vocabulary ids (draft/products.py) and
an HTML table's rowspan/colspan grid (draft/html_text.py). Apart from test_draft_reading.py,
which reads whole fixture pages."""
from __future__ import annotations

import pytest

from conformance.draft import cells
from conformance.draft.html_text import html_table
from conformance.draft.products import product_ids
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")


@pytest.mark.parametrize(("cell", "expected"), [
    ("1-8", (1, 8)), ("0-8", (0, 8)), ("4-5", (4, 5)), ("4", (4, 4)), ("4维或5维", (4, 5)),
    ("0~8 维", (0, 8)), ("不超过8维", (0, 8)), ("2维或4维", None), ("8-1", None), ("(N, C)", (2, 2)),
    ("[B,N,S1,S2]", (4, 4)), ("(1,)", (1, 1)), ("与self一致", None), ("[N, ..., C]", None)])
def test_rank_cells(cell: str, expected: tuple[int, int] | None) -> None:
    assert cells.rank(cell) == expected


def test_dtype_and_same_as_cells() -> None:
    assert cells.dtypes("FLOAT32、FLOAT16、BF16", VOCAB) == (("FLOAT", "FLOAT16", "BFLOAT16"), [])
    assert cells.dtypes("INT8、HIFLOAT8", VOCAB) == (("INT8",), ["HIFLOAT8"])
    for written in ("与self保持一致", "与self一致", "同self", "与 self 一致", "与“self”参数一致。",
                    "数据类型和self保持一致。", "数据类型与self相同。"):
        assert cells.same_as(written) == "self", written
    assert cells.same_as("FLOAT、FLOAT16") is None
    assert cells.name_and_type("self(aclTensor*)") == ("self", "aclTensor*", False)
    assert cells.name_and_type("biasOptional（aclTensor *，可选）") == ("biasOptional", "aclTensor*", True)


def test_product_labels_map_to_vocabulary_ids() -> None:
    assert product_ids("Atlas A2 训练系列产品/Atlas 800I A2 推理产品", VOCAB) == ["atlas-a2"]
    assert product_ids("Atlas  A3 训练系列产品 /Atlas A3 推理系列产品", VOCAB) == ["atlas-a3"]
    assert product_ids("Atlas 200I/500 A2 推理产品", VOCAB) == ["atlas-200i-500-a2"]
    assert product_ids("Atlas 推理系列产品、Atlas 训练系列产品", VOCAB) == ["atlas-inference",
                                                                           "atlas-training"]
    assert product_ids("Atlas 800I A2推理产品", VOCAB) == ["atlas-a2"]
    assert product_ids("Atlas A3 训练系列 / Atlas A3 推理系列", VOCAB) == ["atlas-a3"]
    assert product_ids("Atlas A3 系列产品", VOCAB) == ["atlas-a3"]
    assert product_ids("Atlas Z9 演示产品", VOCAB) == []
    assert product_ids("Atlas 系列产品", VOCAB) == []  # the start of every line's names


def test_html_grid_spreads_rowspan_and_colspan() -> None:
    grid = html_table("<table><tr><th>a</th><th>b</th><th>c</th></tr>\n"
                      '<tr><td rowspan="2">x</td><td colspan="2">y<br>z</td></tr>\n'
                      "<tr><td>p</td><td>q &amp; r</td></tr></table>")
    assert [(r.cells, r.header, r.line) for r in grid] == [
        (("a", "b", "c"), True, 1), (("x", "y\nz", "y\nz"), False, 2), (("x", "p", "q & r"), False, 3)]
    assert grid[2].lines == (2, 3, 3)
