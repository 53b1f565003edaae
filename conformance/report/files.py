"""A report document read from report.json, and written as report.json, junit.xml (one testcase per
result) and summary.md (``summary.py``)."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from conformance.check.results import NO_REFERENCE
from conformance.errors import UsageError
from conformance.report.outcome import UNCHECKED, UNFINISHED
from conformance.report.summary import summary_markdown

#: What every reader of a report needs (merge needs more: report/merge.py).
REQUIRED = ("outcome", "results", "findings")
_TYPES = {"outcome": str, "results": list, "findings": list}


def report_problem(data: Any, required: tuple[str, ...] = REQUIRED) -> str | None:
    """Why ``data`` is not a report document (None when it is one, as far as ``required`` goes)."""
    if not isinstance(data, dict):
        return f"expected a JSON object, got {type(data).__name__}"
    missing = [k for k in required if k not in data or not isinstance(data[k], _TYPES.get(k, object))]
    return f"missing {', '.join(missing)}" if missing else None


def load_report(path: str | Path) -> dict[str, Any]:
    """The parsed report.json; a ``UsageError`` naming the file if it is unreadable or not a report."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError("cannot read report: no such file", file=str(path)) from None
    except OSError as exc:
        raise UsageError(f"cannot read report: {exc.strerror or exc}", file=str(path)) from None
    except UnicodeDecodeError:
        raise UsageError("cannot read report: not a UTF-8 text file", file=str(path)) from None
    try:
        report = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"not valid JSON: {exc.msg} (column {exc.colno})", file=str(path),
                         line=exc.lineno) from None
    problem = report_problem(report)
    if problem:
        raise UsageError(f"not a conformance report ({problem})", file=str(path))
    return report


def write_reports(report_dir: Path, report: dict[str, Any]) -> dict[str, Path]:
    report_dir.mkdir(parents=True, exist_ok=True)
    paths = {"json": report_dir / "report.json", "junit": report_dir / "junit.xml",
             "summary": report_dir / "summary.md"}
    paths["json"].write_text(json.dumps(report, indent=2) + "\n")
    paths["junit"].write_bytes(junit_xml(report))
    paths["summary"].write_text(summary_markdown(report))
    return paths


def _findings_of(report: dict[str, Any], row: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if (f["api"], f["product"], f["clause"], f["kind"]) ==
            (row["api"], row["product"], row["clause"], row["kind"])]


def junit_xml(report: dict[str, Any]) -> bytes:
    """One testcase per result row and per item error; the suite's counts are counted from the
    elements written, so they always match them."""
    suite = ET.Element("testsuite", name=f"conformance[{report['backend'].get('name', '')}]",
                       time=str(report["stats"]["seconds"]))
    for row in report["results"]:
        _row_case(ET.SubElement(suite, "testcase", classname=f"{row['api']}.{row['product']}",
                                name=f"{row['clause']}:{row['kind']}"), report, row)
    for err in report["errors"]:
        case = ET.SubElement(suite, "testcase", classname="conformance", name=err["item"])
        ET.SubElement(case, "error", message=err["error"][:500]).text = err["error"]
    cases = suite.findall("testcase")
    suite.attrib.update({"tests": str(len(cases)), **{
        plural: str(sum(c.find(tag) is not None for c in cases))
        for tag, plural in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped"))}})
    return _document(suite)


def _row_case(case: ET.Element, report: dict[str, Any], row: dict[str, Any]) -> None:
    outcome = row["outcome"]
    if outcome == "fail":
        found = _findings_of(report, row)
        text = "\n".join(f"{f['message']}\n  replay: {f['replay'] or '(none)'}" for f in found)
        first = found[0]["message"] if found else f"{row['failed']} failing case(s)"
        ET.SubElement(case, "failure", message=first[:500]).text = text
    elif outcome == "insufficient":  # never a pass: too few cases were judged
        ET.SubElement(case, "failure", message=f"insufficient evidence: {_evidence(report, row)}")
    elif outcome == "incomplete":  # never a pass: items that speak for it did not run
        ET.SubElement(case, "skipped", message=f"incomplete: {_unfinished(report, row)}")
    elif outcome == NO_REFERENCE:  # never a pass, never a failure: nothing to judge the values by
        ET.SubElement(case, "skipped", message=f"no reference: {row.get('no_reference', 0)} numerics "
                      f"check(s) not judged ({row['api']} has no reference function)")
    elif outcome == "waived":
        found = [f for f in _findings_of(report, row) if "waived" in f]
        why = "; ".join(f"waived: {f['waived']['reason']} (until {f['waived']['expires']})"
                        for f in found[:1]) or "waived"
        ET.SubElement(case, "skipped", message=why[:500])
    elif outcome in UNCHECKED:  # not applicable, or not implemented by the backend
        ET.SubElement(case, "skipped", message=row.get("reason", outcome))
    elif outcome == "unspecified":
        seen = [o for o in report["observations"] if (o["api"], o["product"], o["clause"]) ==
                (row["api"], row["product"], row["clause"])]
        ET.SubElement(case, "system-out").text = "\n".join(
            f"unspecified: {o['behaviour']} ({o['cases']} cases)" for o in seen)


def _unfinished(report: dict[str, Any], row: dict[str, Any]) -> str:
    prefix = f"{row['api']}/{row['product']}/"
    short = [i["item"] for i in report.get("items", [])
             if i["outcome"] in UNFINISHED and i["item"].startswith(prefix)]
    return (f"{len(short)} item(s) of {row['api']} on {row['product']} did not finish "
            f"({', '.join(short[:3])}{', …' if len(short) > 3 else ''}): nothing here is a pass yet")


def _evidence(report: dict[str, Any], row: dict[str, Any]) -> str:
    """What the items behind an insufficient row judged, against their quotas."""
    prefix = f"{row['api']}/{row['product']}/"
    short = [i for i in report.get("items", [])
             if i["outcome"] == "insufficient" and i["item"].startswith(prefix)]
    said = "; ".join(f"{i['item']} judged {i.get('judged', 0)} of {i.get('quota', 0)} cases"
                     + "".join(f" ({n})" for n in i.get("notes", [])) for i in short)
    return said or f"{row.get('insufficient', 0)} item(s) judged too few cases"


def _document(suite: ET.Element) -> bytes:
    root = ET.Element("testsuites")
    root.append(suite)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
