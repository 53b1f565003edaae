"""Running one item: shrinking stays on the failure first seen."""
from __future__ import annotations

from pathlib import Path

from helpers import KL

from conformance.check.case_store import load_saved
from conformance.check.judge import Verdict
from conformance.check.results import Check, Finding
from conformance.report.document import build_report
from conformance.report.files import junit_xml, summary_markdown
from conformance.report.html import render_html
from conformance.run.item_runner import RunSettings, run_item
from conformance.run.plan import Item

META = {"backend": {"spec": "fake", "name": "fake", "version": "", "product": None},
        "products": ["atlas-a2"], "apis": [KL], "profile": "quick", "seed": 0, "max_examples": 20,
        "spec": {"version": "1.0.0", "digest": "0"}, "started": "2026-12-03T08:00:00+00:00"}


class TwoBugs:
    """Passes the first cases, fails the fifth with clause A and every later one with clause B:
    what a shrink of A's case would slip into if shrinking followed any failure."""

    def __init__(self) -> None:
        self.calls, self.first = 0, None

    def judge(self, drawn, families):
        self.calls += 1
        key = repr(sorted(drawn.case.args.items()))
        if self.calls == 5:
            self.first = key
        if self.first is None:
            return Verdict(None, checks=[Check("KL-VALUES", "numerics", "pass")])
        clause = "KL-VALUES" if key == self.first else "KL-NONCONTIGUOUS"
        verdict = Verdict(None, checks=[Check(clause, "numerics", "fail")])
        verdict.findings = [Finding(KL, "atlas-a2", clause, "numerics", f"{clause} broken")]
        return verdict


def test_shrinking_does_not_slip_to_another_failure(specs, tmp_path):
    judge = TwoBugs()
    item = Item(KL, "atlas-a2", "FLOAT", "numerics")
    record = run_item(item, judge, specs, RunSettings(20, 0, tmp_path, "fake"))
    assert [(f.clause, f.kind) for f in record.findings] == [("KL-VALUES", "numerics")]
    saved, _ = load_saved(Path(record.findings[0].case_file), specs)
    assert repr(sorted(saved.case.args.items())) == judge.first  # the case first seen, unshrunk


class MostlyRejects:
    """Judges one case in ten (the others rejected: no numerics check at all)."""

    def __init__(self) -> None:
        self.calls = 0

    def judge(self, drawn, families):
        self.calls += 1
        checks = [Check("KL-VALUES", "numerics", "pass")] if self.calls % 10 == 0 else []
        return Verdict(None, checks=checks)


def test_an_item_that_judges_too_few_cases_is_insufficient_never_a_pass(specs, tmp_path):
    judge = MostlyRejects()
    item = Item(KL, "atlas-a2", "FLOAT", "numerics")
    record = run_item(item, judge, specs, RunSettings(20, 0, tmp_path, "fake"))
    assert record.quota == 10 and record.judged < 10 and record.outcome == "insufficient"
    assert record.cases > 20  # it kept drawing (up to three passes) before giving up
    assert record.evidence_rows == [("KL-VALUES", "numerics")]
    report = build_report(META, [record], 1.0)
    row = next(r for r in report["results"] if r["clause"] == "KL-VALUES")
    assert (row["outcome"], row["insufficient"]) == ("insufficient", 1)
    assert report["outcome"] == "incomplete" and report["stats"]["items_insufficient"] == 1
    assert report["items"][0]["judged"] == record.judged and report["items"][0]["quota"] == 10
    assert "insufficient evidence: aclnnKlDivBackward/atlas-a2/FLOAT/numerics judged" in \
        junit_xml(report).decode()
    assert 'class="cell s-insufficient"' in render_html(report)
    assert "items judged too few cases (insufficient evidence)" in summary_markdown(report)


def test_an_item_whose_backend_rejects_nothing_needs_no_extra_pass(specs, tmp_path):
    judge = TwoBugs()
    judge.calls = -10**9  # never reaches its failing call
    record = run_item(Item(KL, "atlas-a2", "FLOAT", "numerics"), judge, specs,
                      RunSettings(20, 0, tmp_path, "fake"))
    assert record.outcome == "pass" and record.cases == record.judged == 20


def test_an_item_our_generator_cannot_build_is_insufficient_with_the_reason(specs, tmp_path, monkeypatch):
    """A clause no case breaks alone on a product (Hypothesis: Unsatisfiable) is our side's
    limit: never an item error (which reads as the backend's nonconformance), never a pass."""
    import hypothesis.strategies as st

    from conformance.run import item_runner

    nothing = st.integers().filter(lambda _: False)
    monkeypatch.setattr(item_runner, "_strategy", lambda item, specs: nothing)
    judge = MostlyRejects()
    record = run_item(Item(KL, "atlas-a2", "KL-DTYPE", "status"), judge, specs,
                      RunSettings(20, 0, tmp_path, "fake"))
    assert judge.calls == 0 and record.cases == 0 and record.error is None
    assert (record.outcome, record.judged, record.quota) == ("insufficient", 0, 1)
    assert record.notes == ["no case breaks KL-DTYPE without breaking another clause on atlas-a2: "
                           "not testable there"]
    assert record.evidence_rows == [("KL-DTYPE", "status")]
    report = build_report(META, [record], 1.0)
    assert report["outcome"] == "incomplete" and report["items"][0]["notes"] == record.notes
    note = record.notes[0]
    assert f"judged 0 of 1 cases ({note})" in junit_xml(report).decode()
    html = render_html(report)
    assert f'<li data-item="{record.item}"><code>{record.item}</code>: {note}</li>' in html
    valid = run_item(Item(KL, "atlas-a2", "FLOAT", "numerics"), judge, specs,
                     RunSettings(20, 0, tmp_path, "fake"))
    assert valid.outcome == "insufficient"
    assert valid.notes == ["no valid case of FLOAT could be drawn on atlas-a2"]
