"""The speed-up of ``conformance run -n N`` over a serial run on this machine.

Run from the repository root:  PYTHONPATH=. python benchmarks/bench_parallel.py [--workers N]
[--profile ci] [--backend reference]

Both runs use the same seed, so they judge the same cases (tests/test_parallel.py asserts they
report the same findings); the wall time includes pytest start-up, collection, every item, the
journal and the reports, as a user sees it. Prints both rates and their ratio, measured in one run.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time

import conformance


def _timed(**kw) -> tuple[float, dict]:
    start = time.perf_counter()
    report = conformance.run_suite(**kw)
    return time.perf_counter() - start, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default=str(os.cpu_count() or 2), help="pytest-xdist workers")
    parser.add_argument("--profile", default="ci")
    parser.add_argument("--backend", default="reference")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        kw = dict(backend=opts.backend, profile=opts.profile, seed=0)
        serial_s, serial = _timed(report_dir=f"{tmp}/serial", **kw)
        parallel_s, parallel = _timed(report_dir=f"{tmp}/parallel", workers=opts.workers, **kw)
    assert serial["stats"]["cases"] == parallel["stats"]["cases"], "the two runs judged different cases"
    cases = serial["stats"]["cases"]
    print(f"{opts.backend}, profile {opts.profile}, {cases} cases, {os.cpu_count()} cores")
    print(f"serial:      {serial_s:7.1f} s  {cases / serial_s:7.1f} cases/s")
    print(f"-n {opts.workers:<8} {parallel_s:7.1f} s  {cases / parallel_s:7.1f} cases/s")
    print(f"speed-up: {serial_s / parallel_s:.2f}x")


if __name__ == "__main__":
    main()
