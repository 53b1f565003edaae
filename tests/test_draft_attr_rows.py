"""Attribute error rows drafted into checkable clauses: a dimension range written out
("[-self的维度数, self的维度数-1]"), an element sign ("stride中元素值不大于0"), a sign and an interval
stated as the condition that fails ("不满足>0", "不满足0<keep≤1"), two attributes in the wrong order
("lowBound的取值大于highBound"), an int attribute's bracketed range, a float fixed to one value, a
required string passed as a null pointer, an int array's length bound, int arrays of one length
and a tensor refused empty by its last dims. The page, tests/fixtures/attr_pages, is invented and
written in the vendor's layout."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_draft_rows import _valid_and_broken_alone

from conformance.draft import order_clauses
from conformance.draft.context import Evidence
from conformance.draft.emit import draft_spec
from conformance.draft.facts import Sentence
from conformance.draft.patterns import match
from conformance.draft.reading import read_page
from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, specs_dir

PAGE = Path(__file__).parent / "fixtures" / "attr_pages" / "docs" / "aclnnToyKnobs.md"
NAMES = ("self", "out", "selfRef", "dim", "stride", "taps", "head", "tail", "outputSize", "layers", "keep",
         "lowBound", "highBound", "min", "max")


@pytest.fixture(scope="module")
def knobs():  # noqa: ANN201 - a DraftedSpec
    vocab = load_vocabulary(specs_dir() / VOCABULARY_FILE)
    facts = read_page(PAGE.read_text(encoding="utf-8"), str(PAGE), vocab, "aclnnToyKnobs")
    return draft_spec(facts, vocab, "toy")


def _clause(d, quote: str) -> dict:  # noqa: ANN001
    return next(c for c in d.spec["constraints"] if c["source"]["quote"] == quote)


def test_every_error_row_of_the_page_is_checkable(knobs):
    assert {o.sentence.text: o.checkable for o in knobs.draft.outcomes} == dict.fromkeys([
        "self、stride、out之一为空指针", "self或out的数据类型不属于支持的范围", "self和out的shape不相同",
        "dim的取值落在[-self的维度数, self的维度数-1]以外", "stride的长度不等于2", "stride中元素值不大于0",
        "传入的layers不满足>0", "参数keep不满足0<keep≤1", "lowBound的取值大于highBound",
        "level的取值超出[1, 3]范围", "gain不为1", "mode传入了空指针", "taps的元素个数超过4",
        "head和tail的元素个数不一致", "self是空Tensor，且self后两维存在维度大小为0"], True)


def test_the_attribute_rows_are_the_clauses_they_say(knobs):
    def said(quote: str) -> tuple:
        c = _clause(knobs, quote)
        return c["kind"], c["all"], c["break"], c["on_violation"]

    invalid = "ACLNN_ERR_PARAM_INVALID"
    assert said("dim的取值落在[-self的维度数, self的维度数-1]以外") == (
        "expr", ["dim >= -max(self.rank, 1) and dim < max(self.rank, 1)"],
        {"dim": {"outside": ["-max(len(self_shape), 1)", "max(len(self_shape), 1) - 1"]}}, invalid)
    assert said("stride中元素值不大于0") == (
        "expr", ["len(stride) == 0 or min(stride) > 0"], {"stride": {"expr": "[1] * (2 - 1) + [0]"}}, invalid)
    assert said("传入的layers不满足>0") == ("expr", ["layers > 0"], {"layers": {"sampled": [0, -1]}}, invalid)
    assert said("参数keep不满足0<keep≤1") == (
        "expr", ["(keep > 0 and keep <= 1)"], {"keep": {"sampled": [-1.0, 2.0]}}, invalid)
    # (a length clause on an int array is exact: a bound is an expr, broken one past it)
    assert said("taps的元素个数超过4") == ("expr", ["len(taps) <= 4"], {"taps": {"expr": "[1] * 5"}}, invalid)
    # the last array one longer than drawn, the first as drawn
    assert said("head和tail的元素个数不一致") == (
        "expr", ["len(head) == len(tail)"], {"tail": {"expr": "[1] + [1]"}}, invalid)
    # a zero among the last two dims at every rank self is drawn in (2 or 3): index 1
    assert said("self是空Tensor，且self后两维存在维度大小为0") == (
        "expr", ["len(self.shape) == 0 or min(self.shape[-2:]) > 0"],
        {"self_shape": {"mode": "zero_dim", "at": [1]}}, invalid)
    assert said("lowBound的取值大于highBound") == (
        "expr", ["lowBound <= highBound"], {"highBound": {"expr": "lowBound - 1"}}, invalid)


def test_an_int_range_a_fixed_float_and_a_null_string(knobs):
    quotes = ("level的取值超出[1, 3]范围", "gain不为1", "mode传入了空指针")
    level, gain, mode = (_clause(knobs, q) for q in quotes)
    assert (level["kind"], level["params"], level["values"]) == ("value_in", ["level"], [1, 2, 3])
    assert (gain["kind"], gain["all"]) == ("expr", ["gain == 1"])
    assert gain["break"] == {"gain": {"sampled": [2.0, 0.0]}}
    # a clause apart from the tensors' (a string drawn null would take theirs with it)
    assert (mode["kind"], mode["params"]) == ("not_null", ["mode"])
    assert mode["on_violation"] == "ACLNN_ERR_PARAM_NULLPTR"
    draws = knobs.spec["generate"]["draws"]
    assert (draws["level"], draws["gain"], draws["mode"]) == (
        {"sampled": [1, 2, 3]}, {"sampled": [1.0]}, {"sampled": ["up", "down"]})


def test_valid_draws_honour_the_rows(knobs):
    draws = knobs.spec["generate"]["draws"]
    assert draws["layers"] == {"integers": [1, 2]}  # positive
    assert draws["keep"] == {"sampled": [0.25, 0.5, 0.75]}  # inside, never on a bound
    assert draws["highBound"] == {"expr": "lowBound + 1"}  # after lowBound, one above it
    assert list(draws).index("highBound") > list(draws).index("lowBound")


def test_each_coded_clause_breaks_alone(knobs, tmp_path):
    _valid_and_broken_alone(knobs, tmp_path)


@pytest.mark.parametrize("text, pattern, params, limits", [
    ("dim的值不在[-selfRef的维度数量, selfRef的维度数量-1]之间", "dimension range", ("dim", "selfRef"), {}),
    ("dim超出[-rank, rank-1]", "dimension range", ("dim",), {}),
    ("outputSize或stride的元素值不大于0", "element sign", ("outputSize", "stride"),
     {"positive": True, "elements": True}),
    ("layers不满足>=0", "value sign", ("layers",), {"positive": False}),
    ("layers不为自然数", "value sign", ("layers",), {"positive": False}),  # (自然数: from 0)
    ("传入的keep不是自然数", "value sign", ("keep",), {"positive": False}),
    ("keep不满足0≤keep≤1", "value interval", ("keep",),
     {"low": 0.0, "high": 1.0, "open_low": False, "open_high": False, "values": [0, 1]}),
    ("dim 不在 [-2, 1] 范围内", "value interval", ("dim",),  # an int attribute's values
     {"low": -2.0, "high": 1.0, "open_low": False, "open_high": False, "values": [-2, -1, 0, 1]}),
    ("dim的值不在0和1之间", "value interval", ("dim",), {"low": 0.0, "high": 1.0}),  # bounds in doubt
    ("输入lowBound的值小于等于输入highBound的值", "attribute order", ("lowBound", "highBound"),
     {"order": ("lowBound", ">", "highBound")}),
    ("传入的stride或taps的长度小于2", "length bound", ("stride", "taps"), {"min": 2}),
    ("begin和end和stride的长度不一致", "lengths differ", ("stride",), {}),  # (names off the page)
    ("head、tail中元素个数不相同", "lengths differ", ("head", "tail"), {}),
    ("out为空tensor且存在非第一维度的大小为0", "empty by some dims", ("out",), {"tensor": "out", "from": 1}),
    ("self或out为空tensor，且self后4维存在维度大小为0", "empty by some dims", ("self", "out"),
     {"tensor": "self", "last": 4}),
    ("3维out不支持为空tensor", "empty by some dims", ("out",), {"tensor": "out", "rank": 3}),
    ("四维out为空tensor且存在非batch size维度的值为0", "empty by some dims", ("out",),
     {"tensor": "out", "rank": 4, "from": 1}),
    ("out在非第一维度上的size小于1", "empty by some dims", ("out",), {"tensor": "out", "from": 1}),
    ("self在C、D、H、W维度上的size大小不大于0", "empty by some dims", ("self",),
     {"tensor": "self", "last": 4}),
    ("self在H、W维度上的size不大于0", "empty by some dims", ("self",), {"tensor": "self", "last": 2}),
    ("self的shape在C、H、W的某个轴为0", "empty by some dims", ("self",), {"tensor": "self", "last": 3}),
    ("out为4D时，out为空", "empty by some dims", ("out",), {"tensor": "out", "rank": 4}),
    ("当out为5D为空tensor时，且存在非第一维度的大小为0", "empty by some dims", ("out",),
     {"tensor": "out", "rank": 5, "from": 1}),
    ("highBound<= lowBound", "attribute order", ("highBound", "lowBound"),
     {"order": ("highBound", ">", "lowBound")}),
    ("输入highBound的值不等于输入lowBound的值", "attribute order", ("highBound", "lowBound"),
     {"order": ("highBound", "==", "lowBound")}),
])
def test_attribute_phrasings(text, pattern, params, limits):
    found = match(text, NAMES)
    assert found is not None and (found.pattern, found.params, found.limits) == (pattern, params, limits)


@pytest.mark.parametrize("text", [
    "keep不满足0≤layers≤1",  # another attribute's interval
    "lowBound大于lowBound",
    "stride的长度小于等于1",  # (not the phrasing read)
    "stride的长度超过8或者为0",
    "self为空tensor且存在非batch size维度的值为0",  # which is the batch dim of an unbatched self?
    "self在除N维度外各维度的size大小不大于0",  # (a C, D, H, W self has no N: all its dims then)
    "self在N、C维度上的size大小不大于0",  # (the first dims: not these rows')
    "out为4D时，self为空",  # (a rank of one tensor, another empty: no rule on out's emptiness)
    "self的Size大于noise的Size",  # sizes, not the attributes
])
def test_phrasings_saying_something_else_are_not_read_so(text):
    assert match(text, NAMES) is None


def test_an_order_names_attributes_the_expression_language_also_names(knobs):
    """"min" and "max" are functions of the expression language, not called here: the attributes
    (spec/expression_names.py; the whole page is tests/test_draft_keyword_names.py)."""
    found = match("传入的min大于max", NAMES)
    assert found is not None and found.pattern == "attribute order"
    ctx = knobs.draft.ctx
    attrs = {"min": {"kind": "int", "role": "attr"}, "max": {"kind": "int", "role": "attr"}}
    probe = replace(ctx, params={**ctx.params, **attrs}, ids={})
    said = Sentence("传入的min大于max", knobs.draft.outcomes[0].sentence.where)
    e = Evidence("order", found.pattern, found.params, "ACLNN_ERR_PARAM_INVALID", said, found.limits, 0)
    assert [(c["all"], c["_order"]) for c in order_clauses.clauses(probe, [e])] == \
        [(["min <= max"], ("min", "max", "<="))]


def test_an_empty_row_breaks_where_it_can_and_is_reviewed_where_no_index_fits():
    """Ranks 3 or 4, the last three dims: indices 1 and 2 are among them at both; ranks 1 to 8,
    the last two: no index is at every rank."""
    from conformance.draft import empty_dims

    def resolved(how: str, n: int, ranks: list[int]) -> tuple[list, list]:
        said = Sentence("q", None)
        c = {"break": {"x_shape": {"mode": "zero_dim"}}, "_zero_at": ("x", how, n),
             "_evidence": [Evidence("empty_dims", "empty by some dims", ("x",), "S", said, {}, 0)]}
        clauses, reviewed = [c], []
        empty_dims.zero_at({"x": "x_shape"}, {"x_shape": {"shape": {"rank": ranks}}}, clauses,
                           lambda s, name: reviewed.append((s.text, name)))
        return [k["break"]["x_shape"].get("at") for k in clauses], reviewed

    assert resolved("last", 3, [3, 4]) == ([[1, 2]], [])
    assert resolved("from", 1, [2, 3]) == ([[1, 2]], [])
    assert resolved("last", 2, [1, 8]) == ([], [("q", "empty tensor")])


@pytest.mark.parametrize(("limits", "text", "zero_at"), [
    ({"tensor": "self", "rank": 3}, "len(self.shape) != 3 or self.numel > 0", None),
    ({"tensor": "self", "rank": 4, "from": 1}, "len(self.shape) != 4 or min(self.shape[1:]) > 0",
     ("self", "from", 1)),
    ({"tensor": "self", "from": 1}, "len(self.shape) < 2 or min(self.shape[1:]) > 0", ("self", "from", 1)),
    ({"tensor": "self", "last": 3}, "len(self.shape) == 0 or min(self.shape[-3:]) > 0", ("self", "last", 3)),
])
def test_the_empty_clauses_by_dims_and_rank(knobs, limits, text, zero_at):
    from conformance.draft import empty_dims

    said = knobs.draft.outcomes[0].sentence
    e = Evidence("empty_dims", "empty by some dims", ("self",), "ACLNN_ERR_PARAM_INVALID", said, limits, 0)
    (c,) = empty_dims.clauses(replace(knobs.draft.ctx, ids={}), [e], {"N": ["self"]})
    assert (c["all"], c["_break"], c.get("_zero_at")) == ([text], ("zero_dim", "self"), zero_at)
    assert c["requires"] == ["N"]


def test_equal_attributes_are_drawn_equal_and_broken_one_apart(knobs):
    """"numSeqs的值不等于numQueries的值": the attribute nothing else speaks of is drawn as the other
    (numSeqs here, numQueries being a tensor's dimension), and broken one above it."""
    ctx = knobs.draft.ctx
    attrs = {"numSeqs": {"kind": "int", "role": "attr"}, "numQueries": {"kind": "int", "role": "attr"}}
    probe = replace(ctx, params={**ctx.params, **attrs}, ids={})
    said = Sentence("numSeqs的值不等于numQueries的值", knobs.draft.outcomes[0].sentence.where)
    found = match(said.text, ("numSeqs", "numQueries"))
    e = Evidence("order", found.pattern, found.params, "ACLNN_ERR_PARAM_INVALID", said, found.limits, 0)
    (clause,) = order_clauses.clauses(probe, [e])
    other = {"id": "T-SHAPE", "kind": "expr", "all": ["out.shape == [numQueries, 1]"]}
    draws = {"numSeqs": {"integers": [0, 1]}, "numQueries": {"integers": [1, 4]}}
    assert order_clauses.draws(probe, draws, [clause, other], lambda n: n, lambda *a: None) == {"numSeqs"}
    assert clause["all"] == ["numSeqs == numQueries"]
    assert draws == {"numQueries": {"integers": [1, 4]}, "numSeqs": {"expr": "numQueries"}}
    assert clause["break"] == {"numSeqs": {"expr": "numQueries + 1"}}
