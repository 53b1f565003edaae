"""conformance/report_merge.py and ``conformance merge``: shards merge into the unsharded run's report."""
from __future__ import annotations

import json
from importlib.resources import files

import jsonschema
import pytest
from helpers import command as cli
from report_runs import KL, run

from conformance.errors import UsageError
from conformance.report.merge import merge_reports

A2, A3 = "atlas-a2", "atlas-a3"
RP = "aclnnReplicationPad3dBackward"
@pytest.fixture(scope="module")
def runs():
    """The whole run and its two halves by ``--shard 1/2`` and ``--shard 2/2``."""
    return run(), run(shard="1/2"), run(shard="2/2")


@pytest.fixture(scope="module")
def schema():
    return json.loads(files("conformance").joinpath("schema/report.schema.json").read_text())


def rows(report):
    return [(r["api"], r["product"], r["clause"], r["kind"], r["cases"], r["failed"], r["observed"],
             r["outcome"]) for r in report["results"]]


def findings(report):
    """Findings without their case paths, which name each run's report directory."""
    return sorted(json.dumps({k: v for k, v in f.items() if k not in ("case_file", "replay")},
                             sort_keys=True) for f in report["findings"])


def test_the_shards_split_the_items(runs):
    full, a, b = runs
    ids = [{i["item"] for i in r["items"]} for r in runs]
    assert ids[1] and ids[2] and not ids[1] & ids[2] and ids[1] | ids[2] == ids[0]
    assert len(a["findings"]) + len(b["findings"]) == len(full["findings"]) > 0
    assert (a["shard"], b["shard"], full["shard"]) == ("1/2", "2/2", None)


def test_merged_shards_equal_the_whole_run(runs, schema):
    full, a, b = runs
    merged = merge_reports([a, b])
    assert rows(merged) == rows(full)
    assert any(r[7] == "fail" for r in rows(merged)) and any(r[7] == "unspecified" for r in rows(merged))
    assert findings(merged) == findings(full)
    assert merged["observations"] == full["observations"]
    assert merged["numerics"] == full["numerics"]
    both = {n["dtype"] for n in a["numerics"]} & {n["dtype"] for n in b["numerics"]}
    assert both, "some (api, dtype) histogram should get cases from both shards"
    assert without_seconds(merged["items"]) == without_seconds(full["items"])
    assert merged["clauses"] == full["clauses"] and merged["dtypes"] == full["dtypes"]
    for k in ("outcome", "backend", "products", "apis", "profile", "seed", "max_examples", "spec", "errors"):
        assert merged[k] == full[k], k
    stats = {k: v for k, v in merged["stats"].items() if k not in ("seconds", "cases_per_second")}
    assert stats == {k: v for k, v in full["stats"].items() if k not in ("seconds", "cases_per_second")}
    assert list(merged) == list(full)
    jsonschema.Draft202012Validator(schema).validate(merged)


def without_seconds(items):
    return [{k: v for k, v in i.items() if k != "seconds"} for i in items]


def test_seconds_are_summed_and_the_rate_recomputed(runs):
    _, a, b = runs
    merged = merge_reports([a, b])
    seconds = round(a["stats"]["seconds"] + b["stats"]["seconds"], 3)
    assert merged["stats"]["seconds"] == seconds
    assert merged["stats"]["cases_per_second"] == round(merged["stats"]["cases"] / seconds, 1)
    assert merged["started"] == min(a["started"], b["started"])


def test_shard_order_does_not_change_the_results(runs):
    _, a, b = runs
    assert rows(merge_reports([b, a])) == rows(merge_reports([a, b]))
    alone = merge_reports([b])
    assert rows(alone) == rows(b) and alone["findings"] == b["findings"] and alone["items"] == b["items"]


def as_product(report, product):
    """The report as if the run had been on another product line."""
    text = json.dumps(report).replace(f"/{A2}/", f"/{product}/").replace(f'"{A2}"', f'"{product}"')
    return json.loads(text)


def test_product_runs_and_not_applicable_rows(runs):
    full = runs[0]
    a2, a3 = json.loads(json.dumps(full)), as_product(full, A3)
    na = {"api": RP, "product": "atlas-inference", "clause": "*", "kind": "*", "cases": 0, "failed": 0,
          "observed": 0, "outcome": "not-applicable", "reason": "not supported"}
    a2["results"].append(na)
    a3["results"].append(dict(na))
    # a not-applicable row is dropped when another input checked that (api, product)
    a2["results"].append({**na, "api": KL, "product": A3})
    merged = merge_reports([a2, a3])
    assert merged["products"] == [A2, A3]
    assert [r for r in merged["results"] if r["outcome"] == "not-applicable"] == [na]
    assert rows(merged)[:-1] == sorted(rows(full) + rows(as_product(full, A3)))
    assert merged["dtypes"] == {KL: {A2: full["dtypes"][KL][A2], A3: full["dtypes"][KL][A2]}}
    assert len(merged["findings"]) == 2 * len(full["findings"])
    assert merged["stats"]["items"] == 2 * full["stats"]["items"]
    assert merged["stats"]["per_kind"] == {k: {"checks": 2 * v["checks"], "failed": 2 * v["failed"]}
                                           for k, v in full["stats"]["per_kind"].items()}
    assert [n["bins"] for n in merged["numerics"]] == [{b: 2 * c for b, c in n["bins"].items()}
                                                      for n in full["numerics"]]


