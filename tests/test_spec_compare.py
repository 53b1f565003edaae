"""Spec comparison by meaning and by clause id (spec/meaning.py, spec/compare.py): small variants
of shipped specs, edited with yaml, give exactly the entries their edit means (the command,
``conformance specs --compare``: test_spec_compare_cli.py)."""
from __future__ import annotations

import shutil
from typing import Any

from spec_variants import (
    INVALID,
    KLB,
    MSE,
    MSE_TENSORS,
    NLL,
    RP3,
    VOCAB,
    clause,
    diff_of,
    variant,
)

from conformance.spec.compare import ClauseChange, Entry, compare, compare_sets
from conformance.spec.loader import read_operator, specs_dir


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
