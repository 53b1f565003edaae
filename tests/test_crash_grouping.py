"""A backend that crashes the same way on every case gives one finding per item and way of
failing, counting the cases (it gave one finding per crashing case: 123 for KL, quick, one product)."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from bad_adapters import Raises
from helpers import KL

import conformance
from conformance.backends.reference import ReferenceBackend
from conformance.check.case_store import load_saved
from conformance.check.grouping import crash_key
from conformance.check.judge import Judge
from conformance.check.results import Finding
from conformance.run.item_runner import RunSettings, run_item
from conformance.run.plan import Item
from conformance.run.profiles import PROFILES

A2 = "atlas-a2"
BOUNDARY = Item(KL, A2, "boundary", "all")
SCHEMA = Path(conformance.__file__).parent / "schema" / "report.schema.json"


class RaisesTwoWays(ReferenceBackend):
    """The same words, two exception types: two different failures."""

    name = "two-ways"

    def call(self, api, args):
        raise (TypeError if args["reduction"] == 0 else RuntimeError)("kernel not found")


class RaisesNamingTheCase(ReferenceBackend):
    """A message that embeds the case (a rank, a size, an address): the same failure every time."""

    name = "case-words"

    def call(self, api, args):
        t = next(v for v in args.values() if hasattr(v, "shape"))
        raise ValueError(f"no {len(t.shape)}-d kernel for {t.array.size} elements at 0x{id(t):x}")


class Recording(Judge):
    """Remembers, per (clause, exception), the first case that crashed so."""

    def __init__(self, *a):
        super().__init__(*a)
        self.first: dict[tuple[str, str], str] = {}

    def judge(self, drawn, families=("status", "numerics", "determinism", "memory")):
        verdict = super().judge(drawn, families)
        for f in verdict.findings:
            self.first.setdefault((f.clause, f.message.split(": ")[0]), _args(drawn.case))
        return verdict


def _args(case) -> str:
    return repr(sorted(case.args.items()))


def _run(specs, tmp_path, backend, item=BOUNDARY, size_max=0):
    judge = Recording(backend, specs, A2)
    cfg = RunSettings(20, 0, tmp_path, "test", size_max=size_max)
    return judge, run_item(item, judge, specs, cfg)


def test_an_always_raising_backend_gives_one_finding_per_clause_counting_its_cases(specs, tmp_path):
    judge, record = _run(specs, tmp_path, Raises())
    crashed = {c: n for (c, k, o), n in record.checks.items() if (k, o) == ("crash", "fail")}
    # every case crashed; the tally of failed crash checks, per clause, is counted apart from findings
    assert sum(crashed.values()) == record.cases > 50 and max(crashed.values()) > 10
    assert sorted(f.clause for f in record.findings) == sorted(crashed)  # one finding per clause
    for f in record.findings:
        n = crashed[f.clause]
        assert f.details["occurrences"] == n, f.clause
        tail = f" (and {n - 1} more case{'s' if n > 2 else ''} of this item failed the same way)"
        assert f.message.endswith(tail) if n > 1 else "more case" not in f.message
        assert f.message.startswith("backend 'raises' raised RuntimeError: kernel not found for this dtype [")
        saved, recorded = load_saved(Path(f.case_file), specs)
        assert _args(saved.case) == judge.first[(f.clause, "backend 'raises' raised RuntimeError")]
        assert recorded["clause"] == f.clause
    assert len(list((tmp_path / "cases").glob("*.yaml"))) == len(record.findings)


def test_two_exception_types_are_two_findings_and_shapes_in_a_message_are_not(specs, tmp_path):
    _, record = _run(specs, tmp_path / "a", RaisesTwoWays())
    phase = sorted(f.message.split(" [")[0] for f in record.findings if f.clause == "KL-PHASE")
    assert phase == ["backend 'two-ways' raised RuntimeError: kernel not found",
                     "backend 'two-ways' raised TypeError: kernel not found"]
    crashed = sum(n for (c, k, o), n in record.checks.items() if (c, k) == ("KL-PHASE", "crash"))
    assert sum(f.details["occurrences"] for f in record.findings if f.clause == "KL-PHASE") == crashed
    _, record = _run(specs, tmp_path / "b", RaisesNamingTheCase())
    clauses = [f.clause for f in record.findings]
    assert len(clauses) == len(set(clauses)) and sorted(clauses) == sorted(
        c for (c, k, o) in record.checks if k == "crash")
    assert sum(f.details["occurrences"] for f in record.findings) == record.cases > 50


def test_a_hypothesis_item_keeps_its_one_crash_with_a_count_of_one(specs, tmp_path):
    _, record = _run(specs, tmp_path, Raises(), Item(KL, A2, "FLOAT", "status"))
    assert [(f.clause, f.kind, f.details["occurrences"]) for f in record.findings] == [
        ("KL-PHASE", "crash", 1)]
    assert record.findings[0].message.endswith(")]")  # no "more cases" when there are none


def test_a_large_item_crashing_on_every_case_is_one_finding(specs, tmp_path):
    item = Item(KL, A2, "FLOAT", "large")
    _, record = _run(specs, tmp_path, Raises(), item, PROFILES["quick"].size_max)
    # its high-end case (ordinary values), then one Hypothesis case per regime
    assert record.cases == 3 and record.checks[("KL-PHASE", "crash", "fail")] == 3
    assert [(f.clause, f.details["occurrences"]) for f in record.findings] == [("KL-PHASE", 3)]
    assert len(list((tmp_path / "cases").glob("*.npz"))) == 1  # one large input saved, not three


def test_other_findings_are_not_grouped(specs, tmp_path):
    class Rejects(ReferenceBackend):
        name = "rejects"

        def call(self, api, args):
            return 161002
    _, record = _run(specs, tmp_path, Rejects())
    assert record.findings and {f.kind for f in record.findings} == {"status"}
    assert all("occurrences" not in f.details and "more case" not in f.message for f in record.findings)


@pytest.mark.parametrize("a, b, same", [
    ("raised E: got 3 dims [aclnnKlDivBackward(self=FLOAT[2,3])]",
     "raised E: got 4 dims [aclnnKlDivBackward(self=FLOAT16[2,3,4])]", True),
    ("raised E: bad pointer 0x7ffd12ab [aclnnKlDivBackward(self=FLOAT[2])]",
     "raised E: bad pointer 0X55aa [aclnnKlDivBackward(self=FLOAT[2])]", True),
    ("raised E: no kernel for shape (2, 3) [aclnnKlDivBackward(self=FLOAT[2,3])]",
     "raised E: no kernel for shape (1,) [aclnnKlDivBackward(self=FLOAT[1])]", True),
    ("raised E: no kernel for shape [4, 5, 6] [aclnnKlDivBackward()]",
     "raised E: no kernel for shape [2] [aclnnKlDivBackward()]", True),
    ("raised E: no kernel for 4x5x6 [aclnnKlDivBackward()]",
     "raised E: no kernel for 2x3 [aclnnKlDivBackward()]", True),
    ("raised E: no kernel for INT8 [aclnnKlDivBackward()]",
     "raised E: no kernel for INT64 [aclnnKlDivBackward()]", False),
    ("crashed: its worker process was killed by SIGSEGV [aclnnKlDivBackward()]",
     "crashed: its worker process was killed by SIGABRT [aclnnKlDivBackward()]", False),
    ("raised E: x [aclnnKlDivBackward()]", "raised F: x [aclnnKlDivBackward()]", False),
])
def test_crash_key(a, b, same):
    def key(message, clause="KL-PHASE"):
        return crash_key(Finding(KL, A2, clause, "crash", message, item="i"))
    assert (key(a) == key(b)) is same
    assert key(a) != key(a, "KL-DTYPE")
    assert crash_key(Finding(KL, A2, "KL-VALUES", "numerics", a)) is None


def test_a_run_reports_the_grouped_findings(tmp_path):
    report = conformance.run_suite(f"{Path(__file__).with_name('bad_adapters.py')}:Raises", ops=[KL],
                                   products=[A2], profile="quick", keyword="boundary",
                                   report_dir=tmp_path, isolate=False)
    jsonschema.validate(report, json.loads(SCHEMA.read_text()))
    failed = report["stats"]["per_kind"]["crash"]["failed"]
    assert report["stats"]["findings"] == len(report["findings"]) < 12 < failed
    assert sum(f["details"]["occurrences"] for f in report["findings"]) == failed == report["stats"]["cases"]
