"""conformance/report_diff.py and ``conformance diff``: regressions, fixes and findings between reports."""
from __future__ import annotations

import json

import pytest
from helpers import command as cli
from report_runs import KL, run

from conformance.errors import UsageError
from conformance.report.diff import diff_reports, render_diff

A2 = "atlas-a2"
VALUES = (KL, A2, "KL-VALUES", "numerics")


def key(entry):
    return entry["api"], entry["product"], entry["clause"], entry["kind"]


def row(report, k):
    return next(r for r in report["results"] if key(r) == k)


@pytest.fixture(scope="module")
def reports():
    return run("reference"), run()


def test_a_real_regression_and_its_fix(reports):
    reference, mutant = reports
    assert row(reference, VALUES)["outcome"] == "pass" and row(mutant, VALUES)["outcome"] == "fail"
    d = diff_reports(reference, mutant)
    assert [key(r) for r in d["regressions"]] == [VALUES] and d["regressed"]
    assert d["regressions"][0]["old"] == "pass" and d["regressions"][0]["new"] == "fail"
    assert d["regressions"][0]["new_failed"] == row(mutant, VALUES)["failed"] > 0
    assert d["regressions"][0]["findings"] == [f["message"] for f in mutant["findings"] if key(f) == VALUES]
    assert d["fixes"] == [] and d["gone_findings"] == []
    assert [key(f) for f in d["new_findings"]] == [key(f) for f in mutant["findings"]]
    back = diff_reports(mutant, reference)
    assert [key(r) for r in back["fixes"]] == [VALUES] and back["regressions"] == []
    assert not back["regressed"]
    assert [key(f) for f in back["gone_findings"]] == [key(f) for f in mutant["findings"]]
    same = diff_reports(mutant, run())
    assert not same["regressed"] and set(same["counts"].values()) == {0}


@pytest.fixture
def edited(reports):
    """old and new copies of the mutant run, edited to hold one of each kind of change."""
    _, old = reports
    old, new = json.loads(json.dumps(old)), json.loads(json.dumps(old))
    passing = [key(r) for r in old["results"] if r["outcome"] == "pass"]
    regressed, dropped = passing[0], passing[1]
    unspecified = next(key(r) for r in old["results"] if r["outcome"] == "unspecified")
    r = row(new, regressed)
    r.update(failed=2, outcome="fail")
    template = old["findings"][0]
    new["findings"] = [f for f in new["findings"] if key(f) != VALUES]  # fixed, and its finding gone
    new["findings"].append({**template, "clause": regressed[2], "kind": regressed[3],
                            "message": "returned 0, but should be 161002 [made up]"})
    row(new, VALUES).update(failed=0, outcome="pass")
    row(new, unspecified).update(observed=0, outcome="pass")
    new["results"] = [r for r in new["results"] if key(r) != dropped]
    added = {"api": KL, "product": A2, "clause": "KL-ADDED", "kind": "status", "cases": 4, "failed": 0,
             "observed": 0, "outcome": "pass"}
    new["results"].append(added)
    return old, new, {"regressed": regressed, "dropped": dropped, "unspecified": unspecified,
                      "added": key(added)}


def test_every_kind_of_change(edited):
    old, new, keys = edited
    d = diff_reports(old, new)
    assert [(key(r), r["old"], r["new"], r["old_failed"], r["new_failed"]) for r in d["regressions"]] == [
        (keys["regressed"], "pass", "fail", 0, 2)]
    assert d["regressions"][0]["findings"] == ["returned 0, but should be 161002 [made up]"]
    assert [(key(r), r["old"], r["new"]) for r in d["fixes"]] == [(VALUES, "fail", "pass")]
    assert [(key(r), r["old"], r["new"]) for r in d["changed"]] == [(keys["unspecified"], "unspecified",
                                                                     "pass")]
    assert [(key(f), f["message"]) for f in d["new_findings"]] == [
        (keys["regressed"], "returned 0, but should be 161002 [made up]")]
    assert [key(f) for f in d["gone_findings"]] == [key(f) for f in old["findings"] if key(f) == VALUES]
    assert [key(r) for r in d["only_old"]] == [keys["dropped"]]
    assert [key(r) for r in d["only_new"]] == [keys["added"]]
    assert d["regressed"] and d["counts"] == {"regressions": 1, "fixes": 1, "changed": 1, "new_findings": 1,
                                              "gone_findings": 1, "only_old": 1, "only_new": 1}


