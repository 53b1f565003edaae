"""The pytest plugin behind ``conformance run``: one test item per (api, product, dtype or clause,
check family), so ``-k``, ``-x``, ``--junitxml`` and pytest-xdist work as usual.

Installed as a ``pytest11`` entry point, so ``pytest --pyargs conformance.suite --conformance-profile
quick`` works with no ``-p``; ``conformance run`` also names it with ``-p`` (the same plugin).

It therefore loads in every pytest session on the machine, and stays inert unless the session is a
conformance run: it adds its options, but resolves no backend, writes no report dir and acts in no
hook otherwise. A session is a conformance run when

- it was started by ``conformance run`` / ``run_suite`` (``--conformance-started``), or
- one of its arguments names the suite: ``conformance.suite`` (or a module under it) with
  ``--pyargs``, or a path at or inside ``conformance/suite/`` (e.g. ``pytest conformance/suite``,
  or plain ``pytest`` run in that folder), or
- it is an xdist worker of a conformance run (the controller tells it in ``workerinput``; its own
  arguments are not read again).

``--conformance-*`` options alone do not make a run. A session that collects the suite without
naming it (``pytest .`` above it) skips its items, saying how to run them.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.check.goldens import GOLDENS
from conformance.check.judge import Judge
from conformance.check.precision import STANDARDS
from conformance.check.results import ItemRecord
from conformance.errors import ConformanceError
from conformance.generate.dry_run import shipped_specs
from conformance.report import journal
from conformance.report.rebuild import rebuild_reports
from conformance.run.config import RunConfig, make_backend, resolve, start, started
from conformance.run.item_runner import RunSettings, run_item
from conformance.run.lock import ReportDirLock
from conformance.run.packs import use_spec_dirs
from conformance.run.plan import Item, plan, shard_of
from conformance.run.profiles import PROFILES
from conformance.run.progress import RunProgress
from conformance.run.selection import check_report_dir, mark
from conformance.spec.loader import given_spec_dirs

_CONFIG = pytest.StashKey[RunConfig]()
_JOURNAL = pytest.StashKey[journal.JournalWriter]()
_LOCK = pytest.StashKey[ReportDirLock]()
_PROGRESS = pytest.StashKey[RunProgress]()
_DOWN = pytest.StashKey[dict[str, list[str]]]()  # why xdist workers went down: their ids
_SUITE = Path(__file__).resolve().parent.parent / "suite"
_SUITE_MODULE = "conformance.suite"
_RUN_FLAG = "conformance_run"  # in an xdist worker's workerinput: its controller runs the suite


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "aclnn conformance")
    group.addoption("--conformance-backend", default="reference", help="backend spec (default reference)")
    group.addoption("--conformance-product", action="append", default=[], help="product line (repeat)")
    group.addoption("--conformance-op", action="append", default=[], help="operator api (repeat)")
    group.addoption("--conformance-profile", default="ci", help="quick | ci | thorough")
    group.addoption("--conformance-seed", type=int, default=0, help="seed of every item")
    group.addoption("--conformance-max-examples", type=int, default=None, help="examples per item")
    group.addoption("--conformance-report-dir", default="reports", help="where reports go")
    group.addoption("--conformance-shard", default=None, help="K/N: run the K-th of N parts")
    group.addoption("--conformance-progress", action="store_true", help="live progress (rich)")
    group.addoption("--conformance-waivers", default=None, help="YAML file of accepted findings")
    group.addoption("--conformance-isolate", default=None, choices=["yes", "no"],
                    help="call the backend in a worker process (default: yes but for reference)")
    group.addoption("--conformance-case-timeout", type=float, default=None, help="seconds per call")
    group.addoption("--conformance-resume", action="store_true",
                    help="continue the run in the report dir: skip the items it finished")
    group.addoption("--conformance-precision", default="strict", choices=list(STANDARDS),
                    help="the precision standard deciding numerics: strict (the bound) or cann")
    group.addoption("--conformance-golden", default=None, choices=list(GOLDENS),
                    help="what judges numerics of operators whose spec names no reference (torch)")
    group.addoption("--conformance-specs", action="append", default=[], metavar="DIR",
                    help="a directory of spec files to load besides the shipped ones (repeat)")
    group.addoption("--conformance-started", action="store_true",
                    help="the run was resolved and recorded in the report dir's run.json (by conformance "
                    "run): read it there; the other conformance options are not read again")


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def runs_suite(config: pytest.Config) -> bool:
    """Whether this session is a conformance run (the rule of the module docstring)."""
    if _is_worker(config):
        return bool(config.workerinput.get(_RUN_FLAG))  # type: ignore[attr-defined]
    if config.option.conformance_started:
        return True
    return any(_names_suite(str(arg), config) for arg in config.args)


def _names_suite(arg: str, config: pytest.Config) -> bool:
    target = arg.split("::", 1)[0]
    if config.option.pyargs and (target == _SUITE_MODULE or target.startswith(_SUITE_MODULE + ".")):
        return True
    path = Path(config.invocation_params.dir, target).resolve()
    return path == _SUITE or _SUITE in path.parents


def pytest_configure(config: pytest.Config) -> None:
    """Resolve the run once: here when pytest was started bare (and lock the report dir), else
    (``conformance run``, and every xdist worker) read what the starter recorded in run.json."""
    if not runs_suite(config):
        return
    opt = config.option
    try:
        if _is_worker(config) or opt.conformance_started:
            config.stash[_CONFIG] = started(opt.conformance_report_dir, opt.conformance_resume)
            return
        config.stash[_CONFIG] = _start_bare(opt, config)
    except ConformanceError as exc:
        raise pytest.UsageError(str(exc)) from None


def _start_bare(opt: Any, config: pytest.Config) -> RunConfig:
    use_spec_dirs(opt.conformance_specs)  # before the specs are read: workers inherit it
    specs = shipped_specs()
    cfg, about = resolve(specs, opt.conformance_backend, opt.conformance_product,
                         opt.conformance_op, opt.conformance_profile, opt.conformance_seed,
                         opt.conformance_max_examples, opt.conformance_report_dir,
                         opt.conformance_shard, opt.conformance_waivers,
                         None if opt.conformance_isolate is None else opt.conformance_isolate == "yes",
                         opt.conformance_case_timeout, opt.conformance_resume,
                         opt.conformance_precision, opt.conformance_golden)
    check_report_dir(cfg.report_dir, cfg.resume)
    lock = ReportDirLock(cfg.report_dir)
    lock.acquire()  # held to pytest_unconfigure, which pytest calls on every way out
    config.stash[_LOCK] = lock
    try:
        mark(cfg.report_dir)
        start(specs, cfg, about)  # before any worker starts: workers read it
    except BaseException:
        lock.release()  # a run that cannot start holds nothing
        raise
    return cfg


@pytest.hookimpl(optionalhook=True)  # an xdist hook: without xdist it is never called
def pytest_configure_node(node: Any) -> None:
    if _CONFIG in node.config.stash:
        node.workerinput[_RUN_FLAG] = True


@pytest.hookimpl(optionalhook=True)  # an xdist hook, in the controller
def pytest_testnodedown(node: Any, error: Any) -> None:
    """A worker that died (at start-up, or mid-item) leaves items unjudged: the run says so, so a
    run whose workers all died is no 'empty' shard."""
    if error and _CONFIG in node.config.stash:
        why = (str(error).strip().splitlines() or ["no reason given"])[-1]
        node.config.stash.setdefault(_DOWN, {}).setdefault(why, []).append(node.gateway.id)


def pytest_unconfigure(config: pytest.Config) -> None:
    _stop_progress(config)
    lock = config.stash.get(_LOCK, None)
    if lock is not None:
        lock.release()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On ``--resume``, deselect what an earlier attempt finished (the same set in every worker:
    the controller wrote it before any worker started)."""
    cfg = config.stash.get(_CONFIG, None)
    if cfg is None or not cfg.resume:
        return
    done = journal.skipped_items(cfg.report_dir)
    skipped = [i for i in items if _item_of(i) is not None and _item_of(i).id in done]
    if skipped:
        config.hook.pytest_deselected(items=skipped)
        items[:] = [i for i in items if i not in skipped]


