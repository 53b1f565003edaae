"""``conformance diff`` (what regressed between two reports) and ``conformance merge`` (shards into one)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from conformance.errors import UsageError
from conformance.report.diff import diff_reports, render_diff
from conformance.report.merge import merge_reports


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("diff", help="compare two report.json files: regressions, fixes, new findings "
                       "(exit 1 if anything regressed)")
    p.add_argument("old", help="the baseline report.json")
    p.add_argument("new", help="the report.json to compare with it")
    p.add_argument("--format", default="markdown", choices=("markdown", "text"), help="default markdown")
    p.set_defaults(func=diff_command)
    p = sub.add_parser("merge", help="merge the report.json of shards or product runs into one")
    p.add_argument("reports", nargs="+", help="report.json files of the same backend, spec and seed")
    p.add_argument("-o", "--output", required=True, help="where to write the merged report.json")
    p.set_defaults(func=merge_command)


def read_report(path: str) -> dict[str, Any]:
    """A report.json as a dict; ``UsageError`` naming the file when it is missing or not a report."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read report: {exc.strerror or exc}", file=path) from None
    except UnicodeDecodeError:
        raise UsageError("not a UTF-8 text file", file=path) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"not valid JSON: {exc.msg} (column {exc.colno})", file=path,
                         line=exc.lineno) from None
    if not isinstance(data, dict) or not isinstance(data.get("results"), list) \
            or not isinstance(data.get("findings"), list):
        raise UsageError("not a report.json (expected an object with 'results' and 'findings' lists)",
                         file=path)
    return data


def diff_command(args: argparse.Namespace) -> int:
    d = diff_reports(read_report(args.old), read_report(args.new))
    sys.stdout.write(render_diff(d, args.format))
    return 1 if d["regressed"] else 0


def merge_command(args: argparse.Namespace) -> int:
    merged = merge_reports([read_report(p) for p in args.reports], names=list(args.reports))
    out = Path(args.output)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(merged, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write the merged report: {exc.strerror or exc}", file=str(out)) from None
    stats = merged["stats"]
    print(f"conformance: merged {len(args.reports)} reports: {merged['outcome']} — {stats['items']} items, "
          f"{stats['cases']} cases, {stats['findings']} finding(s); written to {out}")
    return 0
