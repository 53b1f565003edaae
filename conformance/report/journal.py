"""The run's journal: JSON lines in ``REPORT_DIR/journal``, one file per process, a line per judged
case and per finished item, flushed before the next case starts.

Test items may run in pytest-xdist workers; each appends to its own file. ``kill -9`` of the whole
run loses at most the case in flight: ``read_journal`` rebuilds every item from the lines (a torn
last line is skipped; any other line it cannot read is reported as damage, never dropped
silently), and a resumed run (``start_run(..., resume=True)``) skips the items that
finished. Flushing hands each line to the OS, which keeps it when the process dies; we do not fsync,
so a power cut may lose more.

Line kinds: ``{"t": "case", "a": attempt, "item": id, "at": time, "checks"…}`` for each counted case
and ``{"t": "item", "a": attempt, "at": time, "record": {...}}`` when an item is done. ``run.json``
holds the run's metadata and one entry per attempt (its start, its end, the items it skipped).
"""
from __future__ import annotations

import json
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.check.results import Check, ItemRecord, ratio_bin, split_item_id
from conformance.errors import UsageError

JOURNAL_DIR = "journal"
META_FILE = "run.json"
#: What must be the same for a run to be resumed (a different value would draw other cases).
RESUME_KEYS = ("products", "apis", "profile", "seed", "max_examples", "shard", "precision", "golden")


def _meta_path(report_dir: Path) -> Path:
    return Path(report_dir) / JOURNAL_DIR / META_FILE


def check_resumable(report_dir: Path, meta: dict[str, Any]) -> None:
    """``UsageError`` unless ``report_dir`` holds a run that a run with ``meta`` may continue."""
    _resumable(Path(report_dir), meta)


def start_run(report_dir: Path, meta: dict[str, Any], resume: bool = False) -> None:
    """Record a run's start: a fresh journal, or (``resume``) one more attempt of the run there."""
    report_dir = Path(report_dir)
    if resume:
        old = _resumable(report_dir, meta)
        done = sorted(item for item, r in read_journal(report_dir).records.items() if r.complete)
        old["attempts"].append({"started": time.time(), "skipped": done})
        _write_meta(report_dir, old)
        return
    for name in (JOURNAL_DIR, "cases"):
        shutil.rmtree(report_dir / name, ignore_errors=True)
    (report_dir / JOURNAL_DIR).mkdir(parents=True, exist_ok=True)
    _write_meta(report_dir, {**meta, "attempts": [{"started": time.time(), "skipped": []}]})


def _resumable(report_dir: Path, meta: dict[str, Any]) -> dict[str, Any]:
    path = _meta_path(report_dir)
    if not path.is_file():
        raise UsageError(f"--resume: no run to resume in {report_dir} (no {JOURNAL_DIR}/{META_FILE})")
    old, meta = read_meta(report_dir), json.loads(json.dumps(meta))  # tuples compare as lists
    differs = [k for k in RESUME_KEYS if old.get(k) != meta.get(k)]
    differs += ["backend"] if old.get("backend", {}).get("spec") != meta["backend"]["spec"] else []
    differs += ["spec digest"] if old.get("spec") != meta.get("spec") else []
    if differs:
        said = ", ".join(f"{k} {_said(old, k)}" for k in differs)
        raise UsageError(f"--resume: the run in {report_dir} was started with other options ({said}); "
                         "resume it with the same options or start a new run without --resume")
    return old


def _said(meta: dict[str, Any], key: str) -> str:
    if key == "backend":
        return repr(meta.get("backend", {}).get("spec"))
    if key == "spec digest":
        return str(meta.get("spec", {}).get("digest", ""))[:12]
    return repr(meta.get(key))


def _write_meta(report_dir: Path, meta: dict[str, Any]) -> None:
    tmp = _meta_path(report_dir).with_suffix(".tmp")
    tmp.write_text(json.dumps(meta, indent=2))
    tmp.replace(_meta_path(report_dir))  # never a half-written run.json, whatever kills us


def finish_attempt(report_dir: Path, stopped: str | None = None) -> None:
    """Record the attempt's end; ``stopped``: why it ended before its last item (-x, Ctrl-C)."""
    meta = read_meta(report_dir)
    meta["attempts"][-1]["ended"] = time.time()
    if stopped:
        meta["attempts"][-1]["stopped"] = stopped
    _write_meta(report_dir, meta)


def read_meta(report_dir: Path) -> dict[str, Any]:
    path = _meta_path(report_dir)
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise UsageError(f"no journal here (no {JOURNAL_DIR}/{META_FILE}): was a run started in "
                         f"{report_dir}?", file=str(path)) from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read the run's metadata: {exc}", file=str(path)) from None


def skipped_items(report_dir: Path) -> set[str]:
    """The items this attempt skips because an earlier attempt finished them."""
    return set(read_meta(report_dir)["attempts"][-1].get("skipped", []))


class JournalWriter:
    """One process's journal file, written a line at a time."""

    def __init__(self, report_dir: Path, worker: str) -> None:
        self.attempt = len(read_meta(report_dir)["attempts"])
        self._file = (Path(report_dir) / JOURNAL_DIR / f"{worker}.jsonl").open("a", encoding="utf-8")

    def _write(self, line: dict[str, Any]) -> None:
        self._file.write(json.dumps({**line, "a": self.attempt, "at": round(time.time(), 3)}) + "\n")
        self._file.flush()

    def case(self, item: str, checks: list[Check], observations: list[tuple[str, str]],
             ratios: list[tuple[str, float]]) -> None:
        self._write({"t": "case", "item": item, "checks": [[c.clause, c.kind, c.outcome] for c in checks],
                     "observations": [list(o) for o in observations],
                     "bins": [[d, ratio_bin(r)] for d, r in ratios]})

    def item(self, record: ItemRecord) -> None:
        self._write({"t": "item", "record": record.to_json()})

    def planned(self, items: list[str]) -> None:
        self._write({"t": "planned", "items": items})

    def close(self) -> None:
        self._file.close()


