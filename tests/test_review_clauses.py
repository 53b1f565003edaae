"""``kind: review`` clauses: a sentence no clause kind encodes, kept with its place in the page and the
pattern that came closest. Linted (and counted), listed by reports, never judged or generated."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import KL

from conformance.cli.main import main
from conformance.errors import SpecError
from conformance.generate.dry_run import load_operator
from conformance.generate.strategies import breakable
from conformance.run.plan import plan
from conformance.spec.loader import read_specs, specs_dir

PACK = Path(__file__).parent / "fixtures" / "draft_pack"
DRAFT = "aclnnDraftSquareBackward"
KL_SPEC = (specs_dir() / f"{KL}.yaml").read_text(encoding="utf-8")
REVIEW = """
  - id: KL-REVIEW-1
    source: {doc: upstream, quote: "A sentence no pattern reads.", where: "约束说明 (line 70)"}
    kind: review
"""


def _load(specs, extra: str = REVIEW, text: str = KL_SPEC):
    return load_operator(Path("kl.yaml"), specs.vocabulary, text=text.rstrip("\n") + "\n" + extra)


def test_a_review_clause_is_kept_apart_from_the_constraints(specs):
    spec = _load(specs, REVIEW + "    closest: value_in\n")
    plain = _load(specs, "")
    assert [c.id for c in spec.constraints] == [c.id for c in plain.constraints]
    (review,) = spec.reviews
    where = "约束说明 (line 70)"
    assert (review.id, review.closest, review.source.where) == ("KL-REVIEW-1", "value_in", where)
    assert review.to_json() == {"id": "KL-REVIEW-1", "doc": "upstream", "where": where,
                                "quote": "A sentence no pattern reads.", "closest": "value_in"}
    assert review.line == KL_SPEC.rstrip("\n").count("\n") + 3  # the line of its "- id:"


def test_review_clauses_make_no_items_and_break_nothing():
    specs = read_specs(PACK)
    spec = specs.operator(DRAFT)
    assert [r.id for r in spec.reviews] == ["DSB-REVIEW-1"]
    items = plan(specs, [DRAFT], ["atlas-a2"])
    assert items and not [i for i in items if i.subject == "DSB-REVIEW-1"]
    assert "DSB-REVIEW-1" not in breakable(spec, "error") + breakable(spec, "unspecified")


@pytest.mark.parametrize(("extra", "field", "words"), [
    ("    params: [self]\n", "constraints[15]", "'params' is not one of"),
    ("    on_violation: ACLNN_ERR_PARAM_INVALID\n", "constraints[15]", "'on_violation' is not one of"),
    ("    closest: ''\n", "constraints[15].closest", "should be non-empty"),
    ("    checks: [numerics]\n", "constraints[15]", "'checks' is not one of"),
])
def test_a_review_clause_takes_nothing_but_its_source_and_closest(specs, extra, field, words):
    with pytest.raises(SpecError) as info:
        _load(specs, REVIEW + extra)
    assert info.value.field == field and words in info.value.message


def test_a_review_clause_needs_its_source(specs):
    with pytest.raises(SpecError) as info:
        _load(specs, "\n  - id: KL-REVIEW-1\n    kind: review\n")
    assert (info.value.field, info.value.message) == ("constraints[15]", "'source' is required but missing")


def test_a_review_clause_cannot_be_required_nor_share_an_id(specs):
    required = KL_SPEC.replace("    requires: [KL-NULL, ", "    requires: [KL-NULL, KL-REVIEW-1, ", 1)
    assert required != KL_SPEC
    with pytest.raises(SpecError, match="requires KL-REVIEW-1, a review clause: only a clause with a"):
        _load(specs, text=required)
    with pytest.raises(SpecError, match="duplicate constraint id KL-NULL"):
        _load(specs, REVIEW.replace("KL-REVIEW-1", "KL-NULL"))


def test_lint_counts_review_clauses_and_passes(capsys):
    path = PACK / f"{DRAFT}.yaml"
    assert main(["lint", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"ok   {path}: {DRAFT}: 5 clauses; 1 clause needs review"]


def test_specs_lists_review_clauses_with_their_place(capsys):
    assert main(["specs", "--specs", str(PACK), "--api", DRAFT]) == 0
    out = capsys.readouterr().out
    assert "  DSB-REVIEW-1       [needs review; closest: value_in]" in out.splitlines()
    assert "(upstream, 约束说明 (line 57)) self中元素的绝对值较大时，计算结果可能溢出。" in out
