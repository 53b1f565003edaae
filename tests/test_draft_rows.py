"""Error-row phrasings drafted into checkable clauses (conformance/draft/): relations joined so
each can be broken alone, and the attribute phrasings (signs, element signs, ranges) — on
PageFacts we build by hand for invented operators, so every expected clause is known."""
from __future__ import annotations

from dataclasses import replace

import pytest
from draft_facts import PRODUCTS, error, param

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam

INVALID = ("ACLNN_ERR_PARAM_INVALID", 161002)


def toy(api: str, args: tuple[tuple[str, str], ...], rows: tuple, errors: tuple[str, ...]) -> PageFacts:
    """An invented operator: its arguments (name, C type), parameter rows, and error rows (all
    ACLNN_ERR_PARAM_INVALID, one sentence each)."""
    proto = tuple(PrototypeParam(n, c, const=not n.endswith("Out") and n != "out", optional=False)
                  for n, c in args)
    table = tuple(error(*INVALID, text, i + 1) for i, text in enumerate(errors))
    return PageFacts(api, f"toy/docs/{api}.md", PRODUCTS[:2], proto, rows, table, deterministic=None)


def checkable(d) -> dict[str, bool]:  # noqa: ANN001 - a DraftedSpec
    return {o.sentence.text: o.checkable for o in d.draft.outcomes}


def kinds(d, kind: str) -> list[dict]:  # noqa: ANN001
    return [c for c in d.spec["constraints"] if c["kind"] == kind]


# -- relations: rows sharing a tensor are one equality --------------------------------------------
def _triple(errors: tuple[str, ...], usage: tuple[str, ...] = ()) -> PageFacts:
    rows = (param("gradOutput", 1, dtypes=("FLOAT", "FLOAT16"), usage=usage),
            param("self", 2, same_as="gradOutput"),
            param("out", 3, direction="output", same_as="gradOutput"))
    return toy("aclnnToyTriple", (("gradOutput", "aclTensor*"), ("self", "aclTensor*"),
                                  ("out", "aclTensor*")), rows, errors)


def test_rows_relating_pairs_that_share_a_tensor_are_one_clause(vocab):
    d = draft_spec(_triple(("gradOutput和self的shape不同。", "out和self的shape不同。")), vocab, "toy")
    same = kinds(d, "same_shape")
    assert [(c["params"], c["on_violation"]) for c in same] == [
        (["gradOutput", "self", "out"], "ACLNN_ERR_PARAM_INVALID")]
    assert same[0]["source"]["quote"] == "gradOutput和self的shape不同 / out和self的shape不同"
    assert checkable(d) == {"gradOutput和self的shape不同": True, "out和self的shape不同": True}


def test_a_note_relating_more_than_a_row_adds_only_what_the_row_lacks(vocab):
    # the row ties gradOutput and self (coded); the note ties all three: out joins by a clause of
    # its own with gradOutput (not self, which the coded clause's breaks change)
    d = draft_spec(_triple(("gradOutput和self的shape不同。",), ("shape与self、out一致。",)), vocab, "toy")
    same = kinds(d, "same_shape")
    assert [(c["params"], c["on_violation"]) for c in same] == [
        (["gradOutput", "self"], "ACLNN_ERR_PARAM_INVALID"), (["gradOutput", "out"], "unspecified")]
    assert checkable(d) == {"gradOutput和self的shape不同": True}
    assert d.draft.implied == []


def test_broadcasting_pairs_are_not_joined(vocab):
    # a~b and b~c does not make a, b, c broadcast together: two clauses, as the rows say
    d = draft_spec(_triple(("gradOutput和self的shape无法做broadcast。", "out和self的shape无法做broadcast。")),
                   vocab, "toy")
    from conformance.draft.clauses import draft_clauses
    bcast = [c for c in draft_clauses(d.draft.facts, vocab).clauses if c["kind"] == "broadcastable"]
    assert [c["params"] for c in bcast] == [["gradOutput", "self"], ["self", "out"]]


# -- attribute phrasings: the whole sentence, or nothing ------------------------------------------
ARRAYS = ("kernelSize", "stride", "padding", "dilation", "steps", "repeats", "self", "out", "p", "ratio")


