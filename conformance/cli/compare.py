"""``conformance diff`` (what regressed between two reports) and ``conformance merge`` (shards into one)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from conformance.errors import UsageError
from conformance.report.diff import diff_reports, render_diff
from conformance.report.document import SCHEMA_VERSION
from conformance.report.files import load_report
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


KNOWN_SCHEMAS = ("1.0", "1.1", "1.2", "1.3", "1.4", SCHEMA_VERSION)


def diff_command(args: argparse.Namespace) -> int:
    old, new = load_report(args.old), load_report(args.new)
    for path, report in ((args.old, old), (args.new, new)):
        version = report.get("schema_version")
        if version not in KNOWN_SCHEMAS:
            raise UsageError(f"schema_version {version!r} is not one this diff knows "
                             f"({', '.join(KNOWN_SCHEMAS)})", file=str(path))
    d = diff_reports(old, new)
    sys.stdout.write(render_diff(d, args.format))
    return 1 if d["regressed"] else 0


def merge_command(args: argparse.Namespace) -> int:
    merged = merge_reports([load_report(p) for p in args.reports], names=list(args.reports))
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
