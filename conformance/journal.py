"""Item records on disk as JSON lines, one file per process, flushed after every item.

Test items may run in pytest-xdist workers; each appends to its own file and the controller
reads them all when the session ends. A torn last line (a killed process) is skipped.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from .results import ItemRecord

JOURNAL_DIR = "journal"
META_FILE = "run.json"


def reset(report_dir: Path, meta: dict[str, Any]) -> None:
    """Start a fresh run in ``report_dir``: no old records, no old saved cases."""
    for name in (JOURNAL_DIR, "cases"):
        shutil.rmtree(report_dir / name, ignore_errors=True)
    (report_dir / JOURNAL_DIR).mkdir(parents=True, exist_ok=True)
    (report_dir / JOURNAL_DIR / META_FILE).write_text(json.dumps(meta, indent=2))


def read_meta(report_dir: Path) -> dict[str, Any]:
    return json.loads((report_dir / JOURNAL_DIR / META_FILE).read_text())


def append(report_dir: Path, worker: str, record: ItemRecord) -> None:
    path = report_dir / JOURNAL_DIR / f"{worker}.jsonl"
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(record.to_json()) + "\n")
        fh.flush()


def read_records(report_dir: Path) -> list[ItemRecord]:
    records = []
    for path in sorted((report_dir / JOURNAL_DIR).glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                records.append(ItemRecord.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError):
                continue  # a line torn by a killed worker
    return sorted(records, key=lambda r: r.item)
