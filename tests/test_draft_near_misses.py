"""Error rows a pattern read but the draft left for review, now encoded (and readings that were
false, now left for review): a null row naming what it leaves out, a value set after "必须属于", a
rank limit on an int array (its length), a sign of int arrays (their elements), a sign sentence
beside another rule. Sentences and pages are invented, in the vendor's layout."""
from __future__ import annotations

from dataclasses import replace

import pytest
from draft_facts import PRODUCTS, error, param

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam, Sentence
from conformance.draft.patterns import match
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
NULLS = "ACLNN_ERR_PARAM_NULLPTR"
INVALID = "ACLNN_ERR_PARAM_INVALID"


def toy_pool(*rows: str, status: str = INVALID) -> PageFacts:
    """aclnnToyPool(self, aclIntArray* stride, aclIntArray* normShape, int64_t mode,
    aclTensorList* extras, aclTensor* biasOptional, aclTensor* scaleOptional, out): the error rows
    given."""
    proto = (PrototypeParam("self", "aclTensor*", const=True, optional=False),
             PrototypeParam("stride", "aclIntArray*", const=True, optional=False),
             PrototypeParam("normShape", "aclIntArray*", const=True, optional=False),
             PrototypeParam("mode", "int64_t", const=False, optional=False),
             PrototypeParam("extras", "aclTensorList*", const=True, optional=False),
             PrototypeParam("biasOptional", "aclTensor*", const=True, optional=True),
             PrototypeParam("scaleOptional", "aclTensor*", const=True, optional=True),
             PrototypeParam("out", "aclTensor*", const=False, optional=False))
    arrays = {"dtypes": ("INT64",), "formats": (), "rank": None, "noncontiguous": None}
    params = (param("self", 1, dtypes=("FLOAT", "FLOAT16")),
              param("stride", 2, **arrays), param("normShape", 3, **arrays),
              param("mode", 4, **arrays), param("extras", 5, same_as="self"),
              param("biasOptional", 6, same_as="self"), param("scaleOptional", 7, same_as="self"),
              param("out", 8, direction="output", same_as="self", usage=("shape与self一致。",)))
    errors = tuple(error(status, 161001 if status == NULLS else 161002, text, i + 1)
                   for i, text in enumerate(rows))
    return PageFacts("aclnnToyPool", "toy/docs/aclnnToyPool.md", PRODUCTS[:1], proto, params, errors,
                     deterministic=None)


def _drafted(*rows: str, status: str = INVALID):  # noqa: ANN202 - a DraftedSpec
    return draft_spec(toy_pool(*rows, status=status), VOCAB, "toy: p.md")


def _checkable(d, text: str) -> bool:  # noqa: ANN001 - a DraftedSpec
    return next(o.checkable for o in d.draft.outcomes if o.sentence.text == text)


def _clause(d, text: str) -> dict:  # noqa: ANN001 - a DraftedSpec
    return next(c for c in d.spec["constraints"] if c["source"]["quote"].split(" / ")[0] == text)


def test_a_null_row_leaving_out_a_parameter_is_every_other_tensor() -> None:
    text = "如果传入参数为aclTensor或aclTensorList且非biasOptional，是空指针"
    d = _drafted(text, status=NULLS)
    c = _clause(d, text)
    assert (c["kind"], c["params"], c["on_violation"]) == ("not_null", ["self", "extras", "out"], NULLS)
    assert _checkable(d, text)


def test_the_null_row_keeps_to_the_c_types_and_names_it_gives() -> None:
    tensors = "如果传入参数为aclTensor且非biasOptional，是空指针"
    d = _drafted(tensors, status=NULLS)
    assert _clause(d, tensors)["params"] == ["self", "out"]  # no list: the row names aclTensor only
    unknown = "如果传入参数为aclTensor或aclTensorList且非weightOptional，是空指针"  # no such parameter
    assert not _checkable(_drafted(unknown, status=NULLS), unknown)


def test_a_value_set_after_must_belong_to() -> None:
    text = "mode不在支持范围内，必须属于{0, 1, 2}"
    assert match(text, ["mode"]).limits == {"values": [0, 1, 2]}
    d = _drafted(text)
    c = _clause(d, text)
    assert (c["kind"], c["params"], c["values"], c["on_violation"]) == (
        "value_in", ["mode"], [0, 1, 2], INVALID)
    assert _checkable(d, text)


def test_a_rank_limit_on_an_int_array_is_its_length() -> None:
    text = "normShape维度小于1维"
    d = _drafted(text)
    c = _clause(d, text)
    assert (c["kind"], c["all"], c["break"], c["on_violation"]) == (
        "expr", ["len(normShape) >= 1"], {"normShape": {"expr": "[]"}}, INVALID)
    assert _checkable(d, text)
    most = "normShape的维度超过3维"
    assert _clause(_drafted(most), most)["all"] == ["len(normShape) <= 3"]


