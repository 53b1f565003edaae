"""What a run will do, decided before anything is written: the items it selects (plan, shard, -k
as pytest reads it) and a report dir it may use. A selection of nothing, a malformed -k or a report
dir that is a file, not writable or someone else's folder is a usage error, and the previous
reports stay as they are."""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from conformance.errors import UsageError
from conformance.run.config import RunConfig
from conformance.run.plan import Item, plan, shard_of
from conformance.spec.model import SpecSet

#: Every report dir a run writes holds this file; only such a dir (or an empty one) is cleared.
MARKER = ".conformance-report"
#: What a run clears or overwrites in its report dir (other files there are left alone).
WRITTEN = ("cases", "journal", "report.json", "junit.xml", "summary.md", "report.html")
#: The names pytest matches -k against besides the item id (its test function and module).
_NODE_NAMES = ("test_item", "test_conformance.py", "suite")


def selected(specs: SpecSet, cfg: RunConfig, keyword: str | None) -> tuple[list[Item], list[Item]]:
    """(the items of the plan and shard, those -k keeps)."""
    items = shard_of(plan(specs, cfg.planned_apis, list(cfg.products)), cfg.shard)
    if not keyword:
        return items, items
    from _pytest.mark.expression import Expression  # pytest's own -k grammar

    try:
        expression = Expression.compile(keyword)
    except SyntaxError as exc:
        raise UsageError(f"-k {keyword}: not a valid expression ({exc.msg})") from None
    kept = [i for i in items if expression.evaluate(_matcher(i))]
    return items, kept


def _matcher(item: Item):
    names = [f"test_item[{item.id}]".lower(), *_NODE_NAMES]
    return lambda sub, **_: any(sub.lower() in name for name in names)


def check_selection(specs: SpecSet, cfg: RunConfig, keyword: str | None) -> None:
    """``UsageError`` when the run would judge nothing, naming why (a shard of a non-empty
    selection may be empty: that is a success)."""
    unsharded = plan(specs, cfg.planned_apis, list(cfg.products))
    if not unsharded and cfg.not_implemented:
        said = "; ".join(why for _, why in cfg.not_implemented)
        raise UsageError(f"--backend {cfg.backend}: nothing to test: {said}")
    if not unsharded:
        pairs = ", ".join(f"{a} on {p}" for a in cfg.apis for p in cfg.products)
        raise UsageError(f"--op/--product: nothing to test: {pairs} is not applicable (the documents "
                         "do not support it there)")
    _, kept = selected(specs, replace(cfg, shard=None), keyword)
    if not kept:
        raise UsageError(f"-k {keyword}: no test item was selected (item ids look like "
                         f"{unsharded[0].id})")


def check_report_dir(report_dir: Path, resume: bool) -> None:
    """``UsageError`` unless ``report_dir`` can hold this run's reports without losing anyone's
    files: nothing there that a run clears or overwrites, or all of it written by an earlier run
    (its marker file)."""
    path = Path(report_dir)
    for parent in [path, *path.parents]:
        if parent.exists() and not parent.is_dir():
            raise UsageError(f"--report-dir {report_dir}: {parent} is a file, not a directory")
        if parent.exists():
            break
    existing = path if path.exists() else next((p for p in path.parents if p.exists()), Path("."))
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(f"--report-dir {report_dir}: {existing} is not writable")
    ours = (path / MARKER).is_file() or (path / "journal" / "run.json").is_file()  # (older runs: no marker)
    at_risk = [name for name in WRITTEN if (path / name).exists()]
    if at_risk and not resume and not ours:
        raise UsageError(f"--report-dir {report_dir}: it holds {', '.join(at_risk)}, which a run would "
                         "clear or overwrite, and no conformance run wrote them (no marker file): give "
                         "another directory; nothing was deleted")


def mark(report_dir: Path) -> None:
    """Mark ``report_dir`` as a report dir (clearing it later is then allowed)."""
    Path(report_dir).mkdir(parents=True, exist_ok=True)
    (Path(report_dir) / MARKER).write_text("written by aclnn-conformance: reports of a run; a later "
                                           "run may clear journal/ and cases/ here\n")
