"""What drafting made of the pages, per page and in total: parameters, clauses by kind, error-row
sentences read per pattern, review clauses, and the share of error rows turned into checkable
clauses (every sentence of the row encoded by a clause carrying the row's code). Printed as a
short table and written as JSON (``conformance draft --stats``)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from conformance.draft.emit import DraftedSpec
from conformance.draft.sentence_limits import IDENT

UNMATCHED = "(no pattern)"


def page_stats(d: DraftedSpec) -> dict[str, Any]:
    draft = d.draft
    by_row: dict[int, list[bool]] = {}
    for o in draft.outcomes:
        by_row.setdefault(o.row, []).append(o.checkable)
    rows = len(draft.facts.errors)
    checkable = sum(all(v) for v in by_row.values())
    return {
        "api": d.api, "page": draft.facts.page,
        "parameters": len(draft.ctx.params) + len(draft.ctx.omitted),
        "parameters_omitted": sorted(draft.ctx.omitted),
        "clauses": dict(Counter(c["kind"] for c in d.spec["constraints"])),
        "error_rows": rows, "error_rows_checkable": checkable,
        "share_checkable": round(checkable / rows, 4) if rows else None,
        "patterns": dict(Counter(o.pattern or UNMATCHED for o in draft.outcomes)),
        "reviews": d.reviews,
        "dtype_ties": len(d.spec["generate"].get("dtype_together", [])),  # review clauses tying dtypes
        "implied": list(draft.implied),  # clauses left out: no case breaks them alone
        "unmatched": [o.sentence.text for o in draft.outcomes if o.reviewed],
    }


def total_stats(pages: list[dict[str, Any]], failures: list[dict[str, str]],
                skipped: list[str], helpers: int = 0, found: int | None = None) -> dict[str, Any]:
    """Totals over the operators read (a page documenting two counts twice); ``helpers`` pages
    document no operator: ``found`` (every page) counts them, the drafted share does not."""
    rows = sum(p["error_rows"] for p in pages)
    checkable = sum(p["error_rows_checkable"] for p in pages)
    clauses: Counter[str] = Counter()
    patterns: Counter[str] = Counter()
    unmatched: Counter[str] = Counter()
    for p in pages:
        clauses.update(p["clauses"])
        patterns.update(p["patterns"])
        unmatched.update(IDENT.sub("X", s) for s in p["unmatched"])
    read = len(pages) + len(failures) + len(skipped)  # a skipped page was drafted, not written
    return {
        "pages": read + helpers if found is None else found, "operators": read,
        "drafted": len(pages) + len(skipped), "written": len(pages),
        "skipped": len(skipped), "failed": len(failures), "not_operator": helpers,
        "share_drafted": round((read - len(failures)) / read, 4) if read else None,
        "parameters": sum(p["parameters"] for p in pages),
        "clauses": dict(clauses.most_common()), "patterns": dict(patterns.most_common()),
        "reviews": sum(p["reviews"] for p in pages),
        "dtype_ties": sum(p.get("dtype_ties", 0) for p in pages),
        "drafts_with_dtype_ties": sum(1 for p in pages if p.get("dtype_ties")),
        "error_rows": rows, "error_rows_checkable": checkable,
        "share_checkable": round(checkable / rows, 4) if rows else None,
        "common_unmatched": [{"text": t, "count": n} for t, n in unmatched.most_common(20)],
    }


def stats_document(pages: list[dict[str, Any]], failures: list[dict[str, str]],
                   skipped: list[str] = (),  # type: ignore[assignment]
                   not_operator: list[dict[str, str]] = (),  # type: ignore[assignment]
                   found: int | None = None) -> dict[str, Any]:
    return {"total": total_stats(pages, failures, list(skipped), len(not_operator), found),
            "pages": pages,
            "failures": failures, "skipped": list(skipped), "not_operator": list(not_operator)}


def _drafts(n: int) -> str:
    return f"{n} draft" if n == 1 else f"{n} drafts"


def _pct(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.0f}%"


def render(doc: dict[str, Any], limit: int = 25) -> str:
    """The short table: a line per page (the first ``limit``), the totals, the patterns."""
    lines = [f"{'operator':36} {'params':>6} {'clauses':>7} {'review':>6} {'rows':>5} {'checkable':>9}"]
    for p in doc["pages"][:limit]:
        judged = sum(n for k, n in p["clauses"].items() if k != "review")
        lines.append(f"{p['api'][:36]:36} {p['parameters']:>6} {judged:>7} {p['reviews']:>6} "
                     f"{p['error_rows']:>5} {_pct(p['share_checkable']):>9}")
    if len(doc["pages"]) > limit:
        lines.append(f"... and {len(doc['pages']) - limit} more pages (see the JSON)")
    t = doc["total"]
    lines += [f"pages: {t['pages']} found, {t.get('not_operator', 0)} of them documenting no "
              f"operator; operators read: {t['operators']}, {t['drafted']} drafted "
              f"({_pct(t['share_drafted'])}; {t['skipped']} of them not written: drafted from "
              f"another page), {t['failed']} failed",
              f"error rows: {t['error_rows']}, turned into checkable clauses: "
              f"{t['error_rows_checkable']} ({_pct(t['share_checkable'])}); review clauses: {t['reviews']} "
              f"({t.get('dtype_ties', 0)} keep tensors in one dtype in valid cases, in "
              f"{_drafts(t.get('drafts_with_dtype_ties', 0))})",
              "clauses by kind: " + ", ".join(f"{k} {n}" for k, n in t["clauses"].items()),
              "error-row sentences by pattern: " + ", ".join(f"{k} {n}" for k, n in t["patterns"].items())]
    return "\n".join(lines)
