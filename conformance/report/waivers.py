"""Waivers: known, accepted findings that do not fail a report until they expire.

A waiver file is YAML (schema: conformance/schema/waivers.schema.json)::

    waivers:
      - clause: RP-PHASE            # required: the clause of the findings
        product: atlas-a2           # optional: only this product (id or SoC name)
        dtype: FLOAT16              # optional: only findings of this dtype (name or alias)
        kind: status                # optional: only this check kind
        reason: empty tensors rejected in phase 1, fixed in CANN 8.1   # required
        link: https://example.com/issues/123                           # optional
        expires: 2026-06-30         # required: the last day the waiver applies

A finding matches a waiver when its clause is the waiver's and, for each of product, kind and dtype
the waiver gives, the finding's is the same. A finding's dtypes are the subject of its item id
(``api/product/subject/family``, when the subject is a dtype) and the dtype of every tensor in
``details.case`` (``DTYPE[shape]...``); a boundary case with FLOAT16 and FLOAT tensors matches a
waiver of either.

``apply_waivers`` marks matched findings ``"waived": {reason, link, expires}``, recomputes the result
rows (``waived`` when every failure of a row is waived), the items (``waived`` when every finding of
a failing item is) and the outcome, and lists the waivers under
``report["waivers"]``: ``applied`` (matched at least one finding), ``expired`` (past ``expires``: they
waive nothing, their findings still fail) and ``stale`` (unexpired, matched nothing: remove them).
"""
from __future__ import annotations

import copy
import datetime as dt
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from conformance.check.results import split_item_id
from conformance.errors import UsageError
from conformance.report.outcome import run_outcome
from conformance.spec.loader import read_shipped_specs
from conformance.spec.schema import describe, dotted, validate
from conformance.spec.vocabulary import Vocabulary
from conformance.spec.yaml_lines import LocatedYaml, load_yaml

_TENSOR = re.compile(r"^([A-Z][A-Z0-9_]*)\[")
_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")


@dataclass(frozen=True)
class Waiver:
    clause: str
    reason: str
    expires: dt.date
    product: str | None = None
    dtype: str | None = None
    kind: str | None = None
    link: str | None = None
    file: str | None = None
    line: int | None = None
    precision: str | None = None  # the standard it was granted under: it waives nothing under another

    def expired(self, today: dt.date) -> bool:
        """A waiver applies up to and including its ``expires`` day."""
        return today > self.expires

    def matches(self, finding: dict[str, Any], standard: str = "strict") -> bool:
        return (finding.get("clause") == self.clause and self.precision in (None, standard)
                and (self.product is None or finding.get("product") == self.product)
                and (self.kind is None or finding.get("kind") == self.kind)
                and (self.dtype is None or self.dtype in finding_dtypes(finding)))

    def covers_row(self, row: dict[str, Any], standard: str = "strict") -> bool:
        """Every failure of ``row`` matches (the waiver does not narrow by dtype)."""
        return (self.dtype is None and row["clause"] == self.clause and self.precision in (None, standard)
                and self.product in (None, row["product"]) and self.kind in (None, row["kind"]))

    @property
    def source(self) -> str:
        return f"{self.file}:{self.line}" if self.file and self.line else (self.file or "")

    def to_json(self) -> dict[str, Any]:
        return {"clause": self.clause, "product": self.product, "dtype": self.dtype, "kind": self.kind,
                "reason": self.reason, "link": self.link, "expires": self.expires.isoformat(),
                "source": self.source, "precision": self.precision}


def finding_dtypes(finding: dict[str, Any]) -> set[str]:
    """The subject of the finding's item id, and the dtype of every tensor string in details.case."""
    out: set[str] = set()
    parts = split_item_id(str(finding.get("item") or ""))
    if parts is not None:
        out.add(parts[2])
    stack = [(finding.get("details") or {}).get("case")]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            m = _TENSOR.match(value)
            if m:
                out.add(m.group(1))
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return out


# -- loading ---------------------------------------------------------------------------------------
@cache
def _schema() -> dict[str, Any]:
    return json.loads(files("conformance").joinpath("schema/waivers.schema.json").read_text(encoding="utf-8"))


def load_waivers(path: str | Path, vocabulary: Vocabulary | None = None) -> list[Waiver]:
    """The waivers of a YAML file; ``UsageError`` naming the file, line and field if it is invalid.

    Products and dtypes are canonicalised with ``vocabulary`` (the shipped one by default), so a SoC
    name or a dtype alias works and a misspelt one is an error rather than a waiver that never matches.
    """
    try:
        doc = load_yaml(path, UsageError)
    except ValueError as exc:  # PyYAML builds a date like 2026-02-30 and fails outside its error types
        raise UsageError(f"invalid date: {exc}", file=str(path), line=_bad_date_line(path),
                         field="expires") from None
    if not isinstance(doc.data, dict):
        raise UsageError("expected a mapping with a 'waivers' list at the top level", file=doc.file, line=1)
    data = _dates_as_strings(doc.data)
    _validate(doc, data)
    vocab = vocabulary or read_shipped_specs().vocabulary
    return [_waiver(doc, i, entry, vocab) for i, entry in enumerate(data["waivers"])]


