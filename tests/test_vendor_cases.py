"""benchmarks/bench_vendor_cases.py: the vendor's case files replayed through a spec's oracle, on
the shipped aclnnKlDivBackward spec (clause ids known) and invented case files in the ATK layout."""
from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conformance.cases.oracle import judge_metas
from conformance.cases.tensor import TensorMeta
from conformance.errors import SpecError
from conformance.spec.loader import read_shipped_specs, specs_dir

ROOT = Path(__file__).resolve().parents[1]
_load = importlib.util.spec_from_file_location("bench_vendor_cases",
                                               ROOT / "benchmarks" / "bench_vendor_cases.py")
bench = importlib.util.module_from_spec(_load)
_load.loader.exec_module(bench)
API = "aclnnKlDivBackward"


def tensor(name: str, shape: list[int], dtype: str = "fp32") -> dict[str, Any]:
    return {"name": name, "type": "tensor", "required": True, "dtype": dtype, "shape": shape,
            "range_values": [-1, 1]}


def kl_case(grad: list[int] = (2, 3), self_dtype: str = "fp32", **changes: Any) -> dict[str, Any]:
    inputs = [tensor("grad_output", list(grad)), tensor("self", [2, 3], self_dtype),
              tensor("target", [2, 3]),
              {"name": "reduction", "type": "attr", "dtype": "int", "shape": None, "range_values": 0},
              {"name": "log_target", "type": "attr", "dtype": "bool", "shape": None, "range_values": False}]
    return {"id": 0, "name": "torch.nn.KlDivBackward", "aclnn_name": "KlDivBackward",
            "inputs": inputs, **changes}


@pytest.fixture(scope="module")
def specs():  # noqa: ANN201 - a SpecSet
    return read_shipped_specs()


def test_case_inputs_become_the_specs_arguments(specs) -> None:
    spec = specs.operator(API)
    names = bench.arguments(specs.vocabulary, spec, kl_case())
    assert names == {"gradOutput": TensorMeta((2, 3), "FLOAT"), "self": TensorMeta((2, 3), "FLOAT"),
                     "target": TensorMeta((2, 3), "FLOAT"), "reduction": 0, "logTarget": False}
    assert bench.api_of(kl_case(), "x/atk_aclnnOther.json") == API
    assert bench.api_of({}, "x/atk_aclnnOther.json") == "aclnnOther"


@pytest.mark.parametrize("case, refused", [
    (kl_case(), None),  # valid: no output is passed, so KL-NULL is on the inputs alone
    (kl_case(self_dtype="int8"), ["KL-DTYPE"]),  # refused on every product line
    (kl_case(self_dtype="bf16"), None),  # refused on the older lines only: some line accepts it
    (kl_case(grad=[4, 2, 3]), ["KL-BCAST-GRAD"]),  # a gradient larger than the broadcast
])
def test_a_case_is_refused_only_when_every_product_line_refuses_it(specs, case, refused) -> None:
    spec = specs.operator(API)
    assert bench.refusal(spec, bench.arguments(specs.vocabulary, spec, case)) == refused


def test_placeholders_are_left_out(specs) -> None:
    spec = specs.operator(API)
    case = kl_case()
    case["inputs"][2] = tensor("target", [0, 0])
    assert "target" not in bench.arguments(specs.vocabulary, spec, case)
    assert bench.placeholder(tensor("offset", [], "bool"))
    assert not bench.placeholder(tensor("offset", [0, 3]))
    assert bench.placeholder(tensor("logitsMaxOptional", []), optional=True)
    assert bench.placeholder({**tensor("bias", []), "shape": None})
    assert not bench.placeholder(tensor("logitsMax", []))  # a 0-d tensor where one is required


def test_a_partial_judgement_skips_the_clauses_it_cannot_evaluate(specs) -> None:
    names = {"gradOutput": TensorMeta((2, 3), "FLOAT"), "self": TensorMeta((2, 3), "INT8")}
    spec = bench.given_only(specs.operator(API), names)  # (KL-NULL on the two given only)
    with pytest.raises(SpecError, match="KL-BCAST-GRAD"):
        judge_metas(spec, "atlas-a2", names)  # (target is missing: a spec error in a real run)
    expectation = judge_metas(spec, "atlas-a2", names, partial=True)
    assert [v.clause for v in expectation.violations] == ["KL-DTYPE"]


def test_the_benchmark_over_a_checkout(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    files = repo / "loss" / "tests" / "st"
    files.mkdir(parents=True)
    cases = [kl_case(), kl_case(self_dtype="int8"), kl_case(self_dtype="fp8_e9"),
             {**kl_case(), "aclnn_name": "NoDraft"}]
    (files / "atk_aclnnKlDivBackward.json").write_text(json.dumps(cases))
    for args in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit",
                                                 "-q", "-m", "cases"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True)
    out = tmp_path / "replay.json"
    assert bench.main([str(specs_dir()), str(repo), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "cases: 4; with a draft: 3; replayed: 2; refused on every product line: 1 (50.00%)" in printed
    written = json.loads(out.read_text())
    assert written["not_replayed"] == {"Unreplayable dtype 'fp8_e9'": 1}
    (row,) = written["operators"]
    assert (row["api"], row["replayed"], row["refused"]) == (API, 2, 1)
    assert row["clauses"][0]["id"] == "KL-DTYPE"


@pytest.mark.parametrize("where, said", [("specs", "not a git checkout"),
                                         ("drafts", "not a directory of specs")])
def test_bad_arguments_are_one_line_and_exit_2(tmp_path, capsys, where, said) -> None:
    drafts, checkout = (specs_dir(), tmp_path) if where == "specs" else (tmp_path / "none", tmp_path)
    assert bench.main([str(drafts), str(checkout)]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1
