"""read_page on fixture pages written in the vendor's layouts (tests/fixtures/pages): the current
template (aclnnWobble), the older one (aclnnBlendLegacy: √ table, bullet parameters, text errors),
an HTML table with rowspan/colspan and an unclosed prototype fence (aclnnSpanGather), and pages
that cannot be read (PageError naming the part). Single cells, product labels and HTML grids:
test_draft_cells.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from conformance.draft.facts import PageError, PageFacts, ParamRow
from conformance.draft.reading import read_page
from conformance.spec.loader import load_vocabulary, specs_dir

PAGES = Path(__file__).parent / "fixtures" / "pages"
VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")


def read(name: str) -> PageFacts:
    path = next(PAGES.glob(f"*/docs/{name}.md"))
    return read_page(path.read_text(encoding="utf-8"), str(path), VOCAB)


def param(facts: PageFacts, name: str) -> ParamRow:
    return next(p for p in facts.params if p.name == name)


@pytest.fixture(scope="module")
def wobble() -> PageFacts:
    return read("aclnnWobble")


def test_current_template_products(wobble: PageFacts) -> None:
    assert [(p.product, p.supported, p.npu_tag, p.where.line) for p in wobble.products] == [
        ("ascend-950", True, "950", 8), ("atlas-a3", True, "A3", 11), ("atlas-a2", True, "910b", 14),
        ("atlas-200i-500-a2", False, "310b", 17), ("atlas-inference", False, "310p", 20),
        ("atlas-training", True, "910", 23), (None, True, "999", 26)]
    assert wobble.products[-1].label == "Atlas Z9 演示产品"
    assert wobble.products[0].where.section == "产品支持情况"


def test_current_template_prototype(wobble: PageFacts) -> None:
    assert wobble.api == "aclnnWobble"
    assert [(p.name, p.ctype, p.const, p.optional) for p in wobble.prototype] == [
        ("self", "aclTensor*", True, False), ("weight", "aclTensor*", True, False),
        ("biasOptional", "aclTensor*", True, True), ("dims", "aclIntArray*", True, False),
        ("mode", "int64_t", False, False), ("keepDim", "bool", False, False),
        ("scale", "double", False, False), ("out", "aclTensor*", False, False)]


def test_current_template_parameter_cells(wobble: PageFacts) -> None:
    assert [p.name for p in wobble.params] == ["self", "weight", "biasOptional", "dims", "mode",
                                              "keepDim", "scale", "out"]
    self_ = param(wobble, "self")
    assert (self_.ctype, self_.direction, self_.dtypes, self_.formats, self_.rank, self_.noncontiguous) \
        == ("aclTensor*", "input", ("FLOAT", "FLOAT16", "BFLOAT16"), ("ND",), (1, 8), True)
    assert [s.text for s in self_.usage] == ["支持空Tensor。", "shape需要与weight满足broadcast关系。"]
    assert {s.where.line for s in self_.usage} == {95}
    assert self_.where.line == 92 and self_.where.row == 1 and self_.where.table == "parameters"
    assert self_.where.section == "aclnnWobbleGetWorkspaceSize > 参数说明"
    weight = param(wobble, "weight")  # FLOAT32 is the vocabulary's FLOAT; "4维或5维" a range
    assert (weight.dtypes, weight.formats, weight.rank, weight.noncontiguous) == (
        ("FLOAT", "FLOAT16", "BFLOAT16"), ("ND", "NCHW"), (4, 5), False)
    assert [s.text for s in weight.usage] == ["数据类型与self保持一致。", "不支持空Tensor。"]
    bias = param(wobble, "biasOptional")
    assert (bias.dtypes, bias.dtype_same_as, bias.rank, bias.optional) == ((), "self", (0, 8), True)
    dims = param(wobble, "dims")
    assert (dims.ctype, dims.dtypes, dims.formats, dims.rank, dims.noncontiguous) == (
        "aclIntArray*", ("INT64",), (), (1, 1), None)
    assert param(wobble, "keepDim").usage == ()
    assert param(wobble, "out").direction == "output"


def test_current_template_product_dtype_notes(wobble: PageFacts) -> None:
    # "不支持BFLOAT16" without a name reaches every param listing BFLOAT16; the A3 note names weight
    assert param(wobble, "self").product_dtypes == {"atlas-training": ("FLOAT", "FLOAT16")}
    assert param(wobble, "out").product_dtypes == {"atlas-training": ("FLOAT", "FLOAT16")}
    assert param(wobble, "weight").product_dtypes == {"atlas-training": ("FLOAT", "FLOAT16"),
                                                      "atlas-a3": ("FLOAT16",)}
    assert param(wobble, "dims").product_dtypes == {}


def test_current_template_unread(wobble: PageFacts) -> None:
    unread = {(s.text, s.where.line, s.where.row) for s in wobble.unread}
    assert unread == {("out 数据类型: FLOAT、FLOAT16、BFLOAT16、WOBBLE8", 162, 8),
                      ("Ascend 950PR/Ascend 950DT：摆动结果在该产品上按两倍频率计算。", 198, None)}
    # the known dtypes of a cell with an unknown one are still read
    assert param(wobble, "out").dtypes == ("FLOAT", "FLOAT16", "BFLOAT16")


def test_current_template_errors(wobble: PageFacts) -> None:
    rows = [(e.status, e.code, e.text.text, e.text.where.line, e.text.where.row) for e in wobble.errors]
    invalid = ("ACLNN_ERR_PARAM_INVALID", 161002)
    assert rows == [
        ("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self、weight、dims或out是空指针。", 221, 1),
        (*invalid, "self、weight或out的数据类型不在支持的范围之内。", 226, 2),
        # two sentences on <br>: two conditions; a cell introducing its lines stays one
        (*invalid, "self和weight的shape不满足broadcast关系。", 229, 3),
        (*invalid, "out的shape与broadcast后的shape不一致。", 229, 4),
        (*invalid, "dims的取值出现如下情况会出错： 超出self的维度范围。 有重复的值。", 232, 5),
        (*invalid, "mode不是0、1或2。", 235, 6)]
    assert wobble.errors[0].text.where.section == "aclnnWobbleGetWorkspaceSize > 返回值"
    assert wobble.phase1 is not None and wobble.phase1.where.line == 204


def test_current_template_constraints(wobble: PageFacts) -> None:
    assert wobble.deterministic is not None
    assert (wobble.deterministic.text, wobble.deterministic.where.line) == (
        "aclnnWobble默认确定性实现。", 261)
    assert wobble.nondeterministic is False
    assert [(s.text, s.where.line) for s in wobble.constraints] == [
        ("self的最后一维不能超过65535。", 262), ("摆动模式为2时weight必须全为正数。", 262)]
    assert wobble.function is not None and wobble.function.where.line == 31


@pytest.fixture(scope="module")
def blend() -> PageFacts:
    return read("aclnnBlendLegacy")


def test_older_template_products_from_a_check_table(blend: PageFacts) -> None:
    assert [(p.product, p.supported, p.where.line, p.where.table, p.where.row) for p in blend.products] == [
        ("atlas-a3", False, 7, "products", 1), ("atlas-a2", True, 8, "products", 2),
        ("atlas-training", True, 9, "products", 3), ("atlas-inference", False, 10, "products", 4)]
    assert blend.products[1].label == "Atlas A2 训练系列产品/Atlas 800I A2 推理产品"
    assert all(p.npu_tag is None for p in blend.products)


def test_older_template_inline_prototype_and_bullet_parameters(blend: PageFacts) -> None:
    assert [(p.name, p.ctype, p.const, p.optional) for p in blend.prototype] == [
        ("x1", "aclTensor*", True, False), ("x2", "aclTensor*", True, False),
        ("alpha", "aclScalar*", True, False), ("mode", "char*", True, True),
        ("y", "aclTensor*", False, False)]
    x1, x2, y = param(blend, "x1"), param(blend, "x2"), param(blend, "y")
    assert (x1.dtypes, x1.formats, x1.rank, x1.noncontiguous, x1.where.line) == (
        ("FLOAT16", "FLOAT"), ("ND",), (1, 8), True, 32)
    assert x1.product_dtypes == {"atlas-a2": ("FLOAT16", "FLOAT", "BFLOAT16")}
    assert (x2.dtypes, x2.dtype_same_as, x2.noncontiguous) == ((), "x1", False)
    assert (y.direction, y.dtype_same_as, y.formats) == ("output", "x1", ("ND",))
    assert param(blend, "alpha").dtypes == ("FLOAT",)
    assert param(blend, "mode").optional is True


def test_older_template_text_errors_and_nondeterminism(blend: PageFacts) -> None:
    assert [(e.status, e.code, e.text.text, e.text.where.line) for e in blend.errors] == [
        ("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的x1、x2、alpha或y是空指针。", 47),
        ("ACLNN_ERR_PARAM_INVALID", 161002, "x1、x2的数据类型不在支持的范围之内。", 48),
        ("ACLNN_ERR_PARAM_INVALID", 161002, "x1、x2的shape不一致。", 49),
        ("ACLNN_ERR_PARAM_INVALID", 161002, 'mode不是"linear"或"cubic"。', 50)]
    assert blend.nondeterministic is True and blend.deterministic is not None
    assert blend.deterministic.where.line == 69
    assert [s.text for s in blend.constraints] == ["alpha的取值需要在[0, 1]之间。"]
    assert blend.unread == ()


@pytest.fixture(scope="module")
def span() -> PageFacts:
    return read("aclnnSpanGather")


def test_spans_spread_over_the_grid(span: PageFacts) -> None:
    # the prototype's fence is never closed; the comment after extras' comma is about extras
    assert [(p.name, p.ctype, p.optional) for p in span.prototype] == [
        ("input", "aclTensor*", False), ("dim", "int64_t", False), ("index", "aclTensor*", False),
        ("extras", "aclTensorList*", True), ("out", "aclTensor*", False)]
    got = {p.name: (p.dtypes, p.formats, p.rank, p.noncontiguous) for p in span.params}
    assert got == {
        "input": (("FLOAT", "FLOAT16", "INT32"), ("ND",), (1, 4), True),
        "out": (("FLOAT", "FLOAT16", "INT32"), ("ND",), (1, 4), True),  # rowspan 2 and 3
        "index": (("INT32", "INT64"), ("ND",), (1, 4), False),
        "extras": ((), (), None, None),  # its usage cell spans the dtype, format and rank columns
        "dim": ((), (), None, None)}
    assert [s.text for s in param(span, "extras").usage] == ["保留参数，当前版本不生效。"]
    # a colspan copy says nothing of its own; the remark line is no product; a conditional note
    # under a bare product label is not applied, only sent to review
    assert [(s.text, s.where.line) for s in span.unread] == [
        ("当dim为0时，数据类型不支持FLOAT16。", 93), ("Atlas 训练系列产品：不支持空Tensor。", 94)]
    assert [(p.product, p.supported, p.npu_tag) for p in span.products] == [
        ("atlas-a2", True, None), ("atlas-training", False, None)]
    assert [(e.code, e.text.where.row) for e in span.errors] == [(161001, 1), (161002, 2), (161002, 3)]


def test_notes_with_two_product_terms_and_in_a_usage_cell(span: PageFacts) -> None:
    # "不支持INT32" for A2 and training, then training's bare list "FLOAT。" narrows it further
    both = {"atlas-a2": ("FLOAT", "FLOAT16"), "atlas-training": ("FLOAT",)}
    assert param(span, "input").product_dtypes == both
    assert param(span, "out").product_dtypes == both
    assert param(span, "index").product_dtypes == {"atlas-a2": ("INT32",)}  # its usage cell's note


def test_a_page_without_a_prototype_names_the_part() -> None:
    with pytest.raises(PageError) as raised:
        read("aclnnNoPrototype")
    assert raised.value.part == "function prototype"
    assert "aclnnNoPrototype.md: cannot read the function prototype" in str(raised.value)


def test_a_page_without_a_parameter_description_names_the_part() -> None:
    text = ("# aclnnBare\n\n## 函数原型\n\n```Cpp\naclnnStatus aclnnBareGetWorkspaceSize(const aclTensor *x,"
            " uint64_t *workspaceSize, aclOpExecutor **executor)\n```\n\n## aclnnBareGetWorkspaceSize\n\n"
            "参数见头文件。\n")
    with pytest.raises(PageError) as raised:
        read_page(text, "bare.md", VOCAB)
    assert (raised.value.page, raised.value.part) == ("bare.md", "parameter table")
    unclosed = text.replace("executor)", "executor,\n")
    with pytest.raises(PageError, match="argument list of aclnnBareGetWorkspaceSize is not closed"):
        read_page(unclosed, "bare.md", VOCAB)


EXPERIMENTAL = """# aclnnTwiddle