@dataclass
class Journal:
    """What a journal holds: the run's metadata, every item seen (finished or not), the time spent."""

    meta: dict[str, Any]
    records: dict[str, ItemRecord] = field(default_factory=dict)
    planned: set[str] = field(default_factory=set)
    seconds: float = 0.0
    #: Lines that could not be read, but for a torn last line (a process killed mid-write):
    #: {"file", "line", "reason"}; ``kept`` counts the lines that were read.
    damage: list[dict[str, Any]] = field(default_factory=list)
    kept: int = 0

    def sorted_records(self) -> list[ItemRecord]:
        return [self.records[k] for k in sorted(self.records)]


def read_journal(report_dir: Path) -> Journal:
    """Every item of the run in ``report_dir``; an item without its closing line is rebuilt from
    its case lines of the latest attempt that ran it, and marked incomplete."""
    journal = Journal(read_meta(report_dir))
    partial: dict[str, tuple[int, list[dict[str, Any]]]] = {}
    last_seen: Counter = Counter()
    for where, line in _lines(Path(report_dir), journal):
        try:
            _read_line(journal, line, partial, last_seen)
        except (KeyError, TypeError, ValueError) as exc:  # a line of the right kind, wrongly filled
            why = f"a {line['t']!r} line that cannot be read ({exc!r})"
            journal.damage.append({**where, "reason": why[:300]})
            continue
        journal.kept += 1
    for item, (_, cases) in partial.items():
        if item not in journal.records:
            journal.records[item] = _rebuilt(item, cases)
    journal.seconds = _elapsed(journal.meta, last_seen)
    return journal


def _read_line(journal: Journal, line: dict[str, Any], partial: dict[str, Any], last_seen: Counter) -> None:
    attempt = line.get("a", 1)
    last_seen[attempt] = max(last_seen[attempt], line.get("at", 0))
    if line["t"] == "item":
        record = ItemRecord.from_json(line["record"])
        journal.records[record.item] = record
    elif line["t"] == "planned":
        journal.planned.update(str(i) for i in line["items"])
    elif line["t"] == "case":
        seen_attempt, cases = partial.get(line["item"], (attempt, []))
        if attempt > seen_attempt:  # a rerun of the item starts it over
            cases = []
        partial[str(line["item"])] = (max(attempt, seen_attempt), cases + [_case(line)])


def _case(line: dict[str, Any]) -> tuple[list[tuple], list[tuple], list[tuple]]:
    """A case line's (checks, observations, bins); ``ValueError`` if one is not what was written."""
    out = tuple([tuple(x) for x in line[key]] for key in ("checks", "observations", "bins"))
    if any(len(x) != n for part, n in zip(out, (3, 2, 2)) for x in part):
        raise ValueError("an entry of the wrong length")
    return out


def _lines(report_dir: Path, journal: Journal):
    """The journal's lines; an unreadable one is recorded in ``journal.damage``, except the last
    line of a file when it lacks its newline (torn: its process was killed while writing it)."""
    for path in sorted((report_dir / JOURNAL_DIR).glob("*.jsonl")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            journal.damage.append({"file": path.name, "line": None, "reason": f"unreadable: {exc}"})
            continue
        lines = text.split("\n")
        for n, raw in enumerate(lines, 1):
            line, reason = _parse(raw)
            if line is not None:
                yield {"file": path.name, "line": n}, line
            elif raw.strip() and not (n == len(lines) and not text.endswith("\n")):
                journal.damage.append({"file": path.name, "line": n, "reason": reason})


def _parse(raw: str) -> tuple[dict[str, Any] | None, str]:
    """A journal line, or None and why it is not one."""
    try:
        line = json.loads(raw)
    except ValueError as exc:
        return None, f"not JSON ({exc.msg})"
    if not isinstance(line, dict) or line.get("t") not in _SHAPES:
        return None, "not a journal line (no known 't')"
    if not all(key in line for key in _SHAPES[line["t"]]):
        return None, f"a {line['t']!r} line without {', '.join(_SHAPES[line['t']])}"
    return line, ""


#: The keys each kind of line must have to be read.
_SHAPES = {"case": ("item", "checks", "observations", "bins"), "item": ("record",), "planned": ("items",)}


def _rebuilt(item: str, cases: list[tuple[list[tuple], list[tuple], list[tuple]]]) -> ItemRecord:
    api, product, subject, family = _parts(item)
    record = ItemRecord(item, api, product, subject, family, complete=False)
    for checks, observations, bins in cases:
        record.cases += 1
        record.checks.update(checks)
        record.observations.update(observations)
        record.numerics.update(bins)
    return record


def _parts(item: str) -> tuple[str, str, str, str]:
    return split_item_id(item) or (item, "", "", "")


def _elapsed(meta: dict[str, Any], last_seen: Counter) -> float:
    total = 0.0
    for n, attempt in enumerate(meta.get("attempts", []), start=1):
        end = attempt.get("ended") or last_seen.get(n) or attempt["started"]
        total += max(0.0, end - attempt["started"])
    return total
