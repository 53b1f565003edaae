"""The report page's first table: one row per operator, one column per product line, each cell the
state that speaks first among that operator's checked clauses there (a pair nothing ran on is
``not run``; clauses no case reached are counted beside it), its cases and failing clauses, linking
to the operator's rows of the compliance matrix. A run of many operators is read from here down."""
from __future__ import annotations

from typing import Any

from conformance.report.html_format import slug
from conformance.report.outcome import worst
from conformance.spec.model import describe_doc_version


def overview(matrix: list[dict[str, Any]], products: list[str]) -> list[dict[str, Any]]:
    """Per operator (matrix order): its anchor and a cell per product."""
    rows = []
    for group in matrix:
        cells = []
        for i, product in enumerate(products):
            column = [row["cells"][i] for row in group["rows"]]
            failing = [row["id"] for row in group["rows"] if row["cells"][i]["state"] == "fail"]
            checked = [c["state"] for c in column if c["state"] != "not-run"]
            unchecked = len(column) - len(checked)  # clauses no case reached: said, not the state
            cells.append({"product": product, "state": worst(checked or [c["state"] for c in column]),
                          "cases": sum(c["cases"] for c in column), "failing": failing,
                          "unchecked": unchecked if checked else 0})
        rows.append({"api": group["api"], "anchor": slug("matrix", group["api"]), "cells": cells})
    return rows


def operator_about(report: dict[str, Any], apis: list[str]) -> dict[str, dict[str, Any]]:
    """Per operator (1.5 reports; empty for older ones): the document version its spec encodes,
    what judged its numerics, and its review clauses (the sentences left for a person)."""
    said = report.get("operators") or {}
    return {api: {"version": describe_doc_version(said[api].get("doc_version")),
                  "page": (said[api].get("doc_version") or {}).get("page", ""),
                  "note": (said[api].get("doc_version") or {}).get("note", ""),
                  "reference": said[api].get("reference") or "no reference",
                  "review": list(said[api].get("review") or []), "anchor": slug("review", api)}
            for api in apis if api in said}
