"""Running one item: shrinking stays on the failure first seen."""
from __future__ import annotations

from pathlib import Path

from helpers import KL

from conformance.check.case_store import load_saved
from conformance.check.judge import Verdict
from conformance.check.results import Check, Finding
from conformance.run.item_runner import RunSettings, run_item
from conformance.run.plan import Item


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
