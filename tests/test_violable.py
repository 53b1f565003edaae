"""On which product lines a clause can be broken at all (generate/violable.py): a promotion or cast
clause that no combination of a line's listed dtypes breaks has no item there, and a draft keeps it
where it breaks alone on the other lines (aclnnMinimum's "推导出的数据类型无法转换为指定输出out的
类型": out lists BOOL on Atlas A2, so FLOAT to BOOL breaks it there, and not on Atlas training,
where every listed cast is allowed or disputed). On a copy of the invented aclnnToyMixAdd
(tests/fixtures/promotion_pack) given a second line where every listed pair promotes and casts."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from toy_promotion import API, SPEC_DIR

import conformance
from conformance.draft.breakable import _alone
from conformance.generate.violable import violable
from conformance.run.plan import plan
from conformance.spec.loader import read_packs, specs_dir

A2, A3 = "atlas-a2", "atlas-a3"
PLAIN = ["FLOAT", "FLOAT16"]  # (every pair promotes, and FLOAT, FLOAT16 cast to each other)


def _pack(tmp_path: Path, products: list[str]) -> Path:
    """A pack with the toy on ``products``: Atlas A2 with its own lists, A3 with PLAIN only."""
    data = yaml.safe_load((Path(SPEC_DIR) / f"{API}.yaml").read_text(encoding="utf-8"))
    data["products"] = products
    for c in data["constraints"]:
        if c["kind"] == "dtype_in":
            lists = {A2: c["per_product"][A2], A3: PLAIN}
            c["per_product"] = {p: lists[p] for p in products}
    data.pop("generate")["examples"]  # (its example is an Atlas A2 one)
    data["generate"] = {"draws": {"shape": {"shape": {"rank": [1, 3], "dims": [1, 5]}}},
                        "args": {"self": "shape", "other": "shape", "out": "shape"}}
    pack = tmp_path / "_".join(products)
    pack.mkdir()
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)  # (params in their order)
    (pack / f"{API}.yaml").write_text(text, encoding="utf-8")
    return pack


@pytest.fixture()
def both(tmp_path):
    return read_packs((specs_dir(), _pack(tmp_path, [A2, A3])))


@pytest.mark.parametrize("clause", ["TMA-PROMOTE", "TMA-CAST"])
def test_a_relation_no_listed_dtypes_break_is_not_violable_on_that_line(both, clause):
    spec = both.operator(API)
    assert violable(both, spec, clause, A2)
    assert not violable(both, spec, clause, A3)
    assert violable(both, spec, "TMA-SHAPE", A3)  # (any other kind: wherever the spec breaks it)


def test_the_plan_has_its_items_only_where_it_can_be_broken(both):
    items = plan(both, [API], [A2, A3])
    promote = {i.product for i in items if i.subject == "TMA-PROMOTE"}
    assert promote == {A2}
    assert {i.product for i in items if i.subject == "TMA-SHAPE"} == {A2, A3}


def test_a_draft_keeps_it_when_it_breaks_alone_where_it_can_be_broken(both, tmp_path):
    """Kept: alone on Atlas A2, nothing to break on A3. On A3 alone it can be broken nowhere, and
    a clause no case can break is one a draft leaves out."""
    assert _alone(both.operator(API), both, "TMA-PROMOTE")
    only_a3 = read_packs((specs_dir(), _pack(tmp_path, [A3])))
    assert not _alone(only_a3.operator(API), only_a3, "TMA-PROMOTE")


@pytest.mark.usefixtures("no_packs_left")
def test_a_run_on_both_lines_judges_it_where_it_can_be_and_stays_complete(tmp_path):
    pack = _pack(tmp_path, [A2, A3])
    report = conformance.run_suite("reference", specs=[pack], ops=[API], products=[A2, A3], profile="quick",
                                   max_examples=4, isolate=False, report_dir=tmp_path / "r")
    assert report["outcome"] == "conformant", report["findings"]
    items = {i["item"]: i for i in report["items"]}
    assert items[f"{API}/{A2}/TMA-PROMOTE/status"]["judged"] >= 2
    assert not any(f"/{A3}/TMA-PROMOTE/" in i or f"/{A3}/TMA-CAST/" in i for i in items)