def _item_of(node: pytest.Item) -> Item | None:
    callspec = getattr(node, "callspec", None)
    return callspec.params.get("conformance_item") if callspec is not None else None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "conformance_item" not in metafunc.fixturenames:
        return
    cfg = metafunc.config.stash.get(_CONFIG, None)
    if cfg is None:  # the suite collected by a session that is not a conformance run
        why = "not a conformance run: use conformance run, or pytest --pyargs conformance.suite"
        metafunc.parametrize("conformance_item", [pytest.param(None, marks=pytest.mark.skip(reason=why))],
                             ids=["not-a-conformance-run"])
        return
    items = shard_of(plan(shipped_specs(), cfg.planned_apis, list(cfg.products)), cfg.shard)
    metafunc.parametrize("conformance_item", items, ids=[i.id for i in items])


class Session:
    """Per process: one backend instance per product, and the journal this process writes."""

    def __init__(self, cfg: RunConfig, writer: journal.JournalWriter) -> None:
        self.cfg, self.writer, self.specs = cfg, writer, shipped_specs()
        self.judges: dict[str, Judge] = {}
        profile = PROFILES[cfg.profile]
        replay = " ".join([f"--backend {cfg.backend}", *(f"--specs {d}" for d in given_spec_dirs())])
        self.settings = RunSettings(cfg.max_examples, cfg.seed, cfg.report_dir, replay, writer,
                                    profile.size_max, profile.large_examples)

    def judge(self, product: str) -> Judge:
        if product not in self.judges:
            self.judges[product] = Judge(make_backend(self.cfg, product), self.specs, product,
                                         self.cfg.precision, self.cfg.golden)
        return self.judges[product]

    def run(self, item: Item) -> None:
        try:
            record = run_item(item, self.judge(item.product), self.specs, self.settings)
        except Exception as exc:  # noqa: BLE001 - the item cannot run: record why, fail the item
            record = _error_record(item, exc)
        self.writer.item(record)
        if record.error:
            pytest.fail(f"{item.id} could not run: {record.error}", pytrace=False)
        if record.findings:
            lines = [f"{f.kind} {f.clause}: {f.message}\n  replay: {f.replay}" for f in record.findings]
            pytest.fail("\n".join(lines), pytrace=False)


