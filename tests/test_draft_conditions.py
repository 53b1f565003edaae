"""Conditional error rows ("当gated为true时，gateOut为空指针"): conformance/draft/conditions.py on
sentences we wrote, and an invented page in the vendor's layout (tests/fixtures/condition_pages)
drafted, linted and run against the oracle."""
from __future__ import annotations

from pathlib import Path

import pytest
from draft_facts import error, param, toy_dim
from helpers import by_quote, drafted_fixture, oracle_quick

from conformance.cli.main import main
from conformance.draft.conditions import read, split
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PrototypeParam
from conformance.draft.patterns import match

PAGES = Path(__file__).parent / "fixtures" / "condition_pages"
API = "aclnnToyGatedScale"
NAMES = ["x", "biasOptional", "slope", "gated", "mode", "out", "gateOut", "maskOut"]

pytestmark = pytest.mark.usefixtures("no_packs_left")


@pytest.mark.parametrize(("text", "parts"), [
    ("当gated为true时，gateOut为空指针", ("gated为true", "gateOut为空指针")),
    ("gated为false时，slope是负数", ("gated为false", "slope是负数")),
    ("当mode为skip，传入的maskOut是空指针时", ("mode为skip", "传入的maskOut是空指针")),
    ("当gated为true时，maskOut为空指针时", ("gated为true", "maskOut为空指针")),
    ("若biasOptional存在的情况下，out为空指针", ("biasOptional存在", "out为空指针")),
    ("gateOut为空指针", None),  # no condition
    ("当前平台不支持gated", None),  # 当前: no 当…时
])
def test_split(text, parts):
    assert split(text) == parts


def test_a_dtype_row_under_a_condition_reads_as_the_table_lists():
    # (drafted as dtype_in only_if the condition: tests/test_draft_flags.py)
    found = read("当gated为true时，gateOut的数据类型不在支持的范围之内", NAMES)
    assert found is not None and found.params == ("gateOut",)
    assert (found.limits["body"], found.limits["tables"]) == ("table", ("dtype_in",))


def test_read_keeps_the_body_reading_and_the_condition():
    found = read("当gated为true时，gateOut为空指针", NAMES)
    assert found is not None and found.params == ("gateOut",)
    assert (found.limits["condition"], found.limits["body"]) == ("gated为true", "not_null")


@pytest.mark.parametrize("text", [
    "当gated为true时，gateOut和x的数据类型或shape不一致",  # two properties in one body
    "当mode为keep时，gateOut、y的shape不一致",  # y is no parameter: the body says more
    "当mode为keep时，传入gateOut，maskOut为空指针",  # a list or two statements
    "当gated为true时，gateOut的数据类型不是FLOAT",  # a dtype named: not the table's lists
    "当gated为true时，gateOut与x的broadcast结果不一致",  # not a kind stated here
])
def test_bodies_not_read_exactly_are_left(text):
    assert read(text, NAMES) is None


drafted = drafted_fixture(PAGES, API)


def test_conditional_clauses_and_their_breaks(drafted):
    _, spec = drafted
    by = by_quote(spec)
    gate = by["当gated为true时，gateOut为空指针"]
    assert gate["all"] == ["not (gated) or present(gateOut)"]
    assert gate["on_violation"] == "ACLNN_ERR_PARAM_NULLPTR"
    assert gate["break"] == {"gated": {"sampled": [True]}, "gateOut_own_shape": {"sampled": [None]}}
    mask = by["当mode为skip，maskOut传入了空指针时"]  # a value the mode row quotes
    assert mask["all"] == ["not (mode == 'skip') or present(maskOut)"]
    assert mask["break"] == {"mode": {"sampled": ["skip"]}, "maskOut_own_shape": {"sampled": [None]}}
    slope = by["gated为false时，slope是负数"]
    assert slope["all"] == ["not (not gated) or slope.value >= 0"]
    assert slope["break"] == {"gated": {"sampled": [False]}, "slope": {"sampled": [-1.0]}}
    bias = by["biasOptional存在输入时，shape与x不相同"]  # the given tensor is the subject
    assert bias["all"] == ["not (present(biasOptional)) or x.shape == biasOptional.shape"]
    assert bias["break"] == {"biasOptional_own_shape": {"mode": "perturb"}}
    draws, args = spec["generate"]["draws"], spec["generate"]["args"]
    assert draws["gateOut_own_shape"] == {"expr": args["out"]} and args["gateOut"] == "gateOut_own_shape"


def test_conditions_not_read_stay_for_review(drafted):
    _, spec = drafted
    reviewed = {c["source"]["quote"] for c in spec["constraints"] if c["kind"] == "review"}
    assert {"当gated为true时，gateOut和x的数据类型或shape不一致",
            "当mode为keep时，gateOut、y的shape不一致"} <= reviewed


