"""What a run produces: findings, per-clause tallies, unspecified observations, per-item records.

Everything here is plain data with a JSON form, because test items may run in other processes
(pytest-xdist) and report their records through the journal (see ``journal.py``).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from conformance.spec.model import KINDS  # noqa: F401 - re-exported: the kinds a record tallies


def item_id(api: str, product: str, subject: str, family: str) -> str:
    """The id of a test item: ``api/product/subject/family``."""
    return f"{api}/{product}/{subject}/{family}"


def split_item_id(item: str) -> tuple[str, str, str, str] | None:
    """(api, product, subject, family) of an item id; None for a string that is not one."""
    parts = str(item).split("/")
    return (parts[0], parts[1], parts[2], parts[3]) if len(parts) == 4 else None


RATIO_BINS = tuple(range(-24, 5))  # log2 of error/bound; -25 collects exact results


def ratio_bin(ratio: float) -> int:
    """The histogram bin of a case's worst error-to-bound ratio: floor(log2), clamped to the bins."""
    if math.isnan(ratio) or math.isinf(ratio):
        return RATIO_BINS[-1]
    if ratio <= 0:
        return RATIO_BINS[0] - 1
    return max(RATIO_BINS[0], min(RATIO_BINS[-1], math.floor(math.log2(ratio))))


@dataclass
class Finding:
    """A broken promise, with the case that shows it."""

    api: str
    product: str
    clause: str
    kind: str
    message: str
    item: str = ""
    case_file: str | None = None
    replay: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


#: The outcome of a numerics check the run could not judge: the operator has no reference (a
#: drafted spec) and no golden stood in. Never a pass, never a failure.
NO_REFERENCE = "no-reference"


@dataclass(frozen=True)
class Check:
    """One clause judged on one case: outcome pass | fail | observed (unspecified) | no-reference
    (numerics without a reference: the call was made, its values not judged)."""

    clause: str
    kind: str
    outcome: str


@dataclass
class ItemRecord:
    """The outcome of one test item (api, product, subject, family)."""

    item: str
    api: str
    product: str
    subject: str
    family: str
    cases: int = 0
    seconds: float = 0.0
    error: str | None = None  # the item could not run (a spec or adapter problem)
    complete: bool = True  # False: rebuilt from the journal of a run killed while it ran
    checks: Counter = field(default_factory=Counter)  # (clause, kind, outcome) -> cases
    observations: Counter = field(default_factory=Counter)  # (clause, behaviour) -> cases
    numerics: Counter = field(default_factory=Counter)  # (dtype, ratio bin) -> cases, see ratio_bin
    findings: list[Finding] = field(default_factory=list)
    judged: int = 0  # cases whose checks of the item's own family were judged (its evidence)
    quota: int = 0  # how many it needed (0: no quota, as for the boundary phase)
    evidence_rows: list[tuple[str, str]] = field(default_factory=list)  # (clause, kind) it vouches for
    notes: list[str] = field(default_factory=list)  # what it could not cover (a boundary exemption)

    @property
    def outcome(self) -> str:
        if self.error:
            return "error"
        if self.findings:
            return "fail"
        if not self.complete:  # killed while it ran, or never started (-x, Ctrl-C, a kill)
            return "incomplete" if self.cases else "not-run"
        if self.judged < self.quota:
            return "insufficient"
        return NO_REFERENCE if self.family == "numerics" and self._unjudged_numerics() else "pass"

    def _unjudged_numerics(self) -> bool:
        """Numerics were checked only without a reference: the item judged no value."""
        outcomes = {o for (_, kind, o) in self.checks if kind == "numerics"}
        return outcomes == {NO_REFERENCE}

    def add(self, checks: list[Check], observations: list[tuple[str, str]],
            ratios: list[tuple[str, float]] = ()) -> None:
        self.cases += 1
        self.checks.update((c.clause, c.kind, c.outcome) for c in checks)
        self.observations.update(observations)
        self.numerics.update((dtype, ratio_bin(r)) for dtype, r in ratios)

    def to_json(self) -> dict[str, Any]:
        return {"item": self.item, "api": self.api, "product": self.product, "subject": self.subject,
                "family": self.family, "cases": self.cases, "seconds": round(self.seconds, 4),
                "outcome": self.outcome, "error": self.error, "complete": self.complete,
                "checks": [[c, k, o, n] for (c, k, o), n in sorted(self.checks.items())],
                "observations": [[c, b, n] for (c, b), n in sorted(self.observations.items())],
                "numerics": [[d, b, n] for (d, b), n in sorted(self.numerics.items())],
                "findings": [f.to_json() for f in self.findings], "judged": self.judged,
                "quota": self.quota, "evidence_rows": [list(r) for r in self.evidence_rows],
                "notes": list(self.notes)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ItemRecord:
        record = cls(data["item"], data["api"], data["product"], data["subject"], data["family"],
                     data["cases"], data["seconds"], data.get("error"), data.get("complete", True))
        record.checks = Counter({(c, k, o): n for c, k, o, n in data["checks"]})
        record.observations = Counter({(c, b): n for c, b, n in data["observations"]})
        record.numerics = Counter({(d, b): n for d, b, n in data.get("numerics", [])})
        record.findings = [Finding(**f) for f in data["findings"]]
        record.judged, record.quota = data.get("judged", 0), data.get("quota", 0)
        record.evidence_rows = [tuple(r) for r in data.get("evidence_rows", [])]
        record.notes = list(data.get("notes", []))
        return record
