"""What isolation costs per call, and what the shared arena saves over pickling through the pipe.

Run from the repository root:  PYTHONPATH=. python benchmarks/bench_isolation.py [--seconds S]

One KL call whose four tensors hold ``size`` bytes in all, against benchmarks/null_backend.py (it
returns at once, so only the transport is timed): in process, isolated with the buffers pickled
through the pipe, and isolated through the shared arena (conformance/backends/arena.py, the
default). Calls per second are the best of three rounds of ``--seconds`` each, the three ways
interleaved; the ratios printed are of rates measured in this one run.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from conformance.backends.isolated import IsolatedBackend
from conformance.backends.protocol import call_checked
from conformance.cases.tensor import Tensor

NULL = f"{Path(__file__).with_name('null_backend.py')}:NullBackend"
KL = "aclnnKlDivBackward"
SIZES = (4 << 10, 1 << 20, 16 << 20)


def _args(size: int) -> dict:
    n = max(1, size // 16)  # four float32 tensors
    return {"gradOutput": Tensor(np.ones(n, np.float32)), "self": Tensor(np.ones(n, np.float32)),
            "target": Tensor(np.ones(n, np.float32)), "reduction": 0, "logTarget": False,
            "out": Tensor(np.zeros(n, np.float32))}


def _rate(backend, args: dict, seconds: float) -> float:
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        call_checked(backend, KL, args)
        calls += 1
    return calls / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timed round")
    opts = parser.parse_args()
    from benchmarks.null_backend import NullBackend

    ways = {"in-process": NullBackend(), "pipe": IsolatedBackend(NULL, "atlas-a2", 60, shared=False),
            "shared": IsolatedBackend(NULL, "atlas-a2", 60)}
    try:
        print(f"{'bytes':>10} {'in-process':>12} {'pipe':>10} {'shared':>10} {'shared/pipe':>12}")
        for size in SIZES:
            args = _args(size)
            best = dict.fromkeys(ways, 0.0)
            for _ in range(3):
                for name, backend in ways.items():
                    best[name] = max(best[name], _rate(backend, args, opts.seconds))
            print(f"{size:>10} {best['in-process']:>12.0f} {best['pipe']:>10.0f} {best['shared']:>10.0f} "
                  f"{best['shared'] / best['pipe']:>11.2f}x")
    finally:
        for backend in ways.values():
            getattr(backend, "close", lambda: None)()


if __name__ == "__main__":
    main()
