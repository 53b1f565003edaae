"""Drafting attribute values: a string attribute's documented set (conformance/draft/string_values.py)
becomes a value_in clause carrying the code of the error row naming it. Sentences and pages here
are invented, written in the vendor's layout."""
from __future__ import annotations

from dataclasses import replace

import pytest
from draft_facts import error, param, toy_dim

from conformance.cases.oracle import explain
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PrototypeParam, Sentence
from conformance.draft.pack import write_pack
from conformance.draft.patterns import match
from conformance.draft.string_values import string_set, string_values
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.generate.dry_run import load_operator
from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, specs_dir, vocabulary_for
from conformance.spec.model import SpecSet


@pytest.mark.parametrize(("text", "values"), [
    ('mode仅支持{"keep", "floor"}。', ["keep", "floor"]),
    ('支持{"up", "down", "even"}模式。', ["up", "down", "even"]),
    ('支持["first", "last", "all"]。', ["first", "last", "all"]),
    ('取值范围是：["up", "down"]。', ["up", "down"]),
    ("支持“fast”和“exact”。", ["fast", "exact"]),
    ('可配置为"fast"或者"exact"，其中"fast"代表近似计算。', ["fast", "exact"]),
    ("支持取值up/down/even。", ["up", "down", "even"]),
    ('当前仅支持"keep"。', ["keep"]),
    ('支持"up"/"down"模式。', ["up", "down"]),
    ('计算方式。取值可以是"up"或"down"。', ["up", "down"]),  # one "。"-part of the cell
    ('当前版本仅支持“keep”。', ["keep"]),
    ('取整模式取值必须是""（表示不取整）、"2up"、"down"中的一种。', ["", "2up", "down"]),
    ('支持"up"、"down"，传入空指针时，采用"up"模式。', ["up", "down"]),  # and an absent one's default
    ('当前仅支持"fast"近似计算，"exact"精确计算。', ["fast", "exact"]),  # each value with its name
])
def test_a_plain_set_is_read(text, values):
    assert string_set(text, "mode", named="表示取整模式。") == values


def test_a_noun_before_its_values_is_the_attribute_only_where_its_row_calls_it_so():
    text = '取整模式取值必须是"up"、"down"中的一种。'
    assert string_set(text, "mode", named="表示取整模式。") == ["up", "down"]
    assert string_set('动态模式取值为"up"、"down"。', "mode", named="表示量化模式。") is None  # one mode's
    assert string_set(text, "mode") is None


@pytest.mark.parametrize("text", [
    '当scale为0时，支持{"keep"}。',  # one branch, not the set
    'scale为2时，仅支持{"keep"}。',
    'other仅支持{"keep", "floor"}。',  # another parameter's set
    '可选"fast"近似计算，"exact"精确计算。',  # values with their names: only as what is supported
    '非空时仅支持取值"keep"。',
    '支持{"keep", "floor"}，默认"keep"。',  # says more than the set
    "支持up/down。",  # a bare a/b only after 取值
    'FP16输入仅支持"keep"。',
    '静态量化仅支持"keep"。',  # said of one mode
    '支持"up"、"down"，传入空指针时，采用"even"模式。',  # a default the set lacks
    '支持"up"、"down"（暂不支持）。',  # a value marked not supported yet is no valid value
    '支持"up"（预留）、"down"。',
    '支持"up"、"down"、"even"，其中Atlas A2仅支持"down"。',  # narrowed in the same part
    '支持"up"、"down"等。',  # an open list: a value outside it may be valid
    '取值为"up"、"down"等模式。',
    '支持{"up", "down"}等',
    "支持取值up/down等。",
])
def test_a_sentence_saying_more_than_the_set_is_not_read(text):
    assert string_set(text, "mode") is None


def _row(*usage: str):
    return param("mode", 4, dtypes=(), formats=(), rank=None, noncontiguous=None, usage=usage)


def test_other_notes_narrowing_the_set_are_seen():
    plain = string_values(_row('mode仅支持{"keep", "floor"}。', '默认值为"keep"。'))
    assert plain is not None and plain.values == ["keep", "floor"] and not plain.narrowed
    narrowed = string_values(_row('支持{"keep", "floor"}。', 'self为INT8时，仅支持{"keep"}。'))
    assert narrowed is not None and narrowed.narrowed
    assert string_values(_row('当self为INT8时，支持{"keep"}。')) is None
    said_with_default = string_values(_row('支持{"keep", "floor"}。',
                                           '取整时仅支持整数，传入空指针时代表"keep"。'))
    assert said_with_default.narrowed  # a restriction beside the default is still one
    unbranched = string_values(_row('支持取值keep/floor。', "当self为INT8时，支持取值keep。"))
    assert unbranched is not None and unbranched.narrowed  # a bare value under a condition
    elsewhere = ['当mode为"floor"时，out必须是nullptr。']  # another row ties a value to an argument
    assert string_values(_row('支持{"keep", "floor"}。'), elsewhere).narrowed
    assert not string_values(_row('支持{"keep", "floor"}。'), ['当other为"floor"时…']).narrowed