def test_a_rank_row_naming_a_tensor_beside_the_array_is_no_length() -> None:
    text = "self、normShape的维度超过3维"
    d = _drafted(text)
    assert not any(c["kind"] == "expr" and "normShape" in str(c["all"]) for c in d.spec["constraints"])


def test_the_sign_of_int_arrays_is_their_elements() -> None:
    text = "stride、normShape小于0情况下不满足要求"
    d = _drafted(text)
    exprs = [c["all"] for c in d.spec["constraints"] if c["source"]["quote"] == text]
    assert exprs == [["len(stride) == 0 or min(stride) >= 0"], ["len(normShape) == 0 or min(normShape) >= 0"]]
    assert _checkable(d, text)


@pytest.mark.parametrize("text", ["输入mode的值小于等于输入stride的值", "mode<= stride"])
def test_two_values_compared_are_an_order_not_a_sign(text: str) -> None:
    found = match(text, ["mode", "stride"])
    assert found is not None
    assert (found.pattern, found.params, found.limits) == (
        "attribute order", ("mode", "stride"), {"order": ("mode", ">", "stride")})


@pytest.mark.parametrize("text", [
    "单个方向的填充量之和需小于等于对应方向normShape",
    "mode不为-1且不大于0",  # -1 is allowed: the sign alone says less
    "mode不大于0，或者stride大于64",  # the second rule is another parameter's
    "start、end、step不满足运算逻辑，即在step大于0时start大于end，或者step小于0时start小于end",
])
def test_a_sign_beside_another_rule_is_not_read(text: str) -> None:
    assert match(text, ["mode", "stride", "normShape", "start", "end", "step"]) is None


@pytest.mark.parametrize(("text", "positive"), [
    ("mode小于等于0", True), ("mode的值小于0", False), ("mode为负数或nan", False), ("mode非正", True)])
def test_plain_signs_still_read(text: str, positive: bool) -> None:
    found = match(text, ["mode"])
    assert (found.pattern, found.limits) == ("value sign", {"positive": positive})


def test_a_null_row_under_another_tensor_given_is_conditional() -> None:
    text = "biasOptional存在时，scaleOptional是空指针"
    assert match(text, ["biasOptional", "scaleOptional"]) is None  # not an unconditional null row
    d = _drafted(text, status=NULLS)
    c = _clause(d, text)
    assert (c["all"], c["on_violation"]) == (["not (present(biasOptional)) or present(scaleOptional)"], NULLS)
    assert _checkable(d, text)


def test_a_rule_on_a_given_tensor_is_that_rule_not_a_null_row() -> None:
    found = match("biasOptional不为空指针且biasOptional的元素数量不为C", ["biasOptional", "C"])
    assert found.pattern == "layout letters"
    assert found.limits == {"letters": ("product", "biasOptional", ("C",))}


@pytest.mark.parametrize("text", [
    "或biasOptional非空但scaleOptional是空指针",
    "mode为2、3，传入的biasOptional不是空指针",  # given is the error: the opposite of a null row
    "biasOptional不为空指针",
])
def test_a_rule_on_a_given_tensor_is_no_null_row(text: str) -> None:
    assert match(text, ["biasOptional", "scaleOptional", "C"]) is None


def test_an_exclusion_is_about_words_not_a_name_holding_one() -> None:
    found = match("kernelShape的长度不等于1或2", ["kernelShape"])
    assert (found.pattern, found.limits) == ("length", {"lengths": [1, 2]})
    # a name that is the word itself may mean it: "size" still keeps this off shapes differ
    assert match("self或out的shape和size不匹配", ["self", "out", "size"]) is None
    text = "normShape的长度不等于1或2"
    d = _drafted(text)
    assert _clause(d, text)["all"] == ["len(normShape) in [1, 2]"] and _checkable(d, text)


def _noted(text: str, name: str, *notes: str):
    """The toy pool's draft with the error row ``text`` and ``notes`` as ``name``'s usage notes."""
    facts = toy_pool(text)
    rows = tuple(replace(r, usage=tuple(Sentence(n, r.where) for n in notes)) if r.name == name else r
                 for r in facts.params)
    return draft_spec(replace(facts, params=rows), VOCAB, "toy: p.md")


def test_axes_over_a_lettered_range_are_distinct_modulo_its_tensors_rank() -> None:
    text = "stride中数值重复"
    d = _noted(text, "stride", "支持[-N, N-1]，且stride中的元素不能重复，N为self的维度。")
    assert _clause(d, text)["all"] == ["len(distinct(stride, max(self.rank, 1))) == len(stride)"]
    assert _checkable(d, text)
    other = _noted(text, "stride", "取值范围为[-r, r-1]，其中r为输入数据的维度。")
    assert not _checkable(other, text)  # whose?


