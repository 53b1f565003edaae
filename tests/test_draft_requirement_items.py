"""Error rows listing the conditions a call must meet item by item (requirement_items.py): "self和
out的数据格式不在支持的范围内。<br>1) self和out的数据格式相同；<br>2) self和out支持ND、NCHW、NCDHW。"
(the global pooling pages). Each item is a requirement, read as its violation; a one-sided rank
item joins the range another row gives with the same code (table_clauses.py), and every row saying
a format list is in its clause. On an invented page in the vendor's layout
(tests/fixtures/requirement_pages), drafted here, and against the oracle and a backend with one
item's check left out."""
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

from conformance.draft.requirement_items import negated

PAGES = Path(__file__).parent / "fixtures" / "requirement_pages"
BACKENDS = Path(__file__).with_name("requirement_backends.py")
API = "aclnnToyGlobalPeak"
TABLE = {"self": ("ND", "NCHW"), "out": ("ND", "NCHW")}

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


@pytest.mark.parametrize(("text", "said"), [
    ("1) self和out的数据格式相同；", "self和out的数据格式不一致"),
    ("3) self和out维度数相同。", "self和out的维度数不一致"),
    ("1) self和out最大维度不超过8维", "self和out的维度超过8维"),
    ("2）self和out最小维度数为4维", "self和out的维度小于4维"),
    ("2) self和out支持ND、NCHW。", "self和out的数据格式不在支持的范围内"),
    ("2) self和out支持ND、NCDHW。", None),  # (not the table's formats: which list holds?)
    ("self和out的数据格式相同", None),  # (no item number: not a listed requirement)
    ("4) out前两维与self相同，其他维度均为1", None),
])
def test_the_items_read_as_their_violations(text, said):
    assert negated(text, ("self", "out"), lambda n: TABLE[n]) == said


def test_every_row_and_item_is_checkable(drafted):
    assert_rows_checkable(drafted, 9)
    clauses = by_quote(drafted_spec(drafted, API))
    assert clauses["1) self与out的数据格式相同"]["kind"] == "same_format"
    rank = clauses["self与out的维度不在支持范围内 / 1) self与out最大维度不超过6维 / "
                   "2) self与out最小维度为3维"]
    assert (rank["min"], rank["max"], rank["on_violation"]) == (3, 6, "ACLNN_ERR_PARAM_INVALID")
    fmt = clauses["self与out的数据格式不在支持范围内 / 2) self与out支持ND、NCHW / "
                  "self：ND、NCHW / out：ND、NCHW"]
    assert fmt["formats"] == ["ND", "NCHW"]


def test_the_oracle_passes(drafted, tmp_path):
    report = oracle_quick(drafted, API, tmp_path, max_examples=6)
    assert report["findings"] == [] and not report["errors"]


@pytest.mark.parametrize(("backend", "item"), [("SameRankUnchecked", "3) self与out维度数相同"),
                                               ("SameFormatUnchecked", "1) self与out的数据格式相同")])
def test_a_backend_leaving_an_item_out_is_caught_on_it_alone(drafted, specs, backend, item, tmp_path):
    report = oracle_quick(drafted, API, tmp_path, f"{BACKENDS}:{backend}", max_examples=6)
    (cid,) = [c.id for c in specs.operator(API).constraints if c.source.quote == item]
    assert_caught_alone(report, cid)


def test_a_backend_right_in_its_own_way_passes(drafted, specs, tmp_path):
    report = oracle_quick(drafted, API, tmp_path, f"{BACKENDS}:NumpyPeak", max_examples=6)
    (cid,) = [c.id for c in specs.operator(API).constraints if c.source.quote == "3) self与out维度数相同"]
    assert_clean_pass(report, cid, 6)