@pytest.mark.slow
def test_product_runs_merge_into_the_run_of_both():
    """Product runs (only the status items, to keep it quick) merge into the run of both products."""
    a2, training = run(keyword="status"), run(keyword="status", products=("atlas-training",))
    both = run(keyword="status", products=(A2, "atlas-training"))
    merged = merge_reports([a2, training])
    assert rows(merged) == rows(both) and findings(merged) == findings(both)
    assert len({r[1] for r in rows(merged)}) == 2
    for k in ("products", "observations", "numerics", "clauses", "dtypes", "outcome"):
        assert merged[k] == both[k], k
    assert merged["stats"]["per_kind"] == both["stats"]["per_kind"]
    assert without_seconds(merged["items"]) == without_seconds(both["items"])


def test_outcome_is_recomputed(runs):
    _, a, b = runs
    # one rule (report/outcome.py): without findings, a failing row still makes it nonconformant
    assert merge_reports([a, {**b, "findings": [], "outcome": "conformant"}])["outcome"] == "nonconformant"
    passing = [{**r, "failed": 0, "outcome": "pass"} if r["outcome"] == "fail" else r for r in b["results"]]
    clean = {**b, "findings": [], "results": passing, "outcome": "nonconformant"}
    assert merge_reports([a, clean])["outcome"] == "conformant"
    unfinished = [{**i, "outcome": "incomplete"} for i in clean["items"]]
    assert merge_reports([a, {**clean, "items": unfinished}])["outcome"] == "incomplete"
    errors = [{"item": a["items"][0]["item"], "error": "TypeError: boom"}]
    assert merge_reports([{**a, "errors": errors}, b])["errors"] == errors


@pytest.mark.parametrize("field, value, label", [
    ("spec", {"digest": "0123456789abcdef"}, "spec digests"),
    ("spec", {"version": "9.9.9"}, "spec versions"),
    ("schema_version", "0.9", "schema_versions"),
    ("backend", {"spec": "torch", "name": "torch", "version": "", "product": None}, "backends"),
    ("seed", 1, "seeds"),
    ("profile", "ci", "profiles"),
])
def test_refuses_to_mix(runs, field, value, label):
    _, a, b = runs
    if field == "spec":
        value = {**b["spec"], **value}
    with pytest.raises(UsageError, match=rf"different {label}: b\.json has") as err:
        merge_reports([a, {**b, field: value}], names=["a.json", "b.json"])
    assert "a.json has" in str(err.value)


def test_refuses_overlapping_inputs(runs):
    full, a, _ = runs
    with pytest.raises(UsageError, match=r"report 2 and report 1 both ran \d+ item\(s\), e\.g\. aclnn"):
        merge_reports([full, a])
    with pytest.raises(UsageError, match="at least one"):
        merge_reports([])
    with pytest.raises(UsageError, match=r"x\.json: not a conformance report \(missing"):
        merge_reports([a, {"results": []}], names=["a.json", "x.json"])


def test_waivers_are_dropped(runs):
    _, a, b = runs
    b = json.loads(json.dumps(b))
    b["findings"][0]["waived"] = {"reason": "known", "link": None, "expires": "2099-01-01"}
    b["waivers"] = {"applied": [], "expired": [], "stale": []}
    merged = merge_reports([a, b])
    assert "waivers" not in merged and all("waived" not in f for f in merged["findings"])
    assert "waived" in b["findings"][0]  # the inputs are not changed


def test_cli_merge(runs, tmp_path, capsys):
    full, a, b = runs
    for name, report in (("a.json", a), ("b.json", b)):
        (tmp_path / name).write_text(json.dumps(report))
    out = tmp_path / "out" / "merged.json"
    assert cli("merge", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "-o", str(out)) == 0
    assert rows(json.loads(out.read_text())) == rows(full)
    assert "merged 2 reports: nonconformant" in capsys.readouterr().out
    (tmp_path / "c.json").write_text(json.dumps({**b, "seed": 3}))
    with pytest.raises(UsageError, match=r"different seeds: .*c\.json has seed 3"):
        cli("merge", str(tmp_path / "a.json"), str(tmp_path / "c.json"), "-o", str(out))
    (tmp_path / "d.json").write_text("{not json")
    with pytest.raises(UsageError, match=r"d\.json:1: not valid JSON"):
        cli("merge", str(tmp_path / "a.json"), str(tmp_path / "d.json"), "-o", str(out))
