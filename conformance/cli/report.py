"""``conformance report REPORT.json [-o FILE]``: the HTML page of a run's report, or every report of a
run rebuilt from its report dir."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import jinja2

from conformance.errors import UsageError
from conformance.report.files import load_report
from conformance.report.html import HTML_NAME, render_html
from conformance.report.rebuild import rebuild_reports
from conformance.report.summary import console_line


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("report", help="render a report.json as one self-contained HTML page, or "
                       "rebuild every report of a run (also a killed one) from its report dir")
    p.add_argument("report", help="a report.json written by conformance run, or a report dir "
                   "(its journal/ rebuilds report.json, junit.xml, summary.md and report.html)")
    p.add_argument("-o", "--output", default=None,
                   help=f"the HTML file to write (default: {HTML_NAME} beside the JSON)")
    p.set_defaults(func=report_command)


def report_command(args: argparse.Namespace) -> int:
    source = Path(args.report)
    if source.is_dir():
        return _rebuild(source, args.output)
    report = load_report(source)
    target = Path(args.output) if args.output else source.with_name(HTML_NAME)
    try:
        html = render_html(report)
    except (KeyError, TypeError, ValueError, AttributeError, jinja2.UndefinedError) as exc:
        # a hand-edited or foreign file: say so, naming it, instead of a traceback
        raise UsageError(f"not a conformance report ({type(exc).__name__}: {exc})",
                         file=str(source)) from None
    try:
        target.write_text(html, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write the HTML report: {exc.strerror or exc}", file=str(target)) from None
    print(f"wrote {target}")
    return 0


def _rebuild(report_dir: Path, output: str | None) -> int:
    if output:
        raise UsageError("-o applies to one report.json; a report dir's reports are rebuilt in place")
    report, paths = rebuild_reports(report_dir)
    print(console_line(report))
    for path in paths.values():
        print(f"wrote {path}")
    return 0
