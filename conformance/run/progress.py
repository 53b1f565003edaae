"""Live progress of a run on a terminal (rich): per operator and product, items and cases run,
findings so far, elapsed time. The pytest plugin feeds it from each finished item's report."""
from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from conformance.run.plan import Item


class RunProgress:
    def __init__(self, items: list[Item]) -> None:
        self.progress = Progress(TextColumn("{task.description:<44}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[cases]:>6} cases"),
                                 TextColumn("{task.fields[findings]:>3} findings"), TimeElapsedColumn(),
                                 console=Console(stderr=True), transient=False)
        self.tasks: dict[tuple[str, str], Any] = {}
        self.counts: dict[tuple[str, str], list[int]] = {}
        for item in items:
            key = (item.api, item.product)
            if key not in self.tasks:
                self.tasks[key] = self.progress.add_task(f"{item.api} {item.product}", total=0,
                                                         cases=0, findings=0)
                self.counts[key] = [0, 0]
            self.progress.update(self.tasks[key], total=self.progress.tasks[self.tasks[key]].total + 1)

    def start(self) -> None:
        self.progress.start()

    def item_done(self, api: str, product: str, cases: int, findings: int) -> None:
        key = (api, product)
        if key not in self.tasks:
            return
        counts = self.counts[key]
        counts[0] += cases
        counts[1] += findings
        self.progress.update(self.tasks[key], advance=1, cases=counts[0], findings=counts[1])

    def stop(self) -> None:
        self.progress.stop()
