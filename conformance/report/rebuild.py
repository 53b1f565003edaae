"""Every report of a run (report.json, junit.xml, summary.md, report.html) from its journal.

A run calls this when it ends; ``conformance report DIR`` calls it on the journal of a run that was
killed, so a user always gets the reports of what was judged.
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from conformance.generate.dry_run import shipped_specs
from conformance.report import journal
from conformance.report.document import build_report
from conformance.report.files import write_reports
from conformance.report.html import write_html
from conformance.report.waivers import apply_waivers, load_waivers


def rebuild_reports(report_dir: Path) -> tuple[dict[str, Any], dict[str, Path]]:
    """The report document and the paths written, from ``report_dir``'s journal."""
    found = journal.read_journal(report_dir)
    report = build_report(found.meta, found.sorted_records(), found.seconds, found.planned,
                          {"lines": found.damage, "kept": found.kept} if found.damage else None)
    waivers = found.meta.get("waivers")
    if waivers:
        report = apply_waivers(report, load_waivers(waivers, shipped_specs().vocabulary),
                               dt.date.today())
    paths = write_reports(Path(report_dir), report)
    paths["html"] = write_html(Path(report_dir), report)
    return report, paths
