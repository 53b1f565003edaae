"""Parameters whose C names Python reserves ("from", "lambda": keywords; "min", "max": functions
of the expression language) are named as they are, in expressions and draws: the rows about them
("from大于等于to", "传入的min大于max", "lambda小于等于0") are checkable clauses. The page,
tests/fixtures/keyword_pages, is invented and written in the vendor's layout."""
from __future__ import annotations

from pathlib import Path

import pytest
from test_draft_rows import _valid_and_broken_alone

from conformance.draft.context import expressible
from conformance.draft.emit import draft_spec
from conformance.draft.reading import read_page
from conformance.spec.expression_names import GRAMMAR, nameable, spelled
from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, specs_dir

PAGE = Path(__file__).parent / "fixtures" / "keyword_pages" / "docs" / "aclnnToyPick.md"
INVALID = "ACLNN_ERR_PARAM_INVALID"


@pytest.fixture(scope="module")
def pick():  # noqa: ANN201 - a DraftedSpec
    vocab = load_vocabulary(specs_dir() / VOCABULARY_FILE)
    facts = read_page(PAGE.read_text(encoding="utf-8"), str(PAGE), vocab, "aclnnToyPick")
    return draft_spec(facts, vocab, "toy")


def _clause(d, quote: str) -> dict:  # noqa: ANN001
    return next(c for c in d.spec["constraints"] if c["source"]["quote"] == quote)


def test_every_error_row_of_the_page_is_checkable(pick):
    assert {o.sentence.text: o.checkable for o in pick.draft.outcomes} == dict.fromkeys([
        "selfRef、min、max之一为空指针", "selfRef、min、max的数据类型不属于支持的范围", "from大于等于to",
        "传入的min大于max", "lambda小于等于0"], True)


def test_the_rows_name_the_parameters_as_the_prototype_does(pick):
    def said(quote: str) -> tuple:
        c = _clause(pick, quote)
        return c["kind"], c["all"], c["break"], c["on_violation"], c.get("requires")

    assert said("from大于等于to") == ("expr", ["from < to"], {"to": {"expr": "from - 1"}}, INVALID, None)
    assert said("传入的min大于max") == ("expr", ["min.value <= max.value"], {"max": {"expr": "min - 1"}},
                                    INVALID, ["TP-DTYPE-2", "TP-NULL"])
    assert said("lambda小于等于0") == ("expr", ["lambda > 0"], {"lambda": {"sampled": [0.0, -1.0]}},
                                   INVALID, None)


def test_the_draws_are_named_as_the_parameters(pick):
    gen = pick.spec["generate"]
    assert gen["args"] == {"selfRef": "selfRef_shape", "from": "from", "to": "to", "min": "min",
                           "max": "max", "lambda": "lambda"}
    assert (gen["draws"]["from"], gen["draws"]["to"]) == ({"integers": [0, 1]}, {"expr": "from + 1"})
    assert (gen["draws"]["min"], gen["draws"]["max"]) == ({"sampled": [0.0, 0.5, 1.0]}, {"expr": "min + 1"})
    assert gen["draws"]["lambda"] == {"sampled": [0.5, 1.0]}


def test_the_valid_cases_hold_and_each_clause_breaks_alone(pick, tmp_path):
    _valid_and_broken_alone(pick, tmp_path)


@pytest.mark.parametrize("name, ok", [("from", True), ("lambda", True), ("min", True), ("sum", True),
                                      ("class", True), ("in", False), ("for", False), ("None", False),
                                      ("not", False), ("x-y", False)])
def test_which_names_an_expression_can_say(name, ok):
    assert (nameable(name), expressible(name)) == (ok, ok)


def test_keywords_are_respelled_only_where_they_name_a_parameter():
    names = frozenset({"from", "from_", "to"})
    text, back = spelled("from < to and 'from' != from_", names)
    assert (text, back) == ("from__ < to and 'from' != from_", {"from__": "from"})
    assert spelled("from < to", frozenset({"to"})) == ("from < to", {})  # (the parser says what is wrong)
    assert GRAMMAR >= {"and", "or", "not", "in", "if", "else", "for"}
