"""Drafting pages whose parameters are tensor lists, host scalars and strings: an invented
foreach-like page written in the vendor's layout (tests/fixtures/list_pages), and the rules of
conformance/draft/list_kinds.py on sentences we wrote."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import drafted_fixture, oracle_quick

from conformance.cli.main import main
from conformance.draft.facts import ParamRow, Sentence, Where
from conformance.draft.list_kinds import mixes_lists, quoted_values, require_pointers, tidy

PAGES = Path(__file__).parent / "fixtures" / "list_pages"
API = "aclnnToyForeachScale"

pytestmark = pytest.mark.usefixtures("no_packs_left")


drafted = drafted_fixture(PAGES, API)


def test_the_kinds_are_drafted(drafted):
    _, spec = drafted
    assert spec["params"] == {"x": {"kind": "tensor_list", "role": "input"},
                              "scale": {"kind": "scalar", "role": "input"},
                              "mode": {"kind": "string", "role": "attr"},
                              "out": {"kind": "tensor_list", "role": "output"}}
    by_kind = {}
    for c in spec["constraints"]:
        by_kind.setdefault(c["kind"], c)  # the first clause of each kind
    assert by_kind["not_null"]["params"] == ["x", "scale", "out"]
    assert by_kind["dtype_in"]["params"] == ["x", "out"]
    assert by_kind["same_dtype"]["params"] == ["x", "out"]
    assert by_kind["same_shape"]["params"] == ["x", "out"]
    generate = spec["generate"]
    assert generate["args"] == {"x": "[x_shape] * count", "scale": "scale", "mode": "mode",
                                "out": "[x_shape] * count"}
    # the row's plain set (string_values.py), drawn whole: no other note narrows it
    assert generate["draws"]["mode"] == {"sampled": ["keep", "floor"]}
    assert by_kind["value_in"]["values"] == ["keep", "floor"]
    assert by_kind["value_in"]["on_violation"] == "unspecified"  # no error row names mode
    assert generate["draws"]["count"] == {"integers": [1, 3]}
    scalar = [c for c in spec["constraints"] if c["kind"] == "dtype_in" and c["params"] == ["scale"]]
    assert [c["per_product"]["atlas-a2"] for c in scalar] == [["FLOAT", "DOUBLE"]]  # its row's list
    assert scalar[0]["on_violation"] == "unspecified"  # the error rows name x and out only
    reviews = [c["source"]["quote"] for c in spec["constraints"] if c["kind"] == "review"]
    assert not any("the scalar scale" in q for q in reviews)
    assert not any("mode" in q for q in reviews)


@pytest.mark.slow
def test_the_draft_lints_and_runs_against_the_oracle(drafted, tmp_path, capsys):
    out, _ = drafted
    assert main(["lint", "--specs", str(out)]) == 0
    assert f"ok   {out / (API + '.yaml')}" in capsys.readouterr().out
    report = oracle_quick(out, API, tmp_path)
    assert report["errors"] == [] and report["findings"] == []
    assert {r["kind"] for r in report["results"]} >= {"status", "determinism", "out-of-bounds-write"}


def _row(*usage: str) -> ParamRow:
    where = Where("s", 1)
    return ParamRow("mode", "char*", "input", Sentence("取整方式。", where),
                    tuple(Sentence(u, where) for u in usage), (), None, (), None, None, where)


def test_quoted_values():
    assert quoted_values(_row('mode仅支持{"keep", "floor"}。')) == ["keep", "floor"]
    assert quoted_values(_row("取值为{1, 2}。", "支持{“trunc”、“ceil”}模式。")) == ["trunc", "ceil"]
    assert quoted_values(_row("取整方式。")) == [] and quoted_values(None) == []


def test_a_relation_of_a_list_and_a_tensor_is_left_for_review():
    lists, tensors = {"x"}, {"bias"}
    assert mixes_lists({"kind": "same_shape", "params": ["x", "bias"]}, lists, tensors)
    assert not mixes_lists({"kind": "same_shape", "params": ["x", "out"]}, lists | {"out"}, tensors)
    assert mixes_lists({"kind": "expr", "all": ["x.rank > 1"]}, lists, tensors)
    params = {"x": {"kind": "tensor_list"}, "bias": {"kind": "tensor"}}
    clauses = [{"id": "A", "kind": "broadcastable", "params": ["x", "bias"], "on_violation":
                "ACLNN_ERR_PARAM_INVALID", "source": {"quote": "x与bias不满足广播关系"}},
               {"id": "B", "kind": "expr", "all": ["bias.rank > 0"], "requires": ["A"],
                "on_violation": "unspecified", "source": {"quote": "q"}},
               {"id": "C", "kind": "dtype_in", "params": ["x"], "source": {"quote": "q"}}]
    reviewed = []
    tidy(params, clauses, lambda s, closest: reviewed.append((s.text, closest)), lambda n: Where(n, 1))
    assert [c["id"] for c in clauses] == ["C"]
    assert reviewed == [("x与bias不满足广播关系", "tensor list relation")]


def test_an_expression_on_a_pointer_requires_its_null_clause():
    params = {"self": {"kind": "tensor"}, "lambd": {"kind": "scalar"},
              "kernel": {"kind": "int_array"}, "bias": {"kind": "scalar", "optional": True}}
    clauses = [{"id": "N", "kind": "not_null", "params": ["self", "lambd", "kernel"]},
               {"id": "D", "kind": "dtype_in", "params": ["self"]},
               {"id": "DL", "kind": "dtype_in", "params": ["lambd"]},
               {"id": "S", "kind": "expr", "all": ["lambd.value >= 0"]},
               {"id": "K", "kind": "expr", "all": ["len(kernel) == 0 or min(kernel) > 0"], "requires": ["X"]},
               {"id": "B", "kind": "expr", "all": ["not present(bias) or bias.value > 0"]},
               {"id": "L", "kind": "expr", "all": ["lambda_ > 0"]}]
    require_pointers(params, clauses)
    assert [c.get("requires") for c in clauses[3:]] == [["N", "DL"], ["X", "N"], None, None]
