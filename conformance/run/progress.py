"""Live progress of a run on a terminal (rich): per operator and product, items done of planned,
cases run, findings so far, elapsed time.

It reads the run's journal, not pytest's reports: every process (xdist workers too) appends a line
per judged case and per finished item to ``REPORT_DIR/journal/<process>.jsonl``, so a thread in the
controller that reads what was added every half second sees cases while an item is still running
and sees the workers' items, which pytest only reports to the controller when they end.
"""
from __future__ import annotations

import datetime as dt
import json
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from conformance.check.results import split_item_id
from conformance.report.journal import JOURNAL_DIR, read_meta

POLL_SECONDS = 0.5


@dataclass(frozen=True)
class Counts:
    """One (operator, product) so far."""

    done: int
    total: int
    cases: int
    findings: int


class JournalTail:
    """What a run's journal says so far; each ``poll`` reads only what was appended since the last.

    A line without its newline yet (being written, or torn by a killed process) is left for the
    next poll. Items an earlier attempt finished (``--resume``) count as done; case lines of an
    earlier attempt for an item that did not finish are not counted (the item reruns from its start).
    """

    def __init__(self, report_dir: str | Path) -> None:
        self.dir = Path(report_dir) / JOURNAL_DIR
        attempts = read_meta(Path(report_dir)).get("attempts", [])
        self.attempt = len(attempts) or 1
        self.started = attempts[-1]["started"] if attempts else time.time()  # this attempt's start
        self._offsets: dict[Path, int] = {}
        self.planned: set[str] = set()
        self.done: dict[str, tuple[int, int]] = {}  # item -> (cases, findings)
        self.running: Counter[str] = Counter()  # unfinished item -> cases of this attempt

    def poll(self) -> None:
        for path in sorted(self.dir.glob("*.jsonl")):
            self._read(path)

    def _read(self, path: Path) -> None:
        offset = self._offsets.get(path, 0)
        with path.open("rb") as file:
            file.seek(offset)
            data = file.read()
        whole = data.rfind(b"\n") + 1
        self._offsets[path] = offset + whole
        for raw in data[:whole].splitlines():
            self._take(raw)

    def _take(self, raw: bytes) -> None:
        try:
            line = json.loads(raw)
        except ValueError:
            return  # torn by a process killed mid-line; a later line starts clean
        kind = line.get("t") if isinstance(line, dict) else None
        if kind == "planned":
            self.planned.update(line["items"])
        elif kind == "item":
            record = line["record"]
            self.done[record["item"]] = (record["cases"], len(record["findings"]))
            self.running.pop(record["item"], None)
        elif kind == "case" and line.get("a", 1) == self.attempt and line["item"] not in self.done:
            self.running[line["item"]] += 1

    def counts(self) -> dict[tuple[str, str], Counts]:
        """Per (api, product), every item planned or seen so far."""
        out: dict[tuple[str, str], list[int]] = {}
        for item in self.planned | set(self.done) | set(self.running):
            parts = split_item_id(item)
            if parts is None:
                continue
            row = out.setdefault(parts[:2], [0, 0, 0, 0])
            cases, findings = self.done.get(item, (self.running.get(item, 0), 0))
            row[0] += item in self.done
            row[1] += 1
            row[2] += cases
            row[3] += findings
        return {key: Counts(*row) for key, row in out.items()}


def _console() -> Console:
    return Console(stderr=True)


class RunProgress:
    """The rich display of a ``JournalTail``, refreshed by a background thread."""

    def __init__(self, report_dir: str | Path, console: Console | None = None,
                 interval: float = POLL_SECONDS) -> None:
        self.tail = JournalTail(report_dir)
        self.interval = interval
        self.progress = Progress(TextColumn("{task.description:<44}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[cases]:>6} cases"),
                                 TextColumn("{task.fields[findings]:>3} findings"),
                                 TextColumn("{task.fields[elapsed]}"), console=console or _console(),
                                 transient=False)
        self.tasks: dict[tuple[str, str], Any] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="conformance-progress", daemon=True)

    def start(self) -> None:
        self.progress.start()
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.refresh()
            except OSError:
                pass  # the display is a convenience: a file it cannot read must not stop the run

    def refresh(self) -> None:
        """Read what the journal gained and show it."""
        self.tail.poll()
        # the run's time, not the row's: a row appears only once its process has collected
        elapsed = str(dt.timedelta(seconds=int(max(0.0, time.time() - self.tail.started))))
        for key, counts in sorted(self.tail.counts().items()):
            shown = {"total": counts.total, "completed": counts.done, "cases": counts.cases,
                     "findings": counts.findings}
            if key not in self.tasks or counts.done < counts.total:  # a finished row keeps its time
                shown["elapsed"] = elapsed
            if key in self.tasks:
                self.progress.update(self.tasks[key], **shown)
            else:
                self.tasks[key] = self.progress.add_task(f"{key[0]} {key[1]}", **shown)

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        try:
            self.refresh()  # the final counts stay on screen
        finally:
            self.progress.stop()