@pytest.mark.parametrize("text, pattern, params, limits", [
    ("kernelSize中的数值中存在小于等于0的数值", "element sign", ("kernelSize",),
     {"positive": True, "elements": True}),
    ("stride的数值中存在小于等于0的值", "element sign", ("stride",), {"positive": True, "elements": True}),
    ("kernelSize、dilation或stride存在值等于或小于0的元素", "element sign",
     ("kernelSize", "dilation", "stride"), {"positive": True, "elements": True}),
    ("padding存在小于0的元素", "element sign", ("padding",), {"positive": False, "elements": True}),
    ("参数repeats中含有小于0的值", "element sign", ("repeats",), {"positive": False, "elements": True}),
    ("steps中有值小于等于0", "element sign", ("steps",), {"positive": True, "elements": True}),
    ("传入的kernelSize、stride存在某维度的值小于等于0", "element sign", ("kernelSize", "stride"),
     {"positive": True, "elements": True}),
    ("p的值不在0和1之间", "value interval", ("p",), {"low": 0.0, "high": 1.0}),
    ("ratio的数值超出范围(0, 1]", "value interval", ("ratio",),
     {"low": 0.0, "high": 1.0, "open_low": True, "open_high": False, "values": [1]}),  # (an int's)
])
def test_attribute_phrasings(text, pattern, params, limits):
    from conformance.draft.patterns import match
    found = match(text, ARRAYS)
    assert found is not None and (found.pattern, found.params, found.limits) == (pattern, params, limits)


@pytest.mark.parametrize("text", [
    "padding的数值中存在小于0或者大于kernelSize的数值",  # a second condition: not the sign alone
    "stride存在等于0的元素",  # zero only
    "p的值不在0和1之间，或者ratio小于0",
])
def test_attribute_phrasings_saying_more_are_not_element_signs(text):
    from conformance.draft.patterns import match
    found = match(text, ARRAYS)
    if text.startswith("p的"):  # a sign on each (p < 0 breaks both rules): not p's interval
        assert found is not None and (found.pattern, found.params) == ("value sign", ("p", "ratio"))
    elif text.startswith("padding"):  # both bounds: the kernel's row (kernel_pads.py), no sign alone
        assert found is not None and (found.pattern, found.limits) == ("padding within the kernel", {
            "pad": "padding", "kernel": "kernelSize", "half": False, "negative": True})
    else:
        assert found is None


def _pool(errors: tuple[str, ...]) -> PageFacts:
    rows = (param("self", 1, dtypes=("FLOAT",), rank=(3, 4)),
            param("kernelSize", 2, formats=(), rank=None, noncontiguous=None),
            param("padding", 3, formats=(), rank=None, noncontiguous=None),
            param("p", 4, formats=(), rank=None, noncontiguous=None),
            param("out", 5, direction="output", same_as="self", rank=(3, 4)))
    args = (("self", "aclTensor*"), ("kernelSize", "aclIntArray*"), ("padding", "aclIntArray*"),
            ("p", "double"), ("out", "aclTensor*"))
    return toy("aclnnToyPool", args, rows, errors)


def test_element_signs_and_an_interval_are_coded_expr_clauses(vocab, tmp_path):
    d = draft_spec(_pool(("kernelSize的长度不等于2。", "kernelSize中存在小于等于0的数值。",
                          "self、padding存在小于0的值。", "padding存在小于0的元素。", "p的值不在0和1之间。")),
                   vocab, "toy")
    exprs = {c["source"]["quote"]: (c["all"], c["break"]) for c in kinds(d, "expr")}
    assert exprs["kernelSize中存在小于等于0的数值"] == (["len(kernelSize) == 0 or min(kernelSize) > 0"],
                                                 {"kernelSize": {"expr": "[1] * (2 - 1) + [0]"}})
    # the length kept, only the last element out of range: a kernel reading kernelSize[0] alone fails
    assert exprs["padding存在小于0的元素"] == (["len(padding) == 0 or min(padding) >= 0"],
                                         {"padding": {"expr": "[-1]"}})
    assert exprs["p的值不在0和1之间"] == (["(p >= 0 and p <= 1)"], {"p": {"sampled": [-1.0, 2.0]}})
    assert d.spec["generate"]["draws"]["p"] == {"sampled": [0.25, 0.5, 0.75]}  # never on a bound
    # the row naming a tensor too says more than an element sign: not encoded
    assert checkable(d) == {"kernelSize的长度不等于2": True, "kernelSize中存在小于等于0的数值": True,
                            "self、padding存在小于0的值": False, "padding存在小于0的元素": True,
                            "p的值不在0和1之间": True}
    _valid_and_broken_alone(d, tmp_path)


