"""A report document read from report.json, and written as report.json, junit.xml (one testcase per
result) and summary.md."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from conformance.errors import UsageError

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
    rows = report["results"]
    suite = ET.Element("testsuite", name=f"conformance[{report['backend'].get('name', '')}]",
                       tests=str(len(rows) + len(report["errors"])),
                       failures=str(sum(r["outcome"] in ("fail", "insufficient") for r in rows)),
                       errors=str(len(report["errors"])),
                       skipped=str(sum(r["outcome"] == "not-applicable" for r in rows)),
                       time=str(report["stats"]["seconds"]))
    for row in rows:
        case = ET.SubElement(suite, "testcase", classname=f"{row['api']}.{row['product']}",
                             name=f"{row['clause']}:{row['kind']}")
        if row["outcome"] == "fail":
            found = _findings_of(report, row)
            text = "\n".join(f"{f['message']}\n  replay: {f['replay'] or '(none)'}" for f in found)
            first = found[0]["message"] if found else f"{row['failed']} failing case(s)"
            ET.SubElement(case, "failure", message=first[:500]).text = text
        elif row["outcome"] == "insufficient":  # never a pass: too few cases were judged
            ET.SubElement(case, "failure", message=f"insufficient evidence: {_evidence(report, row)}")
        elif row["outcome"] == "waived":
            found = [f for f in _findings_of(report, row) if "waived" in f]
            why = "; ".join(f"waived: {f['waived']['reason']} (until {f['waived']['expires']})"
                            for f in found[:1]) or "waived"
            ET.SubElement(case, "skipped", message=why[:500])
        elif row["outcome"] == "not-applicable":
            ET.SubElement(case, "skipped", message=row.get("reason", "not applicable"))
        elif row["outcome"] == "unspecified":
            seen = [o for o in report["observations"] if (o["api"], o["product"], o["clause"]) ==
                    (row["api"], row["product"], row["clause"])]
            ET.SubElement(case, "system-out").text = "\n".join(
                f"unspecified: {o['behaviour']} ({o['cases']} cases)" for o in seen)
    for err in report["errors"]:
        case = ET.SubElement(suite, "testcase", classname="conformance", name=err["item"])
        ET.SubElement(case, "error", message=err["error"][:500]).text = err["error"]
    return _document(suite)


def _evidence(report: dict[str, Any], row: dict[str, Any]) -> str:
    """What the items behind an insufficient row judged, against their quotas."""
    prefix = f"{row['api']}/{row['product']}/"
    short = [i for i in report.get("items", [])
             if i["outcome"] == "insufficient" and i["item"].startswith(prefix)]
    said = "; ".join(f"{i['item']} judged {i.get('judged', 0)} of {i.get('quota', 0)} cases" for i in short)
    return said or f"{row.get('insufficient', 0)} item(s) judged too few cases"


def _document(suite: ET.Element) -> bytes:
    root = ET.Element("testsuites")
    root.append(suite)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


VERDICTS = {"conformant": "✅ conformant", "nonconformant": "❌ nonconformant",
            "incomplete": "⏸ incomplete", "empty": "∅ empty (nothing was judged)"}


def summary_markdown(report: dict[str, Any]) -> str:
    """A verdict line, a per-operator/product table, and every failing finding with its replay."""
    stats = report["stats"]
    verdict = VERDICTS.get(report["outcome"], report["outcome"])
    if report["outcome"] == "incomplete":
        why = []
        if stats.get("items_incomplete"):
            why.append(f"{stats['items_incomplete']} items did not finish: `conformance run --resume`")
        if stats.get("items_insufficient"):
            why.append(f"{stats['items_insufficient']} items judged too few cases (insufficient evidence)")
        verdict += f" ({'; '.join(why)})" if why else ""
    lines = [f"## aclnn conformance: {verdict}", "",
             f"Backend `{report['backend'].get('name')}` · profile `{report['profile']}` · precision "
             f"`{report.get('precision', 'strict')}` · seed "
             f"`{report['seed']}` · {stats['cases']} cases in {stats['seconds']:.1f} s "
             f"({stats['cases_per_second']} cases/s) · spec {report['spec'].get('version')} "
             f"({report['spec'].get('digest')})" + (f" · shard {report['shard']}" if report.get("shard")
                                                     else ""), "",
             "| operator | product | pass | fail | waived | insufficient evidence | unspecified | "
             "not applicable |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    groups: dict[tuple[str, str], dict[str, int]] = {}
    for row in report["results"]:
        g = groups.setdefault((row["api"], row["product"]), {})
        g[row["outcome"]] = g.get(row["outcome"], 0) + 1
    for (api, product), g in sorted(groups.items()):
        lines.append(f"| {api} | {product} | {g.get('pass', 0)} | {g.get('fail', 0)} | "
                     f"{g.get('waived', 0)} | {g.get('insufficient', 0)} | {g.get('unspecified', 0)} | "
                     f"{'yes' if g.get('not-applicable') else ''} |")
    if report["findings"]:
        lines += ["", "### Findings", "", "| operator | product | clause | kind | message |",
                  "|---|---|---|---|---|"]
        for f in report["findings"]:
            message = f["message"].replace("|", "\\|").replace("\n", " ")
            if "waived" in f:
                message = f"(waived: {f['waived']['reason']}) {message}"
            lines.append(f"| {f['api']} | {f['product']} | {f['clause']} | {f['kind']} | {message} |")
        replays = [f["replay"] for f in report["findings"] if f["replay"]]
        lines += ["", "Replay:", "", "```", *replays, "```"]
    for err in report["errors"]:
        lines += ["", f"**Error** in `{err['item']}`: {err['error']}"]
    return "\n".join(lines) + "\n"
