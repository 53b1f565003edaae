"""Small real runs shared by the report diff/merge tests: each is run once per test process."""
from __future__ import annotations

import atexit
import copy
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import conformance

KL = "aclnnKlDivBackward"
# The reference with one promise broken (KL-VALUES, batchmean): the run has a failing row and a
# finding, so comparing shards with the whole run compares findings too. The plain reference
# backend finds nothing.
MUTANT = f"{Path(__file__).with_name('mutants.py')}:BatchmeanBySelfDim0"
_ROOT = Path(tempfile.mkdtemp(prefix="conformance-report-runs-"))
atexit.register(shutil.rmtree, _ROOT, ignore_errors=True)


@cache
def _run(backend: str, keyword: str | None, products: tuple[str, ...],
         shard: str | None) -> dict[str, Any]:
    name = f"{backend.rsplit(':', 1)[-1]}-{keyword or 'all'}-{'+'.join(products)}-{shard}"
    return conformance.run_suite(backend, profile="quick", ops=[KL], products=list(products), max_examples=5,
                                 isolate=False,
                                 seed=0, report_dir=_ROOT / name.replace(" ", "_").replace("/", "of"),
                                 keyword=keyword, shard=shard)


def run(backend: str = MUTANT, keyword: str | None = None,
        products: tuple[str, ...] = ("atlas-a2",), shard: str | None = None) -> dict[str, Any]:
    """The report of a quick KL run (5 examples per item), a fresh copy each call."""
    return copy.deepcopy(_run(backend, keyword, tuple(products), shard))
