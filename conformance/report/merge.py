"""Merge report documents (shards of one run, or runs of one backend on different products) into one.

The result has the format of docs/report-format.md and is what a single run over the union of the
inputs' items would have written, except:

- ``stats.seconds`` is the **sum** of the inputs' ``stats.seconds`` (machine time, not wall time: the
  shards may have run in parallel), and ``cases_per_second`` is recomputed from it;
- ``started`` is the earliest input's; ``stopped`` the first input's that stopped early;
- ``tool`` and ``backend`` are the first input's (``backend.product`` becomes null when the inputs
  disagree on it); a ``shard`` key, if the inputs have one, becomes null;
- waivers are dropped (``waivers``, every finding's ``waived``, and a ``waived`` item is ``fail``
  again): apply them again to the merge.

The inputs must agree on ``schema_version``, ``spec`` (version and digest), ``backend.spec``, ``seed``,
``profile`` and ``max_examples``, and must not share an item id (results would count its cases
twice); otherwise ``UsageError`` names the input that differs.
"""
from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from typing import Any

from conformance.errors import UsageError
from conformance.report.files import REQUIRED, report_problem
from conformance.report.outcome import (
    UNCHECKED,
    numerics_rows,
    observation_rows,
    per_kind,
    result_row,
    run_outcome,
    unfinished_pairs,
)

Key = tuple[str, str, str, str]

_MUST_AGREE = (("schema_versions", lambda r: r.get("schema_version"), "schema_version"),
               ("spec versions", lambda r: r.get("spec", {}).get("version"), "spec.version"),
               ("spec digests", lambda r: r.get("spec", {}).get("digest"), "spec.digest"),
               ("backends", lambda r: r.get("backend", {}).get("spec"), "backend.spec"),
               ("seeds", lambda r: r.get("seed"), "seed"),
               ("profiles", lambda r: r.get("profile"), "profile"),
               ("max_examples values", lambda r: r.get("max_examples"), "max_examples"),
               ("precision standards", lambda r: r.get("precision", "strict"), "precision"),
               ("goldens", lambda r: r.get("golden"), "golden"))

_REQUIRED = (*REQUIRED, "schema_version", "backend", "products", "apis", "profile", "seed", "spec", "stats",
             "observations", "errors", "items")


def merge_reports(reports: Sequence[dict[str, Any]], names: Sequence[str] | None = None) -> dict[str, Any]:
    """One report from ``reports`` (at least one); ``names`` (e.g. file names) label them in errors."""
    if not reports:
        raise UsageError("nothing to merge: give at least one report")
    names = list(names) if names is not None else [f"report {i + 1}" for i in range(len(reports))]
    if len(names) != len(reports):
        raise ValueError("names must label every report")
    _check(reports, names)
    first = reports[0]
    items, errors = _items(reports)
    results = _results(reports, unfinished_pairs(items))
    findings = [_unwaived(f) for r in reports for f in r["findings"]]
    cases = sum(r["stats"]["cases"] for r in reports)
    seconds = round(sum(r["stats"]["seconds"] for r in reports), 3)
    merged: dict[str, Any] = {
        "schema_version": first["schema_version"],
        "tool": dict(first.get("tool", {})),
        "outcome": "",  # decided below, from the merged document
        "backend": _backend(reports),
        "products": _union(r["products"] for r in reports),
        "apis": _union(r["apis"] for r in reports),
        "profile": first["profile"],
        "seed": first["seed"],
        "max_examples": first.get("max_examples"),
        "precision": first.get("precision", "strict"),
        "golden": first.get("golden"),
        "spec": dict(first["spec"]),
        "started": min((r["started"] for r in reports if r.get("started")), default=None),
        "stopped": next((r["stopped"] for r in reports if r.get("stopped")), None),
        "stats": {"cases": cases, "seconds": seconds,
                  "cases_per_second": round(cases / seconds, 1) if seconds > 0 else 0.0,
                  "items": len(items), "items_failed": sum(i["outcome"] in ("fail", "error") for i in items),
                  "items_incomplete": sum(i["outcome"] == "incomplete" for i in items),
                  "items_not_run": sum(i["outcome"] == "not-run" for i in items),
                  "items_insufficient": sum(i["outcome"] == "insufficient" for i in items),
                  "findings": len(findings),
                  "per_kind": per_kind((k, e["checks"], e["failed"]) for r in reports
                                       for k, e in r["stats"].get("per_kind", {}).items())},
        "results": results,
        "findings": findings,
        "observations": _observations(reports),
        "numerics": _numerics(reports),
        "clauses": _dict_union(r.get("clauses", {}) for r in reports),
        "operators": _dict_union(r.get("operators", {}) for r in reports),
        "dtypes": _dict_union(r.get("dtypes", {}) for r in reports),
        "errors": errors,
        "items": items,
    }
    if any("shard" in r for r in reports):
        merged["shard"] = None
    for key in ("golden", "operators"):  # (1.5) not in older reports: none is added to them
        if not any(key in r for r in reports):
            merged.pop(key)
    merged["outcome"] = run_outcome(merged)
    return {k: merged[k] for k in _order(first, merged)}