def _error_record(item: Item, exc: Exception) -> ItemRecord:
    return ItemRecord(item.id, item.api, item.product, item.subject, item.family,
                      error=f"{type(exc).__name__}: {exc}")


@pytest.fixture(scope="session")
def conformance_session(request: pytest.FixtureRequest) -> Iterator[Session]:
    session = Session(request.config.stash[_CONFIG], request.config.stash[_JOURNAL])
    yield session
    for judge in session.judges.values():  # stop isolated workers
        getattr(judge.backend, "close", lambda: None)()


def pytest_collection_finish(session: pytest.Session) -> None:
    config = session.config
    items = [item for item in map(_item_of, session.items) if item is not None]
    cfg = config.stash.get(_CONFIG, None)
    if items and cfg is not None:  # a process that runs items: it journals them
        writer = journal.JournalWriter(cfg.report_dir, os.environ.get("PYTEST_XDIST_WORKER", "main"))
        config.stash[_JOURNAL] = writer
        skipped = journal.skipped_items(cfg.report_dir) if cfg.resume else set()
        writer.planned(sorted({i.id for i in items} | skipped))


def pytest_sessionstart(session: pytest.Session) -> None:
    """Live progress, in the controller only: it reads every process's journal (xdist workers
    included) as the lines are written, so it advances while items run."""
    config = session.config
    cfg = config.stash.get(_CONFIG, None)
    if cfg is not None and config.option.conformance_progress and not _is_worker(config):
        config.stash[_PROGRESS] = RunProgress(cfg.report_dir)
        config.stash[_PROGRESS].start()


def _stop_progress(config: pytest.Config) -> None:
    progress = config.stash.get(_PROGRESS, None)
    if progress is not None:
        del config.stash[_PROGRESS]
        progress.stop()  # a last read first: the final counts stay on screen


def _stopped(session: pytest.Session, exitstatus: int) -> str | None:
    """Why the run stopped before its last item (-x, --maxfail, Ctrl-C, a worker that died), or
    None."""
    said = session.shouldfail or session.shouldstop  # -x sets shouldfail; xdist's -x shouldstop
    reasons = [f"{len(ids)} xdist worker(s) went down ({', '.join(sorted(ids))}): {why}"
               for why, ids in session.config.stash.get(_DOWN, {}).items()]
    if said:
        reasons.insert(0, f"{said} (-x)" if "failures" in str(said) else str(said))
    elif exitstatus == pytest.ExitCode.INTERRUPTED:
        reasons.insert(0, "interrupted")
    return "; ".join(reasons) or None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if _JOURNAL in config.stash:
        config.stash[_JOURNAL].close()
    if _is_worker(config) or _CONFIG not in config.stash:
        return
    _stop_progress(config)
    cfg = config.stash[_CONFIG]
    journal.finish_attempt(cfg.report_dir, _stopped(session, exitstatus))
    report, paths = rebuild_reports(cfg.report_dir)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.ensure_newline()
        stats = report["stats"]
        reporter.write_line(f"conformance: {report['outcome']} — {stats['cases']} cases, "
                            f"{stats['findings']} finding(s), {stats['cases_per_second']} cases/s; "
                            f"reports in {paths['json'].parent}")