def test_a_dtype_condition_and_a_value_condition_on_one_tensor(drafted):
    # (dtype conditions: tests/test_draft_dtype_conditions.py) both clauses draw maskOut null:
    # one reading present(maskOut) does not stop the other drawing it
    _, spec = drafted
    by = by_quote(spec)
    dtype = by["当x的数据类型为FLOAT16时，maskOut传入了空指针"]
    assert dtype["all"] == ["not (x.dtype == 'FLOAT16') or present(maskOut)"]
    assert dtype["break"] == {"maskOut_own_shape": {"sampled": [None]}}
    assert by["当mode为skip，maskOut传入了空指针时"]["kind"] == "expr"


@pytest.mark.slow
def test_the_draft_lints_and_its_breaks_are_judged(drafted, tmp_path):
    out, spec = drafted
    assert main(["lint", "--specs", str(out)]) == 0
    report = oracle_quick(out, API, tmp_path)
    assert report["errors"] == [] and report["findings"] == []
    conditional = {c["id"] for c in spec["constraints"] if "时" in c["source"]["quote"]
                   and c["kind"] == "expr"}
    judged = {r["clause"] for r in report["results"] if r["kind"] == "status" and r["outcome"] == "pass"
              and r["cases"] > 0}
    assert len(conditional) == 5 and conditional <= judged


def test_a_required_tensor_another_clause_reads_is_never_drawn_null():
    from types import SimpleNamespace

    from conformance.draft.conditional_breaks import _nullable
    ctx = SimpleNamespace(params={"rstd": {"kind": "tensor"}, "bias": {"kind": "tensor", "optional": True}})
    mine = {"all": ["not (outputRstd) or present(rstd)"]}
    empty = {"all": ["rstd.numel > 0"]}
    behavior = {"kind": "behavior", "when": "not rstd.contiguous"}
    assert not _nullable(ctx, [mine, empty], mine, {"null": "rstd"})  # rstd.numel on null: no
    assert _nullable(ctx, [mine, behavior], mine, {"null": "rstd"})  # a when that fails is silent
    assert _nullable(ctx, [mine, {"all": ["bias.numel > 0"]}], mine, {"null": "bias"})  # optional
    given = {"all": ["not (x.dtype == 'INT32') or present(rstd)"]}  # says what null means
    assert _nullable(ctx, [mine, given], mine, {"null": "rstd"})


# -- a rule said where an optional argument is given ("X存在时", "X不为空指针时", "传入X时") ---------
@pytest.mark.parametrize(("text", "found"), [
    # on the given argument itself (or relating it to one other): it holds where it is given anyway
    ("biasOptional存在时，biasOptional的shape与out不一致", ("shapes differ", ("biasOptional", "out"))),
    ("biasOptional存在时，其shape与out不一致", ("shapes differ", ("biasOptional", "out"))),
    ("biasOptional不为空指针时，biasOptional的维度超过8维", ("rank", ("biasOptional",))),
    # on other arguments: never an unconditional clause
    ("biasOptional存在时，x的shape与out不一致", None),
    ("biasOptional不为空时，x的数据类型不在支持的范围之内", None),
    ("biasOptional不为空指针时，x的维度超过8维", None),
    ("biasOptional非空时，out的维度不为2", None),
    ("biasOptional不为空时，gateOut为空指针", None),
    ("biasOptional存在时，mode不在支持的范围之内", None),
    ("biasOptional不为空时，biasOptional和x的数据类型不在支持的范围之内", None),  # x's list too
    ("biasOptional为空指针时，gateOut为空指针", None),  # a condition on its absence
    ("传入biasOptional时，x的shape与out不一致", None),
    ("weight不为空指针时，数据类型不在支持的范围之内", None),  # weight is no parameter of the page
])
def test_a_rule_where_an_optional_argument_is_given_is_unconditional_only_on_it(text, found):
    m = match(text, NAMES)
    assert (m if m is None else (m.pattern, m.params)) == found


@pytest.mark.parametrize(("text", "condition", "body"), [
    ("biasOptional存在时，x的shape与out不一致", "biasOptional存在", "same_shape"),
    ("传入biasOptional时，gateOut为空指针", "传入biasOptional", "not_null"),
    ("biasOptional不为空指针时，gateOut为空指针", "biasOptional不为空指针", "not_null"),
    ("biasOptional不为空时，gateOut为空指针", "biasOptional不为空", "not_null"),
])
def test_such_a_rule_on_another_argument_is_read_as_conditional(text, condition, body):
    found = read(text, NAMES)
    assert found is not None and (found.limits["condition"], found.limits["body"]) == (condition, body)


