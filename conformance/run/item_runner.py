"""Run one test item: drive Hypothesis over its strategy (or walk the boundary cases), judge
every case, keep the shrunk counterexample of a failure and save it as a replayable case file."""
from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hypothesis
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis.errors import Flaky, Unsatisfiable

from conformance.check.case_store import case_path, save_case
from conformance.check.describe import shapes_of
from conformance.check.grouping import counted, say_occurrences
from conformance.check.judge import EVIDENCE, Judge, Verdict
from conformance.check.results import ItemRecord
from conformance.generate.strategies import (
    Drawn,
    boundary_cases,
    invalid_cases,
    large_corners,
    valid_cases,
)
from conformance.run.plan import LARGE, Item
from conformance.spec.model import PROCESS_KINDS, SpecSet


@dataclass(frozen=True)
class RunSettings:
    max_examples: int
    seed: int
    report_dir: Path
    replay_options: str  # what the replay command adds: the backend, the packs given (--specs)
    journal: Any = None  # a journal.JournalWriter: each counted case is journaled as it is judged
    size_max: int = 0  # the size axis (run/profiles.py): largest tensor of its cases, in elements
    large_examples: int = 1  # its cases per item and value regime


class _CaseFailed(Exception):
    """Raised inside the Hypothesis test so it shrinks; carries nothing we need afterwards."""


def run_item(item: Item, judge: Judge, specs: SpecSet, cfg: RunSettings) -> ItemRecord:
    record = ItemRecord(item.id, item.api, item.product, item.subject, item.family)
    start = time.perf_counter()
    try:
        if item.subject == "boundary":
            _run_boundary(item, judge, specs, cfg, record)
        elif item.family == LARGE:
            _run_large(item, judge, specs, cfg, record)
        else:
            _run_hypothesis(item, judge, specs, cfg, record)
    finally:
        record.seconds = time.perf_counter() - start
    say_occurrences(record.findings)
    return record


def _keep(item: Item, drawn: Drawn, verdict: Verdict, specs: SpecSet, cfg: RunSettings,
          record: ItemRecord, index: int = 0) -> None:
    """Save each finding of ``verdict`` with its case file and replay command; a crash the item
    already has a finding for is only counted there (check/grouping.py)."""
    for n, finding in enumerate(verdict.findings):
        finding.item = item.id
        if counted(record.findings, finding):
            continue
        name = f"{item.id}/{finding.clause}/{finding.kind}/{index}-{n}"
        finding.details["case"] = shapes_of(drawn.case.args)
        finding.details["origin"] = drawn.origin
        where = case_path(cfg.report_dir, name)
        finding.replay = f"conformance replay {where} {cfg.replay_options}"
        finding.case_file = str(save_case(cfg.report_dir, name, drawn, verdict.materialized, finding, specs))
        record.findings.append(finding)


def _count(record: ItemRecord, verdict: Verdict, cfg: RunSettings) -> None:
    record.add(verdict.checks, verdict.observations, verdict.ratios)
    if any(c.kind in EVIDENCE.get(record.family, ()) for c in verdict.checks):
        record.judged += 1
    if cfg.journal is not None:
        cfg.journal.case(record.item, verdict.checks, verdict.observations, verdict.ratios)


def _killed(verdict: Verdict) -> bool:
    return any(f.kind in PROCESS_KINDS for f in verdict.findings)


def _run_boundary(item: Item, judge: Judge, specs: SpecSet, cfg: RunSettings,
                  record: ItemRecord) -> None:
    cases = boundary_cases(specs, item.api, item.product, record.notes)
    _run_fixed(item, judge, specs, cfg, record, cases)


def _run_fixed(item: Item, judge: Judge, specs: SpecSet, cfg: RunSettings, record: ItemRecord,
               cases: list[Drawn]) -> None:
    """Judge deterministic cases (no shrinking: each is already at a limit)."""
    seen: set[tuple[str, str]] = set()
    for i, drawn in enumerate(cases):
        verdict = judge.judge(drawn, item.families())
        _count(record, verdict, cfg)
        # one counterexample per clause and kind is enough to act on; but every case that killed
        # or hung the backend is kept, for _keep to count in the finding of its way of failing
        fresh = [f for f in verdict.findings
                 if (f.clause, f.kind) not in seen or f.kind in PROCESS_KINDS]
        seen.update((f.clause, f.kind) for f in fresh)
        verdict.findings = fresh
        _keep(item, drawn, verdict, specs, cfg, record, i)


def _strategy(item: Item, specs: SpecSet, size_max: int = 0, regime: str | None = None):
    spec = specs.operator(item.api)
    if item.subject in spec.test_dtypes(item.product):
        return valid_cases(specs, item.api, item.product, item.subject, size_max, regime)
    return invalid_cases(specs, item.api, item.product, item.subject)