@pytest.mark.parametrize(("usage", "draw"), [
    (('支持"keep"、"floor"。其中Atlas A2仅支持"floor"。',), ["floor"]),  # a later part of its cell
    (('支持"keep"、"floor"。', '其中Atlas A2仅支持"floor"。'), ["floor"]),
    (('支持"keep"、"floor"。', 'self为INT8时，不支持"keep"。'), ["floor"]),
    (('支持"keep"、"floor"。', 'self为INT8时，仅支持"keep"。'), ["keep"]),
])
def test_a_narrowed_set_draws_the_value_its_narrowings_keep(usage, draw):
    sv = string_values(_row(*usage))
    assert sv is not None and sv.values == ["keep", "floor"] and sv.narrowed and sv.draw == draw


@pytest.mark.parametrize(("text", "values"), [
    ('mode的值不是"keep"或"floor"', ["keep", "floor"]),
    ('传入的mode不属于""、"2up"以及"down"中的一种', ["", "2up", "down"]),
    ("mode不为“keep”", ["keep"]),
])
def test_an_error_row_quoting_the_set_is_read(text, values):
    found = match(text, ["mode", "self"])
    assert found is not None and found.pattern == "string values"
    assert found.params == ("mode",) and found.limits == {"strings": values}


def test_an_error_row_saying_more_is_not_the_string_set():
    assert match('mode的值不是"keep"或"floor"时，self不能为空', ["mode", "self"]) is None
    assert match('mode的值不是"keep"，或self为空', ["mode", "self"]) is None


# -- a page: aclnnToyDim with a string attribute ---------------------------------------------------
def _page(*usage: str, row: str = "mode、dim不在支持的范围之内。"):
    base = toy_dim()
    proto = (*base.prototype[:2], PrototypeParam("mode", "char*", const=True, optional=False),
             base.prototype[2])
    errors = (*base.errors, error("ACLNN_ERR_PARAM_INVALID", 161002, row, 4))
    return toy_dim(prototype=proto, params=(*base.params, _row(*usage)), errors=errors)


@pytest.fixture(scope="module")
def vocab():
    return load_vocabulary(specs_dir() / VOCABULARY_FILE)


def _value(d, name):
    return next(c for c in d.spec["constraints"] if c["kind"] == "value_in" and c["params"] == [name])


