"""The rules that turn tallies into verdicts, and the tallies every report document shares.

A run's report, a report rebuilt from a journal, a merge of shards and a report with waivers
applied all decide through ``row_outcome`` and ``run_outcome``, and write their per-kind,
observation and numerics sections through the builders here.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from conformance.check.results import NO_REFERENCE, split_item_id
from conformance.spec.model import KINDS

#: Item outcomes of an item that did not finish: killed while it ran, or never started (-x, Ctrl-C).
UNFINISHED = ("incomplete", "not-run")
#: Every state a result row, an item or a report cell can have, the one that speaks first first:
#: a cell or table entry summing several of them shows the first of theirs in this order.
SEVERITY = ("fail", "error", "waived", "not-run", "incomplete", "insufficient", NO_REFERENCE, "unspecified",
            "pass", "not-applicable")


#: Whole-(api, product) rows that hold no checks, by outcome, with the run.json key listing them:
#: the operator is not supported on the product, or the backend does not implement it.
UNCHECKED = {"not-applicable": "not_applicable", "not-run": "not_implemented"}


def worst(states: Iterable[str]) -> str:
    """The state that speaks first (``SEVERITY``) among ``states``; ``not-run`` when there are none."""
    found = [s for s in states if s in SEVERITY]
    return min(found, key=SEVERITY.index) if found else "not-run"


def row_outcome(failed: int, observed: int, insufficient: int = 0, unfinished: bool = False,
                no_reference: int = 0) -> str:
    """A result row (api, product, clause, kind): any failure fails it; when an item of its
    operator and product did not finish (``unfinished``: the run was stopped or killed), what was
    judged is no pass: ``incomplete``; an item that judged too few cases for it makes it
    ``insufficient`` (never a pass); numerics checked without a reference (``no_reference``
    checks) make it ``no-reference`` (never a pass, never a failure); observations alone make it
    ``unspecified``; otherwise it passed."""
    if failed:
        return "fail"
    if unfinished:
        return "incomplete"
    if insufficient:
        return "insufficient"
    return NO_REFERENCE if no_reference else "unspecified" if observed else "pass"


def unfinished_pairs(items: Iterable[dict[str, Any]]) -> set[tuple[str, str]]:
    """The (api, product) pairs with an item that did not finish: their rows cannot pass."""
    return {parts[:2] for i in items if i["outcome"] in UNFINISHED
            and (parts := split_item_id(i["item"])) is not None}


def run_outcome(report: dict[str, Any]) -> str:
    """The verdict of a report document: ``nonconformant`` with an unwaived finding, an item that
    could not run or a failing row; ``empty`` when no item ran and nothing stopped the run; else
    ``incomplete`` when the run was stopped (-x, Ctrl-C, a worker that died), an item
    did not finish or judged too few cases (``insufficient``), or the journal it was rebuilt from
    is damaged, or numerics went unjudged for want of a reference (``no-reference``: what was
    not judged is no conformance); else ``conformant``."""
    unwaived = [f for f in report["findings"] if "waived" not in f]
    damaged = bool(report.get("journal_damage"))  # lines lost: what they held was not judged here
    if (not report.get("items") and not unwaived and not report.get("errors") and not damaged
            and not report.get("stopped")):
        return "empty"  # nothing was judged: never conformant (an empty shard, say)
    if unwaived or report.get("errors") or any(r["outcome"] == "fail" for r in report["results"]):
        return "nonconformant"
    cut = any(i["outcome"] in (*UNFINISHED, "insufficient") for i in report.get("items", []))
    if damaged or report.get("stopped") or cut:
        return "incomplete"  # not everything was judged: items cut off or not run, or too little evidence
    if any(r["outcome"] == NO_REFERENCE for r in report["results"]):
        return "incomplete"  # numerics were checked without a reference: not judged
    return "conformant"


def per_kind(entries: Iterable[tuple[str, int, int]]) -> dict[str, dict[str, int]]:
    """``stats.per_kind`` from (kind, checks, failed) entries; every kind is listed."""
    out = {k: {"checks": 0, "failed": 0} for k in KINDS}
    for kind, checks, failed in entries:
        entry = out.setdefault(kind, {"checks": 0, "failed": 0})
        entry["checks"] += checks
        entry["failed"] += failed
    return out


def observation_rows(merged: Counter) -> list[dict[str, Any]]:
    """``observations`` from cases counted per (api, product, clause, behaviour)."""
    return [{"api": a, "product": p, "clause": c, "behaviour": b, "cases": n}
            for (a, p, c, b), n in sorted(merged.items())]


def numerics_rows(merged: dict[tuple[str, str], Counter]) -> list[dict[str, Any]]:
    """``numerics`` from cases counted per (api, dtype) and log2 ratio bin."""
    return [{"api": a, "dtype": d, "bins": {str(b): n for b, n in sorted(c.items())}}
            for (a, d), c in sorted(merged.items())]


def result_row(key: tuple[str, str, str, str], cases: int, failed: int, observed: int,
               insufficient: int = 0, unfinished: set[tuple[str, str]] = frozenset(),
               no_reference: int = 0) -> dict[str, Any]:
    """A result row; ``insufficient``: how many items judged too few cases for it, ``no_reference``:
    how many of its checks had no reference to judge by (each a key of its own only when non-zero);
    ``unfinished``: the ``unfinished_pairs`` of the run."""
    api, product, clause, kind = key
    outcome = row_outcome(failed, observed, insufficient, (api, product) in unfinished, no_reference)
    row = {"api": api, "product": product, "clause": clause, "kind": kind, "cases": cases,
           "failed": failed, "observed": observed, "outcome": outcome}
    if insufficient:
        row["insufficient"] = insufficient
    if no_reference:
        row["no_reference"] = no_reference
    return row
