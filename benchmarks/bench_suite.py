"""Time the quick profile against the reference backend and a bare Hypothesis loop over the same cases.

Run from the repository root:  PYTHONPATH=. python benchmarks/bench_suite.py [--repeats N]

(a) the suite: ``conformance.run_suite("reference", profile="quick")``, read from report["stats"]
    (cases / seconds, where seconds run from pytest_configure to sessionfinish: collection, every
    item, the journal and the reports included; interpreter start-up excluded).
(b) the bare loop: for every item of the quick profile (conformance/run/plan.py ``plan``), the same
    strategy (``valid_cases`` or ``invalid_cases``) under the same Hypothesis settings and per-item
    seed as conformance/run/item_runner.py, so it draws the same examples; each example is materialised
    and passed once to ``ReferenceBackend.call``: no judge (no oracle call of its own, no checks, no
    golden run, no second call), no pytest, no journal or reports. The reference backend still asks
    the oracle inside ``call``, and ``invalid_cases`` still filters with it, as in the suite. Boundary
    items are a plain loop over ``boundary_cases`` (the suite does not use Hypothesis for them either).

Counting: one judged example (a Hypothesis example, or one boundary case) is one case, in both.
The suite calls the backend twice per valid case in determinism items (and runs the reference once
more per numerics case and per accepted unspecified case); it still counts one case, so those costs
are part of the suite's price per case. Examples rejected by ``assume`` count in neither.

Target: suite cases/s >= 50% of the bare loop's. Every rate is the best of ``--repeats`` runs,
the two loops interleaved.
"""
from __future__ import annotations

import argparse
import tempfile
import time

import numpy as np

import conformance
from conformance.backends.reference import ReferenceBackend
from conformance.cases.materialize import materialize
from conformance.generate.dry_run import shipped_specs
from conformance.generate.strategies import Drawn, boundary_cases
from conformance.run.item_runner import item_given
from conformance.run.plan import Item, plan
from conformance.run.profiles import DEFAULT_PRODUCT, PROFILES
from conformance.spec.model import SpecSet

PROFILE = "quick"
SEED = 0
TARGET = 0.5


def run_suite_once() -> tuple[int, float]:
    """(cases, seconds) of one quick-profile run, as the report states them."""
    with tempfile.TemporaryDirectory() as tmp:
        stats = conformance.run_suite("reference", profile=PROFILE, seed=SEED, report_dir=tmp)["stats"]
    return stats["cases"], stats["seconds"]


def _bare_item(item: Item, specs: SpecSet, backend: ReferenceBackend, max_examples: int) -> int:
    """Run one item with no checks; the number of cases it called the backend on."""
    count = 0

    def run(drawn: Drawn) -> None:
        nonlocal count
        args = materialize(drawn.case, specs, drawn.seed, drawn.regime).case.args
        backend.call(item.api, args)
        count += 1

    if item.subject == "boundary":
        for drawn in boundary_cases(specs, item.api, item.product):
            run(drawn)
        return count

    @item_given(item, specs, SEED, max_examples)  # the suite's own strategy, seed and settings
    def body(drawn: Drawn) -> None:
        run(drawn)

    body()
    return count


def run_bare_once() -> tuple[int, float]:
    """(cases, seconds) of the bare loop over every quick-profile item."""
    specs = shipped_specs()
    items = plan(specs, list(specs.operators), [DEFAULT_PRODUCT])
    backend = ReferenceBackend(specs, product=DEFAULT_PRODUCT)
    start = time.perf_counter()
    with np.errstate(all="ignore"):  # as the judge does: the special/huge regimes overflow on purpose
        cases = sum(_bare_item(item, specs, backend, PROFILES[PROFILE].max_examples) for item in items)
    return cases, time.perf_counter() - start


def best_rate(runs: list[tuple[int, float]]) -> tuple[int, float, list[float]]:
    """(cases of the best run, its cases/s, every run's cases/s)."""
    rates = [cases / seconds for cases, seconds in runs]
    best = max(range(len(runs)), key=rates.__getitem__)
    return runs[best][0], rates[best], rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each loop (>= 1)")
    repeats = max(1, parser.parse_args().repeats)
    specs = shipped_specs()
    items = plan(specs, list(specs.operators), [DEFAULT_PRODUCT])
    print(f"profile {PROFILE} on {DEFAULT_PRODUCT}: {len(items)} items, max_examples "
          f"{PROFILES[PROFILE].max_examples}, seed {SEED}, best of {repeats}")
    run_suite_once()  # warm-up: imports, spec loading and reference caches are paid once per process
    suite_runs, bare_runs = [], []
    for _ in range(repeats):  # interleaved, so a busy spell of a shared machine hits both alike
        suite_runs.append(run_suite_once())
        bare_runs.append(run_bare_once())
    suite_cases, suite_rate, suite_all = best_rate(suite_runs)
    bare_cases, bare_rate, bare_all = best_rate(bare_runs)
    print(f"suite (run_suite, report stats) : {suite_rate:8.1f} cases/s  ({suite_cases} cases; runs: "
          f"{', '.join(f'{r:.1f}' for r in suite_all)})")
    print(f"bare Hypothesis loop            : {bare_rate:8.1f} cases/s  ({bare_cases} cases; runs: "
          f"{', '.join(f'{r:.1f}' for r in bare_all)})")
    if suite_cases != bare_cases:
        print(f"note: the loops counted different numbers of cases ({suite_cases} vs {bare_cases})")
    ratio = suite_rate / bare_rate
    verdict = "met" if ratio >= TARGET else "NOT met"
    print(f"suite/bare                      : {ratio:8.2f}   (target >= {TARGET:.2f}: {verdict})")


if __name__ == "__main__":
    main()