## 接口原型

```cpp
aclnnStatus aclnnTwiddleGetWorkspaceSize(const aclTensor* a, double eps, aclTensor* b,
                                         uint64_t* workspaceSize, aclOpExecutor** executor);
```

## 参数说明

| Name | I/O | Description | Dtype | Format | Shape |
| --- | --- | --- | --- | --- | --- |
| `a` | input | 输入张量 | `float32` / `float16` | `ND` | 0 到 8 维 |
| `eps` | input | 下限 | `double` | - | - |
| `b` | output | 输出张量 | 与 `a` 一致 | `ND` | (N, C) |

## 返回值

- `ACLNN_SUCCESS`：成功。
- `ACLNN_ERR_PARAM_NULLPTR`：a或b为空指针。
- `ACLNN_ERR_PARAM_INVALID`：a的数据类型不支持。

| a的数据类型 | b的数据类型 |
| --- | --- |
| FLOAT16 | FLOAT |

## 约束

- a、b的shape必须一致。
"""


def test_experimental_layout_without_a_workspace_heading() -> None:
    facts = read_page(EXPERIMENTAL, "twiddle.md", VOCAB)
    assert [(p.name, p.direction, p.dtypes, p.dtype_same_as, p.formats, p.rank) for p in facts.params] == [
        ("a", "input", ("FLOAT", "FLOAT16"), None, ("ND",), (0, 8)),
        ("eps", "input", ("DOUBLE",), None, (), None),
        ("b", "output", (), "a", ("ND",), (2, 2))]
    assert [(e.status, e.code, e.text.text, e.text.where.line) for e in facts.errors] == [
        ("ACLNN_ERR_PARAM_NULLPTR", 161001, "a或b为空指针。", 21),
        ("ACLNN_ERR_PARAM_INVALID", 161002, "a的数据类型不支持。", 22)]
    assert [s.text for s in facts.constraints] == ["a、b的shape必须一致。"]
    # a table that is neither parameters nor errors: its rows to review
    assert [(s.text, s.where.line) for s in facts.unread] == [
        ("a的数据类型: FLOAT16 | b的数据类型: FLOAT", 26)]


NOTES = """# aclnnSeeded