def _valid_and_broken_alone(d, tmp_path) -> None:  # noqa: ANN001 - a DraftedSpec
    """Valid cases are valid; each coded clause is broken alone by some case (breakable.py's test)."""
    from conformance.cases.oracle import explain
    from conformance.draft.pack import write_pack
    from conformance.generate.build import broken_cases, build_case
    from conformance.generate.choosers import FixedChooser
    from conformance.generate.dry_run import load_operator
    from conformance.generate.strategies import breaks_only
    from conformance.spec.loader import vocabulary_for
    from conformance.spec.model import SpecSet

    write_pack(tmp_path, [d])
    vocab, _ = vocabulary_for((tmp_path,))
    spec = load_operator(tmp_path / f"{d.api}.yaml", vocab)
    specs = SpecSet(vocab, {spec.api: spec}, vocab.spec_version, "test")
    product, dtype = spec.products[0], spec.test_dtypes(spec.products[0])[0]
    for mode in ("min", "max"):
        case = build_case(spec, vocab, product, dtype, FixedChooser(mode))
        assert explain(case, specs).expected == "success"
    for c in spec.constraints:
        if c.status is not None:
            cases = broken_cases(spec, vocab, product, dtype, FixedChooser("max"), c.id)
            assert any(breaks_only(explain(k, specs), c.id) for k in cases), c.id  # as a run needs


# -- an int attribute's values from its usage notes, and rows naming it ------------------------------
@pytest.mark.parametrize("text, values", [
    ("指定输出的类型，输入范围为{3, 7, 9}，分别对应输出的数据类型为{3: INT8, 7: A, 9: B}。", [3, 7, 9]),
    ("mode的取值范围是:[4, 5,6, 11]，分别对应甲、乙、丙、丁。", [4, 5, 6, 11]),
    ("取值范围为[0, 3]。", [0, 1, 2, 3]),  # a bracketed pair is a range
    ("取值范围：{1, 0}，1代表甲实现, 0代表乙实现。", [0, 1]),
    ("输入范围为{64}。", [64]),
    ("当前取值仅支持16。", [16]),
    ("当前取值仅支持为1。", [1]),
    ("当前仅支持输入3和17，默认值是3。", [3, 17]),
    ("仅支持以下取值：0（旧模式），1（新模式）。", [0, 1]),
    ("当前仅支持0表示累加模式，1表示计数模式。", [0, 1]),
    ("取值为0、1、2。", [0, 1, 2]),
])
def test_values_an_int_attribute_lists(text, values):
    from conformance.draft.usage import enumeration
    found = enumeration(text)
    assert found is not None and sorted(found) == values


@pytest.mark.parametrize("text", [
    "在甲量化模式，仅支持32。",  # one mode only
    "2：支持越界，当前只支持1。",  # said of the value 2
    "当mode为0时，支持0或128。",
    "仅支持32的倍数，不能为0。",
    "Atlas 训练系列产品：支持范围为[-9,9]。",
    "取值范围为[1, 65535]。",  # a range too wide to list
    "取值范围为[-D, D-1]，D为x的维数。",
    "0表示累加模式、1表示计数模式。",  # meanings, not a limit
])
def test_sentences_listing_no_values(text):
    from conformance.draft.usage import enumeration
    assert enumeration(text) is None


def _quant(errors: tuple[str, ...]) -> PageFacts:
    rows = (param("x", 1, dtypes=("FLOAT",)),
            param("mode", 2, formats=(), rank=None, noncontiguous=None,
                  usage=("0表示甲模式、1表示乙模式。", "当前仅支持0表示甲模式，1表示乙模式。")),
            param("level", 3, formats=(), rank=None, noncontiguous=None, usage=("取值范围为[-D, D-1]。",)),
            param("out", 4, direction="output", same_as="x"))
    args = (("x", "aclTensor*"), ("mode", "int64_t"), ("level", "int64_t"), ("out", "aclTensor*"))
    return toy("aclnnToyQuant", args, rows, errors)


def test_a_value_row_is_encoded_only_when_every_attribute_it_names_has_values(vocab, tmp_path):
    d = draft_spec(_quant(("mode不在指定的取值范围内。", "mode、level不符合当前支持的值。")), vocab, "toy")
    values = kinds(d, "value_in")
    assert [(c["params"], c["values"], c["on_violation"]) for c in values] == [
        (["mode"], [0, 1], "ACLNN_ERR_PARAM_INVALID")]
    assert values[0]["source"]["quote"] == ("mode不在指定的取值范围内 / mode、level不符合当前支持的值 / "
                                            "当前仅支持0表示甲模式，1表示乙模式。")
    # level has no values: the second row says more than mode's clause
    assert checkable(d) == {"mode不在指定的取值范围内": True, "mode、level不符合当前支持的值": False}
    _valid_and_broken_alone(d, tmp_path)
    assert not [r for r in d.draft.reviews if "selects a data type" in r["source"]["quote"]]


