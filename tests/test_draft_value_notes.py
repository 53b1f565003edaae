"""A row saying an attribute's value is wrong without saying how ("p的取值不满足要求", Renorm's) where
the attribute's usage note gives its sign ("取值大于等于0"): a sign clause with the row's code
(value_notes.py). On an invented page in the vendor's layout (tests/fixtures/value_note_pages),
drafted here, and against the oracle and a backend taking a negative p."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import (
    assert_caught_alone,
    assert_clean_pass,
    assert_rows_checkable,
    by_quote,
    drafted_pack_fixture,
    drafted_spec,
    drafted_specs_fixture,
    oracle_quick,
)

from conformance.draft.value_notes import _NOTE

PAGES = Path(__file__).parent / "fixtures" / "value_note_pages"
BACKENDS = Path(__file__).with_name("value_note_backends.py")
API = "aclnnToyPowerNorm"
QUOTE = "p的值不满足要求 / 数值需大于等于0。"

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


@pytest.mark.parametrize(("note", "sign"), [
    ("取值大于等于0。", ("大于等于", None)), ("取值大于0。", ("大于", None)),
    ("数值为非负数。", (None, "非负数")), ("该值必须是非负的。", (None, "非负的")),
    ("目前仅支持取值为0。", None),  # (one value: the "only" group)
    ("取值范围[0, 1]。", None),  # (a range: not a sign)
    ("取值大于等于0，小于1。", None),
])
def test_the_sign_notes(note, sign):
    m = _NOTE.search(note)
    assert (m["op"], m["word"]) == sign if sign else m is None or m["only"] == "0"


def test_the_row_takes_the_notes_sign_with_its_code(drafted):
    assert_rows_checkable(drafted, 4)
    clause = by_quote(drafted_spec(drafted, API))[QUOTE]
    assert (clause["all"], clause["on_violation"]) == (["p.value >= 0"], "ACLNN_ERR_PARAM_INVALID")
    assert clause["break"] == {"p": {"sampled": [-1.0]}}


def test_the_oracle_passes_and_a_negative_p_taken_is_caught(drafted, specs, tmp_path):
    (cid,) = [c.id for c in specs.operator(API).constraints if c.source.quote == QUOTE]
    assert_clean_pass(oracle_quick(drafted, API, tmp_path / "right", max_examples=6), cid, 6)
    report = oracle_quick(drafted, API, tmp_path / "wrong", f"{BACKENDS}:NegativePTaken", max_examples=6)
    assert_caught_alone(report, cid)


def test_a_note_allowing_one_value_draws_it_alone(drafted):
    """"shift的取值不支持" with the note "仅支持取值为0": shift == 0, drawn 0 only, broken 1 and -1."""
    spec = drafted_spec(drafted, API)
    clause = by_quote(spec)["shift的取值不支持 / 仅支持取值为0。"]
    assert (clause["all"], clause["break"]) == (["shift.value == 0"], {"shift": {"sampled": [1.0, -1.0]}})
    assert spec["generate"]["draws"]["shift"] == {"sampled": [0.0]}
