"""Live progress advances while items run, also under ``-n 2``: it reads the journal every process
appends to, not pytest's end-of-item reports (it once sat at ``0/26 0 cases`` for 35 s, and showed
nothing at all with ``-n 2``)."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from helpers import KL, RP
from rich.console import Console

import conformance
from conformance.report import journal
from conformance.run import launch, progress
from conformance.run.progress import Counts, JournalTail, RunProgress

A2 = "atlas-a2"


def _id(api: str, subject: str, family: str = "status") -> str:
    return f"{api}/{A2}/{subject}/{family}"


def _append(path: Path, *lines: dict, torn: str = "") -> None:
    with path.open("a", encoding="utf-8") as out:
        out.write("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
                  + torn)


def _case(item: str, attempt: int = 1) -> dict:
    return {"t": "case", "a": attempt, "item": item, "checks": [], "observations": [], "bins": []}


def _done(item: str, cases: int, findings: int = 0) -> dict:
    api, product, subject, family = item.split("/")
    return {"t": "item", "a": 1, "record": {"item": item, "api": api, "product": product,
                                            "cases": cases, "findings": [{}] * findings}}


@pytest.fixture
def run_dir(tmp_path):
    journal.start_run(tmp_path, {"apis": [KL, RP]})
    return tmp_path


def test_the_tail_counts_grow_between_polls_and_wait_for_a_torn_line(run_dir):
    kl1, kl2, rp1 = _id(KL, "FLOAT"), _id(KL, "FLOAT16"), _id(RP, "FLOAT")
    main, gw1 = run_dir / "journal" / "gw0.jsonl", run_dir / "journal" / "gw1.jsonl"
    tail = JournalTail(run_dir)
    tail.poll()
    assert tail.counts() == {}
    _append(main, {"t": "planned", "items": [kl1, kl2, rp1]}, _case(kl1), _case(kl1),
            torn=json.dumps(_case(kl1))[:20])  # a line being written: not counted yet, not lost
    tail.poll()
    assert tail.counts() == {(KL, A2): Counts(done=0, total=2, cases=2, findings=0),
                             (RP, A2): Counts(done=0, total=1, cases=0, findings=0)}
    with main.open("a") as out:
        out.write(json.dumps(_case(kl1))[20:] + "\n")
    _append(gw1, _case(kl2), _case(rp1))
    tail.poll()
    assert tail.counts()[(KL, A2)] == Counts(done=0, total=2, cases=4, findings=0)
    _append(main, _done(kl1, cases=3, findings=2))  # the record's count replaces the lines'
    _append(gw1, '{"t": "case", "it', _case(rp1))  # torn by a killed process: skipped
    tail.poll()
    assert tail.counts() == {(KL, A2): Counts(done=1, total=2, cases=4, findings=2),
                             (RP, A2): Counts(done=0, total=1, cases=2, findings=0)}


def test_a_resumed_run_counts_earlier_items_done_and_reruns_cut_off_items_from_zero(tmp_path):
    finished, cut_off = _id(KL, "FLOAT"), _id(KL, "DOUBLE")
    journal.start_run(tmp_path, {"apis": [KL]})
    first = tmp_path / "journal" / "main.jsonl"
    _append(first, {"t": "planned", "items": [finished, cut_off]}, _done(finished, 7), _case(cut_off),
            _case(cut_off))
    meta = journal.read_meta(tmp_path)
    meta["attempts"].append({"started": 0, "skipped": [finished]})  # what --resume records
    (tmp_path / "journal" / "run.json").write_text(json.dumps(meta))
    tail = JournalTail(tmp_path)
    tail.poll()
    assert tail.counts() == {(KL, A2): Counts(done=1, total=2, cases=7, findings=0)}
    _append(first, _case(cut_off, attempt=2))
    tail.poll()
    assert tail.counts() == {(KL, A2): Counts(done=1, total=2, cases=8, findings=0)}


def test_the_display_shows_what_each_poll_read(run_dir):
    item = _id(KL, "FLOAT")
    out = io.StringIO()
    shown = RunProgress(run_dir, Console(file=out, width=150), interval=3600)  # polled by hand here
    shown.start()
    _append(run_dir / "journal" / "main.jsonl", {"t": "planned", "items": [item]}, _case(item))
    shown.refresh()
    task = shown.progress.tasks[0]
    assert (task.description, task.completed, task.total, task.fields["cases"]) == (f"{KL} {A2}", 0, 1, 1)
    _append(run_dir / "journal" / "main.jsonl", _case(item), _done(item, 2, 1))
    shown.stop()  # reads the last lines before the display closes: the final counts stay
    assert (task.completed, task.fields["cases"], task.fields["findings"]) == (1, 2, 1)
    assert re.search(rf"{KL} {A2}.*1/1\s+2 cases\s+1 findings", out.getvalue())


@pytest.mark.parametrize("extra, terminal, shown", [([], True, True), (["-q"], True, False),
                                                    ([], False, False), (["-n", "2"], True, True)])
def test_progress_is_asked_for_on_a_terminal_without_q_also_with_n(monkeypatch, extra, terminal, shown):
    from conformance.cli.main import build_parser

    monkeypatch.setattr(launch, "_on_terminal", lambda: terminal)
    args = build_parser().parse_args(["run", *extra])
    assert ("--conformance-progress" in launch.pytest_args(args)) is shown


SLOW = '''
import time

from conformance.backends.reference import ReferenceBackend


class Slow(ReferenceBackend):
    """The reference, 10 ms slower per call: the items last long enough to be watched (a second or
    more of the run is spent inside items, over several polls)."""

    def call(self, *args, **kw):
        time.sleep(0.01)
        return super().call(*args, **kw)
'''

ROW = re.compile(rf"{KL} {A2}.*?(\d+)/(\d+)\s+(\d+) cases\s+(\d+) findings")


@pytest.mark.slow
def test_an_n2_run_shows_cases_before_its_items_are_done(tmp_path, monkeypatch):
    adapter = tmp_path / "slow.py"
    adapter.write_text(SLOW)
    screen = io.StringIO()
    monkeypatch.setattr(launch, "_on_terminal", lambda: True)
    monkeypatch.setattr(progress, "_console", lambda: Console(file=screen, force_terminal=True, width=160))
    report = conformance.run_suite(f"{adapter}:Slow", profile="quick", ops=[KL], workers="2",
                                   keyword="FLOAT16 and not large", isolate=False, quiet=False,
                                   report_dir=tmp_path / "r")
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.getvalue())  # rich's cursor moves between frames
    frames = [tuple(map(int, m.groups())) for m in ROW.finditer(text)]  # (done, total, cases, findings)
    assert frames, screen.getvalue()[-2000:]
    stats = report["stats"]
    assert frames[-1] == (stats["items"], stats["items"], stats["cases"], stats["findings"])
    running = [f for f in frames if f[0] < f[1] and f[2] > 0]
    assert running, f"no frame showed cases while items were running: {sorted(set(frames))}"

