"""Conditions on flags: the ``bool_array`` parameter kind (an ``aclBoolArray*`` such as outputMask)
and conditional rows on one of its elements ("当needGrads[0]为true，传入的gradX是空指针时",
"needGrads[1]为True且gradScale为空指针"), or on an attribute's value with no comma ("mode为skip时eps
是负数"): conformance/draft/conditions.py, conditional_breaks.py, an invented page in the vendor's
layout (tests/fixtures/flag_pages) drafted, linted and run against the oracle, and the kind in the
spec language (case files, the length break)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from helpers import by_quote, drafted_fixture, oracle_quick

from conformance.cases.case import case_from_dict, case_to_dict
from conformance.cases.oracle import explain
from conformance.cli.main import main
from conformance.draft.condition_phrasings import is_conditional
from conformance.draft.conditions import read, split
from conformance.draft.patterns import match
from conformance.errors import CaseError, SpecError
from conformance.generate.breaks import variants
from conformance.generate.dry_run import load_specs
from conformance.spec.compare import compare_ids
from conformance.spec.loader import read_operator
from conformance.spec.meaning import facts, unexpressed

PAGES = Path(__file__).parent / "fixtures" / "flag_pages"
API = "aclnnToyFlaggedGrad"
NAMES = ["gradY", "x", "scale", "needGrads", "mode", "eps", "strict", "gradX", "gradScale", "gradShift"]

pytestmark = pytest.mark.usefixtures("no_packs_left")


@pytest.mark.parametrize(("text", "parts"), [
    ("当needGrads[0]为true，gradX的shape与x的shape不相同",
     ("needGrads[0]为true", "gradX的shape与x的shape不相同")),
    ("当needGrads[0]为true，传入的gradX是空指针时", ("needGrads[0]为true", "传入的gradX是空指针")),
    ("needGrads[1]为True且gradScale为空指针", ("needGrads[1]为True", "gradScale为空指针")),
    ("mode为skip时eps是负数", ("mode为skip", "eps是负数")),
    ("mode为\"skip\"时gradX为空指针", ("mode为\"skip\"", "gradX为空指针")),
    ("x和gradX同时为空指针", None),  # 同时: no condition
    ("gradX为空指针且x为空指针", None),  # a conjunction with no flag first
])
def test_split(text, parts):
    assert split(text) == parts


def test_a_flag_conjunction_is_no_unconditional_null_row():
    # (it was read as "gradScale is null" naming needGrads and True: never a clause either way)
    assert is_conditional("needGrads[1]为True且gradScale为空指针")
    assert match("needGrads[1]为True且gradScale为空指针", NAMES) is None
    found = read("needGrads[1]为True且gradScale为空指针", NAMES)
    assert found is not None and found.params == ("gradScale",) and found.limits["body"] == "not_null"


drafted = drafted_fixture(PAGES, API)


def test_the_bool_array_is_a_parameter_drawn_all_true(drafted):
    _, spec = drafted
    assert spec["params"]["needGrads"] == {"kind": "bool_array", "role": "attr"}
    assert spec["generate"]["draws"]["needGrads"] == {"expr": "[True] * 3"}  # the length row's 3
    length = by_quote(spec)["needGrads的长度不为3"]
    assert (length["kind"], length["params"], length["length"]) == ("length", ["needGrads"], 3)
    null = by_quote(spec)["传入的gradY、x、scale、needGrads是空指针"]
    assert null["kind"] == "not_null" and "needGrads" in null["params"]


def test_element_conditions_and_their_breaks(drafted):
    _, spec = drafted
    by = by_quote(spec)
    length = by["needGrads的长度不为3"]["id"]
    grad_x = by["当needGrads[0]为true，传入的gradX是空指针时"]
    assert grad_x["all"] == ["not (needGrads[0]) or present(gradX)"]
    assert grad_x["on_violation"] == "ACLNN_ERR_PARAM_NULLPTR" and length in grad_x["requires"]
    assert grad_x["break"] == {"needGrads": {"sampled": [[True, True, True]]},
                               "gradX_own_shape": {"sampled": [None]}}
    grad_scale = by["needGrads[1]为True且gradScale为空指针"]
    assert grad_scale["all"] == ["not (needGrads[1]) or present(gradScale)"]
    # the shape rule under the same condition requires the null rule: never read on a null gradX
    shape = by["当needGrads[0]为true，gradX的shape与x的shape不相同"]
    assert shape["all"] == ["not (needGrads[0]) or x.shape == gradX.shape"]
    assert {grad_x["id"], length} <= set(shape["requires"])
    assert shape["break"] == {"needGrads": {"sampled": [[True, True, True]]},
                              "gradX_own_shape": {"mode": "perturb"}}  # the output, not x
    eps = by["mode为skip时eps是负数"]
    assert eps["all"] == ["not (mode == 'skip') or eps >= 0"]
    assert eps["break"] == {"mode": {"sampled": ["skip"]}, "eps": {"sampled": [-1.0]}}


def test_a_dtype_row_under_a_condition_is_the_table_list_only_if_it_holds(drafted):
    _, spec = drafted
    by = by_quote(spec)
    dtype = by["当needGrads[2]为true时，gradShift的数据类型不在支持的范围之内"]
    assert (dtype["kind"], dtype["params"], dtype["only_if"]) == ("dtype_in", ["gradShift"], "needGrads[2]")
    assert dtype["per_product"] == {"atlas-a3": ["FLOAT", "FLOAT16"], "atlas-a2": ["FLOAT", "FLOAT16"]}
    assert dtype["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    length, null = by["needGrads的长度不为3"]["id"], by["传入的gradY、x、scale、needGrads是空指针"]["id"]
    assert set(dtype["requires"]) == {length, null}  # needGrads[2] is read only where it exists
    # the table's own (unspecified) list on gradShift broke only with it: the coded one stays
    assert [c["id"] for c in spec["constraints"] if c["kind"] == "dtype_in" and "gradShift" in c["params"]] \
        == [dtype["id"]]


def test_only_if_is_judged_where_its_condition_holds_and_compared_by_id(drafted):
    out, spec = drafted
    specs = load_specs(out)
    op = specs.operators[API]
    clause = by_quote(spec)["当needGrads[2]为true时，gradShift的数据类型不在支持的范围之内"]["id"]
    float_ = {"shape": [2], "dtype": "FLOAT"}
    args = {**{n: float_ for n in ("gradY", "x", "scale", "gradX", "gradScale")},
            "gradShift": {"shape": [2], "dtype": "INT32"}, "mode": "keep", "eps": 0.5, "strict": True}

    def broken(mask):
        case = case_from_dict({"api": API, "product": "atlas-a2", "args": {**args, "needGrads": mask}}, specs)
        return {v.clause for v in explain(case, specs).violations}

    assert broken([True, True, True]) == {clause}
    assert broken([True, True, False]) == set()  # the condition does not hold: no clause speaks
    assert clause in {c.id for c in unexpressed(op)}
    assert all(clause not in f.clauses for f in facts(op).values())


@pytest.mark.parametrize(("text", "values"), [
    ("strict参数不等于true", [True]), ("strict不是false", [False]), ("strict的取值不为TRUE", [True]),
    ("strict不等于1", [1]),  # (an int's row: value_in on ints, attr_clauses.py)
])
def test_a_flag_that_must_be_one_value(text, values):
    found = match(text, NAMES)
    assert found is not None and found.pattern == "single value" and found.limits["values"] == values
    assert [type(v) for v in found.limits["values"]] == [type(v) for v in values]


def test_a_fixed_flag_is_drawn_as_it_and_broken_by_the_other(drafted):
    out, spec = drafted
    fixed = by_quote(spec)["strict参数不等于true"]
    assert (fixed["kind"], fixed["params"], fixed["values"]) == ("value_in", ["strict"], [True])
    assert fixed["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert spec["generate"]["draws"]["strict"] == {"sampled": [True]}
    specs = load_specs(out)
    op = specs.operators[API]
    clause = next(c for c in op.constraints if c.id == fixed["id"])
    assert [v["strict"] for v in variants(clause, {"strict": True}, op, specs.vocabulary, "atlas-a2")] \
        == [False]  # never 2 or 0: a C bool would read 2 as true


def test_what_is_not_read_exactly_stays_for_review(drafted):
    _, spec = drafted
    reviewed = {c["source"]["quote"] for c in spec["constraints"] if c["kind"] == "review"}
    assert {"当needGrads[4]为true，传入的gradShift是空指针时",  # past the array's length
            "当needGrads[2]为true，gradShift的数据类型、数据格式和shape不在支持的范围之内"} <= reviewed


@pytest.mark.slow
def test_the_draft_lints_and_its_breaks_are_judged(drafted, tmp_path):
    out, spec = drafted
    assert main(["lint", "--specs", str(out)]) == 0
    report = oracle_quick(out, API, tmp_path)
    assert report["errors"] == [] and report["findings"] == []
    flagged = {c["id"] for c in spec["constraints"] if c["kind"] in ("expr", "length")}
    judged = {r["clause"] for r in report["results"] if r["kind"] == "status" and r["outcome"] == "pass"
              and r["cases"] > 0}
    assert len(flagged) == 6 and flagged <= judged
    assert by_quote(spec)["strict参数不等于true"]["id"] in judged
    dtype = by_quote(spec)["当needGrads[2]为true时，gradShift的数据类型不在支持的范围之内"]["id"]
    assert dtype in judged


# -- the kind in the spec language ---------------------------------------------------------------
def test_a_bool_array_in_case_files_and_its_length_break(drafted, tmp_path):
    out, spec = drafted
    specs = load_specs(out)
    op = specs.operators[API]
    tensor = {"shape": [2], "dtype": "FLOAT"}
    args = {**{n: tensor for n in ("gradY", "x", "scale", "gradX", "gradScale", "gradShift")},
            "mode": "keep", "eps": 0.5, "strict": True, "needGrads": [True, False, True]}
    doc = {"api": API, "product": "atlas-a2", "args": args}
    case = case_from_dict(doc, specs)
    assert case.args["needGrads"] == (True, False, True)
    assert case_to_dict(case, {})["args"]["needGrads"] == [True, False, True]
    with pytest.raises(CaseError, match="true/false"):
        case_from_dict({**doc, "args": {**args, "needGrads": [1, 0, 1]}}, specs)
    length = next(c for c in op.constraints if c.kind == "length")
    grown, shrunk = variants(length, {"needGrads": (True, True, True)}, op, specs.vocabulary, "atlas-a2")
    assert (grown["needGrads"], shrunk["needGrads"]) == ((True, True, True, True), (True, True))


def test_a_length_clause_on_a_bool_array_is_exact(drafted, tmp_path):
    out, _ = drafted
    text = (out / f"{API}.yaml").read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    clause = next(c for c in doc["constraints"] if c["kind"] == "length")
    clause.pop("length")
    clause["max"] = 3
    with pytest.raises(SpecError, match="int_array or bool_array gives its exact length"):
        read_operator(tmp_path / f"{API}.yaml", load_specs(out).vocabulary,
                      text=yaml.safe_dump(doc, sort_keys=False))


def test_a_clause_under_the_null_rule_s_condition_requires_it():
    from conformance.draft.conditional_breaks import _guard
    null = {"id": "N", "all": ["not (m[0]) or present(g)"], "_conditional": {"null": "g", "test": "m[0]"}}
    shape = {"id": "S", "all": ["not (m[0]) or x.shape == g.shape"], "_conditional": {}}
    other = {"id": "O", "all": ["not (m[1]) or x.shape == g.shape"], "_conditional": {}}  # another condition
    plain = {"id": "P", "all": ["x.shape == g.shape"]}
    _guard([null, shape, other, plain])
    assert shape["requires"] == ["N"] and "requires" not in other and "requires" not in plain


def _edited(out: Path, tmp_path: Path, edit) -> object:
    """The fixture draft with ``edit`` applied to the only_if clause's dict, loaded."""
    doc = yaml.safe_load((out / f"{API}.yaml").read_text(encoding="utf-8"))
    edit(next(c for c in doc["constraints"] if "only_if" in c), doc)
    return read_operator(tmp_path / f"{API}.yaml", load_specs(out).vocabulary,
                         text=yaml.safe_dump(doc, sort_keys=False))


def test_only_if_is_for_dtype_and_format_lists_and_a_change_of_it_is_named(drafted, tmp_path):
    out, _ = drafted

    def onto_a_rank(clause, doc):
        rank = next(c for c in doc["constraints"] if c["kind"] == "rank_in")
        rank["only_if"] = clause["only_if"]

    with pytest.raises(SpecError, match="'only_if' is not allowed here"):
        _edited(out, tmp_path, onto_a_rank)
    with pytest.raises(SpecError, match="unknown"):  # its expression names the spec's parameters
        _edited(out, tmp_path, lambda clause, doc: clause.update(only_if="needFlags[2]"))
    old = load_specs(out).operators[API]
    new = _edited(out, tmp_path, lambda clause, doc: clause.update(only_if="needGrads[1]"))
    changed = [c for c in compare_ids(old, new) if c.change == "changed"]
    assert [c.fields for c in changed] == [("only_if",)]