def _validate(doc: LocatedYaml, data: dict[str, Any]) -> None:
    validate(doc, data, _schema(), UsageError, _words)


def _words(err: Any) -> str:
    if err.validator == "pattern" and list(err.absolute_path)[-1:] == ["expires"]:
        return f"{err.instance!r} is not a date YYYY-MM-DD"
    return describe(err)


def _waiver(doc: LocatedYaml, i: int, entry: dict[str, Any], vocab: Vocabulary) -> Waiver:
    def fail(message: str, key: str) -> UsageError:
        return UsageError(message, file=doc.file, line=doc.line_of(("waivers", i, key)),
                          field=dotted(("waivers", i, key)))

    try:
        expires = dt.date.fromisoformat(entry["expires"])
    except ValueError as exc:
        raise fail(f"{entry['expires']!r} is not a valid date: {exc}", "expires") from None
    product = entry.get("product")
    if product is not None:
        product = vocab.product(product)
        if product is None:
            raise fail(f"unknown product {entry['product']!r} (products: {', '.join(vocab.products)})",
                       "product")
    dtype = entry.get("dtype")
    if dtype is not None:
        dtype = vocab.dtype(dtype)
        if dtype is None:
            raise fail(f"unknown dtype {entry['dtype']!r} (dtypes: {', '.join(vocab.dtypes)})", "dtype")
    return Waiver(entry["clause"], entry["reason"], expires, product, dtype, entry.get("kind"),
                  entry.get("link"), doc.file, doc.line_of(("waivers", i)), entry.get("precision"))


def _dates_as_strings(value: Any) -> Any:
    """YAML reads an unquoted 2026-06-30 as a date; the schema (and JSON) want the string."""
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _dates_as_strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_dates_as_strings(v) for v in value]
    return value


def _bad_date_line(path: str | Path) -> int | None:
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    for n, text in enumerate(lines, 1):
        for m in _DATE.finditer(text.split("#", 1)[0]):
            try:
                dt.date(*map(int, m.groups()))
            except ValueError:
                return n
    return None


# -- applying --------------------------------------------------------------------------------------
def apply_waivers(report: dict[str, Any], waivers: Sequence[Waiver], today: dt.date) -> dict[str, Any]:
    """A copy of ``report`` with the findings ``waivers`` match marked waived (see the module doc).

    Applying to a report that already has waivers replaces them. A finding several waivers match
    takes the first one's reason; every one of them counts as applied.
    """
    out = copy.deepcopy(report)
    standard = out.get("precision", "strict")
    for f in out["findings"]:
        f.pop("waived", None)
    active = [w for w in waivers if not w.expired(today)]
    counts = {id(w): 0 for w in waivers}
    for f in out["findings"]:
        for w in waivers:
            if w.matches(f, standard):
                counts[id(w)] += 1
        chosen = next((w for w in active if w.matches(f, standard)), None)
        if chosen is not None:
            f["waived"] = {"reason": chosen.reason, "link": chosen.link,
                           "expires": chosen.expires.isoformat()}
    _rows(out, active, standard)
    _items(out)
    out["outcome"] = run_outcome(out)
    out["waivers"] = {
        "applied": [_entry(w, counts) for w in active if counts[id(w)]],
        "expired": [_entry(w, counts) for w in waivers if w.expired(today)],
        "stale": [_entry(w, counts) for w in active if not counts[id(w)]],
    }
    return out


def _entry(w: Waiver, counts: dict[int, int]) -> dict[str, Any]:
    return {**w.to_json(), "findings": counts[id(w)]}


def _items(report: dict[str, Any]) -> None:
    """A failing item is ``waived`` when it has findings and every one of them is waived."""
    by_item: dict[str, list[dict[str, Any]]] = {}
    for f in report["findings"]:
        by_item.setdefault(f.get("item", ""), []).append(f)
    for item in report.get("items", []):
        if item["outcome"] in ("fail", "waived"):
            found = by_item.get(item["item"], [])
            item["outcome"] = "waived" if found and all("waived" in f for f in found) else "fail"


def _rows(report: dict[str, Any], active: Iterable[Waiver], standard: str) -> None:
    """A failing row is ``waived`` when it has findings and all are waived, or when an active waiver
    without a dtype covers its whole key (its failures need no finding of their own then)."""
    active = list(active)
    by_key: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    for f in report["findings"]:
        by_key.setdefault((f["api"], f["product"], f["clause"], f["kind"]), []).append(f)
    for row in report["results"]:
        if row["outcome"] not in ("fail", "waived"):
            continue
        found = by_key.get((row["api"], row["product"], row["clause"], row["kind"]), [])
        all_waived = bool(found) and all("waived" in f for f in found)
        covered = any(w.covers_row(row, standard) for w in active)
        row["outcome"] = "waived" if all_waived or covered else "fail"
