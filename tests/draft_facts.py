"""Hand-built PageFacts for the drafting tests: what the reader would give for invented operators
(no vendor text): an elementwise broadcasting loss backward and a single-input op with a dim."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from conformance.draft.facts import (
    ErrorRow,
    PageFacts,
    ParamRow,
    ProductFact,
    PrototypeParam,
    Sentence,
    Where,
)

PARAMS = "aclnnToyLossBackwardGetWorkspaceSize > 参数说明"
ERRORS = "aclnnToyLossBackwardGetWorkspaceSize > 返回值"


def at(row: int, table: str = "parameters", section: str = PARAMS, line: int = 0) -> Where:
    return Where(section, line or 100 + 10 * row, table, row)


def said(text: str, where: Where) -> Sentence:
    return Sentence(text, where)


def param(name: str, row: int, *, direction: str = "input", dtypes: tuple[str, ...] = (),
          same_as: str | None = None, formats: tuple[str, ...] = ("ND",),
          rank: tuple[int, int] | None = (1, 8), noncontiguous: bool | None = True,
          usage: tuple[str, ...] = (), **kw: Any) -> ParamRow:
    where = at(row)
    return ParamRow(name, None, direction, said(f"{name}的描述。", where),
                    tuple(said(u, replace(where, line=where.line + 3)) for u in usage), dtypes, same_as,
                    formats, rank, noncontiguous, where, **kw)


def error(status: str, code: int | None, text: str, row: int) -> ErrorRow:
    return ErrorRow(status, code, said(text, at(row, "errors", ERRORS, 200 + 3 * row)))


def products(*lines: tuple[str, str | None, bool]) -> tuple[ProductFact, ...]:
    return tuple(ProductFact(label, pid, ok, Where("产品支持情况", 10 + i)) for i, (label, pid, ok)
                 in enumerate(lines))


FLOATS = ("FLOAT", "FLOAT16", "BFLOAT16")
PRODUCTS = products(("Atlas A2 训练系列产品/Atlas A2 推理系列产品", "atlas-a2", True),
                    ("Atlas 训练系列产品", "atlas-training", True),
                    ("Atlas 推理系列产品", "atlas-inference", False))


def toy_loss(**changes: Any) -> PageFacts:
    """aclnnToyLossBackward(gradOutput, self, target, int64_t reduction, out): gradOutput and target
    "与self一致" in dtype, the three broadcast, out is their broadcast; the error table of such pages
    (a null row, a dtype row naming self, dtypes differ, cannot broadcast, out's shape, reduction,
    rank) and one row no pattern reads."""
    proto = tuple(PrototypeParam(n, c, const=n != "out", optional=False) for n, c in (
        ("gradOutput", "aclTensor*"), ("self", "aclTensor*"), ("target", "aclTensor*"),
        ("reduction", "int64_t"), ("out", "aclTensor*")))
    params = (
        param("gradOutput", 1, same_as="self", usage=("shape需要与self和target满足broadcast关系。",)),
        param("self", 2, dtypes=FLOATS, usage=("shape需要与gradOutput、target满足broadcast关系。",),
              product_dtypes={"atlas-training": ("FLOAT", "FLOAT16")}),
        param("target", 3, same_as="self", usage=("shape需要与gradOutput、self满足broadcast关系。",)),
        param("reduction", 4, dtypes=("INT64",), formats=(), rank=None, noncontiguous=None,
              usage=("支持0('none')|1('mean')|2('sum')。", "'none'表示不应用缩减")),
        param("out", 5, direction="output", dtypes=FLOATS,
              usage=("out与gradOutput、self、target broadcast之后的shape一致。",),
              product_dtypes={"atlas-training": ("FLOAT", "FLOAT16")}),
    )
    errors = (
        error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的gradOutput、self、target或out是空指针。", 1),
        error("ACLNN_ERR_PARAM_INVALID", 161002, "self的数据类型不在支持的范围之内。", 2),
        error("ACLNN_ERR_PARAM_INVALID", 161002, "gradOutput、target的数据类型和self不同。", 3),
        error("ACLNN_ERR_PARAM_INVALID", 161002, "gradOutput、self和target的shape无法做broadcast。", 4),
        error("ACLNN_ERR_PARAM_INVALID", 161002,
              "gradOutput、self和target做broadcast后的shape与out的shape不一致。", 5),
        error("ACLNN_ERR_PARAM_INVALID", 161002, "reduction值不在0~2范围之内。", 6),
        error("ACLNN_ERR_PARAM_INVALID", 161002, "gradOutput、self或target的shape超过8维。", 7),
        error("ACLNN_ERR_PARAM_INVALID", 161002, "target的每个元素都必须是偶数。", 8),
    )
    facts = PageFacts(
        "aclnnToyLossBackward", "toy/docs/aclnnToyLossBackward.md", PRODUCTS, proto, params, errors,
        deterministic=said("aclnnToyLossBackward默认确定性实现。", Where("约束说明", 300)),
        function=said("接口功能：玩具损失函数的反向传播。", Where("功能说明", 30)),
        phase1=said("第一段接口做入参校验，遇到下列情形时报错：", Where(ERRORS, 190)),
        revision="0123456789abcdef0123456789abcdef01234567", date="2026-01-02")
    return replace(facts, **changes)


def toy_dim(**changes: Any) -> PageFacts:
    """aclnnToyDim(self, int64_t dim, out): out "shape与self一致", dim within self's dims, rank 0-8."""
    proto = tuple(PrototypeParam(n, c, const=n != "out", optional=False) for n, c in (
        ("self", "aclTensor*"), ("dim", "int64_t"), ("out", "aclTensor*")))
    params = (
        param("self", 1, dtypes=("FLOAT", "FLOAT16"), rank=(0, 8), usage=("支持空Tensor。",)),
        param("dim", 2, dtypes=("INT64",), formats=(), rank=None, noncontiguous=None),
        param("out", 3, direction="output", same_as="self", rank=(0, 8), noncontiguous=False,
              usage=("shape与self一致。",)),
    )
    errors = (
        error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self或out是空指针。", 1),
        error("ACLNN_ERR_PARAM_INVALID", 161002, "dim的取值不在[-self.dim(), self.dim()-1]范围内。", 2),
        error("ACLNN_ERR_INNER_TILING_ERROR", 561002, "self和out的shape不一致。", 3),
    )
    facts = PageFacts("aclnnToyDim", "toy/docs/aclnnToyDim.md", PRODUCTS[:2], proto, params, errors,
                      deterministic=None)
    return replace(facts, **changes)
