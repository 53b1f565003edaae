"""Build ``report.json`` from the run's metadata and item records (format: docs/report-format.md)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from conformance.check.results import NO_REFERENCE, ItemRecord, split_item_id
from conformance.report.outcome import (
    UNCHECKED,
    numerics_rows,
    observation_rows,
    per_kind,
    result_row,
    run_outcome,
    unfinished_pairs,
)

SCHEMA_VERSION = "1.6"


def build_report(meta: dict[str, Any], records: list[ItemRecord], seconds: float,
                 planned: set[str] | None = None, damage: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report document; ``meta`` is what the run recorded when it started, ``planned`` the
    items it selected (those without a record were not run: the run was killed or stopped),
    ``damage`` the journal lines that could not be read (``{"lines", "kept"}``, journal.py)."""
    records = _with_unrun(records, planned or set())
    findings = [f.to_json() for r in records for f in r.findings]
    errors = [{"item": r.item, "error": r.error} for r in records if r.error]
    cases = sum(r.cases for r in records)
    unfinished = unfinished_pairs(_item(r) for r in records)
    results = _results(records, unfinished) + [
        {"api": a, "product": p, "clause": "*", "kind": "*", "cases": 0, "failed": 0, "observed": 0,
         "outcome": outcome, "reason": reason}
        for outcome, key in UNCHECKED.items() for a, p, reason in meta.get(key, [])]
    results.sort(key=lambda r: (r["api"], r["product"], r["clause"], r["kind"]))
    outcomes = Counter(r.outcome for r in records)
    report = {
        "schema_version": SCHEMA_VERSION,
        "tool": meta.get("tool", {}),
        "outcome": "",  # decided below, from the document itself
        "backend": meta["backend"],
        "products": list(meta["products"]),
        "apis": list(meta["apis"]),
        "shard": meta.get("shard"),
        "profile": meta["profile"],
        "seed": meta["seed"],
        "max_examples": meta["max_examples"],
        "precision": meta.get("precision", "strict"),
        "golden": meta.get("golden"),
        "spec": meta["spec"],
        "started": meta["started"],
        "stopped": stopped(meta),
        "stats": {"cases": cases, "seconds": round(seconds, 3),
                  "cases_per_second": round(cases / seconds, 1) if seconds > 0 else 0.0,
                  "items": len(records), "items_failed": sum(r.outcome in ("fail", "error") for r in records),
                  "items_incomplete": outcomes["incomplete"], "items_not_run": outcomes["not-run"],
                  "items_insufficient": outcomes["insufficient"],
                  "findings": len(findings), "per_kind": _per_kind(records)},
        "results": results,
        "findings": findings,
        "observations": _observations(records),
        "numerics": _numerics(records),
        "clauses": meta.get("clauses", {}),
        "operators": meta.get("operators", {}),
        "dtypes": meta.get("dtypes", {}),
        "errors": errors,
        "items": [_item(r) for r in records],
    }
    if damage:
        report["journal_damage"] = damage
    report["outcome"] = run_outcome(report)
    return report


def stopped(meta: dict[str, Any]) -> str | None:
    """Why the last attempt of the run ended before its last item (-x, Ctrl-C), or None."""
    attempts = meta.get("attempts") or [{}]
    return attempts[-1].get("stopped")


def _item(r: ItemRecord) -> dict[str, Any]:
    item = {"item": r.item, "outcome": r.outcome, "cases": r.cases, "seconds": round(r.seconds, 3),
            "error": r.error}
    if r.quota:
        item.update(judged=r.judged, quota=r.quota)
    if r.notes:
        item["notes"] = list(r.notes)
    return item


def _with_unrun(records: list[ItemRecord], planned: set[str]) -> list[ItemRecord]:
    seen = {r.item for r in records}
    unrun = [ItemRecord(i, *parts, complete=False) for i in sorted(planned - seen)
             if (parts := split_item_id(i)) is not None]
    return list(records) + unrun


def _results(records: list[ItemRecord], unfinished: set[tuple[str, str]]) -> list[dict[str, Any]]:
    tally: dict[tuple[str, str, str, str], Counter] = {}
    for r in records:
        for (clause, kind, outcome), n in r.checks.items():
            tally.setdefault((r.api, r.product, clause, kind), Counter())[outcome] += n
        for f in r.findings:  # a finding always fails its row, even if shrinking saw no fail tally
            tally.setdefault((r.api, r.product, f.clause, f.kind), Counter())["finding"] += 1
        if r.outcome == "insufficient":
            for clause, kind in r.evidence_rows:
                tally.setdefault((r.api, r.product, clause, kind), Counter())["insufficient"] += 1
    rows = []
    for key, c in sorted(tally.items()):
        failed = c["fail"] + (c["finding"] if not c["fail"] else 0)
        cases = c["pass"] + c["fail"] + c["observed"] + c[NO_REFERENCE]
        rows.append(result_row(key, cases, failed, c["observed"], c["insufficient"], unfinished,
                               c[NO_REFERENCE]))
    return rows


def _per_kind(records: list[ItemRecord]) -> dict[str, dict[str, int]]:
    return per_kind((kind, n, n if outcome == "fail" else 0)
                    for r in records for (_, kind, outcome), n in r.checks.items())


def _numerics(records: list[ItemRecord]) -> list[dict[str, Any]]:
    """Per (api, dtype): how many cases had their worst error/bound ratio in each log2 bin."""
    merged: dict[tuple[str, str], Counter] = {}
    for r in records:
        for (dtype, b), n in r.numerics.items():
            merged.setdefault((r.api, dtype), Counter())[b] += n
    return numerics_rows(merged)


def _observations(records: list[ItemRecord]) -> list[dict[str, Any]]:
    merged: Counter = Counter()
    for r in records:
        for (clause, behaviour), n in r.observations.items():
            merged[(r.api, r.product, clause, behaviour)] += n
    return observation_rows(merged)
