"""The status an error row's clauses carry (conformance/draft/row_status.py): a name the vocabulary
knows whose code agrees; a new ACLNN_ name joins the pack's vocabulary with its code; a name beside
another code (the vendor's pages give ACLNN_ERR_INNER_CREATE_EXECUTOR as 561001 on four ops-nn pages,
while the return-code page says 561101) or a word that is no status name promises nothing."""
from __future__ import annotations

import pytest
from draft_facts import toy_loss

from conformance.draft.context import build_context
from conformance.draft.facts import Sentence, Where
from conformance.draft.row_status import RowStatus
from conformance.spec.loader import load_vocabulary, specs_dir

ROW = Sentence("内部创建aclOpExecutor失败", Where("toy > 返回值", 9, "errors", 4))


@pytest.fixture
def statuses():
    vocab = load_vocabulary(specs_dir() / "vocabulary.yaml")
    return RowStatus(build_context(toy_loss(), vocab), vocab)


@pytest.mark.parametrize(("status", "code", "read", "review", "added"), [
    ("ACLNN_ERR_INNER_CREATE_EXECUTOR", 561101, "ACLNN_ERR_INNER_CREATE_EXECUTOR", [], {}),
    ("ACLNN_ERR_PARAM_INVALID", None, "ACLNN_ERR_PARAM_INVALID", [], {}),  # (no code column)
    ("ACLNN_ERR_INNER_CREATE_EXECUTOR", 561001, "unspecified",
     ["ACLNN_ERR_INNER_CREATE_EXECUTOR is 561101, but the row gives 561001 "
      "(ACLNN_ERR_INNER_INFERSHAPE_ERROR); which a call gets is not said: 内部创建aclOpExecutor失败"], {}),
    ("ACLNN_ERR_INNER", 561002, "unspecified",
     ["ACLNN_ERR_INNER is 561000, but the row gives 561002 (ACLNN_ERR_INNER_TILING_ERROR); which a "
      "call gets is not said: 内部创建aclOpExecutor失败"], {}),
    ("ACLNN_ERR_INNER_TOY", 561999, "ACLNN_ERR_INNER_TOY", [], {"ACLNN_ERR_INNER_TOY": 561999}),
    ("返回失败", 161002, "unspecified", ["返回失败: 内部创建aclOpExecutor失败"], {}),
])
def test_the_status_a_row_carries(statuses, status, code, read, review, added):
    assert statuses.of(status, code, ROW) == read
    assert [s.text for s in statuses.reviews()] == review
    assert all(s.where == ROW.where for s in statuses.reviews())
    assert statuses.ctx.new_statuses == added


def test_one_review_per_contradiction_on_a_page(statuses):
    other = Sentence("内部执行器创建失败", Where("toy > 返回值", 10, "errors", 5))
    for sentence in (ROW, other):
        assert statuses.of("ACLNN_ERR_INNER_CREATE_EXECUTOR", 561001, sentence) == "unspecified"
    assert [s.where.line for s in statuses.reviews()] == [9]
