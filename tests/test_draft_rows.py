"""Error-row phrasings drafted into checkable clauses (conformance/draft/): relations joined so
each can be broken alone, and the attribute phrasings (signs, element signs, ranges) — on
PageFacts we build by hand for invented operators, so every expected clause is known."""
from __future__ import annotations

import pytest
from draft_facts import PRODUCTS, error, param

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, specs_dir
from conformance.spec.vocabulary import Vocabulary

INVALID = ("ACLNN_ERR_PARAM_INVALID", 161002)


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    return load_vocabulary(specs_dir() / VOCABULARY_FILE)


def toy(api: str, args: tuple[tuple[str, str], ...], rows: tuple, errors: tuple[str, ...]) -> PageFacts:
    """An invented operator: its arguments (name, C type), parameter rows, and error rows (all
    ACLNN_ERR_PARAM_INVALID, one sentence each)."""
    proto = tuple(PrototypeParam(n, c, const=not n.endswith("Out") and n != "out", optional=False)
                  for n, c in args)
    table = tuple(error(*INVALID, text, i + 1) for i, text in enumerate(errors))
    return PageFacts(api, f"toy/docs/{api}.md", PRODUCTS[:2], proto, rows, table, deterministic=None)


def checkable(d) -> dict[str, bool]:  # noqa: ANN001 - a DraftedSpec
    return {o.sentence.text: o.checkable for o in d.draft.outcomes}


def kinds(d, kind: str) -> list[dict]:  # noqa: ANN001
    return [c for c in d.spec["constraints"] if c["kind"] == kind]


# -- relations: rows sharing a tensor are one equality --------------------------------------------
def _triple(errors: tuple[str, ...], usage: tuple[str, ...] = ()) -> PageFacts:
    rows = (param("gradOutput", 1, dtypes=("FLOAT", "FLOAT16"), usage=usage),
            param("self", 2, same_as="gradOutput"),
            param("out", 3, direction="output", same_as="gradOutput"))
    return toy("aclnnToyTriple", (("gradOutput", "aclTensor*"), ("self", "aclTensor*"),
                                  ("out", "aclTensor*")), rows, errors)


def test_rows_relating_pairs_that_share_a_tensor_are_one_clause(vocab):
    d = draft_spec(_triple(("gradOutput和self的shape不同。", "out和self的shape不同。")), vocab, "toy")
    same = kinds(d, "same_shape")
    assert [(c["params"], c["on_violation"]) for c in same] == [
        (["gradOutput", "self", "out"], "ACLNN_ERR_PARAM_INVALID")]
    assert same[0]["source"]["quote"] == "gradOutput和self的shape不同 / out和self的shape不同"
    assert checkable(d) == {"gradOutput和self的shape不同": True, "out和self的shape不同": True}


def test_a_note_relating_more_than_a_row_adds_only_what_the_row_lacks(vocab):
    # the row ties gradOutput and self (coded); the note ties all three: out joins by a clause of
    # its own with gradOutput (not self, which the coded clause's breaks change)
    d = draft_spec(_triple(("gradOutput和self的shape不同。",), ("shape与self、out一致。",)), vocab, "toy")
    same = kinds(d, "same_shape")
    assert [(c["params"], c["on_violation"]) for c in same] == [
        (["gradOutput", "self"], "ACLNN_ERR_PARAM_INVALID"), (["gradOutput", "out"], "unspecified")]
    assert checkable(d) == {"gradOutput和self的shape不同": True}
    assert d.draft.implied == []


def test_broadcasting_pairs_are_not_joined(vocab):
    # a~b and b~c does not make a, b, c broadcast together: two clauses, as the rows say
    d = draft_spec(_triple(("gradOutput和self的shape无法做broadcast。", "out和self的shape无法做broadcast。")),
                   vocab, "toy")
    from conformance.draft.clauses import draft_clauses
    bcast = [c for c in draft_clauses(d.draft.facts, vocab).clauses if c["kind"] == "broadcastable"]
    assert [c["params"] for c in bcast] == [["gradOutput", "self"], ["self", "out"]]
