"""Spec comparison by meaning and by clause id (spec/meaning.py, spec/compare.py) and
``conformance specs --compare``: small variants of shipped specs, edited with yaml, give exactly the
entries their edit means."""
from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.cli.main import main
from conformance.spec.compare import ClauseChange, Entry, compare, compare_sets
from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, read_operator, specs_dir

VOCAB = load_vocabulary(specs_dir() / VOCABULARY_FILE)
MSE, KLB, NLL, RP3 = ("aclnnMseLossBackward", "aclnnKlDivBackward", "aclnnNLLLossBackward",
                      "aclnnReplicationPad3dBackward")
INVALID, NULLPTR = "ACLNN_ERR_PARAM_INVALID", "ACLNN_ERR_PARAM_NULLPTR"
MSE_TENSORS = ("gradOutput", "self", "target", "out")


def shipped(api: str) -> dict[str, Any]:
    return yaml.safe_load((specs_dir() / f"{api}.yaml").read_text(encoding="utf-8"))


def write(directory: Path, data: dict[str, Any]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{data['api']}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def variant(tmp_path: Path, api: str, edit: Callable[[dict[str, Any]], None], side: str = "new") -> Path:
    data = shipped(api)
    edit(data)
    return write(tmp_path / side, data)


def clause(data: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in data["constraints"] if c["id"] == cid)


def diff_of(tmp_path: Path, api: str, edit: Callable[[dict[str, Any]], None]):
    return compare(read_operator(specs_dir() / f"{api}.yaml", VOCAB),
                   read_operator(variant(tmp_path, api, edit), VOCAB))


def test_every_shipped_spec_against_itself_has_no_differences(tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(specs_dir(), copy, ignore=shutil.ignore_patterns("schema"))
    old = {p.stem: read_operator(p, VOCAB) for p in specs_dir().glob("aclnn*.yaml")}
    new = {p.stem: read_operator(p, VOCAB) for p in copy.glob("aclnn*.yaml")}
    result = compare_sets(old, new)
    assert len(result.operators) == 11 and not result.only_old and not result.only_new
    assert [d.api for d in result.operators if not d.same] == []
    assert all(d.not_compared == ((), ()) for d in result.operators)


def test_a_dtype_removed_on_one_product(tmp_path):
    d = diff_of(tmp_path, MSE, lambda s: clause(s, "MSE-DTYPE")["per_product"]["atlas-a2"].remove("BFLOAT16"))
    assert list(d.meaning) == [
        Entry("changed", "dtypes", f"dtype {p} @ atlas-a2", ("BFLOAT16", "FLOAT", "FLOAT16"),
              ("FLOAT", "FLOAT16"), INVALID, INVALID, ("MSE-DTYPE",), ("MSE-DTYPE",))
        for p in ("gradOutput", "self", "target")]
    assert list(d.clauses) == [ClauseChange("changed", "MSE-DTYPE", fields=("per_product",))]


def test_a_rank_limit_changed(tmp_path):
    d = diff_of(tmp_path, MSE, lambda s: clause(s, "MSE-RANK").update(max=6))
    assert list(d.meaning) == [Entry("changed", "ranks", f"rank {p} max", ("8",), ("6",), INVALID,
                                     INVALID, ("MSE-RANK",), ("MSE-RANK",)) for p in MSE_TENSORS]
    assert list(d.clauses) == [ClauseChange("changed", "MSE-RANK", fields=("max",))]


def test_a_product_added(tmp_path):
    def edit(s: dict[str, Any]) -> None:
        s["products"].append("ascend-950")
        clause(s, "KL-DTYPE")["per_product"]["ascend-950"] = ["FLOAT", "FLOAT16"]

    d = diff_of(tmp_path, KLB, edit)
    assert list(d.meaning) == [
        Entry("added", "products", "product ascend-950", None, ("supported",)),
        *(Entry("added", "dtypes", f"dtype {p} @ ascend-950", None, ("FLOAT", "FLOAT16"), None, INVALID,
                (), ("KL-DTYPE",)) for p in MSE_TENSORS)]


def test_a_product_no_longer_unsupported(tmp_path):
    def edit(s: dict[str, Any]) -> None:
        del s["unsupported"]["atlas-training"]
        s["products"].append("atlas-training")
        for cid in ("MSE-DTYPE", "MSE-DTYPE-OUT"):
            clause(s, cid)["per_product"]["atlas-training"] = ["FLOAT"]

    d = diff_of(tmp_path, MSE, edit)
    assert d.meaning[0] == Entry("changed", "products", "product atlas-training", ("not supported",),
                                 ("supported",))
    assert [(e.change, e.key, e.new) for e in d.meaning[1:]] == [
        ("added", f"dtype {p} @ atlas-training", ("FLOAT",)) for p in MSE_TENSORS]


def test_a_code_changed_from_unspecified_to_invalid(tmp_path):
    d = diff_of(tmp_path, MSE, lambda s: clause(s, "MSE-ZERO-DIM").update(on_violation=INVALID))
    assert list(d.meaning) == [Entry("changed", "codes", f"code rank {p} min", ("unspecified",),
                                     (INVALID,), "unspecified", INVALID, ("MSE-ZERO-DIM",),
                                     ("MSE-ZERO-DIM",)) for p in MSE_TENSORS]
    assert list(d.clauses) == [ClauseChange("changed", "MSE-ZERO-DIM", fields=("on_violation",))]


def test_a_relation_group_losing_a_member_is_one_change(tmp_path):
    d = diff_of(tmp_path, MSE, lambda s: clause(s, "MSE-DTYPE-SAME").update(params=["self", "gradOutput"]))
    assert list(d.meaning) == [Entry(
        "changed", "relations", "same_dtype {gradOutput, self, target}", ("gradOutput", "self", "target"),
        ("gradOutput", "self"), INVALID, INVALID, ("MSE-DTYPE-SAME",), ("MSE-DTYPE-SAME",))]


def test_a_relation_lost(tmp_path):
    d = diff_of(tmp_path, KLB, lambda s: s["constraints"].remove(clause(s, "KL-DTYPE-OUT")))
    assert list(d.meaning) == [Entry("removed", "relations", "same_dtype {out, self}", ("out", "self"),
                                     None, INVALID, None, ("KL-DTYPE-OUT",))]
    assert list(d.clauses) == [ClauseChange("removed", "KL-DTYPE-OUT")]


def test_a_renamed_clause_means_the_same(tmp_path):
    """A new id (and the requires naming it) is an id difference only, not a meaning one."""
    def edit(s: dict[str, Any]) -> None:
        clause(s, "MSE-BCAST")["id"] = "MSE-BROADCAST"
        clause(s, "MSE-SHAPE-OUT")["requires"] = ["MSE-NULL", "MSE-BROADCAST"]

    d = diff_of(tmp_path, MSE, edit)
    assert d.meaning == ()
    assert list(d.clauses) == [ClauseChange("renamed", "MSE-BCAST", "MSE-BROADCAST")]
    assert d.not_compared == ((), ())


def test_a_renamed_and_edited_clause_says_what_changed(tmp_path):
    def edit(s: dict[str, Any]) -> None:
        clause(s, "MSE-RANK").update(id="MLB-RANK", max=6)
        clause(s, "MSE-EMPTY").update(id="MLB-EMPTY", all=["self.numel > 0"])

    d = diff_of(tmp_path, MSE, edit)
    assert list(d.clauses) == [ClauseChange("renamed", "MSE-RANK", "MLB-RANK", ("max",)),
                               ClauseChange("renamed", "MSE-EMPTY", "MLB-EMPTY", ("all",))]
    # the expression clause's edit is not compared by meaning: listed on each side
    assert d.not_compared == ((("MSE-EMPTY", "expr"),), (("MLB-EMPTY", "expr"),))
    assert [e.key for e in d.meaning] == [f"rank {p} max" for p in MSE_TENSORS]


def test_same_meaning_in_other_words(tmp_path):
    """ranks [4, 5] is min 4, max 5; an output's dtype list 'as self' by same_dtype is the list a
    draft writes out for it; clause ids and quotes aside."""
    def ranks(s: dict[str, Any]) -> None:
        c = clause(s, "RP-RANK")
        del c["ranks"]
        c.update(min=4, max=5, source={**c["source"], "quote": "4-5 dims."})

    d = diff_of(tmp_path, RP3, ranks)
    assert d.meaning == () and list(d.clauses) == [ClauseChange("changed", "RP-RANK",
                                                               fields=("max", "min", "quote", "ranks"))]

    def out_listed(s: dict[str, Any]) -> None:
        lists = clause(s, "NLL-DTYPE")["per_product"]
        s["constraints"].append({"id": "NLL-OUT-DTYPE", "kind": "dtype_in", "params": ["out"],
                                 "per_product": lists, "on_violation": "unspecified",
                                 "source": {"doc": "upstream", "quote": "out: as self."}})

    d = diff_of(tmp_path / "nll", NLL, out_listed)
    assert d.meaning == () and list(d.clauses) == [ClauseChange("added", "NLL-OUT-DTYPE")]


def test_value_set_format_and_non_contiguous_changes(tmp_path):
    def edit(s: dict[str, Any]) -> None:
        clause(s, "MSE-REDUCTION")["values"] = [0, 1]
        clause(s, "MSE-FORMAT")["params"] = ["self"]
        s["constraints"].remove(clause(s, "MSE-NONCONTIGUOUS"))

    d = diff_of(tmp_path, MSE, edit)
    got = {(e.change, e.group, e.key): (e.old, e.new) for e in d.meaning}
    assert got == {
        ("changed", "values", "values reduction"): (("0", "1", "2"), ("0", "1")),
        **{("removed", "formats", f"format {p}"): (("ND",), None) for p in ("gradOutput", "target", "out")},
        **{("removed", "behaviour", f"non-contiguous {p}"): (("supported",), None) for p in MSE_TENSORS}}


# --- the command ------------------------------------------------------------------------------------

def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code)
    out = capsys.readouterr()
    return code, out.out, out.err


def dated(tmp_path: Path, side: str, date: str, edit: Callable[[dict[str, Any]], None] = lambda s: None,
          api: str = MSE) -> Path:
    def both(s: dict[str, Any]) -> None:
        s["doc_version"] = {"revision": "abc1234def5678", "date": date}
        edit(s)
    return variant(tmp_path, api, both, side)


def test_cli_text_groups_and_versions(tmp_path, capsys):
    old = dated(tmp_path, "old", "2025-01-10")
    new = dated(tmp_path, "new", "2026-03-03", lambda s: clause(s, "MSE-RANK").update(max=6))
    code, out, err = run(capsys, "specs", "--compare", str(old), str(new))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"OLD: {old} (1 operator(s)): revision abc1234def56 (2025-01-10)"
    assert lines[1] == f"NEW: {new} (1 operator(s)): revision abc1234def56 (2026-03-03)"
    assert "  ranks:" in lines
    assert "    ~ rank self max: 8 -> 6 (OLD MSE-RANK; NEW MSE-RANK)" in lines
    assert "    changed MSE-RANK: max" in lines


def test_cli_round_trip_says_which_side(tmp_path, capsys):
    hand = dated(tmp_path, "hand", "2025-01-10")
    draft = dated(tmp_path, "draft", "2026-03-03", lambda s: clause(s, "MSE-RANK").update(max=6))
    code, out, _ = run(capsys, "specs", "--compare", str(hand), str(draft.parent), "--round-trip")
    assert code == 0
    assert ("    ~ rank self max: 8 -> 6 (hand MSE-RANK; draft MSE-RANK)  "
            "(hand spec is older: documents may have changed)") in out.splitlines()
    same_day = dated(tmp_path, "same", "2025-01-10", lambda s: clause(s, "MSE-RANK").update(max=6))
    code, out, _ = run(capsys, "specs", "--compare", str(hand), str(same_day), "--round-trip", "--json")
    data = json.loads(out)
    assert code == 0 and data["round_trip"] is True
    [op] = data["operators"]
    assert op["verdict"] == "one of them misreads the page"
    assert {e["verdict"] for e in op["meaning"]} == {"one of them misreads the page"}
    assert op["old_version"] == {"revision": "abc1234def5678", "date": "2025-01-10"}


def test_cli_directories_pair_operators_by_api(tmp_path, capsys):
    dated(tmp_path, "old", "2025-01-10")
    dated(tmp_path, "old", "2025-01-10", api=KLB)
    dated(tmp_path, "new", "2025-01-10")
    dated(tmp_path, "new", "2025-01-10", api=NLL)
    code, out, _ = run(capsys, "specs", "--compare", str(tmp_path / "old"), str(tmp_path / "new"), "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["only_old"], data["only_new"]) == ([KLB], [NLL])
    assert [(o["api"], o["meaning"], o["clauses"]) for o in data["operators"]] == [(MSE, [], [])]


def test_cli_a_draft_pack_may_add_a_product_line(tmp_path, capsys):
    """A draft's directory holds a vocabulary.yaml adding the product lines it found."""
    def edit(s: dict[str, Any]) -> None:
        s["products"].append("atlas-new-line")
        clause(s, "KL-DTYPE")["per_product"]["atlas-new-line"] = ["FLOAT"]

    draft = variant(tmp_path, KLB, edit, "draft")
    (draft.parent / VOCABULARY_FILE).write_text(
        "products:\n  - {id: atlas-new-line, doc_names: [Atlas New Line products]}\n", encoding="utf-8")
    code, out, _ = run(capsys, "specs", "--compare", str(specs_dir() / f"{KLB}.yaml"), str(draft), "--json")
    [op] = json.loads(out)["operators"]
    assert code == 0
    assert [(e["change"], e["key"], e["new"]) for e in op["meaning"]] == [
        ("added", "product atlas-new-line", ["supported"]),
        *(("added", f"dtype {p} @ atlas-new-line", ["FLOAT"]) for p in MSE_TENSORS)]


@pytest.mark.parametrize("make, message", [
    (lambda t: t / "nowhere", "--compare OLD: no such spec file or directory"),
    (lambda t: (t / "empty").mkdir() or t / "empty",
     "--compare OLD: no spec files (*.yaml) in this directory"),
])
def test_cli_bad_paths_are_one_line(tmp_path, capsys, make, message):
    path = make(tmp_path)
    code, out, err = run(capsys, "specs", "--compare", str(path), str(specs_dir()))
    assert (code, out) == (2, "")
    assert err == f"conformance: error: {path}: {message}\n"


def test_cli_bad_spec_is_one_line_naming_the_file(tmp_path, capsys):
    bad = variant(tmp_path, MSE, lambda s: clause(s, "MSE-RANK").update(max="eight"))
    code, out, err = run(capsys, "specs", "--compare", str(specs_dir()), str(bad))
    assert (code, out) == (2, "")
    assert err.startswith(f"conformance: error: {bad}:") and err.count("\n") == 1


def test_cli_json_without_compare_is_a_usage_error(capsys):
    code, _, err = run(capsys, "specs", "--json")
    assert code == 2 and err == "conformance: error: --round-trip and --json go with --compare OLD NEW\n"


def test_a_review_entry_is_compared_by_id_only(tmp_path):
    review = {"id": "MSE-REVIEW-1", "kind": "review", "closest": "rank_in",
              "source": {"doc": "upstream", "quote": "Shapes follow the broadcast rules.",
                         "where": "parameters, parameters table, row 2 (line 40)"}}
    d = diff_of(tmp_path, MSE, lambda s: s["constraints"].append(review))
    assert d.meaning == ()
    assert list(d.clauses) == [ClauseChange("added", "MSE-REVIEW-1")]
    assert d.not_compared == ((), (("MSE-REVIEW-1", "review"),))
    moved = {**review, "source": {**review["source"], "where": "constraints (line 90)"}}
    d = compare(read_operator(variant(tmp_path, MSE, lambda s: s["constraints"].append(review), "a"), VOCAB),
                read_operator(variant(tmp_path, MSE, lambda s: s["constraints"].append(moved), "b"), VOCAB))
    assert list(d.clauses) == [ClauseChange("changed", "MSE-REVIEW-1", fields=("where",))]


def test_cli_api_selects_one_operator_of_each_side(tmp_path, capsys):
    dated(tmp_path, "new", "2026-03-03", lambda s: clause(s, "MSE-RANK").update(max=6))
    code, out, _ = run(capsys, "specs", "--compare", str(specs_dir()), str(tmp_path / "new"),
                       "--api", "MseLossBackward", "--json")
    data = json.loads(out)
    assert code == 0 and (data["only_old"], data["only_new"]) == ([], [])
    assert [(o["api"], len(o["meaning"])) for o in data["operators"]] == [(MSE, 4)]
    code, _, err = run(capsys, "specs", "--compare", str(specs_dir()), str(tmp_path / "new"), "--api", "Nope")
    assert code == 2 and err == "conformance: error: --api Nope: on neither side of --compare\n"