## 函数原型

```Cpp
aclnnStatus aclnnSeededGetWorkspaceSize(aclTensor *x, int64_t seed, uint64_t *workspaceSize,
                                        aclOpExecutor **executor)
```

## aclnnSeededGetWorkspaceSize

- **参数说明：**

  <table><thead><tr><th>参数名</th><th>输入/输出</th><th>描述</th><th>数据类型</th></tr></thead>
  <tbody>
  <tr><td>x（aclTensor*）</td><td>输入</td><td>被填充的张量。</td><td>INT32、INT64</td></tr>
  <tr><td>seed（int64_t）</td><td>输入</td><td>随机种子。</td><td>INT64</td></tr>
  </tbody></table>

  - <term>Atlas 训练系列产品</term>：数据类型不支持INT64。
  - <term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>：seed取值仅支持为0；x数据类型不支持INT32。
"""


def test_unnamed_notes_reach_tensors_and_each_clause_is_one_note() -> None:
    facts = read_page(NOTES, "seeded.md", VOCAB)
    assert param(facts, "x").product_dtypes == {"atlas-training": ("INT32",), "atlas-a2": ("INT64",)}
    assert param(facts, "seed").product_dtypes == {}  # an attribute's INT64 is no tensor dtype
    assert [(s.text, s.where.line) for s in facts.unread] == [
        ("Atlas A2 训练系列产品/Atlas A2 推理系列产品：seed取值仅支持为0；", 21)]