def test_a_row_naming_a_documented_string_is_checkable(vocab):
    d = draft_spec(_page('mode仅支持{"keep", "floor"}。', row="mode不在支持的范围之内。"), vocab, "toy: x.md")
    clause = _value(d, "mode")
    assert clause["values"] == ["keep", "floor"] and clause["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert clause["source"]["quote"] == 'mode不在支持的范围之内 / mode仅支持{"keep", "floor"}。'
    assert d.spec["generate"]["draws"]["mode"] == {"sampled": ["keep", "floor"]}
    assert [o.checkable for o in d.draft.outcomes if o.row == 3] == [True]


def test_a_narrowed_set_draws_its_first_value_and_says_so(vocab):
    d = draft_spec(_page('支持{"keep", "floor"}。', 'self为FLOAT16时，仅支持{"keep"}。',
                         row="mode不在支持的范围之内。"), vocab, "toy: x.md")
    assert _value(d, "mode")["values"] == ["keep", "floor"]
    assert d.spec["generate"]["draws"]["mode"] == {"sampled": ["keep"]}
    reviews = [c["source"]["quote"] for c in d.spec["constraints"] if c["kind"] == "review"]
    assert any("draws 'keep' alone" in q for q in reviews)
    assert any("仅支持{\"keep\"}" in q for q in reviews)  # the narrowing note itself, unread


def test_a_row_quoting_the_set_is_checkable_and_one_quoting_another_is_not(vocab):
    same = draft_spec(_page('mode仅支持{"keep", "floor"}。', row='mode的值不是"keep"或"floor"。'),
                      vocab, "toy: x.md")
    assert [o.checkable for o in same.draft.outcomes if o.row == 3] == [True]
    other = draft_spec(_page('mode仅支持{"keep", "floor"}。', row='mode的值不是"keep"。'), vocab, "toy: x.md")
    assert [o.checkable for o in other.draft.outcomes if o.row == 3] == [False]
    assert _value(other, "mode")["on_violation"] == "unspecified"


def test_a_row_naming_an_attribute_without_a_set_stays_unchecked(vocab):
    d = draft_spec(_page("取整方式。"), vocab, "toy: x.md")  # "mode、dim…": neither has a set
    assert [o.checkable for o in d.draft.outcomes if o.row == 3] == [False]


def _loaded(d, tmp_path):
    """The draft ``d`` written as a pack and loaded: (spec, vocabulary, spec set, its first product,
    that product's first test dtype)."""
    write_pack(tmp_path, [d])
    pack_vocab, _ = vocabulary_for((tmp_path,))
    spec = load_operator(tmp_path / f"{d.api}.yaml", pack_vocab)
    specs = SpecSet(pack_vocab, {spec.api: spec}, pack_vocab.spec_version, "test")
    product = spec.products[0]
    return spec, pack_vocab, specs, product, spec.test_dtypes(product)[0]


def test_the_string_clause_loads_and_its_break_gets_the_code(vocab, tmp_path):
    d = draft_spec(_page('mode仅支持{"keep", "floor"}。', row="mode不在支持的范围之内。"), vocab, "toy: x.md")
    spec, pack_vocab, specs, product, dtype = _loaded(d, tmp_path)
    for mode in ("min", "max"):
        case = build_case(spec, pack_vocab, product, dtype, FixedChooser(mode))
        assert explain(case, specs).expected == "success"
    cid = _value(d, "mode")["id"]
    cases = broken_cases(spec, pack_vocab, product, dtype, FixedChooser("max"), cid)
    assert [c.args["mode"] for c in cases] == ["undocumented"]
    for case in cases:
        e = explain(case, specs)
        assert e.expected == "error" and e.status == (161002,)



# -- an int array of axes naming one axis twice ----------------------------------------------------
@pytest.mark.parametrize("text", ["dims数组中元素重复", "dims中数值重复", "dims数组中的轴重复",
                                  "dims指定的轴重复", "参数dims中存在重复"])
def test_a_duplicates_row_is_read(text):
    found = match(text, ["dims", "self"])
    assert found is not None and found.pattern == "duplicates" and found.params == ("dims",)


@pytest.mark.parametrize("text", ["dims中有值越界，或表示的轴有重复", "dims重复时，self不能为空"])
def test_a_duplicates_row_saying_more_is_not_read(text):
    assert match(text, ["dims", "self"]) is None


def _axes_page(*rows: str):
    base = toy_dim()
    proto = tuple(PrototypeParam("dims", "aclIntArray*", const=True, optional=False) if p.name == "dim"
                  else p for p in base.prototype)
    dims = param("dims", 2, dtypes=(), formats=(), rank=None, noncontiguous=None,
                 usage=("取值范围为[-self.dim(), self.dim()-1]。",))
    params = tuple(dims if p.name == "dim" else p for p in base.params)
    errors = (*base.errors[:1],
              *(error("ACLNN_ERR_PARAM_INVALID", 161002, r, 2 + i) for i, r in enumerate(rows)))
    return toy_dim(prototype=proto, params=params, errors=errors)


def test_duplicate_axes_are_an_expr_clause_counting_axes_from_either_end(vocab, tmp_path):
    d = draft_spec(_axes_page("dims数组中的维度超出self的维度范围。", "dims数组中元素重复。"), vocab,
                   "toy: x.md")
    clause = next(c for c in d.spec["constraints"] if "distinct" in " ".join(c.get("all", [])))
    assert clause["all"] == ["len(distinct(dims, max(self.rank, 1))) == len(dims)"]
    # one axis from each end: a kernel comparing raw values ([0, 0] alone) must fail it too
    assert clause["break"] == {"dims": {"expr": "[-1, max(len(self_shape), 1) - 1]"}}
    assert clause["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert [o.checkable for o in d.draft.outcomes if o.row == 2] == [True]
    spec, pack_vocab, specs, product, dtype = _loaded(d, tmp_path)
    cases = broken_cases(spec, pack_vocab, product, dtype, FixedChooser("max"), clause["id"])
    assert [c.args["dims"] for c in cases] == [(-1, len(cases[0].args["self"].shape) - 1)]
    assert all(explain(c, specs).status == (161002,) for c in cases)


def test_duplicate_axes_take_their_tensor_from_the_notes_else_stay_unchecked(vocab):
    d = draft_spec(_axes_page("dims数组中元素重复。"), vocab, "toy: x.md")  # the notes' [-self.dim(), …]
    texts = [" ".join(c.get("all", [])) for c in d.spec["constraints"]]
    assert any("distinct(dims, max(self.rank, 1))" in t for t in texts)
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [True]
    page = _axes_page("dims数组中元素重复。")
    bare = tuple(replace(p, usage=()) if p.name == "dims" else p for p in page.params)
    d = draft_spec(replace(page, params=bare), vocab, "toy: x.md")  # no range anywhere
    assert not any("distinct" in " ".join(c.get("all", [])) for c in d.spec["constraints"])
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [False]


# -- one value: "yDtype不为0", "dilation的数值不等于1" ------------------------------------------------
@pytest.mark.parametrize(("text", "value"), [("dim不为0", 0), ("dim的取值不为0", 0), ("dim的数值不等于1", 1)])
def test_a_single_value_row_is_read(text, value):
    found = match(text, ["dim", "self"])
    assert found is not None and found.pattern == "single value" and found.limits["values"] == [value]


@pytest.mark.parametrize(("text", "found"), [
    ("self的维度不为2", ("rank", {"ranks": [2]})),  # a rank, not a value
    ("dim不为0时，self不能为空", None),  # a condition
    ("dim不为0或1", ("value out of range", {"values": [0, 1]})),  # two values
])
def test_a_row_saying_more_than_one_value_is_not_single(text, found):
    m = match(text, ["dim", "self"])
    assert (m if m is None else (m.pattern, m.limits)) == found


def test_a_single_value_row_is_a_value_in_clause_unless_the_notes_say_otherwise(vocab):
    base = toy_dim()  # without its dimension-range row: dim is drawn from its values
    errors = (base.errors[0], base.errors[2], error("ACLNN_ERR_PARAM_INVALID", 161002, "dim不为0。", 4))
    alone = draft_spec(toy_dim(errors=errors), vocab, "toy: x.md")
    clause = _value(alone, "dim")
    assert clause["values"] == [0] and clause["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert alone.spec["generate"]["draws"]["dim"] == {"sampled": [0]}
    assert [o.checkable for o in alone.draft.outcomes if o.row == 2] == [True]
    noted = tuple(replace(p, usage=(Sentence("取值为0、1。", p.where),)) if p.name == "dim" else p
                  for p in base.params)
    other = draft_spec(toy_dim(params=noted, errors=errors), vocab, "toy: x.md")
    assert _value(other, "dim")["values"] == [0, 1]
    assert [o.checkable for o in other.draft.outcomes if o.row == 2] == [False]


def test_every_element_of_an_array_is_the_one_value(vocab):
    d = draft_spec(_axes_page("dims的数值不等于1。"), vocab, "toy: x.md")
    clause = next(c for c in d.spec["constraints"] if "max(dims) == 1" in " ".join(c.get("all", [])))
    assert clause["all"] == ["len(dims) == 0 or (min(dims) == 1 and max(dims) == 1)"]
    assert clause["break"] == {"dims": {"expr": "[2]"}}  # the array as drawn ([1]), every element 2
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [True]


# -- a float attribute that must not be zero: "beta为0" -------------------------------------------
def test_a_zero_row_on_a_float_is_a_nonzero_clause_drawn_positive(vocab):
    base = toy_dim()
    proto = (*base.prototype, PrototypeParam("beta", "float", const=True, optional=False))
    beta = param("beta", 4, dtypes=(), formats=(), rank=None, noncontiguous=None)
    errors = (*base.errors, error("ACLNN_ERR_PARAM_INVALID", 161002, "beta为0。", 4))
    d = draft_spec(toy_dim(prototype=proto, params=(*base.params, beta), errors=errors), vocab, "toy: x.md")
    clause = next(c for c in d.spec["constraints"] if c.get("all") == ["beta != 0"])
    assert clause["break"] == {"beta": {"sampled": [0.0]}}
    assert d.spec["generate"]["draws"]["beta"] == {"sampled": [0.5, 1.0]}
    assert [o.checkable for o in d.draft.outcomes if o.row == 3] == [True]
    assert match("self为0", ["self"]).pattern == "zero value"  # read, but a tensor gets no clause
    assert match("beta为0或1", ["beta"]) is None


def test_quoted_names_never_encode_an_int_attribute(vocab):
    base = toy_dim()
    noted = tuple(replace(p, usage=(Sentence("取值为0、1。", p.where),)) if p.name == "dim" else p
                  for p in base.params)
    errors = (base.errors[0], error("ACLNN_ERR_PARAM_INVALID", 161002, 'dim的值不是"keep"或"floor"。', 2))
    d = draft_spec(toy_dim(params=noted, errors=errors), vocab, "toy: x.md")
    assert _value(d, "dim")["on_violation"] == "unspecified"
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [False]