def item_given(item: Item, specs: SpecSet, seed: int, max_examples: int, attempt: int = 0,
               strategy: Any = None) -> Callable[[Any], Any]:
    """Hypothesis for one item: its strategy, its seed (from the run seed, the item id and the
    attempt, so the same item draws the same cases in any run, shard or worker) and quiet,
    database-free settings."""
    key = f"{seed}:{item.id}" + (f":{attempt}" if attempt else "")

    def wrap(body: Any) -> Any:
        decorated = given(strategy if strategy is not None else _strategy(item, specs))(body)
        decorated = hypothesis.seed(zlib.crc32(key.encode()))(decorated)
        return settings(max_examples=max_examples, database=None, deadline=None, derandomize=False,
                        report_multiple_bugs=False, phases=(Phase.explicit, Phase.generate, Phase.shrink),
                        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                               HealthCheck.filter_too_much], print_blob=False,
                        verbosity=Verbosity.quiet)(decorated)
    return wrap


#: Further passes of max_examples cases each, while an item has judged too few cases of its own
#: family (a backend rejecting valid cases leaves few to judge: A pass must mean judged).
EXTRA_PASSES = 2


def _run_hypothesis(item: Item, judge: Judge, specs: SpecSet, cfg: RunSettings,
                    record: ItemRecord) -> None:
    for attempt in range(1 + EXTRA_PASSES):
        try:
            _run_pass(item, judge, specs, cfg, record, attempt)
        except Unsatisfiable:  # our side built no case: the item cannot pass, nor blame the backend
            record.notes.append(_unbuildable(item, specs))
            record.quota = max(1, min(cfg.max_examples // 2, record.cases // 2))
            break
        # the quota: half the examples asked for, or half of what the generator could draw
        record.quota = min(cfg.max_examples // 2, record.cases // 2)
        if record.findings or record.judged >= record.quota:
            return
    family_kinds = EVIDENCE[record.family]
    rows = sorted({(c, k) for c, k, _ in record.checks if k in family_kinds})
    record.evidence_rows = rows or [(_default_clause(item, specs), family_kinds[0])]


def _unbuildable(item: Item, specs: SpecSet) -> str:
    """Why an item drew no case (Hypothesis found none its filter keeps)."""
    if item.subject in specs.operator(item.api).test_dtypes(item.product):
        return f"no valid case of {item.subject} could be drawn on {item.product}"
    return (f"no case breaks {item.subject} without breaking another clause on {item.product}: "
            "not testable there")


def _default_clause(item: Item, specs: SpecSet) -> str:
    """The clause an item's evidence would have spoken for had it judged any case."""
    spec = specs.operator(item.api)
    if item.subject not in spec.test_dtypes(item.product):
        return item.subject  # an invalid-case item: the clause it breaks
    return spec.owner(EVIDENCE[item.family][0], {})


#: The size axis: every item runs Hypothesis cases in each of these value regimes; its high-end
#: case (the largest tensor, the costliest case of a run) in the first only: accumulation error
#: grows with size, while special values spread over many tiles already at the low end (64 Ki).
LARGE_REGIMES = ("ordinary", "special")
#: How many shrink tries a size-axis failure gets (each judges a case of up to size_max elements);
#: a count, not a time, so the same seed gives the same counterexample on any machine.
LARGE_SHRINK_TRIES = 40


def _run_large(item: Item, judge: Judge, specs: SpecSet, cfg: RunSettings, record: ItemRecord) -> None:
    """The high-end cases, then Hypothesis in each regime: each part runs even when an earlier
    one failed, so a rejected high-end case (say, a reduction a backend refuses) does not leave
    the other large cases unjudged."""
    corners = large_corners(specs, item.api, item.product, item.subject, cfg.size_max, LARGE_REGIMES[:1])
    _run_fixed(item, judge, specs, cfg, record, corners)
    for attempt, regime in enumerate(LARGE_REGIMES):
        strategy = _strategy(item, specs, cfg.size_max, regime)
        _run_pass(item, judge, specs, cfg, record, attempt, strategy, cfg.large_examples,
                  LARGE_SHRINK_TRIES)


def _run_pass(item: Item, judge: Judge, specs: SpecSet, cfg: RunSettings, record: ItemRecord,
              attempt: int, strategy: Any = None, examples: int = 0,
              shrink_tries: float = float("inf")) -> None:
    last: list[tuple[Drawn, Verdict]] = []
    first: set[tuple[str, str]] = set()  # the (clause, kind) of the failure first seen
    tries = [0]  # shrink tries judged since
    families = item.families()

    @item_given(item, specs, cfg.seed, examples or cfg.max_examples, attempt, strategy)
    def body(drawn: Drawn) -> None:
        if last and (_killed(last[0][1]) or tries[0] >= shrink_tries):
            return  # no shrinking by crashing or hanging the backend again, or past the budget
        tries[0] += bool(last)
        verdict = judge.judge(drawn, families)
        failures = {(f.clause, f.kind) for f in verdict.findings}
        if failures and (not first or failures & first):
            first.update(failures if not first else ())
            # shrink only toward the failure first seen; a case failing otherwise is not it
            verdict.findings = [f for f in verdict.findings if (f.clause, f.kind) in first]
            last[:] = [(drawn, verdict)]
            raise _CaseFailed
        if not last:  # once a failure is found, the remaining calls are shrink attempts: not counted
            _count(record, verdict, cfg)

    try:
        body()
    except (_CaseFailed, Flaky):
        if not last:
            raise
        drawn, verdict = last[0]
        _count(record, verdict, cfg)  # the shrunk counterexample
        _keep(item, drawn, verdict, specs, cfg, record)