def test_values_listed_by_their_meanings_are_the_attributes_set() -> None:
    text = "传入的mode的数值不在支持的范围之内"
    d = _noted(text, "mode", "0：表示每个分组的结束索引。", "1：表示每个分组的大小。")
    assert (_clause(d, text)["values"], _clause(d, text)["on_violation"]) == ([0, 1], INVALID)
    assert _checkable(d, text)


def test_a_second_dtype_row_of_the_same_code_is_the_same_clause() -> None:
    first, again = "self或out的数据类型不在支持的范围之内", "self的数据类型不在支持的范围之内"
    d = _drafted(first, again)
    c = _clause(d, first)
    assert c["kind"] == "dtype_in" and again in c["source"]["quote"].split(" / ")
    assert _checkable(d, first) and _checkable(d, again)


def test_an_attribute_out_of_its_range_over_a_named_rank() -> None:
    text = "mode不在指定的取值范围内"
    d = _noted(text, "mode", "mode的取值范围是：[-selfDim, selfDim - 1]（其中selfDim指输入self的维度）。")
    assert _clause(d, text)["all"] == ["mode >= -max(self.rank, 1) and mode < max(self.rank, 1)"]
    assert _checkable(d, text)


def test_a_condition_on_a_string_of_the_rows_plain_set() -> None:
    text = "fuse为add、mul时，传入的biasOptional为空指针"
    facts = toy_pool(text, status=NULLS)
    fuse = param("fuse", 9, dtypes=(), formats=(), rank=None, noncontiguous=None,
                 usage=('融合模式取值必须是"none"、"add"、"mul"中的一种。',))
    fuse = replace(fuse, description=replace(fuse.description, text="表示算子的融合模式。"))  # (so named)
    d = draft_spec(replace(facts, prototype=(*facts.prototype, PrototypeParam("fuse", "char*", True, False)),
                           params=(*facts.params, fuse)), VOCAB, "toy: p.md")
    assert _clause(d, text)["all"] == ["not (fuse in ['add', 'mul']) or present(biasOptional)"]
    assert _checkable(d, text)


def test_a_dtype_combination_is_no_list_per_tensor() -> None:
    first, combined = "self或out的数据类型不在支持的范围之内", "self、biasOptional数据类型组合不在支持范围内"
    found = match(combined, ["self", "biasOptional"])  # a value range of tensors: codes nothing
    assert found is not None
    assert (found.pattern, found.params) == ("value out of range", ("self", "biasOptional"))
    assert not _checkable(_drafted(first, combined), combined)


@pytest.mark.parametrize("text", ["x不小于0", "x不是负数", "x不为负", "x非负"])
def test_a_negated_sign_word_is_no_sign(text: str) -> None:
    from conformance.draft.sentence_limits import SIGN
    assert SIGN.search(text) is None


@pytest.mark.parametrize("text", [
    "dim不在[-self的维度数量, self的维度数量]范围内",  # r itself allowed: an inserted dimension
    "dim的取值不在[-self.dim()-1, self.dim()]范围内",
    "dim超出[-(self.dim()+1), self.dim()]范围",
])
def test_a_dimension_range_other_than_minus_r_to_r_minus_1_is_not_read(text: str) -> None:
    assert match(text, ["dim", "self"]) is None


@pytest.mark.parametrize("text", [
    "dim不在[-self.dim(), self.dim()-1]范围内",
    "dim不在[-self的维度数量, self的维度数量-1]范围内",
    "dim超出了self的可选维度范围[-self.dim，self.dim-1]",
    "dim的取值不在[-self.dim(), self.dim()-1]范围内（self为0维时为[-1, 0]）",
])
def test_the_minus_r_to_r_minus_1_range_reads_as_a_dimension_range(text: str) -> None:
    found = match(text, ["dim", "self"])
    assert found is not None
    assert (found.pattern, found.params) == ("dimension range", ("dim", "self"))


@pytest.mark.parametrize("text, flagged", [
    ("y与x须采用同一种数据类型。", True),
    ("out应与self保持同一数据类型。", True),
    ("不应传入空Tensor。", True),
    ("输出的梯度，对应前向的输入。", False),  # 对应: corresponding, no promise
    ("相应地更新统计量。", False),
])
def test_a_note_saying_xu_or_ying_is_left_for_a_person(text: str, flagged: bool) -> None:
    from conformance.draft.usage import looks_like_constraint
    assert looks_like_constraint(text) is flagged
