"""Tensor lists, host scalars and string attributes in the spec language, end to end: the
invented operator of tests/fixtures/list_pack (aclnnToyForeachAxpy) read, judged by the oracle,
generated (valid and broken), materialised, saved and replayed, run against the reference and
oracle backends, and two planted bugs caught (tests/toy_foreach.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from toy_foreach import API, SPEC_DIR

import conformance
from conformance.backends.isolated import _buffers, _pack, _unpack
from conformance.cases.case import Case, case_from_dict, case_to_dict
from conformance.cases.materialize import MARGIN, materialize
from conformance.cases.oracle import explain
from conformance.cases.tensor import Tensor, TensorMeta
from conformance.check.case_store import load_saved, materialize_saved, save_case
from conformance.check.guards import changed_inputs, out_of_bounds_writes, touched_outputs
from conformance.check.results import Finding
from conformance.errors import SpecError
from conformance.generate.breaks import variants
from conformance.generate.build import build_case
from conformance.generate.choosers import FixedChooser
from conformance.generate.dry_run import load_specs
from conformance.generate.strategies import Drawn
from conformance.spec.loader import read_operator
from conformance.spec.values import Scalar, TensorList, scalar_dtype, scalar_value

pytestmark = pytest.mark.usefixtures("no_packs_left")
SPEC_FILE = Path(SPEC_DIR) / f"{API}.yaml"


@pytest.fixture(scope="module")
def toy():
    return load_specs(SPEC_DIR)


def metas(*shapes, dtype="FLOAT", last=None):
    out = [TensorMeta(tuple(s), dtype) for s in shapes]
    if last is not None:
        out[-1] = TensorMeta(tuple(shapes[-1]), last)
    return TensorList(out)


TWO = Scalar(2.0, "FLOAT")


def toy_case(x=None, y=None, out=None, alpha=TWO, rounding="none"):
    shapes = ([2, 3], [4])
    return Case(API, "atlas-a2", {"x": x if x is not None else metas(*shapes),
                                  "y": y if y is not None else metas(*shapes), "alpha": alpha,
                                  "rounding": rounding, "out": out if out is not None else metas(*shapes)})


# -- the spec language ---------------------------------------------------------------------------
def test_the_kinds_load(toy):
    spec = toy.operator(API)
    assert {n: p.kind for n, p in spec.params.items()} == {
        "x": "tensor_list", "y": "tensor_list", "alpha": "scalar", "rounding": "string",
        "out": "tensor_list"}
    assert spec.tensor_params() == ["x", "y", "out"] and spec.tensor_params("output") == ["out"]
    assert spec.test_dtypes("atlas-a2") == ["FLOAT", "FLOAT16"]
    assert spec.dtype_groups() == [["x", "y", "out"], ["alpha"]]


@pytest.mark.parametrize("old, new, says", [
    ("    params: [x, y, out]\n    on_violation: ACLNN_ERR_PARAM_INVALID\n\n  - id: TFA-RANK",
     "    params: [x, alpha]\n    on_violation: ACLNN_ERR_PARAM_INVALID\n\n  - id: TFA-RANK",
     "a same_shape constraint needs a tensor or tensor_list parameter, 'alpha' is scalar"),
    ('values: ["none", "floor"]', "values: [0, 1]", "value_in values must be strings for a string"),
    ("    kind: length\n    params: [x]", "    kind: length\n    params: [rounding]",
     "a length constraint needs a int_array or bool_array or tensor_list parameter, 'rounding' is string"),
    ("  alpha:    {kind: scalar, role: input}", "  alpha:    {kind: tensor, role: input}",
     "'alpha' is a tensor"),
])
def test_cross_checks_name_the_line(toy, old, new, says):
    text = SPEC_FILE.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(SpecError) as info:
        spec = read_operator(SPEC_FILE, toy.vocabulary, text=text.replace(old, new, 1))
        from conformance.generate.dry_run import check_specs
        from conformance.spec.model import SpecSet
        check_specs(SpecSet(toy.vocabulary, {spec.api: spec}, "x", "y"))
    assert says in str(info.value) or says == "'alpha' is a tensor" and "alpha" in str(info.value)


def test_a_relation_cannot_mix_a_list_and_a_tensor(toy):
    text = SPEC_FILE.read_text(encoding="utf-8").replace(
        "  alpha:    {kind: scalar, role: input}", "  alpha:    {kind: scalar, role: input}\n"
        "  bias:     {kind: tensor, role: input}").replace(
        "out: shapes}", "out: shapes, bias: \"[2]\"}").replace(
        "    params: [x, y, out]\n    on_violation: ACLNN_ERR_PARAM_INVALID\n\n  - id: TFA-RANK",
        "    params: [x, y, out, bias]\n    on_violation: ACLNN_ERR_PARAM_INVALID\n\n  - id: TFA-RANK")
    with pytest.raises(SpecError, match="relates tensor lists element by element: it cannot mix 'x'"):
        read_operator(SPEC_FILE, toy.vocabulary, text=text)


# -- the oracle ----------------------------------------------------------------------------------
def test_clauses_on_a_list_hold_for_every_element(toy):
    assert explain(toy_case(), toy).expected == "success"
    bad = explain(toy_case(x=metas([2, 3], [4], last="INT8")), toy)
    assert bad.expected == "error" and {v.clause for v in bad.violations} == {"TFA-DTYPE", "TFA-SAME-DTYPE"}
    assert "x[1].dtype=INT8 is not one of FLOAT, FLOAT16" in bad.reason
    deep = explain(toy_case(x=metas([2, 3], [1, 1, 1, 1, 4]), y=metas([2, 3], [1, 1, 1, 1, 4]),
                            out=metas([2, 3], [1, 1, 1, 1, 4])), toy)
    assert [v.message for v in deep.violations][:1] == ["x[1].rank=5 must be <= 4"]


def test_lists_relate_position_by_position(toy):
    swapped = explain(toy_case(y=metas([4], [2, 3])), toy)
    assert [v.message for v in swapped.violations] == ["y[0].shape=[4] must equal x[0].shape=[2, 3]",
                                                       "y[1].shape=[2, 3] must equal x[1].shape=[4]"]
    short = explain(toy_case(out=metas([2, 3])), toy)
    assert [v.message for v in short.violations] == ["len(out)=1 must equal len(x)=2"]
    many = explain(toy_case(*(metas(*[[1]] * 9),) * 3), toy)
    assert [v.message for v in many.violations] == ["len(x)=9 must be <= 8"]
    assert [v.message for v in explain(toy_case(*(TensorList(),) * 3), toy).violations] == \
        ["len(x)=0 must be >= 1"]


def test_scalars_and_strings(toy):
    assert explain(toy_case(alpha=Scalar(2, "INT32")), toy).expected == "success"
    wrong = explain(toy_case(alpha=Scalar(2, "INT8")), toy)
    assert [v.clause for v in wrong.violations] == ["TFA-ALPHA-DTYPE"]
    mode = explain(toy_case(rounding="ceil"), toy)
    assert [v.message for v in mode.violations] == ["rounding='ceil' is not one of none, floor"]
    assert [v.clause for v in explain(toy_case(alpha=None), toy).violations] == ["TFA-NULL"]


# -- case files ----------------------------------------------------------------------------------
def test_case_files_round_trip(toy):
    case = toy_case(alpha=Scalar(-3, "INT32"), rounding="floor")
    doc = case_to_dict(case, case.args)
    assert doc["args"]["x"] == [{"shape": [2, 3], "dtype": "FLOAT"}, {"shape": [4], "dtype": "FLOAT"}]
    assert doc["args"]["alpha"] == {"value": -3, "dtype": "INT32"} and doc["args"]["rounding"] == "floor"
    back = case_from_dict(yaml.safe_load(yaml.safe_dump(doc)), toy)
    assert back.args == case.args and isinstance(back.args["x"], TensorList)
    doc["args"]["alpha"] = {"value": [1.5, -2.0], "dtype": "COMPLEX64"}
    assert case_from_dict(doc, toy).args["alpha"] == Scalar(complex(1.5, -2), "COMPLEX64")


@pytest.mark.parametrize("arg, value, says", [
    ("x", {"shape": [2], "dtype": "FLOAT"}, "a tensor list is a list of tensors"),
    ("x", [{"shape": [2], "dtype": "NOPE"}], "args.x.0.dtype"),
    ("alpha", 2.0, "a scalar is a mapping {value, dtype}"),
    ("alpha", {"value": "two", "dtype": "FLOAT"}, "a scalar's value is a number"),
    ("alpha", {"value": 1.5, "dtype": "INT32"}, None),  # an INT32 scalar holds 1 (whole numbers)
    ("rounding", 3, "expected a string, got 3"),
])
def test_bad_case_files_name_the_argument(toy, arg, value, says):
    doc = case_to_dict(toy_case(), toy_case().args)
    doc["args"][arg] = value
    if says is None:
        assert case_from_dict(doc, toy).args[arg] == Scalar(1, "INT32")
        return
    with pytest.raises(conformance.CaseError) as info:
        case_from_dict(doc, toy)
    assert says in f"{info.value.field}: {info.value}"


# -- generation ----------------------------------------------------------------------------------
def test_valid_cases_are_lists_of_one_dtype(toy):
    spec = toy.operator(API)
    low = build_case(spec, toy.vocabulary, "atlas-a2", "FLOAT16", FixedChooser("min"))
    high = build_case(spec, toy.vocabulary, "atlas-a2", "FLOAT16", FixedChooser("max"))
    assert [len(low.args["x"]), len(high.args["x"])] == [1, 4]
    assert {e.dtype for e in high.args["x"] + high.args["y"] + high.args["out"]} == {"FLOAT16"}
    assert [e.shape for e in high.args["out"]] == [e.shape for e in high.args["x"]] == [(5, 5, 5)] * 4
    # a scalar's dtype: the item's where listed, else the first listed of its kind (never drawn)
    assert high.args["alpha"] == Scalar(-3.0, "FLOAT") and high.args["rounding"] == "floor"
    assert low.args["alpha"] == Scalar(1.0, "FLOAT")
    assert scalar_dtype("INT8", ["FLOAT", "DOUBLE", "INT32"]) == "INT32"
    assert scalar_dtype("BFLOAT16", ["FLOAT16", "DOUBLE"]) == "FLOAT16"
    assert scalar_dtype("DOUBLE", ["FLOAT", "DOUBLE"]) == "DOUBLE"
    assert scalar_dtype("BOOL", ["FLOAT", "INT32"]) == "FLOAT"
    assert scalar_value(complex(2.5, 1), "INT32") == 2 and scalar_value(-3, "UINT8") == 3
    assert explain(high, toy).expected == "success"


def _broken(toy, clause):
    spec = toy.operator(API)
    base = build_case(spec, toy.vocabulary, "atlas-a2", "FLOAT", FixedChooser("max")).args
    return variants(spec.constraint(clause), base, spec, toy.vocabulary, "atlas-a2")


def test_breaks_of_list_clauses(toy):
    same = _broken(toy, "TFA-SAME-DTYPE")
    # one element of x alone in another dtype: what a kernel checking only x[0] misses
    assert any([e.dtype for e in v["x"]] == ["FLOAT"] * 3 + ["FLOAT16"] for v in same)
    count = _broken(toy, "TFA-COUNT")
    assert [[len(v[p]) for p in ("x", "y", "out")] for v in count] == [[9, 9, 9], [0, 0, 0]]
    for args in count + _broken(toy, "TFA-SHAPE") + _broken(toy, "TFA-RANK"):
        e = explain(Case(API, "atlas-a2", args), toy)
        assert e.expected == "error", args
    assert [v["rounding"] for v in _broken(toy, "TFA-ROUNDING")] == ["undocumented"]
    assert {v["alpha"].dtype for v in _broken(toy, "TFA-ALPHA-DTYPE")} >= {"INT8", "FLOAT16", "BOOL"}
    shapes = [[e.shape for e in v["out"]] for v in _broken(toy, "TFA-SHAPE")]
    # (y's last element wider, then with a 1 in front; the same for out; y, then out one shorter)
    assert shapes == [[(5, 5, 5)] * 4, [(5, 5, 5)] * 4, [(5, 5, 5)] * 3 + [(5, 5, 6)],
                      [(5, 5, 5)] * 3 + [(1, 5, 5, 5)], [(5, 5, 5)] * 4, [(5, 5, 5)] * 3]


# -- data, guards, saved cases, isolation --------------------------------------------------------
def test_each_element_is_a_guarded_tensor(toy):
    m = materialize(toy_case(), toy, seed=5)
    x, out = m.case.args["x"], m.case.args["out"]
    assert isinstance(x, TensorList) and all(isinstance(e, Tensor) for e in x)
    assert sorted(m.metas) == ["out[0]", "out[1]", "x[0]", "x[1]", "y[0]", "y[1]"]
    assert changed_inputs(m, toy.operator(API)) == [] and touched_outputs(m, toy.operator(API)) == []
    x[1].array[0] += 1
    out[1].storage[0] = 7  # a margin element of the second output
    assert changed_inputs(m, toy.operator(API)) == ["x[1]"]
    assert touched_outputs(m, toy.operator(API)) == ["out[1]"]
    assert out_of_bounds_writes(m, toy.operator(API)) == {"out[1]": 1}
    assert out[0].storage.size == 6 + 2 * MARGIN


def test_a_saved_list_case_replays_bit_for_bit(toy, tmp_path):
    case = toy_case(alpha=Scalar(2, "INT32"))
    drawn = Drawn(case, seed=9, regime="special")
    m = materialize(case, toy, 9, "special")
    finding = Finding(API, "atlas-a2", "TFA-VALUES", "numerics", "x")
    path = save_case(tmp_path, "lists", drawn, m, finding, toy)
    with np.load(path.with_suffix(".npz")) as saved:
        assert sorted(saved.files) == ["x[0]", "x[1]", "y[0]", "y[1]"]
    replayed = materialize_saved(load_saved(path, toy)[0], toy)
    for name in ("x", "y"):
        for want, got in zip(m.case.args[name], replayed.case.args[name]):
            assert got.array.tobytes() == want.array.tobytes()
    assert replayed.case.args["alpha"] == Scalar(2, "INT32")


def test_lists_travel_to_an_isolated_worker(toy):
    m = materialize(toy_case(), toy, seed=1)
    buffers = _buffers(m.case.args)
    assert sorted(buffers) == sorted(m.metas)
    args = _unpack(_pack(m.case.args), {k: v.copy() for k, v in buffers.items()})
    assert [e.shape for e in args["out"]] == [(2, 3), (4,)] and args["alpha"] == Scalar(2.0, "FLOAT")
    assert np.array_equal(args["x"][1].array, m.case.args["x"][1].array)


# -- runs ----------------------------------------------------------------------------------------
def _run(backend, tmp_path, name, **kw):
    return conformance.run_suite(backend, specs=[SPEC_DIR], ops=[API], profile="quick",
                                 report_dir=tmp_path / name, **kw)


def _found(report):
    return {(f["kind"], f["clause"]) for f in report["findings"]}


@pytest.mark.slow
def test_runs_against_the_reference_and_the_oracle(tmp_path):
    reference = _run("reference", tmp_path, "ref", isolate=True)
    assert reference["outcome"] == "conformant" and reference["errors"] == []
    kinds = {r["kind"] for r in reference["results"]}
    assert kinds >= {"status", "numerics", "determinism", "inputs-unchanged", "out-of-bounds-write",
                     "output-untouched-on-error"}
    oracle = _run("oracle", tmp_path, "oracle", isolate=False)
    assert oracle["errors"] == []  # zeros for every output: only its numerics are findings
    assert {kind for kind, _ in _found(oracle)} == {"numerics"}


@pytest.mark.slow
@pytest.mark.parametrize("mutant, caught", [
    ("ChecksFirstElementDtype", ("status", "TFA-SAME-DTYPE")),
    ("WritesFirstOutputOnly", ("numerics", "TFA-VALUES")),
])
def test_planted_bugs_are_caught(tmp_path, mutant, caught):
    report = _run(f"{Path(__file__).with_name('toy_foreach.py')}:{mutant}", tmp_path, mutant,
                  isolate=False)
    assert report["errors"] == [] and caught in _found(report)
    assert {kind for kind, _ in _found(report)} == {caught[0]}


@pytest.mark.slow
@pytest.mark.parametrize("bug, found", [
    ((), set()), (("BUG_LIST_FIRST_DTYPE",), {("status", "TFA-SAME-DTYPE")})])
def test_the_aclnn_backend_passes_lists_scalars_and_strings(tmp_path_factory, tmp_path, bug, found):
    """The ctypes backend against the C test double (tests/aclnn_double: aclCreateTensorList,
    aclCreateScalar and the toy operator, which takes a char*): its correct build is conformant,
    and a build checking only x[0]'s dtype is caught."""
    from aclnn_double.build import double_lib

    lib = double_lib(tmp_path_factory, *bug)
    report = _run(f"aclnn:lib={lib}", tmp_path, "aclnn")
    assert report["errors"] == [] and report["backend"]["name"] == "aclnn"
    assert report["outcome"] == ("conformant" if not found else "nonconformant")
    assert {(f["kind"], f["clause"]) for f in report["findings"]} <= found | {("status", "TFA-DTYPE")}
    assert found <= _found(report)
    assert sum(r["cases"] for r in report["results"] if r["kind"] == "numerics") > 0
