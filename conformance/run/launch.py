"""Start a run: resolve and record its configuration once, then drive the pytest plugin over the
suite package (``conformance run`` and ``run_suite`` both come through here)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance.errors import UsageError
from conformance.generate.dry_run import shipped_specs
from conformance.report import journal
from conformance.run.config import resolve, start
from conformance.run.lock import ReportDirLock
from conformance.run.selection import check_report_dir, check_selection, mark

SUITE_DIR = Path(__file__).parent.parent / "suite"
PLUGIN = "conformance.run.pytest_plugin"


def launch(args: argparse.Namespace) -> int:
    """Validate ``args`` (``UsageError``, exit 2, before anything is written), lock the report dir
    (``UsageError`` when another run holds it), record the run's start, run pytest; its exit code."""
    import pytest

    specs = shipped_specs()
    cfg, about = resolve(specs, args.backend, args.product, args.op, args.profile, args.seed,
                         args.max_examples, args.report_dir, args.shard, args.waivers, args.isolate,
                         args.case_timeout, args.resume, getattr(args, "precision", "strict"),
                         getattr(args, "golden", None))
    argv = pytest_args(args) + ["--conformance-started"]
    if args.numprocesses:
        check_no_shadowing_checkout()
    check_selection(specs, cfg, args.keyword)
    check_report_dir(cfg.report_dir, cfg.resume)
    if cfg.resume:
        journal.check_resumable(cfg.report_dir, cfg.meta(specs, about))
    with ReportDirLock(cfg.report_dir):  # held until pytest is done, however it ends
        mark(cfg.report_dir)
        start(specs, cfg, about)
        return int(pytest.main(argv))


def check_no_shadowing_checkout(cwd: Path | None = None) -> None:
    """xdist workers put their working directory first on their path: started in a source checkout
    while this process runs an installed copy of the package, they would import the checkout's and
    die on the mismatch (a run of 0 items). ``UsageError`` saying so, before anything is written."""
    here = cwd or Path.cwd()
    shadow = here / "conformance" / "__init__.py"
    running = Path(__file__).resolve().parent.parent / "__init__.py"
    if shadow.is_file() and shadow.resolve() != running:
        raise UsageError(f"-n: the workers would import {shadow.parent} (the current directory) "
                         f"instead of the installed {running.parent}: run from another directory, "
                         "or install this checkout with pip install -e .")


def pytest_args(args: argparse.Namespace) -> list[str]:
    # -p: the plugin also when pytest's entry points are off (PYTEST_DISABLE_PLUGIN_AUTOLOAD) or the
    # package runs uninstalled; it is registered under this same name, so never twice
    out = [str(SUITE_DIR), "-c", str(SUITE_DIR / "pytest.ini"), "--rootdir", str(SUITE_DIR),
           "-p", PLUGIN, "-p", "no:terminal", "--conformance-backend", args.backend,
           "--conformance-profile", args.profile, "--conformance-seed", str(args.seed),
           "--conformance-report-dir", str(args.report_dir)]
    for p in args.product:
        out += ["--conformance-product", p]
    for op in args.op:
        out += ["--conformance-op", op]
    if args.max_examples is not None:
        out += ["--conformance-max-examples", str(args.max_examples)]
    if args.numprocesses:
        out += ["-n", _workers(args.numprocesses)]
    if args.keyword:
        out += ["-k", args.keyword]
    if args.exitfirst:
        out.append("-x")
    if getattr(args, "isolate", None) is not None:
        out += ["--conformance-isolate", "yes" if args.isolate else "no"]
    if getattr(args, "case_timeout", None) is not None:
        out += ["--conformance-case-timeout", str(args.case_timeout)]
    if getattr(args, "waivers", None):
        out += ["--conformance-waivers", str(args.waivers)]
    if getattr(args, "shard", None):
        out += ["--conformance-shard", args.shard]
    if getattr(args, "resume", False):
        out.append("--conformance-resume")
    out += ["--conformance-precision", getattr(args, "precision", "strict")]
    if getattr(args, "golden", None):
        out += ["--conformance-golden", args.golden]
    if not getattr(args, "quiet", True) and _on_terminal():
        out.append("--conformance-progress")
    return out


def _on_terminal() -> bool:
    """Live progress only for a person watching: not into a log file or a CI job's pipe."""
    return sys.stderr.isatty()


def _workers(value: object) -> str:
    """``-n``: a positive number of workers or ``auto``."""
    text = str(value)
    if text != "auto" and not (text.isdigit() and int(text) >= 1):
        raise UsageError(f"-n {text}: expected a positive number of workers or auto")
    return text