def _order(first: dict[str, Any], merged: dict[str, Any]) -> list[str]:
    """The first input's key order, then any key it lacked (a report without numerics, say)."""
    keys = [k for k in first if k in merged]
    return keys + [k for k in merged if k not in keys]


def _check(reports: Sequence[dict[str, Any]], names: Sequence[str]) -> None:
    for report, name in zip(reports, names):
        problem = report_problem(report, _REQUIRED)
        if problem:
            raise UsageError(f"{name}: not a conformance report ({problem})")
    for label, get, field in _MUST_AGREE:
        want = get(reports[0])
        for report, name in zip(reports[1:], names[1:]):
            if get(report) != want:
                raise UsageError(f"cannot merge reports of different {label}: {name} has {field} "
                                 f"{get(report)!r}, {names[0]} has {want!r}")
    _check_disjoint(reports, names)


def _check_disjoint(reports: Sequence[dict[str, Any]], names: Sequence[str]) -> None:
    """Refuse inputs that ran the same item: their result rows would count its cases twice."""
    owner: dict[str, str] = {}
    for report, name in zip(reports, names):
        overlap = sorted(i["item"] for i in report["items"] if i["item"] in owner)
        if overlap:
            other = owner[overlap[0]]
            raise UsageError(f"{name} and {other} both ran {len(overlap)} item(s), e.g. {overlap[0]}: "
                             "merge disjoint shards or product runs (the same report or shard twice "
                             "would count its cases twice)")
        owner.update((i["item"], name) for i in report["items"])


def _backend(reports: Sequence[dict[str, Any]]) -> dict[str, Any]:
    backend = dict(reports[0]["backend"])
    if len({r["backend"].get("product") for r in reports}) > 1:
        backend["product"] = None
    return backend


def _union(lists: Any) -> list[str]:
    out: list[str] = []
    for values in lists:
        out += [v for v in values if v not in out]
    return out


def _key(row: dict[str, Any]) -> Key:
    return row["api"], row["product"], row["clause"], row["kind"]


def _results(reports: Sequence[dict[str, Any]], unfinished: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """Rows summed per key; not-applicable and not-run rows (``UNCHECKED``) once, and only if no input
    checked that (api, product)."""
    tally: dict[Key, Counter] = {}
    not_applicable: dict[tuple[str, str], dict[str, Any]] = {}
    for report in reports:
        for row in report["results"]:
            if row["outcome"] in UNCHECKED:
                not_applicable.setdefault((row["api"], row["product"]), dict(row))
                continue
            c = tally.setdefault(_key(row), Counter())
            c.update({"cases": row["cases"], "failed": row["failed"], "observed": row["observed"],
                      "insufficient": row.get("insufficient", 0), "no_reference": row.get("no_reference", 0)})
    checked = {(api, product) for api, product, _, _ in tally}
    rows = []
    for key, c in sorted(tally.items()):
        rows.append(result_row(key, c["cases"], c["failed"], c["observed"], c["insufficient"], unfinished,
                               c["no_reference"]))
    return rows + [row for ap, row in not_applicable.items() if ap not in checked]


def _unwaived(finding: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(finding)
    out.pop("waived", None)
    return out


def _unwaived_item(item: dict[str, Any]) -> dict[str, Any]:
    return {**item, "outcome": "fail" if item["outcome"] == "waived" else item["outcome"]}


def _items(reports: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Items by id, sorted (ids are unique: ``_check_disjoint``); errors in input order."""
    items = {item["item"]: _unwaived_item(item) for report in reports for item in report["items"]}
    errors = [dict(err) for report in reports for err in report["errors"]]
    return [items[k] for k in sorted(items)], errors


def _observations(reports: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    merged: Counter = Counter()
    for report in reports:
        for o in report["observations"]:
            merged[(o["api"], o["product"], o["clause"], o["behaviour"])] += o["cases"]
    return observation_rows(merged)


def _numerics(reports: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    merged: dict[tuple[str, str], Counter] = {}
    for report in reports:
        for entry in report.get("numerics", []):
            merged.setdefault((entry["api"], entry["dtype"]), Counter()).update(
                {int(b): n for b, n in entry["bins"].items()})
    return numerics_rows(merged)


def _dict_union(dicts: Any) -> dict[str, Any]:
    """Keys of every input, recursively for nested dicts; a non-dict value is the first input's
    (the inputs share the spec digest, so the same key has the same value)."""
    out: dict[str, Any] = {}
    for d in dicts:
        _update(out, d)
    return out


def _update(out: dict[str, Any], new: dict[str, Any]) -> None:
    for key, value in new.items():
        if key not in out:
            out[key] = copy.deepcopy(value)
        elif isinstance(out[key], dict) and isinstance(value, dict):
            _update(out[key], value)
