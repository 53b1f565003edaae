"""The pytest plugin behind ``conformance run``: one test item per (api, product, dtype or clause,
check family), so ``-k``, ``-x``, ``--junitxml`` and pytest-xdist work as usual.

Loaded by ``conformance/suite/conftest.py``; run it directly with
``pytest --pyargs conformance.suite --conformance-backend torch``.
"""
from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Iterator

import pytest

from . import journal
from .cli_report import write_html
from .errors import ConformanceError
from .item_runner import RunSettings, run_item
from .items import Item, plan, shard_of
from .judge import Judge
from .progress import RunProgress
from .report_files import write_reports
from .report_json import build_report
from .results import ItemRecord
from .run_config import RunConfig, make_backend, resolve
from .spec_loader import shipped_specs
from .waivers import apply_waivers, load_waivers

_CONFIG = pytest.StashKey[RunConfig]()
_STARTED = pytest.StashKey[float]()
_ACTIVE: dict[str, RunProgress] = {}  # the controller's live progress (logreport gets no config)


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


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    opt = config.option
    try:
        cfg, backend = resolve(shipped_specs(), opt.conformance_backend, opt.conformance_product,
                               opt.conformance_op, opt.conformance_profile, opt.conformance_seed,
                               opt.conformance_max_examples, opt.conformance_report_dir,
                               opt.conformance_shard, opt.conformance_waivers,
                               None if opt.conformance_isolate is None else opt.conformance_isolate == "yes",
                               opt.conformance_case_timeout)
    except ConformanceError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[_CONFIG] = cfg
    config.stash[_STARTED] = time.perf_counter()
    if not _is_worker(config):
        journal.reset(cfg.report_dir, cfg.meta(shipped_specs(), backend))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "conformance_item" in metafunc.fixturenames:
        cfg = metafunc.config.stash[_CONFIG]
        items = shard_of(plan(shipped_specs(), list(cfg.apis), list(cfg.products)), cfg.shard)
        metafunc.parametrize("conformance_item", items, ids=[i.id for i in items])


class Session:
    """Per process: one backend instance per product, and the journal this process writes."""

    def __init__(self, cfg: RunConfig, worker: str) -> None:
        self.cfg, self.worker, self.specs = cfg, worker, shipped_specs()
        self.judges: dict[str, Judge] = {}
        self.settings = RunSettings(cfg.max_examples, cfg.seed, cfg.report_dir, cfg.backend)

    def judge(self, product: str) -> Judge:
        if product not in self.judges:
            self.judges[product] = Judge(make_backend(self.cfg, product), self.specs, product)
        return self.judges[product]

    def run(self, item: Item, node: pytest.Item) -> None:
        try:
            record = run_item(item, self.judge(item.product), self.specs, self.settings)
        except Exception as exc:  # noqa: BLE001 - the item cannot run: record why, fail the item
            record = _error_record(item, exc)
        journal.append(self.cfg.report_dir, self.worker, record)
        node.user_properties.append(("conformance", [item.api, item.product, record.cases,
                                                     len(record.findings)]))
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
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    session = Session(request.config.stash[_CONFIG], worker)
    yield session
    for judge in session.judges.values():  # stop isolated workers
        getattr(judge.backend, "close", lambda: None)()


def pytest_collection_finish(session: pytest.Session) -> None:
    config = session.config
    if config.option.conformance_progress and not _is_worker(config):
        items = [i.callspec.params["conformance_item"] for i in session.items if hasattr(i, "callspec")]
        _ACTIVE["progress"] = RunProgress(items)
        _ACTIVE["progress"].start()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    progress = _ACTIVE.get("progress")
    if progress is None or report.when != "call":
        return
    for key, value in report.user_properties:
        if key == "conformance":
            progress.item_done(*value)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if _is_worker(config) or _CONFIG not in config.stash:
        return
    progress = _ACTIVE.pop("progress", None)
    if progress is not None:
        progress.stop()
    cfg = config.stash[_CONFIG]
    seconds = time.perf_counter() - config.stash[_STARTED]
    report = build_report(journal.read_meta(cfg.report_dir), journal.read_records(cfg.report_dir),
                          seconds)
    if cfg.waivers is not None:
        report = apply_waivers(report, load_waivers(cfg.waivers, shipped_specs().vocabulary),
                               dt.date.today())
    paths = write_reports(cfg.report_dir, report)
    paths["html"] = write_html(cfg.report_dir, report)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.ensure_newline()
        stats = report["stats"]
        reporter.write_line(f"conformance: {report['outcome']} — {stats['cases']} cases, "
                            f"{stats['findings']} finding(s), {stats['cases_per_second']} cases/s; "
                            f"reports in {paths['json'].parent}")