def test_a_row_failing_only_in_new_counts_as_regressed(edited):
    old, new, keys = edited
    row(new, keys["regressed"]).update(failed=0, outcome="pass")
    assert not diff_reports(old, new)["regressed"]
    row(new, keys["added"]).update(failed=1, outcome="fail")
    d = diff_reports(old, new)
    assert d["regressions"] == [] and d["regressed"]


def test_render_markdown_and_text(edited):
    old, new, keys = edited
    new["spec"] = {**new["spec"], "digest": "0123456789abcdef"}
    d = diff_reports(old, new)
    md = render_diff(d)
    assert md.startswith("## aclnn conformance diff: ❌ 1 regression(s)\n")
    assert "### Regressions" in md and "### Fixes" in md and "### Other outcome changes" in md
    assert f"| {KL} | {A2} | {keys['regressed'][2]} | {keys['regressed'][3]} | pass | fail | 0 → 2 |" in md
    assert "### New findings" in md and "### Gone findings" in md and "### Rows only in new" in md
    assert "**warning**: the spec differs" in md and "0123456789abcdef" in md
    text = render_diff(d, "text")
    assert f"REGRESSED {KL}/{A2} {keys['regressed'][2]}:{keys['regressed'][3]}: pass -> fail" in text
    assert f"FIXED {KL}/{A2} KL-VALUES:numerics: fail -> pass" in text
    assert f"ONLY IN OLD {KL}/{A2} {keys['dropped'][2]}:{keys['dropped'][3]}" in text
    assert "NEW FINDING" in text and "GONE FINDING" in text and "|" not in text.splitlines()[0]
    quiet = render_diff(diff_reports(old, old))
    assert "✅ no regressions" in quiet and "###" not in quiet
    with pytest.raises(ValueError):
        render_diff(d, "html")


def test_cli_diff_exit_codes(edited, tmp_path, capsys):
    old, new, keys = edited
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    assert cli("diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--format", "text") == 1
    assert "REGRESSED" in capsys.readouterr().out
    assert cli("diff", str(tmp_path / "old.json"), str(tmp_path / "old.json")) == 0
    assert "no regressions" in capsys.readouterr().out
    assert cli("diff", str(tmp_path / "new.json"), str(tmp_path / "old.json")) == 1  # KL-VALUES fails again


def test_cli_diff_names_a_bad_file(tmp_path, reports):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(reports[0]))
    bad = tmp_path / "bad.json"
    bad.write_text('{"results": [\n  1,\n')
    with pytest.raises(UsageError, match=r"bad\.json:3: not valid JSON"):
        cli("diff", str(good), str(bad))
    with pytest.raises(UsageError, match=r"missing\.json: cannot read report"):
        cli("diff", str(tmp_path / "missing.json"), str(good))
    (tmp_path / "list.json").write_text("[]")
    with pytest.raises(UsageError, match=r"list\.json: not a conformance report"):
        cli("diff", str(good), str(tmp_path / "list.json"))


@pytest.mark.parametrize("was", ["incomplete", "insufficient"])
def test_a_row_that_never_passed_but_did_not_fail_regresses_to_fail(edited, was):
    old, new, keys = edited
    row(old, keys["regressed"]).update(outcome=was)
    d = diff_reports(old, new)
    assert [(key(r), r["old"], r["new"]) for r in d["regressions"]] == [(keys["regressed"], was, "fail")]
