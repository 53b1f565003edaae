"""The run-time budgets of issue "Nine more operators", measured against the reference on this
machine, each figure from this one run (the machine is shared: compare ratios, not absolute times).

Run from the repository root:
  PYTHONPATH=. python benchmarks/bench_budgets.py [--ops A,B] [--skip-ci] [--ci-only] [--keep DIR]

- quick, every operator, one product (the quick default, atlas-a2), -n 2: budget 60 s;
- ci, one operator at a time, every product it lists, -n 2: budget 30 s per operator;
- ci serial vs -n 2 over the operators given (default every one): budget at least 1.7x faster.
Wall time of ``run_suite`` as a user sees it (pytest start-up, collection, items, reports).
"""
from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

import conformance
from conformance.generate.dry_run import shipped_specs


def cpu_seconds() -> float:
    """User and system CPU of this process and its finished children (the xdist workers)."""
    return sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for f in ("ru_utime", "ru_stime"))


def timed(report_dir: Path, **kw) -> tuple[float, dict]:
    start, cpu = time.perf_counter(), cpu_seconds()
    report = conformance.run_suite("reference", report_dir=report_dir, **kw)
    seconds = time.perf_counter() - start
    report["bench_cpu"] = cpu_seconds() - cpu  # less sensitive than wall time to a shared machine
    return seconds, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", default=None, help="comma-separated operators (default: every one)")
    parser.add_argument("--skip-ci", action="store_true", help="only the quick budget")
    parser.add_argument("--ci-only", action="store_true",
                        help="only ci per operator (no quick, no serial/parallel comparison)")
    parser.add_argument("--keep", metavar="DIR", default=None,
                        help="write the runs' report dirs under DIR and keep them (to compare)")
    args = parser.parse_args()
    ops = args.ops.split(",") if args.ops else list(shipped_specs().operators)
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep or tmp)
        if not args.ci_only:
            seconds, report = timed(root / "quick", profile="quick", ops=ops, workers="2")
            print(f"quick, {len(ops)} operators, one product, -n 2: {seconds:.1f} s (budget 60 s) — "
                  f"{report['stats']['items']} items, {report['stats']['cases']} cases, {report['outcome']}")
        if args.skip_ci:
            return
        worst = 0.0
        for api in ops:
            seconds, report = timed(root / f"ci-{api}", profile="ci", ops=[api], workers="2")
            worst = max(worst, seconds)
            print(f"ci, {api}, every product, -n 2: {seconds:.1f} s (budget 30 s), "
                  f"{report['bench_cpu']:.1f} CPU s — {report['stats']['cases']} cases, {report['outcome']}")
        print(f"ci: slowest operator {worst:.1f} s (budget 30 s); load average after: "
              f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if args.ci_only:
            return
        serial, _ = timed(root / "serial", profile="ci", ops=ops)
        parallel, _ = timed(root / "parallel", profile="ci", ops=ops, workers="2")
        print(f"ci, {len(ops)} operators: serial {serial:.1f} s, -n 2 {parallel:.1f} s: "
              f"{serial / parallel:.2f}x (budget at least 1.7x)")


if __name__ == "__main__":
    main()
