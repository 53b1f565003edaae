"""How same_dtype ties tensor lists (``lists: all | position | each``): the predicate, the lint,
the break within each list and the oracle's code for it, on an invented foreach page written in
the vendor's layout (tests/fixtures/list_dtype_pages: "x和out的数据类型不一致" PARAM_INVALID and
"x或out中的Tensor的数据类型不一致" TILING_ERROR), drafted here; and a run of the draft against the
oracle backend and against one without the within-list check (tests/list_tie_mutant.py)."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from helpers import drafted_pack_fixture, drafted_spec, drafted_specs_fixture

import conformance
from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.errors import SpecError
from conformance.generate.breaks import variants
from conformance.generate.build import build_case
from conformance.generate.choosers import FixedChooser
from conformance.spec import meaning
from conformance.spec.loader import read_operator, specs_dir
from conformance.spec.model import LIST_TIES
from conformance.spec.predicates import same_dtype
from conformance.spec.values import TensorList

PAGES = Path(__file__).parent / "fixtures" / "list_dtype_pages"
API = "aclnnToyForeachNegate"
TIE, WITHIN = "TFN-SAME-DTYPE", "TFN-SAME-DTYPE-2"
INVALID, TILING = 161002, 561002

pytestmark = pytest.mark.usefixtures("no_packs_left")


drafted = drafted_pack_fixture(PAGES)


specs = drafted_specs_fixture()


def lists(*dtypes: str) -> TensorList:
    return TensorList(TensorMeta((2, 3), d) for d in dtypes)


def judged(specs, x: TensorList, out: TensorList) -> tuple[set[str], tuple[int, ...]]:
    e = explain(Case(API, "atlas-a2", {"x": x, "out": out}), specs)
    return {v.clause for v in (*e.violations, *e.unspecified)}, e.status


def test_the_draft_keeps_both_rows_with_their_codes(drafted):
    spec = drafted_spec(drafted, API)
    tied = {c["id"]: (c["params"], c.get("lists"), c["on_violation"]) for c in spec["constraints"]
            if c["kind"] == "same_dtype"}
    assert tied == {TIE: (["x", "out"], "position", "ACLNN_ERR_PARAM_INVALID"),
                    WITHIN: (["x", "out"], "each", "ACLNN_ERR_INNER_TILING_ERROR")}
    stats = yaml.safe_load((drafted / "stats.json").read_text(encoding="utf-8"))
    page = stats["pages"][0] if "pages" in stats else stats
    assert page["implied"] == [] and page["error_rows_checkable"] == page["error_rows"] == 5


def test_the_predicate_reads_each_tie(specs):
    # x[i] and out[i] agree, the lists mix: only the clause within each list
    assert judged(specs, lists("FLOAT", "FLOAT", "FLOAT16"), lists("FLOAT", "FLOAT", "FLOAT16")) \
        == ({WITHIN}, (TILING,))
    # each list one dtype, the lists differ: only the tie by position
    assert judged(specs, lists("FLOAT", "FLOAT"), lists("FLOAT16", "FLOAT16")) == ({TIE}, (INVALID,))
    # one element of out alone: both, either code
    broken, codes = judged(specs, lists("FLOAT", "FLOAT"), lists("FLOAT", "FLOAT16"))
    assert broken == {TIE, WITHIN} and set(codes) == {INVALID, TILING}
    assert judged(specs, lists("FLOAT16", "FLOAT16"), lists("FLOAT16", "FLOAT16")) == (set(), ())


def test_the_same_clause_with_lists_all_ties_everything(specs):
    spec = specs.operator(API)
    everything = replace(spec.constraint(WITHIN), options={})
    names = {"x": lists("FLOAT", "FLOAT"), "out": lists("FLOAT16", "FLOAT16")}
    assert same_dtype(everything, names, "atlas-a2") == [
        "out[0].dtype=FLOAT16 must equal x[0].dtype=FLOAT",
        "out[1].dtype=FLOAT16 must equal x[0].dtype=FLOAT"]
    assert same_dtype(spec.constraint(WITHIN), names, "atlas-a2") == []
    assert same_dtype(spec.constraint(TIE), {"x": lists("FLOAT", "FLOAT16"), "out": lists("FLOAT")},
                      "atlas-a2") == []  # (past out's end, x[1] has nothing to agree with)


def test_the_break_within_each_list_breaks_it_alone(specs):
    spec = specs.operator(API)
    valid = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser("max"))
    assert judged(specs, valid.args["x"], valid.args["out"]) == (set(), ())  # valid cases honour it
    [case] = variants(spec.constraint(WITHIN), valid.args, spec, specs.vocabulary, "atlas-a2")
    assert [e.dtype for e in case["x"]] == [e.dtype for e in case["out"]] == ["FLOAT", "FLOAT", "FLOAT16"]
    assert judged(specs, case["x"], case["out"]) == ({WITHIN}, (TILING,))
    whole = variants(spec.constraint(TIE), valid.args, spec, specs.vocabulary, "atlas-a2")
    assert ({TIE}, (INVALID,)) in [judged(specs, c["x"], c["out"]) for c in whole]
    one = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser("min"))
    assert len(one.args["x"]) == 1  # a list of one element cannot mix dtypes: no such case
    assert variants(spec.constraint(WITHIN), one.args, spec, specs.vocabulary, "atlas-a2") == []


@pytest.mark.parametrize("change, message", [
    ({"params": ["x", "other"], "lists": "each"}, "'other' is not one"),
    ({"params": ["x"], "lists": "position"}, "needs a tensor_list and two parameters"),
    ({"params": ["x"], "lists": "sideways"}, "sideways"),
])
def test_the_lint_refuses_ties_that_say_nothing(drafted, specs, change, message):
    spec = drafted_spec(drafted, API)
    spec["params"]["other"] = {"kind": "tensor", "role": "input"}
    spec["generate"]["args"]["other"] = "x_shape"
    clause = next(c for c in spec["constraints"] if c["id"] == WITHIN)
    clause.update(change)
    with pytest.raises(SpecError, match=message):
        read_operator(drafted / f"{API}.yaml", specs.vocabulary, text=yaml.safe_dump(spec))


@pytest.mark.slow
def test_a_run_finds_exactly_the_missing_within_list_check(drafted, tmp_path):
    def run(backend: str, name: str) -> dict:
        return conformance.run_suite(backend, specs=[drafted], ops=[API], products=["atlas-a2"],
                                     profile="quick", max_examples=6, isolate=False,
                                     report_dir=tmp_path / name)

    honest = run("oracle", "oracle")
    assert honest["errors"] == [] and honest["findings"] == []
    planted = run(f"{Path(__file__).with_name('list_tie_mutant.py')}:AcceptsMixedLists", "mutant")
    assert planted["errors"] == []
    assert {(f["kind"], f["clause"]) for f in planted["findings"]} == {("status", WITHIN)}


def test_the_schema_lists_the_ties_of_the_model():
    schema = json.loads((specs_dir() / "schema" / "operator.schema.json").read_text(encoding="utf-8"))
    enums = [node["properties"]["lists"]["enum"] for node in _walk(schema)
             if isinstance(node, dict) and "lists" in node.get("properties", {})]
    assert enums == [list(LIST_TIES)]


def _walk(node):
    yield node
    for child in node.values() if isinstance(node, dict) else node if isinstance(node, list) else ():
        yield from _walk(child)


def test_spec_comparison_keeps_the_ties_apart(specs):
    facts = meaning.facts(specs.operator(API))
    relations = {k: (f.code, f.clauses) for k, f in facts.items() if k.startswith("same_dtype")}
    assert relations == {
        "same_dtype by position {out, x}": ("ACLNN_ERR_PARAM_INVALID", (TIE,)),
        "same_dtype within {x}": ("ACLNN_ERR_INNER_TILING_ERROR", (WITHIN,)),
        "same_dtype within {out}": ("ACLNN_ERR_INNER_TILING_ERROR", (WITHIN,))}