def _given_page(*rows: str):
    base = toy_dim()
    given = ("biasOptional", "scaleOptional")
    proto = (*base.prototype, *(PrototypeParam(n, "aclTensor*", const=True, optional=True) for n in given))
    rows_of = tuple(param(n, 4 + i, dtypes=("FLOAT", "FLOAT16"), optional=True) for i, n in enumerate(given))
    errors = (*base.errors, *(error("ACLNN_ERR_PARAM_INVALID", 161002, r, 4 + i) for i, r in enumerate(rows)))
    return toy_dim(prototype=proto, params=(*base.params, *rows_of), errors=errors)


def test_a_given_condition_becomes_a_conditional_clause_or_a_review(vocab):
    rows = ("传入biasOptional时，scaleOptional为空指针。", "biasOptional不为空指针时，self的维度超过4维。",
            "biasOptional不为空时，scaleOptional为空指针。")
    d = draft_spec(_given_page(*rows), vocab, "toy: x.md")
    by = {}
    for c in d.spec["constraints"]:
        by.setdefault(c["source"]["quote"].split(" / ")[0], []).append(c)
    given = by["传入biasOptional时，scaleOptional为空指针"]
    assert [(c["kind"], c["all"]) for c in given] == [
        ("expr", ["not (present(biasOptional)) or present(scaleOptional)"])]
    assert [c["kind"] for c in by["biasOptional不为空指针时，self的维度超过4维"]] == ["review"]
    assert [c["kind"] for c in by["biasOptional不为空时，scaleOptional为空指针"]] == ["review"]  # or empty?
    assert not any(c["kind"] == "rank_in" and 4 in c.get("ranks", []) for c in d.spec["constraints"])




# -- a conditional shape tie on a tensor drawn as a guess, or beside a same_shape group ------------
def _flag_page(*rows: str, optional: bool = True):
    """aclnnToyDim with a bool ``flag`` and a tensor ``maxRef`` whose shape no note gives (optional or
    not), and ``rows`` under ACLNN_ERR_PARAM_INVALID."""
    base = toy_dim()
    proto = (*base.prototype, PrototypeParam("flag", "bool", const=True, optional=False),
             PrototypeParam("maxRef", "aclTensor*", const=False, optional=optional))
    extra = (param("flag", 4, dtypes=("BOOL",), formats=(), rank=None, noncontiguous=None),
             param("maxRef", 5, direction="output", dtypes=("FLOAT", "FLOAT16"), rank=(0, 8),
                   optional=optional))
    errors = (*base.errors, *(error("ACLNN_ERR_PARAM_INVALID", 161002, r, 4 + i) for i, r in enumerate(rows)))
    return toy_dim(prototype=proto, params=(*base.params, *extra), errors=errors)


def _clause(d, quote: str) -> dict:
    return next(c for c in d.spec["constraints"] if c["source"]["quote"].split(" / ")[0] == quote)


def test_an_optional_tensor_is_the_one_perturbed_and_drawn_with_the_shape_it_is_held_to(vocab):
    row = "当flag为true时，maxRef和self的shape不一致"
    d = draft_spec(_flag_page(f"{row}。"), vocab, "toy: x.md")
    c = _clause(d, row)
    assert c["all"] == ["not (flag) or not present(maxRef) or self.shape == maxRef.shape"]
    assert c["break"] == {"flag": {"sampled": [True]}, "maxRef_own_shape": {"mode": "perturb"}}
    draws, args = d.spec["generate"]["draws"], d.spec["generate"]["args"]
    assert args["maxRef"] == "maxRef_own_shape" and draws["maxRef_own_shape"] == {"expr": args["self"]}
    assert all(o.checkable for o in d.draft.outcomes)


def test_a_tensor_of_a_same_shape_group_is_not_the_one_perturbed(vocab):
    # out is tied to self ("shape与self一致"); moving out would break that tie too: maxRef moves
    row = "当flag为true时，maxRef和out的shape不一致"  # (out, the last output named, was moved)
    d = draft_spec(_flag_page(f"{row}。", optional=False), vocab, "toy: x.md")
    c = _clause(d, row)
    assert c["all"] == ["not (flag) or out.shape == maxRef.shape"]
    assert c["break"] == {"flag": {"sampled": [True]}, "maxRef_own_shape": {"mode": "perturb"}}
    assert all(o.checkable for o in d.draft.outcomes)


def test_a_rule_on_a_tensor_given_is_read_as_the_rule_on_it():
    """"当X不为空且X的数据类型不在支持的范围之内": the rule on the optional X, which holds where X is
    given (as every clause on an optional tensor does); a rule on another tensor stays conditional."""
    found = match("当wOut不为空且wOut的数据类型不在支持的范围之内", ("wOut", "x"))
    assert (found.pattern, found.params) == ("dtype not supported", ("wOut",))
    assert match("当wOut不为空且x的数据类型不在支持的范围之内", ("wOut", "x")) is None