def test_an_attribute_choosing_a_dtype_is_drawn_with_a_review(vocab):
    rows = tuple(param("mode", 2, formats=(), rank=None, noncontiguous=None,
                       usage=("输入范围为{3, 7}，分别对应输出out的数据类型为{3: INT8, 7: INT32}。",))
                 if r.name == "mode" else r for r in _quant(()).params)
    d = draft_spec(replace(_quant(()), params=rows), vocab, "toy")
    assert d.spec["generate"]["draws"]["mode"] == {"sampled": [3, 7]}
    quotes = [r["source"]["quote"] for r in d.draft.reviews]
    assert [q for q in quotes if "selects a data type" in q] == [
        "Drafted guess: mode selects a data type; the draft draws each of its values whatever dtypes the "
        "tensors are drawn in: check the generate section"]


def test_a_host_scalar_sign_reads_its_value(vocab, tmp_path):
    rows = (param("self", 1, dtypes=("FLOAT",)), param("lambd", 2, dtypes=("FLOAT",), formats=(), rank=None),
            param("out", 3, direction="output", same_as="self"))
    args = (("self", "aclTensor*"), ("lambd", "aclScalar*"), ("out", "aclTensor*"))
    d = draft_spec(toy("aclnnToyShrink", args, rows, ("lambd小于0。",)), vocab, "toy")
    assert [(c["all"], c["break"]) for c in kinds(d, "expr")] == [
        (["lambd.value >= 0"], {"lambd": {"sampled": [-1.0]}})]
    assert checkable(d) == {"lambd小于0": True}
    _valid_and_broken_alone(d, tmp_path)


# -- empty tensors refused by a row ----------------------------------------------------------------
@pytest.mark.parametrize("text, params, limits", [
    ("self、x2或out是空tensor", ("self", "x2", "out"), {}),
    ("x1、out为空Tensor", ("x1", "out"), {}),
    ("不支持空tensor场景", (), {"scope": "all"}),
    ("传入空tensor场景", (), {"scope": "all"}),
])
def test_rows_refusing_empty_tensors(text, params, limits):
    from conformance.draft.patterns import match
    found = match(text, ("self", "x1", "x2", "out", "weight"))
    assert found is not None
    assert (found.pattern, found.params, found.limits) == ("empty tensor", params, limits)


@pytest.mark.parametrize("text", [
    "self为空tensor，且weight不为空tensor",  # a condition on two tensors
    "self, weight，out为不支持的空Tensor输入或输出",  # some empty tensors only
])
def test_rows_on_empty_tensors_saying_more(text):
    from conformance.draft.patterns import match
    assert match(text, ("self", "weight", "out")) is None


def test_an_empty_tensor_row_is_a_coded_numel_clause(vocab, tmp_path):
    rows = (param("self", 1, dtypes=("FLOAT",), usage=("不支持空Tensor。",)),
            param("weight", 2, dtypes=("FLOAT",)), param("out", 3, direction="output", same_as="self"))
    args = (("self", "aclTensor*"), ("weight", "aclTensor*"), ("out", "aclTensor*"))
    errors = ("self、weight或out是空tensor。", "self或scale是空tensor。")
    d = draft_spec(toy("aclnnToyEmpty", args, rows, errors), vocab, "toy")
    empty = [c for c in kinds(d, "expr") if c["id"].startswith("TE-EMPTY")]
    assert [(c["all"], c["on_violation"], c["break"]) for c in empty] == [
        (["self.numel > 0", "weight.numel > 0", "out.numel > 0"], "ACLNN_ERR_PARAM_INVALID",
         {"self_shape": {"mode": "zero_dim"}})]
    assert empty[0]["source"]["quote"] == "self、weight或out是空tensor / 不支持空Tensor。"  # the note joins
    # scale is no parameter of the page: the second row is not encoded
    assert checkable(d) == {"self、weight或out是空tensor": True, "self或scale是空tensor": False}
    assert all(draw.get("shape", {}).get("empty", "none") == "none"
               for draw in d.spec["generate"]["draws"].values())
    _valid_and_broken_alone(d, tmp_path)
