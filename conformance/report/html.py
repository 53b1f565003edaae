"""Render a report document (``report.json``) as one self-contained HTML page for people.

The page (template ``templates/report.html.j2``) has inline CSS and inline SVG only: no script, no
fetch. Everything it shows is computed here into plain dicts, so the template only lays it out:

- the header: verdict, backend, products, seed, profile, spec, date, duration, cases;
- the compliance matrix (table ``#compliance-matrix``): one row per documented clause, in spec order
  per operator, one column per product; each cell has ``data-state`` (one of
  ``LABELS``: the first of its rows' outcomes in ``outcome.SEVERITY``, so a cell whose failures
  are all waived is ``waived``, never ``fail``) and ``data-cases`` (the checks of its result rows,
  summed over the kinds);
- per operator a dtype x product table (``#dtypes-<operator>``) from the valid-case items;
- every failing clause with its findings and counterexamples, then the waived ones with their
  waiver's reason, link and expiry; the waivers that expired or matched nothing;
- what did not run (a run stopped by ``-x`` or killed);
- the numerics histograms (inline SVG bar charts of ``report["numerics"]``);
- the unspecified observations and the item errors.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from conformance.check.results import split_item_id
from conformance.report.html_charts import numerics_charts
from conformance.report.html_format import fmt_date, fmt_duration, fmt_number, fmt_value, slug, to_float
from conformance.report.html_overview import operator_about, overview
from conformance.report.outcome import UNCHECKED, worst
from conformance.report.summary import not_run_groups, verdict_notes

TEMPLATE = "report.html.j2"
DETAIL_NAMES = {"status": "status returned", "phase": "from phase",
                "occurrences": "cases failing the same way"}
LABELS = {"pass": "pass", "fail": "fail", "waived": "waived", "incomplete": "incomplete",
          "insufficient": "insufficient evidence", "no-reference": "no reference",
          "unspecified": "unspecified", "not-applicable": "not applicable",
          "not-run": "not run", "not-documented": "not documented", "error": "error"}


def render_html(report: dict[str, Any]) -> str:
    """The HTML page of ``report`` (a parsed report.json)."""
    return _environment().get_template(TEMPLATE).render(**view(report))


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("conformance.report", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.filters["num"] = fmt_number
    env.filters["value"] = fmt_value
    env.globals["LABELS"] = LABELS
    env.globals["slug"] = slug
    return env


def view(report: dict[str, Any]) -> dict[str, Any]:
    """Everything the template shows, computed from the report."""
    products = list(report.get("products") or sorted({r["product"] for r in report.get("results", [])}))
    apis = _apis(report)
    matrix = clause_matrix(report, apis, products)
    return {"r": report, "header": header(report, products), "products": products, "matrix": matrix,
            "about": operator_about(report, apis),
            "overview": overview(matrix, products), "totals": _totals(matrix, products),
            "dtype_tables": dtype_tables(report, apis, products),
            "failing": failing_clauses(report, matrix, "fail"),
            "waived": failing_clauses(report, matrix, "waived"),
            "waivers": {"applied": [], "expired": [], "stale": [], **(report.get("waivers") or {})},
            "not_run": not_run_groups(report),
            "uncovered": [i for i in report.get("items", []) if i.get("notes")],
            "charts": numerics_charts(report, apis),
            "observations": observations(report), "errors": list(report.get("errors") or [])}


def _apis(report: dict[str, Any]) -> list[str]:
    seen = dict.fromkeys([*(report.get("apis") or []), *(report.get("clauses") or {})])
    seen.update(dict.fromkeys(r["api"] for r in report.get("results", [])))
    return list(seen)


# -- header ------------------------------------------------------------------------------------
def header(report: dict[str, Any], products: list[str]) -> dict[str, Any]:
    stats = report.get("stats") or {}
    backend = report.get("backend") or {}
    spec = report.get("spec") or {}
    return {"outcome": report.get("outcome", "unknown"), "notes": verdict_notes(report) if stats else [],
            "backend": backend.get("name") or backend.get("spec") or "?",
            "backend_version": backend.get("version") or "", "backend_spec": backend.get("spec") or "",
            "products": products, "seed": report.get("seed"), "profile": report.get("profile"),
            "precision": report.get("precision", "strict"),
            "max_examples": report.get("max_examples"), "spec_version": spec.get("version", ""),
            "spec_digest": spec.get("digest", ""), "started": fmt_date(report.get("started")),
            "duration": fmt_duration(stats.get("seconds")), "cases": stats.get("cases", 0),
            "item_count": stats.get("items", len(report.get("items") or [])),
            "findings": stats.get("findings", len(report.get("findings") or [])),
            "errors": len(report.get("errors") or []), "shard": report.get("shard"),
            "tool": report.get("tool") or {}}


# -- the compliance matrix ---------------------------------------------------------------------
def _aggregate(report: dict[str, Any]) -> tuple[dict[tuple[str, str, str], dict[str, Any]],
                                                dict[tuple[str, str], str]]:
    """(api, product, clause) -> summed rows, and (api, product) -> (outcome, reason) of a whole pair
    that holds no checks (not applicable, or not implemented by the backend: ``UNCHECKED``)."""
    cells: dict[tuple[str, str, str], dict[str, Any]] = {}
    not_applicable: dict[tuple[str, str], tuple[str, str]] = {}
    for row in report.get("results", []):
        if row["outcome"] in UNCHECKED:  # the whole (api, product): its reason, and its state
            not_applicable[(row["api"], row["product"])] = (row["outcome"], row.get("reason", ""))
            continue
        cell = cells.setdefault((row["api"], row["product"], row["clause"]),
                                {"cases": 0, "failed": 0, "observed": 0, "insufficient": 0, "kinds": []})
        for key in ("cases", "failed", "observed", "insufficient"):
            cell[key] += row.get(key, 0)
        cell["kinds"].append(row)
    return cells, not_applicable


def _cell(api: str, product: str, clause: str, agg: dict[str, Any] | None,
          na: tuple[str, str] | None) -> dict[str, Any]:
    base = {"api": api, "product": product, "clause": clause, "cases": 0, "failed": 0, "observed": 0}
    if na is not None:
        return {**base, "state": na[0], "title": na[1] or LABELS[na[0]]}
    if agg is None:
        return {**base, "state": "not-run", "title": "no case of this run checked this clause"}
    state = worst(k["outcome"] for k in agg["kinds"])
    title = "; ".join(f"{k['kind']}: {k['cases']} checks, {k['failed']} failed"
                      + (f", {k['observed']} observed" if k["observed"] else "") for k in agg["kinds"])
    return {**base, "state": state, "anchor": slug(state, api, clause), "cases": agg["cases"],
            "failed": agg["failed"], "observed": agg["observed"], "title": title,
            "kinds": [k["kind"] for k in agg["kinds"]]}


def clause_matrix(report: dict[str, Any], apis: list[str], products: list[str]) -> list[dict[str, Any]]:
    """Per operator: its clauses in spec order (then any clause only the results name), with cells."""
    cells, not_applicable = _aggregate(report)
    clauses = report.get("clauses") or {}
    groups = []
    for api in apis:
        documented = list(clauses.get(api, []))
        known = {c["id"] for c in documented}
        extra = sorted({c for (a, _, c) in cells if a == api and c not in known})
        rows = [{**c, "documented": True} for c in documented] + [
            {"id": c, "kind": "", "outcome": "", "doc": "", "quote": "", "checks": [], "documented": False}
            for c in extra]
        for row in rows:
            row["cells"] = [_cell(api, p, row["id"], cells.get((api, p, row["id"])),
                                  not_applicable.get((api, p))) for p in products]
        na = {p: not_applicable[(api, p)] for p in products if (api, p) in not_applicable}
        groups.append({"api": api, "rows": rows, "not_applicable": na})
    return groups


def _totals(matrix: list[dict[str, Any]], products: list[str]) -> list[dict[str, int]]:
    totals = [dict.fromkeys(LABELS, 0) for _ in products]
    for group in matrix:
        for row in group["rows"]:
            for i, cell in enumerate(row["cells"]):
                totals[i][cell["state"]] += 1
    return totals


# -- dtypes x products -------------------------------------------------------------------------
def _parse_items(report: dict[str, Any]) -> dict[tuple[str, str, str], list[dict[str, Any]]]:
    """(api, product, subject) -> its items, each with its family."""
    out: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for item in report.get("items") or []:
        parts = split_item_id(item["item"])
        if parts is None:
            continue
        api, product, subject, family = parts
        out.setdefault((api, product, subject), []).append({**item, "family": family})
    return out


def _dtype_cell(items: list[dict[str, Any]] | None, documented: bool,
                na: tuple[str, str] | None) -> dict[str, Any]:
    if na is not None:
        return {"state": na[0], "cases": 0, "title": na[1] or LABELS[na[0]], "families": []}
    if not items:
        state = "not-run" if documented else "not-documented"
        title = "documented, but no item of this run ran it" if documented else \
            "the documents do not allow this dtype on this product"
        return {"state": state, "cases": 0, "title": title, "families": []}
    state = worst(i["outcome"] for i in items)
    title = "; ".join(f"{i['family']}: {i['outcome']}, {i['cases']} cases" for i in items)
    if not documented:
        title += " (dtype not documented for this product)"
    bad = [i["family"] for i in items if i["outcome"] == state] if state != "pass" else []
    return {"state": state, "cases": sum(i["cases"] for i in items), "title": title, "families": bad}


def dtype_tables(report: dict[str, Any], apis: list[str], products: list[str]) -> list[dict[str, Any]]:
    """Per operator: rows = dtypes (documented on some product), columns = products."""
    items = _parse_items(report)
    allowed = report.get("dtypes") or {}
    clause_ids = {c["id"] for cs in (report.get("clauses") or {}).values() for c in cs}
    _, not_applicable = _aggregate(report)
    tables = []
    for api in apis:
        per_product = allowed.get(api, {})
        dtypes = list(dict.fromkeys(d for p in products for d in per_product.get(p, [])))
        dtypes += sorted({s for (a, p, s) in items if a == api and p in products and s not in dtypes
                          and s != "boundary" and s not in clause_ids and "-" not in s})
        rows = [{"dtype": d, "cells": [
            {"product": p, **_dtype_cell(items.get((api, p, d)), d in per_product.get(p, []),
                                         not_applicable.get((api, p)))} for p in products]}
                for d in dtypes]
        if rows:
            tables.append({"api": api, "id": slug("dtypes", api), "rows": rows})
    return tables


# -- failing clauses ---------------------------------------------------------------------------
def failing_clauses(report: dict[str, Any], matrix: list[dict[str, Any]], state: str) -> list[dict[str, Any]]:
    """Each clause (spec order) with a cell in ``state`` (``fail`` or ``waived``), with those cells
    and their findings (for ``waived``, the waived ones), laid out."""
    out = []
    for group in matrix:
        for row in group["rows"]:
            failed = [c for c in row["cells"] if c["state"] == state]
            if not failed:
                continue
            products = {c["product"] for c in failed}
            findings = [finding_view(f) for f in report.get("findings") or []
                        if (f["api"], f["clause"]) == (group["api"], row["id"]) and f["product"] in products
                        and ("waived" in f) == (state == "waived")]
            seen: set[str] = set()
            for f in findings:  # open the first counterexample of each product, fold the others
                f["first"] = f["product"] not in seen
                seen.add(f["product"])
            out.append({"api": group["api"], "clause": row, "cells": failed, "findings": findings,
                        "anchor": slug(state, group["api"], row["id"])})
    return out


def finding_view(finding: dict[str, Any]) -> dict[str, Any]:
    details = finding.get("details") or {}
    extra = {k: v for k, v in details.items() if k not in ("case", "origin", "numerics", "traceback")}
    numerics = details.get("numerics")
    return {**finding, "waived": finding.get("waived"),
            "case": [(k, fmt_value(v)) for k, v in (details.get("case") or {}).items()],
            "origin": details.get("origin", ""),
            "extra": [(DETAIL_NAMES.get(k, k), fmt_value(v)) for k, v in extra.items()],
            "numerics": numerics_view(numerics) if isinstance(numerics, dict) else None,
            "traceback": str(details.get("traceback") or "")}


def numerics_view(v: dict[str, Any]) -> dict[str, Any]:
    """The worst element (actual, expected, |error| against its bound) and the CANN figures."""
    ratio, bound = to_float(v.get("worst_ratio")), to_float(v.get("worst_bound"))
    error = ratio * bound if ratio is not None and bound is not None else None
    index = v.get("worst_index")
    failed = v.get("failed") or 0
    return {"index": _at(index), "output": v.get("output") or "",
            "failed": failed, "first": _at(v.get("first_failed")), "last": _at(v.get("last_failed")),
            "actual": fmt_number(v.get("worst_actual"), None),
            "expected": fmt_number(v.get("worst_expected"), None),
            "error": fmt_number(error), "bound": fmt_number(v.get("worst_bound")),
            "ratio": fmt_number(v.get("worst_ratio"), 4),
            "over": error is not None and bound is not None and not error <= bound,
            "judged": v.get("judged"), "max_abs_error": fmt_number(v.get("max_abs_error")),
            "max_rel_error": fmt_number(v.get("max_rel_error")), "max_ulp": fmt_number(v.get("max_ulp")),
            "mere": fmt_number(v.get("mere")), "mare": fmt_number(v.get("mare")),
            "cann_ok": v.get("cann_ok"), "has_worst": v.get("worst_bound") is not None}


def _at(index: Any) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]" if isinstance(index, list) else ""


# -- observations ------------------------------------------------------------------------------
def observations(report: dict[str, Any]) -> list[dict[str, Any]]:
    quotes = {(api, c["id"]): c.get("quote", "") for api, cs in (report.get("clauses") or {}).items()
              for c in cs}
    return [{**o, "quote": quotes.get((o["api"], o["clause"]), "")} for o in report.get("observations") or []]


HTML_NAME = "report.html"


def write_html(report_dir: Path, report: dict[str, Any]) -> Path:
    """Write ``report_dir/report.html`` for ``report`` (the document of report.json); its path."""
    path = Path(report_dir) / HTML_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(report), encoding="utf-8")
    return path
